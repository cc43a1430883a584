"""The round screen's notice line, just above the key bar: why a step was refused, or what a
table step did. It stays until the dealer's next key, so a reason cannot fade before it is read;
hidden while there is nothing to say. It lies over the table (on the layer Textual keeps for
toasts), so showing or hiding it moves nothing else: no second layout.

A toast would do the same job at a cost: Textual builds every toast still on show again on each
screen a dialog opens, two more frames on the next dialog.
"""

from __future__ import annotations

from typing import Literal

from textual.widgets import Static

from dealer_tui.widgets.fitted import FittedLeaf
from dealer_tui.widgets.key_bar import KeyBar
from dealer_tui.widgets.textual_internals import TOAST_LAYER

Severity = Literal["information", "warning", "error"]


class Notice(FittedLeaf, Static):
    DEFAULT_CSS = f"""
    Notice {{
        layer: {TOAST_LAYER}; dock: bottom; margin-bottom: 1; width: 1fr; height: auto;
        padding: 0 1; display: none; text-style: bold;
    }}
    Notice.-information {{ background: $success-muted; color: $text; }}
    Notice.-warning {{ background: $warning-muted; color: $text; }}
    Notice.-error {{ background: $error-muted; color: $text; }}
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self.message: str | None = None
        self.severity: Severity = "information"
        self._bar: KeyBar | None = None

    def show_message(self, message: str, severity: Severity = "information") -> None:
        if (message, severity) == (self.message, self.severity) and self.display:
            return
        self.message, self.severity = message, severity
        self.place()
        self.set_classes(f"-{severity}")
        self.update(message)
        self.display = True

    def place(self) -> None:
        """Just above the key bar, however many lines the bar has with its newest keys (its height
        as set, not as last laid out: both change in the same frame)."""
        if self._bar is None:
            self._bar = next(iter(self.screen.query(KeyBar)), None)
        above = self._bar.lines if self._bar is not None else 1
        if self.styles.margin.bottom != above:
            self.styles.margin = (0, 0, above, 0)

    def clear(self) -> None:
        if self.message is not None:
            self.message = None
            self.display = False
