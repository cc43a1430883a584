"""The floor's shifts screen (`h` on the rounds list): every table's shift at a glance, its
figures counted against the records, and a difference flagged in red."""

from __future__ import annotations

import io
import shutil
import sys
from pathlib import Path

import pytest
from textual.widgets import DataTable, Static

from dealer_tui.cli import main
from dealer_tui.screens.floor_rounds import RoundsScreen
from dealer_tui.screens.floor_shifts import ShiftsScreen
from tests.staff_support import AUDITOR, AUDITOR_PIN, DEMO_PINS, demo, floor_review

SIZE = (120, 36)


@pytest.fixture(scope="module")
def counted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("floor-shifts") / "demo.sqlite"
    saved = sys.stdin
    try:
        sys.stdin = io.StringIO(DEMO_PINS + f"{AUDITOR_PIN}\n")
        assert main(demo("--game", "one-or-five", "--rounds", "10", "--seed", "2", "--ledger", str(path),
                         "--count-team", AUDITOR)) == 0
    finally:
        sys.stdin = saved
    return path


async def wait_for_rows(pilot, screen: ShiftsScreen) -> None:  # type: ignore[no-untyped-def]
    for _ in range(200):
        await pilot.pause(0.05)
        if screen.shifts:
            return
    raise AssertionError("the shifts were never shown")


async def test_h_shows_each_shift_with_its_figures(counted: Path) -> None:
    app = floor_review(counted)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, RoundsScreen)
        await pilot.press("h")
        screen = app.screen
        assert isinstance(screen, ShiftsScreen)
        await wait_for_rows(pilot, screen)
        table = screen.query_one(DataTable)
        assert table.row_count == 1
        row = [str(c) for c in table.get_row_at(0)]
        assert row[:3] == ["Demo one-or-five (training)", "1", "counted"]
        assert row[10] == "0"                                   # the closer as expected
        detail = str(screen.query_one("#shifts-figures", Static).render())
        assert "Opener" in detail and "Closer" in detail and "FLAG" not in detail
        assert "marker DEMO-1-1-M1 seat 1: 20,000 (signed D1, S1)" in detail   # the tray record, signed
        await pilot.press("escape")
        assert isinstance(app.screen, RoundsScreen)


async def test_a_drop_that_differs_is_flagged_on_the_floor(counted: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "short.sqlite"
    shutil.copy(counted, path)
    monkeypatch.setattr(sys, "stdin", io.StringIO(DEMO_PINS + f"{AUDITOR_PIN}\n"))
    assert main(demo("--game", "one-or-five", "--rounds", "3", "--seed", "3", "--ledger", str(path),
                     "--table", "Demo one-or-five")) == 0     # a second shift (no buy-in), its drop box to count
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{AUDITOR_PIN}\n"))
    assert main(["shift", "count", "--ledger", str(path), "--table", "Demo one-or-five", "--cash", "1",
                 "--by", AUDITOR]) == 0
    app = floor_review(path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        screen = app.screen
        assert isinstance(screen, ShiftsScreen)
        await wait_for_rows(pilot, screen)
        assert screen.query_one(DataTable).row_count == 2
        await pilot.press("down")
        detail = str(screen.query_one("#shifts-figures", Static).render())
        assert "shift 2" in detail and "FLAG: drop over by 1" in detail   # 1 cash where none was paid in
        summary = str(screen.query_one("#shifts-sum", Static).render())
        assert "2 flag(s) in 1 shift(s)" in summary                    # the drop and the win over by 1


async def test_y_shows_each_players_rating_and_sessions(counted: Path) -> None:
    from dealer_tui.screens.floor_players import PlayersScreen

    app = floor_review(counted)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("y")
        screen = app.screen
        assert isinstance(screen, PlayersScreen)
        for _ in range(200):
            await pilot.pause(0.05)
            if "No rated play" in str(screen.query_one("#players-sum", Static).render()):
                break
        assert "at live tables (T: training tables too)" in str(screen.query_one("#players-sum", Static).render())
        assert screen.ratings == []                                     # a demo's is training play: left out
        await pilot.press("T")                                          # asked for
        for _ in range(200):
            await pilot.pause(0.05)
            if screen.ratings:
                break
        table = screen.query_one(DataTable)
        assert table.row_count == 4                                     # the demo's four players
        names = sorted(str(table.get_row_at(i)[0]) for i in range(4))
        assert names == ["Player 1", "Player 2", "Player 3", "Player 4"]
        assert str(table.get_row_at(0)[1]).startswith("DEMO-")            # the demo's players carry cards
        detail = str(screen.query_one("#players-sessions", Static).render())
        assert "Demo one-or-five seat" in detail and "still seated" in detail
        await pilot.press("d")                                          # the one gaming day the demo played
        assert screen.day is not None and screen.query_one(DataTable).row_count == 4
