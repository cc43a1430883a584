"""Chinese Poker rules (docs/rules.md CP-2..CP-13, revision 2): rows, fouls, naturals, pair scoring,
royalties, table stakes on the nets and buys; and revision 1, kept to re-settle old rounds.

Points are worked out by hand from docs/rules.md and the shipped profile: rows +1/-1/0; scoop 6
(mandarin) or 9 (super_bonus), basic 3; royalties back SF 5, back quads 4, middle SF 10, middle
quads 8, middle full house 2, front trips 3, only when the row wins; foul 6 (9 super_bonus) plus
the opponent's royalties, or plus its declared natural's points; naturals dragon 13, others 4;
point value 5, full buy-in 20 x 5 = 100, buy-in range 50-100.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.cards import DECK, Card
from rules.errors import IllegalAction
from rules.games.chinese_poker.naturals import (
    is_flush_row,
    is_straight_row,
    natural_in,
    rows_showing,
)
from rules.games.chinese_poker.payments import (
    buy_decision,
    clockwise_from,
    debts_of,
    dues_of,
    pay_table_stakes,
    pay_table_stakes_revision_1,
)
from rules.games.chinese_poker.profile import ChinesePokerProfile
from rules.games.chinese_poker.rules import (
    JudgedHand,
    Natural,
    ScoringTerms,
    SetHand,
    foul_reason,
    judge,
    natural_of,
    score_pair,
    score_table,
)
from rules.profiles.loader import ProfileLibrary
from tests.reference_rules import cp_pay, settle_chinese_poker

_loaded = ProfileLibrary().find("chinese-poker").profile
assert isinstance(_loaded, ChinesePokerProfile)
PROFILE: ChinesePokerProfile = _loaded
BASIC = ScoringTerms.of(PROFILE, "basic")
MANDARIN = ScoringTerms.of(PROFILE, "mandarin")
SUPER = ScoringTerms.of(PROFILE, "super_bonus")
MANDARIN_1 = ScoringTerms.of(PROFILE, "mandarin", revision=1)


def hand(front: str, middle: str, back: str) -> SetHand:
    return SetHand.parse(front, middle, back)


def seat(number: int, h: SetHand, terms: ScoringTerms = MANDARIN, natural: bool = False) -> JudgedHand:
    return judge(number, h, terms, declares_natural=natural)


def points(a: SetHand, b: SetHand, terms: ScoringTerms = MANDARIN, *, a_nat: bool = False,
           b_nat: bool = False) -> int:
    return score_pair(seat(1, a, terms, a_nat), seat(2, b, terms, b_nat), terms).points


# Seed 003's example hands: A wins middle and back, loses the front; A2 wins all three rows.
A = hand("2h 3d 4c", "Ah Ad Ac Qs Js", "9s 8s 7s 6s 5s")        # back straight flush
B = hand("Kh Kd 5c", "Qh Qd Jh Jd 2s", "Th Td Tc 3h 3s")        # front pair of kings
A2 = hand("Kc Ks 4c", "Ah Ad Ac Qs Js", "9s 8s 7s 6s 5s")
B2 = hand("Qh Qd 5c", "Jh Jd Th Td 2s", "8h 8d 8c 3h 3s")
# Royalties in every row: front trips 3, middle quads 8, back straight flush 5 (16 in all).
R = hand("Ac Ad Ah", "Kc Kd Kh Ks 2c", "3d 4d 5d 6d 7d")
# Naturals.
DRAGON = hand("Ad Kc Qd", "Jc Td 9c 8d 7c", "6c 5d 4c 3d 2d")
DRAGON_SH = hand("As Kh Qs", "Jh Ts 9h 8s 7h", "6s 5h 4s 3h 2s")
SIX_PAIRS = hand("Qs Qh Js", "Jh Ts Th 9s 9h", "8s 8h 7s 7h 2s")
FLUSHES = hand("2c 3c 5c", "2d 3d 5d 9d Jd", "4c 6c 8c Tc Qc")
FOULED_SH = hand("As Ah Ks", "Kh Qs Qh 2s 3h", "Js Jh Ts Th 9s")  # middle pair of queens < front aces


# --- CP-2, CP-3, CP-4: rows and fouls ---------------------------------------------------------


def test_cp_2_front_of_three_is_high_card_pair_or_trips_never_straight_or_flush() -> None:
    j = seat(1, hand("Qh Kh Ah", "2s 2d 3c 3d 4s", "5s 5d 5c 6s 7s"))
    assert j.row_names == ("high card", "two pair", "three of a kind")  # Q-K-A suited: high card
    assert seat(1, R).row_names == ("three of a kind", "four of a kind", "straight flush")


def test_cp_2_rows_of_five_rank_by_poker_ranking_royal_named() -> None:
    j = seat(1, hand("2c 3d 4h", "9s 8h 7d 6c 5s", "Ah Kh Qh Jh Th"))
    assert j.row_names == ("high card", "straight", "royal flush")


def test_cp_3_back_equal_to_middle_is_legal() -> None:
    # Two 9-high straights: back equals middle, which CP-3 allows.
    assert foul_reason(hand("2c 3d 4h", "9s 8h 7d 6c 5s", "9h 8d 7c 6s 5h")) is None


def test_cp_3_back_below_middle_fouls() -> None:
    # docs/settle.md seat 3: back pair of kings under middle two pair.
    why = foul_reason(hand("5c 5d 4c", "7d 7s 8c 8s 2d", "Ac Kc Kd 9s Js"))
    assert why is not None and why.startswith("back one pair") and "below middle two pair" in why


def test_cp_3_middle_below_front_by_category_fouls() -> None:
    # A front pair of aces beats a middle ace-high: category first.
    why = foul_reason(hand("Ah Ad 2s", "Kh Qs 9c 7d 4h", "7s 7h 7c 5c 6c"))
    assert why is not None and "middle high card" in why and "does not beat front one pair" in why


def test_cp_3_same_pair_middle_and_front_compare_kickers() -> None:
    # Front A-A-K against middle A-A-Q-J-9: the front's K kicker beats the Q, so the front is higher.
    assert foul_reason(hand("Ah Ad Kc", "As Ac Qd Jh 9s", "2s 2h 2d 5c 6c")) is not None


def test_cp_3_front_cards_all_matched_by_middle_middle_wins() -> None:
    # Front A-A-K, middle A-A-K-3-2: the front's cards are all matched rank for rank (C-6).
    assert foul_reason(hand("Ah Ad Kc", "As Ac Kd 3h 2s", "7s 7h 7d 5c 6c")) is None
    # High cards: A-K-Q matched by A-K-Q-4-2 (legal); A-K-J-9-8 loses at the third card (foul).
    assert foul_reason(hand("Ah Kd Qc", "As Kc Qd 4h 2s", "7s 7h 7d 5c 6c")) is None
    assert foul_reason(hand("Ah Kd Qc", "As Kc Jd 9h 8s", "7s 7h 7d 5c 6c")) is not None


def test_cp_4_wrong_card_count_fouls_and_the_row_has_no_name() -> None:
    j = seat(1, hand("Ah Kd Qc 2s", "As Kc Qd 4h", "7s 7h 7d 5c 6c"))
    assert j.fouled and j.foul == "front has 4 cards, needs 3; middle has 4 cards, needs 5"
    assert j.row_names == (None, None, "three of a kind")
    assert j.royalties == (0, 0, 0)


# --- CP-5, CP-6: rows and scoops --------------------------------------------------------------


C = hand("Kh Kd 2c", "Ah Ad As 6c 5d", "9h Td Jc Qs 8s")    # pair K / trips A / straight
D = hand("Ks Kc 2d", "Qh Qd 7c 7d 3h", "2h 4h 6h 8h Th")    # pair K / two pair / flush
D_WEAK = hand("Ks Kc 2d", "Qh Qd 7c 7d 3h", "3c 3d 3s 4d 6s")  # back trips 3


def test_cp_5_row_won_lost_tied() -> None:
    # front K-K-2 v K-K-2 tie 0, middle +1, back -1: 0 under every profile.
    for terms in (BASIC, MANDARIN, SUPER):
        assert points(C, D, terms) == 0
    assert score_pair(seat(1, C), seat(3, D), MANDARIN).reason == "seat 1 v seat 3: front 0, middle +1, back -1 = 0"


def test_cp_6_a_tied_row_is_no_scoop() -> None:
    assert points(C, D_WEAK) == 2  # 0 + 1 + 1


def test_cp_6_scoop_basic_3_mandarin_6_super_bonus_9() -> None:
    # A2 wins all three rows; its back straight flush royalty is 5 (not paid under basic).
    assert points(A2, B2, BASIC) == 3
    assert points(A2, B2, MANDARIN) == 11  # 6 + 5: the seed's example
    assert points(A2, B2, SUPER) == 14  # 9 + 5
    assert points(B2, A2, SUPER) == -14


def test_cp_7_seed_example_two_rows_of_three_with_back_straight_flush_is_6() -> None:
    assert points(A, B) == 6  # front -1, middle +1, back +1 = 1, + 5
    assert score_pair(seat(1, A), seat(3, B), MANDARIN).reason == (
        "seat 1 v seat 3: front -1, middle +1, back +1, back straight flush royalty +5 = 6"
    )


def test_cp_7_seed_example_three_of_three_with_back_straight_flush_is_11() -> None:
    assert score_pair(seat(1, A2), seat(3, B2), MANDARIN).reason == (
        "seat 1 v seat 3: front +1, middle +1, back +1, scoop 6, back straight flush royalty +5 = 11"
    )


# --- CP-7: royalties --------------------------------------------------------------------------


def test_cp_7_royalty_per_row_and_hand() -> None:
    assert seat(1, R).royalties == (3, 8, 5)  # front trips, middle quads, back straight flush
    assert seat(1, hand("2c 2d 2h", "5c 5d 5h 6c 6d", "As Ks Qs Js Ts")).royalties == (3, 2, 5)  # FH; royal = SF
    assert seat(1, hand("2c 3d 4s", "9h 8h 7h 6h 5h", "Th Jh Qh Kh Ah")).royalties == (0, 10, 5)
    assert seat(1, hand("2c 2d 3s", "5c 5d 5h 6c 6d", "9s 9h 9c 9d Ks")).royalties == (0, 2, 4)
    # No royalty for a back full house, a front pair, a middle flush.
    assert seat(1, hand("2c 2d 3s", "4h 7h 9h Jh Kh", "5c 5d 5h 6c 6d")).royalties == (0, 0, 0)


def test_cp_7_basic_pays_no_royalties() -> None:
    assert seat(1, R, BASIC).royalties == (0, 0, 0)


E = hand("Ah Ad 2c", "Kh Kd Kc 3c 4c", "9h 9d 9c 9s 5c")   # back quads 9 (royalty 4)
F = hand("Qh Qd 2d", "Jh Jd Th Td 2h", "3s 4s 5s 6s 7s")   # back straight flush (royalty 5)


def test_cp_7_royalty_needs_the_row_won() -> None:
    # E wins front and middle, loses the back: rows 1; E's quads royalty is not collected, F's
    # straight flush royalty is: 1 - 5 = -4.
    assert points(E, F) == -4
    assert score_pair(seat(1, E), seat(2, F), MANDARIN).reason == (
        "seat 1 v seat 2: front +1, middle +1, back -1, back four of a kind royalty 0 (row not won), "
        "seat 2's back straight flush royalty -5 = -4"
    )
    assert points(F, E) == 4


def test_cp_7_royalty_without_row_win_when_the_profile_says_so() -> None:
    terms = ScoringTerms.of(PROFILE.model_copy(update={"royalty_needs_row_win": False}), "mandarin")
    assert points(E, F, terms) == 0  # 1 + 4 - 5


# --- CP-8: fouls ------------------------------------------------------------------------------


G = hand("Ah Ad Ac", "Kh Kd 5c 6c 7d", "8h 8d 8c 8s 2s")   # fouled: middle pair K < front trips
H = hand("2c 2d 2h", "3c 3d 3h 3s 4c", "9s Ts Js Qs Ks")   # royalties 3 + 8 + 5 = 16
G_COUNT = hand("Qh Qd", "Jh Jd Jc 4h 4d", "Th Td Tc 5h 5d 6h")  # fouled: rows of 2/5/6


def test_cp_8_fouled_hand_pays_foul_plus_all_opponent_royalties() -> None:
    assert points(G, H) == -22  # -(6 + 3 + 8 + 5)
    assert points(H, G) == 22
    assert score_pair(seat(1, H), seat(2, G), MANDARIN).reason == (
        "seat 1 v seat 2: seat 2 fouled, pays foul 6 + seat 1's royalties 16 = 22"
    )


def test_cp_8_super_bonus_foul_is_9_and_basic_is_6_without_royalties() -> None:
    assert points(G, H, SUPER) == -25  # -(9 + 16)
    assert points(G, H, BASIC) == -6


def test_cp_8_two_fouled_hands_exchange_nothing() -> None:
    assert points(G, G_COUNT) == 0
    assert points(G, G_COUNT, SUPER) == 0


# --- CP-9: naturals ---------------------------------------------------------------------------


def test_cp_9_dragon_thirteen_ranks() -> None:
    assert natural_of(DRAGON) is Natural.DRAGON


def test_cp_9_six_pairs_counts_quads_as_two_and_trips_as_one() -> None:
    assert natural_of(SIX_PAIRS) is Natural.SIX_PAIRS  # Q J T 9 8 7
    # Quads A (2) + K K, Q Q, J J, T T (4) = 6.
    assert natural_of(hand("As Ah Ad", "Ac Ks Kh Qs Qh", "Js Jh Ts Th 2c")) is Natural.SIX_PAIRS
    # Trips 9 (1) + five pairs = 6.
    assert natural_of(hand("9s 9h 9d", "2s 2h 3s 3h 4s", "4h 5s 5h 6s 6h")) is Natural.SIX_PAIRS
    # Quads A (2) + trips K (1) + Q Q, J J, T T (3) = 6.
    assert natural_of(hand("As Ah Ad", "Ac Ks Kh Kd Qs", "Qh Js Jh Ts Th")) is Natural.SIX_PAIRS
    # Five pairs and three odd cards: 5.
    assert natural_of(hand("2s 2h 3s", "3h 4s 4h 5s 5h", "6s 6h 8d 9c Jd")) is None


def test_cp_9_three_flushes_front_three_of_one_suit() -> None:
    assert natural_of(FLUSHES) is Natural.THREE_FLUSHES
    assert natural_of(hand("2c 7c 9c", "3d 6d 8d Jd Qd", "4h 5h Jh Th 6h")) is Natural.THREE_FLUSHES


def test_cp_9_three_straights_a23_and_qka_fronts_count_ka2_does_not() -> None:
    assert natural_of(hand("Qd Kc Ah", "4s 5h 6d 7c 8s", "9h Td Jc Qs Kh")) is Natural.THREE_STRAIGHTS
    assert natural_of(hand("Ah 2d 3c", "2s 3h 4d 5c 6s", "7h 8d 9c Ts Jh")) is Natural.THREE_STRAIGHTS
    assert natural_of(hand("Kh Ad 2c", "3s 4h 5d 6c 7s", "9h Td Jc Qs Kd")) is None


def test_cp_9_precedence_dragon_six_pairs_three_flushes_three_straights() -> None:
    # A dragon that is also three flushes and three straights (two straight flushes) is a dragon.
    assert natural_of(hand("Ah Kh Qh", "Js Ts 9s 8s 7s", "6d 5d 4d 3d 2d")) is Natural.DRAGON
    # Six pairs that are also three flushes: 2 3 4 5 6 7 paired, each row one suit.
    assert natural_of(hand("2h 3h 4h", "2s 3s 5s 6s 7s", "4d 5d 6d 7d 9d")) is Natural.SIX_PAIRS
    # Three flushes that are also three straights (straight flushes count as both).
    assert natural_of(hand("Qh Kh Ah", "9s Ts Js Qs Ks", "5d 6d 7d 8d 9d")) is Natural.THREE_FLUSHES


def test_cp_9_natural_not_declared_is_played_as_set() -> None:
    # docs/settle.md seat 2: back J-high flush below middle Q-high flush, so undeclared it is fouled.
    flushes = hand("2c 7c 9c", "3d 6d 8d Jd Qd", "4h 5h Jh Th 6h")
    assert seat(2, flushes).fouled and seat(2, flushes).natural is None
    declared = seat(2, flushes, natural=True)
    assert declared.natural is Natural.THREE_FLUSHES and not declared.fouled  # order not checked


def test_cp_9_natural_on_rows_not_3_5_5_is_refused() -> None:
    dragon_4_4_5 = hand("Ad Kc Qd Jc", "Td 9c 8d 7c", "6c 5d 4c 3d 2d")
    with pytest.raises(IllegalAction, match="seat 4 declares a natural on rows of 4/4/5 cards"):
        seat(4, dragon_4_4_5, natural=True)


def test_cp_9_declaring_a_natural_the_cards_do_not_hold_is_refused() -> None:
    with pytest.raises(IllegalAction, match="seat 1 declares a natural, but the cards hold no"):
        seat(1, A, natural=True)


# docs/settle.md's seat 2 (clubs 2 7 9; diamonds 3 6 8 J Q; hearts 4 5 6 T J) in rows that mix suits.
FLUSHES_MIXED = hand("2c 3d 4h", "7c 9c 6d 5h Jh", "8d Jd Qd Th 6h")
# Q-K-A, 2-3-4-5-6, 2-3-4-5-6 given in rows that are no runs.
STRAIGHTS_MIXED = hand("Qd 5s Ac", "2h 3h 4d Kd 6s", "2d 3s 4c 5c 6d")


def test_cp_9_three_flushes_judged_on_13_cards_in_any_rows() -> None:
    assert natural_of(FLUSHES_MIXED) is None  # the rows as given show none
    declared = seat(2, FLUSHES_MIXED, natural=True)
    assert declared.natural is Natural.THREE_FLUSHES and not declared.fouled
    assert points(FLUSHES_MIXED, A, a_nat=True) == 4
    with pytest.raises(IllegalAction, match="seat 2 declares a natural, but the cards hold no"):
        judge(2, FLUSHES_MIXED, MANDARIN_1, declares_natural=True)  # revision 1 judged the rows


def test_cp_9_three_straights_judged_on_13_cards_in_any_rows() -> None:
    assert natural_of(STRAIGHTS_MIXED) is None
    assert seat(1, STRAIGHTS_MIXED, natural=True).natural is Natural.THREE_STRAIGHTS
    # 2-3-4-5-7 in place of the second 2-3-4-5-6: no split of runs is left.
    no_run = hand("Qd 5s Ac", "2h 3h 4d Kd 6s", "2d 3s 4c 5c 7d")
    assert natural_in(no_run.cards) is None
    with pytest.raises(IllegalAction, match="cards hold no dragon"):
        seat(1, no_run, natural=True)


def test_cp_9_super_bonus_fouled_hand_pays_three_flushes_set_in_any_rows_9_plus_4() -> None:
    assert points(FLUSHES_MIXED, FOULED_SH, SUPER, a_nat=True) == 13  # foul 9 + three flushes 4


def test_cp_9_the_terminal_finds_rows_that_show_the_natural() -> None:
    rows = rows_showing(FLUSHES_MIXED.cards, Natural.THREE_FLUSHES)
    assert rows is not None and [len(r) for r in rows] == [3, 5, 5]
    assert all(is_flush_row(r) for r in rows)
    assert sorted(c.text for r in rows for c in r) == sorted(c.text for c in FLUSHES_MIXED.cards)
    runs = rows_showing(STRAIGHTS_MIXED.cards, Natural.THREE_STRAIGHTS)
    assert runs is not None and all(is_straight_row(r) for r in runs)
    assert sorted(c.rank for c in runs[0]) == [10, 11, 12]  # the front is Q-K-A (ranks 0..12: 2..A)
    assert rows_showing(STRAIGHTS_MIXED.cards, Natural.THREE_FLUSHES) is None


def test_cp_9_eight_of_a_suit_make_a_front_and_a_row_of_three_flushes() -> None:
    # Clubs A K Q 9 7 5 3 2 (8 = 3 + 5) and diamonds K J 8 6 4 (5): three flushes.
    cards = hand("Ac Kc Qc", "9c 7c 5c 3c 2c", "Kd Jd 8d 6d 4d").cards
    shuffled = hand("Ac Kd 2c", "Qc 9c 7c Jd 8d", "5c 3c Kc 6d 4d").cards
    assert natural_in(cards) is natural_in(shuffled) is Natural.THREE_FLUSHES
    # Clubs 7 (no 3 + 5 split of 7 with the rest) and diamonds 6: no three flushes.
    assert natural_in(hand("Ac Kc Qc", "9c 7c 5c 3c Kd", "Jd 8d 6d 4d 2d").cards) is None


# --- CP-10: naturals against other hands ------------------------------------------------------


def test_cp_10_natural_collects_its_points_without_royalties() -> None:
    assert points(SIX_PAIRS, R, a_nat=True) == 4  # R's 16 royalty points do not count
    assert points(R, SIX_PAIRS, b_nat=True) == -4
    assert points(SIX_PAIRS, R, SUPER, a_nat=True) == 4


def test_cp_10_two_non_dragon_naturals_push() -> None:
    assert points(SIX_PAIRS, FLUSHES, a_nat=True, b_nat=True) == 0


def test_cp_10_dragon_beats_other_naturals_for_13_and_dragons_push() -> None:
    assert points(DRAGON, SIX_PAIRS, a_nat=True, b_nat=True) == 13
    assert points(SIX_PAIRS, DRAGON, a_nat=True, b_nat=True) == -13
    assert points(DRAGON, DRAGON_SH, a_nat=True, b_nat=True) == 0


def test_cp_8_fouled_hand_pays_declared_three_flushes_foul_plus_natural() -> None:
    assert points(FLUSHES, FOULED_SH, a_nat=True) == 10  # foul 6 + three flushes 4
    assert points(FOULED_SH, FLUSHES, b_nat=True) == -10
    assert score_pair(seat(1, FOULED_SH), seat(2, FLUSHES, natural=True), MANDARIN).reason == (
        "seat 1 v seat 2: seat 1 fouled, pays foul 6 + seat 2's three flushes 4 = -10"
    )


def test_cp_10_fouled_hand_pays_dragon_19() -> None:
    assert points(DRAGON, FOULED_SH, a_nat=True) == 19  # foul 6 + dragon 13
    assert points(FOULED_SH, DRAGON, b_nat=True) == -19


def test_cp_8_super_bonus_fouled_hand_pays_a_natural_foul_9_plus_its_points() -> None:
    assert points(FLUSHES, FOULED_SH, SUPER, a_nat=True) == 13  # foul 9 + 4
    assert points(DRAGON, FOULED_SH, SUPER, a_nat=True) == 22  # foul 9 + 13
    assert points(SIX_PAIRS, FOULED_SH, BASIC, a_nat=True) == 10  # basic: foul 6 + 4


def test_cp_8_a_fouled_hand_and_a_declared_natural_against_a_set_hand() -> None:
    # The natural collects only its points from a hand that did not foul (CP-10): 4, not 6 + 4.
    assert points(FLUSHES, R, a_nat=True) == 4


def test_revision_1_a_natural_collected_only_its_points_from_a_fouled_hand() -> None:
    def old(a: SetHand, b: SetHand) -> int:
        return score_pair(seat(1, a, MANDARIN_1, True), seat(2, b, MANDARIN_1), MANDARIN_1).points

    assert old(DRAGON, FOULED_SH) == 13  # revision 1: not the foul penalty 6 on top
    assert old(FLUSHES, FOULED_SH) == 4


def test_cp_5_table_scores_every_pair_settle_example() -> None:
    table = score_table([
        seat(3, hand("5c 5d 4c", "7d 7s 8c 8s 2d", "Ac Kc Kd 9s Js")),
        seat(1, hand("Ah Ad 2s", "Kh Ks Qc Qs 9h", "Tc Td Ts 3c 3h")),
        seat(2, hand("2c 7c 9c", "3d 6d 8d Jd Qd", "4h 5h Jh Th 6h"), natural=True),
    ], MANDARIN)
    # 1 v 2: seat 2's three flushes 4 -> -4; 1 v 3: seat 3 fouled 6 + seat 1's royalties 0 -> 6;
    # 2 v 3: seat 3 fouled, pays foul 6 + three flushes 4 -> 10.
    # Seat 1: -4 + 6 = 2; seat 2: 4 + 10 = 14; seat 3: -6 - 10 = -16.
    assert [(p.seats, p.points) for p in table.pairs] == [((1, 2), -4), ((1, 3), 6), ((2, 3), 10)]
    assert table.points == {1: 2, 2: 14, 3: -16}


# --- CP-12, CP-13: money ----------------------------------------------------------------------


def test_c_5_clockwise_from_the_button() -> None:
    assert clockwise_from(2, [1, 2, 3]) == (3, 1, 2)
    assert clockwise_from(4, [4, 1, 3, 2]) == (1, 2, 3, 4)
    assert clockwise_from(1, [1, 3, 4]) == (3, 4, 1)


def test_cp_12_points_times_point_value() -> None:
    pairs = score_table([seat(1, A2), seat(2, B2)], MANDARIN).pairs
    assert debts_of(pairs, 5) == {(2, 1): 55}  # 11 points x 5


def nets_moves(stacks: dict[int, int], pts: dict[int, int], button: int,
               fee: int = 0) -> tuple[list[tuple[int, int, int]], dict[int, int]]:
    """Payments (payer, receiver, amount) and nets of CP-13 at 5 chips a point."""
    money = pay_table_stakes(stacks, dues_of(pts, 5), button, fee)
    return [(p.payer, p.receiver, p.amount) for p in money.payments], money.nets


@pytest.mark.parametrize("button", [1, 2, 3, 4, 9])
def test_cp_13_zero_points_move_no_chips(button: int) -> None:
    # docs/rules.md's example: points 0 / +12 / -12 at 5 a point, seat 1 holding 10, the others 500.
    # Dues 0 / +60 / -60: seat 3 pays 60 (it holds 500), seat 2 claims 60 (its stack 500); seat 1
    # moves nothing wherever the button is (an empty seat 4 or 9 included).
    payments, nets = nets_moves({1: 10, 2: 500, 3: 500}, {1: 0, 2: 12, 3: -12}, button)
    assert payments == [(3, 2, 60)]
    assert nets == {1: 0, 2: 60, 3: -60}


def test_revision_1_pair_by_pair_moved_a_zero_point_player_by_the_button() -> None:
    # The same points made pair by pair: 1 v 2 -6, 1 v 3 +6, 2 v 3 +6 -> 1 owes 2 30, 3 owes 1 30,
    # 3 owes 2 30 (seat 1's points: -6 + 6 = 0).
    owed = {(1, 2): 30, (3, 1): 30, (3, 2): 30}
    stacks = {1: 10, 2: 500, 3: 500}
    # Button 3, order 1 2 3: seat 1 pays seat 2 its 10; seat 3 pays seat 1 min(30, allowance
    # 10 - (0 - 10) = 20) = 20 and seat 2 30. Seat 1: 20 - 10 = +10.
    assert pay_table_stakes_revision_1(stacks, owed, 3).nets == {1: 10, 2: 40, 3: -50}
    # Button 1, order 2 3 1: seat 3 pays seat 1 min(30, allowance 10) = 10 and seat 2 30; seat 1
    # (10 + 10 = 20 chips) pays seat 2 20 of 30. Seat 1: 10 - 20 = -10.
    assert pay_table_stakes_revision_1(stacks, owed, 1).nets == {1: -10, 2: 50, 3: -40}


@pytest.mark.parametrize(("button", "expected"), [
    (4, [(4, 1, 40), (4, 2, 10)]),  # order 1 2 3 4: seat 3 collects nothing
    (2, [(4, 3, 40), (4, 1, 10)]),  # order 3 4 1 2: seat 2 collects nothing
    (1, [(4, 2, 40), (4, 3, 10)]),  # order 2 3 4 1: seat 1 collects nothing
])
def test_cp_13_loser_short_pays_winners_in_button_order(
        button: int, expected: list[tuple[int, int, int]]) -> None:
    # Seat 4 (stack 50) is at -24 points = -120; seats 1, 2 and 3 at +8 = +40 each (stacks 500).
    # Pay: min(120, 50) = 50; claims 40 + 40 + 40 = 120; M = min(50, 120) = 50: the winners in
    # order from the button take 40, then 10, then 0.
    stacks = {1: 500, 2: 500, 3: 500, 4: 50}
    payments, nets = nets_moves(stacks, {1: 8, 2: 8, 3: 8, 4: -24}, button)
    assert payments == expected
    assert nets[4] == -50 and sum(nets.values()) == 0
    money = pay_table_stakes(stacks, dues_of({1: 8, 2: 8, 3: 8, 4: -24}, 5), button)
    assert money.stakes[4].reason == "seat 4 owes 120 and holds 50: pays 50 (CP-13)"
    last = expected[1][1]
    assert money.stakes[last].reason == (
        f"seat {last} is owed 40: receives 10, as the losers hold no more (CP-13)")


@pytest.mark.parametrize(("button", "expected"), [
    (3, [(2, 1, 25)]),  # order 1 2 3: seat 2 pays 25, seat 3 nothing
    (1, [(2, 1, 25)]),  # order 2 3 1: the same
    (2, [(3, 1, 25)]),  # order 3 1 2: seat 3 pays 25, seat 2 nothing
])
def test_cp_13_winner_capped_at_starting_stack(button: int, expected: list[tuple[int, int, int]]) -> None:
    # Seat 1 (stack 25) is at +16 points = +80; seats 2 and 3 at -8 = -40 each (stacks 500).
    # Claim: min(80, 25) = 25; pays 40 + 40 = 80; M = 25: the first loser from the button pays it.
    stacks = {1: 25, 2: 500, 3: 500}
    payments, nets = nets_moves(stacks, {1: 16, 2: -8, 3: -8}, button)
    assert payments == expected
    assert nets[1] == 25 and sum(nets.values()) == 0
    money = pay_table_stakes(stacks, dues_of({1: 16, 2: -8, 3: -8}, 5), button)
    assert money.stakes[1].reason == (
        "seat 1 is owed 80 and can win at most its stack 25: receives 25 (CP-13)")
    idle = 3 if expected[0][0] == 2 else 2
    assert money.stakes[idle].reason == (
        f"seat {idle} owes 40: pays 0, as the winners can collect no more (CP-13)")


@pytest.mark.parametrize(("button", "expected"), [
    (4, [(1, 2, 20), (1, 3, 10)]),  # order 1 2 3 4: seat 2 takes its 20, seat 3 the other 10
    (2, [(1, 3, 30)]),              # order 3 4 1 2: seat 3 takes 30 of its 40, seat 2 nothing
])
def test_cp_13_loser_short_and_winner_capped(button: int, expected: list[tuple[int, int, int]]) -> None:
    # Seat 1 (stack 30) at -20 points = -100; seat 2 (stack 20) at +12 = +60; seat 3 (500) at +8 =
    # +40; seat 4 (500) at 0. Pay: min(100, 30) = 30. Claims: min(60, 20) = 20 and min(40, 500) =
    # 40, 60 in all. M = min(30, 60) = 30.
    stacks = {1: 30, 2: 20, 3: 500, 4: 500}
    payments, nets = nets_moves(stacks, {1: -20, 2: 12, 3: 8, 4: 0}, button)
    assert payments == expected
    assert nets == {1: -30, 2: sum(a for _, r, a in expected if r == 2),
                    3: sum(a for _, r, a in expected if r == 3), 4: 0}


@pytest.mark.parametrize(("button", "expected"), [
    (4, [(1, 2, 30), (3, 2, 20), (3, 4, 20)]),  # losers 1, 3; winners 2, 4
    (2, [(3, 4, 20), (3, 2, 20), (1, 2, 30)]),  # losers 3, 1; winners 4, 2
])
def test_cp_13_losers_are_matched_to_winners_in_order(button: int, expected: list[tuple[int, int, int]]) -> None:
    # Points -6, +10, -8, +4 -> dues -30, +50, -40, +20; every stack 500 covers them, M = 70.
    # Button 4: seat 1 pays seat 2 30 (seat 1 done); seat 3 pays seat 2 its last 20, then seat 4 20.
    # Button 2: seat 3 pays seat 4 20 (seat 4 done) and seat 2 20; seat 1 pays seat 2 30.
    payments, nets = nets_moves(dict.fromkeys((1, 2, 3, 4), 500), {1: -6, 2: 10, 3: -8, 4: 4}, button)
    assert payments == expected
    assert nets == {1: -30, 2: 50, 3: -40, 4: 20}


def test_cp_13_house_fee_taken_first_and_counted_in_net() -> None:
    # Fee 5 each; seat 1 (stack 30) starts the hand with 25 and is at -8 points = -40: pays 25;
    # seat 2 (100 - 5 = 95) claims 40 and receives 25. Nets: 1: -25 - 5 = -30; 2: 25 - 5 = 20.
    result = pay_table_stakes({1: 30, 2: 100}, dues_of({1: -8, 2: 8}, 5), button=2, house_fee=5)
    assert [(p.payer, p.receiver, p.amount) for p in result.payments] == [(1, 2, 25)]
    assert result.fees == {1: 5, 2: 5} and result.nets == {1: -30, 2: 20}
    assert sum(result.nets.values()) == -result.house_fees == -10


def test_c_5_cp_13_a_button_on_an_empty_seat_starts_the_order_after_it() -> None:
    # Players on seats 1, 2 and 4 at +6, -10, +4 points = +30, -50, +20; seat 1 brought 10.
    # Claims: seat 1 min(30, 10) = 10, seat 4 20: 30 in all; seat 2 pays 50 -> M = 30.
    stacks = {1: 10, 2: 500, 4: 500}
    pts = {1: 6, 2: -10, 4: 4}
    # Button on the empty seat 3: clockwise from 3 is 4, 1, 2 (C-5): seat 4 first, then seat 1.
    assert nets_moves(stacks, pts, 3) == ([(2, 4, 20), (2, 1, 10)], {1: 10, 2: -30, 4: 20})
    # Past the last player's seat the order wraps to the lowest seat: button 9 -> 1, 2, 4.
    assert nets_moves(stacks, pts, 9) == ([(2, 1, 10), (2, 4, 20)], {1: 10, 2: -30, 4: 20})
    assert pay_table_stakes(stacks, dues_of(pts, 5), button=9).order == (1, 2, 4)
    with pytest.raises(IllegalAction, match="seat numbered from 1, not 0"):
        pay_table_stakes(stacks, dues_of(pts, 5), button=0)


def test_cp_13_dues_must_add_up_to_zero() -> None:
    with pytest.raises(IllegalAction, match=r"the dues add up to 10, not 0 \(CP-13\)"):
        pay_table_stakes({1: 100, 2: 100}, {1: 30, 2: -20}, button=1)


# Revision 1, kept to re-settle rounds played under it: payments pair by pair.


def test_revision_1_payer_pays_with_what_it_received_earlier_in_the_order() -> None:
    # Seat 1 (stack 20) owes seat 3 50; seat 2 owes seat 1 30.
    owed = {(1, 3): 50, (2, 1): 30}
    stacks = {1: 20, 2: 100, 3: 100}
    # Button 3: order 1, 2, 3. Seat 1 pays 20 (all it has); seat 2 pays seat 1 30 (allowance
    # 20 - (0 - 20) = 40). Nets: 1: 30 - 20 = 10; 2: -30; 3: 20.
    first = pay_table_stakes_revision_1(stacks, owed, button=3)
    assert [(p.payer, p.receiver, p.amount) for p in first.payments] == [(1, 3, 20), (2, 1, 30)]
    assert first.nets == {1: 10, 2: -30, 3: 20}
    # Button 1: order 2, 3, 1. Seat 2 pays seat 1 only 20 (seat 1 can win its stack, 20);
    # seat 1 then holds 40 and pays seat 3 40 of 50. Nets: 1: 20 - 40 = -20; 2: -20; 3: 40.
    second = pay_table_stakes_revision_1(stacks, owed, button=1)
    assert [(p.payer, p.receiver, p.amount) for p in second.payments] == [(2, 1, 20), (1, 3, 40)]
    assert second.nets == {1: -20, 2: -20, 3: 40}
    assert [(p.payer, p.receiver, p.owed, p.amount) for p in second.unpaid] == [(2, 1, 30, 20), (1, 3, 50, 40)]
    assert "seat 1 can win only 0 more" not in second.unpaid[1].reason
    assert second.unpaid[0].reason == (
        "seat 2 pays seat 1 20 of 30 owed: seat 1 can win only 20 more this hand (CP-13)")


def test_revision_1_house_fee_taken_first() -> None:
    result = pay_table_stakes_revision_1({1: 30, 2: 100}, {(1, 2): 40}, button=2, house_fee=5)
    assert [(p.payer, p.amount) for p in result.payments] == [(1, 25)]  # 30 - fee 5 = 25
    assert result.nets == {1: -30, 2: 20}


def test_cp_12_short_buy_once_after_each_full_buy() -> None:
    # Full buy-in 20 x 5 = 100; one buy is 50..100 chips.
    assert buy_decision([], 100, PROFILE).allowed and buy_decision([], 100, PROFILE).full
    first_short = buy_decision([], 60, PROFILE)
    assert not first_short.allowed and "first buy must be a full buy of 100" in first_short.reason
    assert buy_decision([100], 60, PROFILE).allowed
    again = buy_decision([100, 60], 60, PROFILE)
    assert not again.allowed and "last buy (60) was short" in again.reason
    assert buy_decision([100, 60], 100, PROFILE).allowed
    assert buy_decision([100, 60, 100], 50, PROFILE).allowed
    assert not buy_decision([100], 40, PROFILE).allowed  # below the 50 minimum
    assert not buy_decision([100], 150, PROFILE).allowed  # above the 100 maximum
    assert not buy_decision([100], 0, PROFILE).allowed


# --- properties -------------------------------------------------------------------------------


NATURALS = [DRAGON, DRAGON_SH, SIX_PAIRS, FLUSHES]


def _random_hand(rng: random.Random, cards: list[Card]) -> tuple[SetHand, bool]:
    """Thirteen cards set by rank or shuffled, sometimes with a wrong row count; now and then one
    of the natural hands above instead, so that CP-10 is exercised too."""
    if rng.random() < 0.15:
        return rng.choice(NATURALS), rng.random() < 0.8
    if rng.random() < 0.5:
        cards = sorted(cards, key=lambda c: (c.rank, c.suit))
    cut1, cut2 = (3, 8) if rng.random() < 0.85 else sorted(rng.sample(range(14), 2))
    h = SetHand(tuple(cards[:cut1]), tuple(cards[cut1:cut2]), tuple(cards[cut2:]))
    return h, h.full_size and natural_in(h.cards) is not None and rng.random() < 0.8


PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(seed=st.integers(0, 2**32), scoring=st.sampled_from(["basic", "mandarin", "super_bonus"]))
def test_cp_5_pair_points_are_antisymmetric(seed: int, scoring: str) -> None:
    rng = random.Random(seed)
    deck = list(DECK)
    rng.shuffle(deck)
    terms = ScoringTerms.of(PROFILE, scoring)  # type: ignore[arg-type]
    (ha, na), (hb, nb) = _random_hand(rng, deck[:13]), _random_hand(rng, deck[13:26])
    a, b = judge(1, ha, terms, declares_natural=na), judge(2, hb, terms, declares_natural=nb)
    assert score_pair(a, b, terms).points == -score_pair(b, a, terms).points


@PROPERTY
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), fee=st.integers(0, 7),
       scoring=st.sampled_from(["basic", "mandarin", "super_bonus"]))
def test_c_2_cp_13_chips_are_conserved(seed: int, players: int, fee: int, scoring: str) -> None:
    """Pair points, payments and nets equal the reference reading of CP-3..CP-13
    (tests/reference_rules.py); the house keeps exactly min(fee, stack) of each player (C-2)."""
    rng = random.Random(seed)
    deck = list(DECK)
    rng.shuffle(deck)
    terms = ScoringTerms.of(PROFILE, scoring)  # type: ignore[arg-type]
    seats = sorted(rng.sample(range(1, 5), players))
    judged, given_hands = [], []
    for i, s in enumerate(seats):
        h, natural = _random_hand(rng, deck[13 * i : 13 * i + 13])
        judged.append(judge(s, h, terms, declares_natural=natural))
        given_hands.append((s, h, natural))
    table = score_table(judged, terms)
    stacks = {s: rng.choice([0, 7, 30, 100, 250, 1000]) for s in seats}
    value, button = rng.choice([1, 5, 25]), rng.randint(1, 5)  # the button may be an empty seat
    money = pay_table_stakes(stacks, dues_of(table.points, value), button, fee)
    ref = settle_chinese_poker({
        "scoring": scoring, "point_value": value, "button": button,
        "players": [{"seat": s, "stack": stacks[s], "natural": natural,
                     **{row: " ".join(c.text for c in getattr(h, row)) for row in ("front", "middle", "back")}}
                    for s, h, natural in given_hands]}, house_fee=fee)
    assert {pair.seats: pair.points for pair in table.pairs} == ref["pairs"]
    assert table.points == ref["points"]
    assert [(p.payer, p.receiver, p.amount) for p in money.payments] == ref["payments"]
    assert money.nets == ref["nets"]
    fees = sum(min(fee, stacks[s]) for s in seats)
    assert money.house_fees == fees and sum(money.nets.values()) == -fees  # C-2
    for s in seats:
        start = stacks[s] - money.fees[s]
        assert -stacks[s] <= money.nets[s]  # nobody pays more than they hold
        assert money.nets[s] + money.fees[s] <= start  # nobody wins more than their stack
    assert all(p.amount > 0 for p in money.payments)


@PROPERTY
@given(points=st.lists(st.integers(-60, 60), min_size=1, max_size=3),
       stacks=st.lists(st.sampled_from([0, 1, 7, 30, 100, 250, 1000]), min_size=4, max_size=4),
       seats=st.lists(st.integers(1, 8), min_size=2, max_size=4, unique=True),
       value=st.sampled_from([1, 5, 25]), fee=st.integers(0, 7), button=st.integers(1, 9))
def test_c_2_cp_13_nets_conserve_chips_within_table_stakes(
        points: list[int], stacks: list[int], seats: list[int], value: int, fee: int, button: int) -> None:
    """Any points adding up to 0: nets and fees add up to 0 (C-2); a loser pays at most its stack
    and its due, a winner receives at most its starting stack and its due, a player at 0 points
    moves nothing; payments go from losers to winners; the reference reading agrees."""
    pts = dict(zip(seats, [*points, 0, 0, 0][: len(seats) - 1], strict=False))
    pts[seats[-1]] = -sum(pts.values())
    chips = dict(zip(seats, stacks, strict=False))
    money = pay_table_stakes(chips, dues_of(pts, value), button, fee)
    assert sum(money.nets.values()) + money.house_fees == 0
    paid = dict.fromkeys(seats, 0)
    received = dict.fromkeys(seats, 0)
    for p in money.payments:
        assert p.amount > 0 and pts[p.payer] < 0 < pts[p.receiver]
        paid[p.payer] += p.amount
        received[p.receiver] += p.amount
    for s in seats:
        start = chips[s] - min(fee, chips[s])
        assert money.fees[s] == min(fee, chips[s])
        assert paid[s] <= min(start, max(0, -pts[s] * value))
        assert received[s] <= min(start, max(0, pts[s] * value))
        if pts[s] == 0:
            assert paid[s] == received[s] == 0 and money.nets[s] == -money.fees[s]
    # Either every loser paid all it could or every winner received all it could (CP-13 step 3).
    pays = sum(min(chips[s] - money.fees[s], -pts[s] * value) for s in seats if pts[s] < 0)
    claims = sum(min(chips[s] - money.fees[s], pts[s] * value) for s in seats if pts[s] > 0)
    assert sum(paid.values()) == sum(received.values()) == min(pays, claims)
    assert ([(p.payer, p.receiver, p.amount) for p in money.payments], money.nets) == cp_pay(
        chips, pts, value, button, fee)


def test_cp_3_foul_check_agrees_with_a_second_reading_on_seeded_splits() -> None:
    """CP-3 restated independently: categories first; within a category the rank lists (groups
    first, then kickers) compared over the front's length, a full match going to the middle (C-6)."""
    from rules.evaluator import evaluate

    def ranks(cards: tuple[Card, ...]) -> list[int]:
        values = [c.rank for c in cards]
        return sorted(values, key=lambda r: (-values.count(r), -r))

    rng = random.Random(3)
    deck = list(DECK)
    legal = 0
    for _ in range(400):
        rng.shuffle(deck)
        cut = sorted(deck[:13], key=lambda c: (c.rank, c.suit)) if rng.random() < 0.5 else deck[:13]
        h = SetHand(tuple(cut[:3]), tuple(cut[3:8]), tuple(cut[8:13]))
        front, middle = evaluate(h.front).category, evaluate(h.middle).category
        if front != middle:
            middle_beats_front = middle > front
        else:
            middle_beats_front = ranks(h.middle)[:3] >= ranks(h.front)
        back_ok = evaluate(h.back).value >= evaluate(h.middle).value
        expected_legal = middle_beats_front and back_ok
        assert (foul_reason(h) is None) == expected_legal, h
        legal += expected_legal
    assert 0 < legal < 400  # both outcomes were exercised
