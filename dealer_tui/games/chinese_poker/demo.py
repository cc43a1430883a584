"""A simple Chinese Poker player: each seat in turn from the button's left takes the suggested
setting, declares a natural when the cards hold one (CP-9), and locks; then the dealer opens the
rows and confirms the payout. A pure function of the round's state (the rng is not needed)."""

from __future__ import annotations

import random

from dealer_tui.games.chinese_poker.round import ChinesePokerRound
from dealer_tui.rounds.base import Action, Phase, Round


def choose(rnd: Round, rng: random.Random) -> Action:
    assert isinstance(rnd, ChinesePokerRound)
    if rnd.phase is Phase.ANTE:
        return Action("deal")
    if rnd.phase is Phase.ACT:
        seat = rnd.waiting()[0]
        specs = {s.kind: s for s in rnd.legal_actions() if s.seat == seat}
        if rnd.seats[seat].rows is None:
            return Action("suggest", seat)
        if "declare_natural" in specs:
            return Action("declare_natural", seat, data=specs["declare_natural"].data)
        return Action("lock", seat, data=specs["lock"].data)
    if rnd.phase is Phase.REVEAL:
        return Action("reveal")
    return Action("confirm_payout")
