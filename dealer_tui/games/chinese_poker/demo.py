"""A simple Chinese Poker player: each seat in turn from the button's left takes the suggested
setting, declares a natural when the cards hold one (CP-9), and locks; then the dealer opens the
rows and confirms the payout. A pure function of the round's state (the rng is not needed)."""

from __future__ import annotations

import random

from dealer_tui.games.chinese_poker.round import ChinesePokerRound
from dealer_tui.games.chinese_poker.steps import DeclareNatural, Lock, Suggest
from dealer_tui.rounds.base import ConfirmPayout, Deal, Phase, Reveal, Round, Step


def choose(rnd: Round, rng: random.Random) -> Step:
    assert isinstance(rnd, ChinesePokerRound)
    if rnd.phase is Phase.ANTE:
        return Deal()
    if rnd.phase is Phase.ACT:
        seat = rnd.waiting()[0]
        specs = {s.step: s for s in rnd.legal_steps() if s.seat == seat}
        if rnd.seats[seat].rows is None:
            return Suggest(seat=seat)
        if DeclareNatural in specs:
            return DeclareNatural(seat=seat, **specs[DeclareNatural].data)
        return Lock(seat=seat, **specs[Lock].data)
    if rnd.phase is Phase.REVEAL:
        return Reveal()
    return ConfirmPayout()
