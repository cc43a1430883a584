"""The pit map: every table at a glance — its status (a table waiting for the floor or offline
first), the dealer on duty, the players seated, the rounds of the last hour, this shift's drop,
win and hold, its game, limits and area — read again within seconds of the ledger changing.
Enter opens the table's rounds; the queue and the alerts are one key away."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from dealer_tui.accounting.pit_map import OFFLINE, WAITING, PitWatch, TableGlance
from dealer_tui.accounting.theoretical import Theory
from dealer_tui.language import N_
from dealer_tui.ledger import Ledger, LedgerError
from dealer_tui.printable import shown_cell
from dealer_tui.widgets.screen_keys import ScreenKeys

if TYPE_CHECKING:
    from dealer_tui.screens.floor_rounds import RoundsScreen

COLUMNS = ("Table", "Status", "Win", "Hold", "Drop", "Players", "Rounds/h", "Dealer", "Game", "Limits", "Area")
"""What a supervisor acts on first: a narrow screen cuts the columns on the right."""
LOOK_SECONDS = 2.0


def _chips(value: int | None, mark: str = "") -> str:
    return "—" if value is None else f"{value:,}{mark}"


class PitMapScreen(Screen[None]):
    CSS_PATH = "floor.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "rounds", N_("The table's rounds")),
        Binding("s", "sign_offs", N_("Sign-offs")),
        Binding("exclamation_mark", "alerts", N_("Alerts")),
        Binding("r", "reload", N_("Refresh")),
        Binding("escape,q", "back", N_("Back to the list")),
    ]

    def __init__(self, ledger: Ledger, rounds: RoundsScreen, theory: Theory) -> None:
        super().__init__()
        self.ledger, self.rounds = ledger, rounds
        self.theory = theory
        self.pit_watch = PitWatch(ledger, self.theory)
        """Follows the tables from look to look: each reads only what they recorded since."""
        self.glances: list[TableGlance] = []
        self._mark: int | None = None

    def compose(self) -> ComposeResult:
        yield Header(show_clock=True)
        yield DataTable(id="map-table", zebra_stripes=True, cursor_type="row")
        yield Static("Reading the pit…", id="map-sum")
        yield ScreenKeys()

    def on_mount(self) -> None:
        self.title = "The pit map"
        self.query_one(DataTable).add_columns(*COLUMNS)
        self.query_one(DataTable).focus()
        self.action_reload()
        self.set_interval(LOOK_SECONDS, self._look)

    def _look(self) -> None:
        mark = self.ledger.change_mark()
        if not mark or mark != self._mark:
            self._mark = mark
            self.action_reload()

    def action_reload(self) -> None:
        self.run_worker(self._read, thread=True, exclusive=True, group="pit-map")

    def _read(self) -> None:
        try:
            glances = self.pit_watch.glances(datetime.now(UTC))
        except LedgerError as exc:
            self.app.call_from_thread(self.query_one("#map-sum", Static).update,
                                      Text(f"The pit cannot be read: {exc}", style="red"))
            return
        self.app.call_from_thread(self.show, glances)

    def show(self, glances: list[TableGlance]) -> None:
        self.glances = glances
        table = self.query_one(DataTable)
        row = table.cursor_row
        table.clear()
        for g in glances:
            hold = "—" if g.hold is None else f"{g.hold:.1%}"
            status = Text(g.status + (" (training)" if g.training else ""),
                          style="bold red" if g.status in (WAITING, OFFLINE) else "")
            table.add_row(shown_cell(g.name), status, _chips(g.win, "" if g.drop_counted else " rounds"), hold,
                          _chips(g.drop, "" if g.drop_counted else " est."), str(g.players), str(g.rounds_last_hour),
                          shown_cell(g.dealer) or "nobody", g.game, g.limits, shown_cell(g.area), key=str(g.id))
        if glances and row is not None:
            table.move_cursor(row=min(row, len(glances) - 1))
        live = [g for g in glances if not g.training]
        attention = [g for g in live if g.status in (WAITING, OFFLINE)]
        self.query_one("#map-sum", Static).update(Text(
            f"{len(live)} table{'s' if len(live) != 1 else ''}: "
            + ", ".join(f"{sum(1 for g in live if g.status == s)} {s.lower()}" for s in dict.fromkeys(
                g.status for g in live))
            + (f" · NEEDS THE FLOOR: {', '.join(g.name for g in attention)}" if attention else "")
            + " · drop before the count: est. (what the buy-ins put in the box); win before it: the rounds' result",
            style="bold" if attention else ""))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_rounds()

    def action_rounds(self) -> None:
        """Back to the rounds list, showing the picked table's rounds."""
        row = self.query_one(DataTable).cursor_row
        if not self.glances or row is None or not 0 <= row < len(self.glances):
            return
        picked = self.glances[row]
        self.rounds.set_query(replace(self.rounds.query_, table_id=picked.id, training=picked.training))
        self.app.pop_screen()

    def action_sign_offs(self) -> None:
        self.rounds.action_sign_offs()

    def action_alerts(self) -> None:
        self.rounds.action_alerts()

    def action_back(self) -> None:
        self.app.pop_screen()
