"""Signing in by account ID and PIN, for one act: the dialog dismisses with the `Approval` the
staff register recorded, or None. Three wrong PINs lock the account for five minutes on every
terminal and the floor."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from dealer_tui.language import LANGUAGES, N_, _, current, told, told_error, use
from dealer_tui.ledger import LedgerError
from dealer_tui.screens.wording import sentence
from dealer_tui.staff import (
    MAX_TRIES,
    SET_LANGUAGE,
    Approval,
    Purpose,
    SignInRefused,
    StaffDesk,
    StaffError,
)
from dealer_tui.staff.authority import roles_text
from dealer_tui.staff.pins import MAX_DIGITS, SHORT, min_digits, pin_problem, renewal_text
from rules.said import say

LANGUAGE_ORDER = tuple(LANGUAGES)
"""The languages F2 steps through."""


class SignInModal(ModalScreen[Approval | None]):
    CSS_PATH = "modal.tcss"
    BINDINGS = [Binding("escape", "cancel", N_("Back")), Binding("f2", "language", N_("Language"))]

    def __init__(self, desk: StaffDesk, purpose: Purpose, account: str = "", *,
                 check: Callable[[Approval], str | None] | None = None, hint: str | None = None,
                 account_check: Callable[[str], str | None] | None = None,
                 sign: Callable[[str, str], Approval] | None = None) -> None:
        """`check` may refuse the one who signed in for this step (the problem, said in the dialog,
        which stays for someone else), `account_check` an account ID before its PIN is asked;
        `hint` says who signs in, in place of the act's roles; `sign` checks the ID and PIN in place
        of a sign-in on `desk` (a pit manager's confirmation)."""
        super().__init__()
        self.desk, self.purpose, self.account = desk, purpose, account
        self.check, self.hint, self.account_check, self.sign = check, hint, account_check, sign
        self.language = ""
        """The language chosen here with F2: the one signing in reads it from now on (their
        account keeps it, changed with the same PIN); "": as their account says."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(id="sign-in-title", classes="title")
            yield Static(id="sign-in-who", classes="hint")
            with Horizontal(classes="row"):
                yield Label(id="account-label")
                yield Input(value=self.account, id="account", max_length=32)
            with Horizontal(classes="row"):
                yield Label(id="pin-label")
                yield Input(password=True, id="pin", max_length=MAX_DIGITS)
            yield Static("", id="pin-error", classes="error")
            yield Static(id="sign-in-keys", classes="hint")

    def on_mount(self) -> None:
        self._word()
        self.query_one("#pin" if self.account else "#account", Input).focus()

    def _word(self) -> None:
        """The dialog's words in the language shown now."""
        self.query_one("#sign-in-title", Static).update(_("Sign in to {purpose}", purpose=told(self.purpose.text)))
        self.query_one("#sign-in-who", Static).update(
            told(self.hint) if self.hint else
            sentence(_("{who} signs in with their own ID and PIN.", who=told(roles_text(self.purpose.act)))))
        self.query_one("#account-label", Label).update(_("Account ID"))
        self.query_one("#account", Input).placeholder = _("your ID, as on your badge")
        self.query_one("#pin-label", Label).update(_("PIN"))
        self.query_one("#pin", Input).placeholder = _("your PIN")
        self.query_one("#sign-in-keys", Static).update(
            _("Enter goes on · Esc backs out · {tries} wrong PINs lock the account for 5 minutes", tries=MAX_TRIES)
            + (" · " + _("F2 language: {language}", language=current().name) if self.sign is None else ""))

    def action_language(self) -> None:
        """The next language (F2): this dialog at once, and the one signing in from now on (their
        account keeps it once their PIN goes through)."""
        if self.sign is not None:  # a pit manager's confirmation: no account of this terminal to keep it
            return
        self.language = LANGUAGE_ORDER[(LANGUAGE_ORDER.index(current().code) + 1) % len(LANGUAGE_ORDER)]
        use(self.language)
        self._word()
        self.query_one("#pin-error", Static).update("")

    def _keep_language(self, approval: Approval, pin: str) -> None:
        """The language chosen with F2 kept as the account's own, with a sign-in of its own for it
        (the same PIN, recorded and signed like any change of the account); said when it cannot be."""
        account = self.desk.register().accounts.get(approval.account)
        if not self.language or account is None or account.language == self.language:
            return
        try:
            own = self.desk.sign_in(approval.account, pin,
                                    Purpose(SET_LANGUAGE, say("read {language}", language=LANGUAGES[self.language])))
            self.desk.set_language(approval.account, self.language, own)
        except (SignInRefused, StaffError, LedgerError) as exc:
            self.app.notify(_("The language is shown, not kept for {account}: {problem}", account=approval.account,
                              problem=told_error(exc)), severity="warning", timeout=8)

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        account = self.query_one("#account", Input)
        pin = self.query_one("#pin", Input)
        error = self.query_one("#pin-error", Static)
        refused = self.account_check(account.value.strip()) if self.account_check is not None else None
        if event.input is account or refused:
            if not account.value.strip():
                error.update(_("Type the account ID, then Enter."))
                return
            if refused:  # refused before its PIN is typed: no try of that account spent
                pin.value = ""
                if event.input is account:
                    error.update(sentence(told(refused)))
                    pin.focus()  # a PIN typed ahead lands hidden, and its Enter is refused the same way
                else:
                    self._another(account, sentence(told(refused)))
                return
            error.update("")
            pin.focus()
            return
        if not account.value.strip():
            error.update(_("Type the account ID first."))
            account.focus()
            return
        try:
            approval = (self.sign(account.value, pin.value) if self.sign is not None
                        else self.desk.sign_in(account.value, pin.value, self.purpose))
        except SignInRefused as exc:
            pin.value = ""
            if str(exc).startswith(("wrong ID or PIN", "type the PIN")):
                error.update(sentence(told_error(exc)))
            else:  # not this account's to sign (its role, a lock-out): someone else's next
                self._another(account, sentence(told_error(exc)))
            return
        except LedgerError as exc:
            error.update(_("The sign-in could not be recorded: {problem}", problem=told_error(exc)))
            pin.value = ""
            return
        problem = self.check(approval) if self.check is not None else None
        if problem:
            pin.value = ""
            self._another(account, sentence(told(problem)))
            return
        if approval.renew_pin and self.sign is None and not self.desk.register().attached:
            old = pin.value

            def renewed(done: bool | None) -> None:
                if done:
                    self.dismiss(approval)
                else:
                    error.update(_("{account} chooses a new PIN before going on.", account=approval.describe()))
                    pin.value = ""
            self.app.push_screen(RenewPinModal(self.desk, approval.account, approval.role, old, approval.renew_pin),
                                 renewed)
            return
        if self.sign is None:
            self._keep_language(approval, pin.value)
        self.dismiss(approval)

    def _another(self, account: Input, refused: str) -> None:
        """The refusal said, and the ID field again, emptied: the next key types another account's
        ID (never a PIN into the field of the account refused)."""
        account.value = ""
        account.focus()
        self.query_one("#pin-error", Static).update(
            _("{refused} Another account signs in here: its ID, then its PIN (Esc: back).", refused=refused))




class RenewPinModal(ModalScreen[bool]):
    """An account asked for a new PIN (shorter than its role now asks for, or readable where
    others read the register) chooses one (twice) before its sign-in goes on; Esc backs out (the
    sign-in does not go on)."""

    CSS_PATH = "modal.tcss"
    BINDINGS = [Binding("escape", "cancel", N_("Back"))]

    def __init__(self, desk: StaffDesk, account: str, role: str, old_pin: str, why: str = SHORT) -> None:
        super().__init__()
        self.desk, self.account, self.role, self.old_pin, self.why = desk, account, role, old_pin, why

    def compose(self) -> ComposeResult:
        digits = min_digits(self.role)
        with Vertical(classes="dialog"):
            yield Static(_("{account}: choose a longer PIN", account=self.account) if self.why == SHORT
                         else _("{account}: choose a new PIN", account=self.account), classes="title")
            yield Static(_("{why}. Type the new PIN ({least} to {most} digits) twice.",
                           why=sentence(told(renewal_text(self.why, self.role))).rstrip("."), least=digits,
                           most=MAX_DIGITS), classes="hint")
            with Horizontal(classes="row"):
                yield Label(_("New PIN"))
                yield Input(placeholder=_("{least}+ digits", least=digits), password=True, id="new",
                            max_length=MAX_DIGITS)
            with Horizontal(classes="row"):
                yield Label(_("Again"))
                yield Input(password=True, id="again", max_length=MAX_DIGITS)
            yield Static("", id="renew-error", classes="error")
            yield Static(_("Enter goes on · Esc backs out"), classes="hint")

    def on_mount(self) -> None:
        self.query_one("#new", Input).focus()

    def action_cancel(self) -> None:
        self.dismiss(False)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        new, again = self.query_one("#new", Input), self.query_one("#again", Input)
        error = self.query_one("#renew-error", Static)
        problem = pin_problem(new.value, self.role)
        if problem is not None:
            error.update(_("{problem}: choose another.", problem=told(problem)))
            new.value = again.value = ""
            new.focus()
            return
        if event.input is new:
            again.focus()
            return
        if again.value != new.value:
            error.update(_("The two PINs differ: type the new PIN again, twice."))
            new.value = again.value = ""
            new.focus()
            return
        try:
            self.desk.renew_pin(self.account, self.old_pin, new.value)
        except (SignInRefused, StaffError, LedgerError) as exc:
            error.update(_("The PIN is not changed: {problem}.", problem=told_error(exc)))
            new.value = again.value = ""
            new.focus()
            return
        self.dismiss(True)
