"""Totals per table and game: rounds, drop, win, hold, biggest payout; win by hour."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Sparkline, Static

from dealer_tui.ledger import Ledger, RowQuery


class TotalsScreen(Screen[None]):
    CSS_PATH = "floor.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "back", "Back to the list")]

    def __init__(self, ledger: Ledger, query: RowQuery, tables: dict[int, str]) -> None:
        super().__init__()
        self.ledger, self.query_, self.tables = ledger, query, tables

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield DataTable(id="totals-table", zebra_stripes=True)
        yield Static(id="totals-chart-label")
        yield Sparkline([], id="totals-chart")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "Totals (settled rounds)"
        table = self.query_one(DataTable)
        table.add_columns("Table", "Game", "Rounds", "Drop", "Paid", "Win", "Hold", "Biggest payout")
        all_rounds = drop = win = 0
        for t in self.ledger.totals(self.query_):
            table.add_row(self.tables.get(t.table_id, str(t.table_id)), t.game, str(t.rounds), str(t.wagered),
                          str(t.paid), f"{t.house:+}", f"{t.hold:.2%}", str(t.biggest_payout))
            all_rounds, drop, win = all_rounds + t.rounds, drop + t.wagered, win + t.house
        hold = f"{win / drop:.2%}" if drop else "—"
        table.add_row("all", "", str(all_rounds), str(drop), "", f"{win:+}", hold, "")
        hours = self.ledger.hourly(self.query_)
        self.query_one(Sparkline).data = [float(h[2]) for h in hours] or [0.0]
        span = f"{hours[0][0].replace('T', ' ')}h to {hours[-1][0].replace('T', ' ')}h" if hours else "no rounds"
        self.query_one("#totals-chart-label", Static).update(f"House win by hour ({span})")

    def action_back(self) -> None:
        self.app.pop_screen()
