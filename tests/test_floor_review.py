"""The floor review driven by keys (Pilot) on a ledger filled by `demo`: filters and search give
the rows plain SQL gives, sorting and paging, totals of a shift, export from the screen, the
review changes nothing, and the sign-off queue's PIN locks after three wrong tries."""

from __future__ import annotations

import csv
import sqlite3
from pathlib import Path

import pytest
from textual.widgets import DataTable, Static

from dealer_tui.floor_app import FloorApp
from dealer_tui.ledger import SqliteLedger
from dealer_tui.ledger.base import STAFF_REGISTER, NewEvent
from dealer_tui.screens import floor_rounds
from dealer_tui.screens.floor_filters import FilterModal, PathModal
from dealer_tui.screens.floor_rounds import RoundsScreen
from dealer_tui.screens.floor_signoff import SignOffScreen
from dealer_tui.screens.floor_totals import TotalsScreen
from dealer_tui.screens.sign_in_modal import SignInModal as PinModal
from tests.floor_support import SEAT_PAYOUTS, demo_ledger, digest, fees_summed, settled_sums
from tests.staff_support import SUPERVISOR_PIN_KEYS, floor_review

SIZE = (150, 40)


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return demo_ledger(tmp_path_factory.mktemp("floorreview") / "l.sqlite")


def review(path: Path) -> FloorApp:
    return floor_review(path)


def sql_ids(path: Path, where: str, args: tuple[object, ...] = ()) -> list[int]:
    db = sqlite3.connect(path)
    found = [r[0] for r in db.execute(f"SELECT id FROM rounds WHERE {where} ORDER BY started_at DESC, id DESC", args)]
    db.close()
    return found


async def set_filters(pilot, **typed: str) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("slash")
    modal = pilot.app.screen
    assert isinstance(modal, FilterModal)
    for name, value in typed.items():
        field = modal.query_one(f"#filter-{name}")
        field.value = value
    await pilot.press("enter")


async def test_filters_and_search_give_the_rows_plain_sql_gives(filled: Path) -> None:
    app = review(filled)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, RoundsScreen)
        assert [r.id for r in screen.rows] == sql_ids(filled, "1 = 1")
        await set_filters(pilot, since="2026-03-06 19:00", until="2026-03-06 23:30", seat="2", min_payout="10")
        assert app.screen is screen
        assert [r.id for r in screen.rows] == sql_ids(
            filled, "started_at >= '2026-03-06T19:00' AND started_at < '2026-03-06T23:30' AND id IN "
                    "(SELECT round_id FROM settlements WHERE seat = 2) AND id IN "
                    f"(SELECT round_id FROM ({SEAT_PAYOUTS}) WHERE payout >= 10)")
        await pilot.press("c")                                        # clear
        await set_filters(pilot, until="2026-03-06")                  # a date alone: the whole day
        assert [r.id for r in screen.rows] == sql_ids(filled, "started_at < '2026-03-07'")
        await pilot.press("c")
        await set_filters(pilot, search="Demo one")                   # a table's name
        assert [r.id for r in screen.rows] == sql_ids(filled, "table_id = 2")
        await set_filters(pilot, search="Player 4")                   # a player's name: every round they sat in
        assert [r.id for r in screen.rows] == sql_ids(filled, "1 = 1")
        await pilot.press("c", "g", "g")                              # game: Poker "1 or 5" (one-or-five)
        assert [r.id for r in screen.rows] == sql_ids(filled, "game = 'one-or-five'")
        assert 'game: Poker "1 or 5"' in str(screen.query_one("#floor-filters", Static).render())


async def test_a_bad_date_is_one_message_and_changes_no_filter(filled: Path) -> None:
    app = review(filled)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, RoundsScreen)
        before = [r.id for r in screen.rows]
        await set_filters(pilot, since="2026-02-30")
        modal = app.screen
        assert isinstance(modal, FilterModal)
        assert str(modal.query_one("#filter-error", Static).render()) == (
            "From: '2026-02-30' is not a date like 2026-11-29 or a time like 2026-11-29 18:00")
        modal.query_one("#filter-since").value = "2026-03-07"          # type: ignore[attr-defined]
        modal.query_one("#filter-until").value = "2026-03-06"          # type: ignore[attr-defined]
        await pilot.press("enter")
        assert "must come before" in str(modal.query_one("#filter-error", Static).render())
        await pilot.press("escape")
        assert [r.id for r in screen.rows] == before


async def test_sorting_by_a_column_and_paging_through_it(filled: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(floor_rounds, "PAGE", 5)
    db = sqlite3.connect(filled)
    by_paid = [r[0] for r in db.execute("SELECT id FROM rounds ORDER BY paid DESC, id DESC")]
    by_wagered_up = [r[0] for r in db.execute("SELECT id FROM rounds ORDER BY wagered ASC, id ASC")]
    db.close()
    app = review(filled)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, RoundsScreen)
        await pilot.press("o")                                         # sort: paid, biggest first
        seen = [r.id for r in screen.rows]
        for _ in range(3):
            await pilot.press("n")
            seen += [r.id for r in screen.rows]
        assert seen == by_paid[:20]
        await pilot.press("p")
        assert [r.id for r in screen.rows] == by_paid[10:15]
        await pilot.press("o", "O")                                    # wagered, then the other way round
        assert [r.id for r in screen.rows] == by_wagered_up[:5]
        assert screen.query_one(DataTable).row_count == 5


async def test_shift_totals_on_screen_equal_the_settlement_rows_summed(filled: Path) -> None:
    app = review(filled)
    async with app.run_test(size=SIZE) as pilot:
        await set_filters(pilot, since="2026-03-06 18:30", until="2026-03-06 22:45")
        await pilot.press("t")
        totals = app.screen
        assert isinstance(totals, TotalsScreen)
        table = totals.query_one(DataTable)
        cells = [table.get_row_at(i) for i in range(table.row_count)]
    shift = "r.started_at >= '2026-03-06T18:30' AND r.started_at < '2026-03-06T22:45'"
    expected, fees = settled_sums(filled, shift), fees_summed(filled, shift)
    shown = {row[6]: row for row in cells if row[6]}  # table, result, % of handle, handle, rounds, banking, game…
    assert set(shown) == {game for _, game in expected}
    for key, (rounds, drop, win, biggest) in expected.items():
        game = key[1]
        assert (shown[game][4], shown[game][3]) == (f"{rounds:,}", f"{drop:,}")
        assert shown[game][1] == f"{win:+,}"
        assert (shown[game][10], shown[game][11]) == (f"{fees[key]:,}", f"{biggest:,}")
    assert cells[-1][0] == "all"
    assert cells[-1][10] == f"{sum(fees.values()):,}"
    assert cells[-1][4] == f"{sum(v[0] for v in expected.values()):,}"
    assert cells[-1][11] == f"{max(v[3] for v in expected.values()):,}"


async def test_export_from_the_screen_writes_the_filtered_rows(filled: Path, tmp_path: Path) -> None:
    app = review(filled)
    target = tmp_path / "out.csv"
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g", "g")                                    # one-or-five
        await pilot.press("e")
        modal = app.screen
        assert isinstance(modal, PathModal)
        assert modal.default.endswith(".csv")
        field = modal.query_one("#path")
        field.value = str(tmp_path / "no such folder" / "x.csv")      # type: ignore[attr-defined]
        await pilot.press("enter")
        assert app.screen is modal
        assert "No such file or directory" in str(modal.query_one("#path-error", Static).render())
        field.value = str(target)                                      # type: ignore[attr-defined]
        await pilot.press("enter")
        assert isinstance(app.screen, RoundsScreen)
    with target.open(newline="") as f:
        rows = [(int(r["round_id"]), int(r["seat"]), r["bet"], int(r["stake"]), int(r["result"]), r["game"])
                for r in csv.DictReader(f)]
    db = sqlite3.connect(filled)
    expected = db.execute("SELECT s.round_id, s.seat, s.bet, s.stake, s.result, r.game FROM settlements s"
                          " JOIN rounds r ON r.id = s.round_id WHERE r.game = 'one-or-five'"
                          " ORDER BY s.round_id, s.seat, s.bet").fetchall()
    db.close()
    assert rows == expected and rows


async def test_the_review_changes_nothing(filled: Path, tmp_path: Path) -> None:
    app = review(filled)  # the supervisor's sign-in is recorded; nothing after it
    before = digest(filled)
    async with app.run_test(size=SIZE) as pilot:
        await set_filters(pilot, since="2026-03-06", search="Player")
        await pilot.press("o", "enter", "escape", "t", "escape", "s", "r", "escape", "c", "n", "p")
        await pilot.press("e")
        app.screen.query_one("#path").value = str(tmp_path / "x.csv")  # type: ignore[attr-defined]
        await pilot.press("enter")
    assert digest(filled) == before


async def test_three_wrong_pins_on_the_floor_lock_the_decision(tmp_path: Path) -> None:
    path = tmp_path / "l.sqlite"
    ledger = SqliteLedger(path)
    table = ledger.create_table("T9", "high-card-flush", "p", "0" * 64, "shoe")
    rnd = ledger.open_round(table.id, "high-card-flush", "p", [NewEvent("round_started", {})])
    ledger.append(table.id, rnd.id, [NewEvent("sign_off_requested", {"seats": [1], "wins": {"1": 9000}})])
    app = review(path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "a")
        assert isinstance(app.screen, PinModal)                   # the floor's user filled in: the PIN
        for _ in range(3):
            await pilot.press(*"000001", "enter")
        assert "locked" in str(app.screen.query_one("#pin-error", Static).render())
        await pilot.press(*SUPERVISOR_PIN_KEYS)                   # even the right PIN, while locked
        assert isinstance(app.screen, PinModal)
        await pilot.press("escape")
        assert isinstance(app.screen, SignOffScreen) and len(app.screen.waiting) == 1
    kinds = [e.kind for e in ledger.table_events(STAFF_REGISTER) if e.kind in ("staff_refused", "staff_locked")]
    assert kinds == ["staff_refused"] * 3 + ["staff_locked", "staff_refused"]
    assert [e.kind for e in ledger.round_events(rnd.id)][-1] == "sign_off_requested"
