"""The floor supervisor's review: a window on the ledger, beside the dealer's terminal. It reads
only; the one thing it writes is the supervisor's decision on a payout sent to the floor."""

from __future__ import annotations

from dealer_tui.screens.key_order import OrderedKeysApp
from textual.binding import Binding

from dealer_tui.ledger import Ledger
from dealer_tui.screens.floor_rounds import RoundsScreen
from dealer_tui.screens.floor_signoff import SignOffDesk

BIG_PAYOUT = 1000


class FloorApp(OrderedKeysApp):
    TITLE = "Floor review"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True)]

    def __init__(self, ledger: Ledger, games: list[str], desk: SignOffDesk | None = None) -> None:
        super().__init__()
        self.ledger, self.games, self.desk = ledger, games, desk

    def on_mount(self) -> None:
        self.push_screen(RoundsScreen(self.ledger, self.games, BIG_PAYOUT, desk=self.desk))
