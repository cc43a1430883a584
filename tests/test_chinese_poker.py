"""Chinese Poker rules (RULES.md CP-2..CP-13): rows, fouls, naturals, pair scoring, royalties,
table stakes and buys.

Points are worked out by hand from RULES.md and the shipped profile: rows +1/-1/0; scoop 6
(mandarin) or 9 (super_bonus), basic 3; royalties back SF 5, back quads 4, middle SF 10, middle
quads 8, middle full house 2, front trips 3, only when the row wins; foul 6 (9 super_bonus) plus
the opponent's royalties; naturals dragon 13, others 4; point value 5, full buy-in 20 x 5 = 100,
buy-in range 50-100.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.cards import DECK, Card
from rules.chinese_poker import (
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
from rules.chinese_poker_payments import buy_decision, clockwise_from, debts_of, pay_table_stakes
from rules.errors import IllegalAction
from rules.profiles.chinese_poker import ChinesePokerProfile
from rules.profiles.loader import ProfileLibrary
from tests.reference_rules import settle_chinese_poker

_loaded = ProfileLibrary().find("chinese-poker").profile
assert isinstance(_loaded, ChinesePokerProfile)
PROFILE: ChinesePokerProfile = _loaded
BASIC = ScoringTerms.of(PROFILE, "basic")
MANDARIN = ScoringTerms.of(PROFILE, "mandarin")
SUPER = ScoringTerms.of(PROFILE, "super_bonus")


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
    # SETTLE.md seat 3: back pair of kings under middle two pair.
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
    # SETTLE.md seat 2: back J-high flush below middle Q-high flush, so undeclared it is fouled.
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


def test_cp_10_natural_against_a_fouled_hand_collects_its_points() -> None:
    assert points(DRAGON, FOULED_SH, a_nat=True) == 13  # not the foul penalty 6
    assert points(FLUSHES, FOULED_SH, a_nat=True) == 4
    assert points(FOULED_SH, FLUSHES, b_nat=True) == -4


def test_cp_5_table_scores_every_pair_settle_example() -> None:
    table = score_table([
        seat(3, hand("5c 5d 4c", "7d 7s 8c 8s 2d", "Ac Kc Kd 9s Js")),
        seat(1, hand("Ah Ad 2s", "Kh Ks Qc Qs 9h", "Tc Td Ts 3c 3h")),
        seat(2, hand("2c 7c 9c", "3d 6d 8d Jd Qd", "4h 5h Jh Th 6h"), natural=True),
    ], MANDARIN)
    # 1 v 2: seat 2's three flushes 4 -> -4; 1 v 3: seat 3 fouled 6 + seat 1's royalties 0 -> 6;
    # 2 v 3: three flushes 4 -> 4. Seat 1: -4 + 6 = 2; seat 2: 4 + 4 = 8; seat 3: -6 - 4 = -10.
    assert [(p.seats, p.points) for p in table.pairs] == [((1, 2), -4), ((1, 3), 6), ((2, 3), 4)]
    assert table.points == {1: 2, 2: 8, 3: -10}


# --- CP-12, CP-13: money ----------------------------------------------------------------------


def test_c_5_clockwise_from_the_button() -> None:
    assert clockwise_from(2, [1, 2, 3]) == (3, 1, 2)
    assert clockwise_from(4, [4, 1, 3, 2]) == (1, 2, 3, 4)
    assert clockwise_from(1, [1, 3, 4]) == (3, 4, 1)


def test_cp_12_points_times_point_value() -> None:
    pairs = score_table([seat(1, A2), seat(2, B2)], MANDARIN).pairs
    assert debts_of(pairs, 5) == {(2, 1): 55}  # 11 points x 5


def test_cp_13_payer_pays_with_what_it_received_earlier_in_the_order() -> None:
    # Seat 1 (stack 20) owes seat 3 50; seat 2 owes seat 1 30.
    owed = {(1, 3): 50, (2, 1): 30}
    stacks = {1: 20, 2: 100, 3: 100}
    # Button 3: order 1, 2, 3. Seat 1 pays 20 (all it has); seat 2 pays seat 1 30 (allowance
    # 20 - (0 - 20) = 40). Nets: 1: 30 - 20 = 10; 2: -30; 3: 20.
    first = pay_table_stakes(stacks, owed, button=3)
    assert [(p.payer, p.receiver, p.amount) for p in first.payments] == [(1, 3, 20), (2, 1, 30)]
    assert first.nets == {1: 10, 2: -30, 3: 20}
    # Button 1: order 2, 3, 1. Seat 2 pays seat 1 only 20 (seat 1 can win its stack, 20);
    # seat 1 then holds 40 and pays seat 3 40 of 50. Nets: 1: 20 - 40 = -20; 2: -20; 3: 40.
    second = pay_table_stakes(stacks, owed, button=1)
    assert [(p.payer, p.receiver, p.amount) for p in second.payments] == [(2, 1, 20), (1, 3, 40)]
    assert second.nets == {1: -20, 2: -20, 3: 40}
    assert [(p.payer, p.receiver, p.owed, p.amount) for p in second.unpaid] == [(2, 1, 30, 20), (1, 3, 50, 40)]


def test_cp_13_short_payer_pays_receivers_in_order_from_the_button() -> None:
    # Seat 4 (stack 50) owes seats 1, 2 and 3 40 each.
    owed = {(4, 1): 40, (4, 2): 40, (4, 3): 40}
    stacks = {1: 500, 2: 500, 3: 500, 4: 50}

    def paid(button: int) -> list[tuple[int, int]]:
        return [(p.receiver, p.amount) for p in pay_table_stakes(stacks, owed, button).payments]

    assert paid(4) == [(1, 40), (2, 10)]  # order 1 2 3 4; seat 3 gets 0 (not listed)
    assert paid(2) == [(3, 40), (1, 10)]  # order 3 4 1 2
    assert paid(1) == [(2, 40), (3, 10)]  # order 2 3 4 1


def test_cp_13_receiver_wins_at_most_its_starting_stack() -> None:
    # Seat 1 (stack 25) is owed 40 by seats 2 and 3.
    owed = {(2, 1): 40, (3, 1): 40}
    stacks = {1: 25, 2: 500, 3: 500}
    result = pay_table_stakes(stacks, owed, button=3)  # order 1 2 3: seat 2 pays 25, seat 3 0
    assert [(p.payer, p.amount) for p in result.payments] == [(2, 25)]
    assert result.nets == {1: 25, 2: -25, 3: 0}
    assert "seat 1 can win only 0 more" in result.unpaid[1].reason
    result = pay_table_stakes(stacks, owed, button=2)  # order 3 1 2: seat 3 pays 25, seat 2 0
    assert [(p.payer, p.amount) for p in result.payments] == [(3, 25)]


def test_cp_13_house_fee_taken_first_and_counted_in_net() -> None:
    # Fee 5 each; seat 1 (stack 30) starts the hand with 25 and owes seat 2 40: pays 25.
    result = pay_table_stakes({1: 30, 2: 100}, {(1, 2): 40}, button=2, house_fee=5)
    assert [(p.payer, p.amount) for p in result.payments] == [(1, 25)]
    assert result.fees == {1: 5, 2: 5} and result.nets == {1: -30, 2: 20}  # 25 - 5
    assert sum(result.nets.values()) == -result.house_fees == -10


def test_c_5_cp_13_a_button_on_an_empty_seat_starts_the_payers_after_it() -> None:
    # Players on seats 1, 2 and 4; seat 4 owes seat 1 30 and seat 2 20, seat 1 owes seat 2 20;
    # seat 1 brought 10.
    owed = {(4, 1): 30, (4, 2): 20, (1, 2): 20}
    stacks = {1: 10, 2: 500, 4: 500}
    # Button on the empty seat 3: clockwise from 3 is 4, 1, 2 (C-5). Seat 4 pays seat 1
    # min(30, 500, allowance 10) = 10 and seat 2 20; seat 1 (10 + 10 = 20 chips) pays seat 2 20.
    # Nets: 1: 10 - 20 = -10; 2: 20 + 20 = 40; 4: -30.
    empty = pay_table_stakes(stacks, owed, button=3)
    assert empty.order == (4, 1, 2)
    assert [(p.payer, p.receiver, p.amount) for p in empty.payments] == [(4, 1, 10), (4, 2, 20), (1, 2, 20)]
    assert empty.nets == {1: -10, 2: 40, 4: -30}
    # Not the same as the button on the next player's seat 4: order 1, 2, 4. Seat 1 pays seat 2
    # only its 10; seat 4 pays seat 1 min(30, 500, 10 - (0 - 10) = 20) = 20 and seat 2 20.
    # Nets: 1: 20 - 10 = 10; 2: 10 + 20 = 30; 4: -40.
    assert pay_table_stakes(stacks, owed, button=4).nets == {1: 10, 2: 30, 4: -40}
    # Past the last player's seat the order wraps to the lowest seat: button 9 -> 1, 2, 4.
    assert pay_table_stakes(stacks, owed, button=9).order == (1, 2, 4)
    with pytest.raises(IllegalAction, match="seat numbered from 1, not 0"):
        pay_table_stakes(stacks, owed, button=0)


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
    return h, natural_of(h) is not None and rng.random() < 0.8


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
    owed = debts_of(table.pairs, value)
    money = pay_table_stakes(stacks, owed, button, fee)
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
    for p in money.payments:
        assert 0 < p.amount <= p.owed == owed[(p.payer, p.receiver)]


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
