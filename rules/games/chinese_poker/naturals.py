"""Chinese Poker naturals (docs/rules.md CP-9): what 13 cards hold, and rows of 3/5/5 that show it.

A natural belongs to the 13 cards, not to the rows they were set in: three flushes and three
straights count when some split of the cards into rows of 3, 5 and 5 shows them. `natural_in`
names the natural of 13 cards; `rows_showing` finds such a split for the terminal to show.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from itertools import combinations_with_replacement, product

from rules.cards import Card
from rules.evaluator import Category, category_of, encode, hand_value
from rules.said import Said, say

Rows = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
SIZES = (3, 5, 5)


class Natural(Enum):
    """The automatic wins (CP-9) in naming precedence: a hand holding several takes the first."""

    DRAGON = "dragon"
    SIX_PAIRS = "six pairs"
    THREE_FLUSHES = "three flushes"
    THREE_STRAIGHTS = "three straights"

    @property
    def profile_key(self) -> str:
        """The field of `ChinesePokerProfile.naturals` holding its points."""
        return self.name.lower()

    @property
    def said(self) -> Said:
        """The natural's name as a sentence names it (translated where it is shown)."""
        return _NAMES[self]


_NAMES = {Natural.DRAGON: say("dragon"), Natural.SIX_PAIRS: say("six pairs"),
          Natural.THREE_FLUSHES: say("three flushes"), Natural.THREE_STRAIGHTS: say("three straights")}


# Rank masks of a 3-card run: 2-3-4 up to Q-K-A, and A-2-3 (ranks 0..12 for 2..A).
_RUN_MASKS = frozenset({0b111 << low for low in range(11)} | {(1 << 12) | 0b11})
_STRAIGHTS = (Category.STRAIGHT, Category.STRAIGHT_FLUSH)
# The runs a row of three (A-2-3 to Q-K-A) or of five (A-2-3-4-5 to T-J-Q-K-A) can be.
_THREE_RUNS = ((12, 0, 1), *(tuple(range(low, low + 3)) for low in range(11)))
_FIVE_RUNS = ((12, 0, 1, 2, 3), *(tuple(range(low, low + 5)) for low in range(9)))


def _key(ranks: Sequence[int]) -> int:
    """Rank counts packed 3 bits a rank: runs add up without carrying (at most 4 cards a rank)."""
    return sum(1 << (3 * r) for r in ranks)


_FIVE_PAIRS: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {
    _key(a) + _key(b): (a, b) for a, b in combinations_with_replacement(_FIVE_RUNS, 2)
}


def is_flush_row(cards: Sequence[Card]) -> bool:
    """Every card of the row in one suit (CP-9: a 3-card front counts)."""
    return len({c.suit for c in cards}) == 1


def is_straight_row(cards: Sequence[Card]) -> bool:
    """A front of 3 consecutive ranks (A-2-3 and Q-K-A count) or a 5-card straight (CP-9)."""
    if len(cards) == 3:
        return sum(1 << c.rank for c in cards) in _RUN_MASKS
    return len(cards) == 5 and category_of(hand_value(encode(cards))) in _STRAIGHTS


def pair_count(cards: Sequence[Card]) -> int:
    """Pairs for six pairs (CP-9): over ranks, cards of the rank // 2 (quads 2, trips 1)."""
    counts = [0] * 13
    for c in cards:
        counts[c.rank] += 1
    return sum(n // 2 for n in counts)


def _ordered(front: Sequence[Card], a: Sequence[Card], b: Sequence[Card]) -> Rows:
    """The rows with the higher 5-card row at the back, so the split reads as a set hand."""
    middle, back = tuple(a), tuple(b)
    if hand_value(encode(middle)) > hand_value(encode(back)):
        middle, back = back, middle
    return tuple(front), middle, back


def _flush_rows(cards: Sequence[Card]) -> Rows | None:
    """A split whose three rows are each of one suit: each row takes a suit, and every suit's
    cards fill exactly the rows that took it (highest cards to the back)."""
    by_suit: dict[int, list[Card]] = {}
    for c in sorted(cards, key=lambda c: -c.rank):
        by_suit.setdefault(c.suit, []).append(c)
    for suits in product(sorted(by_suit), repeat=3):
        if all(sum(n for n, s in zip(SIZES, suits, strict=True) if s == suit) == len(held)
               for suit, held in by_suit.items()):
            pools = {suit: list(held) for suit, held in by_suit.items()}
            back = [pools[suits[2]].pop(0) for _ in range(5)]
            middle = [pools[suits[1]].pop(0) for _ in range(5)]
            return _ordered([pools[suits[0]].pop(0) for _ in range(3)], middle, back)
    return None


def _straight_rows(cards: Sequence[Card]) -> Rows | None:
    """A split whose rows are a 3-card run and two 5-card straights (suits play no part)."""
    whole = _key([c.rank for c in cards])
    for front in _THREE_RUNS:
        fives = _FIVE_PAIRS.get(whole - _key(front))
        if fives is None:
            continue
        pools: dict[int, list[Card]] = {}
        for c in sorted(cards, key=lambda c: c.suit):
            pools.setdefault(c.rank, []).append(c)
        rows = [[pools[r].pop(0) for r in run] for run in (front, *fives)]
        return _ordered(rows[0], rows[1], rows[2])
    return None


def natural_in(cards: Sequence[Card]) -> Natural | None:
    """The natural 13 cards hold, by CP-9 precedence, whatever rows they were set in."""
    if len(cards) != 13:
        return None
    if len({c.rank for c in cards}) == 13:
        return Natural.DRAGON
    if pair_count(cards) >= 6:
        return Natural.SIX_PAIRS
    if _flush_rows(cards) is not None:
        return Natural.THREE_FLUSHES
    if _straight_rows(cards) is not None:
        return Natural.THREE_STRAIGHTS
    return None


def shows(natural: Natural, rows: Sequence[Sequence[Card]]) -> bool:
    """Whether rows of 3/5/5 display the natural (a dragon or six pairs shows in any rows)."""
    if tuple(len(r) for r in rows) != SIZES:
        return False
    if natural is Natural.THREE_FLUSHES:
        return all(is_flush_row(r) for r in rows)
    if natural is Natural.THREE_STRAIGHTS:
        return all(is_straight_row(r) for r in rows)
    return natural_in([c for r in rows for c in r]) is natural


def rows_showing(cards: Sequence[Card], natural: Natural) -> Rows | None:
    """Rows of 3/5/5 of the 13 cards that show `natural`, or None when the cards do not hold it.

    Three flushes and three straights: a split found for them; a dragon or six pairs: the cards
    in rank order, the highest five at the back."""
    if natural is Natural.THREE_FLUSHES:
        return _flush_rows(cards)
    if natural is Natural.THREE_STRAIGHTS:
        return _straight_rows(cards)
    if natural_in(cards) is not natural:
        return None
    ranked = sorted(cards, key=lambda c: (c.rank, -c.suit))
    return _ordered(ranked[:3], ranked[3:8], ranked[8:])
