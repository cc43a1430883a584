"""A question with a few keyed answers (e.g. "Seat 3, will you bank? y/n")."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from textual.app import ComposeResult
from textual.screen import ModalScreen
from textual.widgets import Static

from dealer_tui.screens.dialog import Dialog
from dealer_tui.widgets.fitted import FittedColumn, FittedStatic


class ChoiceModal(Dialog[str | None]):
    CSS_PATH = "modal.tcss"
    DEFAULT_CSS = "ChoiceModal { align: center middle; background: $background 60%; }"

    def __init__(self, question: str, choices: Sequence[tuple[str, str]]) -> None:
        super().__init__()
        self.question, self.choices = question, list(choices)
        self._keys = {key: value for key, value in ((c[0], c[0]) for c in self.choices)}

    def compose(self) -> ComposeResult:
        with FittedColumn(classes="dialog"):
            yield FittedStatic(self.question, classes="title")
            for key, label in self.choices:
                yield FittedStatic(self._line(key, label), classes="choice")
            yield FittedStatic("Esc backs out", classes="hint")

    @staticmethod
    def _line(key: str, label: str) -> str:
        return f"  [b]{key}[/b]  {label}"

    def shape(self) -> Hashable:
        return len(self.choices)

    def reask(self, other: ModalScreen[str | None]) -> None:
        assert isinstance(other, ChoiceModal)
        self.question, self.choices, self._keys = other.question, other.choices, other._keys
        self.query_one(".title", Static).update(self.question)
        for line, (key, label) in zip(self.query(".choice").results(Static), self.choices):
            line.update(self._line(key, label))

    def on_key(self, event: object) -> None:
        key = getattr(event, "key", "")
        if key == "escape":
            self.dismiss(None)
        elif key in self._keys:
            self.dismiss(key)
        else:
            return
        stop = getattr(event, "stop", None)
        if callable(stop):
            stop()
