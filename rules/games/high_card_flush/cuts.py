"""The cuts a High Card Flush win may take (docs/rules.md HCF-14, HCF-16): the bonus cap per hand,
the bonus cap per round, and the Designated Player's money. Each cut is named in the bet's
reason ("cut by N to M: why").

The order, for one raised hand (HCF-14: the per-hand cap "applies before HCF-16"): the per-hand
cap, then what is left of the round's cap, then the DP's money; what the hand's bonus bets are
then actually paid is what the round's cap gives up (`bonus_won` of the bets after HCF-16).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.said import Said, say


@dataclass(frozen=True, slots=True)
class BetResult:
    """One bet's outcome: `result` is signed (+ won, - stake lost, 0 push/returned/not made)."""

    stake: int
    result: int
    reason: Said


def _reduce(bet: BetResult, by: int, why: Said) -> BetResult:
    left = bet.result - by
    return BetResult(bet.stake, left, say("{reason}, cut by {by} to {left}: {why}", reason=bet.reason, by=by, left=left,
                                          why=why))


def bonus_won(flush: BetResult, straight_flush: BetResult) -> int:
    """What a hand's bonus bets win together, stakes excluded (HCF-14)."""
    return max(flush.result, 0) + max(straight_flush.result, 0)


Bonus = tuple[BetResult, BetResult]
"""A hand's Flush bet and Straight Flush bet."""


def _cut_bonus(flush: BetResult, straight_flush: BetResult, most: int, why: Said) -> Bonus:
    """The bonus winnings cut to `most`, the Straight Flush winnings first, then the Flush."""
    excess = bonus_won(flush, straight_flush) - most
    if excess <= 0:
        return flush, straight_flush
    cut = min(excess, max(straight_flush.result, 0))
    if cut:
        straight_flush = _reduce(straight_flush, cut, why)
    if excess - cut:
        flush = _reduce(flush, excess - cut, why)
    return flush, straight_flush


def cap_bonus(flush: BetResult, straight_flush: BetResult, cap: int | None) -> Bonus:
    """HCF-14: one hand's bonus winnings are cut to the cap, Straight Flush winnings first."""
    if cap is None:
        return flush, straight_flush
    return _cut_bonus(flush, straight_flush, cap, say("the {cap} bonus cap (HCF-14)", cap=cap))


def cap_round_bonus(
    flush: BetResult, straight_flush: BetResult, left: int | None, cap: int | None
) -> Bonus:
    """HCF-14: a hand's bonus winnings, after the per-hand cap, cut to `left`, what the hands
    settled before it left of the round's `cap`, Straight Flush winnings first."""
    if left is None or cap is None:
        return flush, straight_flush
    why = say("the round's {cap} bonus cap had {left} left (HCF-14)", cap=cap, left=left)
    return _cut_bonus(flush, straight_flush, left, why)


def limit_to_bank(bets: list[BetResult], available: int) -> list[BetResult]:
    """HCF-16: a net win above the DP's money is cut to it, from the Straight Flush win first,
    then the Flush win, the Raise and the Ante (`bets`: ante, raise, flush, straight flush)."""
    shortfall = sum(b.result for b in bets) - available
    if shortfall <= 0:
        return bets
    why = say("the DP had only {available} left (HCF-16)", available=available)
    out = list(bets)
    for i in (3, 2, 1, 0):
        cut = min(shortfall, max(out[i].result, 0))
        if cut:
            out[i] = _reduce(out[i], cut, why)
            shortfall -= cut
    return out
