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
from dealer_tui.language import ENGLISH, N_, _, current, n_, number, signed, told_error
from dealer_tui.ledger import Ledger
from dealer_tui.ledger.base import LedgerError
from dealer_tui.widgets.screen_keys import ScreenKeys

COLUMNS = (N_("Player"), N_("Card"), N_("Sessions"), N_("Hands"), N_("Minutes"), N_("Wagered"), N_("Average bet"),
           N_("Actual win"), N_("Theoretical"))


def _money(value: object) -> str:
    """Chips (a whole number) or an average or a theoretical win (two decimals), as the reader's
    language writes them; — unknown."""
    if isinstance(value, int):
        return number(value)
    if not isinstance(value, float):
        return "—" if value is None else str(value)
    if current().code == ENGLISH:
        return f"{value:,.2f}"
    # Babel's locale data: only for a language that needs it
    from babel.numbers import format_decimal

    return str(format_decimal(value, format="#,##0.00", locale=current().code))


def _minutes(value: object, grouped: bool = True) -> str:
    """Minutes (one decimal), as the reader's language writes them (English: `12.5`, `1,234.0`
    `grouped`)."""
    if not isinstance(value, (int, float)):
        return str(value)
    if current().code == ENGLISH:
        return f"{value:,}" if grouped else f"{value}"
    from babel.numbers import format_decimal

    return str(format_decimal(value, format="#,##0.#" if grouped else "0.#", locale=current().code))


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
        yield Static(_("Reading the ratings…"), id="players-sum")
        with VerticalScroll(id="players-detail"):
            yield Static(id="players-sessions")
        yield ScreenKeys()

    def on_mount(self) -> None:
        self.query_one(DataTable).add_columns(*(_(c) for c in COLUMNS))
        self.query_one(DataTable).focus()
        self.action_reload()

    def action_reload(self) -> None:
        self.run_worker(self._read, thread=True, exclusive=True, group="players")

    def _read(self) -> None:
        try:
            sessions = rating_sessions(self.ledger, self.theory, training=self.training)
        except LedgerError as exc:
            self.app.call_from_thread(self.query_one("#players-sum", Static).update,
                                      Text(_("The ratings cannot be read: {problem}", problem=told_error(exc)), style="red"))
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
        days = _("gaming day {day}", day=self.day) if self.day else _("every gaming day")
        self.title = (_("Player ratings — {days} — training tables included", days=days) if self.training
                      else _("Player ratings — {days}", days=days))
        table = self.query_one(DataTable)
        table.clear()
        for r in self.ratings:
            d = r.to_dict()
            table.add_row(r.player, r.card or _("anonymous"), str(d["sessions"]), str(d["hands"]), _minutes(d["minutes"]),
                          _money(d["wagered"]), _money(d["average_bet"]), _money(d["actual_win"]),
                          _money(d["theoretical_win"]))
        actual = sum(int(r.total("actual_win")) for r in self.ratings)
        summary = Text(n_("{count} player(s) · wagered {wagered} · actual win {actual} · a banked round's theoretical "
                          "win is each stake × the profile's house edge on its bet type; a card room's is its rake and "
                          "fees",
                          "{count} player(s) · wagered {wagered} · actual win {actual} · a banked round's theoretical "
                          "win is each stake × the profile's house edge on its bet type; a card room's is its rake and "
                          "fees", len(self.ratings), wagered=number(sum(int(r.total("wagered")) for r in self.ratings)),
                          actual=signed(actual) if actual else f"+{number(0)}"))
        if not self.ratings:
            if self.day:
                summary = Text(_("No rated play on gaming day {day}.", day=self.day) if self.training
                               else _("No rated play on gaming day {day} at live tables (T: training tables too).",
                                      day=self.day))
            else:
                summary = Text(_("No rated play.") if self.training
                               else _("No rated play at live tables (T: training tables too)."))
        self.query_one("#players-sum", Static).update(summary)
        self._detail(0)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._detail(event.cursor_row)

    def _detail(self, row: int) -> None:
        out = Text()
        if 0 <= row < len(self.ratings):
            r = self.ratings[row]
            out.append((_("{player} · card {card}: sessions", player=r.player, card=r.card) if r.card
                        else _("{player} · anonymous: sessions", player=r.player)) + "\n", style="bold")
            for s in r.sessions:
                d = s.to_dict()
                left = str(d["left_at"])[11:16] if d["left_at"] else _("still seated")
                values = {"table": s.table, "seat": s.seat, "sat": s.sat_at[:16].replace("T", " "), "left": left,
                          "hands": d["hands"], "minutes": _minutes(d["minutes"], False),
                          "away": _minutes(d["away_minutes"], False),
                          "wagered": _money(d["wagered"]), "average": _money(d["average_bet"]),
                          "actual": _money(d["actual_win"]), "theoretical": _money(d["theoretical_win"])}
                out.append((_("{table} seat {seat}: {sat} to {left} · {hands} hands · {minutes} min ({away} sat out) · "
                               "wagered {wagered} · average bet {average} · actual {actual} · theoretical {theoretical}",
                               **values) if s.away_minutes
                            else _("{table} seat {seat}: {sat} to {left} · {hands} hands · {minutes} min · wagered "
                                   "{wagered} · average bet {average} · actual {actual} · theoretical {theoretical}",
                                   **values)) + "\n")
        self.query_one("#players-sessions", Static).update(out)

    def action_back(self) -> None:
        self.app.pop_screen()
