"""Table setup: game, profile (its paytable shown), seats, players with buy-ins, and the
supervisor PIN on first run."""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Input, Label, Select, Static

from rules.profiles.loader import LoadedProfile, ProfileLibrary
from rules.registry import games


@dataclass(frozen=True)
class SetupResult:
    name: str
    profile: LoadedProfile
    seats: int
    players: list[tuple[int, str, int]]
    pin: str | None
    cards: str = "shoe"
    """Where the cards come from: "shoe" (the terminal deals) or "entry" (physical cards, keyed)."""


def parse_players(text: str, seats: int, buy_in: tuple[int, int]) -> list[tuple[int, str, int]]:
    """`Ann 1000, Bob 500` or `3 Cy 800` -> [(seat, name, buy-in)]; ValueError names the problem."""
    out: list[tuple[int, str, int]] = []
    taken: set[int] = set()
    for number, chunk in enumerate((c.strip() for c in text.split(",")), start=1):
        if not chunk:
            continue
        words = chunk.split()
        seat = int(words.pop(0)) if len(words) >= 3 and words[0].isdigit() else None
        if len(words) < 2 or not words[-1].isdigit():
            raise ValueError(f"player {number} ({chunk!r}): write a name and a buy-in, e.g. Ann 1000")
        amount, name = int(words[-1]), " ".join(words[:-1])
        seat = seat if seat is not None else next((s for s in range(1, seats + 1) if s not in taken), 0)
        if not 1 <= seat <= seats or seat in taken:
            raise ValueError(f"player {number} ({name}): seat {seat} is not free (seats 1-{seats})")
        if not buy_in[0] <= amount <= buy_in[1]:
            raise ValueError(f"player {number} ({name}): a buy-in is {buy_in[0]}–{buy_in[1]}, not {amount}")
        if any(other.casefold() == name.casefold() for _, other, _ in out):
            raise ValueError(f"player {number} ({name}): a player of that name is already seated; "
                             f"tell them apart (e.g. {name} 2)")
        taken.add(seat)
        out.append((seat, name, amount))
    if not out:
        raise ValueError("players: seat at least one player")
    return out


CARD_SOURCES = [("Virtual shoe: the terminal deals", "shoe"),
                ("Keyed entry: physical cards, the dealer keys them", "entry")]


class SetupScreen(Screen[SetupResult]):
    CSS_PATH = "setup.tcss"
    BINDINGS = [Binding("ctrl+o", "open_table", "Open the table")]

    def __init__(self, library: ProfileLibrary, playable: list[str], *, need_pin: bool,
                 game: str | None = None, profile: str | None = None, seats: int | None = None,
                 cards: str | None = None, keyed: list[str] | None = None) -> None:
        super().__init__()
        self.library, self.playable, self.need_pin = library, playable, need_pin
        self.game, self.profile_name, self.seats = game, profile, seats
        self.cards, self.keyed = cards or "shoe", keyed or []

    def compose(self) -> ComposeResult:
        known = games()
        game = self.game if self.game in self.playable else self.playable[0]
        yield Header(show_clock=False)
        with VerticalScroll(id="setup"):
            yield Static("[b]New table[/b]")
            with Horizontal(classes="row"):
                yield Label("Game")
                yield Select([(known[g].title, g) for g in self.playable], value=game, allow_blank=False, id="game")
            with Horizontal(classes="row"):
                yield Label("Profile")
                yield Select([], id="profile")
            yield Static(id="paytable")
            with Horizontal(classes="row"):
                yield Label("Cards")
                yield Select(CARD_SOURCES, value=self.cards, allow_blank=False, id="cards")
            with Horizontal(classes="row"):
                yield Label("Table name")
                yield Input("Table 1", id="name")
            with Horizontal(classes="row"):
                yield Label("Seats")
                yield Input(str(self.seats or 7), id="seats", type="integer")
            with Horizontal(classes="row"):
                yield Label("Players")
                yield Input(placeholder="name buy-in, …", id="players")
            if self.need_pin:
                with Horizontal(classes="row"):
                    yield Label("Supervisor PIN")
                    yield Input(password=True, placeholder="4+ digits", id="pin")
                with Horizontal(classes="row"):
                    yield Label("PIN again")
                    yield Input(password=True, id="pin2")
            yield Static("", id="setup-error")
            yield Button("Open the table (ctrl+o)", variant="primary", id="open")
            yield Static("Tab moves between fields · Enter in the last field opens the table", id="setup-hint")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "Dealer terminal — table setup"
        self._fill_profiles(str(self.query_one("#game", Select).value))
        self._fill_card_sources(str(self.query_one("#game", Select).value))
        self.query_one("#players", Input).focus()

    def _fill_profiles(self, game: str) -> None:
        names = self.library.names(game)
        select = self.query_one("#profile", Select)
        select.set_options([(n, n) for n in names])
        wanted = self.profile_name if self.profile_name in names else games()[game].default_profile
        if wanted in names:
            select.value = wanted
        self._show_paytable()

    def _fill_card_sources(self, game: str) -> None:
        """Keyed entry only for the games with a live-table variant."""
        select = self.query_one("#cards", Select)
        wanted = select.value if isinstance(select.value, str) else self.cards
        options = [o for o in CARD_SOURCES if o[1] == "shoe" or game in self.keyed]
        select.set_options(options)
        select.value = wanted if any(v == wanted for _, v in options) else "shoe"

    def _show_paytable(self) -> None:
        value = self.query_one("#profile", Select).value
        if not isinstance(value, str):
            return
        from dealer_tui.commands.paytables import render

        loaded = self.library.find(value)
        self.query_one("#paytable", Static).update(render(loaded))
        if self.seats is None:  # the profile decides the seats unless --seats did
            self.query_one("#seats", Input).value = str(loaded.profile.max_seats())
        high = loaded.profile.buy_in.max
        self.query_one("#players", Input).placeholder = f"Ann {high}, Bob {high}, 5 Cy {high}"

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "game" and isinstance(event.value, str):
            self._fill_profiles(event.value)
            self._fill_card_sources(event.value)
        elif event.select.id == "profile":
            self._show_paytable()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_open_table()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        last = "pin2" if self.need_pin else "players"
        if event.input.id == last:
            self.action_open_table()
        else:
            self.focus_next()

    def action_open_table(self) -> None:
        error = self.query_one("#setup-error", Static)
        try:
            result = self._collect()
        except ValueError as exc:
            error.update(str(exc))
            return
        self.dismiss(result)

    def _collect(self) -> SetupResult:
        profile_name = self.query_one("#profile", Select).value
        if not isinstance(profile_name, str):
            raise ValueError("profile: choose a profile")
        loaded = self.library.find(profile_name)
        name = self.query_one("#name", Input).value.strip()
        if not name:
            raise ValueError("table name: give the table a name")
        try:
            seats = int(self.query_one("#seats", Input).value)
        except ValueError:
            raise ValueError("seats: a whole number") from None
        most = loaded.profile.max_seats()
        if not 2 <= seats <= most:
            raise ValueError(f"seats: 2 to {most} at this table")
        players = parse_players(self.query_one("#players", Input).value, seats,
                                (loaded.profile.buy_in.min, loaded.profile.buy_in.max))
        from dealer_tui.rounds.registry import round_class

        rule = round_class(loaded.game).buy_rule
        for seat, player, amount in players:
            problem, _ = rule(loaded.profile, (), amount)
            if problem:
                raise ValueError(f"{player} (seat {seat}): a buy-in of {amount} is refused: {problem}")
        pin = None
        if self.need_pin:
            pin = self.query_one("#pin", Input).value
            if len(pin) < 4 or not pin.isdigit():
                raise ValueError("supervisor PIN: at least 4 digits")
            if pin != self.query_one("#pin2", Input).value:
                raise ValueError("supervisor PIN: the two entries differ")
        cards = self.query_one("#cards", Select).value
        return SetupResult(name, loaded, seats, players, pin, cards if isinstance(cards, str) else "shoe")
