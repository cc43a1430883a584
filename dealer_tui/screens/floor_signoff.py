"""The sign-off queue: payouts the dealers sent to the floor, waiting for the supervisor, each
with what its seats are paid and win. Enter opens the round: its cards, every payout line with
its reason, the dealer and the table's last rounds, and the decision from there. Approve (a) or
refuse with a reason (d); each decision is the supervisor's (PIN) and lands in the ledger as an
event of the round, on that table's hash chain."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from dealer_tui.audit.resettle import waiting_payout
from dealer_tui.events import EventError, typed_as
from dealer_tui.events.staff import Claim
from dealer_tui.events.table import SignOffRequested
from dealer_tui.language import N_, _, n_, number, told, told_error
from dealer_tui.ledger import Ledger, LedgerError
from dealer_tui.ledger.base import PendingSignOff
from dealer_tui.ledger.payouts import seat_chips
from dealer_tui.rounds.game import Games
from dealer_tui.rounds.table import round_dealers, table_called
from dealer_tui.screens.dialog import ask_over
from dealer_tui.screens.floor_names import TableNames
from dealer_tui.screens.floor_story import StoryScreen
from dealer_tui.screens.reason_dialog import ReasonDialog
from dealer_tui.screens.sign_in_modal import SignInModal
from dealer_tui.staff import MAY, SIGN_OFF, Approval, Purpose, StaffDesk, claim_problem
from dealer_tui.staff.authority import article
from dealer_tui.staff.pins import ROLE_NAMES
from dealer_tui.views import Presenter
from dealer_tui.widgets.screen_keys import ScreenKeys
from rules.said import Said, say

POLL_SECONDS = 2.0
COLUMNS = (N_("Table"), N_("Round"), N_("Sent (UTC)"), N_("Paid to the seats (stake back + win)"), N_("Seats' net win"),
           N_("Chips out"), N_("Game"), N_("Round id"))


def role_name(role: str) -> str:
    """A staff role as the reader's language names it (`supervisor`)."""
    return told(ROLE_NAMES.get(role, role))


def plus(value: int) -> str:
    """A net win with its sign always written (`+0`, `+1,500`, `-200`), grouped as the reader's
    language groups chips."""
    return f"{'-' if value < 0 else '+'}{number(abs(value))}"


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
        Binding("enter", "open", N_("The round")),
        Binding("a", "approve", N_("Approve")),
        Binding("d", "refuse", N_("Refuse (reason)")),
        Binding("r", "reload", N_("Refresh")),
        Binding("escape,q", "back", N_("Back to the list")),
    ]

    def __init__(self, ledger: Ledger, desk: SignOffDesk, tables: TableNames, games: Games[Presenter[Any]]) -> None:
        self.games = games
        super().__init__()
        self.ledger, self.desk, self.tables = ledger, desk, tables
        self.waiting: list[PendingSignOff] = []

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield Static(id="signoff-status")
        yield DataTable(id="signoff-table", zebra_stripes=True, cursor_type="row")
        yield ScreenKeys()

    def on_mount(self) -> None:
        self.title = _("Sign-off queue")
        self.query_one(DataTable).add_columns(*(_(column) for column in COLUMNS))
        self.load()
        self.set_interval(POLL_SECONDS, self._poll)

    def load(self) -> None:
        try:
            self.waiting = self.ledger.sign_off_queue()
        except LedgerError as exc:
            self.query_one("#signoff-status", Static).update(told_error(exc))
            return
        table = self.query_one(DataTable)
        table.clear()
        for w in self.waiting:
            name, sent = self.tables.name(w.round.table_id), w.request.ts[11:19]
            try:
                request = typed_as(SignOffRequested, w.request)
            except EventError:  # a request that does not read: listed by round, verify names why
                table.add_row(name, str(w.round.number), sent, _("(the request does not read)"), "", "", w.round.game,
                              str(w.round.id), key=str(w.round.id))
                continue
            big = sorted(request.big_payouts.items(), key=lambda i: int(i[0]))
            payouts = ", ".join(_("seat {seat} {chips}", seat=s, chips=number(v)) for s, v in big)
            nets = self._nets(w)
            net = ", ".join(_("seat {seat} {chips}", seat=s, chips=plus(nets[int(s)])) for s, _v in big
                            if int(s) in nets) or "—"
            table.add_row(name, str(w.round.number), sent, payouts, net, number(request.paid), w.round.game,
                          str(w.round.id), key=str(w.round.id))
        count = len(self.waiting)
        self.query_one("#signoff-status", Static).update(
            n_("{count} payout waiting for the supervisor", "{count} payouts waiting for the supervisor", count)
            if count else _("No payout is waiting for the supervisor."))

    def _nets(self, pending: PendingSignOff) -> dict[int, int]:
        """Each seat's net win in the waiting payout (what it is paid and gets back less what it
        put up), as the rules settle the round's events."""
        record = next((t for t in self.ledger.tables() if t.id == pending.round.table_id), None)
        outcome = waiting_payout(self.ledger, self.games, record, pending.round.id) if record is not None else None
        if outcome is None:
            return {}
        return {seat: c.payout + c.returned - c.wagered - c.from_stack for seat, c in seat_chips(outcome.rows).items()}

    def action_open(self) -> None:
        """The selected round's story, with the payout it waits on, and the decision from there."""
        pending = self._selected()
        if pending is not None:
            self.app.push_screen(SignOffStory(self, pending))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open()

    def _poll(self) -> None:
        try:
            waiting = self.ledger.sign_off_queue()
        except LedgerError as exc:  # a pit server away: said, looked for again at the next poll
            self.query_one("#signoff-status", Static).update(told_error(exc))
            return
        if [w.request.id for w in waiting] != [w.request.id for w in self.waiting]:
            self.load()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """An auditor's queue offers no decision."""
        return not (action in ("approve", "refuse") and self.desk.read_only)

    def _selected(self) -> PendingSignOff | None:
        row = self.query_one(DataTable).cursor_row
        if not self.waiting or row is None or not 0 <= row < len(self.waiting):
            self.notify(_("No payout is waiting."), severity="warning")
            return None
        return self.waiting[row]

    def _as_supervisor(self, pending: PendingSignOff, purpose: Said, then: Callable[[Approval], None]) -> None:
        if self.desk.read_only:
            self.notify(_("{account} is {role}: the floor is read-only for them.", account=self.desk.user.describe(),
                          role=told(article(self.desk.user.role))), severity="warning", timeout=6)
            return
        record = pending.round
        where = Purpose(SIGN_OFF, say("{what} at {table}", what=purpose,
                                      table=table_called(self.tables.name(record.table_id))),
                        record.table_id, record.number, signs=str(pending.request.payload.get("figures", "")))

        def signed(approval: Approval | None) -> None:
            if approval is None:
                return
            problem = claim_problem(self.desk.staff.register(), Claim(SIGN_OFF, approval.account, approval.sign_in),
                                    table=record.table_id, round=record.number,
                                    dealers=round_dealers(self.ledger, record))
            if problem is not None:
                self.notify(_("Round {number}: {problem}.", number=record.number, problem=told(problem)),
                            severity="error", timeout=8)
                return
            then(approval)

        self.app.push_screen(SignInModal(self.desk.staff, where, self.desk.user.account), signed)

    def _decide(self, pending: PendingSignOff, approved: bool, by: Approval, reason: str = "") -> None:
        try:
            self.desk.staff.ledger.decide_sign_off(pending.round.id, approved, by.account, reason, by.sign_in)
        except LedgerError as exc:
            self.notify(told_error(exc), severity="error", timeout=6)
        else:
            self.notify(_("Round {number}: payout approved by {account}; the dealer's screen shows it.",
                          number=pending.round.number, account=by.describe()) if approved else
                        _("Round {number}: payout refused by {account}; the dealer's screen shows it.",
                          number=pending.round.number, account=by.describe()))
        self.load()

    def action_approve(self) -> None:
        pending = self._selected()
        if pending is not None:
            self.approve(pending)

    def approve(self, pending: PendingSignOff, then: Callable[[], None] = lambda: None) -> None:
        def decided(who: Approval) -> None:
            self._decide(pending, True, who)
            then()
        self._as_supervisor(pending, say("approve the payout of round {number}", number=pending.round.number), decided)

    def action_refuse(self) -> None:
        pending = self._selected()
        if pending is not None:
            self.refuse(pending)

    def refuse(self, pending: PendingSignOff, then: Callable[[], None] = lambda: None) -> None:
        number = pending.round.number

        def decided(who: Approval, reason: str | None) -> None:
            if reason:
                self._decide(pending, False, who, reason)
                then()

        def reasoned(who: Approval) -> None:
            ask_over(self.app, ReasonDialog(_("Refuse the payout of round {number}: why?", number=number),
                                            _("e.g. recount the chips")),
                               lambda reason: decided(who, reason))

        self._as_supervisor(pending, say("refuse the payout of round {number}", number=number), reasoned)

    def action_reload(self) -> None:
        self.load()

    def action_back(self) -> None:
        self.app.pop_screen()


class SignOffStory(StoryScreen):
    """A waiting round's story — its cards, the payout it waits on line by line with the reasons,
    the dealer, the table's last rounds — with the decision on it (a, d) from there."""

    BINDINGS: ClassVar[list[BindingType]] = [*StoryScreen.BINDINGS, Binding("a", "approve", N_("Approve")),
                                             Binding("d", "refuse", N_("Refuse (reason)"))]

    def __init__(self, queue: SignOffScreen, pending: PendingSignOff) -> None:
        super().__init__(queue.ledger, pending.round, queue.games, queue.tables)
        self.queue, self.pending = queue, pending

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not (action in ("approve", "refuse") and self.queue.desk.read_only)

    def action_approve(self) -> None:
        self.queue.approve(self.pending, self._back_to_queue)

    def action_refuse(self) -> None:
        self.queue.refuse(self.pending, self._back_to_queue)

    def _back_to_queue(self) -> None:
        if self.app.screen is self:
            self.app.pop_screen()
