"""A simple Palace Poker player: everyone who can antes; buys toward a better hand while the hand
is young; attacks an opponent its battle hand beats on what shows (banner and soldiers) with a
pair or better; calls a battle with a pair or better, raises with two pair or better, folds a
weak defence; keeps the soldiers that make its best hand. It sees only its own cards and what
lies face up."""

from __future__ import annotations

import random
from collections.abc import Sequence

from dealer_tui.games.palace_poker.round import PalacePokerRound
from dealer_tui.rounds.base import Action, ActionSpec, Phase, Round
from rules.cards import Card, Rank, parse_cards
from rules.evaluator import Category, category_of, encode, hand_value
from rules.games.palace_poker.rules import PalaceHand

YOUNG_TURNS = 3  # buying stops after this many turns per player: quiet orbits then end the hand


def choose(rnd: Round, rng: random.Random) -> Action:
    assert isinstance(rnd, PalacePokerRound)
    specs = rnd.legal_actions()
    first: dict[str, ActionSpec] = {}
    for spec in specs:
        first.setdefault(spec.kind, spec)
    if rnd.phase is Phase.ANTE:
        for kind in ("draw_for_dealer", "ante", "deal_banners"):
            if kind in first:
                return Action(kind, first[kind].seat, first[kind].min_amount)
    if rnd.phase is Phase.DEAL:
        return Action("deal_palaces")
    if rnd.phase is Phase.ACT:
        if "keep" in first:
            return _keep(rnd, first["keep"])
        if "call" in first:
            return _answer(rnd, first, rng)
        return _turn(rnd, specs, first, rng)
    if rnd.phase is Phase.REVEAL:
        return Action("reveal")
    return Action("confirm_payout")


def _value(cards: Sequence[Card]) -> int:
    return hand_value(encode(cards))


def _battle_value(mine: PalaceHand, theirs: PalaceHand) -> int:
    """PP-9: my best hand without the opponent's banner suit."""
    return _value([c for c in mine.cards if c.suit != theirs.banner_suit])


def _showing(theirs: PalaceHand, mine: PalaceHand) -> int:
    """What the opponent shows (banner and soldiers) without my banner suit."""
    return _value([c for c in (theirs.banner, *theirs.soldiers) if c.suit != mine.banner_suit])


def _keep(rnd: PalacePokerRound, spec: ActionSpec) -> Action:
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
    return Action("keep", seat, data={"discard": " ".join(c.text for c in dropped)})


def _answer(rnd: PalacePokerRound, first: dict[str, ActionSpec], rng: random.Random) -> Action:
    seat = first["call"].seat or 0
    battle = rnd.state.battle
    assert battle is not None
    other = battle.defender.seat if seat == battle.attacker.seat else battle.attacker.seat
    mine, theirs = rnd.state.players[seat].hand, rnd.state.players[other].hand
    assert mine is not None and theirs is not None
    category = category_of(_battle_value(mine, theirs))
    if "raise" in first and category >= Category.TWO_PAIR and rng.random() < 0.5:
        return Action("raise", seat, first["raise"].min_amount)
    if category >= Category.ONE_PAIR or rng.random() < 0.35:
        return Action("call", seat)
    return Action("fold", seat)


def _turn(rnd: PalacePokerRound, specs: list[ActionSpec], first: dict[str, ActionSpec],
          rng: random.Random) -> Action:
    seat = next(s.seat for s in specs if s.seat is not None)
    mine = rnd.state.players[seat].hand
    assert mine is not None
    attacks = [s for s in specs if s.kind == "battle"]
    if attacks and attacks[0].data.get("forced"):
        weak = category_of(_value(mine.cards)) is Category.HIGH_CARD
        return Action("fold", seat) if weak and rng.random() < 0.1 else _attack(attacks[0], rng)
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
    if "buy" in first and young and len(mine.soldiers) < 5 \
            and rng.random() < (0.25 if category >= Category.TWO_PAIR else 0.6):
        return Action("buy", seat)
    if "discard" in first and rng.random() < 0.1:
        return Action("discard", seat, data={"discard": first["discard"].data["discard"]})
    if category is Category.HIGH_CARD and max(c.rank for c in mine.cards) < Rank.TEN and rng.random() < 0.2:
        return Action("fold", seat)
    return Action("stay" if "stay" in first else "fold", seat)  # fold when nothing else is offered (PP-15, PP-18)


def _attack(spec: ActionSpec, rng: random.Random) -> Action:
    low, high = spec.min_amount or 0, spec.max_amount or 0
    amount = low if high == low or rng.random() < 0.7 else min(high, 2 * low)
    return Action("battle", spec.seat, amount, data={"target": spec.data["target"]})
