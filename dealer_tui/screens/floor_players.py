"""The floor's player ratings: every rated player (by loyalty card, or by name when anonymous) with
their hands, time, wagered, average bet and the house's actual and theoretical win; the sessions of
the player the cursor is on below. `d` steps through the gaming days (all days first); training
tables' play is left out until `T` asks for it."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from dealer_tui.accounting.ratings import (
    PlayerRating,
    RatingSession,
    player_ratings,
    rating_sessions,
)
from dealer_tui.accounting.theoretical import Theory
from dealer_tui.language import N_
from dealer_tui.ledger import Ledger
from dealer_tui.ledger.base import LedgerError
from dealer_tui.widgets.screen_keys import ScreenKeys

COLUMNS = ("Player", "Card", "Sessions", "Hands", "Minutes", "Wagered", "Average bet", "Actual win", "Theoretical")


def _money(value: object) -> str:
    return "—" if value is None else f"{value:,}" if isinstance(value, int) else f"{value:,.2f}"


class PlayersScreen(Screen[None]):
    CSS_PATH = "floor.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "back", N_("Back to the list")),
                                             Binding("d", "next_day", N_("Gaming day")),
                                             Binding("T", "training", N_("Training too")),
                                             Binding("r", "reload", N_("Refresh"))]

    def __init__(self, ledger: Ledger, theory: Theory) -> None:
        super().__init__()
        self.ledger = ledger
        self.theory = theory
        self.sessions: list[RatingSession] = []
        self.ratings: list[PlayerRating] = []
        self.day: str | None = None
        self.training = False
        """Whether training tables' play is shown too (left out unless asked for)."""

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield DataTable(id="players-table", zebra_stripes=True, cursor_type="row")
        yield Static("Reading the ratings…", id="players-sum")
        with VerticalScroll(id="players-detail"):
            yield Static(id="players-sessions")
        yield ScreenKeys()

    def on_mount(self) -> None:
        self.query_one(DataTable).add_columns(*COLUMNS)
        self.query_one(DataTable).focus()
        self.action_reload()

    def action_reload(self) -> None:
        self.run_worker(self._read, thread=True, exclusive=True, group="players")

    def _read(self) -> None:
        try:
            sessions = rating_sessions(self.ledger, self.theory, training=self.training)
        except LedgerError as exc:
            self.app.call_from_thread(self.query_one("#players-sum", Static).update,
                                      Text(f"The ratings cannot be read: {exc}", style="red"))
            return
        self.app.call_from_thread(self._show, sessions)

    def action_training(self) -> None:
        self.training = not self.training
        self.action_reload()

    def days(self) -> list[str]:
        return sorted({s.day for s in self.sessions})

    def action_next_day(self) -> None:
        days = [None, *self.days()]
        self.day = days[(days.index(self.day) + 1) % len(days)] if self.day in days else None
        self._show(self.sessions)

    def _show(self, sessions: list[RatingSession]) -> None:
        self.sessions = sessions
        self.ratings = player_ratings(sessions, self.day)
        self.title = (f"Player ratings — {'gaming day ' + self.day if self.day else 'every gaming day'}"
                      + (" — training tables included" if self.training else ""))
        table = self.query_one(DataTable)
        table.clear()
        for r in self.ratings:
            d = r.to_dict()
            table.add_row(r.player, r.card or "anonymous", str(d["sessions"]), str(d["hands"]), f"{d['minutes']:,}",
                          _money(d["wagered"]), _money(d["average_bet"]), _money(d["actual_win"]),
                          _money(d["theoretical_win"]))
        summary = Text(f"{len(self.ratings)} player(s) · wagered {sum(int(r.total('wagered')) for r in self.ratings):,}"
                       f" · actual win {sum(int(r.total('actual_win')) for r in self.ratings):+,}"
                       " · a banked round's theoretical win is each stake × the profile's house edge on "
                       "its bet type; a card room's is its rake and fees")
        if not self.ratings:
            summary = Text("No rated play" + (f" on gaming day {self.day}" if self.day else "")
                           + ("." if self.training else " at live tables (T: training tables too)."))
        self.query_one("#players-sum", Static).update(summary)
        self._detail(0)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._detail(event.cursor_row)

    def _detail(self, row: int) -> None:
        out = Text()
        if 0 <= row < len(self.ratings):
            r = self.ratings[row]
            out.append(f"{r.player} · {'card ' + r.card if r.card else 'anonymous'}: sessions\n", style="bold")
            for s in r.sessions:
                d = s.to_dict()
                left = str(d["left_at"])[11:16] if d["left_at"] else "still seated"
                out.append(f"{s.table} seat {s.seat}: {s.sat_at[:16].replace('T', ' ')} to {left} · {d['hands']} "
                           f"hands · {d['minutes']} min" + (f" ({d['away_minutes']} sat out)" if s.away_minutes else "")
                           + f" · wagered {_money(d['wagered'])} · average bet "
                           f"{_money(d['average_bet'])} · actual {_money(d['actual_win'])} · theoretical "
                           f"{_money(d['theoretical_win'])}\n")
        self.query_one("#players-sessions", Static).update(out)

    def action_back(self) -> None:
        self.app.pop_screen()
