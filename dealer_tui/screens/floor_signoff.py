"""The sign-off queue: payouts the dealers sent to the floor, waiting for the supervisor. Approve
(a) or refuse with a reason (d); each decision is the supervisor's (PIN) and lands in the ledger
as an event of the round, on that table's hash chain."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from dealer_tui.events import EventError, typed_as
from dealer_tui.events.staff import Claim
from dealer_tui.events.table import SignOffRequested
from dealer_tui.ledger import Ledger, LedgerError
from dealer_tui.ledger.base import PendingSignOff
from dealer_tui.rounds.table import round_dealers
from dealer_tui.screens.floor_names import TableNames
from dealer_tui.screens.reason_modal import ReasonModal
from dealer_tui.screens.sign_in_modal import SignInModal
from dealer_tui.staff import MAY, SIGN_OFF, Approval, Purpose, StaffDesk, claim_problem
from dealer_tui.widgets.screen_keys import ScreenKeys

POLL_SECONDS = 2.0


@dataclass
class SignOffDesk:
    """Who reviews: the account that signed in to the floor, and the staff desk (on a ledger the
    floor may write) where each decision's own sign-in is recorded. An auditor reads, and
    decides nothing."""

    staff: StaffDesk
    user: Approval

    @property
    def read_only(self) -> bool:
        return self.user.role not in MAY[SIGN_OFF]


class SignOffScreen(Screen[None]):
    CSS_PATH = "floor.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "approve", "Approve"),
        Binding("d", "refuse", "Refuse (reason)"),
        Binding("r", "reload", "Refresh"),
        Binding("escape,q", "back", "Back to the list"),
    ]

    def __init__(self, ledger: Ledger, desk: SignOffDesk, tables: TableNames) -> None:
        super().__init__()
        self.ledger, self.desk, self.tables = ledger, desk, tables
        self.waiting: list[PendingSignOff] = []

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield Static(id="signoff-status")
        yield DataTable(id="signoff-table", zebra_stripes=True, cursor_type="row")
        yield ScreenKeys()

    def on_mount(self) -> None:
        self.title = "Sign-off queue"
        self.query_one(DataTable).add_columns("Round id", "Sent", "Table", "Round", "Game", "Seats", "Payouts",
                                              "Chips paid", "Threshold")
        self.load()
        self.set_interval(POLL_SECONDS, self._poll)

    def load(self) -> None:
        try:
            self.waiting = self.ledger.sign_off_queue()
        except LedgerError as exc:
            self.query_one("#signoff-status", Static).update(str(exc))
            return
        table = self.query_one(DataTable)
        table.clear()
        for w in self.waiting:
            try:
                request = typed_as(SignOffRequested, w.request)
            except EventError:  # a request that does not read: listed by round, verify names why
                table.add_row(str(w.round.id), w.request.ts[:19].replace("T", " "), self.tables.name(w.round.table_id),
                              str(w.round.number), w.round.game, "?", "(the request does not read)", "", "",
                              key=str(w.round.id))
                continue
            big = request.big_payouts
            payouts = ", ".join(f"seat {s} {v}" for s, v in sorted(big.items(), key=lambda i: int(i[0])))
            table.add_row(str(w.round.id), w.request.ts[:19].replace("T", " "), self.tables.name(w.round.table_id),
                          str(w.round.number), w.round.game, ", ".join(str(s) for s in request.seats), payouts,
                          str(request.paid), str(request.threshold), key=str(w.round.id))
        count = len(self.waiting)
        self.query_one("#signoff-status", Static).update(
            f"{count} payout{'s' if count != 1 else ''} waiting for the supervisor" if count
            else "No payout is waiting for the supervisor.")

    def _poll(self) -> None:
        try:
            waiting = self.ledger.sign_off_queue()
        except LedgerError as exc:  # a pit server away: said, looked for again at the next poll
            self.query_one("#signoff-status", Static).update(str(exc))
            return
        if [w.request.id for w in waiting] != [w.request.id for w in self.waiting]:
            self.load()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """An auditor's queue offers no decision."""
        return not (action in ("approve", "refuse") and self.desk.read_only)

    def _selected(self) -> PendingSignOff | None:
        row = self.query_one(DataTable).cursor_row
        if not self.waiting or row is None or not 0 <= row < len(self.waiting):
            self.notify("No payout is waiting.", severity="warning")
            return None
        return self.waiting[row]

    def _as_supervisor(self, pending: PendingSignOff, purpose: str, then: Callable[[Approval], None]) -> None:
        if self.desk.read_only:
            self.notify(f"{self.desk.user.describe()} is an {self.desk.user.role}: the floor is read-only for them.",
                        severity="warning", timeout=6)
            return
        record = pending.round
        where = Purpose(SIGN_OFF, f"{purpose} at table {self.tables.name(record.table_id)}", record.table_id,
                        record.number, signs=str(pending.request.payload.get("figures", "")))

        def signed(approval: Approval | None) -> None:
            if approval is None:
                return
            problem = claim_problem(self.desk.staff.register(), Claim(SIGN_OFF, approval.account, approval.sign_in),
                                    table=record.table_id, round=record.number,
                                    dealers=round_dealers(self.ledger, record))
            if problem is not None:
                self.notify(f"Round {record.number}: {problem}.", severity="error", timeout=8)
                return
            then(approval)

        self.app.push_screen(SignInModal(self.desk.staff, where, self.desk.user.account), signed)

    def _decide(self, pending: PendingSignOff, approved: bool, by: Approval, reason: str = "") -> None:
        try:
            self.desk.staff.ledger.decide_sign_off(pending.round.id, approved, by.account, reason, by.sign_in)
        except LedgerError as exc:
            self.notify(str(exc), severity="error", timeout=6)
        else:
            what = "approved" if approved else "refused"
            self.notify(f"Round {pending.round.number}: payout {what} by {by.describe()}; the dealer's screen "
                        "shows it.")
        self.load()

    def action_approve(self) -> None:
        pending = self._selected()
        if pending is not None:
            self._as_supervisor(pending, f"approve the payout of round {pending.round.number}",
                                lambda who: self._decide(pending, True, who))

    def action_refuse(self) -> None:
        pending = self._selected()
        if pending is None:
            return
        number = pending.round.number

        def reasoned(who: Approval) -> None:
            self.app.push_screen(ReasonModal(f"Refuse the payout of round {number}: why?", "e.g. recount the chips"),
                                 lambda reason: self._decide(pending, False, who, reason) if reason else None)

        self._as_supervisor(pending, f"refuse the payout of round {number}", reasoned)

    def action_reload(self) -> None:
        self.load()

    def action_back(self) -> None:
        self.app.pop_screen()
