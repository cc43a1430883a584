"""`dealer-tui settle` for Poker "1 or 5" (docs/settle.md "one-or-five"): the contract's keys and
amounts, one `BadInput(field, problem)` per bad request, and the command line once.

Amounts are worked out by hand from docs/rules.md R-6..R-9 and the shipped profile (odds: ace-king 1,
one pair 1, two pair 2, straight 4, royal flush 100; exchange fee 1x Ante; Ante 5-500; 6 boxes).
"""

from __future__ import annotations

import copy
import json
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
from tests.reference_rules import ONE_OR_FIVE_ODDS, one_or_five_hand, parse, settle_one_or_five

LIBRARY = ProfileLibrary()

EXAMPLE: dict[str, Any] = {
    "game": "one-or-five",
    "dealer": {"cards": "Ah Kd 7c 5s 2h"},
    "boxes": [
        {"box": 1, "ante": 10, "action": "bet", "exchanged": 1, "insurance": 0,
         "cards": "Qs Qd 4c 4h 9s"},
        {"box": 2, "ante": 10, "action": "fold", "cards": "2c 3c 8d 9h Js"},
    ],
}


def request(*boxes: dict[str, Any], dealer: str = "Ah Kd 7c 5s 2h", **extra: Any) -> dict[str, Any]:
    return {"game": "one-or-five", "dealer": {"cards": dealer}, "boxes": list(boxes), **extra}


def box(cards: str, action: str = "bet", ante: int = 10, number: int = 1,
        **extra: Any) -> dict[str, Any]:
    return {"box": number, "ante": ante, "action": action, "cards": cards, **extra}


def contract(result: dict[str, Any]) -> dict[str, Any]:
    """Only the contract's keys (extra output keys are allowed by docs/settle.md)."""
    return {
        "game": result["game"],
        "dealer": {k: result["dealer"][k] for k in ("qualified", "hand", "net")},
        "boxes": [{k: b[k] for k in ("box", "hand", "bets", "net")} for b in result["boxes"]],
    }


def test_settle_md_one_or_five_example() -> None:
    # Box 1: two pair beats ace-king: Bet 2 x 20 = 40, Ante returned unpaid, fee -10 -> net 30.
    # Box 2: folded: Ante -10. Dealer: -(30 - 10) = -20.
    assert contract(settle_round(EXAMPLE, LIBRARY)) == {
        "game": "one-or-five",
        "dealer": {"qualified": True, "hand": "ace-king", "net": -20},
        "boxes": [
            {"box": 1, "hand": "two pair",
             "bets": {"ante": 0, "bet": 40, "exchange": -10, "insurance": 0}, "net": 30},
            {"box": 2, "hand": "high card",
             "bets": {"ante": -10, "bet": 0, "exchange": 0, "insurance": 0}, "net": -10},
        ],
    }


def test_settle_output_carries_cards_in_c_7_order_and_reasons() -> None:
    result = settle_round(EXAMPLE, LIBRARY)
    assert result["dealer"]["cards"] == ["Ah", "Kd", "7c", "5s", "2h"]
    assert result["boxes"][0]["cards"] == ["Qs", "Qd", "9s", "4h", "4c"]
    assert result["boxes"][0]["reasons"]["bet"] == (
        "Bet: two pair beats the dealer's ace-king — 20 × 2 = 40 (R-7, R-8)")


def test_r_7_one_pair_would_have_paid_the_ante_too() -> None:
    # docs/settle.md's note: one pair: Bet 20 x 1 = 20, Ante +10, fee -10 -> net 20; dealer -20
    result = settle_round(request(box("Js Jd 4c 3h 9s", exchanged=1)), LIBRARY)
    bets = contract(result)["boxes"][0]["bets"]
    assert bets == {"ante": 10, "bet": 20, "exchange": -10, "insurance": 0}
    assert (result["boxes"][0]["net"], result["dealer"]["net"]) == (20, -20)


def test_r_6_no_game_through_settle() -> None:
    # dealer ace-queen: no game; box king-high: Ante +25, Bet returned -> net 25
    result = settle_round(request(box("Kh 8d 6c 5h 3h", ante=25), dealer="Ah Qd Jc 4s 2c"), LIBRARY)
    assert contract(result)["dealer"] == {"qualified": False, "hand": "high card", "net": -25}
    assert result["boxes"][0]["bets"] == {"ante": 25, "bet": 0, "exchange": 0, "insurance": 0}


def test_r_7_identical_ranks_push_through_settle() -> None:
    result = settle_round(request(box("9s 9c 7d 5h 2c"), dealer="9h 9d 7c 5s 2h"), LIBRARY)
    assert result["boxes"][0]["bets"] == {"ante": 0, "bet": 0, "exchange": 0, "insurance": 0}
    assert result["dealer"]["net"] == 0


def test_r_9_insurance_both_ways_through_settle() -> None:
    straight = box("9s 8h 7d 6c 5h", insurance=40)  # the largest premium: half of 20 x 4
    no_game = settle_round(request(straight, dealer="Ah Qd Jc 4s 2c"), LIBRARY)
    # no game: Ante +10, Bet 0, insurance +40 -> net 50
    assert no_game["boxes"][0]["bets"] == {"ante": 10, "bet": 0, "exchange": 0, "insurance": 40}
    assert no_game["boxes"][0]["net"] == 50 and no_game["dealer"]["net"] == -50
    game = settle_round(request(straight), LIBRARY)
    # ace-king: insurance -40; straight wins: Bet 20 x 4 = 80, Ante +10 -> net 50
    assert game["boxes"][0]["bets"] == {"ante": 10, "bet": 80, "exchange": 0, "insurance": -40}
    assert game["boxes"][0]["net"] == 50 and game["dealer"]["net"] == -50


def test_r_8_max_box_payout_from_a_profile_file(tmp_path: Path) -> None:
    text = (shipped_dir() / "one-or-five.yaml").read_text(encoding="utf-8")
    path = tmp_path / "capped.yaml"
    path.write_text(text.replace("max_box_payout: null", "max_box_payout: 1000"), encoding="utf-8")
    result = settle_round(request(box("As Ks Qs Js Ts"), profile=str(path)), LIBRARY)
    # royal flush: Bet 20 x 100 = 2000 + Ante 10 = 2010 > 1000: Bet cut by 1010 to 990
    assert result["boxes"][0]["bets"] == {"ante": 10, "bet": 990, "exchange": 0, "insurance": 0}
    assert result["dealer"]["net"] == -1000


def test_profile_by_name() -> None:
    assert settle_round({**EXAMPLE, "profile": "one-or-five"}, LIBRARY)["dealer"]["net"] == -20


STRAIGHT = "9s 8h 7d 6c 5h"


@pytest.mark.parametrize(("req", "message"), [
    (request(box("Qs Qd 4c 4h Ah")), "boxes[0].cards: duplicate card Ah (also in dealer.cards)"),
    (request(box("Qs Qd 4c 4h 9s"), box("9s 3d 4d 5d 6d", number=2)),
     "boxes[1].cards: duplicate card 9s (also in boxes[0].cards)"),
    (request(box("Qs Qd 4c 4h 4h")), "boxes[0].cards: duplicate card 4h"),
    (request(box("Qs Qd 4c 4h")), "boxes[0].cards: needs 5 cards, got 4"),
    (request(box("Qs Qd 4c 4h 9s"), dealer="Ah Kd 7c 5s 2h 3h"),
     "dealer.cards: needs 5 cards, got 6"),
    (request(box("Qs Qd 4c 4h 1x")),
     "boxes[0].cards: bad card '1x': unknown rank '1' (use 2-9, T or 10, J, Q, K, A)"),
    (request(box("Qs Qd 4c 4h 9s", exchanged=2)),
     "boxes[0].exchanged: 2 cards may not be exchanged (allowed: 1 or 5)"),
    (request(box("Qs Qd 4c 4h 9s", insurance=10)),
     "boxes[0].insurance: two pair cannot be insured (needs straight or better)"),
    (request(box(STRAIGHT, insurance=9)),
     "boxes[0].insurance: premium 9 is outside 10–40 (1× Ante to half of the Bet's straight win)"),
    (request(box(STRAIGHT, insurance=41)),
     "boxes[0].insurance: premium 41 is outside 10–40 (1× Ante to half of the Bet's straight win)"),
    (request(box(STRAIGHT, "fold", insurance=10)),
     "boxes[0].insurance: a folded box cannot be insured (only a closed box can)"),
    (request(box(STRAIGHT, insurance=-1)), "boxes[0].insurance: must be zero or more"),
    (request(box(STRAIGHT, ante=-10)), "boxes[0].ante: must be a positive integer"),
    (request(box(STRAIGHT, ante=10.0)), "boxes[0].ante: must be a whole number"),
    (request(box(STRAIGHT, ante="10")), "boxes[0].ante: must be a whole number"),
    (request(box(STRAIGHT, ante=True)), "boxes[0].ante: must be a whole number"),
    (request(box(STRAIGHT, ante=4)), "boxes[0].ante: must be within the table limits 5–500"),
    (request(box(STRAIGHT, ante=501)), "boxes[0].ante: must be within the table limits 5–500"),
    (request({"box": 1, "action": "bet", "cards": STRAIGHT}), "boxes[0].ante: is required"),
    (request({"box": 1, "ante": 10, "cards": STRAIGHT}), "boxes[0].action: is required"),
    (request(box(STRAIGHT, "pass")), "boxes[0].action: must be one of 'bet' or 'fold'"),
    (request(box(STRAIGHT, raise_=20)), "boxes[0].raise_: is not a known field"),
    (request(box(STRAIGHT), seats=7), "seats: is not a known field"),
    (request(box(STRAIGHT), box("Kh Kc 2c 3c 4c")), "boxes[1].box: box 1 is listed twice"),
    (request(box(STRAIGHT, number=7)), "boxes[0].box: the table has boxes 1 to 6"),
    (request(box(STRAIGHT, number=0)), "boxes[0].box: must be a positive integer"),
    (request(), "boxes: needs at least one box"),
    (request(box(STRAIGHT), profile="chinese-poker"),
     "profile: profile 'chinese-poker' is for chinese-poker, not one-or-five"),
    ({"game": "one-or-five", "boxes": [box(STRAIGHT)]}, "dealer: is required"),
])
def test_bad_input_is_one_bad_input_naming_the_field(req: dict[str, Any], message: str) -> None:
    with pytest.raises(BadInput) as err:
        settle_round(req, LIBRARY)
    assert str(err.value) == message


def test_unknown_profile_is_bad_input() -> None:
    with pytest.raises(BadInput) as err:
        settle_round(request(box(STRAIGHT), profile="nope"), LIBRARY)
    assert str(err.value).startswith("profile: unknown profile 'nope'")


def test_cli_settles_the_example_and_refuses_bad_input() -> None:
    exe = shutil.which("dealer-tui")
    assert exe is not None, "the dealer-tui console script is installed"
    done = subprocess.run([exe, "settle"], input=json.dumps(EXAMPLE), capture_output=True,
                          text=True, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    dealer = contract(json.loads(done.stdout))["dealer"]
    assert dealer == {"qualified": True, "hand": "ace-king", "net": -20}
    bad = copy.deepcopy(EXAMPLE)
    bad["boxes"][1]["cards"] = "2c 3c 8d 9h Qs"
    done = subprocess.run([exe, "settle"], input=json.dumps(bad), capture_output=True, text=True,
                          check=False)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "error: boxes[1].cards: duplicate card Qs (also in boxes[0].cards)\n"


@st.composite
def requests(draw: st.DrawFn) -> dict[str, Any]:
    deck = draw(st.permutations(DECK))
    boxes = []
    for i in range(draw(st.integers(1, 6))):
        text = " ".join(c.text for c in deck[5 + 5 * i: 10 + 5 * i])
        ante, action = draw(st.integers(5, 500)), draw(st.sampled_from(["bet", "fold"]))
        extra: dict[str, Any] = {"exchanged": draw(st.sampled_from([0, 1, 5]))}
        name = one_or_five_hand(parse(text))[1]
        if action == "bet" and name in ONE_OR_FIVE_ODDS and ONE_OR_FIVE_ODDS[name] >= 4:
            # a straight or better (odds 4 and up) may be insured for 1 Ante up to half the
            # Bet's win, 2 x Ante x odds / 2
            extra["insurance"] = draw(st.sampled_from([0, ante, ante * ONE_OR_FIVE_ODDS[name]]))
        boxes.append(box(text, action, ante, i + 1, **extra))
    return request(*boxes, dealer=" ".join(c.text for c in deck[:5]))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
def test_c_2_settle_output_conserves_chips(req: dict[str, Any]) -> None:
    """Every bet equals the reference reading of R-5..R-9 (tests/reference_rules.py); the dealer's
    net, counted from the dealer's side (stakes collected minus winnings paid), balances the boxes."""
    result = settle_round(req, LIBRARY)
    expected = settle_one_or_five(req)
    assert result["dealer"]["qualified"] == expected["qualified"]
    for out in result["boxes"]:
        assert [out["bets"][k] for k in ("ante", "bet", "exchange", "insurance")] == expected["boxes"][out["box"]]
        assert out["net"] == sum(expected["boxes"][out["box"]])
    results = [r for bets in expected["boxes"].values() for r in bets]
    collected, paid = sum(-r for r in results if r < 0), sum(r for r in results if r > 0)
    assert result["dealer"]["net"] == collected - paid
    assert sum(b["net"] for b in result["boxes"]) + result["dealer"]["net"] == 0
