"""What a Chinese Poker seat panel shows: the dealt cards and the rows in C-7 order; and each seat's
rows as a round's story tells them."""

from __future__ import annotations

from pathlib import Path

from dealer_tui.events import Event
from dealer_tui.games.chinese_poker.events import (
    CardsDealt,
    NaturalDeclared,
    NaturalWithdrawn,
    RowsLocked,
    RowsOpened,
    RowsSet,
    RowsUnlocked,
)
from dealer_tui.games.chinese_poker.presenter import PRESENTER, SeatRows, story_rows
from dealer_tui.games.chinese_poker.steps import Lock
from dealer_tui.rounds.steps import Reveal
from rules.cards import parse_cards
from tests.cp_support import set_rows, two_player_round


def test_c_7_dealt_cards_are_shown_by_rank_high_first_suits_s_h_d_c(tmp_path: Path) -> None:
    table, rnd = two_player_round(tmp_path)
    views = {v.seat: v for v in PRESENTER.seats(rnd, {1: ("P1", 100), 2: ("P2", 100)})}
    # seat 2 was dealt "Jh Td 8c 9s 9d 7c 6s 3s Th Ts 7d 6d 2d"; C-7: by rank, then s h d c
    assert [c.text for c in views[2].cards] == "Jh Ts Th Td 9s 9d 8c 7d 7c 6s 6d 3s 2d".split()


def test_c_7_rows_are_shown_by_rank_a_wheel_with_its_ace_last(tmp_path: Path) -> None:
    table, rnd = two_player_round(tmp_path)
    # seat 1's cards "Ah Ad 2c Kh Ks Kd 3c 4d Qh Qs Qd Qc 5c": a wheel in the middle, set low first
    set_rows(table, 1, "Kh Ks Kd", "2c 3c 4d 5c Ah", "Qh Qs Qd Qc Ad")
    views = {v.seat: v for v in PRESENTER.seats(rnd, {1: ("P1", 100), 2: ("P2", 100)})}
    rows = {label.strip(): cards for label, cards, _ in views[1].hands}
    assert rows["Middle"] == parse_cards("5c 4d 3c 2c Ah")       # a straight from its top card down
    assert rows["Back"] == parse_cards("Ad Qs Qh Qd Qc")        # C-7: by rank, high first (not grouped)
    assert rows["Front"] == parse_cards("Ks Kh Kd")


# -- the round's story: each seat's rows ------------------------------------------------------

SEAT1_ROWS = ("Ah Ad 2c", "Ks Kh Kd 4d 3c", "Qs Qh Qd Qc 5c")
FOULED = ("Ts Th 7d", "Jh Td 8c 6s 3s", "9s 9d 7c 6d 2d")
FOUL = "middle high card does not beat front one pair"


def rows_set(seat: int, rows: tuple[str, str, str]) -> RowsSet:
    front, middle, back = (parse_cards(r) for r in rows)
    return RowsSet(seat=seat, front=front, middle=middle, back=back, suggested=False)


def seat_rows(rows: tuple[str, str, str], foul: str | None = None, natural: str | None = None) -> SeatRows:
    front, middle, back = (parse_cards(r) for r in rows)
    return SeatRows(front, middle, back, foul, natural)


def test_the_story_shows_no_rows_before_any_are_set() -> None:
    assert story_rows([CardsDealt(hands={}, keyed=True)]) == (False, {})


def test_the_story_shows_rows_as_last_set_with_the_foul_the_lock_recorded() -> None:
    events: list[Event] = [
        rows_set(1, SEAT1_ROWS), rows_set(2, SEAT1_ROWS), rows_set(2, FOULED),
        RowsLocked(seat=2, fouled=True, foul=FOUL, natural=None)]
    assert story_rows(events) == (False, {"1": seat_rows(SEAT1_ROWS), "2": seat_rows(FOULED, foul=FOUL)})
    # unlocked and set again: the foul recorded for the earlier rows no longer applies
    events += [RowsUnlocked(seat=2), rows_set(2, SEAT1_ROWS)]
    assert story_rows(events)[1]["2"] == seat_rows(SEAT1_ROWS)


def test_cp_9_the_story_shows_a_declared_natural_until_it_is_withdrawn() -> None:
    pairs = ("Ad Jh Jd", "Th Td 9h 9d 8s", "8d 7s 7h 6s 6h")
    front, middle, back = (parse_cards(r) for r in pairs)
    declared = NaturalDeclared(seat=2, natural="six pairs", front=front, middle=middle, back=back)
    assert story_rows([declared]) == (False, {"2": seat_rows(pairs, natural="six pairs")})
    assert story_rows([declared, RowsLocked(seat=2, fouled=False, foul=None, natural="six pairs")]) == (
        False, {"2": seat_rows(pairs, natural="six pairs")})
    assert story_rows([declared, NaturalWithdrawn(seat=2)]) == (False, {"2": seat_rows(pairs)})


def test_the_story_shows_the_rows_as_opened(tmp_path: Path) -> None:
    table, rnd = two_player_round(tmp_path)
    set_rows(table, 1, "Ah Ad 2c", "Kh Ks Kd 3c 4d", "Qh Qs Qd Qc 5c")
    set_rows(table, 2, "Th Ts 7d", "Jh Td 8c 6s 3s", "9s 9d 7c 6d 2d")   # fouled (CP-4)
    table.act(Lock(seat=1))
    table.act(Lock(seat=2, confirm_foul=True))
    assert story_rows(rnd.events) == (False, {"1": seat_rows(SEAT1_ROWS), "2": seat_rows(FOULED, foul=FOUL)})
    table.act(Reveal())
    # as opened: the rows in C-7 playing order, seat 2's foul as the reveal judged it
    assert story_rows(rnd.events) == (True, {"1": seat_rows(SEAT1_ROWS), "2": seat_rows(FOULED, foul=FOUL)})
    opened = [e for e in rnd.events if isinstance(e, RowsOpened)]
    assert story_rows([*opened, rows_set(1, FOULED)])[1]["1"] == seat_rows(SEAT1_ROWS)  # nothing after counts


def test_the_event_lines_say_what_each_step_did() -> None:
    pairs = [parse_cards(r) for r in ("Ad Jh Jd", "Th Td 9h 9d 8s", "8d 7s 7h 6s 6h")]
    suggested = RowsSet(seat=3, front=pairs[0], middle=pairs[1], back=pairs[2], suggested=True, reason="best")
    lines = [PRESENTER.describe(e) for e in (
        CardsDealt(hands={}, keyed=True), rows_set(1, SEAT1_ROWS), suggested,
        NaturalDeclared(seat=2, natural="six pairs", front=pairs[0], middle=pairs[1], back=pairs[2]),
        NaturalWithdrawn(seat=2), RowsLocked(seat=1, fouled=False, foul=None, natural=None), RowsUnlocked(seat=1))]
    assert lines == [
        "Four hands of 13 dealt (CP-1)", "Seat 1 sets its rows", "Seat 3 sets its rows (suggested)",
        "Seat 2 declares six pairs (CP-9), shown as front A♦ J♥ J♦, middle T♥ T♦ 9♥ 9♦ 8♠, back 8♦ 7♠ 7♥ 6♠ 6♥",
        "Seat 2 natural withdrawn", "Seat 1 rows locked", "Seat 1 rows unlocked"]


def test_cp_14_the_opening_of_the_rows_is_a_sentence_naming_each_natural_verified() -> None:
    assert PRESENTER.describe(RowsOpened(hands={}, verified=())) == "Rows opened"
    assert PRESENTER.describe(RowsOpened(hands={}, verified=("seat 2: six pairs",))) == (
        "Rows opened; naturals verified (CP-14): seat 2: six pairs")
