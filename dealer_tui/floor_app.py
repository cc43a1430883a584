"""The floor supervisor's review: a window on the ledger, beside the dealer's terminal. A
supervisor, manager or auditor signs in first; it reads only, and writes the sign-ins and the
supervisor's decisions on payouts sent to the floor (never an auditor's). Whatever screen is
open, the header counts the payouts waiting for sign-off and the alerts open, looked at again
within a second of the ledger changing; a new one rings the bell and says so."""

from __future__ import annotations

from textual.binding import Binding

from dealer_tui.accounting.alerts import open_alerts
from dealer_tui.accounting.theoretical import Theory
from dealer_tui.ledger import Ledger, LedgerError
from dealer_tui.paths import theory_cache_path
from dealer_tui.screens.floor_map import PitMapScreen
from dealer_tui.screens.floor_rounds import RoundsScreen
from dealer_tui.screens.floor_signoff import SignOffDesk
from dealer_tui.screens.key_order import OrderedKeysApp
from dealer_tui.screens.sign_in_modal import SignInModal
from dealer_tui.staff import FLOOR, Approval, Purpose, StaffDesk

BIG_PAYOUT = 1000
MAP, ROUNDS = "map", "rounds"
WATCH_SECONDS = 1.0
UNMARKED_EVERY = 5
"""A ledger that cannot tell it changed (the pit server) is looked at every this many watches."""


class FloorApp(OrderedKeysApp):
    TITLE = "Floor review"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True),
                Binding("s", "open_queue", "Sign-offs", show=False),
                Binding("exclamation_mark", "open_alerts", "Alerts", show=False)]
    """`s` and `!` reach the queue and the alerts from every floor screen (a screen's own keys first)."""

    def __init__(self, ledger: Ledger, games: list[str], staff: StaffDesk, user: Approval | None = None,
                 first: str = MAP) -> None:
        """`user`: an account that signed in for the floor already (the review opened from a
        table after a sign-in there); else the review asks for one first. `first`: the screen it
        opens on, the pit map (MAP) or the rounds list (ROUNDS); Esc on the map goes to the list."""
        super().__init__()
        self.first = first
        self.ledger, self.games, self.staff, self.user = ledger, games, staff, user
        self.desk: SignOffDesk | None = None
        self.theory = Theory(theory_cache_path())
        self.counts: tuple[int, int] | None = None
        """Payouts waiting for sign-off and alerts open, as last counted (None: not yet)."""
        self._mark: int | None = None
        self._watches = 0
        self.rounds: RoundsScreen | None = None

    def on_mount(self) -> None:
        if self.user is not None and self.user.act == FLOOR:
            self.signed_in(self.user)
            return
        self.push_screen(SignInModal(self.staff, Purpose(FLOOR, "open the floor review")), self.signed_in)

    def signed_in(self, approval: Approval | None) -> None:
        if approval is None:
            self.exit()
            return
        self.desk = SignOffDesk(self.staff, approval)
        self.sub_title = f"{approval.describe()}, {approval.role}"
        rounds = RoundsScreen(self.ledger, self.games, BIG_PAYOUT, desk=self.desk)
        self.rounds = rounds
        self.push_screen(rounds)
        if self.first == MAP:
            self.push_screen(PitMapScreen(self.ledger, rounds, self.theory))
        self.set_interval(WATCH_SECONDS, self.look_again)
        self.look_again()

    def action_open_queue(self) -> None:
        from dealer_tui.screens.floor_signoff import SignOffScreen

        if self.rounds is not None and not isinstance(self.screen, SignOffScreen):
            self.rounds.action_sign_offs()

    def action_open_alerts(self) -> None:
        from dealer_tui.screens.floor_alerts import AlertsScreen

        if self.rounds is not None and not isinstance(self.screen, AlertsScreen):
            self.rounds.action_alerts()

    def look_again(self) -> None:
        """Count again when the ledger changed (or, a ledger that cannot tell, every few watches)."""
        self._watches += 1
        mark = self.ledger.change_mark()
        if mark and mark == self._mark or not mark and self.counts is not None and self._watches % UNMARKED_EVERY:
            return
        self._mark = mark
        self.run_worker(self._count, thread=True, exclusive=True, group="floor-watch")

    def _count(self) -> None:
        try:
            waiting, alerts = len(self.ledger.sign_off_queue()), len(open_alerts(self.ledger, self.theory))
        except LedgerError:
            return  # a server away: the rounds list says so; counted again at the next change
        self.call_from_thread(self.show_counts, waiting, alerts)

    def show_counts(self, waiting: int, alerts: int) -> None:
        """The counts in the header; a payout newly waiting or an alert newly open rings and says so."""
        first = self.counts is None
        before = self.counts or (0, 0)
        self.counts = (waiting, alerts)
        who = f"{self.desk.user.describe()}, {self.desk.user.role}" if self.desk is not None else ""
        self.sub_title = f"{waiting} waiting for sign-off (s) · {alerts} alert{'s' if alerts != 1 else ''} (!) · {who}"
        news = []
        if waiting > before[0]:
            news.append(f"{waiting - before[0]} payout{'s' if waiting - before[0] != 1 else ''} sent for sign-off: "
                        "s opens the queue")
        if alerts > before[1] and not first:  # at sign-in the header counts the open ones
            news.append(f"{alerts - before[1]} new alert{'s' if alerts - before[1] != 1 else ''}: ! lists them")
        if news:
            self.bell()
            self.notify(" · ".join(news), title="The floor", severity="warning", timeout=10)
