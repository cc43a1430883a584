"""This round's events in plain words, newest last and always in view (no clocks, so the screen
is reproducible)."""

from __future__ import annotations

from collections.abc import Sequence

from textual.widgets import RichLog


class EventLog(RichLog):
    DEFAULT_CSS = """
    EventLog { border: round $secondary; height: 1fr; padding: 0 1; background: $surface; }
    """

    def __init__(self) -> None:
        super().__init__(wrap=True, markup=False, auto_scroll=True)
        self._shown: tuple[str, ...] = ()

    def show(self, lines: Sequence[str]) -> None:
        self.border_title = "This round"
        lines = tuple(lines) or ("—",)
        if lines[: len(self._shown)] == self._shown and self._shown:
            for line in lines[len(self._shown):]:
                self.write(line)
        else:
            self.clear()
            for line in lines:
                self.write(line)
        self._shown = lines
        self.scroll_end(animate=False)
