"""This round's events in plain words, newest last (no clocks, so the screen is reproducible)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import Static


class EventLog(Static):
    DEFAULT_CSS = """
    EventLog { border: round $secondary; height: 1fr; padding: 0 1; overflow-y: auto; }
    """

    def show(self, lines: Sequence[str], limit: int = 40) -> None:
        self.border_title = "This round"
        tail = list(lines)[-limit:]
        self.update(Text("\n".join(tail) if tail else "—", style=""))
