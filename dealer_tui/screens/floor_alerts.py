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

from dealer_tui.accounting.alerts import Alert, acknowledge, open_alerts
from dealer_tui.accounting.report import shown
from dealer_tui.accounting.theoretical import Theory
from dealer_tui.language import N_, told_error
from dealer_tui.ledger import Ledger
from dealer_tui.ledger.base import LedgerError
from dealer_tui.screens.dialog import ask_over
from dealer_tui.screens.reason_dialog import ReasonDialog
from dealer_tui.screens.sign_in_modal import SignInModal
from dealer_tui.staff import ACKNOWLEDGE, MAY, Approval, Purpose
from dealer_tui.widgets.screen_keys import ScreenKeys
from rules.errors import RulesError

if TYPE_CHECKING:
    from dealer_tui.screens.floor_signoff import SignOffDesk

POLL_SECONDS = 5.0
NEXT_STEP = {
    "big payout": "s opens the sign-off queue: the payout is decided there, and its approval closes this alert.",
    "refusal overridden": "the round's story (Enter on the rounds list) shows the manager's reason beside the refusal.",
    "voids": "the rounds list with the voided flag shows each void's reason and who approved it.",
    "over-cap raise": "the round's story shows the raise and the cap it passed.",
    "PIN lock-out": "the account stays locked until the lock-out ends or a manager resets its PIN.",
    "hold outside its band": "the shifts screen shows the shift's drop, win and hold beside the band.",
    "closer difference": "the shifts screen shows the counted closer beside the tray's expected figure.",
    "drop difference": "the shifts screen shows the counted drop beside the cash and markers recorded.",
    "currency transaction": "the cash log (the report's CSV) lists every transaction of the player's day.",
    "refused delivery": "the pit refused what a terminal sent: the terminal's own verify names the event.",
    "late delivery": "a round reached the pit after its shift was counted: check the shift's figures again.",
    "table offline": "the table has not reached the pit since the time shown: its rounds arrive when it does.",
}
"""What a supervisor looks at next for each kind of alert (shown under the list)."""


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
        yield Static("Reading the alerts…", id="alerts-status")
        yield DataTable(id="alerts-table", zebra_stripes=True, cursor_type="row")
        yield Static("", id="alert-detail", markup=False)
        yield ScreenKeys()

    def on_mount(self) -> None:
        self.title = "Alerts: kept until a supervisor acknowledges each"
        self.query_one(DataTable).add_columns("When (UTC)", "Alert", "Table", "What", "Id")
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
            self.app.call_from_thread(self._status, Text(f"The alerts cannot be read: {exc}", style="red"))
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
            table.add_row(a.at[:19].replace("T", " "), a.kind, shown(a.table), shown(a.text), a.id)
        self._detail(table.cursor_row)
        reader = "" if self.check_action("acknowledge", ()) else " (read only: acknowledged by a supervisor)"
        self._status(Text(f"{len(found)} alert(s) open{reader}" if found else "No alert is open.",
                          style="bold red" if found else ""))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._detail(event.cursor_row)

    def _detail(self, row: int) -> None:
        """The alert under the cursor in full: the list's What column cuts a long text."""
        detail = self.query_one("#alert-detail", Static)
        if not 0 <= row < len(self.alerts):
            detail.update("")
            return
        a = self.alerts[row]
        where = f" at {a.table}" if a.table else ""
        step = NEXT_STEP.get(a.kind, "")
        detail.update(f"{a.kind}{where}, {a.at[:19].replace('T', ' ')} UTC: {a.text}"
                      + (f"\nNext: {step}" if step else "") + f"\n(alert {a.id})")

    def action_acknowledge(self) -> None:
        if self.desk is None or not self.alerts:
            return
        row = self.query_one(DataTable).cursor_row
        if not 0 <= row < len(self.alerts):
            return
        alert = self.alerts[row]
        desk = self.desk
        what = f"{alert.kind}{' at ' + alert.table if alert.table else ''}: {alert.text}"

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
                self.notify(f"Alert acknowledged by {approval.describe()}.")
                self.alerts = []
                self.action_reload()

            ask_over(self.app, ReasonDialog(f"{what}. What was found?", "e.g. paid as settled, checked"), noted)

        self.app.push_screen(SignInModal(desk.staff, Purpose(ACKNOWLEDGE, f"acknowledge the alert {alert.id} ({what})"),
                                         account=desk.user.account), signed)

    def action_back(self) -> None:
        self.app.pop_screen()
