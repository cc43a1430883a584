"""The supervisor keys the PIN; three wrong PINs lock sign-off for five minutes."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from dealer_tui.supervisor import MAX_TRIES, PinError, SignOff


class PinModal(ModalScreen[str | None]):
    """Dismisses with the supervisor's sign-off label, or None."""

    CSS_PATH = "modal.tcss"
    BINDINGS = [Binding("escape", "cancel", "Back")]

    def __init__(self, signoff: SignOff, purpose: str) -> None:
        super().__init__()
        self.signoff, self.purpose = signoff, purpose

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(f"Supervisor sign-off: {self.purpose}", classes="title")
            yield Input(placeholder="supervisor PIN", password=True, id="pin")
            yield Static("", id="pin-error", classes="error")
            yield Static(f"Enter checks the PIN · Esc backs out · {MAX_TRIES} wrong PINs lock sign-off "
                         "for 5 minutes", classes="hint")

    def on_mount(self) -> None:
        locked = self.signoff.locked_for()
        if locked:
            self.query_one("#pin-error", Static).update(f"Sign-off is locked for {locked} more seconds.")
        self.query_one("#pin", Input).focus()

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        field = self.query_one("#pin", Input)
        error = self.query_one("#pin-error", Static)
        try:
            ok = self.signoff.attempt(event.value, self.purpose)
        except PinError as exc:
            error.update(str(exc))
            field.value = ""
            return
        if ok:
            self.dismiss("supervisor")
            return
        field.value = ""
        locked = self.signoff.locked_for()
        if locked:
            error.update(f"Wrong PIN. Sign-off is locked for {locked} seconds.")
        else:
            left = MAX_TRIES - self.signoff.failures
            error.update(f"Wrong PIN: {left} tr{'y' if left == 1 else 'ies'} left before sign-off locks.")
