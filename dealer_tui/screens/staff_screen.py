"""The staff accounts at the terminal, for a manager signed in with their PIN: the accounts as
`dealer-tui staff list` shows them, and the changes `dealer-tui staff` makes — add, another role,
a new PIN, disable, lift a lock-out — each recorded as signed by that manager's sign-in. The
screen closes itself after `IDLE_S` without a key: a manager's sign-in is not left open at a
table for someone else to use."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Header, Input, Label, Static

from dealer_tui.events.staff import AUDITOR, DEALER, MANAGER, ROLES, SUPERVISOR
from dealer_tui.language import LANGUAGES, N_, _, n_, told, told_error
from dealer_tui.ledger import LedgerError
from dealer_tui.screens.choice_dialog import ChoiceDialog
from dealer_tui.screens.dialog import ask_over
from dealer_tui.screens.reason_dialog import ReasonDialog
from dealer_tui.staff import MANAGE, Approval, Purpose, StaffDesk, StaffError
from dealer_tui.staff.authority import article
from dealer_tui.staff.pins import MAX_DIGITS, min_digits, pin_problem
from dealer_tui.staff.register import Account
from dealer_tui.widgets.screen_keys import ScreenKeys
from rules.said import say

IDLE_S = 120.0
"""A manager's staff screen closes after this long without a key."""
PURPOSE = Purpose(MANAGE, say("manage the staff accounts"))
ROLE_KEYS = (("d", DEALER), ("s", SUPERVISOR), ("m", MANAGER), ("a", AUDITOR))
ROLE_NAMES = {DEALER: N_("dealer"), SUPERVISOR: N_("supervisor"), MANAGER: N_("manager"), AUDITOR: N_("auditor")}
"""Each role as the screen names it (the role itself, a code, is recorded as it is)."""
ROLE_DOES = {DEALER: N_("deals the rounds"), SUPERVISOR: N_("signs off big payouts, voids misdeals, witnesses trays"),
             MANAGER: N_("does all a supervisor does, and runs the staff and profiles"),
             AUDITOR: N_("reads everything and changes nothing")}


def role_name(role: str) -> str:
    """A role as the reader's language names it."""
    return _(ROLE_NAMES[role]) if role in ROLE_NAMES else role


def described(account: Account) -> str:
    """`Ann Lee (D7, dealer)` (`, disabled` when it is), in the reader's language."""
    if account.active:
        return _("{name} ({account}, {role})", name=account.name, account=account.id, role=role_name(account.role))
    return _("{name} ({account}, {role}, disabled)", name=account.name, account=account.id,
             role=role_name(account.role))


def staffing_gaps(accounts: list[Account]) -> list[str]:
    """Who a table still lacks: a dealer, and a supervisor to sign off big payouts and void
    misdeals (a manager may too, but nobody approves an act on a round they dealt)."""
    active = {a.role for a in accounts if a.active}
    gaps = []
    if DEALER not in active:
        gaps.append(told(article(DEALER)))
    if SUPERVISOR not in active:
        gaps.append(_("a supervisor, who signs off big payouts (nobody signs off a round they dealt)"))
    return gaps


class Staffing(str):
    """What `staffing_text` says, and whether a table still lacks someone (`needed`)."""

    needed: bool

    def __new__(cls, text: str, needed: bool) -> Staffing:
        said = super().__new__(cls, text)
        said.needed = needed
        return said


def staffing_text(accounts: list[Account]) -> Staffing:
    gaps = staffing_gaps(accounts)
    active = [a for a in accounts if a.active]

    def count(role: str) -> int:
        return sum(a.role == role for a in active)

    said = _("Active: {dealers}, {supervisors}, {managers}, {auditors}.",
             dealers=n_("{count} dealer", "{count} dealers", count(DEALER)),
             supervisors=n_("{count} supervisor", "{count} supervisors", count(SUPERVISOR)),
             managers=n_("{count} manager", "{count} managers", count(MANAGER)),
             auditors=n_("{count} auditor", "{count} auditors", count(AUDITOR)))
    if gaps:
        needed = _("Still needed: {gaps}.", gaps="; ".join(gaps))
        said = f"{said} {needed}"
    return Staffing(said, bool(gaps))


class AccountModal(ModalScreen[bool]):
    """A new account's ID, name and PIN (twice), or a new PIN for an account (`account` given):
    `submit` records it and returns what refused it ("" done); a refusal keeps the dialog open
    with what was typed, the PINs cleared."""

    CSS_PATH = "modal.tcss"
    DEFAULT_CSS = "AccountModal { align: center middle; background: $background 60%; }"
    BINDINGS = [Binding("escape", "cancel", N_("Back"))]

    def __init__(self, title: str, role: str, submit: Callable[[dict[str, str]], str], account: str = "") -> None:
        super().__init__()
        self.title_text, self.role, self.submit, self.account = title, role, submit, account

    def fields(self) -> list[tuple[str, str, str, bool]]:
        digits = min_digits(self.role)
        pins = [("pin", _("PIN"), _("{digits} to {most} digits", digits=digits, most=MAX_DIGITS), True),
                ("pin2", _("PIN again"), "", True)]
        if self.account:
            return pins
        return [("account", _("Account ID"), _("as on the badge, e.g. D7"), False),
                ("name", _("Name"), _("the person's name"), False), *pins]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.title_text, classes="title")
            yield Static(_("The person types their own PIN ({digits}+ digits), twice; nobody else needs to know it.",
                           digits=min_digits(self.role)), classes="hint")
            for field_id, label, placeholder, secret in self.fields():
                with Horizontal(classes="row"):
                    yield Label(label)
                    yield Input(placeholder=placeholder, password=secret, id=field_id,
                                max_length=MAX_DIGITS if secret else 80)
            yield Static("", id="account-error", classes="error")
            yield Static(_("Enter goes on · Esc backs out (nothing is recorded)"), classes="hint")

    def on_mount(self) -> None:
        self.query_one(f"#{self.fields()[0][0]}", Input).focus()

    def action_cancel(self) -> None:
        self.dismiss(False)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        order = [f[0] for f in self.fields()]
        values = {f: self.query_one(f"#{f}", Input).value for f in order}
        error = self.query_one("#account-error", Static)
        at = order.index(event.input.id or order[0])
        if event.input.id in ("account", "name") and not values[event.input.id].strip():
            error.update(_("Type the account ID, then Enter.") if event.input.id == "account"
                         else _("Type the person's name, then Enter."))
            return
        if event.input.id == "pin":
            problem = pin_problem(values["pin"], self.role)
            if problem is not None:
                self._refused(_("{problem}: choose another PIN and type it in both fields.", problem=told(problem)))
                return
        if at + 1 < len(order):
            error.update("")
            self.query_one(f"#{order[at + 1]}", Input).focus()
            return
        if values["pin"] != values["pin2"]:
            self._refused(_("The two PINs differ: type the PIN again, in both fields."))
            return
        refused = self.submit(values)
        if refused:
            self._refused(refused, to_id=not self.account and "PIN" not in refused)
            return
        self.dismiss(True)

    def _refused(self, why: str, to_id: bool = False) -> None:
        self.query_one("#account-error", Static).update(why[:1].upper() + why[1:])
        for field_id in ("pin", "pin2"):
            self.query_one(f"#{field_id}", Input).value = ""
        self.query_one("#account" if to_id else "#pin", Input).focus()


class StaffScreen(Screen[None]):
    """Every account of the ledger, for the manager who signed in (`approval`)."""

    CSS_PATH = "floor.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "add", N_("Add an account")), Binding("r", "role", N_("Role")), Binding("p", "pin", N_("New PIN")),
        Binding("g", "language", N_("Language")),
        Binding("d", "disable", N_("Disable")), Binding("u", "unlock", N_("Lift a lock-out")),
        Binding("escape", "back", N_("Done (signs out)"))]

    def __init__(self, desk: StaffDesk, approval: Approval, *, idle_s: float = IDLE_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.desk, self.approval = desk, approval
        self.idle_s, self.clock = idle_s, clock
        self.last_key = clock()
        self.accounts: list[Account] = []

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield Static("", id="staff-status")
        yield DataTable(id="staff-table", zebra_stripes=True, cursor_type="row")
        yield Static("", id="staff-detail", markup=False)
        yield ScreenKeys()

    def on_mount(self) -> None:
        self.title = _("Staff accounts — {manager}", manager=self.approval.describe())
        table = self.query_one(DataTable)
        table.add_columns(_("ID"), _("Name"), _("Role"), _("Language"), _("State"))
        table.focus()
        self.reload()
        self.set_interval(5.0, self.idle_check)

    def on_key(self, event: events.Key) -> None:
        self.last_key = self.clock()

    def on_screen_resume(self) -> None:
        self.last_key = self.clock()  # back from a dialog: the manager was there

    def idle_check(self) -> None:
        if self.app.screen is self and self.clock() - self.last_key >= self.idle_s:
            self.notify(_("The staff accounts closed after {seconds} s without a key: {name} is signed out of them.",
                          seconds=int(self.idle_s), name=self.approval.name), timeout=10)
            self.dismiss(None)

    def reload(self, select: str = "") -> None:
        register = self.desk.register()
        self.accounts = sorted(register.accounts.values(), key=lambda a: (ROLES.index(a.role), a.id))
        table = self.query_one(DataTable)
        table.clear()
        for account in self.accounts:
            table.add_row(account.id, account.name, role_name(account.role), LANGUAGES.get(account.language, "-"),
                          self._state(account))
        if select:
            at = next((i for i, a in enumerate(self.accounts) if a.id == select), 0)
            table.move_cursor(row=at)
        self.query_one("#staff-status", Static).update(staffing_text(self.accounts))
        self._detail(table.cursor_row)

    def _state(self, account: Account) -> str:
        if not account.active:
            return _("disabled")
        locked = self.desk.locked_for(account.id)
        return _("locked {seconds} s", seconds=locked) if locked else _("active")

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._detail(event.cursor_row)

    def _detail(self, row: int) -> None:
        account = self._at(row)
        self.query_one("#staff-detail", Static).update(
            "" if account is None else _("{account} {does}.", account=described(account), does=_(ROLE_DOES[account.role])))

    def _at(self, row: int) -> Account | None:
        return self.accounts[row] if 0 <= row < len(self.accounts) else None

    def _selected(self) -> Account | None:
        account = self._at(self.query_one(DataTable).cursor_row)
        if account is None:
            self.notify(_("No account is selected: a adds one."), severity="warning")
        return account

    def _record(self, change: Callable[[], None], done: str, select: str = "") -> str:
        """Make a change; what refused it ("" done), the screen read again either way."""
        try:
            change()
        except (StaffError, LedgerError) as exc:
            problem = told_error(exc)
            return _("{problem}. Nothing was changed.", problem=problem[:1].upper() + problem[1:])
        self.notify(_("{done} (by {manager}).", done=done, manager=self.approval.describe()))
        self.reload(select)
        return ""

    def action_add(self) -> None:
        def role_chosen(key: str | None) -> None:
            role = dict(ROLE_KEYS).get(key or "")
            if role is None:
                return

            def submit(values: dict[str, str]) -> str:
                account, name = values["account"].strip(), values["name"].strip()
                return self._record(lambda: self.desk.add(account, name, role, values["pin"], self.approval),
                                    _("{name} ({account}) is added as {role}", name=name, account=account,
                                      role=told(article(role))), account)
            self.app.push_screen(AccountModal(_("A new {role}'s account", role=role_name(role)), role, submit))

        ask_over(self.app, ChoiceDialog(_("Add an account: which role?"),
                                       [(k, f"{role_name(r)} — {_(ROLE_DOES[r])}") for k, r in ROLE_KEYS]), role_chosen)

    def action_role(self) -> None:
        account = self._selected()
        if account is None:
            return

        def chosen(key: str | None) -> None:
            role = dict(ROLE_KEYS).get(key or "")
            if role is None or role == account.role:
                return
            refused = self._record(lambda: self.desk.set_role(account.id, role, self.approval),
                                   _("{account} is {role} now", account=account.id, role=told(article(role))),
                                   account.id)
            if refused:
                self.notify(refused, severity="error", timeout=10)

        ask_over(self.app, ChoiceDialog(_("{account}: which role from now on?", account=described(account)),
                                       [(k, role_name(r)) for k, r in ROLE_KEYS if r != account.role]), chosen)

    def action_language(self) -> None:
        """The language the selected account reads (the terminal's, until one is chosen)."""
        account = self._selected()
        if account is None:
            return
        keys = {"e": "en", "h": "hu", "p": "pl", "r": "ru", "t": ""}

        def chosen(key: str | None) -> None:
            language = keys.get(key or "")
            if language is None or language == account.language:
                return
            said = LANGUAGES.get(language) or _("the terminal's language")
            refused = self._record(lambda: self.desk.set_language(account.id, language, self.approval),
                                   _("{account} reads {language} now", account=account.id, language=said), account.id)
            if refused:
                self.notify(refused, severity="error", timeout=10)

        ask_over(self.app, ChoiceDialog(_("{account}: which language does the account read?",
                                         account=described(account)),
                                       [(k, LANGUAGES.get(code) or _("the terminal's language")) for k, code in keys.items()
                                        if code != account.language]), chosen)

    def action_pin(self) -> None:
        account = self._selected()
        if account is None:
            return

        def submit(values: dict[str, str]) -> str:
            return self._record(lambda: self.desk.set_pin(account.id, values["pin"], self.approval),
                                _("The PIN of {account} is changed", account=account.id), account.id)
        self.app.push_screen(AccountModal(_("A new PIN for {account}", account=described(account)), account.role, submit,
                                          account=account.id))

    def action_disable(self) -> None:
        account = self._selected()
        if account is None:
            return

        def check(reason: str) -> str | None:
            return self._record(lambda: self.desk.disable(account.id, self.approval, reason),
                                _("{account} is disabled", account=account.id), account.id) or None
        ask_over(self.app, ReasonDialog(_("Disable {account}: it may not sign in any more (its records stay). Why?",
                                          account=described(account)), _("e.g. left the casino"), check=check))

    def action_unlock(self) -> None:
        account = self._selected()
        if account is None:
            return
        if not self.desk.locked_for(account.id):
            self.notify(_("{account} is not locked out: nothing to lift.", account=described(account)),
                        severity="warning")
            return

        def check(reason: str) -> str | None:
            return self._record(lambda: self.desk.unlock(account.id, self.approval, reason),
                                _("The lock-out of {account} is lifted", account=account.id), account.id) or None
        ask_over(self.app, ReasonDialog(_("Lift the lock-out of {account} before it runs out. Why?",
                                          account=described(account)), _("e.g. identity checked in person"),
                                        check=check))

    def action_back(self) -> None:
        self.dismiss(None)
