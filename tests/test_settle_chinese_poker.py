"""`dealer-tui settle` for Chinese Poker (docs/settle.md "chinese-poker"): the contract's keys and
amounts, table stakes on the nets through the command, one `BadInput(field, problem)` per bad
request, and the command line end to end.

Amounts are worked out by hand from docs/rules.md CP-5..CP-13 (revision 2) and the shipped profile
(mandarin: scoop 6, foul 6; naturals 4, dragon 13; point value 5; no house fee).
"""

from __future__ import annotations

import copy
import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.cards import DECK
from rules.errors import BadInput
from rules.profiles.loader import ProfileLibrary, shipped_dir
from rules.settle import settle_round
from tests.reference_rules import settle_chinese_poker

LIBRARY = ProfileLibrary()

EXAMPLE: dict[str, Any] = {
    "game": "chinese-poker", "scoring": "mandarin", "point_value": 5, "button": 2,
    "players": [
        {"seat": 1, "stack": 500, "front": "Ah Ad 2s", "middle": "Kh Ks Qc Qs 9h",
         "back": "Tc Td Ts 3c 3h"},
        {"seat": 2, "stack": 500, "front": "2c 7c 9c", "middle": "3d 6d 8d Jd Qd",
         "back": "4h 5h Jh Th 6h", "natural": True},
        {"seat": 3, "stack": 500, "front": "5c 5d 4c", "middle": "7d 7s 8c 8s 2d",
         "back": "Ac Kc Kd 9s Js"},
    ],
}

# Four hands from one deck: three declared six pairs and one ordinary hand (itself six pairs,
# not declared, so played as set: back A-A-K-K-Q, middle J-J-T-T-Q, front 9-9-8).
SIX_LOW = {"front": "2s 2h 3s", "middle": "3h 4s 4h 5s 5h", "back": "6s 6h 7s 7h 8s", "natural": True}
SIX_HIGH = {"front": "9s 9h Ts", "middle": "Th Js Jh Qs Qh", "back": "Ks Kh As Ah 8h", "natural": True}
SIX_DC = {"front": "2d 2c 3d", "middle": "3c 4d 4c 5d 5c", "back": "6d 6c 7d 7c 8d", "natural": True}
PLAIN = {"front": "8c 9d 9c", "middle": "Td Tc Jd Jc Qd", "back": "Qc Kd Kc Ad Ac"}


def table(button: int, *players: tuple[int, int, dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"game": "chinese-poker", "point_value": 5, "button": button,
            "players": [{"seat": s, "stack": stack, **rows} for s, stack, rows in players], **extra}


def contract(result: dict[str, Any]) -> dict[str, Any]:
    """Only the contract's keys (extra output keys are allowed by docs/settle.md)."""
    keys = ("seat", "fouled", "natural", "rows", "royalties", "points", "net")
    return {
        "game": result["game"],
        "players": [{k: p[k] for k in keys} for p in result["players"]],
        "pairs": [{"seats": p["seats"], "points": p["points"]} for p in result["pairs"]],
        "payments": result["payments"],
    }


def payments(result: dict[str, Any]) -> list[tuple[int, int, int]]:
    return [(p["from"], p["to"], p["amount"]) for p in result["payments"]]


def test_settle_md_chinese_poker_example() -> None:
    # Seat 1: legal (pair A < two pair K-Q <= full house T-3); no royalty (back full house pays none).
    # Seat 2: declares three flushes (clubs, diamonds, hearts; its J-high back is below its Q-high
    #   middle, which a declared natural does not check).
    # Seat 3: back pair of kings below middle two pair 8-7: fouled.
    # Pairs: 1 v 2 = -4 (natural); 1 v 3 = +6 (foul 6 + seat 1's royalties 0); 2 v 3 = +10 (the
    #   fouled hand pays the natural foul 6 + 4, CP-8). Points: 1: -4 + 6 = 2; 2: 4 + 10 = 14;
    #   3: -6 - 10 = -16.
    # Dues at 5 a point: +10, +70, -80; every stack 500 covers them (M = 80). Clockwise from the
    #   button (2): 3, 1, 2: the one loser, seat 3, pays seat 1 its 10, then seat 2 its 70.
    result = settle_round(EXAMPLE, LIBRARY)
    assert contract(result) == {
        "game": "chinese-poker",
        "players": [
            {"seat": 1, "fouled": False, "natural": None,
             "rows": {"front": "one pair", "middle": "two pair", "back": "full house"},
             "royalties": {"front": 0, "middle": 0, "back": 0}, "points": 2, "net": 10},
            {"seat": 2, "fouled": False, "natural": "three flushes",
             "rows": {"front": "high card", "middle": "flush", "back": "flush"},
             "royalties": {"front": 0, "middle": 0, "back": 0}, "points": 14, "net": 70},
            {"seat": 3, "fouled": True, "natural": None,
             "rows": {"front": "one pair", "middle": "two pair", "back": "one pair"},
             "royalties": {"front": 0, "middle": 0, "back": 0}, "points": -16, "net": -80},
        ],
        "pairs": [{"seats": [1, 2], "points": -4}, {"seats": [1, 3], "points": 6},
                  {"seats": [2, 3], "points": 10}],
        "payments": [{"from": 3, "to": 1, "amount": 10}, {"from": 3, "to": 2, "amount": 70}],
    }
    assert result["pairs"][1]["reason"] == "seat 1 v seat 3: seat 3 fouled, pays foul 6 + seat 1's royalties 0 = 6"
    assert result["players"][2]["foul"].startswith("back one pair")
    assert result["pairs"][2]["reason"] == (
        "seat 2 v seat 3: seat 3 fouled, pays foul 6 + seat 2's three flushes 4 = 10")
    assert result["unpaid"] == []


def test_cp_9_a_declared_natural_is_judged_on_the_13_cards_in_any_rows() -> None:
    # Seat 2's 13 cards of the example in rows that mix the suits: still three flushes (clubs
    # 2 7 9, diamonds 3 6 8 J Q, hearts 4 5 6 T J split 3/5/5), so the example's money stands.
    req = _with("players.1.front", "2c 3d 4h")
    req["players"][1].update(middle="7c 9c 6d 5h Jh", back="8d Jd Qd Th 6h")
    result = settle_round(req, LIBRARY)
    seat2 = result["players"][1]
    assert (seat2["natural"], seat2["fouled"]) == ("three flushes", False)
    assert seat2["rows"] == {"front": "high card", "middle": "high card", "back": "high card"}
    assert [p["points"] for p in result["players"]] == [2, 14, -16]
    assert payments(result) == [(3, 1, 10), (3, 2, 70)]
    # Not declared, the same rows are played as set (CP-9): high card 4, J, Q, in order.
    del req["players"][1]["natural"]
    played = settle_round(req, LIBRARY)["players"][1]
    assert (played["natural"], played["fouled"]) == (None, False)


def test_cp_10_super_bonus_fouled_hand_pays_the_natural_9_plus_4() -> None:
    # super_bonus: 1 v 2 -4; 1 v 3 +9 (foul 9); 2 v 3 +13 (foul 9 + three flushes 4).
    # Points 5, 17, -22 -> dues 25, 85, -110; seat 3 pays 25 to seat 1, then 85 to seat 2.
    result = settle_round({**EXAMPLE, "scoring": "super_bonus"}, LIBRARY)
    assert [p["points"] for p in result["pairs"]] == [-4, 9, 13]
    assert payments(result) == [(3, 1, 25), (3, 2, 85)]


def test_cp_6_scoring_and_point_value_default_to_the_profile() -> None:
    req = copy.deepcopy(EXAMPLE)
    del req["scoring"], req["point_value"]
    assert contract(settle_round(req, LIBRARY)) == contract(settle_round(EXAMPLE, LIBRARY))


def test_cp_7_royalties_are_reported_and_paid_only_for_ordinary_hands() -> None:
    # Seat 1: front trips A 3, middle quads K 8, back straight flush 5. Seat 2: front pair Q,
    # middle two pair J-T, back flush: seat 1 scoops 6 + 16 = 22, 110 chips.
    req = table(2, (1, 500, {"front": "Ac Ad Ah", "middle": "Kc Kd Kh Ks 2c", "back": "3d 4d 5d 6d 7d"}),
                (2, 500, {"front": "Qh Qd 2d", "middle": "Jh Jd Th Td 2h", "back": "3s 5s 8s 9s Js"}))
    result = settle_round(req, LIBRARY)
    assert result["players"][0]["royalties"] == {"front": 3, "middle": 8, "back": 5}
    assert [p["points"] for p in result["players"]] == [22, -22]
    assert payments(result) == [(2, 1, 110)]
    basic = settle_round({**req, "scoring": "basic"}, LIBRARY)  # 3 rows, no royalties: 15 chips
    assert basic["players"][0]["royalties"] == {"front": 0, "middle": 0, "back": 0}
    assert payments(basic) == [(2, 1, 15)]
    fouled = copy.deepcopy(req)  # seat 1 swaps middle and back: out of order, royalties 0
    fouled["players"][0]["middle"], fouled["players"][0]["back"] = "3d 4d 5d 6d 7d", "Kc Kd Kh Ks 2c"
    out = settle_round(fouled, LIBRARY)
    assert out["players"][0]["fouled"] and out["players"][0]["royalties"] == {"front": 0, "middle": 0, "back": 0}
    assert payments(out) == [(1, 2, 30)]  # foul 6 x 5; seat 2 has no royalties


def test_cp_4_wrong_row_count_without_declaration_is_a_foul_not_bad_input() -> None:
    # Seat 3 sets 4/4/5 cards: fouled, both short rows unnamed; seats 1 and 2 collect 6 each.
    req = table(1, (1, 500, {"front": "Ah Ad 2s", "middle": "Kh Ks Qc Qs 9h", "back": "Tc Td Ts 3c 3h"}),
                (2, 500, {"front": "2c 7c 9c", "middle": "3d 6d 8d Jd Qd", "back": "4h 5h Jh Th 6h"}),
                (3, 500, {"front": "5c 5d 4c 4d", "middle": "7d 7s 8c 8s", "back": "Ac Kc Kd 9s Js"}))
    result = settle_round(req, LIBRARY)
    seat3 = result["players"][2]
    assert seat3["fouled"] and seat3["rows"] == {"front": None, "middle": None, "back": "one pair"}
    # Seat 2 did not declare: its J-high flush back is below its Q-high flush middle, fouled too.
    # 1 v 2: +6; 1 v 3: +6; 2 v 3: both fouled 0. Points 12, -6, -6.
    assert [p["points"] for p in result["pairs"]] == [6, 6, 0]
    assert [p["points"] for p in result["players"]] == [12, -6, -6]
    assert payments(result) == [(2, 1, 30), (3, 1, 30)]  # order 2, 3, 1


@pytest.mark.parametrize(("button", "expected"), [
    (4, [(4, 1, 20), (4, 2, 10)]),  # order 1 2 3 4: seat 3 gets nothing
    (1, [(4, 2, 20), (4, 3, 10)]),  # order 2 3 4 1: seat 1 gets nothing
    (2, [(4, 3, 20), (4, 1, 10)]),  # order 3 4 1 2: seat 2 gets nothing
])
def test_cp_13_four_players_the_button_decides_who_a_short_stack_pays(
    button: int, expected: list[tuple[int, int, int]]
) -> None:
    # Seats 1-3 declare six pairs (they push among themselves); seat 4 plays its hand as set and
    # owes each natural 4 points = 20 chips, 60 in all, with a stack of 30.
    req = table(button, (1, 500, SIX_LOW), (2, 500, SIX_HIGH), (3, 500, SIX_DC), (4, 30, PLAIN))
    result = settle_round(req, LIBRARY)
    assert [(p["seats"], p["points"]) for p in result["pairs"]] == [
        ([1, 2], 0), ([1, 3], 0), ([1, 4], 4), ([2, 3], 0), ([2, 4], 4), ([3, 4], 4)]
    assert [p["points"] for p in result["players"]] == [4, 4, 4, -12]
    assert payments(result) == expected
    nets = {p["seat"]: p["net"] for p in result["players"]}
    # Dues +20, +20, +20, -60: seat 4 pays min(60, 30) = 30 = M; the winners from the button
    # take 20, then 10, then 0. Seat 4's 30 unpaid and the short winners are listed in that order.
    assert nets[4] == -30 and sum(nets.values()) == 0
    order = {4: [1, 2, 3, 4], 1: [2, 3, 4, 1], 2: [3, 4, 1, 2]}[button]
    moved = {expected[0][1]: 20, expected[1][1]: 10, 4: 30}
    assert [(u["seat"], u["due"], u["moved"]) for u in result["unpaid"]] == [
        (s, -60 if s == 4 else 20, moved.get(s, 0)) for s in order if s != expected[0][1]]


def test_cp_13_three_players_payment_order_and_receiver_limit() -> None:
    # Seats 1 and 2 push (six pairs each); each collects 4 points = 20 from seat 4 (stack 30):
    # dues +20, +20, -40; seat 4 pays min(40, 30) = 30.
    both = ((1, 500, SIX_LOW), (2, 500, SIX_HIGH), (4, 30, PLAIN))
    assert payments(settle_round(table(2, *both), LIBRARY)) == [(4, 1, 20), (4, 2, 10)]  # order 4 1 2
    assert payments(settle_round(table(1, *both), LIBRARY)) == [(4, 2, 20), (4, 1, 10)]  # order 2 4 1
    # Seat 1 brought only 10: it claims 10, seat 2 20; M = min(30, 30) = 30. Nets +10, +20, -30.
    capped = settle_round(table(4, (1, 10, SIX_LOW), (2, 500, SIX_HIGH), (4, 30, PLAIN)), LIBRARY)
    assert payments(capped) == [(4, 1, 10), (4, 2, 20)]
    assert [p["net"] for p in capped["players"]] == [10, 20, -30]


def test_c_5_cp_13_a_button_on_an_empty_seat_is_accepted() -> None:
    # The docs/settle.md example with its third player on seat 4 instead of 3, seat 1 bringing 10 and
    # seat 4 50, and the button on the empty seat 3. Points as in the example: 2, 14, -16 ->
    # dues +10, +70, -80. Seat 4 pays min(80, 50) = 50; claims min(10, 10) + 70 = 80; M = 50.
    # Clockwise from seat 3 (C-5): 4, 1, 2: seat 1 receives its 10, seat 2 the other 40.
    req = copy.deepcopy(EXAMPLE)
    req["button"] = 3
    req["players"][0]["stack"] = 10
    req["players"][2].update(seat=4, stack=50)
    result = settle_round(req, LIBRARY)
    assert payments(result) == [(4, 1, 10), (4, 2, 40)]
    assert [(p["seat"], p["net"]) for p in result["players"]] == [(1, 10), (2, 40), (4, -50)]
    assert [(u["seat"], u["due"], u["moved"]) for u in result["unpaid"]] == [(4, -80, 50), (2, 70, 40)]
    # The button on seat 1 instead: order 2, 4, 1, and seat 2 takes all 50.
    assert payments(settle_round({**req, "button": 1}, LIBRARY)) == [(4, 2, 50)]
    # A button past every seat in play wraps: button 7 -> order 1, 2, 4, as from seat 3 here.
    assert payments(settle_round({**req, "button": 7}, LIBRARY)) == [(4, 1, 10), (4, 2, 40)]


def test_cp_10_dragon_collects_13_from_a_declared_six_pairs() -> None:
    dragon = {"front": "Ad Kc Qd", "middle": "Jc Td 9c 8d 7c", "back": "6c 5d 4c 3d 2d", "natural": True}
    result = settle_round(table(1, (1, 500, dragon), (2, 500, SIX_LOW)), LIBRARY)
    assert result["players"][0]["natural"] == "dragon" and result["players"][1]["natural"] == "six pairs"
    assert payments(result) == [(2, 1, 65)]  # 13 x 5


def test_cp_13_house_fee_from_a_profile_file(tmp_path: Path) -> None:
    text = (shipped_dir() / "chinese-poker.yaml").read_text(encoding="utf-8")
    path = tmp_path / "cp-fee.yaml"
    path.write_text(text.replace("house_fee: 0", "house_fee: 2"), encoding="utf-8")
    result = settle_round({**EXAMPLE, "profile": str(path)}, LIBRARY)
    # Fee 2 each before the payments (stacks 498 cover everything): nets 10 - 2, 70 - 2, -80 - 2.
    assert [p["net"] for p in result["players"]] == [8, 68, -82]
    assert [p["fee"] for p in result["players"]] == [2, 2, 2] and result["house"] == {"fee": 6}
    assert payments(result) == [(3, 1, 10), (3, 2, 70)]


def test_cp_7_royalty_needs_row_win_false_from_a_profile_file(tmp_path: Path) -> None:
    # Seat 1: front K-K-2, middle full house Q-Q-Q-9-9 (royalty 2), back four aces (4).
    # Seat 2: front J-T-3, middle four eights (8), back K-high straight flush (5).
    # Rows: front +1 (pair beats high card), middle -1, back -1: -1, no scoop.
    # royalty_needs_row_win true (shipped): royalties only on rows won: seat 2 collects 8 + 5;
    #   seat 1 wins only the front (no royalty): -1 - 13 = -14 points, 70 chips.
    # false: every royalty is collected: seat 1 gets 2 + 4 = 6, pays 8 + 5 = 13:
    #   -1 + 6 - 13 = -8 points, 40 chips.
    req = table(1, (1, 500, {"front": "Ks Kd 2c", "middle": "Qs Qd Qc 9c 9d", "back": "As Ah Ad Ac 3h"}),
                (2, 500, {"front": "Jd Td 3d", "middle": "8s 8h 8d 8c 2d", "back": "9h Th Jh Qh Kh"}))
    shipped = settle_round(req, LIBRARY)
    assert [p["points"] for p in shipped["pairs"]] == [-14] and payments(shipped) == [(1, 2, 70)]
    text = (shipped_dir() / "chinese-poker.yaml").read_text(encoding="utf-8")
    path = tmp_path / "any-row.yaml"
    path.write_text(text.replace("royalty_needs_row_win: true", "royalty_needs_row_win: false"), encoding="utf-8")
    result = settle_round({**req, "profile": str(path)}, LIBRARY)
    assert [p["royalties"] for p in result["players"]] == [
        {"front": 0, "middle": 2, "back": 4}, {"front": 0, "middle": 8, "back": 5}]
    assert [p["points"] for p in result["pairs"]] == [-8] and payments(result) == [(1, 2, 40)]
    assert [p["net"] for p in result["players"]] == [-40, 40]


def _with(path: str, value: Any) -> dict[str, Any]:
    req = copy.deepcopy(EXAMPLE)
    node: Any = req
    parts = path.split(".")
    for part in parts[:-1]:
        node = node[int(part)] if part.isdigit() else node[part]
    if value is _DELETE:
        del node[parts[-1]]
    else:
        node[parts[-1]] = value
    return req


_DELETE = object()
SEATS_1_TO_5 = [{**EXAMPLE["players"][0], "seat": s} for s in range(1, 6)]

BAD: list[tuple[dict[str, Any], str]] = [
    (_with("players.1.front", "Ah 7c 9c"), "players[1].front: duplicate card Ah (also in players[0].front)"),
    (_with("players.0.middle", "Kh Kh Qc Qs 9h"), "players[0].middle: duplicate card Kh"),
    (_with("players.0.middle", "Kh Ks Qc Qs 1h"), "players[0].middle: bad card '1h'"),
    (_with("scoring", "asian"), "scoring: must be one of 'basic', 'mandarin' or 'super_bonus'"),
    (_with("players.0.natural", True),
     ("players[0].natural: seat 1 declares a natural, but the cards hold no dragon, six pairs, "
      "three flushes or three straights (CP-9)")),
    (_with("players.1.front", "2c 7c 9c 6c"),
     "players[1].natural: seat 2 declares a natural on rows of 4/5/5 cards; rows must be 3/5/5 (CP-9)"),
    (_with("players", EXAMPLE["players"][:1]), "players: needs 2 to 4 players, got 1"),
    (_with("players", SEATS_1_TO_5), "players: needs 2 to 4 players, got 5"),
    (_with("players.2.seat", 1), "players[2].seat: seat 1 has two players"),
    (_with("players.0.stack", -1), "players[0].stack: must be zero or more"),
    (_with("players.0.stack", 10.5), "players[0].stack: must be a whole number"),
    (_with("point_value", "5"), "point_value: must be a whole number"),
    (_with("point_value", 0), "point_value: must be a positive integer"),
    (_with("players.0.seat", 0), "players[0].seat: must be at least 1"),
    (_with("players.0.natural", "yes"), "players[0].natural: must be true or false"),
    (_with("players.0.cards", "Ah"), "players[0].cards: is not a known field"),
    (_with("rake", 1), "rake: is not a known field"),
    (_with("players.0.back", _DELETE), "players[0].back: is required"),
    (_with("button", _DELETE), "button: is required"),
    (_with("button", 0), "button: must be at least 1"),
    (_with("profile", "one-or-five"), "profile: profile 'one-or-five' is for one-or-five, not chinese-poker"),
]


@pytest.mark.parametrize(("req", "message"), BAD, ids=[m.split(":")[0] + f"-{i}" for i, (_, m) in enumerate(BAD)])
def test_bad_input_is_one_bad_input_naming_the_field(req: dict[str, Any], message: str) -> None:
    with pytest.raises(BadInput) as err:
        settle_round(req, LIBRARY)
    assert str(err.value).startswith(message), str(err.value)
    assert str(err.value).split(":")[0] == err.value.field


def test_cli_settles_the_example_and_refuses_bad_input(tmp_path: Path) -> None:
    exe = shutil.which("dealer-tui")
    assert exe is not None
    bad = _with("players.1.front", "Ah 7c 9c")
    done = subprocess.run([exe, "settle"], input=json.dumps(bad), capture_output=True, text=True,
                          check=False, timeout=60)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "error: players[1].front: duplicate card Ah (also in players[0].front)\n"
    lines = tmp_path / "rounds.jsonl"
    lines.write_text(json.dumps(EXAMPLE) + "\n" + json.dumps(bad) + "\n", encoding="utf-8")
    done = subprocess.run([exe, "settle", "--jsonl", str(lines)], capture_output=True, text=True,
                          check=False, timeout=60)
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 1 and done.stderr == ""
    assert contract(out[0]) == contract(settle_round(EXAMPLE, LIBRARY))
    assert out[1] == {"line": 2, "error": "players[1].front: duplicate card Ah (also in players[0].front)"}


def _random_round(rng: random.Random) -> dict[str, Any]:
    deck = list(DECK)
    rng.shuffle(deck)
    seats = sorted(rng.sample(range(1, 5), rng.randint(2, 4)))
    players = []
    for i, seat in enumerate(seats):
        cards = deck[13 * i : 13 * i + 13]
        if rng.random() < 0.6:
            cards = sorted(cards, key=lambda c: (c.rank, c.suit))
        text = [c.text for c in cards]
        players.append({"seat": seat, "stack": rng.choice([0, 15, 40, 100, 500]),
                        "front": " ".join(text[:3]), "middle": " ".join(text[3:8]),
                        "back": " ".join(text[8:])})
    return {"game": "chinese-poker", "scoring": rng.choice(["basic", "mandarin", "super_bonus"]),
            "point_value": rng.choice([1, 5, 20]), "button": rng.randint(1, 5), "players": players}


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32))
def test_c_2_settle_output_conserves_chips_and_pairs_sum_to_points(seed: int) -> None:
    """Pairs, fouls, royalties, payments and nets equal the reference reading of CP-3..CP-13
    (tests/reference_rules.py); then the output agrees with itself: pairs sum to each player's
    points and payments to each player's net, and the nets add up to zero (no fee, C-2)."""
    req = _random_round(random.Random(seed))
    result = settle_round(req, LIBRARY)
    ref = settle_chinese_poker(req)
    assert {tuple(p["seats"]): p["points"] for p in result["pairs"]} == ref["pairs"]
    assert [(p["from"], p["to"], p["amount"]) for p in result["payments"]] == ref["payments"]
    for p in result["players"]:
        hand = ref["hands"][p["seat"]]
        assert (p["fouled"], p["natural"]) == (hand["fouled"], hand["natural"])
        assert [p["royalties"][row] for row in ("front", "middle", "back")] == hand["royalties"]
        assert (p["points"], p["net"]) == (ref["points"][p["seat"]], ref["nets"][p["seat"]])
    assert sum(p["net"] for p in result["players"]) == -result["house"]["fee"] == 0
    by_seat = {p["seat"]: 0 for p in result["players"]}
    for pair in result["pairs"]:
        first, second = pair["seats"]
        assert first < second
        by_seat[first] += pair["points"]
        by_seat[second] -= pair["points"]
    assert by_seat == {p["seat"]: p["points"] for p in result["players"]}
    received = {s: 0 for s in by_seat}
    for pay in result["payments"]:
        assert pay["amount"] > 0
        received[pay["to"]] += pay["amount"]
        received[pay["from"]] -= pay["amount"]
    assert received == {p["seat"]: p["net"] for p in result["players"]}
