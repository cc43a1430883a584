"""Chinese Poker: rows, fouls, naturals, royalties, points between players (docs/rules.md CP-2..CP-10).

A player's 13 cards are set as a `SetHand`; `judge` checks it (a foul, a declared natural, the
royalties it would collect) and `score_table` scores every pair of players. Points become chips
in `rules.games.chinese_poker.payments` (CP-12, CP-13); the setting helper is `rules.games.chinese_poker.setting`;
naturals (CP-9) are read in `rules.games.chinese_poker.naturals`.

The rules follow docs/rules.md revision 2 (`RULES_REVISION`). Revision 1 is kept for re-settling rounds
played under it (`ScoringTerms.of(..., revision=1)`): a declared natural had to show in its rows,
and it collected only its own points from a fouled hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

from rules.cards import Card, parse_cards
from rules.errors import IllegalAction
from rules.evaluator import CATEGORY_SHIFT, CODES, Category, hand_name, hand_value
from rules.games.chinese_poker.naturals import (
    Natural,
    is_flush_row,
    is_straight_row,
    natural_in,
    pair_count,
)
from rules.games.chinese_poker.profile import ChinesePokerProfile, Scoring
from rules.said import Said, joined, say

ROWS: tuple[str, str, str] = ("front", "middle", "back")
ROW_SIZES: tuple[int, int, int] = (3, 5, 5)
FRONT, MIDDLE, BACK = 0, 1, 2
RULES_REVISION = 2
"""The revision of docs/rules.md these rules implement; `REVISIONS` are those they can settle."""
REVISIONS = (1, 2)
ROW_WORDS: tuple[Said, Said, Said] = (say("front"), say("middle"), say("back"))
"""Each row's name as the reasons say it (`ROWS` are the names the record and `settle` use)."""

_ROYALTY_HANDS: tuple[dict[Category, str], ...] = (
    {Category.THREE_OF_A_KIND: "three_of_a_kind"},
    {
        Category.STRAIGHT_FLUSH: "straight_flush",
        Category.FOUR_OF_A_KIND: "four_of_a_kind",
        Category.FULL_HOUSE: "full_house",
    },
    {Category.STRAIGHT_FLUSH: "straight_flush", Category.FOUR_OF_A_KIND: "four_of_a_kind"},
)
@dataclass(frozen=True, slots=True)
class SetHand:
    """One player's rows as set: front (3 cards), middle (5) and back (5) (CP-2)."""

    front: tuple[Card, ...]
    middle: tuple[Card, ...]
    back: tuple[Card, ...]

    @classmethod
    def parse(cls, front: str, middle: str, back: str) -> SetHand:
        return cls(parse_cards(front), parse_cards(middle), parse_cards(back))

    @property
    def rows(self) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
        return (self.front, self.middle, self.back)

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.front + self.middle + self.back

    @property
    def sizes(self) -> tuple[int, int, int]:
        return (len(self.front), len(self.middle), len(self.back))

    @property
    def full_size(self) -> bool:
        """Rows of exactly 3, 5 and 5 cards."""
        return self.sizes == ROW_SIZES


@dataclass(frozen=True, slots=True)
class ScoringTerms:
    """What a table pays, read from the profile and the scoring in force (CP-6..CP-10)."""

    scoring: Scoring
    scoop_points: int | None
    royalties_paid: bool
    foul_points: int
    royalty_needs_row_win: bool
    royalty_points: tuple[dict[int, int], ...] = field(hash=False)
    natural_points: dict[Natural, int] = field(hash=False)
    revision: int = RULES_REVISION
    """The docs/rules.md revision the terms settle by (1 only to re-settle rounds played under it)."""

    @classmethod
    def of(
        cls,
        profile: ChinesePokerProfile,
        scoring: Scoring | None = None,
        revision: int = RULES_REVISION,
    ) -> ScoringTerms:
        name: Scoring = scoring or profile.scoring
        if revision not in REVISIONS:
            raise IllegalAction(say("rules revision {revision} is not one of {revisions}", revision=revision,
                                    revisions=str(REVISIONS)))
        known = _TERMS.get((id(profile), name, revision))
        if known is not None and known[0] is profile:
            return known[1]
        terms = cls._read(profile, name, revision)
        if len(_TERMS) >= 32:
            _TERMS.clear()
        _TERMS[(id(profile), name, revision)] = (profile, terms)
        return terms

    @classmethod
    def _read(cls, profile: ChinesePokerProfile, name: Scoring, revision: int) -> ScoringTerms:
        rules = profile.scorings.get(name)
        if rules is None:
            raise IllegalAction(say("scoring {scoring} is not defined by this profile", scoring=repr(name)))
        tables = (profile.royalties.front, profile.royalties.middle, profile.royalties.back)
        royalty_points = tuple(
            {int(cat): int(getattr(table, key)) for cat, key in hands.items()}
            for hands, table in zip(_ROYALTY_HANDS, tables, strict=True)
        )
        naturals = {nat: int(getattr(profile.naturals, nat.profile_key)) for nat in Natural}
        return cls(
            name,
            rules.scoop_points,
            rules.royalties,
            rules.foul_points,
            profile.royalty_needs_row_win,
            royalty_points,
            naturals,
            revision,
        )

    def royalty(self, row: int, value: int) -> int:
        """The royalty of a row's hand (CP-7); one category per hand, so only its highest counts."""
        if not self.royalties_paid:
            return 0
        return self.royalty_points[row].get(value >> CATEGORY_SHIFT, 0)


_TERMS: dict[tuple[int, str, int], tuple[ChinesePokerProfile, ScoringTerms]] = {}


def _value(cards: tuple[Card, ...], size: int) -> int | None:
    return hand_value([CODES[c.index] for c in cards]) if len(cards) == size else None


def row_values(hand: SetHand) -> tuple[int | None, int | None, int | None]:
    """Each row's value (C-6 for the front, C-4 for rows of 5); None for a row of the wrong size."""
    return _value(hand.front, 3), _value(hand.middle, 5), _value(hand.back, 5)


_NAMES: dict[int, str] = {}


def row_name(value: int) -> str:
    """The hand name of a row value as docs/settle.md spells it (memoised: a few thousand values)."""
    name = _NAMES.get(value)
    if name is None:
        name = _NAMES[value] = hand_name(value)
    return name


HAND_WORDS: dict[str, Said] = {
    "high card": say("high card"), "one pair": say("one pair"), "two pair": say("two pair"),
    "three of a kind": say("three of a kind"), "straight": say("straight"), "flush": say("flush"),
    "full house": say("full house"), "four of a kind": say("four of a kind"),
    "straight flush": say("straight flush"), "royal flush": say("royal flush"),
}
"""Each hand name (`row_name`, docs/settle.md's spelling) as a sentence says it."""


def row_said(value: int) -> Said:
    """The hand name of a row value as a sentence says it (`row_name`, translated where shown)."""
    return HAND_WORDS[row_name(value)]


def foul_reason(
    hand: SetHand, values: tuple[int | None, int | None, int | None] | None = None
) -> Said | None:
    """Why the hand is fouled (CP-4: a row of the wrong size, or rows out of CP-3 order), or None.

    `values`, when given, are the hand's `row_values`.
    """
    if not hand.full_size:
        return joined([
            say("{row} has {count} cards, needs {size}", row=word, count=len(cards), size=size)
            for word, cards, size in zip(ROW_WORDS, hand.rows, ROW_SIZES, strict=True)
            if len(cards) != size
        ], "; ")
    f, m, b = values or row_values(hand)
    assert f is not None and m is not None and b is not None
    if b < m:
        return say("back {back} is below middle {middle}", back=row_said(b), middle=row_said(m))
    if m <= f:
        return say("middle {middle} does not beat front {front}", middle=row_said(m), front=row_said(f))
    return None


def natural_of(hand: SetHand) -> Natural | None:
    """The natural the rows show as set, by CP-9 precedence; None on rows that are not 3/5/5.

    Revision 1 judged a declared natural this way; revision 2 judges the 13 cards (`natural_in`).
    """
    if not hand.full_size:
        return None
    cards = hand.cards
    if len({c.rank for c in cards}) == 13:
        return Natural.DRAGON
    if pair_count(cards) >= 6:
        return Natural.SIX_PAIRS
    if all(is_flush_row(row) for row in hand.rows):
        return Natural.THREE_FLUSHES
    if all(is_straight_row(row) for row in hand.rows):
        return Natural.THREE_STRAIGHTS
    return None


def declared_natural(seat: int, hand: SetHand, revision: int = RULES_REVISION) -> Natural:
    """The natural seat `seat` declares (CP-9), or `IllegalAction` saying why it cannot.

    The natural of the hand's 13 cards, whatever rows they were set in (revision 1: the natural
    its rows show); the rows must still hold 3/5/5 cards."""
    if not hand.full_size:
        front, middle, back = hand.sizes
        raise IllegalAction(say(
            "seat {seat} declares a natural on rows of {front}/{middle}/{back} cards; rows must be 3/5/5 (CP-9)",
            seat=seat, front=front, middle=middle, back=back,
        ))
    natural = natural_in(hand.cards) if revision >= 2 else natural_of(hand)
    if natural is None:
        raise IllegalAction(say(
            "seat {seat} declares a natural, but the cards hold no dragon, six pairs, "
            "three flushes or three straights (CP-9)", seat=seat,
        ))
    return natural


@dataclass(frozen=True, slots=True)
class JudgedHand:
    """A seat's hand as the rules see it at showdown."""

    seat: int
    hand: SetHand
    values: tuple[int | None, int | None, int | None]
    foul: Said | None
    natural: Natural | None
    royalties: tuple[int, int, int]

    @property
    def fouled(self) -> bool:
        return self.foul is not None

    @property
    def row_names(self) -> tuple[str | None, str | None, str | None]:
        """docs/settle.md hand names; None for a row of the wrong size."""
        f, m, b = (None if v is None else row_name(v) for v in self.values)
        return f, m, b


def judge(
    seat: int, hand: SetHand, terms: ScoringTerms, *, declares_natural: bool = False
) -> JudgedHand:
    """Judge one hand: a declared natural (its row order not checked), a foul, or its royalties."""
    values = row_values(hand)
    if declares_natural:
        natural = declared_natural(seat, hand, terms.revision)
        return JudgedHand(seat, hand, values, None, natural, (0, 0, 0))
    reason = foul_reason(hand, values)
    if reason is not None:
        return JudgedHand(seat, hand, values, reason, None, (0, 0, 0))
    f, m, b = values
    assert f is not None and m is not None and b is not None
    royalties = (terms.royalty(FRONT, f), terms.royalty(MIDDLE, m), terms.royalty(BACK, b))
    return JudgedHand(seat, hand, values, None, None, royalties)


@dataclass(frozen=True, slots=True)
class PairResult:
    """Points between two seats; `points` is what the first seat wins from the second."""

    seats: tuple[int, int]
    points: int
    reason: Said


def _collects(x: JudgedHand, y: JudgedHand, terms: ScoringTerms) -> int:
    """What a declared natural `x` collects from `y` (CP-8, CP-10): its points from a set hand, and
    the foul penalty on top from a fouled one (revision 1: its points only); 13 for a dragon over
    another natural; nothing otherwise."""
    if x.natural is None:
        return 0
    if y.natural is None:
        penalty = terms.foul_points if y.fouled and terms.revision >= 2 else 0
        return penalty + terms.natural_points[x.natural]
    if x.natural is Natural.DRAGON and y.natural is not Natural.DRAGON:
        return terms.natural_points[Natural.DRAGON]
    return 0


def _natural_pair(a: JudgedHand, b: JudgedHand, terms: ScoringTerms) -> tuple[int, Said]:
    """CP-10, when at least one of the two declared a natural."""
    points = _collects(a, b, terms) - _collects(b, a, terms)
    if not points:
        assert a.natural is not None and b.natural is not None
        return 0, say("{natural} v {other}: naturals push = 0", natural=a.natural.said, other=b.natural.said)
    winner, loser = (a, b) if points > 0 else (b, a)
    assert winner.natural is not None
    if loser.natural is not None:
        return points, say("seat {seat}'s {natural} beats seat {loser}'s {theirs}, collects {collected} = {points}",
                           seat=winner.seat, natural=winner.natural.said, loser=loser.seat,
                           theirs=loser.natural.said, collected=abs(points), points=points)
    if loser.fouled and terms.revision >= 2:
        own = terms.natural_points[winner.natural]
        return points, say("seat {loser} fouled, pays foul {foul} + seat {seat}'s {natural} {own} = {points}",
                           loser=loser.seat, foul=terms.foul_points, seat=winner.seat,
                           natural=winner.natural.said, own=own, points=points)
    if loser.fouled:
        return points, say("seat {seat}'s {natural} collects {collected} from seat {loser} (fouled) = {points}",
                           seat=winner.seat, natural=winner.natural.said, collected=abs(points),
                           loser=loser.seat, points=points)
    return points, say("seat {seat}'s {natural} collects {collected} from seat {loser} = {points}",
                       seat=winner.seat, natural=winner.natural.said, collected=abs(points), loser=loser.seat,
                       points=points)


def _foul_pair(a: JudgedHand, b: JudgedHand, terms: ScoringTerms) -> tuple[int, Said]:
    """CP-8, when at least one of the two fouled and neither declared a natural."""
    if a.fouled and b.fouled:
        return 0, say("both fouled, nothing exchanged = 0")
    fouler, owner, sign = (a, b, -1) if a.fouled else (b, a, 1)
    royalties = sum(owner.royalties)
    total = terms.foul_points + royalties
    text = say("seat {seat} fouled, pays foul {foul} + seat {owner}'s royalties {royalties} = {points}",
               seat=fouler.seat, foul=terms.foul_points, owner=owner.seat, royalties=royalties,
               points=sign * total)
    return sign * total, text


def _row_result(row: int, result: int) -> Said:
    """A row won (+1), lost (-1) or tied (0) against the opponent (CP-5)."""
    if result:
        return say("{row} {result:+d}", row=ROW_WORDS[row], result=result)
    return say("{row} 0", row=ROW_WORDS[row])


def _royalty(row: int, value: int, owner: JudgedHand, b: JudgedHand, points: int | None) -> Said:
    """A royalty of the pair (CP-7): `points` for the first seat, or None when the row was not won."""
    label = say("{row} {hand} royalty", row=ROW_WORDS[row], hand=row_said(value))
    if owner is b:
        label = say("seat {seat}'s {royalty}", seat=b.seat, royalty=label)
    if points is None:
        return say("{royalty} 0 (row not won)", royalty=label)
    return say("{royalty} {points:+d}", royalty=label, points=points)


def _row_pair(a: JudgedHand, b: JudgedHand, terms: ScoringTerms) -> tuple[int, Said]:
    """CP-5..CP-7: rows compared one by one, the scoop, the royalties."""
    parts: list[Said] = []
    results: list[int] = []
    for row, (va, vb) in enumerate(zip(a.values, b.values, strict=True)):
        assert va is not None and vb is not None
        results.append((va > vb) - (va < vb))
        parts.append(_row_result(row, results[-1]))
    total = sum(results)
    if terms.scoop_points is not None and abs(total) == 3:
        total = terms.scoop_points if total > 0 else -terms.scoop_points
        parts.append(say("scoop {points}", points=total))
    for row, won in enumerate(results):
        for owner, sign in ((a, 1), (b, -1)):
            royalty = owner.royalties[row]
            if not royalty:
                continue
            value = owner.values[row]
            assert value is not None
            if terms.royalty_needs_row_win and won * sign <= 0:
                parts.append(_royalty(row, value, owner, b, None))
                continue
            total += sign * royalty
            parts.append(_royalty(row, value, owner, b, sign * royalty))
    return total, say("{parts} = {total}", parts=joined(parts, ", "), total=total)


def score_pair(a: JudgedHand, b: JudgedHand, terms: ScoringTerms) -> PairResult:
    """What `a` wins from `b` (negative: loses), with the reason as a floor supervisor reads it."""
    if a.natural is not None or b.natural is not None:
        points, why = _natural_pair(a, b, terms)
    elif a.fouled or b.fouled:
        points, why = _foul_pair(a, b, terms)
    else:
        points, why = _row_pair(a, b, terms)
    return PairResult((a.seat, b.seat), points, say("seat {seat} v seat {other}: {why}", seat=a.seat, other=b.seat,
                                                     why=why))


@dataclass(frozen=True, slots=True)
class TableScore:
    """Every pair of a table (lower seat first, sorted) and each seat's total points."""

    hands: tuple[JudgedHand, ...]
    pairs: tuple[PairResult, ...]
    points: dict[int, int] = field(hash=False)


def score_table(hands: Sequence[JudgedHand], terms: ScoringTerms) -> TableScore:
    """Score every pair of players separately (CP-5) and sum each seat's points."""
    ordered = tuple(sorted(hands, key=lambda h: h.seat))
    seats = [h.seat for h in ordered]
    if len(set(seats)) != len(seats):
        raise IllegalAction(say("two hands on the same seat"))
    pairs = tuple(score_pair(a, b, terms) for a, b in combinations(ordered, 2))
    points = dict.fromkeys(seats, 0)
    for pair in pairs:
        first, second = pair.seats
        points[first] += pair.points
        points[second] -= pair.points
    return TableScore(ordered, pairs, points)
