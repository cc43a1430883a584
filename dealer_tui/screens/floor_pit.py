"""The pit at a glance (a pit server's floor): every table, its area and game, its rounds, when
its terminal was last heard from — online, or offline since when — and every delivery the server
refused (a terminal whose history disagrees with the server's), newest first."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from dealer_tui.language import N_, _, n_, number, told, told_error
from dealer_tui.ledger.base import LedgerError
from dealer_tui.ledger.pit_words import alarm_said
from dealer_tui.ledger.postgres import PgLedger
from dealer_tui.pit.delivery import OFFLINE_AFTER_S, link_state
from dealer_tui.widgets.screen_keys import ScreenKeys

COLUMNS = (N_("Id"), N_("Table"), N_("Area"), N_("Game"), N_("Rounds"), N_("Terminal"))


def pit_summary(pit: PgLedger) -> str:
    """One line: the tables, those offline, the alarms."""
    links = pit.table_links()
    offline = [t.name for t in pit.tables() if t.id in links and not links[t.id][2]
               and (links[t.id][1] or 0) > OFFLINE_AFTER_S]
    alarms = len(pit.alarms(limit=1000))
    parts = [n_("pit: {count} table", "pit: {count} tables", len(links)),
             _("{count} offline ({tables})", count=number(len(offline)),
               tables=", ".join(offline[:3]) + ("…" if len(offline) > 3 else "")) if offline else _("all online"),
             n_("{count} ALARM", "{count} ALARMS", alarms) if alarms else _("no alarm")]
    return " · ".join(parts) + _(" (a: the pit)")


class PitScreen(Screen[None]):
    CSS_PATH = "floor.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "back", N_("Back to the list"))]

    def __init__(self, pit: PgLedger) -> None:
        super().__init__()
        self.pit = pit

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield DataTable(id="pit-tables", zebra_stripes=True, cursor_type="row")
        yield Static(id="pit-alarms")
        yield ScreenKeys()

    def on_mount(self) -> None:
        self.title = _("The pit")
        table = self.query_one("#pit-tables", DataTable)
        table.add_columns(*(_(column) for column in COLUMNS))
        table.focus()
        self.show()
        self.set_interval(2.0, self.show)

    def show(self) -> None:
        try:
            self._show()
        except LedgerError as exc:
            self.query_one("#pit-alarms", Static).update(told_error(exc))

    def _show(self) -> None:
        links = self.pit.table_links()
        table = self.query_one("#pit-tables", DataTable)
        table.clear()
        counts = self.pit.round_counts()
        for t in self.pit.tables():
            if not t.id:
                continue
            at, ago, closed = links.get(t.id, ("", None, False))
            table.add_row(str(t.id), t.name, self.pit.areas().get(t.id, ""), t.game, str(counts.get(t.id, 0)),
                          told(link_state(at, ago, closed)))
        alarms = self.pit.alarms(limit=20)
        lines = [_("ALARM {when} UTC · terminal {terminal} · table {table}: {alarm}", when=when,
                   terminal=origin[:8], table=name, alarm=told(alarm_said(message)))
                 for when, origin, name, message in alarms]
        self.query_one("#pit-alarms", Static).update("\n".join(lines) if lines else
                                                      _("No alarm: every terminal's history agrees with the server's."))

    def action_back(self) -> None:
        self.app.pop_screen()
