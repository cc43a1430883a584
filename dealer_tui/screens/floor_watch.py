"""The floor as a supervisor opens it, in the floor review or from a dealer's terminal: the pit
map over the list of rounds, and a watch that keeps the header's counts (payouts waiting for
sign-off, alerts open) current. The counts are looked at again within a second of the ledger
changing (a ledger that cannot tell, every few seconds); a payout newly waiting or an alert newly
open rings the bell and says where to go."""

from __future__ import annotations

from typing import Any

from textual.app import App

from dealer_tui.accounting.alerts import open_alerts
from dealer_tui.accounting.theoretical import Theory
from dealer_tui.language import _, n_, read_by
from dealer_tui.ledger import Ledger, LedgerError
from dealer_tui.rounds.game import Games
from dealer_tui.screens.floor_map import PitMapScreen
from dealer_tui.screens.floor_rounds import RoundsScreen
from dealer_tui.screens.floor_signoff import SignOffDesk, role_name
from dealer_tui.views import Presenter

MAP, ROUNDS = "map", "rounds"
"""The floor's first screen: the pit map, or the list of rounds."""
WATCH_SECONDS = 1.0
UNMARKED_EVERY = 5
"""A ledger that cannot tell it changed (the pit server) is looked at every this many watches."""


class FloorWatch:
    """The header's counts for one signed-in floor user, kept by a timer of the floor's bottom
    screen (it stops when the floor is closed)."""

    def __init__(self, app: App[Any], ledger: Ledger, desk: SignOffDesk, theory: Theory) -> None:
        self.app, self.ledger, self.desk, self.theory = app, ledger, desk, theory
        self.counts: tuple[int, int] | None = None
        """Payouts waiting for sign-off and alerts open, as last counted (None: not yet)."""
        self._mark: int | None = None
        self._watches = 0

    def look_again(self) -> None:
        """Count again when the ledger changed (or, a ledger that cannot tell, every few watches)."""
        self._watches += 1
        mark = self.ledger.change_mark()
        if mark and mark == self._mark or not mark and self.counts is not None and self._watches % UNMARKED_EVERY:
            return
        self._mark = mark
        self.app.run_worker(self._count, thread=True, exclusive=True, group="floor-watch")

    def _count(self) -> None:
        try:
            waiting, alerts = len(self.ledger.sign_off_queue()), len(open_alerts(self.ledger, self.theory))
        except LedgerError:
            return  # a server away: the rounds list says so; counted again at the next change
        self.app.call_from_thread(self.show_counts, waiting, alerts)

    def show_counts(self, waiting: int, alerts: int) -> None:
        """The counts in the header; a payout newly waiting or an alert newly open rings and says so."""
        first = self.counts is None
        before = self.counts or (0, 0)
        self.counts = (waiting, alerts)
        user = self.desk.user
        self.app.sub_title = " · ".join((
            n_("{count} waiting for sign-off (s)", "{count} waiting for sign-off (s)", waiting),
            n_("{count} alert (!)", "{count} alerts (!)", alerts),
            f"{user.describe()}, {role_name(user.role)}"))
        news = []
        if waiting > before[0]:
            news.append(n_("{count} payout sent for sign-off: s opens the queue",
                           "{count} payouts sent for sign-off: s opens the queue", waiting - before[0]))
        if alerts > before[1] and not first:  # at sign-in the header counts the open ones
            news.append(n_("{count} new alert: ! lists them", "{count} new alerts: ! lists them", alerts - before[1]))
        if news:
            self.app.bell()
            self.app.notify(" · ".join(news), title=_("The floor"), severity="warning", timeout=10)


def open_floor(app: App[Any], ledger: Ledger, games: Games[Presenter[Any]], big_payout: int, desk: SignOffDesk,
               theory: Theory, first: str = MAP) -> tuple[RoundsScreen, FloorWatch]:
    """Push the floor for `desk`'s user: the list of rounds, the pit map over it (unless `first` is
    ROUNDS), and the watch on the header's counts, running while the list is open. The floor is
    shown in the language of the account signed in to it."""
    account = desk.staff.register().accounts.get(desk.user.account)
    read_by(account.language if account is not None else "")
    rounds = RoundsScreen(ledger, games, big_payout, desk=desk, theory=theory)
    watch = FloorWatch(app, ledger, desk, theory)
    app.push_screen(rounds)
    if first == MAP:
        app.push_screen(PitMapScreen(ledger, rounds, theory))
    rounds.set_interval(WATCH_SECONDS, watch.look_again)
    watch.look_again()
    return rounds, watch
