"""The setting helper: every legal way to set 13 cards, and a strong one to suggest (CP-2..CP-9).

`legal_settings(cards)` checks all 72,072 ways to split 13 cards into a front of 3, a middle
of 5 and a back of 5, and keeps those that are not fouled (CP-3). The index tables are built
once; each hand values its 1,287 five-card and 286 three-card subsets once with the shared
evaluator, and the CP-3 checks run vectorised over the splits.

`suggest(cards)` picks the legal setting with the highest expected points against one opponent
whose rows are drawn from a reference distribution, the rows taken as independent:

    E = sum_r (2 p_r - 1) + (scoop - 3) (p_f p_m p_b - q_f q_m q_b)
        + sum_r royalty_r p_r - sum_r E[opponent's royalty_r; opponent's row beats ours]

where p_r is the chance that our row r beats the reference row (ties count half), q_r = 1 - p_r,
and royalties follow the profile (CP-6, CP-7). The reference distribution is the rows this
helper itself sets on seeded deals (`python bench/chinese_poker.py calibrate` regenerates the
quantiles below). The suggestion also names a natural (CP-9) when the 13 cards hold one.
`python bench/chinese_poker.py quality` measures the choice against simpler setters on seeded
duplicate deals (2,000 heads-up deals, mandarin: +1.36 points a hand against the greedy setter
that takes the best back, then the best middle).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations
from operator import itemgetter
from typing import Any

import numpy as np
import numpy.typing as npt

from rules.cards import Card, ensure_distinct
from rules.errors import BadCards
from rules.evaluator import CATEGORY_SHIFT, CODES, hand_value, playing_order
from rules.games.chinese_poker.naturals import Natural, natural_in, rows_showing
from rules.games.chinese_poker.profile import ChinesePokerProfile
from rules.games.chinese_poker.rules import BACK, FRONT, MIDDLE, ScoringTerms, SetHand
from rules.said import Said, say

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

SPLITS = 72_072
"""13! / (3! 5! 5!): the ways to set 13 cards as rows of 3, 5 and 5."""


@dataclass(frozen=True, eq=False)
class _Tables:
    """Positions 0..12 of the hand: its 5- and 3-card subsets, and every split as subset indices."""

    five: IntArray
    three: IntArray
    get5: tuple[itemgetter[Any], ...]
    get3: tuple[itemgetter[Any], ...]
    back: IntArray
    middle: IntArray
    front: IntArray
    middle_by_back: IntArray
    front_by_back: IntArray


@cache
def _tables() -> _Tables:
    five = np.array(list(combinations(range(13), 5)), dtype=np.int64)
    three = np.array(list(combinations(range(13), 3)), dtype=np.int64)
    mask5 = (1 << five).sum(axis=1)
    mask3 = (1 << three).sum(axis=1)
    back, middle = np.nonzero((mask5[:, None] & mask5[None, :]) == 0)
    by_mask = np.full(1 << 13, -1, dtype=np.int64)
    by_mask[mask3] = np.arange(len(mask3))
    front = by_mask[0x1FFF ^ mask5[back] ^ mask5[middle]]
    assert len(front) == SPLITS and (front >= 0).all()
    get5 = tuple(itemgetter(*map(int, c)) for c in five)
    get3 = tuple(itemgetter(*map(int, c)) for c in three)
    per_back = (len(five), SPLITS // len(five))  # np.nonzero lists the splits back by back
    return _Tables(
        five,
        three,
        get5,
        get3,
        back.astype(np.int64),
        middle.astype(np.int64),
        front,
        middle.reshape(per_back).astype(np.int64),
        front.reshape(per_back),
    )


@dataclass(frozen=True, eq=False)
class LegalSettings:
    """The legal (non-fouled) settings of one 13-card hand, as indices into the split table."""

    cards: tuple[Card, ...]
    splits: IntArray
    values5: IntArray
    values3: IntArray

    def __len__(self) -> int:
        return len(self.splits)

    def setting(self, i: int) -> SetHand:
        """The i-th legal setting, each row in C-7 order."""
        return self.split_hand(int(self.splits[i]))

    def split_hand(self, split: int) -> SetHand:
        """Any split of the split table, legal or not, as rows in C-7 order (a wheel 5 to A)."""
        t = _tables()
        parts = (
            (t.three[t.front[split]], int(self.values3[t.front[split]])),
            (t.five[t.middle[split]], int(self.values5[t.middle[split]])),
            (t.five[t.back[split]], int(self.values5[t.back[split]])),
        )
        f, m, b = (playing_order([self.cards[int(i)] for i in row], v) for row, v in parts)
        return SetHand(f, m, b)

    def settings(self) -> list[SetHand]:
        return [self.setting(i) for i in range(len(self))]

    def row_values(self) -> tuple[IntArray, IntArray, IntArray]:
        """The front, middle and back values of every legal setting, in `splits` order."""
        t = _tables()
        s = self.splits
        return self.values3[t.front[s]], self.values5[t.middle[s]], self.values5[t.back[s]]


def _check13(cards: tuple[Card, ...]) -> None:
    if len(cards) != 13:
        raise BadCards(say("a Chinese Poker hand has 13 cards, got {count}", count=len(cards)))
    ensure_distinct(cards)


def legal_settings(cards: tuple[Card, ...]) -> LegalSettings:
    """Every split of the 13 cards whose back >= middle > front (CP-3)."""
    _check13(cards)
    t = _tables()
    codes = tuple(CODES[c.index] for c in cards)
    value = hand_value
    v5 = np.fromiter([value(g(codes)) for g in t.get5], dtype=np.int64, count=len(t.get5))
    v3 = np.fromiter([value(g(codes)) for g in t.get3], dtype=np.int64, count=len(t.get3))
    middle = v5.take(t.middle_by_back)
    legal = v5[:, None] >= middle
    legal &= middle > v3.take(t.front_by_back)
    return LegalSettings(cards, np.flatnonzero(legal), v5, v3)


@dataclass(frozen=True, eq=False)
class RowReference:
    """Quantiles of the values of each row (front, middle, back) as opponents set them."""

    quantiles: tuple[IntArray, IntArray, IntArray]

    @classmethod
    def from_values(
        cls, rows: tuple[list[int], list[int], list[int]], count: int = 128
    ) -> RowReference:
        """Midpoint quantiles, (k + 1/2) / count, of observed row values."""
        probs = (np.arange(count) + 0.5) / count
        qs = tuple(
            np.sort(np.quantile(np.array(v), probs, method="inverted_cdf").astype(np.int64))
            for v in rows
        )
        return cls((qs[0], qs[1], qs[2]))

    def win_chance(self, row: int, values: IntArray) -> FloatArray:
        q = self.quantiles[row]
        below = np.searchsorted(q, values, side="left")
        upto = np.searchsorted(q, values, side="right")
        return np.asarray((below + upto) / (2 * len(q)), dtype=np.float64)

    def royalty_against(self, row: int, values: IntArray, terms: ScoringTerms) -> FloatArray:
        """Expected royalty the reference collects on this row from values it beats (CP-7)."""
        q = self.quantiles[row]
        roy = np.array([terms.royalty(row, int(v)) for v in q], dtype=np.float64)
        if not terms.royalty_needs_row_win:
            return np.full(len(values), roy.mean())
        above = np.concatenate([np.cumsum(roy[::-1])[::-1], [0.0]])
        return np.asarray(
            above[np.searchsorted(q, values, side="right")] / len(q), dtype=np.float64
        )


def _royalties(row: int, values: IntArray, terms: ScoringTerms) -> FloatArray:
    lookup = np.zeros(16, dtype=np.float64)
    for category, points in terms.royalty_points[row].items():
        lookup[category] = points if terms.royalties_paid else 0
    return np.asarray(lookup[values >> CATEGORY_SHIFT], dtype=np.float64)


def expected_points(
    legal: LegalSettings, terms: ScoringTerms, reference: RowReference
) -> FloatArray:
    """The objective of the module docstring for every legal setting of `legal`."""
    t = _tables()
    per5: list[tuple[FloatArray, FloatArray]] = []
    for row in (MIDDLE, BACK):
        p = reference.win_chance(row, legal.values5)
        own = _royalties(row, legal.values5, terms) * (p if terms.royalty_needs_row_win else 1.0)
        per5.append((p, 2 * p - 1 + own - reference.royalty_against(row, legal.values5, terms)))
    p3 = reference.win_chance(FRONT, legal.values3)
    own3 = _royalties(FRONT, legal.values3, terms) * (p3 if terms.royalty_needs_row_win else 1.0)
    base3 = 2 * p3 - 1 + own3 - reference.royalty_against(FRONT, legal.values3, terms)
    f, m, b = t.front[legal.splits], t.middle[legal.splits], t.back[legal.splits]
    total = base3[f] + per5[0][1][m] + per5[1][1][b]
    extra = (terms.scoop_points or 3) - 3
    if extra:
        pf, pm, pb = p3[f], per5[0][0][m], per5[1][0][b]
        total = total + extra * (pf * pm * pb - (1 - pf) * (1 - pm) * (1 - pb))
    return np.asarray(total, dtype=np.float64)


def _natural(cards: tuple[Card, ...], hand: SetHand) -> tuple[Natural | None, SetHand | None]:
    """The natural the 13 cards hold (CP-9) and rows that show it: the suggested setting for a
    dragon or six pairs (any rows show them), a split found for three flushes or straights."""
    natural = natural_in(cards)
    if natural is None:
        return None, None
    if natural in (Natural.DRAGON, Natural.SIX_PAIRS):
        return natural, hand
    rows = rows_showing(cards, natural)
    assert rows is not None
    return natural, SetHand(*(playing_order(list(row), hand_value([CODES[c.index] for c in row]))
                              for row in rows))


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A proposed setting, its estimated points per opponent, and any natural the cards hold."""

    hand: SetHand
    expected_points: float
    legal_count: int
    natural: Natural | None
    natural_hand: SetHand | None
    reason: Said


def suggest(
    cards: tuple[Card, ...],
    profile: ChinesePokerProfile | None = None,
    *,
    reference: RowReference | None = None,
) -> Suggestion:
    """The legal setting with the best expected points (module docstring); never a fouled one."""
    terms = ScoringTerms.of(profile or default_profile())
    legal = legal_settings(cards)
    scores = expected_points(legal, terms, reference or default_reference())
    best = int(np.argmax(scores))
    hand = legal.setting(best)
    natural, natural_hand = _natural(cards, hand)
    front, middle, back = (" ".join(c.text for c in row) for row in hand.rows)
    about = format(float(scores[best]), "+.2f")  # a decimal: as written in every language
    reason = say("front {front}, middle {middle}, back {back}: about {points} points per opponent "
                 "({count} legal settings)", front=front, middle=middle, back=back, points=about,
                 count=len(legal))
    if natural is not None:
        reason = say("{suggestion}; the cards hold {natural}: declare it to collect {points} from each player",
                     suggestion=reason, natural=natural.said, points=terms.natural_points[natural])
    return Suggestion(hand, float(scores[best]), len(legal), natural, natural_hand, reason)


@cache
def default_profile() -> ChinesePokerProfile:
    from rules.profiles.loader import ProfileLibrary

    profile = ProfileLibrary().find("chinese-poker", game="chinese-poker").profile
    assert isinstance(profile, ChinesePokerProfile)
    return profile


@cache
def default_reference() -> RowReference:
    rows = tuple(np.array(q, dtype=np.int64) for q in _REFERENCE)
    return RowReference((rows[0], rows[1], rows[2]))


# Reference rows: 128 midpoint quantiles of the front, middle and back values (the shared
# evaluator's ints: category << 20 | rank slots) set by this helper on 8,000 seeded hands,
# three rounds from the greedy setter (`python bench/chinese_poker.py calibrate`).
# fmt: off
_REFERENCE: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] = (
    (
        340224, 414720, 484096, 602368, 619264, 667904, 681216, 693504, 737792, 746496,
        754176, 759552, 762880, 764160, 803584, 815360, 819712, 824320, 827904, 829184,
        829696, 832768, 833280, 833792, 834048, 872960, 881920, 886528, 890368, 894208,
        894976, 895232, 898048, 898816, 899072, 899328, 899584, 901632, 902400, 902912,
        903424, 903424, 903680, 903680, 903936, 903936, 903936, 1134592, 1191936, 1224704,
        1269760, 1294336, 1343488, 1359872, 1392640, 1417216, 1425408, 1454080, 1474560, 1482752,
        1490944, 1495040, 1523712, 1540096, 1552384, 1556480, 1560576, 1560576, 1593344, 1601536,
        1613824, 1617920, 1622016, 1622016, 1626112, 1626112, 1654784, 1667072, 1671168, 1683456,
        1687552, 1687552, 1691648, 1691648, 1716224, 1732608, 1736704, 1740800, 1740800, 1748992,
        1748992, 1753088, 1753088, 1757184, 1773568, 1789952, 1794048, 1798144, 1802240, 1806336,
        1810432, 1810432, 1818624, 1822720, 1822720, 1822720, 1851392, 1859584, 1863680, 1867776,
        1871872, 1871872, 1875968, 1875968, 1880064, 1888256, 1888256, 1888256, 1912832, 1921024,
        1925120, 1929216, 1937408, 1941504, 1945600, 1949696, 1949696, 3473408,
    ),
    (
        820274, 882225, 1144112, 1271056, 1348896, 1419376, 1480720, 1541408, 1585680, 1603088,
        1616144, 1664032, 1672464, 1680976, 1686048, 1729296, 1737488, 1741584, 1750064, 1754432,
        1786384, 1799696, 1804048, 1807664, 1808448, 1812000, 1812576, 1820976, 1825040, 1860368,
        1868848, 1872944, 1873712, 1876752, 1877520, 1880864, 1882128, 1882720, 1889856, 1921552,
        1934864, 1939264, 1942848, 1943344, 1946128, 1946928, 1947216, 1947664, 1948272, 1950752,
        1951264, 1951568, 1952080, 2234368, 2299392, 2303488, 2364160, 2368256, 2372096, 2430464,
        2433280, 2437632, 2441984, 2495488, 2499328, 2503168, 2507520, 2560512, 2562304, 2566400,
        2572544, 2580736, 2626048, 2628096, 2633984, 2643712, 2652416, 2696192, 2708992, 2720256,
        2762752, 2775040, 2789632, 2827776, 2853120, 2902016, 2994688, 3241472, 3297536, 3314432,
        3368192, 3428608, 3490048, 3547392, 3577600, 3646208, 3713280, 3817728, 3891712, 3975424,
        4456448, 4456448, 4456448, 4521984, 4521984, 4521984, 4587520, 4587520, 4653056, 4653056,
        4718592, 4718592, 4784128, 4784128, 4849664, 4849664, 4915200, 4980736, 5046272, 5797442,
        5931809, 5985330, 6005809, 6062881, 6072659, 6133602, 6451200, 6787072,
    ),
    (
        1664272, 1864976, 2233856, 2302976, 2368768, 2430720, 2439168, 2496512, 2508032, 2561024,
        2570496, 2581504, 2635264, 2639616, 2650624, 2701824, 2715904, 2765056, 2823424, 2840832,
        2913536, 3350784, 3559680, 3756288, 4456448, 4456448, 4521984, 4521984, 4521984, 4587520,
        4587520, 4587520, 4653056, 4653056, 4718592, 4718592, 4718592, 4718592, 4784128, 4784128,
        4784128, 4849664, 4849664, 4849664, 4915200, 4915200, 4915200, 4980736, 4980736, 4980736,
        5046272, 5046272, 5046272, 5796897, 5862689, 5867092, 5928514, 5936673, 5985329, 5997601,
        6001953, 6002754, 6006353, 6006900, 6055217, 6063666, 6067795, 6068325, 6072129, 6072643,
        6075715, 6076483, 6076786, 6077076, 6125106, 6129236, 6133314, 6133858, 6137426, 6137953,
        6138230, 6141761, 6142067, 6142339, 6142611, 6145842, 6146162, 6146438, 6146707, 6146934,
        6369280, 6381568, 6434816, 6451200, 6492160, 6508544, 6557696, 6565888, 6582272, 6627328,
        6647808, 6692864, 6701056, 6754304, 6766592, 6819840, 6832128, 6856704, 6889472, 6901760,
        6922240, 6959104, 6971392, 7016448, 7028736, 7045120, 7086080, 7094272, 7114752, 7151616,
        7163904, 7413760, 7626752, 7831552, 8024064, 8212480, 8912896, 9175040,
    ),
)
# fmt: on
