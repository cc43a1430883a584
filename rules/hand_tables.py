"""Precomputed tables behind the fast evaluator, and the code that builds them.

The tables ship in `rules/data/hand_tables.bin` and load in a few milliseconds; the build
(`python -m rules.hand_tables`) is only run when the encoding changes, and a test checks that
the shipped file equals a fresh build and matches its recorded checksum.

Card code (one int per card; sums of up to 9 codes stay below 2**63, so `sum()` stays on
its machine-integer fast path):

    bits  0..15  suit counters, 4 bits per suit (1 << 4*suit)
    bits 16..46  rank multiset key, 5**rank (unique for up to 4 cards of a rank)
    bits 47..    rank index (0 = deuce .. 12 = ace); summed it is harmless garbage
                 above the multiset key, read per card on the flush path

Hand value: `category << 20 | five 4-bit rank slots` (rank + 1 per slot, 0 = no card), so a
longer hand whose cards match a shorter one rank for rank is higher (C-6).
"""

from __future__ import annotations

import hashlib
import sys
from array import array
from itertools import combinations_with_replacement
from pathlib import Path

TABLE_FILE = Path(__file__).with_name("data") / "hand_tables.bin"
MAGIC = b"DTHT0001"
MAX_TABLE_CARDS = 7  # rank multisets of 0..7 cards are tabled; 8 and 9 take the slow path

HIGH_CARD, ONE_PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
CATEGORY_SHIFT = 20
WHEEL_MASK = 0b1_0000_0000_1111  # A-5-4-3-2


def card_code(rank: int, suit: int) -> int:
    return (rank << 47) | (int(5**rank) << 16) | (1 << (4 * suit))


def _slots(ranks: list[int]) -> int:
    value = 0
    for i in range(5):
        value = (value << 4) | (ranks[i] + 1 if i < len(ranks) else 0)
    return value


def _make(category: int, ranks: list[int]) -> int:
    return (category << CATEGORY_SHIFT) | _slots(ranks)


def straight_top(mask: int) -> int:
    """Top rank of the highest 5-card straight in a rank bit mask, or -1."""
    for top in range(12, 3, -1):
        run = 0b11111 << (top - 4)
        if mask & run == run:
            return top
    if mask & WHEEL_MASK == WHEEL_MASK:
        return 3
    return -1


def value_from_counts(counts: list[int]) -> int:
    """Best non-flush value of a rank multiset (`counts[rank]`), any size (C-4, C-6)."""
    n = sum(counts)
    by_count = sorted(((c, r) for r, c in enumerate(counts) if c), reverse=True)
    mask = sum(1 << r for r, c in enumerate(counts) if c)
    desc = [r for r in range(12, -1, -1) if counts[r]]

    def kickers(exclude: set[int], k: int) -> list[int]:
        return [r for r in desc if r not in exclude][:k]

    top_count, top_rank = by_count[0] if by_count else (0, -1)
    if top_count >= 4:
        return _make(QUADS, [top_rank] + kickers({top_rank}, 1))
    if n >= 5 and top_count == 3:
        others = [r for c, r in by_count[1:] if c >= 2]
        if others:
            return _make(FULL_HOUSE, [top_rank, max(others)])
    if n >= 5:
        top = straight_top(mask)
        if top >= 0:
            return _make(STRAIGHT, [top])
    if top_count == 3:
        return _make(TRIPS, [top_rank] + kickers({top_rank}, 2))
    pairs = sorted((r for c, r in by_count if c == 2), reverse=True)
    if len(pairs) >= 2:
        hi, lo = pairs[0], pairs[1]
        return _make(TWO_PAIR, [hi, lo] + kickers({hi, lo}, 1))
    if pairs:
        return _make(ONE_PAIR, [pairs[0]] + kickers({pairs[0]}, 3))
    return _make(HIGH_CARD, desc[:5])


def flush_value(mask: int) -> int:
    """Best value of five or more cards of one suit, given their rank mask."""
    top = straight_top(mask)
    if top >= 0:
        return _make(STRAIGHT_FLUSH, [top])
    return _make(FLUSH, [r for r in range(12, -1, -1) if mask >> r & 1][:5])


def build() -> tuple[list[int], list[int], list[int]]:
    """Rank-multiset keys and values for 0..7 cards, and the 8192-entry flush table."""
    keys: list[int] = []
    values: list[int] = []
    for n in range(MAX_TABLE_CARDS + 1):
        for combo in combinations_with_replacement(range(13), n):
            counts = [0] * 13
            for r in combo:
                counts[r] += 1
            if max(counts) > 4:
                continue
            key = sum((r << 31) + 5**r for r in combo)
            keys.append(key)
            values.append(value_from_counts(counts) if n else 0)
    flush = [flush_value(m) if m.bit_count() >= 5 else 0 for m in range(1 << 13)]
    return keys, values, flush


def to_bytes(keys: list[int], values: list[int], flush: list[int]) -> bytes:
    parts = [array("q", keys), array("q", values), array("q", flush)]
    if sys.byteorder != "little":
        for part in parts:
            part.byteswap()
    header = MAGIC + array("q", [len(keys)]).tobytes()
    return header + b"".join(p.tobytes() for p in parts)


def load() -> tuple[dict[int, int], list[int]]:
    """Read the shipped tables: `{rank multiset key: value}` and the flush list."""
    raw = TABLE_FILE.read_bytes()
    if raw[:8] != MAGIC:
        raise RuntimeError(f"{TABLE_FILE}: not a hand table file")
    count = array("q", raw[8:16])
    if sys.byteorder != "little":
        count.byteswap()
    n = count[0]
    body = array("q", raw[16:])
    if sys.byteorder != "little":
        body.byteswap()
    keys, values, flush = body[:n], body[n : 2 * n], body[2 * n :]
    return dict(zip(keys.tolist(), values.tolist())), flush.tolist()


def checksum() -> str:
    return hashlib.sha256(TABLE_FILE.read_bytes()).hexdigest()


if __name__ == "__main__":
    TABLE_FILE.parent.mkdir(exist_ok=True)
    TABLE_FILE.write_bytes(to_bytes(*build()))
    print(f"wrote {TABLE_FILE} sha256={checksum()}")
