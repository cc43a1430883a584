"""This round's events in plain words, newest last (no clocks, so the screen is reproducible)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import Static


class EventLog(Static):
    DEFAULT_CSS = """
    EventLog { border: round $secondary; height: 1fr; padding: 0 1; overflow-y: auto; }
    """

    def show(self, lines: Sequence[str]) -> None:
        self.border_title = "This round"
        room = self.size.height - 2 if self.size.height > 2 else 40
        tail = list(lines)[-room:]
        self.update(Text("\n".join(tail) if tail else "—", style=""))
