"""The floor review's rounds list: newest first, filters, paging, new rounds as they land."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from dealer_tui.ledger import Ledger, RoundRecord, RowQuery

PAGE = 200
FLAGS = (None, "signed_off", "voided", "dead_hands", "capped", "recovered")


class RoundsScreen(Screen[None]):
    CSS_PATH = "floor.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "story", "Round story"),
        Binding("g", "cycle_game", "Game filter"),
        Binding("f", "cycle_flag", "Flag filter"),
        Binding("b", "big_payouts", "Big payouts"),
        Binding("t", "totals", "Totals"),
        Binding("n", "older", "Older"),
        Binding("p", "newer", "Newer"),
        Binding("r", "reload", "Refresh"),
        Binding("escape", "close", "Close"),
    ]

    def __init__(self, ledger: Ledger, games: list[str], big_payout: int) -> None:
        super().__init__()
        self.ledger, self.games, self.big_payout = ledger, [None, *games], big_payout
        self.query_ = RowQuery()
        self.pages: list[int | None] = [None]  # the before_id of each page shown so far
        self.rows: list[RoundRecord] = []
        self.tables: dict[int, str] = {}

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield Static(id="floor-filters")
        yield DataTable(id="floor-table", zebra_stripes=True, cursor_type="row")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "Floor review (read-only)"
        table = self.query_one(DataTable)
        table.add_columns("Round id", "Time", "Table", "Round", "Game", "Profile", "Seats", "Wagered", "Paid",
                          "House", "Status", "Flags")
        self.load()
        self.set_interval(3.0, self._poll)

    def load(self) -> None:
        self.tables = {t.id: t.name for t in self.ledger.tables()}
        self.rows = self.ledger.find_rounds(self.query_, PAGE, self.pages[-1])
        table = self.query_one(DataTable)
        table.clear()
        for r in self.rows:
            table.add_row(str(r.id), r.started_at[:19].replace("T", " "), self.tables.get(r.table_id, "?"),
                          str(r.number), r.game, r.profile, str(r.seats), str(r.wagered), str(r.paid),
                          f"{r.house_result:+}", r.status, ", ".join(sorted(r.flags)), key=str(r.id))
        q = self.query_
        parts = [f"game: {q.game or 'all'}", f"flag: {q.flag or 'any'}",
                 f"payout ≥ {q.min_payout}" if q.min_payout else "any payout", f"page {len(self.pages)}"]
        self.query_one("#floor-filters", Static).update(" · ".join(parts) + f" · {len(self.rows)} rounds shown")

    def _poll(self) -> None:
        """New rounds land while the dealer plays: reload the first page when it is in view."""
        if len(self.pages) == 1:
            newest = self.ledger.find_rounds(self.query_, 1)
            if newest and (not self.rows or newest[0].id != self.rows[0].id or newest[0].status != self.rows[0].status):
                self.load()

    def _set(self, **changes: object) -> None:
        fields = {**self.query_.__dict__, **changes}
        self.query_ = RowQuery(**fields)  # type: ignore[arg-type]
        self.pages = [None]
        self.load()

    def action_cycle_game(self) -> None:
        i = self.games.index(self.query_.game) if self.query_.game in self.games else 0
        self._set(game=self.games[(i + 1) % len(self.games)])

    def action_cycle_flag(self) -> None:
        i = FLAGS.index(self.query_.flag) if self.query_.flag in FLAGS else 0
        self._set(flag=FLAGS[(i + 1) % len(FLAGS)])

    def action_big_payouts(self) -> None:
        self._set(min_payout=None if self.query_.min_payout else self.big_payout)

    def action_older(self) -> None:
        if len(self.rows) == PAGE:
            self.pages.append(self.rows[-1].id)
            self.load()

    def action_newer(self) -> None:
        if len(self.pages) > 1:
            self.pages.pop()
            self.load()

    def action_close(self) -> None:
        """Back to the table when opened from the dealer's terminal; the review app quits."""
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
        else:
            self.app.exit()

    def action_reload(self) -> None:
        self.load()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_story()

    def action_story(self) -> None:
        table = self.query_one(DataTable)
        if not self.rows or table.cursor_row is None or table.cursor_row >= len(self.rows):
            return
        from dealer_tui.screens.floor_story import StoryScreen

        self.app.push_screen(StoryScreen(self.ledger, self.rows[table.cursor_row]))

    def action_totals(self) -> None:
        from dealer_tui.screens.floor_totals import TotalsScreen

        self.app.push_screen(TotalsScreen(self.ledger, self.query_, self.tables))
