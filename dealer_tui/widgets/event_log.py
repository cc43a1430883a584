"""This round's events in plain words, newest last and always in view (no clocks, so the screen
is reproducible).

Lines wrap at the panel's width; when the round's story is longer than the panel, the oldest
lines give way (the whole story is in the floor review and `dealer-tui history`). No scrollbars:
a step adds a line and repaints this panel, in the same frame as the rest of the screen.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import Static

from dealer_tui.language import _
from dealer_tui.widgets.fitted import FittedLeaf


class EventLog(FittedLeaf, Static):
    DEFAULT_CSS = """
    EventLog { border: round $secondary; height: 1fr; padding: 0 1; background: $surface; }
    """

    def __init__(self) -> None:
        super().__init__()
        self._shown: tuple[str, ...] = ("—",)
        self.border_title = _("This round")

    @property
    def lines(self) -> tuple[str, ...]:
        return self._shown

    def show(self, lines: Sequence[str]) -> None:
        """Show the round's story; nothing is redrawn when it has not changed."""
        shown = tuple(lines) or ("—",)
        title = _("This round")  # in the language of the dealer reading now
        if title != self.border_title:
            self.border_title = title
        if shown != self._shown:
            self._shown = shown
            self.refresh()

    def render(self) -> Text:
        width, height = self.size
        if width <= 0 or height <= 0:
            return Text()
        console = self.app.console
        kept: list[Text] = []
        used = 0
        for line in reversed(self._shown):
            wrapped = Text(line).wrap(console, width)
            if used + len(wrapped) > height:
                kept[:0] = list(wrapped)[len(wrapped) - (height - used):] if not kept else []
                break
            kept[:0] = list(wrapped)
            used += len(wrapped)
        return Text("\n").join(kept)
