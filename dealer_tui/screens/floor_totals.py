"""Totals per table and game: rounds, drop, win, hold, rake and fees, biggest payout; win by hour."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Header, Sparkline, Static

from dealer_tui.ledger import Ledger, RowQuery
from dealer_tui.screens.floor_table import FloorTable
from dealer_tui.widgets.screen_keys import ScreenKeys


class TotalsScreen(Screen[None]):
    CSS_PATH = "floor.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "back", "Back to the list")]

    def __init__(self, ledger: Ledger, query: RowQuery, tables: dict[int, str]) -> None:
        super().__init__()
        self.ledger, self.query_, self.tables = ledger, query, tables

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield FloorTable(id="totals-table", zebra_stripes=True)
        yield Static(id="totals-chart-label")
        yield Sparkline([], id="totals-chart")
        yield Static(id="totals-hold-label")
        yield Sparkline([], id="totals-hold")
        yield ScreenKeys()

    def on_mount(self) -> None:
        q = self.query_
        shift = f" {(q.since or '…')[:16].replace('T', ' ')} to {(q.until or '…')[:16].replace('T', ' ')}" \
            if q.since or q.until else ""
        self.title = f"Totals (settled rounds){shift}"
        table = self.query_one(DataTable)
        table.add_columns("Table", "Game", "Rounds", "Drop", "Paid", "Win", "Hold", "Rake/fees", "Biggest payout")
        all_rounds = drop = win = fees = 0
        for t in self.ledger.totals(self.query_):
            table.add_row(self.tables.get(t.table_id, str(t.table_id)), t.game, str(t.rounds), str(t.wagered),
                          str(t.paid), f"{t.house:+}", f"{t.hold:.2%}", str(t.fees), str(t.biggest_payout))
            all_rounds, drop, win, fees = all_rounds + t.rounds, drop + t.wagered, win + t.house, fees + t.fees
        hold = f"{win / drop:.2%}" if drop else "—"
        table.add_row("all", "", str(all_rounds), str(drop), "", f"{win:+}", hold, str(fees), "")
        hours = self.ledger.hourly(self.query_)
        self.query_one("#totals-chart", Sparkline).data = [float(h[2]) for h in hours] or [0.0]
        self.query_one("#totals-hold", Sparkline).data = [h[2] / h[1] if h[1] else 0.0 for h in hours] or [0.0]
        span = f"{hours[0][0].replace('T', ' ')}h to {hours[-1][0].replace('T', ' ')}h" if hours else "no rounds"
        self.query_one("#totals-chart-label", Static).update(f"House win by hour ({span})")
        holds = [h[2] / h[1] for h in hours if h[1]]
        low_high = f": {min(holds):.1%} to {max(holds):.1%}" if holds else ""
        self.query_one("#totals-hold-label", Static).update(f"Hold by hour{low_high}")

    def action_back(self) -> None:
        self.app.pop_screen()
