"""The floor review's tables are Textual's DataTable: a name longer than its column is cut, markup is
drawn as styles, and a click on a row selects that row."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import DataTable

ROWS = [("2026-03-06 19:00:01", "Main 1", "12", "high-card-flush", "+35", "voided, capped"),
        ("2026-03-06 19:00:41", "Main 22", "7", "one-or-five", "-5", ""),
        ("2026-03-06 19:01:21", "Main 3", "130", "palace-poker", "+0", "[b]big[/b]"),
        ("2026-03-06 19:02:01", "A name longer than its column", "1", "x", "+1", "")]


class Floor(App[None]):
    def compose(self) -> ComposeResult:
        yield DataTable(zebra_stripes=True, cursor_type="row")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_column("Time", key="time")
        table.add_column("Table", key="table", width=12)   # a fixed width: the long name is cut
        for label in ("Round", "Game", "House", "Flags"):
            table.add_column(label, key=label.lower())
        for i, row in enumerate(ROWS):
            table.add_row(*row, key=str(i))


async def test_the_floor_table_cuts_long_names_and_draws_markup() -> None:
    app = Floor()
    async with app.run_test(size=(110, 20)) as pilot:
        await pilot.pause()
        table = app.query_one(DataTable)
        text = ["".join(seg.text for seg in table.render_line(y)) for y in range(table.size.height)]
        assert "Main 1" in text[1] and "A name longe " in text[4]          # cut at the 12 cells of its column
        assert "big" in text[3] and "[b]" not in text[3]                   # markup, drawn as a style


async def test_a_click_on_a_floor_table_row_selects_that_row() -> None:
    app = Floor()
    async with app.run_test(size=(110, 20)) as pilot:
        table = app.query_one(DataTable)
        await pilot.pause()
        assert table.cursor_row == 0
        await pilot.click(table, offset=(3, 3))                            # the header, then rows 0, 1: row 2
        await pilot.pause()
        assert table.cursor_row == 2
