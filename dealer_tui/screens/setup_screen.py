"""Table setup: game, profile (its paytable shown), seats, players with buy-ins; or a table of
the ledger to resume."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Input, Label, Select, Static

from dealer_tui.language import N_, _, number, told, told_error
from dealer_tui.ledger.where import is_server
from dealer_tui.rounds.game import Games
from dealer_tui.screens.wording import sentence
from rules.profiles.loader import LoadedProfile, ProfileLibrary


@dataclass(frozen=True)
class SetupResult:
    name: str
    profile: LoadedProfile
    seats: int
    players: list[StartingPlayer]
    cards: str = "shoe"
    """Where the cards come from: "shoe" (the terminal deals) or "entry" (physical cards, keyed)."""
    pit: str = ""
    """The pit server the terminal delivers to ('' none)."""


@dataclass(frozen=True)
class ResumeTable:
    """The dealer chose to reopen a table the ledger already holds."""

    table_id: int
    pit: str = ""
    """The pit server the terminal delivers to ('' none)."""


@dataclass(frozen=True)
class KnownTable:
    """A table of the ledger, as the setup screen offers it for resuming."""

    table_id: int
    name: str
    title: str
    """What the list shows: the name, the game, the rounds played."""


NEW_TABLE = "new"


def unused_name(taken: list[str]) -> str:
    """The first of "Table 1", "Table 2", … (in the reader's language) that no table of the ledger
    has (case aside)."""
    names = {n.casefold() for n in taken}
    return next(name for name in (_("Table {number}", number=n) for n in range(1, len(names) + 2))
                if name.casefold() not in names)


def parse_seats(text: str, most: int) -> int:
    """The seats field: a whole number from 2 to `most`; ValueError says what is wrong."""
    raw = text.strip()
    if not raw.isdigit() or not raw.isascii():
        raise ValueError(_("seats: {seats} is not a whole number (2 to {most})", seats=repr(raw), most=most) if raw
                         else _("seats: how many seats (2 to {most})", most=most))
    seats = int(raw) if len(raw) <= 3 else most + 1
    if not 2 <= seats <= most:
        raise ValueError(_("seats: {seats} is not possible at this table: 2 to {most}", seats=raw, most=most))
    return seats


class StartingPlayer(NamedTuple):
    seat: int
    name: str
    buy_in: int
    card: str = ""
    """The player's loyalty card, typed after a # (`Ann Lee #LC-1234 5000`)."""
    document: str = ""
    """The ID document the player showed (kind and number), asked for when their cash needs it."""


def parse_players(text: str, seats: int, buy_in: tuple[int, int]) -> list[StartingPlayer]:
    """`Ann 1000, Bob 500`, `3 Cy 800` or `Ann Lee #LC-1234 5000` (a loyalty card after a #) ->
    the players to seat; ValueError names the problem."""
    out: list[StartingPlayer] = []
    taken: set[int] = set()
    for index, chunk in enumerate((c.strip() for c in text.split(",")), start=1):
        if not chunk:
            continue
        words = chunk.split()
        seat = int(words.pop(0)) if len(words) >= 3 and words[0].isdigit() else None
        if len(words) < 2 or not words[-1].isdigit():
            raise ValueError(_("player {number} ({typed}): write a name and a buy-in, e.g. Ann 1000 (a loyalty card "
                               "after a #: Ann Lee #LC-1234 5000)", number=index, typed=repr(chunk)))
        amount = int(words.pop())
        cards = [w[1:] for w in words if w.startswith("#")]
        name = " ".join(w for w in words if not w.startswith("#"))
        if len(cards) > 1 or (cards and not cards[0]) or not name:
            raise ValueError(_("player {number} ({typed}): a name, then at most one loyalty card after a #, then the "
                               "buy-in: Ann Lee #LC-1234 5000", number=index, typed=repr(chunk)))
        if cards and (len(cards[0]) > 32 or not all(c.isascii() and (c.isalnum() or c in "-_.") for c in cards[0])):
            raise ValueError(_("player {number} ({name}): a loyalty card number is 1 to 32 letters, digits, '-', '_' "
                               "or '.'", number=index, name=name))
        seat = seat if seat is not None else next((s for s in range(1, seats + 1) if s not in taken), 0)
        if not 1 <= seat <= seats or seat in taken:
            raise ValueError(_("player {number} ({name}): seat {seat} is not free (seats 1-{seats})", number=index,
                               name=name, seat=seat, seats=seats))
        if not buy_in[0] <= amount <= buy_in[1]:
            raise ValueError(_("player {number} ({name}): a buy-in is {low}–{high}, not {amount}", number=index, name=name,
                               low=number(buy_in[0]), high=number(buy_in[1]), amount=number(amount)))
        if any(other.name.casefold() == name.casefold() for other in out):
            raise ValueError(_("player {number} ({name}): a player of that name is already seated; "
                               "tell them apart (e.g. {name} 2)", number=index, name=name))
        taken.add(seat)
        out.append(StartingPlayer(seat, name, amount, cards[0] if cards else ""))
    if not out:
        raise ValueError(_("players: seat at least one player"))
    return out


CARD_SOURCES = [(N_("Virtual shoe: the terminal deals"), "shoe"),
                (N_("Keyed entry: physical cards, the dealer keys them"), "entry")]
"""Where the cards come from, each with its label (translated where it is shown)."""


def card_sources() -> list[tuple[str, str]]:
    """`CARD_SOURCES` as the setup offers them, in the reader's language."""
    return [(_(label), source) for label, source in CARD_SOURCES]


def players_example(buy_in: int) -> str:
    """The players field's example, with a buy-in the profile takes (typed as digits: no grouping)."""
    return _("e.g. Ann {buy_in}, Bob {buy_in}, 5 Cy {buy_in}", buy_in=buy_in)


class FieldError(ValueError):
    """A setup field's value refused: `field` is the id of the field at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


class SetupScreen(Screen[SetupResult | ResumeTable]):
    CSS_PATH = "setup.tcss"
    BINDINGS = [Binding("ctrl+o", "open_table", N_("Open the table")), Binding("f2", "staff", N_("Staff accounts"))]

    def __init__(self, library: ProfileLibrary, games: Games[Any], *,
                 game: str | None = None, profile: str | None = None, seats: int | None = None,
                 cards: str | None = None,
                 tables: list[KnownTable] | None = None, pit: str = "", pit_names: list[str] | None = None,
                 staff: Callable[..., None] | None = None, staffing: Callable[[], str] | None = None,
                 needs_id: Callable[[StartingPlayer], str | None] | None = None,
                 check_document: Callable[[str], str] | None = None) -> None:
        """`staff(then=...)` opens the staff accounts (a manager signs in); `staffing()` says who
        the ledger's staff are and who a table still lacks; `needs_id(player)` why a starting
        player's cash buy-in needs their ID document first (None: it does not), which
        `check_document` takes as the ledger keeps it (ValueError: why not)."""
        super().__init__()
        self.staff, self.staffing = staff, staffing
        self.needs_id, self.check_document = needs_id, check_document
        self.pit = pit
        self.pit_names = pit_names or []
        """The names of the pit's tables (other terminals'): a new table takes none of them."""
        self.tables = tables or []
        self.library, self.games = library, games
        self.game, self.profile_name, self.seats = game, profile, seats
        self.cards = cards or "shoe"

    def compose(self) -> ComposeResult:
        game = self.game if self.game in self.games else self.games.ids()[0]
        yield Header(show_clock=False)
        with VerticalScroll(id="setup"):
            yield Static("", id="staffing")
            if self.tables:
                with Horizontal(classes="row"):
                    yield Label(_("Table"))
                    yield Select([(_("A new table"), NEW_TABLE),
                                  *((t.title, str(t.table_id)) for t in self.tables)],
                                 value=NEW_TABLE, allow_blank=False, id="table")
            else:
                yield Static(Text(_("New table"), style="bold"))
            with Horizontal(classes="row new-only"):
                yield Label(_("Game"))
                yield Select([(self.games.rules(g).title, g) for g in self.games.ids()], value=game, allow_blank=False,
                             id="game")
            with Horizontal(classes="row new-only"):
                yield Label(_("Profile"))
                yield Select([], id="profile")
            with Horizontal(classes="row new-only"):
                yield Label(_("Cards"))
                yield Select(card_sources(), value=self.cards, allow_blank=False, id="cards")
            with Horizontal(classes="row new-only"):
                yield Label(_("Table name"))
                yield Input(unused_name([t.name for t in self.tables] + self.pit_names), id="name", max_length=60)
            with Horizontal(classes="row new-only"):
                yield Label(_("Seats"))
                yield Input(str(self.seats or 7), id="seats", max_length=12)
            with Horizontal(classes="row new-only"):
                yield Label(_("Players"))
                yield Input(placeholder=players_example(1000), id="players")
            with Horizontal(classes="row"):
                yield Label(_("Pit server"))
                yield Input(self.pit, id="pit", placeholder=_("postgresql://… (empty: this terminal's ledger only)"))
            yield Static("", id="setup-error")
            yield Button(_("Open the table (ctrl+o)"), variant="primary", id="open")
            yield Static(_("Tab moves between fields · Enter in the last field opens the table"), id="setup-hint")
            yield Static(id="paytable", classes="new-only")
        yield Footer()

    def on_mount(self) -> None:
        self.title = _("Dealer terminal — table setup")
        self._show_staffing()
        self._fill_profiles(str(self.query_one("#game", Select).value))
        self._fill_card_sources(str(self.query_one("#game", Select).value))
        first = self.query_one("#table" if self.tables else "#game", Select)
        first.focus()
        self.query_one("#setup", VerticalScroll).scroll_home(animate=False)

    def _fill_profiles(self, game: str) -> None:
        names = self.library.names(game)
        select = self.query_one("#profile", Select)
        select.set_options([(n, n) for n in names])
        wanted = self.profile_name if self.profile_name in names else self.games.rules(game).default_profile
        if wanted in names:
            select.value = wanted
        self._show_paytable()

    def _fill_card_sources(self, game: str) -> None:
        """Keyed entry only for the games with a live-table variant."""
        select = self.query_one("#cards", Select)
        wanted = select.value if isinstance(select.value, str) else self.cards
        keyed = self.games.find(game).keyed_round is not None
        options = [o for o in card_sources() if o[1] == "shoe" or keyed]
        select.set_options(options)
        select.value = wanted if any(v == wanted for _label, v in options) else "shoe"

    def _show_paytable(self) -> None:
        value = self.query_one("#profile", Select).value
        if not isinstance(value, str):
            return
        from dealer_tui.views.posting import render

        loaded = self.library.find(value)
        self.query_one("#paytable", Static).update(render(loaded))
        if self.seats is None:  # the profile decides the seats unless --seats did
            self.query_one("#seats", Input).value = str(loaded.profile.max_seats())
        high = loaded.profile.buy_in.max
        self.query_one("#players", Input).placeholder = players_example(high)

    def _resuming(self) -> int | None:
        """The table chosen for resuming, if one is."""
        if not self.tables:
            return None
        value = self.query_one("#table", Select).value
        return int(value) if isinstance(value, str) and value != NEW_TABLE else None

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "table":
            resuming = self._resuming() is not None
            for part in self.query(".new-only"):
                part.display = not resuming
            button = self.query_one("#open", Button)
            button.label = _("Resume the table (ctrl+o)") if resuming else _("Open the table (ctrl+o)")
            self.query_one("#setup-error", Static).update("")
        elif event.select.id == "game" and isinstance(event.value, str):
            self._fill_profiles(event.value)
            self._fill_card_sources(event.value)
        elif event.select.id == "profile":
            self._show_paytable()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_open_table()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id in ("players", "pit") or self._resuming() is not None:
            self.action_open_table()
        else:
            self.focus_next()

    def _show_staffing(self) -> None:
        if self.staffing is not None:
            text = self.staffing()
            shown = self.query_one("#staffing", Static)
            shown.display = getattr(text, "needed", "needed" in text)  # a table lacks someone: said first
            shown.update(_("Staff — {staffing} F2: a manager adds them.", staffing=text))

    def action_staff(self) -> None:
        if self.staff is not None:
            self.staff(then=self._show_staffing)

    def action_open_table(self) -> None:
        resume = self._resuming()
        try:
            pit = self._pit()
            if resume is not None:
                self.dismiss(ResumeTable(resume, pit))
                return
            result = self._collect(pit)
        except FieldError as exc:
            self._refuse(exc)
            return
        self._identify(result, [])

    def _refuse(self, exc: FieldError) -> None:
        error = self.query_one("#setup-error", Static)
        error.update(sentence(told_error(exc)))
        self.query_one(f"#{exc.field}").focus()  # the field at fault, the reason under the fields where the dealer looks
        self.call_after_refresh(error.scroll_visible, animate=False)

    def _identify(self, result: SetupResult, done: list[StartingPlayer]) -> None:
        """Each starting player whose cash needs an ID document is asked for it, one after the
        other; the table opens once every one has it. Esc leaves the setup as it was typed."""
        from dealer_tui.screens.dialog import ask_over
        from dealer_tui.screens.reason_dialog import ReasonDialog

        for i, player in enumerate(result.players[len(done):], start=len(done)):
            needs = self.needs_id(player) if self.needs_id is not None else None
            if needs is None:
                done.append(player)
                continue
            check = self.check_document

            def problem(text: str) -> str | None:
                try:
                    if check is not None:
                        check(text)
                except ValueError as exc:
                    return told_error(exc)
                return None

            def given(document: str | None, player: StartingPlayer = player) -> None:
                if not document:
                    self._refuse(FieldError("players", _("{name} (seat {seat}): a cash buy-in of {amount} needs their "
                                                         "ID document (ctrl+o asks for it again)", name=player.name,
                                                         seat=player.seat, amount=number(player.buy_in))))
                    return
                kept = check(document) if check is not None else document.strip()
                self._identify(result, [*done, StartingPlayer(player.seat, player.name, player.buy_in, player.card, kept)])

            ask_over(self.app, ReasonDialog(_("{needs}. {name}'s ID document (seat {seat}; a loyalty card identifies "
                                             "nobody):", needs=told(needs), name=player.name, seat=player.seat),
                                           _("kind and number: passport X1234567"),
                                           _("The ID document is needed: without it the cash is not taken."),
                                           problem), given)
            return
        self.dismiss(replace(result, players=done))

    def _pit(self) -> str:
        url = self.query_one("#pit", Input).value.strip()
        if url and not is_server(url):
            raise FieldError("pit", _("pit server: not a postgresql:// URL (empty: no pit server)"))  # never echoed: a PIN
            # typed ahead into the wrong field would be shown
        return url

    def _collect(self, pit: str = "") -> SetupResult:
        profile_name = self.query_one("#profile", Select).value
        if not isinstance(profile_name, str):
            raise FieldError("profile", _("profile: choose a profile"))
        loaded = self.library.find(profile_name)
        name = self.query_one("#name", Input).value.strip()
        if not name:
            raise FieldError("name", _("table name: give the table a name"))
        if name.casefold() in {t.name.casefold() for t in self.tables}:
            raise FieldError("name", _("table name: the ledger already has a table {name}; choose it under Table to "
                                       "resume it, or give this one another name", name=repr(name)))
        if pit and name.casefold() in {n.casefold() for n in self.pit_names}:
            raise FieldError("name", _("table name: the pit has a table {name} already (another terminal's); give this "
                                       "one another name, so that the floor tells them apart", name=repr(name)))
        try:
            seats = parse_seats(self.query_one("#seats", Input).value, loaded.profile.max_seats())
        except ValueError as exc:
            raise FieldError("seats", told_error(exc)) from None
        try:
            players = parse_players(self.query_one("#players", Input).value, seats,
                                    (loaded.profile.buy_in.min, loaded.profile.buy_in.max))
        except ValueError as exc:
            raise FieldError("players", told_error(exc)) from None
        rule = self.games.find(loaded.game).round.buy_rule
        for p in players:
            problem, _stake = rule(loaded.profile, (), p.buy_in)
            if problem:
                raise FieldError("players", _("{name} (seat {seat}): a buy-in of {amount} is refused: {problem}",
                                              name=p.name, seat=p.seat, amount=number(p.buy_in), problem=told(problem)))
        cards = self.query_one("#cards", Select).value
        return SetupResult(name, loaded, seats, players, cards if isinstance(cards, str) else "shoe", pit)
