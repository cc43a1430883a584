"""The payout's rows as a table with a row cursor, drawn as plain lines.

Its height is the number of rows shown (at most `VISIBLE`, the rest scroll with the cursor), set
when the rows are given, so the dialog is laid out once: a moving cursor is a repaint of this
widget alone, and there is no scrollbar to appear after the first frame.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message

from dealer_tui.language import N_
from dealer_tui.widgets.fitted import FittedLeaf

VISIBLE = 11
"""Rows shown at once, under the header line."""


class PayoutRows(FittedLeaf, can_focus=True):
    COMPONENT_CLASSES: ClassVar[set[str]] = {"payout-rows--header", "payout-rows--even-row", "payout-rows--cursor"}
    DEFAULT_CSS = """
    PayoutRows { background: $surface; color: $foreground; height: 2; }
    PayoutRows:focus { background-tint: $foreground 5%; }
    PayoutRows > .payout-rows--header { text-style: bold; background: $panel; color: $foreground; }
    PayoutRows > .payout-rows--even-row { background: $surface-lighten-1 50%; }
    PayoutRows > .payout-rows--cursor {
        background: $block-cursor-background; color: $block-cursor-foreground; text-style: bold;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move(-1)", N_("Up"), show=False),
        Binding("down", "move(1)", N_("Down"), show=False),
        Binding("pageup", f"move(-{VISIBLE})", N_("Page up"), show=False),
        Binding("pagedown", f"move({VISIBLE})", N_("Page down"), show=False),
        Binding("home", "move(-1000000)", N_("First"), show=False),
        Binding("end", "move(1000000)", N_("Last"), show=False),
    ]

    class Highlighted(Message):
        """The cursor is on another row (or on the first row of new rows)."""

        def __init__(self, row: int) -> None:
            super().__init__()
            self.row = row

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.header: tuple[str, ...] = ()
        self.rows: list[tuple[str, ...]] = []
        self.right: frozenset[int] = frozenset()
        self.cursor = 0
        self._top = 0
        self.shown_rows = VISIBLE
        """Rows shown at once: the dialog gives this widget the lines the terminal has room for."""

    def show(self, header: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[int] = (),
             visible: int = VISIBLE) -> None:
        """New rows, the cursor on the first (said by the caller: no message); columns numbered in
        `right` are right-aligned; at most `visible` rows at once, the rest scroll with the cursor."""
        self.header, self.rows, self.right = tuple(header), [tuple(r) for r in rows], frozenset(right)
        self.cursor, self._top = 0, 0
        self.fit(visible, drawn=True)

    def fit(self, visible: int, *, drawn: bool = False) -> None:
        """Show at most `visible` rows at once (the cursor's row stays in view); drawn again only
        if that changes what is shown (`drawn`: the rows are new, it is drawn anyway)."""
        shown, top = max(1, visible), min(max(self._top, self.cursor - max(1, visible) + 1), self.cursor)
        changed = drawn or (shown, top) != (self.shown_rows, self._top)
        self.shown_rows, self._top = shown, top
        height = min(len(self.rows), self.shown_rows) + 1
        if self.styles.height is None or self.styles.height.value != height:
            self.styles.height = height
        if changed:
            self.refresh()

    def in_sight(self) -> tuple[int, int]:
        """The first and last row on show (counted from 1)."""
        return self._top + 1, min(len(self.rows), self._top + self.shown_rows)

    def action_move(self, by: int) -> None:
        if not self.rows:
            return
        cursor = max(0, min(len(self.rows) - 1, self.cursor + by))
        if cursor != self.cursor:
            self.cursor = cursor
            self._top = min(max(self._top, cursor - self.shown_rows + 1), cursor)
            self.refresh()
            self.post_message(self.Highlighted(cursor))

    def on_click(self, event: events.Click) -> None:
        row = self._top + event.y - 1
        if event.y >= 1 and 0 <= row < len(self.rows):
            self.action_move(row - self.cursor)

    def _widths(self, width: int) -> list[int]:
        """Each column as wide as its widest cell, the last one taking what is left."""
        columns = len(self.header)
        widths = [max([len(self.header[c]), *(len(r[c]) for r in self.rows)]) for c in range(columns)]
        fixed = sum(widths[:-1]) + 2 * columns
        if columns:
            widths[-1] = max(1, width - fixed)
        return widths

    def _line(self, cells: Sequence[str], widths: list[int], style: Style) -> Text:
        line = Text(style=style, no_wrap=True, overflow="ellipsis", end="")
        for column, (cell, width) in enumerate(zip(cells, widths)):
            if len(cell) > width:
                cell = cell[: max(0, width - 1)] + "…"
            text = cell.rjust(width) if column in self.right else cell.ljust(width)
            line.append(f" {text} ")
        return line

    def render(self) -> Text:
        widths = self._widths(self.size.width)
        lines = [self._line(self.header, widths, self.get_component_rich_style("payout-rows--header"))]
        even = self.get_component_rich_style("payout-rows--even-row")
        cursor = self.get_component_rich_style("payout-rows--cursor")
        for index in range(self._top, min(len(self.rows), self._top + self.shown_rows)):
            style = cursor if index == self.cursor else (even if index % 2 else Style())
            lines.append(self._line(self.rows[index], widths, style))
        return Text("\n", no_wrap=True, end="").join(lines)
