"""`dealer-tui settle` for High Card Flush (docs/settle.md "high-card-flush"): the contract's keys,
every bad-input rule, the command line, and chip conservation over random rounds (C-2).

Expected values are worked out by hand from docs/rules.md; the arithmetic is in the comments.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

from rules.errors import BadInput
from rules.profiles.loader import ProfileLibrary, shipped_dir
from rules.settle import settle_round
from tests.reference_rules import settle_high_card_flush
from tests.settle_support import DP_AK9, EXAMPLE_IN, LOSER, ROYAL, player
from tests.strategies import rounds

LIB = ProfileLibrary([])
EXAMPLE_OUT: dict[str, Any] = {
    "game": "high-card-flush",
    "banker": {"seat": 4, "qualified": True, "flush": ["As", "Ks", "9s"], "straight_flush": [], "rake": 0,
               "net": -570},
    "players": [
        {"seat": 1, "dead": False, "flush": ["Ah", "Kh", "Qh", "Jh", "Th"],
         "straight_flush": ["Ah", "Kh", "Qh", "Jh", "Th"],
         "bets": {"ante": 10, "raise": 20, "flush": 50, "straight_flush": 500}, "rake": 0, "net": 580},
        {"seat": 2, "dead": False, "flush": [], "straight_flush": [],
         "bets": {"ante": -10, "raise": 0, "flush": 0, "straight_flush": 0}, "rake": 0, "net": -10},
    ],
    "order": [2, 1],
    "house": {"rake": 0},
}
BANKER_KEYS = ("seat", "qualified", "flush", "straight_flush", "rake", "net")
PLAYER_KEYS = ("seat", "dead", "flush", "straight_flush", "bets", "rake", "net")


def contract(out: dict[str, Any]) -> dict[str, Any]:
    """Only the keys docs/settle.md fixes (extra keys are allowed)."""
    return {
        "game": out["game"],
        "banker": {k: out["banker"][k] for k in BANKER_KEYS},
        "players": [{k: p[k] for k in PLAYER_KEYS} for p in out["players"]],
        "order": out["order"],
        "house": out["house"],
    }


def request(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = json.loads(json.dumps(EXAMPLE_IN))
    return base | changes


def bad(req: dict[str, Any]) -> str:
    with pytest.raises(BadInput) as info:
        settle_round(req, LIB)
    return str(info.value)


# The contract -----------------------------------------------------------------------------


def test_settle_md_example_round_worked_out_by_hand() -> None:
    # Seat 1's 5-card royal beats the DP's 3-card A-K-9 (HCF-9): Ante 10, Raise 20 (2x, allowed
    # with 5 cards, HCF-6); Flush bet 5 x 10 = 50 (5-card line, HCF-13); Straight Flush bet
    # 5 x 100 = 500 (the DP has no 3-card run, HCF-12): net 10 + 20 + 50 + 500 = 580.
    # Seat 2 folded: -10. The DP collects 10 first, pays 580: net 10 - 580 = -570. The DP had
    # 1000 + 10 = 1010 available; seat 1 had 40 in play (HCF-16: not dead, not capped).
    # Seat 1's 580 and the banker's -570 agree with docs/settle.md: -570 = -(580 - 10).
    out = settle_round(request(), LIB)
    assert contract(out) == EXAMPLE_OUT
    assert out["players"][0]["reasons"]["straight_flush"].endswith("5 × 100 = 500")


def test_hcf_10_order_folded_first_then_raised_from_the_right_of_the_button() -> None:
    # Banker on seat 4 of 7: 3, 2, 1, 7, 6, 5. Folded: 6, 2 -> 2, 6. Raised: 7, 3, 5 -> 3, 7, 5.
    cards = iter(["2c 6c 7c 9d Td 6s 8h", LOSER, ROYAL])
    players = [
        player(6), player(7, 10, 10, next(cards)), player(2), player(3, 10, 10, next(cards)),
        player(5, 10, 10, next(cards)),
    ]
    out = settle_round(request(players=players), LIB)
    assert out["order"] == [2, 6, 3, 7, 5]
    assert [p["seat"] for p in out["players"]] == [6, 7, 2, 3, 5]  # as given


def test_hcf_20_casino_round_through_settle() -> None:
    # House A-K-9 qualifies. Seat 2 folded with a Flush bet of 5 on a 5-card flush: Ante -10,
    # Flush 5 x 10 = 50 (casino line) -> 40. Seat 1 loses Q-T-8: -10, -10. House: -(40 - 20) = -20.
    players = [player(2, 10, 0, "8d 7d 6d Td Jd Kc 2c", flush=5), player(1, 10, 10, "Qc Tc 8c 2d 5d 7h 9h")]
    out = settle_round({"game": "high-card-flush", "profile": "high-card-flush-casino",
                        "banker": {"cards": DP_AK9}, "players": players}, LIB)
    assert [p["net"] for p in out["players"]] == [40, -20]
    assert out["players"][0]["bets"] == {"ante": -10, "raise": 0, "flush": 50, "straight_flush": 0}
    assert out["banker"]["net"] == -20 and out["banker"]["seat"] is None and out["house"] == {"rake": 0}
    assert out["order"] == [1, 2]


def test_hcf_17_rake_override_in_the_request() -> None:
    # Players mode, 5 a hand: seat 1 580 - 5 = 575, seat 2 -10 - 5 = -15; the DP -570, rake 0;
    # house 10. 575 - 15 - 570 + 10 = 0.
    out = settle_round(request(rake={"mode": "players", "amount": 5}), LIB)
    assert [p["net"] for p in out["players"]] == [575, -15]
    assert (out["banker"]["net"], out["banker"]["rake"], out["house"]["rake"]) == (-570, 0, 10)


def test_hcf_14_bonus_cap_override_absent_null_or_amount(tmp_path: Path) -> None:
    text = (shipped_dir() / "high-card-flush.yaml").read_text(encoding="utf-8")
    path = tmp_path / "capped.yaml"
    path.write_text(text.replace("\nbonus_cap: null", "\nbonus_cap: 100"), encoding="utf-8")
    # Profile cap 100: bonus 50 + 500 = 550, cut 450 from the SF: 50 -> net 10 + 20 + 50 + 50.
    out = settle_round(request(profile=str(path)), LIB)
    assert out["players"][0]["bets"]["straight_flush"] == 50 and out["players"][0]["net"] == 130
    # null: no cap for this round -> 580.
    assert settle_round(request(profile=str(path), bonus_cap=None), LIB)["players"][0]["net"] == 580
    # 60: cut 490: SF 500 -> 10 -> net 10 + 20 + 50 + 10 = 90.
    assert settle_round(request(profile=str(path), bonus_cap=60), LIB)["players"][0]["net"] == 90


def test_hcf_14_hcf_20_casino_bonus_cap_in_the_request() -> None:
    # Casino. Seat 2 folds J-T-8-7-6 of diamonds (a 5-card flush) holding the run 8-7-6 (3 cards):
    # Flush 5 x 10 = 50, Straight Flush 5 x 7 = 35: 85 of bonus winnings. Cap 60: 25 off the
    # Straight Flush: 35 - 25 = 10. Net -10 + 50 + 10 = 50; the house -50.
    players = [player(2, 10, 0, "8d 7d 6d Td Jd Kc 2c", flush=5, straight_flush=5)]
    out = settle_round({"game": "high-card-flush", "profile": "high-card-flush-casino", "bonus_cap": 60,
                        "banker": {"cards": DP_AK9}, "players": players}, LIB)
    assert out["players"][0]["bets"] == {"ante": -10, "raise": 0, "flush": 50, "straight_flush": 10}
    assert out["players"][0]["net"] == 50 and out["banker"]["net"] == -50


def test_cards_omitted_for_a_folded_hand_give_empty_lists() -> None:
    out = settle_round(request(players=[player(2)]), LIB)
    assert out["players"][0]["flush"] == [] and out["players"][0]["straight_flush"] == []
    assert out["banker"]["net"] == 10


def test_c_1_card_text_variants_are_accepted() -> None:
    players = [player(1, 10, 20, "AH kh qH jh 10h 3♣ 4s", flush=5, straight_flush=5), player(2)]
    assert contract(settle_round(request(players=players), LIB)) == EXAMPLE_OUT


# Bad input: one BadInput(field, problem) each ----------------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"players": [player(1, 10, 20, "Ah Kh Qh Jh Xh 3c 4s")]}, "players[0].cards: bad card 'Xh'"),
        ({"players": [player(1, 10, 20, "Ah Kh Qh Jh Th 3c As")]},
         "players[0].cards: duplicate card As (also in banker.cards)"),
        ({"players": [player(2), player(1, 10, 20, ROYAL.replace("4s", "Ah"))]}, "players[1].cards: duplicate card Ah"),
        ({"players": [player(2, cards="2c 6c 7c 9d Td 6s"), player(1, 10, 20, ROYAL)]},
         "players[0].cards: needs 7 cards, got 6"),
        ({"players": [player(2, cards="2c 6c 7c 9d Td 6s 8h Tc"), player(1, 10, 20, ROYAL)]},
         "players[0].cards: needs 7 cards, got 8"),
        ({"players": [player(1, 10, 10)]}, "players[0].cards: is required"),
        ({"banker": {"seat": 4, "stack": 1000}}, "banker.cards: is required"),
        ({"players": [player(1, 10, 5, ROYAL)]}, "players[0].raise: Seat 1 must raise at least 10"),
        ({"players": [player(1, 10, 25, ROYAL)]},
         "players[0].raise: Seat 1 may raise at most 20 (2× the ante) with a 5-card flush"),
        ({"players": [player(1, 10, 11, LOSER)]}, "players[0].raise: Seat 1 may raise at most 10 (1× the ante)"),
        ({"players": [player(1, -10, 0)]}, "players[0].ante: must be a positive integer"),
        ({"players": [player(1, 0, 0)]}, "players[0].ante: must be a positive integer"),
        ({"players": [player(1, 10, -5)]}, "players[0].raise: must be zero or more"),
        ({"players": [player(1, 10, 0, flush=2.5)]}, "players[0].flush: must be a whole number"),
        ({"players": [player(1, 10, 0, straight_flush="5")]}, "players[0].straight_flush: must be a whole number"),
        ({"players": [player(1, 10, 0, flush=True)]}, "players[0].flush: must be a whole number"),
        ({"players": [{"seat": 1, "raise": 0}]}, "players[0].ante: is required"),
        ({"players": [{"seat": 1, "ante": 10}]}, "players[0].raise: is required"),
        ({"banker": {"seat": 4, "stack": -1, "cards": DP_AK9}}, "banker.stack: must be zero or more"),
        ({"tip": 5}, "tip: is not a known field"),
        ({"players": [player(1, 10, 0, bet=5)]}, "players[0].bet: is not a known field"),
        ({"profile": "no-such-table"}, "profile: unknown profile 'no-such-table'"),
        ({"profile": "one-or-five"}, "profile: profile 'one-or-five' is for one-or-five"),
        ({"players": [player(s) for s in (1, 2, 3, 5, 6, 7)] + [player(1)]}, "players: at most 6 players"),
        ({"players": []}, "players: needs at least one player"),
        ({"players": [player(2), player(2)]}, "players[1].seat: seat 2 is already players[0]'s"),
        ({"players": [player(8)]}, "players[0].seat: must be a seat from 1 to 7"),
        ({"players": [player(0)]}, "players[0].seat: must be a seat from 1 to 7"),
        ({"seats": 5, "players": [player(6)]}, "players[0].seat: must be a seat from 1 to 5"),
        ({"players": [player(4)]}, "players[0].seat: seat 4 is the banker's"),
        ({"seats": 8}, "seats: must be at most 7"),
        ({"banker": {"seat": 9, "stack": 1000, "cards": DP_AK9}}, "banker.seat: must be a seat from 1 to 7"),
        ({"banker": {"stack": 1000, "cards": DP_AK9}}, "banker.seat: is required"),
        ({"banker": {"seat": 4, "cards": DP_AK9}}, "banker.stack: is required"),
        ({"banker": None}, "banker: must be a mapping of names to values"),
        ({"players": [player(1, 501, 0)]}, "players[0].ante: 501 is outside the table's limits 5 to 500"),
        ({"players": [player(1, 4, 0)]}, "players[0].ante: 4 is outside the table's limits 5 to 500"),
        ({"players": [player(1, 10, 0, flush=101)]}, "players[0].flush: 101 is outside the table's limits 1 to 100"),
        ({"players": [player(1, 10, 0, straight_flush=500)]}, "players[0].straight_flush: 500 is outside"),
        ({"bonus_cap": 0}, "bonus_cap: must be a positive integer"),
        ({"round_bonus_cap": 0}, "round_bonus_cap: must be a positive integer"),
        ({"rake": {"mode": "everyone", "amount": 5}}, "rake.mode: must be one of"),
        ({"rake": {"mode": "all"}}, "rake.amount: is required"),
    ],
)
def test_bad_input_names_the_field(change: dict[str, Any], message: str) -> None:
    assert bad(request(**change)).startswith(message)


def test_missing_banker_is_bad_input() -> None:
    req = request()
    del req["banker"]
    assert bad(req) == "banker: is required"


@pytest.mark.parametrize(
    ("banker", "extra", "message"),
    [
        ({"cards": DP_AK9}, {"rake": {"mode": "all", "amount": 0}}, "rake: a house-banked table takes no rake"),
        ({"seat": 4, "cards": DP_AK9}, {}, "banker.seat: the house banks under this profile"),
        ({"stack": 100, "cards": DP_AK9}, {}, "banker.stack: the house banks under this profile"),
        ({}, {}, "banker.cards: is required"),
    ],
)
def test_hcf_20_casino_bad_input(banker: dict[str, Any], extra: dict[str, Any], message: str) -> None:
    req = {"game": "high-card-flush", "profile": "high-card-flush-casino", "banker": banker,
           "players": [player(1, 10, 10, LOSER)], **extra}
    assert bad(req).startswith(message)


def test_hcf_20_casino_folded_hand_with_bonus_bets_needs_its_cards() -> None:
    req = {"game": "high-card-flush", "profile": "high-card-flush-casino", "banker": {"cards": DP_AK9},
           "players": [player(1, 10, 0, flush=5)]}
    assert bad(req).startswith("players[0].cards: is required")
    # without bonus bets the folded hand's cards do not matter
    req["players"] = [player(1, 10, 0)]
    assert settle_round(req, LIB)["players"][0]["net"] == -10


# The command line -------------------------------------------------------------------------


def _cli(stdin: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["dealer-tui", "settle", *args], input=stdin, capture_output=True, text=True,
                          timeout=60, check=False)


def test_cli_bad_input_exits_2_with_one_error_line() -> None:
    req = request(players=[player(1, 10, 20, "Ah Kh Qh Jh Th 3c As")])
    done = _cli(json.dumps(req))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "error: players[0].cards: duplicate card As (also in banker.cards)\n"


def test_cli_jsonl_settles_good_lines_and_reports_bad_ones() -> None:
    lines = [json.dumps(request()), json.dumps(request(players=[player(1, 10, 25, ROYAL)]))]
    done = _cli("\n".join(lines) + "\n", "--jsonl")
    assert done.returncode == 1
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert contract(first) == EXAMPLE_OUT
    assert second["line"] == 2 and second["error"].startswith("players[0].raise: Seat 1 may raise at most 20")


# Random rounds: C-2 and HCF-15 ------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(rounds())
def test_c_2_every_settlement_conserves_chips(req: dict[str, Any]) -> None:
    """Every bet, rake, dead hand and the order equal the reference reading of HCF-8..HCF-20
    (tests/reference_rules.py). The banker's net is checked from the banker's side: the house
    (casino) collects every lost stake and pays every win; the DP ends with what the reference
    tracked through HCF-15/16 less its rake. Then the nets and the rake add up to zero."""
    out = settle_round(req, LIB)
    ref = settle_high_card_flush(req)
    players = out["players"]
    for p in players:
        expected = ref["players"][p["seat"]]
        assert [p["bets"][k] for k in ("ante", "raise", "flush", "straight_flush")] == expected["bets"]
        assert (p["dead"], p["rake"]) == (expected["dead"], expected["rake"])
        assert p["net"] == sum(expected["bets"]) - expected["rake"]
    results = [r for expected in ref["players"].values() for r in expected["bets"]]
    if "stack" not in req["banker"]:
        collected, paid = sum(-r for r in results if r < 0), sum(r for r in results if r > 0)
        assert out["banker"]["net"] == collected - paid and out["house"]["rake"] == 0
    else:
        assert out["banker"]["net"] == ref["banker_net"]
        assert (out["banker"]["rake"], out["house"]["rake"]) == (ref["banker_rake"], ref["house_rake"])
    assert out["order"] == ref["order"]
    assert sum(p["net"] for p in players) + out["banker"]["net"] + out["house"]["rake"] == 0


@settings(max_examples=150, deadline=None)
@given(rounds())
def test_hcf_15_no_one_is_paid_more_than_the_dp_money(req: dict[str, Any]) -> None:
    out = settle_round(req, LIB)
    if "stack" not in req["banker"]:
        assert not any(p["dead"] for p in out["players"]) and out["house"]["rake"] == 0
        return
    stack = req["banker"]["stack"]
    by_seat = {p["seat"]: p for p in out["players"]}
    wagers = {p["seat"]: p["ante"] + p["raise"] + p.get("flush", 0) + p.get("straight_flush", 0)
              for p in req["players"]}
    available = stack
    for seat in out["order"]:  # replay HCF-15/16 in settlement order
        result = by_seat[seat]
        paid = sum(result["bets"].values())
        if result["dead"]:
            assert paid == 0 and result["rake"] == 0 and available < wagers[seat]
            continue
        assert paid <= available
        available -= paid
    assert 0 <= out["banker"]["rake"] <= available
    assert out["banker"]["net"] == available - stack - out["banker"]["rake"]
