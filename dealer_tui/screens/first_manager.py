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
from dealer_tui.language import LANGUAGES, N_, _, current, told, told_error, use_terminal
from dealer_tui.ledger import LedgerError
from dealer_tui.screens.wording import sentence
from dealer_tui.staff import StaffDesk, StaffError
from dealer_tui.staff.pins import APPROVER_DIGITS, pin_problem

FIELDS = (("account", N_("Manager's ID"), N_("e.g. M1"), False), ("name", N_("Name"), N_("as on the badge"), False),
          ("pin", N_("PIN"), N_("{digits}+ digits"), True), ("pin2", N_("PIN again"), "", True))


ASKED = {"account": N_("Type the manager's ID (e.g. M1), then Enter."),
         "name": N_("Type the manager's name, as on the badge, then Enter."),
         "pin": N_("Type the manager's PIN ({digits} or more digits), then Enter."),
         "pin2": N_("Type the same PIN a second time, then Enter.")}
"""What an empty field asks for when Enter is pressed in it."""
ORDER = tuple(LANGUAGES)
"""The languages F2 steps through."""


class FirstManagerScreen(ModalScreen[bool]):
    """Dismisses True once the manager's account is in the ledger; Esc quits."""

    CSS_PATH = "modal.tcss"
    BINDINGS = [Binding("escape", "cancel", N_("Quit")), Binding("f2", "language", N_("Language"))]

    def __init__(self, desk: StaffDesk, upgraded: bool) -> None:
        super().__init__()
        self.desk, self.upgraded = desk, upgraded
        self.language = ""
        """The language chosen here with F2 (the manager's account reads it); "": the terminal's."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(id="manager-title", classes="title")
            yield Static(id="manager-why", classes="hint")
            for field_id, _label, _placeholder, secret in FIELDS:
                with Horizontal(classes="row"):
                    yield Label(id=f"{field_id}-label")
                    yield Input(password=secret, id=field_id, max_length=12 if secret else 80)
            yield Static("", id="manager-error", classes="error")
            yield Static(id="manager-keys", classes="hint")

    def on_mount(self) -> None:
        self._word()
        self.query_one("#account", Input).focus()

    def _word(self) -> None:
        """The screen's words in the language shown now."""
        why = (_("This ledger has tables but no staff accounts yet.") if self.upgraded
               else _("A new ledger: its first account is a manager's."))
        self.query_one("#manager-title", Static).update(_("Staff accounts: the first manager"))
        self.query_one("#manager-why", Static).update(
            why + " " + _("Every dealer, supervisor, manager and auditor signs in by ID and PIN; the manager adds "
                          "them next, on screen."))
        for field_id, label, placeholder, _secret in FIELDS:
            self.query_one(f"#{field_id}-label", Label).update(_(label))
            self.query_one(f"#{field_id}", Input).placeholder = _(placeholder, digits=APPROVER_DIGITS) if placeholder else ""
        self.query_one("#manager-keys", Static).update(
            _("Enter goes on · Esc quits (nothing is recorded) · F2 language: {language}", language=current().name))

    def action_language(self) -> None:
        """The next language (F2): the screen, and the manager's account once made, read it."""
        self.language = ORDER[(ORDER.index(current().code) + 1) % len(ORDER)]
        use_terminal(self.language)
        self._word()
        self.query_one("#manager-error", Static).update("")

    def action_cancel(self) -> None:
        self.dismiss(False)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        order = [f[0] for f in FIELDS]
        at = order.index(event.input.id or "account")
        error = self.query_one("#manager-error", Static)
        if not event.input.value.strip():  # an empty field is said where it is, and keeps the cursor
            error.update(_(ASKED[order[at]], digits=APPROVER_DIGITS))
            return
        error.update("")
        if at + 1 < len(order):
            self.query_one(f"#{order[at + 1]}", Input).focus()
            return
        values = {f: self.query_one(f"#{f}", Input).value for f in order}
        problem = pin_problem(values["pin"], MANAGER)
        if problem is not None:
            error.update(sentence(_("{problem}: choose another PIN and type it in both fields", problem=told(problem))))
            self._clear_pins()
            return
        if values["pin"] != values["pin2"]:
            error.update(_("The two PINs differ: type them again."))
            self._clear_pins()
            return
        try:
            self.desk.add_first_manager(values["account"].strip(), values["name"], values["pin"],
                                        language=self.language)
        except (StaffError, LedgerError) as exc:
            error.update(sentence(told_error(exc)))
            self._clear_pins()
            return
        self.dismiss(True)

    def _clear_pins(self) -> None:
        for field_id in ("pin", "pin2"):
            self.query_one(f"#{field_id}", Input).value = ""
        self.query_one("#pin", Input).focus()
