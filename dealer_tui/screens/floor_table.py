"""The floor review's tables: a DataTable whose one-line plain-text cells are drawn straight to
segments, and measured by their text, instead of through Rich's padding and wrapping. The lines
drawn are the same (the table merges a line's segments of one style); cells with markup, styles,
several lines or a row label take DataTable's own way."""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.widgets import DataTable


def _plain(cell: object) -> str | None:
    """The text of a cell drawn as it stands: one line, no style of its own."""
    if isinstance(cell, Text) and not cell.spans and not cell.style and "\n" not in cell.plain:
        return cell.plain
    return None


class FloorTable(DataTable[Any]):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._cell_meta: dict[tuple[int, int], Style] = {}

    def _meta(self, row_index: int, column_index: int) -> Style:
        """The cell's mouse meta (which row and column a click lands on), made once per cell."""
        key = (row_index, column_index)
        meta = self._cell_meta.get(key)
        if meta is None:
            meta = self._cell_meta[key] = Style.from_meta({"row": row_index, "column": column_index})
        return meta

    def _render_cell(self, row_index: int, column_index: int, base_style: Style, width: int,
                     cursor: bool = False, hover: bool = False) -> list[list[Segment]]:
        pad = self.cell_padding
        row_key = self._row_locations.get_key(row_index) if row_index >= 0 else None
        row = self.rows.get(row_key) if row_key is not None else None
        if (row is None or row.height != 1 or column_index < 0 or width < 2 * pad
                or row_index < self.fixed_rows or column_index < self.fixed_columns):
            return super()._render_cell(row_index, column_index, base_style, width, cursor, hover)
        cells = self._get_row_renderables(row_index).cells
        text = _plain(cells[column_index]) if column_index < len(cells) else None
        if text is None:
            return super()._render_cell(row_index, column_index, base_style, width, cursor, hover)
        component, post = self._get_styles_to_render_cell(
            False, False, False, hover, cursor, self.show_cursor, self._show_hover_cursor,
            self.cursor_foreground_priority == "css", self.cursor_background_priority == "css")
        style = base_style + self._meta(row_index, column_index) + component + post
        edge = " " * pad
        return [[Segment(edge + set_cell_size(text, width - 2 * pad) + edge, style)]]

    def _update_dimensions(self, new_rows: Any) -> None:
        """Column widths from the new rows' text; rows Rich must measure or size go the usual way."""
        usual = []
        columns = self.ordered_columns
        for row_key in new_rows:
            row_index = self._row_locations.get(row_key)
            row = self.rows.get(row_key)
            if row_index is None or row is None:
                continue
            cells = self._get_row_renderables(row_index).cells
            texts = [_plain(cell) for cell in cells]
            if row.label is not None or row.auto_height or None in texts:
                usual.append(row_key)
                continue
            for column, text in zip(columns, texts):
                column.content_width = max(column.content_width, cell_len(text))  # type: ignore[arg-type]
        super()._update_dimensions(usual)
