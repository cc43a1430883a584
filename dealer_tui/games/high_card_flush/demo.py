"""A simple High Card Flush player (the `mousseau` rule): raise the cap with a 4+ card flush,
raise 1x on a 3-card flush of T-8-6 or better, otherwise fold. Antes the table minimum."""

from __future__ import annotations

import random

from dealer_tui.games.high_card_flush.round import HighCardFlushRound
from dealer_tui.rounds.base import Action, Phase, Round
from rules.cards import Rank
from rules.games.high_card_flush import rules as hcf

T86 = 3 << hcf.RANK_BITS | 1 << Rank.TEN | 1 << Rank.EIGHT | 1 << Rank.SIX


def choose(rnd: Round, rng: random.Random) -> Action:
    assert isinstance(rnd, HighCardFlushRound)
    if rnd.phase is Phase.ANTE:
        for spec in rnd.legal_actions():
            if spec.kind == "ante":
                bonus = rnd.profile.limits.flush.min if rng.random() < 0.3 else 0
                return Action("ante", spec.seat, spec.min_amount, data={"flush": bonus, "straight_flush": bonus})
        return Action("deal")
    if rnd.phase is Phase.ACT:
        p = rnd.to_act()
        assert p is not None
        key = hcf.flush_key(c.index for c in p.cards)
        low, high = rnd.raise_bounds(p.seat)
        if hcf.flush_length(key) >= 4:
            return Action("raise", p.seat, high)
        if key >= T86:
            return Action("raise", p.seat, low)
        return Action("fold", p.seat)
    if rnd.phase is Phase.REVEAL:
        return Action("reveal")
    return Action("confirm_payout")
