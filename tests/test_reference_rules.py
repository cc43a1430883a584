"""The reference reading in `tests/reference_rules.py` checked against values worked out by hand
from docs/rules.md and docs/settle.md, so that the project is compared with something known to be right.

These tests use no project code.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.reference_rules import (
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    ONE_PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TWO_PAIR,
    cp_natural,
    cp_pay,
    flush_of,
    hcf_qualifies,
    one_or_five_hand,
    palace_battle,
    palace_showdown,
    parse,
    poker_key,
    run_cards,
    run_of,
    settle_chinese_poker,
    settle_high_card_flush,
    settle_one_or_five,
    show,
)


@pytest.mark.parametrize(("better", "worse"), [
    ("5h 4d 3c 2s Ah", "Ks Kh 8d 7c 2d"),      # C-4: the wheel (a straight) beats a pair
    ("6h 5d 4c 3s 2h", "5s 4h 3d 2c Ac"),      # C-4: the wheel is the lowest straight
    ("Ks Kh Kd 2c 2s", "As Ks Qs Js 9s"),      # full house over flush
    ("As Ad 3c", "Ks Kd Qc Jh Th"),            # C-6: three cards compare with five
    ("As Ad Kc Qh 2d", "Ah Ac Kd Qs"),         # C-6: all four matched by the longer hand
    ("Ah Ad Kc", "As Ac Qd Jh Th"),            # pair of aces, king kicker beats queen
])
def test_c_4_c_6_reference_ranks_hands(better: str, worse: str) -> None:
    assert poker_key(parse(better)) > poker_key(parse(worse))


def test_c_4_reference_best_five_of_seven_and_categories() -> None:
    assert poker_key(parse("Qs Js Ts 9s 8s 2h 2d"))[0] == STRAIGHT_FLUSH
    assert poker_key(parse("Qs Qh Qd 9s 9h 9d 2c"))[0] == FULL_HOUSE
    assert poker_key(parse("As 2s 3h 4d 5c"))[0] == STRAIGHT  # A-2-3-4-5
    assert poker_key(parse("Qs Ks As 2h 3d"))[0] == HIGH_CARD  # no wrap-around
    assert poker_key(parse("As 3s 8s Ts Ks"))[0] == FLUSH
    assert poker_key(parse("8s 8h 4d 4c"))[0] == TWO_PAIR
    assert poker_key(parse("8s"))[0] == HIGH_CARD and poker_key(parse("8s 8h"))[0] == ONE_PAIR
    # Ties by ranks, never suits.
    assert poker_key(parse("Ah Kh 9c 5d 2s")) == poker_key(parse("As Kd 9h 5c 2c"))


def test_hcf_1_2_7_12_reference_reads_hands() -> None:
    # HCF-2: 3-3-1 with hearts A-7-2 and spades K-Q-J plays hearts A-7-2.
    assert flush_of(parse("Ah 7h 2h Ks Qs Js 3d")) == (3, [12, 5, 0], 1)
    assert hcf_qualifies((3, [7, 1, 0], 0)) and not hcf_qualifies((3, [6, 5, 4], 0))  # 9-3-2, 8-7-6
    # HCF-12: A-2-3 plays low (top card 3); Q-K-A high; ace-low 7-card run from the 7 down.
    assert show(run_cards(run_of(parse("Ah 2h 3h 9s Td 4c 7c")))) == ["3h", "2h", "Ah"]
    assert show(run_cards(run_of(parse("Qd Kd Ad 2d 5s 6s 9c")))) == ["Ad", "Kd", "Qd"]
    assert run_of(parse("As 2s 3s 4s 5s 6s 7s"))[:2] == (7, 5)
    assert run_cards(run_of(parse("As Ks 3h 4h 7d 8d Tc"))) == []


def test_settle_md_high_card_flush_example_by_the_reference() -> None:
    # docs/settle.md: seat 1 +10 +20 +50 +500 = 580, seat 2 -10, the banker -570, order [2, 1].
    out = settle_high_card_flush({
        "game": "high-card-flush", "seats": 7,
        "banker": {"seat": 4, "stack": 1000, "cards": "As Ks 9s 2h 3h 4d 5c"},
        "players": [{"seat": 1, "ante": 10, "raise": 20, "flush": 5, "straight_flush": 5,
                     "cards": "Ah Kh Qh Jh Th 3c 4s"}, {"seat": 2, "ante": 10, "raise": 0}]})
    assert out["players"][1]["bets"] == [10, 20, 50, 500]
    assert out["players"][1]["flush"] == ["Ah", "Kh", "Qh", "Jh", "Th"]
    assert out["players"][2]["bets"] == [-10, 0, 0, 0]
    assert (out["banker_net"], out["order"], out["house_rake"]) == (-570, [2, 1], 0)


def test_hcf_16_and_hcf_20_by_the_reference() -> None:
    # The DP holds 40 with folded seat 1's 5: 45. Seat 3 (royal, raise 20) wins 30: 15 left.
    # Seat 2 has 20 in play > 15: dead. Rake 2 (all): seat 1 -7, seat 3 +28, DP 15 - 40 - 2.
    out = settle_high_card_flush({
        "game": "high-card-flush", "seats": 7, "rake": {"mode": "all", "amount": 2},
        "banker": {"seat": 4, "stack": 40, "cards": "As Ks 9s 2h 3h 4d 5c"},
        "players": [{"seat": 1, "ante": 5, "raise": 0},
                    {"seat": 2, "ante": 10, "raise": 10, "cards": "2c 6c 7c 9d Td 6s 8h"},
                    {"seat": 3, "ante": 10, "raise": 20, "cards": "Ah Kh Qh Jh Th 3c 4s"}]})
    assert out["players"][2]["dead"] and out["players"][2]["bets"] == [0, 0, 0, 0]
    assert out["players"][3]["bets"] == [10, 20, 0, 0]
    assert (out["banker_net"], out["house_rake"], out["order"]) == (-27, 6, [1, 3, 2])
    # Casino: a folded 7-card A-7 spade run pays 1 x 8000 and 1 x 300 on its own hand.
    casino = settle_high_card_flush({
        "game": "high-card-flush", "profile": "high-card-flush-casino", "banker": {},
        "players": [{"seat": 1, "ante": 5, "raise": 0, "flush": 1, "straight_flush": 1,
                     "cards": "As 2s 3s 4s 5s 6s 7s"}]})
    assert casino["players"][1]["bets"] == [-5, 0, 300, 8000] and casino["banker_net"] == -8295


def test_settle_md_one_or_five_example_by_the_reference() -> None:
    # docs/settle.md: box 1 two pair beats ace-king: Bet 2 x 20 = 40, Ante returned, fee -10.
    out = settle_one_or_five({"dealer": {"cards": "Ah Kd 7c 5s 2h"}, "boxes": [
        {"box": 1, "ante": 10, "action": "bet", "exchanged": 1, "cards": "Qs Qd 4c 4h 9s"},
        {"box": 2, "ante": 10, "action": "fold", "cards": "2c 3c 8d 9h Js"}]})
    assert out == {"qualified": True, "boxes": {1: [0, 40, -10, 0], 2: [-10, 0, 0, 0]}}
    assert one_or_five_hand(parse("Ah Kd 7c 5s 2h"))[1] == "ace-king"
    assert one_or_five_hand(parse("Ah Kh Qh Jh Th"))[1] == "royal flush"
    # R-8 cap 25 on a flush win (Bet 20 x 5 = 100, Ante 10): 85 off the Bet: 15 + 10 = 25.
    capped = settle_one_or_five({"dealer": {"cards": "Ah Ad 7c 5s 2h"}, "boxes": [
        {"box": 1, "ante": 10, "action": "bet", "cards": "9s 8s 4s 6s Ks"}]}, cap=25)
    assert capped["boxes"][1] == [10, 15, 0, 0]


def test_settle_md_chinese_poker_example_by_the_reference() -> None:
    request: dict[str, Any] = {"game": "chinese-poker", "scoring": "mandarin", "point_value": 5,
                               "button": 2, "players": [
        {"seat": 1, "stack": 500, "front": "Ah Ad 2s", "middle": "Kh Ks Qc Qs 9h",
         "back": "Tc Td Ts 3c 3h"},
        {"seat": 2, "stack": 500, "front": "2c 7c 9c", "middle": "3d 6d 8d Jd Qd",
         "back": "4h 5h Jh Th 6h", "natural": True},
        {"seat": 3, "stack": 500, "front": "5c 5d 4c", "middle": "7d 7s 8c 8s 2d",
         "back": "Ac Kc Kd 9s Js"}]}
    out = settle_chinese_poker(request)
    # 2 v 3: the fouled seat 3 pays the three flushes foul 6 + 4 = 10 (CP-8). Points: 1: -4 + 6 = 2;
    # 2: 4 + 10 = 14; 3: -6 - 10 = -16. Order from the button (2): 3, 1, 2; seat 3 pays 16 x 5 = 80
    # to seat 1 (10) and then seat 2 (70).
    assert out["pairs"] == {(1, 2): -4, (1, 3): 6, (2, 3): 10}
    assert out["payments"] == [(3, 1, 10), (3, 2, 70)]
    assert out["nets"] == {1: 10, 2: 70, 3: -80}
    assert out["hands"][2]["natural"] == "three flushes" and out["hands"][3]["fouled"]


def test_cp_7_cp_9_cp_13_by_the_reference() -> None:
    # Seat 1: front trips A (3), middle quads K (8), back straight flush (5); seat 2 loses every
    # row: scoop 6 + 16 = 22 points, 110 chips.
    req: dict[str, Any] = {"button": 2, "players": [
        {"seat": 1, "stack": 500, "front": "Ac Ad Ah", "middle": "Kc Kd Kh Ks 2c",
         "back": "3d 4d 5d 6d 7d"},
        {"seat": 2, "stack": 500, "front": "Qh Qd 2d", "middle": "Jh Jd Th Td 2h",
         "back": "3s 5s 8s 9s Js"}]}
    assert settle_chinese_poker(req)["pairs"] == {(1, 2): 22}
    assert cp_natural([parse("Ad 2d 3c"), parse("4h 5h 6d 7c 8s"), parse("9d Td Jc Qc Kd")]) == "dragon"
    assert cp_natural([parse("As Ah 9c"), parse("Ad Ac Ks Kh Qs"),
                       parse("Qh Js Jh Ts Th")]) == "six pairs"  # four aces count as two pairs
    assert cp_natural([parse("Qd Kd Ac"), parse("2h 3h 4d 5c 6s"),
                       parse("2d 3s 4c 5s 6d")]) == "three straights"  # Q-K-A counts (CP-9)
    # CP-9 (revision 2): the 13 cards count, not the rows they were given in.
    assert cp_natural([parse("2c 3d 4h"), parse("7c 9c 6d 5h Jh"),
                       parse("8d Jd Qd Th 6h")]) == "three flushes"  # c 2 7 9; d 3 6 8 J Q; h 4 5 6 T J
    assert cp_natural([parse("Qd 5s Ac"), parse("2h 3h 4d Kd 6s"),
                       parse("2d 3s 4c 5c 6d")]) == "three straights"  # Q-K-A; 2-6; 2-6
    assert cp_natural([parse("Qd 5s Ac"), parse("2h 3h 4d Kd 6s"),
                       parse("2d 3s 4c 5c 7d")]) is None  # 2-3-4-5-7 leaves no second run
    # CP-13, docs/rules.md's example: points 0 / +12 / -12 at 5 a point, seat 1 holding 10, the others
    # 500: seat 3 pays seat 2 12 x 5 = 60, seat 1 moves nothing, wherever the button is.
    for button in (1, 2, 3, 4):
        assert cp_pay({1: 10, 2: 500, 3: 500}, {1: 0, 2: 12, 3: -12}, 5, button) == (
            [(3, 2, 60)], {1: 0, 2: 60, 3: -60})


def test_settle_md_palace_examples_by_the_reference() -> None:
    attacker = {"seat": 1, "banner": "Ah", "palace": "Kd Qd 2c", "soldiers": "Ts 9s"}
    defender = {"seat": 3, "banner": "5c", "palace": "Jh Js 4d", "soldiers": ""}
    assert palace_battle(attacker, defender, False) == (1, 3, "won")
    # PP-10: identical hands and one own-suit card each: both out, or the last two split.
    a = {"seat": 1, "banner": "Ah", "palace": "Kd 7d 2d", "soldiers": ""}
    d = {"seat": 3, "banner": "As", "palace": "Kc 7c 2c", "soldiers": ""}
    assert palace_battle(a, d, False) == (None, None, "both out")
    assert palace_battle(a, d, True) == (None, None, "split")
    shares = palace_showdown(5, 125, [
        {"seat": 1, "banner": "Ah", "palace": "Kd 7c 2h", "soldiers": ""},
        {"seat": 2, "banner": "As", "palace": "Kc 7d 2s", "soldiers": ""},
        {"seat": 5, "banner": "2d", "palace": "3c 4c 5h", "soldiers": "9h"}])
    assert shares == {1: 63, 2: 62}


def test_reference_cp_9_a_low_ace_front_counts_in_three_straights() -> None:
    """The oracle itself: A-2-3 in front, 3-4-5-6-7 and 7-8-9-T-J is three straights (CP-9)."""
    from tests.reference_rules import cp_natural, parse

    rows = [parse("Js 7d 8s"), parse("6c 4d 2h 5d 3s"), parse("9h Th 3d 7s Ah")]
    assert cp_natural(rows) == "three straights"
