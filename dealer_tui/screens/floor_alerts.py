"""The floor's alerts (`!` on the rounds list): every alert nobody has acknowledged, oldest first,
read again every few seconds; `a` acknowledges the one under the cursor with the supervisor's own
PIN and a word on what was found (recorded by name). An auditor reads them and acknowledges none."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from dealer_tui.accounting.alerts import KINDS, Alert, acknowledge, open_alerts
from dealer_tui.accounting.report import shown
from dealer_tui.accounting.theoretical import Theory
from dealer_tui.language import N_, _, n_, told, told_error
from dealer_tui.ledger import Ledger
from dealer_tui.ledger.base import LedgerError
from dealer_tui.screens.dialog import ask_over
from dealer_tui.screens.reason_dialog import ReasonDialog
from dealer_tui.screens.sign_in_modal import SignInModal
from dealer_tui.staff import ACKNOWLEDGE, MAY, Approval, Purpose
from dealer_tui.widgets.screen_keys import ScreenKeys
from rules.errors import RulesError
from rules.said import Said, as_said, say

if TYPE_CHECKING:
    from dealer_tui.screens.floor_signoff import SignOffDesk

POLL_SECONDS = 5.0
NEXT_STEP = {
    "big payout": N_("s opens the sign-off queue: the payout is decided there, and its approval closes this alert."),
    "refusal overridden": N_("the round's story (Enter on the rounds list) shows the manager's reason beside the "
                             "refusal."),
    "voids": N_("the rounds list with the voided flag shows each void's reason and who approved it."),
    "over-cap raise": N_("the round's story shows the raise and the cap it passed."),
    "PIN lock-out": N_("the account stays locked until the lock-out ends or a manager resets its PIN."),
    "hold outside its band": N_("the shifts screen shows the shift's drop, win and hold beside the band."),
    "closer difference": N_("the shifts screen shows the counted closer beside the tray's expected figure."),
    "drop difference": N_("the shifts screen shows the counted drop beside the cash and markers recorded."),
    "currency transaction": N_("the cash log (the report's CSV) lists every transaction of the player's day."),
    "refused delivery": N_("the pit refused what a terminal sent: the terminal's own verify names the event."),
    "late delivery": N_("a round reached the pit after its shift was counted: check the shift's figures again."),
    "table offline": N_("the table has not reached the pit since the time shown: its rounds arrive when it does."),
}
"""What a supervisor looks at next for each kind of alert (shown under the list)."""


def kind_said(kind: str) -> Said:
    """A kind of alert as a sentence's part: named in the reader's language when told."""
    return say(KINDS[kind]) if kind in KINDS else Said.literal(kind)


def kind_word(kind: str) -> str:
    """A kind of alert as the floor names it in the reader's language."""
    return told(kind_said(kind))


class AlertsScreen(Screen[None]):
    CSS_PATH = "floor.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("a", "acknowledge", N_("Acknowledge")),
                                             Binding("r", "reload", N_("Refresh")),
                                             Binding("escape,q", "back", N_("Back to the list"))]

    def __init__(self, ledger: Ledger, desk: SignOffDesk | None, theory: Theory) -> None:
        super().__init__()
        self.ledger, self.desk = ledger, desk
        self.theory = theory
        self.alerts: list[Alert] = []

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield Static(_("Reading the alerts…"), id="alerts-status")
        yield DataTable(id="alerts-table", zebra_stripes=True, cursor_type="row")
        yield Static("", id="alert-detail", markup=False)
        yield ScreenKeys()

    def on_mount(self) -> None:
        self.title = _("Alerts: kept until a supervisor acknowledges each")
        self.query_one(DataTable).add_columns(_("When (UTC)"), _("Alert"), _("Table"), _("What"), _("Id"))
        self.query_one(DataTable).focus()
        self.action_reload()
        self.set_interval(POLL_SECONDS, self.action_reload)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "acknowledge":
            return self.desk is not None and self.desk.user.role in MAY[ACKNOWLEDGE]
        return True

    def action_reload(self) -> None:
        self.run_worker(self._read, thread=True, exclusive=True, group="alerts")

    def _read(self) -> None:
        try:
            found = open_alerts(self.ledger, self.theory)
        except LedgerError as exc:
            self.app.call_from_thread(self._status, Text(_("The alerts cannot be read: {problem}",
                                                           problem=told_error(exc)), style="red"))
            return
        self.app.call_from_thread(self._show, found)

    def _status(self, text: Text | str) -> None:
        self.query_one("#alerts-status", Static).update(text)

    def _show(self, found: list[Alert]) -> None:
        if [a.id for a in found] == [a.id for a in self.alerts] and self.alerts:
            return  # nothing new: the cursor stays where it is
        self.alerts = found
        table = self.query_one(DataTable)
        table.clear()
        for a in found:
            table.add_row(a.at[:19].replace("T", " "), kind_word(a.kind), shown(a.table), shown(told(a.text)), a.id)
        self._detail(table.cursor_row)
        if not found:
            said = _("No alert is open.")
        elif self.check_action("acknowledge", ()):
            said = n_("{count} alert(s) open", "{count} alert(s) open", len(found))
        else:
            said = n_("{count} alert(s) open (read only: acknowledged by a supervisor)",
                      "{count} alert(s) open (read only: acknowledged by a supervisor)", len(found))
        self._status(Text(said, style="bold red" if found else ""))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._detail(event.cursor_row)

    def _detail(self, row: int) -> None:
        """The alert under the cursor in full: the list's What column cuts a long text."""
        detail = self.query_one("#alert-detail", Static)
        if not 0 <= row < len(self.alerts):
            detail.update("")
            return
        a = self.alerts[row]
        at, kind, text = a.at[:19].replace("T", " "), kind_word(a.kind), told(a.text)
        said = (_("{kind} at {table}, {at} UTC: {text}", kind=kind, table=a.table, at=at, text=text) if a.table
                else _("{kind}, {at} UTC: {text}", kind=kind, at=at, text=text))
        step = NEXT_STEP.get(a.kind)
        if step is not None:
            said += "\n" + _("Next: {step}", step=_(step))
        detail.update(said + "\n" + _("(alert {id})", id=a.id))

    def action_acknowledge(self) -> None:
        if self.desk is None or not self.alerts:
            return
        row = self.query_one(DataTable).cursor_row
        if not 0 <= row < len(self.alerts):
            return
        alert = self.alerts[row]
        desk = self.desk
        what = (say("{kind} at {table}: {text}", kind=kind_said(alert.kind), table=alert.table, text=as_said(alert.text))
                if alert.table else say("{kind}: {text}", kind=kind_said(alert.kind), text=as_said(alert.text)))

        def signed(approval: Approval | None) -> None:
            if approval is None:
                return

            def noted(note: str | None) -> None:
                if not note:
                    return
                try:
                    acknowledge(desk.staff.ledger, alert.id, approval, note, self.theory)
                except (RulesError, LedgerError) as exc:
                    self.notify(told_error(exc), severity="error", timeout=10)
                    return
                self.notify(_("Alert acknowledged by {account}.", account=approval.describe()))
                self.alerts = []
                self.action_reload()

            ask_over(self.app, ReasonDialog(_("{what}. What was found?", what=told(what)),
                                            _("e.g. paid as settled, checked")), noted)

        self.app.push_screen(SignInModal(desk.staff, Purpose(ACKNOWLEDGE, say("acknowledge the alert {id} ({what})",
                                                                              id=alert.id, what=what)),
                                         account=desk.user.account), signed)

    def action_back(self) -> None:
        self.app.pop_screen()
