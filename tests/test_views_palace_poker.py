"""What the Palace Poker round screen shows of a hand (the presenter): seat panels and event lines."""

from __future__ import annotations

from pathlib import Path

from dealer_tui.games import GAMES
from dealer_tui.games.palace_poker.events import DealerDrawn
from dealer_tui.games.palace_poker.steps import Buy, Call, Discard, Fold, Keep, Raise, Stay
from dealer_tui.rounds.steps import Reveal
from dealer_tui.views import with_keys
from rules.cards import parse_cards
from tests.palace_support import THREE, act, attack, dealt, play, script

VIEW = GAMES.find("palace-poker").presenter
KEYS = {"fold": "f", "call": "c", "raise_bet": "r"}
"""The keys the Palace Poker round screen binds to a battle's answers."""


def test_pp_3_a_buy_is_one_line_and_the_keep_names_only_the_soldiers(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path, THREE)
    play(table, Buy(seat=1), Keep(seat=1, discard=""))
    lines = [VIEW.describe(e) for e in rnd.events[-2:]]
    assert lines == ["Seat 1 pays 10 and takes J♠ from the draw pile (PP-3)", "Seat 1 keeps 1 soldier: J♠"]


def test_pp_9_after_a_called_battle_the_winners_palace_stays_face_up(tmp_path: Path) -> None:
    # As in the PP-9 round test: seat 2 (Kh, palace Kd 9s 7c) beats seat 1 on a call; both palaces
    # are turned up for the comparison, and the winner plays on with its palace known to the table.
    table, rnd = dealt(tmp_path, script("7s Kh Qd", "Ah Ad 8c", "Kd 9s 7c", "Jh Th 9h"))
    play(table, attack(1, 2), Call(seat=2))  # seat 2 keeps seat 1's banner 7s: nothing to discard (PP-8)
    stacks = {seat: (f"P{seat}", 1000) for seat in (1, 2, 3)}
    views = {v.seat: v for v in VIEW.seats(rnd, stacks)}
    assert ("Palace", tuple(parse_cards("Kd 9s 7c")), "shown") in views[2].hands
    assert ("Soldiers", tuple(parse_cards("7s")), "") in views[2].hands
    assert [h for h in views[3].hands if h[0] == "Palace"] == [("Palace", (), "▒▒ ▒▒ ▒▒")]  # not in the battle
    assert VIEW.describe(rnd.events[-1]) == "Seat 2 keeps 1 soldier: 7♠"


def test_pp_0_each_draw_for_the_deal_is_a_line_with_every_card_drawn_and_what_it_decided() -> None:
    tie = DealerDrawn(drawn={"seat 2": parse_cards("Qs"), "seat 3": parse_cards("Qd")}, dealer=None, tied=(2, 3),
                      reason="Seats 2 and 3 tie with Q♠ Q♦ and draw again (PP-0)")
    settled = DealerDrawn(drawn={"seat 2": parse_cards("Qh"), "seat 3": parse_cards("9c")}, dealer=2, tied=(),
                          reason="Seats 2 and 3 tie with Q♠ Q♦ and draw again; seat 2 deals first with Q♥, "
                                 "the highest card (PP-0)")
    assert [VIEW.describe(e) for e in (tie, settled)] == [
        "Draw for the deal: seat 2 Q♠, seat 3 Q♦ — seats 2 and 3 tie with Q♠ Q♦ and draw again (PP-0)",
        "Draw for the deal: seat 2 Q♥, seat 3 9♣ — seat 2 deals first with Q♥, the highest card (PP-0)"]


def test_pp_3_a_bought_card_shows_on_the_buyers_panel_until_it_is_kept_or_discarded(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path, THREE)
    act(table, Buy(seat=1))  # the top of the draw pile, Js (PP-3)
    stacks = {seat: (f"P{seat}", 1000) for seat in (1, 2, 3)}
    panel = next(v for v in VIEW.seats(rnd, stacks) if v.seat == 1)
    assert ("Gained", tuple(parse_cards("Js")), "to keep or discard") in panel.hands
    act(table, Keep(seat=1, discard=""))
    panel = next(v for v in VIEW.seats(rnd, stacks) if v.seat == 1)
    assert [h[0] for h in panel.hands] == ["Banner", "Soldiers", "Palace"]


def test_pp_fold_logged_once(tmp_path: Path) -> None:
    # Seat 1 attacks seat 2 (no soldiers: (0 + 1) x 10 = 10) and seat 2 folds: the log says the
    # fold once, then the result, then what seat 1 keeps (banner Kh, nothing to discard, PP-8)
    table, rnd = dealt(tmp_path, THREE)
    before = len(rnd.events)
    play(table, attack(1, 2), Fold(seat=2))
    assert [VIEW.describe(e) for e in rnd.events[before:]] == [
        "Seat 1 attacks seat 2: (0 soldiers + 1) × 10 = 10",
        "Seat 2 folds: seat 1 takes the banner and soldiers (PP-8)",
        "Seat 1 wins the battle and seat 2 is out of the hand (PP-8)",
        "Seat 1 keeps 1 soldier: K♥"]


def test_pp_no_raise_offered_after_last_raise(tmp_path: Path) -> None:
    # As in the PP-11 round test (limit, small bet 10, big bet 30, at most 3 raises): seat 1 buys
    # Js and attacks seat 2 for (1 + 1) x 10 = 20.
    table, rnd = dealt(tmp_path, script("As Kh Qd", "Ad Ac 8d", "Qc Jc 9d", "7h 8h 9h", top="Js"))
    play(table, Buy(seat=1), Keep(seat=1, discard=""), Stay(seat=2), Stay(seat=3),
         attack(1, 2, 20))
    # seat 2, no soldiers: call (0 + 1) x 10 = 10, raise two small bets, 20
    assert with_keys(VIEW.prompt(rnd), KEYS) == "Seat 2 answers seat 1's attack: f folds, c calls 10, r raises by 20."
    play(table, Raise(seat=2, amount=20), Raise(seat=1, amount=30))
    # seat 2 calls seat 1's raise of 30, or raises again: the third and last raise
    assert with_keys(VIEW.prompt(rnd), KEYS) == "Seat 2 answers seat 1's raise: f folds, c calls 30, r raises by 20."
    act(table, Raise(seat=2, amount=20))
    assert with_keys(VIEW.prompt(rnd), KEYS) == "Seat 1 answers seat 2's raise: f folds, c calls 20."


def test_pp_showdown_panels_show_every_remaining_hand(tmp_path: Path) -> None:
    # As in the PP-16 round test: seat 1 As + Ah 9d 7s, seat 2 Kh + Kd Qs 8s, seat 3 Qd + Js Th 8h
    table, rnd = dealt(tmp_path, script("As Kh Qd", "Ah 9d 7s", "Kd Qs 8s", "Js Th 8h", top="5h"))
    play(table, Stay(seat=1), Buy(seat=2), Keep(seat=2, discard=""), Stay(seat=3),
         Stay(seat=1), Discard(seat=2, discard="5h"), Reveal())
    stacks = {seat: (f"P{seat}", 1000) for seat in (1, 2, 3)}
    shown = {v.seat: v.hand for v in VIEW.seats(rnd, stacks)}
    assert shown == {1: "one pair A♠ A♥ 9♦ 7♠ — takes the pot", 2: "one pair K♥ K♦ Q♠ 8♠",
                     3: "high card Q♦ J♠ T♥ 8♥"}
    assert VIEW.describe(rnd.events[-1]) == (
        "Showdown: seat 1 one pair A♠ A♥ 9♦ 7♠; seat 2 one pair K♥ K♦ Q♠ 8♠; seat 3 high card Q♦ J♠ T♥ 8♥: "
        "seat 1 wins the pot of 35 with one pair (PP-16)")


def test_pp_the_prompt_names_each_key_by_its_action(tmp_path: Path) -> None:
    """The screen puts in the keys its bindings give: the presenter names the actions, not keys."""
    _, rnd = dealt(tmp_path, THREE)
    assert VIEW.prompt(rnd) == "Seat 1: {buy} buy, {stay} stay, {attack} attack, {fold} fold."  # no soldier to discard
    assert VIEW.prompt(None) == "Press {start} to start a hand."


def test_a_voided_rounds_pot_is_not_shown_as_still_in_play(tmp_path: Path) -> None:
    """Three antes of 5 make a pot of 15; the round is voided (a misdeal): the chips went back to
    the seats, and the pot's panel says so instead of 15 chips in the pot."""
    from tests.staff_support import void

    table, rnd = dealt(tmp_path, THREE)
    assert VIEW.banker(rnd).title == "Pot 15"
    void(table, "misdeal")
    view = VIEW.banker(rnd)
    assert view.title == "Pot" and view.lines == ("round void: every chip in the pot went back to the seat that put it in",)
