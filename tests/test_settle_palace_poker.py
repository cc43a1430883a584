"""`dealer-tui settle` for Palace Poker (docs/settle.md "palace-poker"): battles, showdowns, bad input.

Expected outputs are worked out by hand from docs/rules.md PP-9, PP-10, PP-16, PP-17 and C-6, C-7.
"""

from __future__ import annotations

import copy
import io
import json
import sys
from typing import Any

import pytest

from dealer_tui.cli import main
from rules.errors import BadInput
from rules.profiles.loader import ProfileLibrary
from rules.settle import settle_round

LIBRARY = ProfileLibrary()

BATTLE: dict[str, Any] = {"game": "palace-poker", "battle": {
    "attacker": {"seat": 1, "banner": "Ah", "palace": "Kd Qd 2c", "soldiers": "Ts 9s"},
    "defender": {"seat": 3, "banner": "5c", "palace": "Jh Js 4d", "soldiers": ""},
    "last_two": False}}

SHOWDOWN: dict[str, Any] = {"game": "palace-poker", "showdown": {"dealer": 5, "pot": 125, "players": [
    {"seat": 1, "banner": "Ah", "palace": "Kd 7c 2h", "soldiers": ""},
    {"seat": 2, "banner": "As", "palace": "Kc 7d 2s", "soldiers": ""},
    {"seat": 5, "banner": "2d", "palace": "3c 4c 5h", "soldiers": "9h"}]}}


def settle(request: dict[str, Any]) -> dict[str, Any]:
    return settle_round(request, LIBRARY)


def battle(attacker: dict[str, Any], defender: dict[str, Any], last_two: bool = False) -> dict[str, Any]:
    return settle({"game": "palace-poker",
                   "battle": {"attacker": attacker, "defender": defender, "last_two": last_two}})


def side(seat: int, banner: str, palace: str, soldiers: str = "") -> dict[str, Any]:
    return {"seat": seat, "banner": banner, "palace": palace, "soldiers": soldiers}


def test_pp_9_settle_md_battle_example() -> None:
    # Attacker: Ah Kd Qd 2c Ts 9s, ignoring clubs (the defender's banner): Ah Kd Qd Ts 9s, ace high.
    # Defender: 5c Jh Js 4d, ignoring hearts: Js 5c 4d (3 cards, C-6), jack high. Ace high wins.
    # Own banner suit: hearts Ah = 1 for the attacker, clubs 5c = 1 for the defender.
    out = settle(BATTLE)
    assert out["winner"] == 1 and out["loser"] == 3 and "outcome" not in out
    assert out["attacker"].items() >= {"hand": "high card", "cards": ["Ah", "Kd", "Qd", "Ts", "9s"],
                                    "banner_suit_count": 1}.items()
    assert out["defender"].items() >= {"hand": "high card", "cards": ["Js", "5c", "4d"],
                                    "banner_suit_count": 1}.items()
    assert out["attacker"]["ignored"] == ["2c"] and out["defender"]["ignored"] == ["Jh"]


def test_pp_16_pp_17_settle_md_showdown_example() -> None:
    # Seat 1: Ah Kd 7c 2h and seat 2: As Kc 7d 2s are both A-K-7-2 high (4 cards, C-6): a tie.
    # Seat 5: 2d 3c 4c 5h 9h is 9-5-4-3-2 high, no straight. 125 / 2 = 62 remainder 1: the odd
    # chip goes to the first winner clockwise from the dealer on seat 5, i.e. seat 1 (after 5 come
    # 6..10 then 1). Shares 63 + 62 = 125.
    out = settle(SHOWDOWN)
    assert out["winners"] == [1, 2]
    assert out["shares"] == {"1": 63, "2": 62}
    assert out["players"] == [
        {"seat": 1, "hand": "high card", "cards": ["Ah", "Kd", "7c", "2h"]},
        {"seat": 2, "hand": "high card", "cards": ["As", "Kc", "7d", "2s"]},
        {"seat": 5, "hand": "high card", "cards": ["9h", "5h", "4c", "3c", "2d"]}]


def test_settle_md_examples_through_the_command_line(capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    lines = "\n".join(json.dumps(r) for r in (BATTLE, SHOWDOWN)) + "\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    assert main(["settle", "--jsonl"]) == 0
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert (first["winner"], second["shares"]) == (1, {"1": 63, "2": 62})


def test_pp_9_banner_suit_exclusion_decides_the_settled_battle() -> None:
    # With every card the attacker (Kc Kd) beats the defender (Qs Qd). Ignoring clubs the attacker
    # has Ah Kd 3s, ace high; ignoring hearts the defender has Qs Qd 5c, a pair: defender wins.
    out = battle(side(1, "Ah", "Kc Kd 3s", "7c 2c"), side(2, "5c", "Qs Qd 4h"))
    assert (out["winner"], out["loser"]) == (2, 1)
    assert out["attacker"]["cards"] == ["Ah", "Kd", "3s"]
    assert out["defender"].items() >= {"hand": "one pair", "cards": ["Qs", "Qd", "5c"]}.items()


def test_pp_10_settled_tie_won_on_banner_suit_count() -> None:
    # A-K-Q-J-9 high each; hearts Ah Kh 9h 2h = 4 against clubs Ac Qc = 2: the attacker wins.
    out = battle(side(1, "Ah", "Kh Qs Jd", "9h 2h"), side(2, "Ac", "Kd Qc Js", "9s"))
    assert (out["winner"], out["loser"], out["decided_by"]) == (1, 2, "banner suit count")
    assert (out["attacker"]["banner_suit_count"], out["defender"]["banner_suit_count"]) == (4, 2)


@pytest.mark.parametrize(("last_two", "outcome"), [(False, "both out"), (True, "split")])
def test_pp_10_settled_full_tie(last_two: bool, outcome: str) -> None:
    # A-K-Q-J-9 high each; hearts Ah Kh = 2, clubs Ac Qc = 2: still tied.
    out = battle(side(1, "Ah", "Kh Qs Jd", "9s"), side(2, "Ac", "Kd Qc Js", "9d"), last_two)
    assert (out["winner"], out["loser"], out["outcome"]) == (None, None, outcome)


def test_pp_16_showdown_single_winner_and_three_way_split() -> None:
    players = [side(1, "2h", "5h 9h Kh", "Jh"), side(2, "Ac", "Ad As 7c")]
    out = settle({"game": "palace-poker", "showdown": {"dealer": 2, "pot": 90, "players": players}})
    # A heart flush K-J-9-5-2 (no suit is ignored at the showdown) beats three aces.
    assert out["winners"] == [1] and out["shares"] == {"1": 90}
    three = [side(2, "Ah", "Kd 7c 2h"), side(6, "As", "Kc 7d 2s"), side(9, "Ad", "Kh 7s 2d")]
    out = settle({"game": "palace-poker", "showdown": {"dealer": 6, "pot": 125, "players": three}})
    # Three A-K-7-2 hands tie. 125 / 3 = 41 remainder 2; clockwise from the dealer on seat 6:
    # 9, 2, 6 -> seats 9 and 2 get 42, the dealer's seat 6 gets 41 (42 + 42 + 41 = 125).
    assert out["shares"] == {"2": 42, "6": 41, "9": 42}


def test_showdown_dealer_need_not_be_in_the_hand() -> None:
    request = copy.deepcopy(SHOWDOWN)
    request["showdown"]["players"].pop()  # the dealer on seat 5 is out; 1 and 2 tie as before
    request["showdown"]["dealer"] = 1
    # Clockwise from the dealer on seat 1: 2 first -> seat 2 gets the odd chip: 63 + 62.
    assert settle(request)["shares"] == {"1": 62, "2": 63}


def _with(base: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """`base` with the value at a dotted path (`battle.attacker.banner`, `...players.0.seat`)
    replaced; `...` deletes it."""
    request = copy.deepcopy(base)
    *parents, last = path.split(".")
    node: Any = request
    for part in parents:
        node = node[int(part)] if part.isdigit() else node[part]
    key: Any = int(last) if last.isdigit() else last
    if value is ...:
        del node[key]
    else:
        node[key] = value
    return request


BAD: list[tuple[dict[str, Any], str]] = [
    (_with(BATTLE, "battle.attacker.palace", "Kd Qd"), "battle.attacker.palace: needs 3 cards, got 2"),
    (_with(BATTLE, "battle.defender.palace", "Jh Js 4d 3d"),
     "battle.defender.palace: needs 3 cards, got 4"),
    (_with(BATTLE, "battle.attacker.soldiers", "2s 3s 4s 5s 6s 7s"),
     "battle.attacker.soldiers: at most 5 soldiers, got 6"),
    (_with(BATTLE, "battle.attacker.banner", ""), "battle.attacker.banner: must be exactly 1 card, got 0"),
    (_with(BATTLE, "battle.defender.banner", "5c 6c"),
     "battle.defender.banner: must be exactly 1 card, got 2"),
    (_with(BATTLE, "battle.defender.banner", "5h"),
     ("battle.defender.banner: same suit as the attacker's banner (hearts): a same-suit opponent "
      "cannot be attacked (PP-7)")),
    (_with(BATTLE, "battle.defender.soldiers", "Ts"),
     "battle.defender.soldiers: duplicate card Ts (also in battle.attacker.soldiers)"),
    (_with(BATTLE, "battle.attacker.palace", "Kd Kd 2c"), "battle.attacker.palace: duplicate card Kd"),
    (_with(BATTLE, "battle.defender.palace", "Jh Js 4x"),
     "battle.defender.palace: bad card '4x': unknown suit 'x' (use s, h, d, c or ♠ ♥ ♦ ♣)"),
    (_with(BATTLE, "battle.defender.palace", ["Jh", "Js", "4d"]), "battle.defender.palace: must be text"),
    (_with(BATTLE, "battle.defender.seat", 1), "battle.defender.seat: same seat as the attacker (1)"),
    (_with(BATTLE, "battle.defender.seat", 11), "battle.defender.seat: must be at most 10"),
    (_with(BATTLE, "battle.defender.seat", True), "battle.defender.seat: must be a whole number"),
    (_with(BATTLE, "battle.last_two", "no"), "battle.last_two: must be true or false"),
    (_with(BATTLE, "battle.last_two", ...), "battle.last_two: is required"),
    (_with(BATTLE, "battle.defender.soldiers", ...), "battle.defender.soldiers: is required"),
    (_with(BATTLE, "battle.attacker.hat", 1), "battle.attacker.hat: is not a known field"),
    (_with(BATTLE, "pot", 10), "pot: is not a known field"),
    (_with(BATTLE, "showdown", SHOWDOWN["showdown"]), "round: give either battle or showdown, not both"),
    ({"game": "palace-poker"}, "round: needs battle or showdown"),
    (_with(BATTLE, "battle", None), "battle: must be a mapping of names to values"),
    (_with(BATTLE, "profile", "one-or-five"),
     "profile: profile 'one-or-five' is for one-or-five, not palace-poker"),
    (_with(SHOWDOWN, "showdown.pot", -1), "showdown.pot: must be zero or more"),
    (_with(SHOWDOWN, "showdown.pot", 12.5), "showdown.pot: must be a whole number"),
    (_with(SHOWDOWN, "showdown.players", []), "showdown.players: needs 1 to 10 players, got 0"),
    (_with(SHOWDOWN, "showdown.players",
           [side(s, "2c", "3c 4c 5c") for s in range(1, 12)]),
     "showdown.players: needs 1 to 10 players, got 11"),
    (_with(SHOWDOWN, "showdown.players.2.seat", 1), "showdown.players[2].seat: seat 1 is listed twice"),
    (_with(SHOWDOWN, "showdown.players.1.palace", "Kc 7d Ah"),
     "showdown.players[1].palace: duplicate card Ah (also in showdown.players[0].banner)"),
    (_with(SHOWDOWN, "showdown.dealer", 0), "showdown.dealer: must be at least 1"),
    (_with(SHOWDOWN, "showdown.dealer", ...), "showdown.dealer: is required"),
]


@pytest.mark.parametrize(("request_", "error"), BAD, ids=[e.split(":")[0] + ":" + e.split(":")[1][:30]
                                                           for _, e in BAD])
def test_bad_input_is_one_bad_input_naming_the_field(request_: dict[str, Any], error: str) -> None:
    with pytest.raises(BadInput) as caught:
        settle(request_)
    assert str(caught.value) == error


def test_bad_input_on_the_command_line_is_one_error_line_and_exit_2(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    request = _with(BATTLE, "battle.defender.soldiers", "Ts")
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(request)))
    assert main(["settle"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "error: battle.defender.soldiers: duplicate card Ts (also in battle.attacker.soldiers)\n"
