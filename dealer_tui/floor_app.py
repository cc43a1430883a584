"""The floor supervisor's review: a read-only window on the ledger, beside the dealer's terminal."""

from __future__ import annotations

from textual.app import App
from textual.binding import Binding

from dealer_tui.ledger import Ledger
from dealer_tui.screens.floor_rounds import RoundsScreen

BIG_PAYOUT = 1000


class FloorApp(App[None]):
    TITLE = "Floor review"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True)]

    def __init__(self, ledger: Ledger, games: list[str]) -> None:
        super().__init__()
        self.ledger, self.games = ledger, games

    def on_mount(self) -> None:
        self.push_screen(RoundsScreen(self.ledger, self.games, BIG_PAYOUT))
