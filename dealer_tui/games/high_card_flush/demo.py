"""A simple High Card Flush player (the `mousseau` rule): raise the cap with a 4+ card flush,
raise 1x on a 3-card flush of T-8-6 or better, otherwise fold. Antes the table minimum."""

from __future__ import annotations

import random

from dealer_tui.games.high_card_flush.round import HighCardFlushRound
from dealer_tui.games.high_card_flush.steps import Ante, Fold, Raise
from dealer_tui.rounds.base import ConfirmPayout, Deal, Phase, Reveal, Round, Step
from rules.cards import Rank
from rules.games.high_card_flush import rules as hcf

T86 = 3 << hcf.RANK_BITS | 1 << Rank.TEN | 1 << Rank.EIGHT | 1 << Rank.SIX


def choose(rnd: Round, rng: random.Random) -> Step:
    assert isinstance(rnd, HighCardFlushRound)
    if rnd.phase is Phase.ANTE:
        for spec in rnd.legal_steps():
            if spec.step is Ante:
                bonus = rnd.profile.limits.flush.min if rng.random() < 0.3 else 0
                return Ante(seat=spec.seat, amount=spec.min_amount, flush=bonus, straight_flush=bonus)
        return Deal()
    if rnd.phase is Phase.ACT:
        p = rnd.to_act()
        assert p is not None
        key = hcf.flush_key(c.index for c in p.cards)
        low, high = rnd.raise_bounds(p.seat)
        if hcf.flush_length(key) >= 4:
            return Raise(seat=p.seat, amount=high)
        if key >= T86:
            return Raise(seat=p.seat, amount=low)
        return Fold(seat=p.seat)
    if rnd.phase is Phase.REVEAL:
        return Reveal()
    return ConfirmPayout()
