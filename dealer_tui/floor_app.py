"""The floor supervisor's review: a window on the ledger, beside the dealer's terminal. A
supervisor, manager or auditor signs in first; it reads only, and writes the sign-ins and the
supervisor's decisions on payouts sent to the floor (never an auditor's). Whatever screen is
open, the header counts the payouts waiting for sign-off and the alerts open, looked at again
within a second of the ledger changing; a new one rings the bell and says so (`floor_watch`)."""

from __future__ import annotations

from typing import Any

from textual.binding import Binding

from dealer_tui.accounting.theoretical import Theory
from dealer_tui.language import N_, _
from dealer_tui.ledger import Ledger
from dealer_tui.paths import theory_cache_path
from dealer_tui.rounds.game import Games
from dealer_tui.screens.floor_rounds import RoundsScreen
from dealer_tui.screens.floor_signoff import SignOffDesk, role_name
from dealer_tui.screens.floor_watch import MAP, FloorWatch, open_floor
from dealer_tui.screens.key_order import OrderedKeysApp
from dealer_tui.screens.sign_in_modal import SignInModal
from dealer_tui.staff import FLOOR, Approval, Purpose, StaffDesk
from dealer_tui.views import Presenter
from rules.said import say

BIG_PAYOUT = 1000


class FloorApp(OrderedKeysApp):
    TITLE = N_("Floor review")
    BINDINGS = [Binding("ctrl+q", "quit", N_("Quit"), priority=True),
                Binding("s", "open_queue", N_("Sign-offs"), show=False),
                Binding("exclamation_mark", "open_alerts", N_("Alerts"), show=False)]
    """`s` and `!` reach the queue and the alerts from every floor screen (a screen's own keys first)."""

    def __init__(self, ledger: Ledger, games: Games[Presenter[Any]], staff: StaffDesk, user: Approval | None = None,
                 first: str = MAP) -> None:
        """`user`: an account that signed in for the floor already (the review opened from a
        table after a sign-in there); else the review asks for one first. `first`: the screen it
        opens on, the pit map (MAP) or the rounds list (ROUNDS); Esc on the map goes to the list."""
        super().__init__()
        self.title = _(self.TITLE)
        self.first = first
        self.ledger, self.games, self.staff, self.user = ledger, games, staff, user
        self.desk: SignOffDesk | None = None
        self.theory = Theory(games, theory_cache_path())
        self.rounds: RoundsScreen | None = None
        self.floor_watch: FloorWatch | None = None

    def on_mount(self) -> None:
        if self.user is not None and self.user.act == FLOOR:
            self.signed_in(self.user)
            return
        self.push_screen(SignInModal(self.staff, Purpose(FLOOR, say("open the floor review"))), self.signed_in)

    def signed_in(self, approval: Approval | None) -> None:
        if approval is None:
            self.exit()
            return
        self.desk = SignOffDesk(self.staff, approval)
        self.rounds, self.floor_watch = open_floor(self, self.ledger, self.games, BIG_PAYOUT, self.desk, self.theory,
                                             self.first)
        self.title = _(self.TITLE)  # in the language of the account signed in (`open_floor`)
        self.sub_title = f"{approval.describe()}, {role_name(approval.role)}"

    def action_open_queue(self) -> None:
        from dealer_tui.screens.floor_signoff import SignOffScreen

        if self.rounds is not None and not isinstance(self.screen, SignOffScreen):
            self.rounds.action_sign_offs()

    def action_open_alerts(self) -> None:
        from dealer_tui.screens.floor_alerts import AlertsScreen

        if self.rounds is not None and not isinstance(self.screen, AlertsScreen):
            self.rounds.action_alerts()

    @property
    def counts(self) -> tuple[int, int] | None:
        """Payouts waiting for sign-off and alerts open, as last counted (None: not yet)."""
        return self.floor_watch.counts if self.floor_watch is not None else None
