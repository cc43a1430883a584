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

from dealer_tui.accounting.pit_map import (
    CLOSED,
    IN_PLAY,
    OFFLINE,
    OPEN,
    WAITING,
    PitWatch,
    TableGlance,
)
from dealer_tui.accounting.theoretical import Theory
from dealer_tui.language import N_, _, current, n_, number, p_, told, told_error
from dealer_tui.ledger import Ledger, LedgerError
from dealer_tui.printable import shown_cell
from dealer_tui.widgets.screen_keys import ScreenKeys

if TYPE_CHECKING:
    from dealer_tui.screens.floor_rounds import RoundsScreen

COLUMNS = (N_("Table"), N_("Status"), N_("Win"), N_("Hold"), N_("Drop"), N_("Players"), N_("Rounds/h"), N_("Dealer"),
           N_("Game"), N_("Limits"), N_("Area"))
"""What a supervisor acts on first: a narrow screen cuts the columns on the right."""
LOOK_SECONDS = 2.0
STATUS_WORDS = {IN_PLAY: N_("in play"), WAITING: N_("WAITING FOR THE FLOOR"), OFFLINE: N_("OFFLINE"),
                CLOSED: N_("closed")}
"""A table's status as the map shows it (open: `status_word`)."""


def status_word(status: str) -> str:
    """A table's status in the reader's language: an open table is not an open round (`floor_story`)."""
    if status == OPEN:
        return p_("table", "open")
    return _(STATUS_WORDS[status]) if status in STATUS_WORDS else status


def status_count(status: str, count: int) -> str:
    """How many tables are in a status, for the line under the map (`3 open`)."""
    if status == OPEN:
        return n_("{count} open", "{count} open", count)
    if status == IN_PLAY:
        return n_("{count} in play", "{count} in play", count)
    if status == WAITING:
        return n_("{count} waiting for the floor", "{count} waiting for the floor", count)
    if status == OFFLINE:
        return n_("{count} offline", "{count} offline", count)
    if status == CLOSED:
        return n_("{count} closed", "{count} closed", count)
    return f"{number(count)} {status.lower()}"


def _chips(value: int | None) -> str:
    return "—" if value is None else number(value)


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
        yield Static(_("Reading the pit…"), id="map-sum")
        yield ScreenKeys()

    def on_mount(self) -> None:
        self.title = _("The pit map")
        self.query_one(DataTable).add_columns(*(_(column) for column in COLUMNS))
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
                                      Text(_("The pit cannot be read: {problem}", problem=told_error(exc)), style="red"))
            return
        self.app.call_from_thread(self.show, glances)

    def show(self, glances: list[TableGlance]) -> None:
        self.glances = glances
        table = self.query_one(DataTable)
        row = table.cursor_row
        table.clear()
        for g in glances:
            hold = "—" if g.hold is None else current().percent(g.hold)
            said = status_word(g.status)
            status = Text(_("{status} (training)", status=said) if g.training else said,
                          style="bold red" if g.status in (WAITING, OFFLINE) else "")
            win = _chips(g.win) if g.drop_counted or g.win is None else _("{chips} rounds", chips=_chips(g.win))
            drop = _chips(g.drop) if g.drop_counted or g.drop is None else _("{chips} est.", chips=_chips(g.drop))
            table.add_row(shown_cell(g.name), status, win, hold, drop, str(g.players), str(g.rounds_last_hour),
                          shown_cell(g.dealer) or _("nobody"), self.rounds.games.title(g.game), told(g.limits),
                          shown_cell(g.area), key=str(g.id))
        if glances and row is not None:
            table.move_cursor(row=min(row, len(glances) - 1))
        live = [g for g in glances if not g.training]
        attention = [g for g in live if g.status in (WAITING, OFFLINE)]
        statuses = ", ".join(status_count(s, sum(1 for g in live if g.status == s))
                             for s in dict.fromkeys(g.status for g in live))
        self.query_one("#map-sum", Static).update(Text(
            _("{tables}: {statuses}", tables=n_("{count} table", "{count} tables", len(live)), statuses=statuses)
            + (_(" · NEEDS THE FLOOR: {tables}", tables=", ".join(g.name for g in attention)) if attention else "")
            + _(" · drop before the count: est. (what the buy-ins put in the box); win before it: the rounds' result"),
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
