"""Signing in by account ID and PIN, for one act: the dialog dismisses with the `Approval` the
staff register recorded, or None. Three wrong PINs lock the account for five minutes on every
terminal and the floor."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from dealer_tui.ledger import LedgerError
from dealer_tui.staff import MAX_TRIES, Approval, Purpose, SignInRefused, StaffDesk
from dealer_tui.staff.authority import roles_text


class SignInModal(ModalScreen[Approval | None]):
    CSS_PATH = "modal.tcss"
    BINDINGS = [Binding("escape", "cancel", "Back")]

    def __init__(self, desk: StaffDesk, purpose: Purpose, account: str = "") -> None:
        super().__init__()
        self.desk, self.purpose, self.account = desk, purpose, account

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(f"Sign in to {self.purpose.text}", classes="title")
            yield Static(f"{roles_text(self.purpose.act).capitalize()} signs in with their own ID and PIN.",
                         classes="hint")
            with Horizontal(classes="row"):
                yield Label("Account ID")
                yield Input(value=self.account, placeholder="your ID, as on your badge", id="account", max_length=32)
            with Horizontal(classes="row"):
                yield Label("PIN")
                yield Input(placeholder="6+ digits", password=True, id="pin", max_length=12)
            yield Static("", id="pin-error", classes="error")
            yield Static(f"Enter goes on · Esc backs out · {MAX_TRIES} wrong PINs lock the account for 5 minutes",
                         classes="hint")

    def on_mount(self) -> None:
        self.query_one("#pin" if self.account else "#account", Input).focus()

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        account = self.query_one("#account", Input)
        pin = self.query_one("#pin", Input)
        error = self.query_one("#pin-error", Static)
        if event.input is account:
            if not account.value.strip():
                error.update("Type the account ID, then Enter.")
                return
            error.update("")
            pin.focus()
            return
        if not account.value.strip():
            error.update("Type the account ID first.")
            account.focus()
            return
        try:
            approval = self.desk.sign_in(account.value, pin.value, self.purpose)
        except SignInRefused as exc:
            error.update(f"{exc}.")
            pin.value = ""
            return
        except LedgerError as exc:
            error.update(f"The sign-in could not be recorded: {exc}")
            pin.value = ""
            return
        self.dismiss(approval)


