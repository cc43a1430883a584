"""The keys legal now, at the bottom: cheap to redraw on every step, and clickable. The keys go on
as many lines as the terminal's width needs (a key and its name are never split)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Static

from dealer_tui.language import _
from dealer_tui.widgets.fitted import FittedLeaf

_KEY_NAMES = {"question_mark": "?", "escape": "esc", "enter": "⏎", "slash": "/", "exclamation_mark": "!"}


def key_name(binding: Binding) -> str:
    """A key as the dealer types it: `?`, `^p`, `F`."""
    return binding.key_display or _KEY_NAMES.get(binding.key, binding.key).replace("ctrl+", "^")


def keys_bound(bindings: Iterable[Binding]) -> dict[str, str]:
    """Each action with its key as the key bar names it (the first binding of an action wins)."""
    keys: dict[str, str] = {}
    for binding in bindings:
        keys.setdefault(binding.action, key_name(binding))
    return keys


class KeyBar(Static, FittedLeaf):  # its height is set with its keys
    DEFAULT_CSS = """
    KeyBar { dock: bottom; height: 1; background: $panel; color: $text; padding: 0 1; }
    """
    MAX_LINES = 4

    def __init__(self) -> None:
        super().__init__()
        self._shown_bindings: Sequence[Binding] = ()
        self._acts_on: Widget | None = None
        self._at_least = 1
        self._spans: list[tuple[int, int, int, str]] = []  # line, first column, end column, action
        self._width = 0
        self._lines = 1

    @property
    def lines(self) -> int:
        """The lines the bar has with the keys it was last given (laid out in the next frame)."""
        return self._lines

    def show(self, bindings: Sequence[Binding], acts_on: Widget | None = None, at_least: int = 1) -> None:
        """Show `bindings`; a click runs its action on `acts_on` (else on the screen). The bar
        keeps `at_least` lines (a dialog's few keys leave the table under it where it was: a bar
        that shrank would lay out and draw every panel again, and again when it grew back)."""
        self._shown_bindings, self._acts_on, self._at_least = bindings, acts_on, at_least
        self._lay_out(self.content_size.width or self.app.size.width - 2)

    def _lay_out(self, width: int) -> None:
        self._width = width
        text = Text(no_wrap=True, overflow="ellipsis")
        self._spans = []
        line, column = 0, 0
        for binding in self._shown_bindings:
            key, description = key_name(binding), _(binding.description)
            size = len(key) + 2 + 1 + len(description)
            if column and column + size > width:
                text.append("\n")
                line, column = line + 1, 0
            text.append(f" {key} ", style="bold reverse")
            text.append(f" {description}")
            start = column + 1  # the bar's left padding
            column += size
            self._spans.append((line, start, column + 1, binding.action))
            if column + 2 <= width:
                text.append("  ")
                column += 2
        # set here, with the keys, the new height is laid out in the same frame as the step's
        # other changes (a bar sized by its content would be laid out again once it has grown)
        lines = min(max(line + 1, self._at_least), self.MAX_LINES)
        if lines != self._lines:
            self._lines = lines
            self.styles.height = lines
        self.update(text)

    def on_resize(self, event: events.Resize) -> None:
        if self.content_size.width != self._width:
            self._lay_out(self.content_size.width)

    async def on_click(self, event: events.Click) -> None:
        for line, start, end, action in self._spans:
            if line == event.y and start <= event.x < end:
                await (self._acts_on or self.screen).run_action(action)
                return
