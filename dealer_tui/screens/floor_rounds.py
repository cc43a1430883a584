"""The floor review's rounds list: filters and search, sorting by a column, keyset paging, export
of the rows in view, the sign-off queue, and new rounds as they land."""

from __future__ import annotations

import io
import time
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from dealer_tui.accounting.theoretical import Theory
from dealer_tui.language import N_, _, n_, os_problem, told, told_error
from dealer_tui.ledger import Ledger, RoundRecord, RowQuery
from dealer_tui.ledger.base import ROUND_OPEN, TRAINING, Cursor, LedgerError, cursor_of
from dealer_tui.ledger.postgres import PgLedger
from dealer_tui.paths import theory_cache_path
from dealer_tui.rounds.game import Games
from dealer_tui.screens.floor_filters import FilterModal, PathModal
from dealer_tui.screens.floor_names import TableNames
from dealer_tui.screens.floor_signoff import SignOffDesk
from dealer_tui.screens.floor_voids import Voids
from dealer_tui.views import Presenter
from dealer_tui.views.record_words import flag_word, flags_text, status_word
from dealer_tui.widgets.screen_keys import ScreenKeys

PAGE = 50
"""The flag filter's cycle (`f`): any flag, then every flag a round may carry."""
SORTS = ("time", "paid", "wagered", "house")
COLUMNS = (("time", N_("Time (UTC)")), ("table", N_("Table")), ("number", N_("Round")), ("status", N_("Status")),
           ("paid", N_("Paid")), ("house", N_("House")), ("wagered", N_("Wagered")), ("flags", N_("Flags")),
           ("from_stacks", N_("From stacks")), ("returned", N_("Returned")), ("seats", N_("Seats")), ("game", N_("Game")),
           ("profile", N_("Profile")))
"""What a supervisor acts on first (a narrow screen or tablet cuts the columns on the right).
Wagered + From stacks = Paid + Returned + House on every row (`payouts.RoundChips`)."""
NEWEST_FIRST = {"time": N_("sort: newest first"), "paid": N_("sort: biggest paid first"),
                "wagered": N_("sort: biggest wagered first"), "house": N_("sort: best for house first")}
ASCENDING = {"time": N_("sort: time, ascending"), "paid": N_("sort: paid, ascending"),
             "wagered": N_("sort: wagered, ascending"), "house": N_("sort: house, ascending")}
"""The sort in force, as the line above the list says it."""


def shown_time(iso: str | None) -> str:
    return iso[:19].replace("T", " ") if iso else ""


def show_line(line: Static, text: str) -> None:
    """New text for a line above a table; the screen is laid out again only when the text's height
    changes (a layout moves every widget and costs the list a second frame)."""
    width, height = line.content_size
    line.update(text, layout=False)
    if not width or line.get_content_height(line.content_size, line.content_size, width) != height:
        line.refresh(layout=True)


class RoundsScreen(Screen[None]):
    CSS_PATH = "floor.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "story", N_("Round story")),
        Binding("slash", "filters", N_("Filter/search")),
        Binding("g", "cycle_game", N_("Game")),
        Binding("f", "cycle_flag", N_("Flag")),
        Binding("b", "big_payouts", N_("Big pays")),
        Binding("c", "clear", N_("Clear")),
        Binding("o", "cycle_sort", N_("Sort")),
        Binding("O", "reverse", N_("Reverse"), show=False),
        Binding("n", "older", N_("Next")),
        Binding("p", "newer", N_("Prev")),
        Binding("t", "totals", N_("Totals")),
        Binding("h", "shifts", N_("Shifts")),
        Binding("y", "players", N_("Players")),
        Binding("exclamation_mark", "alerts", N_("Alerts")),
        Binding("T", "training", N_("Training"), show=False),
        Binding("e", "export", N_("Export")),
        Binding("s", "sign_offs", N_("Sign-offs")),
        Binding("m", "map", N_("Pit map")),
        Binding("a", "pit", N_("Pit")),
        Binding("r", "reload", N_("Refresh"), show=False),
        Binding("escape", "close", N_("Close")),
    ]

    def __init__(self, ledger: Ledger, games: Games[Presenter[Any]], big_payout: int, *,
                 desk: SignOffDesk | None = None, export_dir: Path | None = None, theory: Theory | None = None) -> None:
        super().__init__()
        self.ledger, self.games, self.big_payout = ledger, games, big_payout
        self.flag_words = games.flag_words()
        """Each game's own flags in the reader's words (`views.record_words` has the others)."""
        self._theory = theory
        self.desk, self.export_dir = desk, export_dir
        self.query_ = RowQuery()
        self.sort, self.descending = "time", True
        self.pages: list[Cursor | None] = [None]  # where each page shown so far starts
        self.rows: list[RoundRecord] = []
        self.waiting: set[int] = set()
        """The rounds on the page whose payout waits for sign-off."""
        self.tables = TableNames(ledger)
        self.voids = Voids(ledger, games)
        self.has_training = ledger.any_flagged(TRAINING)

    @property
    def theory(self) -> Theory:
        """The games' house edges (simulated when first asked for, then cached)."""
        if self._theory is None:
            self._theory = Theory(self.games, theory_cache_path())
        return self._theory

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield Static(id="floor-filters")
        yield DataTable(id="floor-table", zebra_stripes=True, cursor_type="row")
        yield ScreenKeys()

    def on_mount(self) -> None:
        self.title = _("Floor review")
        table = self.query_one(DataTable)
        for key, label in COLUMNS:
            table.add_column(_(label), key=key)
        self.load()
        self._mark = self.ledger.change_mark()
        self._looked = time.monotonic()
        self.set_interval(0.5, self._poll)
        self.call_after_refresh(self._prepare)

    def _prepare(self) -> None:
        """Import the games the ledger has tables of once the list is drawn: the first Enter on a
        round then does not wait for its game's import."""
        try:
            dealt = {t.game for t in self.ledger.tables()}
        except LedgerError:
            return
        for game_id in self.games.ids():
            if game_id in dealt:
                self.games.find(game_id)

    def load(self) -> None:
        try:
            self.rows = self.ledger.find_rounds(self.query_, PAGE, self.pages[-1], self.sort, self.descending)
            self.waiting = {w.round.id for w in self.ledger.sign_off_queue()} \
                if any(r.status == ROUND_OPEN for r in self.rows) else set()
        except LedgerError as exc:  # a pit server away: the list stays as it was, and says why
            self.notify(told_error(exc), severity="error", timeout=6)
            return
        table = self.query_one(DataTable)
        table.clear()
        for r in self.rows:
            table.add_row(*self.cells(r), key=str(r.id))
        show_line(self.query_one("#floor-filters", Static), self.describe())

    def cells(self, r: RoundRecord) -> tuple[str, ...]:
        """A round's row; a voided round shows the seats and the bets its void returned."""
        seats, wagered, returned = r.seats, r.wagered, r.returned
        void = self.voids.of(r)
        if void is not None and void.returned is not None:
            seats, wagered, returned = void.seats, void.wagered, void.wagered
        if r.status == ROUND_OPEN:  # nothing is settled yet: no figure to show (its story shows the hand)
            status = _("WAITING FOR THE FLOOR") if r.id in self.waiting else _("in play")
            return (shown_time(r.started_at), self.tables.name(r.table_id), str(r.number), status, "—", "—", "—",
                    flags_text(r.flags, self.flag_words), "—", "—", "—", self.games.title(r.game), r.profile)
        return (shown_time(r.started_at), self.tables.name(r.table_id), str(r.number), status_word(r.status), str(r.paid),
                f"{r.house_result:+}", str(wagered), flags_text(r.flags, self.flag_words), str(r.from_stacks), str(returned),
                str(seats), self.games.title(r.game), r.profile)

    def describe(self, pit: bool = True) -> str:
        """The filters, sort and page in force, in one line above the list."""
        q = self.query_
        parts = [_("game: {game}", game=self.games.title(q.game)) if q.game else _("game: all"),
                 _("flag: {flag}", flag=flag_word(q.flag, self.flag_words)) if q.flag else _("flag: any")]
        if q.since or q.until:
            parts.append(_("time: {since} to {until}", since=shown_time(q.since)[:16] or "…",
                           until=shown_time(q.until)[:16] or "…"))
        if q.seat is not None:
            parts.append(_("seat {seat}", seat=q.seat))
        parts.append(_("payout ≥ {least}", least=q.min_payout) if q.min_payout else _("any payout"))
        if q.search:
            parts.append(_("search: {text}", text=repr(q.search)))
        if self.has_training or q.training:
            parts.append(_("training tables: taken in (T)") if q.training else _("training tables: left out (T)"))
        parts.append(_((NEWEST_FIRST if self.descending else ASCENDING)[self.sort]))
        if q.area:
            parts.append(_("area: {area}", area=q.area))
        more = "+" if len(self.rows) == PAGE else ""
        parts.append(n_("page {page}: {count}{more} rounds", "page {page}: {count}{more} rounds", len(self.rows),
                        page=len(self.pages), more=more))
        line = " · ".join(parts)
        if pit and isinstance(self.ledger, PgLedger):
            from dealer_tui.screens.floor_pit import pit_summary

            try:
                line += "\n" + pit_summary(self.ledger)
            except LedgerError as exc:
                line += f"\n{told_error(exc)}"
        return line

    def _poll(self) -> None:
        """New rounds land while the dealer plays: reload the first page when it is in view —
        within a second of a change the ledger tells of (`change_mark`), else every few seconds."""
        mark, now = self.ledger.change_mark(), time.monotonic()
        if now - self._looked < 3.0 and mark in (0, self._mark):
            return
        self._mark, self._looked = mark, now
        away = self.ledger.unreachable()
        if away is not None:  # a pit server away: said above the list, looked for again when it is back
            show_line(self.query_one("#floor-filters", Static), f"{told(away)}\n{self.describe(pit=False)}")
            return
        try:
            self._look_again()
        except LedgerError as exc:
            show_line(self.query_one("#floor-filters", Static), f"{told_error(exc)}\n{self.describe(pit=False)}")
            return
        show_line(self.query_one("#floor-filters", Static), self.describe())  # the pit's links move too

    def _look_again(self) -> None:
        if len(self.pages) == 1:
            newest = self.ledger.find_rounds(self.query_, 1, None, self.sort, self.descending)
            if newest and (not self.rows or newest[0].id != self.rows[0].id or newest[0].status != self.rows[0].status):
                self.load()

    def set_query(self, query: RowQuery) -> None:
        self.query_ = query
        self.pages = [None]
        self.load()

    def _set(self, **changes: object) -> None:
        self.set_query(replace(self.query_, **changes))  # type: ignore[arg-type]

    def action_filters(self) -> None:
        self.app.push_screen(FilterModal(self.query_, pit=isinstance(self.ledger, PgLedger)),
                             lambda q: self.set_query(q) if q is not None else None)

    def action_clear(self) -> None:
        self.set_query(RowQuery())

    def action_cycle_game(self) -> None:
        dealt = {t.game for t in self.ledger.tables()}
        choices: list[str | None] = [None, *(g for g in self.games.ids() if g in dealt)]
        """Every game, then each game the ledger has a table of."""
        i = choices.index(self.query_.game) if self.query_.game in choices else 0
        self._set(game=choices[(i + 1) % len(choices)])

    def action_cycle_flag(self) -> None:
        flags: list[str | None] = [None, *self.games.flags()]
        i = flags.index(self.query_.flag) if self.query_.flag in flags else 0
        self._set(flag=flags[(i + 1) % len(flags)])

    def action_training(self) -> None:
        """Take in, or leave out again, the rounds of training tables (demos): left out of the list
        and the totals unless asked for."""
        self.has_training = self.has_training or self.ledger.any_flagged(TRAINING)
        self._set(training=not self.query_.training)

    def action_big_payouts(self) -> None:
        self._set(min_payout=None if self.query_.min_payout else self.big_payout)

    def sort_by(self, sort: str, descending: bool = True) -> None:
        self.sort, self.descending = sort, descending
        self.pages = [None]
        self.load()

    def action_cycle_sort(self) -> None:
        self.sort_by(SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)])

    def action_reverse(self) -> None:
        self.sort_by(self.sort, not self.descending)

    def on_data_table_header_selected(self, event: DataTable.HeaderSelected) -> None:
        """A click on a column's header sorts by it (again: the other way round)."""
        key = str(event.column_key.value)
        if key in SORTS:
            self.sort_by(key, not self.descending if key == self.sort else True)
        else:
            self.notify(_("The list sorts by time, wagered, paid or house."), severity="warning")

    def action_older(self) -> None:
        if len(self.rows) == PAGE:
            self.pages.append(cursor_of(self.rows[-1], self.sort))
            self.load()

    def action_newer(self) -> None:
        if len(self.pages) > 1:
            self.pages.pop()
            self.load()

    def action_close(self) -> None:
        """Back to the table when opened from the dealer's terminal; the review app asks first
        (a stray Esc does not end the supervisor's session)."""
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
            return
        from dealer_tui.screens.choice_dialog import ChoiceDialog
        from dealer_tui.screens.dialog import ask_over

        ask_over(self.app, ChoiceDialog(_("Quit the floor review? (the next one signs in again)"),
                                       [("y", _("yes, quit")), ("n", _("no, back to the rounds"))]),
                           lambda choice: self.app.exit() if choice == "y" else None)

    def action_reload(self) -> None:
        self.load()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_story()

    def action_story(self) -> None:
        table = self.query_one(DataTable)
        if not self.rows or table.cursor_row is None or table.cursor_row >= len(self.rows):
            return
        from dealer_tui.screens.floor_story import StoryScreen

        self.app.push_screen(StoryScreen(self.ledger, self.rows[table.cursor_row], self.games, self.tables, self.voids))

    def action_totals(self) -> None:
        from dealer_tui.screens.floor_totals import TotalsScreen

        self.app.push_screen(TotalsScreen(self.ledger, self.query_, self.tables))

    def action_alerts(self) -> None:
        from dealer_tui.screens.floor_alerts import AlertsScreen

        self.app.push_screen(AlertsScreen(self.ledger, self.desk, self.theory))

    def action_players(self) -> None:
        from dealer_tui.screens.floor_players import PlayersScreen

        self.app.push_screen(PlayersScreen(self.ledger, self.theory))

    def action_shifts(self) -> None:
        from dealer_tui.screens.floor_shifts import ShiftsScreen

        self.app.push_screen(ShiftsScreen(self.ledger, self.theory))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The pit's screen only on a pit server's floor."""
        return isinstance(self.ledger, PgLedger) if action == "pit" else True

    def action_map(self) -> None:
        from dealer_tui.screens.floor_map import PitMapScreen

        self.app.push_screen(PitMapScreen(self.ledger, self, self.theory))

    def action_pit(self) -> None:
        if isinstance(self.ledger, PgLedger):
            from dealer_tui.screens.floor_pit import PitScreen

            self.app.push_screen(PitScreen(self.ledger))

    def action_sign_offs(self) -> None:
        if self.desk is None:
            self.notify(_("No supervisor PIN is available here: the queue opens from `dealer-tui floor`."),
                        severity="warning")
            return
        from dealer_tui.screens.floor_signoff import SignOffScreen

        self.app.push_screen(SignOffScreen(self.ledger, self.desk, self.tables, self.games))

    def default_export(self) -> str:
        """A name that carries when the export was made (the terminal's local time and zone)."""
        stamp = datetime.now().astimezone().strftime("%Y%m%d-%H%M%S%z")
        return str((self.export_dir or Path.cwd()) / f"floor-rounds-{stamp}.csv")

    def action_export(self) -> None:
        """The settlement rows of the rounds the filters pick (every page) as CSV: in a browser,
        downloaded to the tablet; at a terminal, to a file, an existing one replaced only when
        the same name is given again."""
        from dealer_tui.ledger.export import export_csv, write_rows

        query = self.query_
        if self.app.is_web:
            text = io.StringIO()
            count = write_rows(self.ledger, query, text)
            text.seek(0)
            name = Path(self.default_export()).name
            self.app.deliver_text(text, save_filename=name, mime_type="text/csv")
            self.notify(n_("{count} rows sent to this device as {name}", "{count} rows sent to this device as {name}",
                           count, name=name), timeout=8)
            return
        asked: set[Path] = set()

        def attempt(path: str) -> tuple[bool, str]:
            if not path:
                return False, _("A file name is needed.")
            target = Path(path).expanduser()
            if target.is_file() and target not in asked:
                asked.add(target)
                return False, _("{path} exists: Enter again replaces it, or give another name.", path=str(target))
            try:
                count = export_csv(self.ledger, query, target)
            except OSError as exc:
                return False, f"{path}: {os_problem(exc)}"
            return True, n_("Wrote {count} rows to {path}", "Wrote {count} rows to {path}", count, path=str(target))

        self.app.push_screen(PathModal(_("Export the filtered rounds' rows (one per seat per bet) to CSV"),
                                       self.default_export(), attempt),
                             lambda message: self.notify(message, timeout=8) if message else None)
