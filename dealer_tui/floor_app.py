"""The floor supervisor's review: a window on the ledger, beside the dealer's terminal. A
supervisor, manager or auditor signs in first; it reads only, and writes the sign-ins and the
supervisor's decisions on payouts sent to the floor (never an auditor's)."""

from __future__ import annotations

from textual.binding import Binding

from dealer_tui.ledger import Ledger
from dealer_tui.screens.floor_rounds import RoundsScreen
from dealer_tui.screens.floor_signoff import SignOffDesk
from dealer_tui.screens.key_order import OrderedKeysApp
from dealer_tui.screens.sign_in_modal import SignInModal
from dealer_tui.staff import FLOOR, Approval, Purpose, StaffDesk

BIG_PAYOUT = 1000


class FloorApp(OrderedKeysApp):
    TITLE = "Floor review"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True)]

    def __init__(self, ledger: Ledger, games: list[str], staff: StaffDesk, user: Approval | None = None) -> None:
        """`user`: an account that signed in for the floor already (the review opened from a
        table after a sign-in there); else the review asks for one first."""
        super().__init__()
        self.ledger, self.games, self.staff, self.user = ledger, games, staff, user
        self.desk: SignOffDesk | None = None

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
        self.push_screen(RoundsScreen(self.ledger, self.games, BIG_PAYOUT, desk=self.desk))
