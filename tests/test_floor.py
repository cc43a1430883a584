"""The floor review (read-only): the list, filters, a round's story and the totals, checked
against sums taken straight from the ledger's settlement rows; the review changes nothing."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest
from textual.widgets import DataTable

from dealer_tui.cli import main
from dealer_tui.screens.floor_rounds import RoundsScreen
from dealer_tui.screens.floor_story import StoryScreen
from dealer_tui.screens.floor_totals import TotalsScreen
from tests.floor_support import live_table
from tests.staff_support import floor_review

SIZE = (140, 40)


@pytest.fixture(scope="module")
def ledger_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("floor") / "l.sqlite"
    live_table(path, "high-card-flush", 6, 3, "high-card-flush-casino")
    live_table(path, "one-or-five", 5, 3)
    return path


def digest(path: Path) -> str:
    db = sqlite3.connect(path)
    rows = db.execute("SELECT hash FROM events ORDER BY id").fetchall() + db.execute(
        "SELECT id, status, flags FROM rounds ORDER BY id").fetchall()
    db.close()
    return hashlib.sha256(repr(rows).encode()).hexdigest()


async def test_floor_lists_filters_tells_and_totals_without_changing_anything(ledger_path: Path) -> None:
    app = floor_review(ledger_path)  # the sign-in is recorded; nothing after it
    before = digest(ledger_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, RoundsScreen)
        assert screen.query_one(DataTable).row_count == 11           # 6 + 5 rounds, newest first
        assert [r.game for r in screen.rows[:5]] == ["one-or-five"] * 5
        await pilot.press("g")                                       # game filter: high-card-flush
        assert screen.query_one(DataTable).row_count == 6
        await pilot.press("g")                                       # one-or-five
        assert {r.game for r in screen.rows} == {"one-or-five"}
        await pilot.press("g")                                       # all games again
        await pilot.press("enter")                                   # the newest round's story
        assert isinstance(app.screen, StoryScreen)
        await pilot.press("escape", "t")
        totals = app.screen
        assert isinstance(totals, TotalsScreen)
        cells = [totals.query_one(DataTable).get_row_at(i) for i in range(totals.query_one(DataTable).row_count)]
    by_game = {row[6]: row for row in cells if row[6]}  # table, result, % of handle, handle, rounds, banking, game
    db = sqlite3.connect(ledger_path)
    for game in ("high-card-flush", "one-or-five"):
        # computed here from the settlement rows alone: the drop is every stake but the bank's and the
        # rake; the house's win is minus everything the seats won or lost (C-2)
        stakes, results = db.execute(
            "SELECT SUM(CASE WHEN s.bet IN ('bank', 'rake') THEN 0 ELSE s.stake END), SUM(s.result) "
            "FROM settlements s JOIN rounds r ON r.id = s.round_id WHERE r.game = ?", (game,)).fetchone()
        assert by_game[game][3] == f"{stakes:,}"
        assert by_game[game][1] == f"{-results:+,}"
    db.close()
    assert digest(ledger_path) == before


async def test_floor_shows_new_rounds_as_they_land(ledger_path: Path, tmp_path: Path) -> None:
    copy = tmp_path / "live.sqlite"
    src = sqlite3.connect(ledger_path)
    dst = sqlite3.connect(copy)
    src.backup(dst)
    src.close()
    dst.close()
    app = floor_review(copy)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, RoundsScreen)
        live_table(copy, "one-or-five", 2, 9)  # a second terminal's table, played meanwhile
        screen._poll()
        await pilot.pause()
        assert screen.query_one(DataTable).row_count == 13


def test_floor_command_refuses_a_missing_ledger(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["floor", "--ledger", str(tmp_path / "none.sqlite")]) == 2
    assert capsys.readouterr().err.startswith("error: ")


async def test_totals_too_wide_for_the_terminal_scroll_to_the_biggest_payout(ledger_path: Path) -> None:
    """At 100 columns the totals table is wider than the screen: it has the focus, and → brings
    in the last column (the biggest payout) instead of leaving it cut."""
    app = floor_review(ledger_path)
    async with app.run_test(size=(100, 36)) as pilot:
        await pilot.press("t")
        totals = app.screen
        assert isinstance(totals, TotalsScreen)
        table = totals.query_one(DataTable)
        assert app.focused is table and table.virtual_size.width > table.size.width
        assert "Biggest payout" not in "".join(s.text for s in table.render_line(0))
        await pilot.press(*["right"] * 11)
        assert "Biggest payout" in "".join(s.text for s in table.render_line(0))
