"""The one poker evaluator every game calls (docs/rules.md C-4, C-6, C-7, CP-2).

Fast path: `hand_value(codes)` takes a sequence of int card codes (`CODES[card.index]` or
`encode(cards)`) and returns an int; a higher int is a better hand. It serves 0 to 9 cards:
five or more give the best 5-card hand (C-4), fewer rank by C-6 (high card, pairs, trips,
quads only), and values compare across sizes (a 3-card Chinese front against a 5-card middle).

Rich path: `evaluate(cards)` returns a `HandRank` with the category, the value, the hand's
name as docs/settle.md spells it, and the cards that make the hand in C-7 order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from itertools import combinations

from rules import hand_tables as _t
from rules.cards import Card, Rank, sort_cards


class Category(IntEnum):
    """Poker hand categories, low to high (C-4)."""

    HIGH_CARD = _t.HIGH_CARD
    ONE_PAIR = _t.ONE_PAIR
    TWO_PAIR = _t.TWO_PAIR
    THREE_OF_A_KIND = _t.TRIPS
    STRAIGHT = _t.STRAIGHT
    FLUSH = _t.FLUSH
    FULL_HOUSE = _t.FULL_HOUSE
    FOUR_OF_A_KIND = _t.QUADS
    STRAIGHT_FLUSH = _t.STRAIGHT_FLUSH

    @property
    def hand_name(self) -> str:
        """The name as docs/settle.md spells it (`three of a kind`)."""
        return self.name.lower().replace("_", " ")


CATEGORY_SHIFT = _t.CATEGORY_SHIFT
CODES: tuple[int, ...] = tuple(_t.card_code(i // 4, i % 4) for i in range(52))

_RANK_TABLE, _FLUSH_TABLE = _t.load()
_LOW16 = 0xFFFF


def _build_suit_table() -> list[int]:
    """Index: the four 4-bit suit counters. 0 = no flush possible (table path);
    the suit's counter bit = five or more of that suit among at most 7 cards; -1 = slow path."""
    table = [-1] * (1 << 16)
    for s in range(8):
        for h in range(8 - s):
            for d in range(8 - s - h):
                for c in range(8 - s - h - d):
                    counts = (s, h, d, c)
                    idx = s | h << 4 | d << 8 | c << 12
                    flush_suit = next((i for i, n in enumerate(counts) if n >= 5), None)
                    table[idx] = 0 if flush_suit is None else 1 << (4 * flush_suit)
    return table


_SUIT_TABLE = _build_suit_table()


def hand_value(
    codes: Sequence[int],
    _sum: Callable[[Iterable[int]], int] = sum,
    _suit: list[int] = _SUIT_TABLE,
    _ranks: dict[int, int] = _RANK_TABLE,
    _flush: list[int] = _FLUSH_TABLE,
) -> int:
    """Value of the best hand in `codes` (0-9 card codes); higher is better.

    The sum of the codes carries per-suit counts and a unique key of the rank multiset:
    one table lookup decides whether a flush is possible, one dict lookup values the rest.
    """
    k = _sum(codes)
    s = _suit[k & 0xFFFF]
    if not s:
        return _ranks[k >> 16]
    if s > 0:
        m = 0
        for c in codes:
            if c & 0xFFFF == s:
                m |= 1 << (c >> 47)
        return _flush[m]
    return _value_slow(codes)


def _value_slow(codes: Sequence[int]) -> int:
    """Any number of cards: best of the non-flush value and every suit's flush value."""
    counts = [0] * 13
    suit_masks = [0, 0, 0, 0]
    for c in codes:
        rank = c >> 47
        counts[rank] += 1
        suit = (c & _LOW16).bit_length() // 4
        suit_masks[suit] |= 1 << rank
    best = _t.value_from_counts(counts) if codes else 0
    for mask in suit_masks:
        if mask.bit_count() >= 5:
            best = max(best, _t.flush_value(mask))
    return best


def encode(cards: Iterable[Card]) -> tuple[int, ...]:
    """Card codes for the fast path."""
    return tuple(CODES[c.index] for c in cards)


def category_of(value: int) -> Category:
    return Category(value >> CATEGORY_SHIFT)


def top_rank_of(value: int) -> Rank | None:
    """The first tie-break rank of a value (the straight's top card, the pair's rank...)."""
    slot = (value >> 16) & 0xF
    return Rank(slot - 1) if slot else None


def hand_name(value: int) -> str:
    """`royal flush` for the ace-high straight flush, else the category's name."""
    category = category_of(value)
    if category is Category.STRAIGHT_FLUSH and top_rank_of(value) is Rank.ACE:
        return "royal flush"
    return category.hand_name


@dataclass(frozen=True, slots=True)
class HandRank:
    """A valued hand: compare by `value`; `cards` are the ones that make it, in C-7 order."""

    value: int
    cards: tuple[Card, ...]

    @property
    def category(self) -> Category:
        return category_of(self.value)

    @property
    def name(self) -> str:
        return hand_name(self.value)

    @property
    def texts(self) -> list[str]:
        return [c.text for c in self.cards]


def playing_order(cards: Iterable[Card], value: int) -> tuple[Card, ...]:
    """C-7: descending rank, suits s h d c; a straight from its top card down (wheel: ace last)."""
    ordered = sort_cards(cards)
    category = category_of(value)
    is_run = category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH)
    if is_run and top_rank_of(value) is Rank.FIVE and ordered and ordered[0].rank is Rank.ACE:
        ordered = ordered[1:] + ordered[:1]
    return tuple(ordered)


def evaluate(cards: Sequence[Card]) -> HandRank:
    """The best hand of 0-9 cards with the cards that make it (a 5-card subset when 5 or more)."""
    codes = encode(cards)
    value = hand_value(codes)
    if len(cards) <= 5:
        return HandRank(value, playing_order(cards, value))
    for subset in combinations(range(len(cards)), 5):
        if hand_value([codes[i] for i in subset]) == value:
            return HandRank(value, playing_order([cards[i] for i in subset], value))
    raise AssertionError("no 5-card subset reaches the best value")  # pragma: no cover
