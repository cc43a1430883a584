"""The floor review's table draws its plain one-line cells itself: every line it draws is the line
Textual's DataTable draws for the same rows (text, colours, cursor, zebra stripes, the row and
column a click lands on), and a cell with markup still goes DataTable's way."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import DataTable

from dealer_tui.screens.floor_table import FloorTable

ROWS = [("2026-03-06 19:00:01", "Main 1", "12", "high-card-flush", "+35", "voided, capped"),
        ("2026-03-06 19:00:41", "Main 22", "7", "one-or-five", "-5", ""),
        ("2026-03-06 19:01:21", "Main 3", "130", "palace-poker", "+0", "[b]big[/b]"),
        ("2026-03-06 19:02:01", "A name longer than its column", "1", "x", "+1", "")]


class Both(App[None]):
    def compose(self) -> ComposeResult:
        yield DataTable(id="plain", zebra_stripes=True, cursor_type="row")
        yield FloorTable(id="fast", zebra_stripes=True, cursor_type="row")

    def on_mount(self) -> None:
        for table in self.query(DataTable):
            table.add_column("Time", key="time")
            table.add_column("Table", key="table", width=12)   # a fixed width: the long name is cut
            for label in ("Round", "Game", "House", "Flags"):
                table.add_column(label, key=label.lower())
            for i, row in enumerate(ROWS):
                table.add_row(*row, key=str(i))


async def seen(pilot, table: DataTable) -> list[list[tuple[str, object]]]:  # type: ignore[no-untyped-def,type-arg]
    """Each line's segments (text and style, the click meta included) with the table focused."""
    table.focus()
    await pilot.pause()
    return [[(seg.text, seg.style) for seg in table.render_line(y)] for y in range(table.size.height)]


async def test_the_floor_table_draws_the_lines_the_data_table_draws() -> None:
    app = Both()
    async with app.run_test(size=(110, 20)) as pilot:
        await pilot.pause()
        plain, fast = app.query_one("#plain", DataTable), app.query_one("#fast", FloorTable)
        assert await seen(pilot, fast) == await seen(pilot, plain)
        for table in (plain, fast):
            table.move_cursor(row=2)
        assert await seen(pilot, fast) == await seen(pilot, plain)
        text = ["".join(t for t, _ in line) for line in await seen(pilot, fast)]
        assert "Main 1" in text[1] and "A name longe " in text[4]          # cut at the 12 cells of its column
        assert "big" in text[3] and "[b]" not in text[3]                   # markup, drawn DataTable's way


async def test_a_click_on_a_floor_table_row_selects_that_row() -> None:
    app = Both()
    async with app.run_test(size=(110, 20)) as pilot:
        fast = app.query_one("#fast", FloorTable)
        await pilot.pause()
        assert fast.cursor_row == 0
        await pilot.click(fast, offset=(3, 3))                             # the header, then rows 0, 1: row 2
        await pilot.pause()
        assert fast.cursor_row == 2
