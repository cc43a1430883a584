"""A question with a few keyed answers (e.g. "Seat 3, will you bank? y/n")."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from dealer_tui.language import N_, _
from dealer_tui.screens.dialog import Dialog
from dealer_tui.widgets.fitted import FittedStatic


class ChoiceDialog(Dialog[str | None]):
    can_focus = True  # answered by its keys alone: it takes them itself

    def __init__(self, question: str, choices: Sequence[tuple[str, str]]) -> None:
        super().__init__()
        self.question, self.choices = question, list(choices)
        self._keys = {key: value for key, value in ((c[0], c[0]) for c in self.choices)}

    def compose(self) -> ComposeResult:
        yield FittedStatic(self.question, classes="title")
        for key, label in self.choices:
            yield FittedStatic(self._line(key, label), classes="choice")
        yield FittedStatic(_("Esc backs out"), classes="hint")

    @staticmethod
    def _line(key: str, label: str) -> str:
        return f"  [b]{key}[/b]  {label}"

    def shape(self) -> Hashable:
        return len(self.choices)

    def reask(self, other: Dialog[str | None]) -> None:
        assert isinstance(other, ChoiceDialog)
        self.question, self.choices, self._keys = other.question, other.choices, other._keys
        self.query_one(".title", Static).update(self.question)
        self.query_one(".hint", Static).update(_("Esc backs out"))
        for line, (key, label) in zip(self.query(".choice").results(Static), self.choices):
            line.update(self._line(key, label))

    def keys(self) -> list[Binding]:
        return [*(Binding(key, f"choose('{key}')", label) for key, label in self.choices),
                Binding("escape", "choose('')", N_("Back"))]

    def action_choose(self, key: str) -> None:
        self.dismiss(key or None)

    def on_key(self, event: events.Key) -> None:
        if self._answer is None:  # not asking now (built ahead, or answered): the key is not its own
            return
        if event.key == "escape":
            self.dismiss(None)
        elif event.key in self._keys:
            self.dismiss(event.key)
        elif event.is_printable and event.character:  # said, not lost in silence (nor taken by the table)
            self.query_one(".hint", Static).update(
                _("{key} is not an answer here: {keys}; Esc backs out.", key=event.character, keys=", ".join(self._keys)))
        else:
            return
        event.stop()
        event.prevent_default()
