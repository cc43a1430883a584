"""HCF-14 (Revision 2): the per-round aggregate bonus cap, `round_bonus_cap`, everywhere a High
Card Flush round is settled: the rules' settlement, `settle` (full and brief), the simulator,
the posting and the rounds.

Every expected value is worked out by hand from docs/rules.md; the arithmetic is in the comments.

Hands used (none shares a card with another):
- DP_AK9  As Ks 9s 2h 3h 4d 5c: a 3-card flush A-K-9 (qualifies, HCF-7), no 3-card run.
- ROYAL   Ah Kh Qh Jh Th 3c 4s: 5-card flush, 5-card straight flush A-high.
- KINGS   Kd Qd Jd Td 9d 6c 7c: 5-card flush, 5-card straight flush K-high.
- QUEENS  Qc Jc Tc 9c 8c 2d 3d: 5-card flush, 5-card straight flush Q-high.
Each of the three, with Ante 10, Raise 20 (2x: a 5-card flush, HCF-6), Flush bet 5 and Straight
Flush bet 5, beats the DP: Ante +10, Raise +20 (HCF-9), Flush 5 x 10 = 50 (HCF-13), Straight
Flush 5 x 100 = 500 (HCF-12): 550 of bonus winnings, 580 in all.
With the DP on seat 4 of 7 the raised hands settle in the HCF-10 order 3, 2, 1, 7, 6, 5.
"""

from __future__ import annotations

import copy
import json
import sys
from io import StringIO
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_tui.cli import main
from dealer_tui.games.high_card_flush.round import HighCardFlushRound
from dealer_tui.games.high_card_flush.steps import Ante, Raise
from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.base import Phase
from dealer_tui.rounds.cards import ScriptedDeck
from dealer_tui.rounds.steps import ConfirmPayout, Deal, Reveal
from rules.cards import parse_cards
from rules.errors import BadInput
from rules.games.high_card_flush import simulate as hcf_sim
from rules.games.high_card_flush.profile import HighCardFlushProfile
from rules.games.high_card_flush.settle_brief import settle_brief
from rules.games.high_card_flush.settlement import (
    BankerHand,
    PlayerHand,
    PlayerResult,
    Settlement,
    Terms,
    settle,
)
from rules.profiles.loader import ProfileLibrary, shipped_dir
from rules.settle import settle_json, settle_round
from rules.simulate import Options
from rules.simulate.common import chunk_rng, deal
from tests.reference_rules import settle_high_card_flush as reference
from tests.settle_support import assert_same_line
from tests.simulate_support import _vector_and_scalar
from tests.staff_support import staffed_table
from tests.strategies import rounds

LIB = ProfileLibrary([])
DP_AK9 = "As Ks 9s 2h 3h 4d 5c"
ROYAL = "Ah Kh Qh Jh Th 3c 4s"
KINGS = "Kd Qd Jd Td 9d 6c 7c"
QUEENS = "Qc Jc Tc 9c 8c 2d 3d"
HOUSE = "Ac Qc 9c 6c 3c 2d 4d"  # casino dealer: a 5-card club flush (qualifies)
SEVEN_RUN = "As 2s 3s 4s 5s 6s 7s"  # 7-card flush and 7-card straight flush (A low)
SIX_RUN = "Kh Qh Jh Th 9h 8h Ad"  # 6-card flush and 6-card straight flush K-high


def _profile(name: str) -> HighCardFlushProfile:
    profile = LIB.find(name).profile
    assert isinstance(profile, HighCardFlushProfile)
    return profile


CARD_ROOM = _profile("high-card-flush")
CASINO = _profile("high-card-flush-casino")


def hand(
    seat: int, text: str | None, ante: int = 10, raised: int = 20, flush: int = 5, sf: int = 5
) -> PlayerHand:
    return PlayerHand(seat, ante, raised, flush, sf, parse_cards(text) if text else None)


def dp(stack: int = 10_000) -> BankerHand:
    return BankerHand(parse_cards(DP_AK9), 4, stack)


def bets(result: PlayerResult) -> tuple[int, int, int, int]:
    return (
        result.ante.result,
        result.raise_bet.result,
        result.flush.result,
        result.straight_flush.result,
    )


def by_seat(s: Settlement) -> dict[int, PlayerResult]:
    return {p.seat: p for p in s.players}


def conserved(s: Settlement) -> bool:
    return sum(p.net for p in s.players) + s.banker.net + s.house_rake == 0


# The rules' settlement ---------------------------------------------------------------------


def test_hcf_14_round_bonus_cap_cuts_later_hands() -> None:
    # Round cap 600; order 3, 1, 7 (HCF-10) whatever order the hands are given in.
    # Seat 3: 550 of bonus winnings <= 600, paid in full: net 580; 600 - 550 = 50 left.
    # Seat 1: 550 cut to 50: 500 off the Straight Flush (500 -> 0): net 10 + 20 + 50 = 80; 0 left.
    # Seat 7 (Flush bet only): 50 cut to 0: net 10 + 20 = 30.
    # The DP: -(580 + 80 + 30) = -690.
    players = [hand(1, KINGS), hand(7, QUEENS, sf=0), hand(3, ROYAL)]
    s = settle(CARD_ROOM, 7, dp(), players, Terms(round_bonus_cap=600))
    seats = by_seat(s)
    assert s.order == (3, 1, 7)
    assert bets(seats[3]) == (10, 20, 50, 500) and seats[3].net == 580
    assert bets(seats[1]) == (10, 20, 50, 0) and seats[1].net == 80
    assert bets(seats[7]) == (10, 20, 0, 0) and seats[7].net == 30
    assert s.banker.net == -690 and conserved(s)
    assert seats[1].straight_flush.reason.endswith(
        "5 × 100 = 500, cut by 500 to 0: the round's 600 bonus cap had 50 left (HCF-14)"
    )
    assert seats[7].flush.reason.endswith(
        "cut by 50 to 0: the round's 600 bonus cap had 0 left (HCF-14)"
    )
    assert "bonus cap" not in seats[3].straight_flush.reason + seats[3].flush.reason
    assert s.round_bonus_left == 0
    assert s.banker.reason.endswith("the round's 600 bonus cap paid 600, 0 left (HCF-14)")


def test_hcf_14_round_cap_straight_flush_cut_first() -> None:
    # Round cap 580: seat 3 takes 550, 30 left. Seat 1's 550 cut to 30: 520 to cut, the
    # Straight Flush first (500 -> 0, 500 cut), then the Flush (50 -> 30, 20 cut).
    # Seat 1 net 10 + 20 + 30 + 0 = 60; the DP -(580 + 60) = -640.
    s = settle(CARD_ROOM, 7, dp(), [hand(3, ROYAL), hand(1, KINGS)], Terms(round_bonus_cap=580))
    one = by_seat(s)[1]
    assert bets(one) == (10, 20, 30, 0) and one.net == 60
    assert "cut by 500 to 0: the round's 580 bonus cap had 30 left" in one.straight_flush.reason
    assert "cut by 20 to 30: the round's 580 bonus cap had 30 left" in one.flush.reason
    assert s.banker.net == -640 and conserved(s)


def test_hcf_14_round_cap_applies_after_the_per_hand_cap() -> None:
    # Per-hand cap 300, round cap 400.
    # Seat 3: 550 -> 300 by the hand's cap (250 off the Straight Flush: 500 -> 250); 300 <= 400
    # left, no round cut; 400 - 300 = 100 left. Net 10 + 20 + 50 + 250 = 330.
    # Seat 1: 550 -> 300 the same way (Straight Flush 250, Flush 50), then -> 100 by the round's
    # cap: 200 more off the Straight Flush (250 -> 50). Net 10 + 20 + 50 + 50 = 130.
    # The DP -(330 + 130) = -460.
    s = settle(
        CARD_ROOM,
        7,
        dp(),
        [hand(3, ROYAL), hand(1, KINGS)],
        Terms(bonus_cap=300, round_bonus_cap=400),
    )
    seats = by_seat(s)
    assert bets(seats[3]) == (10, 20, 50, 250) and seats[3].net == 330
    assert bets(seats[1]) == (10, 20, 50, 50) and seats[1].net == 130
    assert seats[1].straight_flush.reason.endswith(
        "cut by 250 to 250: the 300 bonus cap (HCF-14), "
        "cut by 200 to 50: the round's 400 bonus cap had 100 left (HCF-14)"
    )
    assert s.banker.net == -460 and s.round_bonus_left == 0 and conserved(s)


def test_hcf_14_round_cap_takes_amount_paid_after_hcf_16() -> None:
    # DP stack 300, round cap 1000. Seat 3 (40 in play <= 300: settled, HCF-16): 550 <= 1000, no
    # round cut; wins 580 > 300: 280 off the Straight Flush (500 -> 220). Its bonus bets are paid
    # 50 + 220 = 270, and that is what the round's cap gives up: 1000 - 270 = 730 left (not
    # 1000 - 550 = 450). Seat 1: the DP has 0 < 40 in play: dead (HCF-16), takes nothing.
    s = settle(
        CARD_ROOM, 7, dp(stack=300), [hand(3, ROYAL), hand(1, KINGS)], Terms(round_bonus_cap=1000)
    )
    seats = by_seat(s)
    assert bets(seats[3]) == (10, 20, 50, 220) and seats[3].net == 300
    assert seats[1].dead and bets(seats[1]) == (0, 0, 0, 0)
    assert s.round_bonus_left == 730 and s.banker.net == -300 and conserved(s)
    assert "the round's 1000 bonus cap paid 270, 730 left (HCF-14)" in s.banker.reason
    assert "bonus cap" not in seats[3].straight_flush.reason


def test_hcf_14_round_cap_cuts_before_hcf_16() -> None:
    # DP stack 200, round cap 400, seat 3 alone. The round's cap first: 550 -> 400, 150 off the
    # Straight Flush (500 -> 350). Then the DP's money: 10 + 20 + 50 + 350 = 430 > 200, 230 more
    # off the Straight Flush (350 -> 120). Paid 10 + 20 + 50 + 120 = 200, all the DP has; the
    # bonus bets were paid 50 + 120 = 170: 400 - 170 = 230 left of the cap.
    s = settle(CARD_ROOM, 7, dp(stack=200), [hand(3, ROYAL)], Terms(round_bonus_cap=400))
    three = s.players[0]
    assert bets(three) == (10, 20, 50, 120) and s.banker.net == -200
    assert three.straight_flush.reason.endswith(
        "cut by 150 to 350: the round's 400 bonus cap had 400 left (HCF-14), "
        "cut by 230 to 120: the DP had only 200 left (HCF-16)"
    )
    assert s.round_bonus_left == 230 and conserved(s)


def test_hcf_14_round_cap_losing_and_folded_hands_take_nothing() -> None:
    # Seat 2 folds (card room: its bonus bets are lost, HCF-11); seat 3 plays KINGS with no bonus
    # bets; seat 1 holds ROYAL. Round cap 500: only seat 1's bonus bets win: 550 -> 500, 50 off
    # the Straight Flush (500 -> 450). Net 10 + 20 + 50 + 450 = 530.
    players = [hand(2, None, raised=0), hand(3, KINGS, flush=0, sf=0), hand(1, ROYAL)]
    s = settle(CARD_ROOM, 7, dp(), players, Terms(round_bonus_cap=500))
    seats = by_seat(s)
    assert bets(seats[2]) == (-10, 0, -5, -5)
    assert bets(seats[3]) == (10, 20, 0, 0)
    assert bets(seats[1]) == (10, 20, 50, 450) and seats[1].net == 530
    assert s.round_bonus_left == 0 and conserved(s)


def test_hcf_14_round_cap_casino_profile_seat_order() -> None:
    # Casino (HCF-20), round cap 9000, the hands given seat 5 first; they take from the cap by
    # seat: 2, then 5.
    # Seat 2 folds the 7-card spade run with Flush 1 and Straight Flush 1 (a folded hand keeps
    # its bonus bets): Flush 1 x 300 (7 cards) + Straight Flush 1 x 8000 (7 cards) = 8300 <= 9000,
    # paid in full; 700 left. Net -5 + 300 + 8000 = 8295.
    # Seat 5 raises 30 (3x, a 6-card flush) on the K-high heart run: Ante +10, Raise +30 (6 cards
    # beat the dealer's 5); Straight Flush 10 x 1000 (6 cards) = 10,000 cut to 700 (9300 off).
    # Net 10 + 30 + 700 = 740. The house -(8295 + 740) = -9035.
    players = [hand(5, SIX_RUN, 10, 30, flush=0, sf=10), hand(2, SEVEN_RUN, 5, 0, flush=1, sf=1)]
    s = settle(CASINO, 7, BankerHand(parse_cards(HOUSE)), players, Terms(round_bonus_cap=9000))
    five, two = s.players  # as given
    assert (five.seat, two.seat) == (5, 2) and s.order == (2, 5)
    assert bets(two) == (-5, 0, 300, 8000) and two.net == 8295
    assert bets(five) == (10, 30, 0, 700) and five.net == 740
    assert (
        "cut by 9300 to 700: the round's 9000 bonus cap had 700 left (HCF-14)"
        in five.straight_flush.reason
    )
    assert s.banker.net == -9035 and s.round_bonus_left == 0 and conserved(s)


def test_hcf_14_round_cap_from_the_profile() -> None:
    # The profile's round cap is the settlement's default (Terms.of): 600 as in the first test,
    # seat 1 (after seat 3) gets 50 of its 550.
    capped = CARD_ROOM.model_copy(update={"round_bonus_cap": 600})
    s = settle(capped, 7, dp(), [hand(3, ROYAL), hand(1, KINGS)])
    assert bets(by_seat(s)[1]) == (10, 20, 50, 0)


# `settle` ------------------------------------------------------------------------------------


def player(seat: int, cards: str, ante: int = 10, raised: int = 20, **more: Any) -> dict[str, Any]:
    return {
        "seat": seat,
        "ante": ante,
        "raise": raised,
        "flush": 5,
        "straight_flush": 5,
        "cards": cards,
    } | more


def card_room(**changes: Any) -> dict[str, Any]:
    req: dict[str, Any] = {
        "game": "high-card-flush",
        "seats": 7,
        "banker": {"seat": 4, "stack": 10_000, "cards": DP_AK9},
        "players": [player(1, KINGS), player(3, ROYAL)],
    }
    return req | changes


def casino(**changes: Any) -> dict[str, Any]:
    req: dict[str, Any] = {
        "game": "high-card-flush",
        "profile": "high-card-flush-casino",
        "banker": {"cards": HOUSE},
        "players": [
            player(5, SIX_RUN, 10, 30, flush=0, straight_flush=10),
            player(2, SEVEN_RUN, 5, 0, flush=1, straight_flush=1),
        ],
    }
    return req | changes


@pytest.fixture(scope="module")
def capped_yaml(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped card-room profile with a round cap of 600."""
    text = (shipped_dir() / "high-card-flush.yaml").read_text(encoding="utf-8")
    assert "\nround_bonus_cap: null" in text
    path = tmp_path_factory.mktemp("profiles") / "hcf-round-capped.yaml"
    path.write_text(
        text.replace("\nround_bonus_cap: null", "\nround_bonus_cap: 600"), encoding="utf-8"
    )
    return path


def nets(out: dict[str, Any]) -> dict[int, int]:
    return {p["seat"]: p["net"] for p in out["players"]}


def test_hcf_14_settle_round_bonus_cap_override_absent_null_or_amount(capped_yaml: Path) -> None:
    # Absent: the profile's 600 -> seat 3 580, seat 1 80 (as in the first test); the DP -660.
    out = settle_round(card_room(profile=str(capped_yaml)), LIB)
    assert nets(out) == {1: 80, 3: 580} and out["banker"]["net"] == -660
    # null: no round cap -> 580 each.
    assert nets(settle_round(card_room(profile=str(capped_yaml), round_bonus_cap=None), LIB)) == {
        1: 580,
        3: 580,
    }
    # 1000: seat 3 takes 550, 450 left; seat 1's 550 -> 450 (100 off the Straight Flush:
    # 500 -> 400): net 10 + 20 + 50 + 400 = 480.
    out = settle_round(card_room(profile=str(capped_yaml), round_bonus_cap=1000), LIB)
    assert nets(out) == {1: 480, 3: 580}
    assert out["players"][0]["bets"] == {
        "ante": 10,
        "raise": 20,
        "flush": 50,
        "straight_flush": 400,
    }
    # The shipped profile has none: absent -> 580 each.
    assert nets(settle_round(card_room(), LIB)) == {1: 580, 3: 580}


def test_hcf_14_settle_round_bonus_cap_under_the_casino_profile() -> None:
    # As test_hcf_14_round_cap_casino_profile_seat_order: seat 2 8295, seat 5 740, house -9035.
    out = settle_round(casino(round_bonus_cap=9000), LIB)
    assert (
        nets(out) == {5: 740, 2: 8295} and out["banker"]["net"] == -9035 and out["order"] == [2, 5]
    )
    assert out["players"][0]["bets"] == {"ante": 10, "raise": 30, "flush": 0, "straight_flush": 700}
    # Without it: seat 5 10 + 30 + 10,000 = 10,040.
    assert nets(settle_round(casino(), LIB))[5] == 10_040
    assert nets(settle_round(casino(round_bonus_cap=None), LIB))[5] == 10_040


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (0, "round_bonus_cap: must be a positive integer"),
        (-5, "round_bonus_cap: must be a positive integer"),
        (2.5, "round_bonus_cap: must be a whole number"),
        ("600", "round_bonus_cap: must be a whole number"),
    ],
)
def test_hcf_14_settle_bad_round_bonus_cap_is_one_error(value: Any, message: str) -> None:
    for req in (card_room(round_bonus_cap=value), casino(round_bonus_cap=value)):
        with pytest.raises(BadInput) as info:
            settle_round(req, LIB)
        assert str(info.value).startswith(message)


def _run(
    argv: list[str], stdin: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", StringIO(stdin))
    try:
        status = main(argv)
    except SystemExit as exc:
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def test_hcf_14_settle_explain_names_the_round_cut(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Round cap 600: seat 1 (after seat 3) has 50 left: its Straight Flush 500 -> 0.
    status, out, err = _run(
        ["settle", "--explain"], json.dumps(card_room(round_bonus_cap=600)), capsys, monkeypatch
    )
    assert (status, err) == (0, "")
    one = json.loads(out)["players"][0]
    assert one["net"] == 80
    assert one["reasons"]["straight_flush"].endswith(
        "cut by 500 to 0: the round's 600 bonus cap had 50 left (HCF-14)"
    )
    status, out, _ = _run(
        ["settle", "--explain"], json.dumps(card_room(round_bonus_cap=0)), capsys, monkeypatch
    )
    assert status == 2 and out == ""


def test_hcf_14_settle_jsonl_fast_path_agrees_with_the_full_settler(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, capped_yaml: Path
) -> None:
    requests = [
        card_room(round_bonus_cap=600),
        card_room(round_bonus_cap=580),
        card_room(profile=str(capped_yaml)),
        card_room(round_bonus_cap=1000, banker={"seat": 4, "stack": 300, "cards": DP_AK9}),
        card_room(round_bonus_cap=400, bonus_cap=300),
        casino(round_bonus_cap=9000),
        casino(round_bonus_cap=1, bonus_cap=5000),
    ]
    for req in requests:
        assert settle_brief(copy.deepcopy(req), LIB) is not None  # the brief path settles it
        assert_same_line(req)
    lines = "\n".join(json.dumps(req) for req in requests) + "\n"
    status, fast, _ = _run(["settle", "--jsonl"], lines, capsys, monkeypatch)
    status_explained, full, _ = _run(["settle", "--jsonl", "--explain"], lines, capsys, monkeypatch)
    assert status == status_explained == 0
    for brief_line, full_line in zip(fast.splitlines(), full.splitlines(), strict=True):
        explained = json.loads(full_line)
        explained["banker"].pop("reason")
        for p in explained["players"]:
            p.pop("reasons")
        assert json.loads(brief_line) == explained
    first = json.loads(fast.splitlines()[0])
    assert nets(first) == {1: 80, 3: 580}  # as in the first test


def test_hcf_14_paytables_show_posts_the_round_cap(
    capsys: pytest.CaptureFixture[str], capped_yaml: Path
) -> None:
    status, out, _ = _run(["paytables", "show", str(capped_yaml)], "", capsys, pytest.MonkeyPatch())
    assert status == 0
    line = next(line for line in out.splitlines() if "Maximum bonus payout per round" in line)
    assert "600" in line
    status, out, _ = _run(
        ["paytables", "show", "high-card-flush"], "", capsys, pytest.MonkeyPatch()
    )
    line = next(line for line in out.splitlines() if "Maximum bonus payout per round" in line)
    assert "none" in line


# Random rounds -------------------------------------------------------------------------------


@st.composite
def capped_rounds(draw: st.DrawFn) -> dict[str, Any]:
    """Valid rounds of either profile, always with a round cap, sometimes a per-hand cap too."""
    req = draw(rounds())
    req["round_bonus_cap"] = draw(st.sampled_from([1, 10, 100, 500]) | st.integers(1, 20_000))
    return req


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(capped_rounds())
def test_c_2_hcf_14_chips_are_conserved_with_a_round_cap(req: dict[str, Any]) -> None:
    """C-2 with a round cap, and the cap holds: the bonus bets paid in the round add up to at
    most the cap, each hand's to at most the per-hand cap; the bets equal the reference reading."""
    out = settle_round(req, LIB)
    assert sum(p["net"] for p in out["players"]) + out["banker"]["net"] + out["house"]["rake"] == 0
    paid = [
        max(p["bets"]["flush"], 0) + max(p["bets"]["straight_flush"], 0) for p in out["players"]
    ]
    assert sum(paid) <= req["round_bonus_cap"]
    if req.get("bonus_cap") is not None:
        assert max(paid) <= req["bonus_cap"]
    ref = reference(req)
    for p in out["players"]:
        assert [p["bets"][k] for k in ("ante", "raise", "flush", "straight_flush")] == ref[
            "players"
        ][p["seat"]]["bets"]
    assert out["banker"]["net"] == (
        ref["banker_net"]
        if "stack" in req["banker"]
        else -sum(sum(r["bets"]) for r in ref["players"].values())
    )


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(capped_rounds())
def test_hcf_14_brief_and_full_settlers_agree_with_a_round_cap(req: dict[str, Any]) -> None:
    assert settle_brief(copy.deepcopy(req), LIB) is not None
    assert_same_line(req)
    line = settle_json(copy.deepcopy(req), LIB, explain=False)
    assert json.loads(line)["order"] == settle_round(req, LIB)["order"]


# The simulator -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("casino_profile", "round_cap", "bonus_cap"),
    [
        (False, 40, None),
        (False, 7, 60),
        (True, 40, None),
        (True, 500, 100),
    ],
)
def test_hcf_14_simulator_follows_the_round_cap(
    casino_profile: bool, round_cap: int, bonus_cap: int | None
) -> None:
    """Hand by hand, the vectorised settlement of a profile with a round cap equals the rules'
    settlement of that one-player round (tests/simulate_support.py `_vector_and_scalar`)."""
    base = CASINO if casino_profile else CARD_ROOM
    profile = base.model_copy(update={"round_bonus_cap": round_cap, "bonus_cap": bonus_cap})
    _vector_and_scalar(profile, 11, 1500, "never-fold", hcf_sim.Stakes(5, 5, 5))


def test_hcf_14_simulated_bonus_wins_never_pass_the_round_cap() -> None:
    # Casino, Straight Flush 5 on every hand: a 3-card run pays 5 x 7 = 35, longer ones more;
    # with a round cap of 40 no hand is paid above 40, and a 7-card Flush bet 5 x 300 = 1500
    # likewise. Losing bets stay -5.
    profile = CASINO.model_copy(update={"round_bonus_cap": 40})
    job = hcf_sim.make_job((profile,), "never-fold", Options(ante=5, bonus=5))
    cards = deal(chunk_rng(3, 0), 20_000, 14)
    mine, banker = hcf_sim.hand_keys(cards[:, :7]), hcf_sim.hand_keys(cards[:, 7:])
    raised = hcf_sim.STRATEGIES["never-fold"][1](mine[0]) * 5
    r = hcf_sim.settle_hands(profile, job.stakes, raised, mine, banker)
    won = np.maximum(r.flush, 0) + np.maximum(r.straight_flush, 0)
    assert int(won.max()) <= 40 and int(min(r.flush.min(), r.straight_flush.min())) == -5
    assert any("round bonus cap" in note for note in hcf_sim.notes(job))


# The round at the table ----------------------------------------------------------------------


def test_hcf_14_round_with_a_round_cap_pays_the_later_hand_what_is_left(
    tmp_path: Path, capped_yaml: Path
) -> None:
    # The DP on seat 1 of 7 (5000 chips, above the 1000 minimum bank): the hands settle 7, 6, ...
    # 3, 2 (HCF-10), so seat 3 before seat 2. Seat 2 holds ROYAL, seat 3 KINGS; both Ante 10 with
    # Flush 5 and Straight Flush 5, both raise 20. Round cap 600 (the profile's): seat 3 takes
    # 550, 50 left; seat 2's Straight Flush 500 -> 0. Seat 3 +580, seat 2 +80, the DP -660.
    loaded = ProfileLibrary([capped_yaml.parent]).find("hcf-round-capped")
    deck = ScriptedDeck([parse_cards(f"{ROYAL} {KINGS} {DP_AK9}")])  # seat 2, seat 3, the DP
    table = staffed_table(SqliteLedger(tmp_path / "ledger.sqlite"), "H1", loaded, deck, seats=7)
    for seat, (name, stack) in enumerate((("Ann", 5000), ("Bob", 1000), ("Cy", 1000)), start=1):
        table.seat_player(seat, name, stack)
    rnd = table.start_round()
    assert isinstance(rnd, HighCardFlushRound) and rnd.banker == 1
    for seat in (2, 3):
        table.act(Ante(seat=seat, amount=10, flush=5, straight_flush=5))
    table.act(Deal())
    table.act(Raise(seat=2, amount=20))
    table.act(Raise(seat=3, amount=20))
    table.act(Reveal())
    assert rnd.phase is Phase.PAYOUT
    outcome = rnd.outcome()
    assert outcome is not None
    rows = {(r.seat, r.bet): r for r in outcome.rows}
    assert rows[(2, "straight_flush")].result == 0
    assert rows[(2, "straight_flush")].reason.endswith(
        "the round's 600 bonus cap had 50 left (HCF-14)"
    )
    assert rows[(3, "straight_flush")].result == 500
    assert outcome.stack_changes == {2: 80, 3: 580, 1: -660}
    assert "capped" in outcome.flags
    table.act(ConfirmPayout())
    assert table.session.stacks() == {1: 5000 - 660, 2: 1000 + 80, 3: 1000 + 580}
