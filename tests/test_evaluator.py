"""The one poker evaluator (C-4 five-card ranking, C-6 short hands, C-7 listing, CP-2 fronts).

The fast path `hand_value` is checked exhaustively on every 5-card hand, against a simple
brute-force reference written here, and on hand-picked cases worked out from docs/rules.md.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations, pairwise

import pytest

from rules import hand_tables
from rules.cards import DECK, Card, Rank, parse_cards
from rules.evaluator import (
    CODES,
    Category,
    HandRank,
    category_of,
    encode,
    evaluate,
    hand_name,
    hand_value,
    top_rank_of,
)

# sha256 of rules/data/hand_tables.bin as shipped; a change to the tables must change this too.
HAND_TABLES_SHA256 = "e1d9fb952bd380d14e5229cf80bec33c9b11c9629d1e454f940427aa9a4207c9"

SHORT_HAND_NAMES = {"high card", "one pair", "two pair", "three of a kind", "four of a kind"}


def value(text: str) -> int:
    return hand_value(encode(parse_cards(text)))


def name(text: str) -> str:
    return hand_name(value(text))


# --- an independent reference ------------------------------------------------------------

# Reference categories, low to high, by the names docs/settle.md uses.
REF_NAMES = (
    "high card",
    "one pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)
HIGH, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)


def _grouped_ranks(cards: Sequence[Card]) -> tuple[list[int], list[int]]:
    """Group sizes and group ranks, larger groups first, then higher ranks (C-4 tie order)."""
    counts = Counter(int(c.rank) for c in cards)
    groups = sorted(
        counts.items(), key=lambda rank_count: (rank_count[1], rank_count[0]), reverse=True
    )
    return [n for _, n in groups], [r for r, _ in groups]


def reference_five(cards: Sequence[Card]) -> tuple[int, ...]:
    """Category then tie-break ranks of exactly five cards, straight from C-4."""
    shape, order = _grouped_ranks(cards)
    ranks = sorted((int(c.rank) for c in cards), reverse=True)
    is_flush = len({c.suit for c in cards}) == 1
    top = None
    if len(set(ranks)) == 5 and ranks[0] - ranks[4] == 4:
        top = ranks[0]
    elif ranks == [12, 3, 2, 1, 0]:  # A-5-4-3-2: the wheel, five high
        top = 3
    if top is not None and is_flush:
        return (STRAIGHT_FLUSH, top)
    if shape == [4, 1]:
        return (QUADS, *order)
    if shape == [3, 2]:
        return (FULL_HOUSE, *order)
    if is_flush:
        return (FLUSH, *ranks)
    if top is not None:
        return (STRAIGHT, top)
    if shape[0] == 3:
        return (TRIPS, *order)
    if shape[:2] == [2, 2]:
        return (TWO_PAIR, *order)
    if shape[0] == 2:
        return (PAIR, *order)
    return (HIGH, *order)


def reference_short(cards: Sequence[Card]) -> tuple[int, ...]:
    """C-6: 1-4 cards rank only by groups; a shorter tuple matched by a longer one is lower."""
    shape, order = _grouped_ranks(cards)
    if shape[0] == 4:
        category = QUADS
    elif shape[0] == 3:
        category = TRIPS
    elif shape[:2] == [2, 2]:
        category = TWO_PAIR
    elif shape[0] == 2:
        category = PAIR
    else:
        category = HIGH
    return (category, *order)


def reference(cards: Sequence[Card]) -> tuple[int, ...]:
    if len(cards) < 5:
        return reference_short(cards)
    return max(reference_five(five) for five in combinations(cards, 5))


def cmp(a: tuple[int, ...] | int, b: tuple[int, ...] | int) -> int:
    return (a > b) - (a < b)  # type: ignore[operator]


def random_hands(seed: int, per_size: dict[int, int]) -> list[tuple[Card, ...]]:
    rng = random.Random(seed)
    return [tuple(rng.sample(DECK, size)) for size, n in per_size.items() for _ in range(n)]


RANDOM_HANDS = random_hands(
    20250101, {1: 100, 2: 200, 3: 400, 4: 400, 5: 1500, 6: 1000, 7: 1000, 8: 600, 9: 400}
)


Graded = list[tuple[tuple[Card, ...], tuple[int, ...], int]]


@pytest.fixture(scope="module")
def graded() -> Graded:
    """Every sampled hand with its reference grade and its value from the fast path."""
    return [(hand, reference(hand), hand_value(encode(hand))) for hand in RANDOM_HANDS]


def test_c_4_random_hands_of_5_to_9_cards_match_the_reference_category(graded: Graded) -> None:
    for hand, ref, got in graded:
        if len(hand) >= 5:
            assert category_of(got).hand_name == REF_NAMES[ref[0]], [c.text for c in hand]


def test_c_6_random_hands_of_1_to_4_cards_match_the_reference_category(graded: Graded) -> None:
    for hand, ref, got in graded:
        if len(hand) < 5:
            assert category_of(got).hand_name == REF_NAMES[ref[0]], [c.text for c in hand]


def test_c_4_c_6_random_pairs_of_hands_compare_as_the_reference(graded: Graded) -> None:
    rng = random.Random(7)
    for _ in range(20_000):
        (hand_a, ref_a, got_a), (hand_b, ref_b, got_b) = rng.sample(graded, 2)
        assert cmp(got_a, got_b) == cmp(ref_a, ref_b), (
            [c.text for c in hand_a],
            [c.text for c in hand_b],
        )


def test_c_4_c_6_value_order_is_the_reference_order_over_all_sampled_hands(graded: Graded) -> None:
    # Sorted by the reference, neighbours must keep the same order (or tie) by value: this
    # checks every pair of the sample at once, across all sizes from 1 to 9 cards.
    ordered = sorted(graded, key=lambda row: row[1])
    for (hand_a, ref_a, got_a), (hand_b, ref_b, got_b) in pairwise(ordered):
        assert cmp(got_a, got_b) == cmp(ref_a, ref_b), (
            [c.text for c in hand_a],
            [c.text for c in hand_b],
        )


def test_c_4_the_order_of_the_cards_does_not_matter(graded: Graded) -> None:
    rng = random.Random(11)
    for hand, _, got in graded[::10]:
        codes = list(encode(hand))
        rng.shuffle(codes)
        assert hand_value(codes) == got


# --- exhaustive: every 5-card hand --------------------------------------------------------


@pytest.fixture(scope="module")
def five_card_values() -> Counter[int]:
    """How many of the 2,598,960 five-card hands have each value."""
    return Counter(map(hand_value, combinations(CODES, 5)))


def test_c_4_every_five_card_hand_falls_in_the_textbook_category_counts(
    five_card_values: Counter[int],
) -> None:
    by_category: Counter[str] = Counter()
    royal = 0
    for v, n in five_card_values.items():
        by_category[category_of(v).hand_name] += n
        royal += n if hand_name(v) == "royal flush" else 0
    # C(52,5) = 52*51*50*49*48 / 120 = 2,598,960
    assert sum(by_category.values()) == 2_598_960
    assert by_category == {
        "straight flush": 40,  # 10 tops (5..A) x 4 suits
        "four of a kind": 624,  # 13 ranks x 48 kickers
        "full house": 3_744,  # 13 x C(4,3)=4 x 12 x C(4,2)=6
        "flush": 5_108,  # 4 x C(13,5)=1287 = 5148, less the 40 straight flushes
        "straight": 10_200,  # 10 tops x 4^5 = 10240, less the 40 straight flushes
        "three of a kind": 54_912,  # 13 x 4 x C(12,2)=66 x 4^2
        "two pair": 123_552,  # C(13,2)=78 x 6 x 6 x 44
        "one pair": 1_098_240,  # 13 x 6 x C(12,3)=220 x 4^3
        "high card": 1_302_540,  # (C(13,5)=1287 - 10) x (4^5 - 4)=1020
    }
    assert royal == 4  # one per suit


def test_c_4_there_are_7462_distinct_five_card_hand_values(
    five_card_values: Counter[int],
) -> None:
    by_category = Counter(category_of(v).hand_name for v in five_card_values)
    # distinct rank patterns, worked out per category:
    assert by_category == {
        "straight flush": 10,  # tops 5..A
        "four of a kind": 156,  # 13 x 12 kickers
        "full house": 156,  # 13 x 12
        "flush": 1_277,  # C(13,5) = 1287, less the 10 straights
        "straight": 10,
        "three of a kind": 858,  # 13 x C(12,2)=66
        "two pair": 858,  # C(13,2)=78 x 11
        "one pair": 2_860,  # 13 x C(12,3)=220
        "high card": 1_277,  # C(13,5) - 10
    }
    # 10+156+156+1277+10+858+858+2860+1277 = 7462
    assert len(five_card_values) == 7_462


# --- C-6 / CP-2: short hands ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "expected"),
    [
        (1, {"high card": 52}),
        (2, {"one pair": 78, "high card": 1_248}),  # 13 x C(4,2)=6 = 78; 1326 - 78
        # 3 cards: trips 13 x 4 = 52; pair 13 x 6 x 48 = 3744; high card C(13,3)=286 x 4^3 = 18304
        (3, {"three of a kind": 52, "one pair": 3_744, "high card": 18_304}),
        # 4 cards: quads 13; trips 13 x 4 x 48 = 2496; two pair C(13,2)=78 x 6 x 6 = 2808;
        # pair 13 x 6 x C(12,2)=66 x 4^2 = 82368; high card C(13,4)=715 x 4^4 = 183040
        (
            4,
            {
                "four of a kind": 13,
                "three of a kind": 2_496,
                "two pair": 2_808,
                "one pair": 82_368,
                "high card": 183_040,
            },
        ),
    ],
)
def test_c_6_short_hands_only_take_group_categories(size: int, expected: dict[str, int]) -> None:
    counts = Counter(category_of(v).hand_name for v in map(hand_value, combinations(CODES, size)))
    assert counts == expected
    assert set(counts) <= SHORT_HAND_NAMES


@pytest.mark.parametrize("front", ["Ah Kh Qh", "3h 2h Ah", "Qs Kd Ac", "4c 5d 6h", "9s 8s 7s"])
def test_cp_2_three_card_straights_and_flushes_do_not_count(front: str) -> None:
    assert name(front) == "high card"


@pytest.mark.parametrize("hand", ["5h 4h 3h 2h", "Ah Kh Qh Jh", "Jd Tc 9s 8h"])
def test_c_6_four_card_straights_and_flushes_do_not_count(hand: str) -> None:
    assert name(hand) == "high card"


def test_c_6_front_aces_with_king_is_below_a_middle_of_aces_king_queen_jack() -> None:
    # pair A, then K; the middle matches A-A-K and has Q-J more: the longer hand is higher
    assert value("Ah Ad Kc") < value("As Ac Kd Qh Jh")


def test_c_6_front_aces_with_king_beats_a_middle_of_aces_queen_jack_ten() -> None:
    # pair A on both; first kicker K against Q decides before the middle's extra cards count
    assert value("Ah Ad Kc") > value("As Ac Qd Jh Th")


def test_c_6_front_high_card_matched_by_a_longer_hand_is_lower() -> None:
    assert value("Ah Kd Qc") < value("As Kh Qd 3c 2s")  # A-K-Q matched, then 3-2 more
    assert value("Ah Kd Qc") > value("As Kh Jd Tc 9s")  # Q beats J at the third card
    assert value("Ah") < value("As Kd")  # A matched, K more
    assert value("Ah") > value("Ks Qd Jc 9h 7h")


def test_c_6_short_hands_take_their_place_in_the_c_4_order() -> None:
    assert value("2h 2d 2c") > value("As Ad Kc Kh Qs")  # trips beat two pair
    assert value("Ah Ad Ac") < value("2s 3h 4d 5c 6s")  # a straight beats any trips
    assert value("7h 7d 7c 7s") > value("Ah Ad Ac Kh Kd")  # four-card quads beat a full house
    assert value("7h 7d 7c 7s") < value("2h 3h 4h 5h 6h")  # ... but not a straight flush
    assert value("Kh Kd 5c 5s") > value("Ah Ad Qc Js 9h")  # two pair beats one pair


def test_c_6_a_four_card_two_pair_is_below_the_same_two_pair_with_a_kicker() -> None:
    assert value("Ah Ad Kc Ks") < value("As Ac Kh Kd 2c")
    assert value("Ah Ad Kc Ks") > value("As Ac Qh Qd Jc")


def test_c_6_trips_compare_by_rank_then_any_kicker() -> None:
    assert value("Kh Kd Kc") > value("Qh Qd Qc Ah")
    assert value("Kh Kd Kc") < value("Ks Kd Kc 2h")


def test_cp_3_a_middle_must_beat_the_front_by_category_first() -> None:
    assert value("As Ad Ac") > value("Kh Kd Qc Qs Jh")  # front trips over middle two pair
    assert value("2s 2d 2c") < value("2h 3h 4d 5c 6s")  # middle straight over front trips


# --- C-4 specifics --------------------------------------------------------------------------


def test_c_4_the_wheel_is_the_lowest_straight_with_the_five_on_top() -> None:
    wheel = value("As 2d 3c 4h 5s")
    assert category_of(wheel) is Category.STRAIGHT
    assert top_rank_of(wheel) is Rank.FIVE
    assert wheel < value("2h 3d 4c 5s 6h")
    assert wheel > value("Ah Ad Ac Kd Qs")  # still a straight, above any trips


def test_c_4_the_steel_wheel_is_the_lowest_straight_flush() -> None:
    steel = value("As 2s 3s 4s 5s")
    assert category_of(steel) is Category.STRAIGHT_FLUSH
    assert top_rank_of(steel) is Rank.FIVE
    assert hand_name(steel) == "straight flush"
    assert steel < value("2h 3h 4h 5h 6h")
    assert steel > value("Ah Ad Ac As Kd")


def test_c_4_ten_to_ace_is_the_highest_straight() -> None:
    broadway = value("Th Jd Qc Ks As")
    assert top_rank_of(broadway) is Rank.ACE
    assert broadway > value("9h Td Jc Qs Ks")


@pytest.mark.parametrize("hand", ["Qh Kd As 2c 3s", "Jh Qd Kc As 2h", "Kh As 2d 3c 4s"])
def test_c_4_no_wrap_around(hand: str) -> None:
    assert name(hand) == "high card"


def test_c_4_no_wrap_around_in_one_suit_is_only_a_flush() -> None:
    assert name("Qh Kh Ah 2h 3h") == "flush"


def test_c_4_a_six_in_the_hand_lifts_a_wheel_to_six_high() -> None:
    best = value("As 2d 3c 4h 5s 6d Kc")
    assert top_rank_of(best) is Rank.SIX
    assert category_of(best) is Category.STRAIGHT


def test_c_4_a_royal_flush_is_the_ace_high_straight_flush() -> None:
    assert name("Ah Kh Qh Jh Th") == "royal flush"
    assert name("Kh Qh Jh Th 9h") == "straight flush"
    assert value("Ah Kh Qh Jh Th") > value("Ks Qs Js Ts 9s")
    assert evaluate(parse_cards("Ah Kh Qh Jh Th 2c 2d")).name == "royal flush"


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Ah Kd 9c 7s 3h", "As Kh 9d 7c 3s"),  # high card
        ("Ah Jh 9h 5h 3h", "As Js 9s 5s 3s"),  # flush in hearts, flush in spades
        ("9h Td Jc Qs Kh", "9c Ts Jd Qh Kc"),  # straight
        ("2h 3h 4h 5h 6h", "2c 3c 4c 5c 6c"),  # straight flush
        ("Kh Kd 5c 5s As", "Ks Kc 5h 5d Ad"),  # two pair
        ("Ah Ad", "As Ac"),  # a pair of two cards
    ],
)
def test_c_4_suits_never_break_ties(one: str, other: str) -> None:
    assert value(one) == value(other)


def test_c_4_the_board_plays_for_both_and_ties() -> None:
    board = "9h 9d 9c 9s Ad"
    assert value(f"{board} 2c 3c") == value(
        f"{board} Kh Qh"
    )  # quad nines, ace kicker from the board


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("Ah Kd 9c 7s 3h", "As Kc 9d 7h 2s"),  # high card: the fifth card decides
        ("Ah Ad Kc Qs Js", "Ah Ad Kc Qs Ts"),  # one pair: the third kicker
        ("Kh Kd 5c 5s As", "Ks Kc 5h 5d Qs"),  # two pair: the kicker
        ("Kh Kd 6c 6s 2s", "Ks Kc 5h 5d As"),  # two pair: the second pair before the kicker
        ("Ah Ad Kc Ks 2d", "Qh Qd Jc Js As"),  # two pair: the top pair first
        ("7h 7d 7c As 4d", "7h 7d 7c As 3d"),  # trips: the second kicker
        ("4h 4d 4c 2s 2h", "3h 3d 3c As Ah"),  # full house: the trips rank first
        ("Ah Jh 9h 5h 3h", "As Js 9s 5s 2s"),  # flush: from the highest card down
        ("9h 9d 9c 9s Ah 3c 2d", "9h 9d 9c 9s Kh Qc 2d"),  # quads: the kicker of seven cards
    ],
)
def test_c_4_kickers_break_ties_in_order(better: str, worse: str) -> None:
    assert value(better) > value(worse)


def test_c_4_three_pairs_play_the_top_two_and_the_best_kicker() -> None:
    # A-A K-K Q-Q 2: two pair aces and kings with the queen kicker
    assert value("Ah Ad Kc Ks Qh Qd 2c") == value("Ah Ad Kc Ks Qh")


def test_c_4_two_trips_make_a_full_house_of_the_higher() -> None:
    assert value("Ah Ad Ac Kc Ks Kh 2c") == value("Ah Ad Ac Kc Ks")
    assert name("Ah Ad Ac Kc Ks Kh 2c") == "full house"


def test_c_4_trips_with_two_pairs_fill_up_with_the_higher_pair() -> None:
    # 2-2-2 K-K 7-7: deuces full of kings, above deuces full of sevens
    assert value("2h 2d 2c Kc Ks 7h 7d") == value("2h 2d 2c Kc Ks")
    assert value("2h 2d 2c Kc Ks 7h 7d") > value("2h 2d 2c 7h 7d")


def test_c_4_nine_cards_a_straight_flush_beats_four_of_a_kind() -> None:
    hand = "2s 2h 2d 2c Kh Qh Jh Th 9h"
    assert name(hand) == "straight flush"
    assert top_rank_of(value(hand)) is Rank.KING


def test_c_4_eight_cards_a_full_house_beats_a_flush() -> None:
    assert name("Ah Kh Qh 9h 3h 3d 3c Ks") == "full house"


def test_c_4_no_cards_is_below_every_hand() -> None:
    assert hand_value(()) < value("2c")


# --- evaluate(): the cards that make the hand ----------------------------------------------


def c7_order(cards: Sequence[Card], straight_top: Rank | None) -> list[str]:
    """C-7 written out: descending rank, suits s h d c; the wheel from its five down, ace last."""
    ordered = sorted(cards, key=lambda c: (-c.rank, c.suit))
    if straight_top is Rank.FIVE:
        ordered = ordered[1:] + ordered[:1]
    return [c.text for c in ordered]


def test_c_7_evaluate_picks_five_of_the_cards_reaching_the_best_value() -> None:
    for hand in RANDOM_HANDS[::3]:
        if len(hand) < 6:
            continue
        ranked = evaluate(hand)
        assert ranked.value == hand_value(encode(hand))
        assert len(ranked.cards) == 5
        assert len(set(ranked.cards)) == 5
        assert set(ranked.cards) <= set(hand)
        assert hand_value(encode(ranked.cards)) == ranked.value
        assert reference(ranked.cards) == reference(hand)


def test_c_7_evaluate_lists_the_cards_in_c_7_order() -> None:
    for hand in RANDOM_HANDS[::7]:
        ranked = evaluate(hand)
        is_run = ranked.category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH)
        top = top_rank_of(ranked.value) if is_run else None
        assert ranked.texts == c7_order(ranked.cards, top)


def test_c_7_a_short_hand_lists_all_its_cards() -> None:
    ranked = evaluate(parse_cards("Kd Ah As"))
    assert ranked.texts == ["As", "Ah", "Kd"]
    assert ranked.name == "one pair"


def test_c_7_the_steel_wheel_is_listed_from_the_five_down() -> None:
    ranked = evaluate(parse_cards("As 2s 3s 4s 5s Kd Qc"))
    assert ranked.texts == ["5s", "4s", "3s", "2s", "As"]
    assert ranked.name == "straight flush"


def test_c_7_a_wheel_is_listed_from_the_five_down() -> None:
    ranked = evaluate(parse_cards("Ah 2c 3h 4s 5d 5c"))
    # either five may be shown (C-7: equal best hands); the ace goes last
    assert [c.rank for c in ranked.cards] == [Rank.FIVE, Rank.FOUR, Rank.THREE, Rank.TWO, Rank.ACE]
    assert ranked.name == "straight"


def test_c_7_a_broadway_straight_is_listed_from_the_ace_down() -> None:
    assert evaluate(parse_cards("Th Jd Qc Ks As 2d")).texts == ["As", "Ks", "Qc", "Jd", "Th"]


def test_c_7_a_full_house_is_listed_by_descending_rank() -> None:
    assert evaluate(parse_cards("2c Ah 2s Ad Kh 2h 9d")).texts == ["Ah", "Ad", "2s", "2h", "2c"]


def test_c_7_nine_cards_show_the_five_that_play() -> None:
    ranked = evaluate(parse_cards("2s 2h 2d 2c Kh Qh Jh Th 9h"))
    assert ranked.texts == ["Kh", "Qh", "Jh", "Th", "9h"]


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("Ah Kd 9c 7s 3h", "high card"),
        ("Ah Ad 9c 7s 3h", "one pair"),
        ("Ah Ad 9c 9s 3h", "two pair"),
        ("Ah Ad Ac 9s 3h", "three of a kind"),
        ("9h Td Jc Qs Kh", "straight"),
        ("Ah Jh 9h 5h 3h", "flush"),
        ("Ah Ad Ac 9s 9h", "full house"),
        ("Ah Ad Ac As 3h", "four of a kind"),
        ("9h Th Jh Qh Kh", "straight flush"),
        ("Th Jh Qh Kh Ah", "royal flush"),
    ],
)
def test_settle_hand_names_exactly(hand: str, expected: str) -> None:
    ranked = evaluate(parse_cards(hand))
    assert ranked.name == expected
    assert hand_name(ranked.value) == expected


def test_c_7_a_hand_rank_is_a_frozen_value() -> None:
    ranked = evaluate(parse_cards("Ah Kd"))
    assert isinstance(ranked, HandRank)
    with pytest.raises(dataclasses.FrozenInstanceError):
        ranked.value = 0  # type: ignore[misc]


# --- the shipped tables ------------------------------------------------------------------


def test_tables_the_shipped_file_matches_its_recorded_checksum() -> None:
    assert hashlib.sha256(hand_tables.TABLE_FILE.read_bytes()).hexdigest() == HAND_TABLES_SHA256
    assert hand_tables.checksum() == HAND_TABLES_SHA256


def test_tables_a_fresh_build_gives_the_shipped_bytes() -> None:
    assert hand_tables.to_bytes(*hand_tables.build()) == hand_tables.TABLE_FILE.read_bytes()
