"""The keys legal now, one line at the bottom: cheap to redraw on every step, and clickable."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.widgets import Static

_KEY_NAMES = {"question_mark": "?", "escape": "esc", "enter": "⏎"}


def key_name(binding: Binding) -> str:
    """A key as the dealer types it: `?`, `^p`, `F`."""
    return binding.key_display or _KEY_NAMES.get(binding.key, binding.key).replace("ctrl+", "^")


class KeyBar(Static):
    DEFAULT_CSS = """
    KeyBar { dock: bottom; height: 1; background: $panel; color: $text; padding: 0 1; }
    """

    def __init__(self) -> None:
        super().__init__()
        self._spans: list[tuple[int, int, str]] = []

    def show(self, bindings: Sequence[Binding]) -> None:
        text = Text(no_wrap=True, overflow="ellipsis")
        self._spans = []
        for binding in bindings:
            key = key_name(binding)
            start = len(text) + 1  # the bar's left padding
            text.append(f" {key} ", style="bold reverse")
            text.append(f" {binding.description}  ")
            self._spans.append((start, len(text) + 1, binding.action))
        self.update(text)

    async def on_click(self, event: events.Click) -> None:
        for start, end, action in self._spans:
            if start <= event.x < end:
                await self.screen.run_action(action)
                return
