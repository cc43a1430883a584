"""What the Palace Poker round screen shows of a hand (the presenter): seat panels and event lines."""

from __future__ import annotations

from pathlib import Path

from dealer_tui.rounds.base import Action
from dealer_tui.views import presenter
from rules.cards import parse_cards
from tests.test_rounds_palace_poker import THREE, act, attack, dealt, play, script

VIEW = presenter("palace-poker")


def test_pp_3_a_buy_is_one_line_and_the_keep_names_only_the_soldiers(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path, THREE)
    play(table, Action("buy", 1), Action("keep", 1, data={"discard": ""}))
    lines = [VIEW.describe(e) for e in rnd.events[-2:]]
    assert lines == ["Seat 1 pays 10 and takes J♠ from the draw pile (PP-3)", "Seat 1 keeps 1 soldier: J♠"]


def test_pp_9_after_a_called_battle_the_winners_palace_stays_face_up(tmp_path: Path) -> None:
    # As in the PP-9 round test: seat 2 (Kh, palace Kd 9s 7c) beats seat 1 on a call; both palaces
    # are turned up for the comparison, and the winner plays on with its palace known to the table.
    table, rnd = dealt(tmp_path, script("7s Kh Qd", "Ah Ad 8c", "Kd 9s 7c", "Jh Th 9h"))
    play(table, attack(1, 2), Action("call", 2))
    act(table, Action("keep", 2, data={"discard": ""}))
    stacks = {seat: (f"P{seat}", 1000) for seat in (1, 2, 3)}
    views = {v.seat: v for v in VIEW.seats(rnd, stacks)}
    assert ("Palace", tuple(parse_cards("Kd 9s 7c")), "shown") in views[2].hands
    assert ("Soldiers", tuple(parse_cards("7s")), "") in views[2].hands
    assert [h for h in views[3].hands if h[0] == "Palace"] == [("Palace", (), "▒▒ ▒▒ ▒▒")]  # not in the battle
    assert VIEW.describe(rnd.events[-1]) == "Seat 2 keeps 1 soldier: 7♠"


def test_pp_0_a_tie_for_the_deal_is_one_line_and_the_draw_that_settles_it_another() -> None:
    from dealer_tui.ledger.base import NewEvent

    tie = NewEvent("dealer_drawn", {"cards": {"seat 2": "Qs", "seat 3": "Qd"}, "dealer": None, "tied": [2, 3],
                                    "reason": "Seats 2 and 3 tie with Q♠ Q♦ and draw again (PP-0)"})
    settled = NewEvent("dealer_drawn", {"cards": {"seat 2": "Qh", "seat 3": "9c"}, "dealer": 2, "tied": [],
                                        "reason": "Seats 2 and 3 tie with Q♠ Q♦ and draw again; seat 2 deals "
                                                  "first with Q♥, the highest card (PP-0)"})
    assert [VIEW.describe(e) for e in (tie, settled)] == [
        "Seats 2 and 3 tie with Q♠ Q♦ and draw again (PP-0)", "Seat 2 deals first with Q♥, the highest card (PP-0)"]


def test_pp_3_a_bought_card_shows_on_the_buyers_panel_until_it_is_kept_or_discarded(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path, THREE)
    act(table, Action("buy", 1))  # the top of the draw pile, Js (PP-3)
    stacks = {seat: (f"P{seat}", 1000) for seat in (1, 2, 3)}
    panel = next(v for v in VIEW.seats(rnd, stacks) if v.seat == 1)
    assert ("Gained", tuple(parse_cards("Js")), "to keep or discard") in panel.hands
    act(table, Action("keep", 1, data={"discard": ""}))
    panel = next(v for v in VIEW.seats(rnd, stacks) if v.seat == 1)
    assert [h[0] for h in panel.hands] == ["Banner", "Soldiers", "Palace"]
