"""Ask for a reason (a misdeal, a change of limits) before the supervisor signs."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Input, Static

from dealer_tui.language import N_, _
from dealer_tui.screens.dialog import Dialog


class ReasonDialog(Dialog[str | None]):
    BINDINGS = [Binding("escape", "cancel", N_("Back"))]

    def __init__(self, title: str, placeholder: str | None = None, empty: str | None = None,
                 check: Callable[[str], str | None] | None = None) -> None:
        """`check` may refuse what was typed (the problem, said in the dialog, which stays).
        `placeholder` and `empty` are "reason" and "A reason is needed." unless given."""
        super().__init__()
        self.title_text = title
        self.placeholder = _("reason") if placeholder is None else placeholder
        self.empty = _("A reason is needed.") if empty is None else empty
        self.check = check

    def compose(self) -> ComposeResult:
        yield Static(self.title_text, classes="title")
        yield Input(placeholder=self.placeholder, id="reason")
        yield Static("", id="reason-error", classes="error")
        yield Static(_("Enter confirms · Esc backs out"), classes="hint")

    def reask(self, other: Dialog[str | None]) -> None:
        assert isinstance(other, ReasonDialog)
        self.title_text, self.placeholder, self.empty = other.title_text, other.placeholder, other.empty
        self.check = other.check
        self.query_one(".title", Static).update(self.title_text)
        field = self.query_one("#reason", Input)
        field.placeholder, field.value = self.placeholder, ""
        self.query_one("#reason-error", Static).update("")

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if not text:
            self.query_one("#reason-error", Static).update(self.empty)
            return
        problem = self.check(text) if self.check is not None else None
        if problem:
            self.query_one("#reason-error", Static).update(problem)
            return
        self.dismiss(text)
