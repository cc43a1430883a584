"""A simple "1 or 5" player: close with Ace-King or better; exchange one card with four to a
flush or an open-ended straight, else all five; after an exchange close with a pair or better."""

from __future__ import annotations

import random
from collections import Counter

from dealer_tui.games.one_or_five.round import OneOrFiveRound
from dealer_tui.games.one_or_five.steps import Ante, Bet, CutAndDeal, Exchange, Fold, NoInsurance
from dealer_tui.rounds.base import ConfirmPayout, Phase, Reveal, Round, Step
from rules.cards import Card, Rank
from rules.games.one_or_five import rules as rules


def choose(rnd: Round, rng: random.Random) -> Step:
    assert isinstance(rnd, OneOrFiveRound)
    if rnd.phase is Phase.ANTE:
        for spec in rnd.legal_steps():
            if spec.step is Ante and spec.seat is not None and not any(b.seat == spec.seat for b in rnd.boxes.values()):
                return Ante(seat=spec.seat, amount=spec.min_amount)
        return CutAndDeal(cut=rng.choice(["player", "dealer"]))
    if rnd.phase is Phase.ACT:
        box = rnd.current_box()
        assert box is not None
        kinds = {s.step for s in rnd.legal_steps()}
        if box.status == "closed":
            return NoInsurance(seat=box.seat)
        hand = rules.hand_of(box.cards)
        if box.status == "waiting" and hand.name == rules.HIGH_CARD and Exchange in kinds:
            discard = _one_to_draw(box.cards)
            count = 1 if discard else 5
            if count in rnd.profile.exchange.counts:
                cards = [discard] if discard else list(box.cards)
                return Exchange(seat=box.seat, amount=count, discard=" ".join(c.text for c in cards))
        strong = hand.name != rules.HIGH_CARD if box.status == "waiting" else hand.strength >= rules.HAND_NAMES.index("one pair")
        return (Bet if strong and Bet in kinds else Fold)(seat=box.seat)
    if rnd.phase is Phase.REVEAL:
        return Reveal()
    return ConfirmPayout()


def _one_to_draw(cards: tuple[Card, ...]) -> Card | None:
    """The card to throw from four to a flush or an open-ended straight, or None."""
    suits = Counter(c.suit for c in cards)
    suit, count = suits.most_common(1)[0]
    if count == 4:
        return next(c for c in cards if c.suit != suit)
    for card in cards:
        rest = sorted(c.rank for c in cards if c is not card)
        # four in a row below the ace: two ends to fill (2-3-4-5 fills with the ace or the 6)
        if len(set(rest)) == 4 and rest[3] - rest[0] == 3 and rest[3] < Rank.ACE:
            return card
    return None
