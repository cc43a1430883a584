"""A simple Palace Poker player: everyone who can antes; buys toward a better hand while the hand
is young; attacks an opponent its battle hand beats on what shows (banner and soldiers) with a
pair or better; calls a battle with a pair or better, raises with two pair or better, folds a
weak defence; keeps the soldiers that make its best hand. It sees only its own cards and what
lies face up."""

from __future__ import annotations

import random
from collections.abc import Sequence

from dealer_tui.games.palace_poker.round import PalacePokerRound
from dealer_tui.games.palace_poker.steps import (
    Ante,
    Battle,
    Buy,
    Call,
    DealBanners,
    DealPalaces,
    Discard,
    DrawForDealer,
    Fold,
    Keep,
    Raise,
    Stay,
)
from dealer_tui.rounds.base import ConfirmPayout, LegalStep, Phase, Reveal, Round, Step
from rules.cards import Card, Rank, parse_cards
from rules.evaluator import Category, category_of, encode, hand_value
from rules.games.palace_poker.rules import PalaceHand

YOUNG_TURNS = 3  # buying stops after this many turns per player: quiet orbits then end the hand


def choose(rnd: Round, rng: random.Random) -> Step:
    assert isinstance(rnd, PalacePokerRound)
    specs = rnd.legal_steps()
    first: dict[type[Step], LegalStep] = {}
    for spec in specs:
        first.setdefault(spec.step, spec)
    if rnd.phase is Phase.ANTE:
        if DrawForDealer in first:
            return DrawForDealer()
        if Ante in first:
            return Ante(seat=first[Ante].seat, amount=first[Ante].min_amount)
        if DealBanners in first:
            return DealBanners()
    if rnd.phase is Phase.DEAL:
        return DealPalaces()
    if rnd.phase is Phase.ACT:
        if Keep in first:
            return _keep(rnd, first[Keep])
        if Call in first:
            return _answer(rnd, first, rng)
        return _turn(rnd, specs, first, rng)
    if rnd.phase is Phase.REVEAL:
        return Reveal()
    return ConfirmPayout()


def _value(cards: Sequence[Card]) -> int:
    return hand_value(encode(cards))


def _battle_value(mine: PalaceHand, theirs: PalaceHand) -> int:
    """PP-9: my best hand without the opponent's banner suit."""
    return _value([c for c in mine.cards if c.suit != theirs.banner_suit])


def _showing(theirs: PalaceHand, mine: PalaceHand) -> int:
    """What the opponent shows (banner and soldiers) without my banner suit."""
    return _value([c for c in (theirs.banner, *theirs.soldiers) if c.suit != mine.banner_suit])


def _keep(rnd: PalacePokerRound, spec: LegalStep) -> Step:
    """Drop the soldiers whose loss costs the least, as many as must go."""
    seat = spec.seat or 0
    hand = rnd.state.players[seat].hand
    assert hand is not None
    pool = list(parse_cards(str(spec.data["soldiers"])))
    base = [hand.banner, *hand.palace]
    dropped: list[Card] = []
    for _ in range(int(spec.data["min_discard"])):
        best = max(pool, key=lambda c: (_value(base + [k for k in pool if k != c]), -c.rank, -c.suit))
        pool.remove(best)
        dropped.append(best)
    return Keep(seat=seat, discard=" ".join(c.text for c in dropped))


def _answer(rnd: PalacePokerRound, first: dict[type[Step], LegalStep], rng: random.Random) -> Step:
    seat = first[Call].seat or 0
    battle = rnd.state.battle
    assert battle is not None
    other = battle.defender.seat if seat == battle.attacker.seat else battle.attacker.seat
    mine, theirs = rnd.state.players[seat].hand, rnd.state.players[other].hand
    assert mine is not None and theirs is not None
    category = category_of(_battle_value(mine, theirs))
    if Raise in first and category >= Category.TWO_PAIR and rng.random() < 0.5:
        return Raise(seat=seat, amount=first[Raise].min_amount)
    if category >= Category.ONE_PAIR or rng.random() < 0.35:
        return Call(seat=seat)
    return Fold(seat=seat)


def _turn(rnd: PalacePokerRound, specs: list[LegalStep], first: dict[type[Step], LegalStep],
          rng: random.Random) -> Step:
    seat = next(s.seat for s in specs if s.seat is not None)
    mine = rnd.state.players[seat].hand
    assert mine is not None
    attacks = [s for s in specs if s.step is Battle]
    if attacks and attacks[0].data.get("forced"):
        weak = category_of(_value(mine.cards)) is Category.HIGH_CARD
        return Fold(seat=seat) if weak and rng.random() < 0.1 else _attack(attacks[0], rng)
    best = None
    for spec in attacks:
        theirs = rnd.state.players[int(spec.data["target"])].hand
        assert theirs is not None
        value = _battle_value(mine, theirs)
        edge = value - _showing(theirs, mine)
        if category_of(value) >= Category.ONE_PAIR and edge > 0 and (best is None or edge > best[0]):
            best = (edge, spec)
    if best is not None and rng.random() < 0.6:
        return _attack(best[1], rng)
    category = category_of(_value(mine.cards))
    young = len(rnd.state.recent) < YOUNG_TURNS * len(rnd.state.order)
    if Buy in first and young and len(mine.soldiers) < 5 \
            and rng.random() < (0.25 if category >= Category.TWO_PAIR else 0.6):
        return Buy(seat=seat)
    if Discard in first and rng.random() < 0.1:
        return Discard(seat=seat, discard=first[Discard].data["discard"])
    if category is Category.HIGH_CARD and max(c.rank for c in mine.cards) < Rank.TEN and rng.random() < 0.2:
        return Fold(seat=seat)
    return (Stay if Stay in first else Fold)(seat=seat)  # fold when nothing else is offered (PP-15, PP-18)


def _attack(spec: LegalStep, rng: random.Random) -> Step:
    low, high = spec.min_amount or 0, spec.max_amount or 0
    amount = low if high == low or rng.random() < 0.7 else min(high, 2 * low)
    return Battle(seat=spec.seat, amount=amount, target=spec.data["target"])
