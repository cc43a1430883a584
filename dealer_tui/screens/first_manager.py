"""The first start on a ledger with no staff accounts (a new casino, or a ledger from before
accounts): its first account, a manager, is made here — the only one made without a manager's
sign-in. The manager then adds the staff on the staff screen (`screens.staff_screen`), or with
`dealer-tui staff add ... --by ID`."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from dealer_tui.events.staff import MANAGER
from dealer_tui.language import N_
from dealer_tui.ledger import LedgerError
from dealer_tui.screens.wording import sentence
from dealer_tui.staff import StaffDesk, StaffError
from dealer_tui.staff.pins import APPROVER_DIGITS, pin_problem

FIELDS = (("account", "Manager's ID", "e.g. M1", False), ("name", "Name", "as on the badge", False),
          ("pin", "PIN", f"{APPROVER_DIGITS}+ digits", True), ("pin2", "PIN again", "", True))


ASKED = {"account": "the manager's ID (e.g. M1)", "name": "the manager's name, as on the badge",
         "pin": f"the manager's PIN ({APPROVER_DIGITS} or more digits)", "pin2": "the same PIN a second time"}
"""What an empty field asks for when Enter is pressed in it."""


class FirstManagerScreen(ModalScreen[bool]):
    """Dismisses True once the manager's account is in the ledger; Esc quits."""

    CSS_PATH = "modal.tcss"
    BINDINGS = [Binding("escape", "cancel", N_("Quit"))]

    def __init__(self, desk: StaffDesk, upgraded: bool) -> None:
        super().__init__()
        self.desk, self.upgraded = desk, upgraded

    def compose(self) -> ComposeResult:
        why = ("This ledger has tables but no staff accounts yet." if self.upgraded
               else "A new ledger: its first account is a manager's.")
        with Vertical(classes="dialog"):
            yield Static("Staff accounts: the first manager", classes="title")
            yield Static(f"{why} Every dealer, supervisor, manager and auditor signs in by ID and PIN; the "
                         "manager adds them next, on screen.", classes="hint")
            for field_id, label, placeholder, secret in FIELDS:
                with Horizontal(classes="row"):
                    yield Label(label)
                    yield Input(placeholder=placeholder, password=secret, id=field_id,
                                max_length=12 if secret else 80)
            yield Static("", id="manager-error", classes="error")
            yield Static("Enter goes on · Esc quits (nothing is recorded)", classes="hint")

    def on_mount(self) -> None:
        self.query_one("#account", Input).focus()

    def action_cancel(self) -> None:
        self.dismiss(False)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        order = [f[0] for f in FIELDS]
        at = order.index(event.input.id or "account")
        error = self.query_one("#manager-error", Static)
        if not event.input.value.strip():  # an empty field is said where it is, and keeps the cursor
            error.update(f"Type {ASKED[order[at]]}, then Enter.")
            return
        error.update("")
        if at + 1 < len(order):
            self.query_one(f"#{order[at + 1]}", Input).focus()
            return
        values = {f: self.query_one(f"#{f}", Input).value for f in order}
        problem = pin_problem(values["pin"], MANAGER)
        if problem is not None:
            error.update(sentence(f"{problem}: choose another PIN and type it in both fields"))
            self._clear_pins()
            return
        if values["pin"] != values["pin2"]:
            error.update("The two PINs differ: type them again.")
            self._clear_pins()
            return
        try:
            self.desk.add_first_manager(values["account"].strip(), values["name"], values["pin"])
        except (StaffError, LedgerError) as exc:
            error.update(sentence(str(exc)))
            self._clear_pins()
            return
        self.dismiss(True)

    def _clear_pins(self) -> None:
        for field_id in ("pin", "pin2"):
            self.query_one(f"#{field_id}", Input).value = ""
        self.query_one("#pin", Input).focus()
