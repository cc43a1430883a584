"""High Card Flush settlement in chips only (docs/rules.md HCF-8..HCF-17, HCF-20), for settling rounds
in bulk: the rules of `high_card_flush_settlement` on plain integers, without reasons and without
an object per bet. It is the one integer form of that settlement (the simulator's vectorised one
aside), and it gives the same chips for every round (tests/test_settle_high_card_flush_brief.py:
hypothesis rounds settled both ways, and the JSON lines of `settle --jsonl` byte for byte).

Kept because `settle --jsonl` needs it: on the same 10,000 seeded rounds, in one run of
`bench/settle_hcf.py --compare` (5 runs of each way in turn, load ~2), the command end to end took
1.94x the CPU time (1.95x the wall time) with every round through the readable settlement, 1.95x
with every reason text left empty (the most a fast path skipping the reasons could save), and
1.79x (1.59x the wall time) with the brief reader and writer of `rules.games.high_card_flush.settle_brief`
around the readable settlement in place of this module. It would have been folded into the
readable settlement at 1.3x or less (bench/README.md).

A hand is `(seat, ante, raised, flush, straight_flush, flush_key, run_key)`: bets in chips
(`raised` 0 = folded) and the keys of `high_card_flush` (`flush_key`, `straight_flush_key`), -1
when the cards are not known. A bet's result is signed as in docs/settle.md. The paytables are the
readable settlement's (`pay_lines`), the terms its `Terms`.

Preconditions as for `settle`: cards known wherever the result depends on them, legal raises.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.games.high_card_flush.profile import HighCardFlushProfile
from rules.games.high_card_flush.rules import (
    MIN_FLUSH_BET_LENGTH,
    MIN_STRAIGHT_FLUSH,
    QUALIFYING_KEY,
    RANK_BITS,
    settlement_order,
)
from rules.games.high_card_flush.settlement import Terms, pay_lines

Hand = tuple[int, int, int, int, int, int, int]
HandResult = tuple[bool, int, int, int, int, int]
"""`(dead, ante, raise, flush, straight_flush, rake)`."""

_SHORTEST_RUN = MIN_STRAIGHT_FLUSH << 4
"""The lowest run key of a straight flush that counts (HCF-12)."""


@dataclass(frozen=True, slots=True)
class Odds:
    """A profile's bonus paytables as odds by card count (0..7), None where no line pays."""

    flush: tuple[int | None, ...]
    straight_flush: tuple[int | None, ...]

    @classmethod
    def of(cls, profile: HighCardFlushProfile) -> Odds:
        return cls(pay_lines(profile.paytables.flush), pay_lines(profile.paytables.straight_flush))


@dataclass(frozen=True, slots=True)
class Chips:
    """A settled round: `hands` in the order the hands were given."""

    hands: list[HandResult]
    order: tuple[int, ...]
    banker_rake: int
    banker_net: int
    house_rake: int


def _bonus_cap(flush: int, straight_flush: int, cap: int | None) -> tuple[int, int]:
    """HCF-14: one hand's bonus winnings cut to the cap (per hand, or what is left of the
    round's), Straight Flush winnings first."""
    if cap is None:
        return flush, straight_flush
    sf_won = max(0, straight_flush)
    excess = max(0, flush) + sf_won - cap
    if excess <= 0:
        return flush, straight_flush
    cut = min(excess, sf_won)
    return flush - (excess - cut), straight_flush - cut


def _main_bets(ante: int, raised: int, key: int, banker_key: int) -> tuple[int, int]:
    """HCF-8, HCF-9: Ante and Raise of a raised hand against the banker's flush key."""
    if banker_key < QUALIFYING_KEY:
        return ante, 0
    if key > banker_key:
        return ante, raised
    if key == banker_key:
        return 0, 0
    return -ante, -raised


def _run_length(run_key: int) -> int:
    """The length of the straight flush that counts for the bet (HCF-12), 0 below 3 cards."""
    return run_key >> 4 if run_key >= _SHORTEST_RUN else 0


_RINGS: dict[tuple[int, int], tuple[int, ...]] = {}
"""Every seat but the banker's in the HCF-10 order, by table size and banker seat."""


def _ring(seats: int, banker_seat: int) -> tuple[int, ...]:
    ring = _RINGS.get((seats, banker_seat))
    if ring is None:
        ring = _RINGS[seats, banker_seat] = settlement_order(seats, banker_seat, range(1, seats + 1))
    return ring


def settle_designated_player(
    seats: int, banker: tuple[int, int, int, int], hands: Sequence[Hand], odds: Odds, terms: Terms
) -> Chips:
    """HCF-8..HCF-17: `banker` is `(seat, stack, flush_key, run_key)` of the Designated Player."""
    dp_seat, stack, dp_key, dp_run = banker
    by_seat = {hand[0]: k for k, hand in enumerate(hands)}
    ring = [seat for seat in _ring(seats, dp_seat) if seat in by_seat]
    order = (*(s for s in ring if not hands[by_seat[s]][2]), *(s for s in ring if hands[by_seat[s]][2]))
    player_rake, cap, left = terms.player_rake, terms.bonus_cap, terms.round_bonus_cap
    flush_odds, sf_odds = odds.flush, odds.straight_flush
    results: list[HandResult] = [(False, 0, 0, 0, 0, 0)] * len(hands)
    available = stack
    rake = 0
    for seat in order:
        k = by_seat[seat]
        _, ante, raised, flush, sf, key, run = hands[k]
        if not raised:  # HCF-11: the bonus bets go with the fold
            results[k] = (False, -ante, 0, -flush, -sf, player_rake)
            available += ante + flush + sf
            rake += player_rake
            continue
        if available < ante + raised + flush + sf:  # HCF-16: a dead hand, every bet returned
            results[k] = (True, 0, 0, 0, 0, 0)
            continue
        a, r = _main_bets(ante, raised, key, dp_key)
        f = s = 0
        if flush:  # HCF-13
            length = key >> RANK_BITS
            if length < MIN_FLUSH_BET_LENGTH or key < dp_key:
                f = -flush
            elif key > dp_key:
                line = flush_odds[length]
                f = -flush if line is None else flush * line
        if sf:  # HCF-12: ties go to the player
            length = _run_length(run)
            line = sf_odds[length]
            s = -sf if not length or run < dp_run or line is None else sf * line
        f, s = _bonus_cap(f, s, cap)
        if left is not None:  # HCF-14: what the hands before it left of the round's cap
            f, s = _bonus_cap(f, s, left)
        won = a + r + f + s
        if won > available:  # HCF-16: cut from the Straight Flush win first, then Flush, Raise, Ante
            shortfall = won - available
            cut = [0, 0, 0, 0]
            for i, result in ((3, s), (2, f), (1, r), (0, a)):
                cut[i] = min(shortfall, max(0, result))
                shortfall -= cut[i]
            a, r, f, s = a - cut[0], r - cut[1], f - cut[2], s - cut[3]
            won = available
        available -= won
        if left is not None:  # the round's cap gives up what the hand is paid, after HCF-16
            left -= max(0, f) + max(0, s)
        results[k] = (False, a, r, f, s, player_rake)
        rake += player_rake
    dp_rake = min(terms.banker_rake, available)
    return Chips(results, order, dp_rake, available - stack - dp_rake, dp_rake + rake)


def settle_house(banker_key: int, hands: Sequence[Hand], odds: Odds, terms: Terms) -> Chips:
    """HCF-20: unlimited house money, no rake, bonus bets paid on the player's own hand."""
    cap, left = terms.bonus_cap, terms.round_bonus_cap
    flush_odds, sf_odds = odds.flush, odds.straight_flush
    results: list[HandResult] = [(False, 0, 0, 0, 0, 0)] * len(hands)
    paid = 0
    by_seat = sorted(range(len(hands)), key=lambda k: hands[k][0])  # HCF-14: the round cap by seat
    for k in by_seat:
        _, ante, raised, flush, sf, key, run = hands[k]
        a, r = _main_bets(ante, raised, key, banker_key) if raised else (-ante, 0)
        f = s = 0
        if flush:
            line = flush_odds[key >> RANK_BITS]
            f = -flush if line is None else flush * line
        if sf:
            line = sf_odds[_run_length(run)]
            s = -sf if line is None else sf * line
        if flush or sf:
            f, s = _bonus_cap(f, s, cap)
            if left is not None:
                f, s = _bonus_cap(f, s, left)
                left -= max(0, f) + max(0, s)
        results[k] = (False, a, r, f, s, 0)
        paid += a + r + f + s
    return Chips(results, tuple(hands[k][0] for k in by_seat), 0, -paid, 0)
