"""The table setup as a dealer meets it: the first field focused and in view, a table name no
table has, the seats refused with the reason, the ledger's tables offered for resuming."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, Select, Static

from dealer_tui.app import Options, make_app
from dealer_tui.screens.round_screen import RoundScreen
from dealer_tui.screens.setup_screen import SetupScreen, parse_seats, unused_name
from tests.staff_support import DEALER_KEYS, staffed_path
from tests.tui_support import on_top, seated_app

SIZE = (120, 36)
TO_PLAYERS = ["tab"] * 5  # game, profile, cards, table name, seats, then the players


async def test_setup_opens_on_its_first_field_in_view(tmp_path: Path) -> None:
    app = make_app(staffed_path(tmp_path / "l.sqlite"), options=Options(game="high-card-flush"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = on_top(app)
        assert isinstance(screen, SetupScreen)
        game = screen.query_one("#game", Select)
        assert app.focused is game
        assert screen.query_one("#setup").scroll_y == 0
        assert game.region.y < SIZE[1]  # on screen, not scrolled past
        assert screen.query_one("#players", Input).placeholder.startswith("e.g. ")


async def test_setup_opens_the_table_named_with_its_players(tmp_path: Path) -> None:
    app = make_app(staffed_path(tmp_path / "l.sqlite"), options=Options(game="one-or-five"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(*TO_PLAYERS, *"Ann 500, Bob 600", "enter", *DEALER_KEYS)
        assert isinstance(on_top(app), RoundScreen)
        table = app.table
        assert table is not None and table.record.name == "Table 1"
        assert {s: (p.name, p.stack) for s, p in table.session.players.items()} == {1: ("Ann", 500), 2: ("Bob", 600)}


async def test_setup_refuses_a_buy_in_the_game_refuses(tmp_path: Path) -> None:
    app = make_app(staffed_path(tmp_path / "l.sqlite"), options=Options(game="chinese-poker"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(*TO_PLAYERS, *"Ann 100, Cy 60", "enter")
        assert isinstance(on_top(app), SetupScreen)            # CP-12: a first buy is full (100)
        error = str(on_top(app).query_one("#setup-error", Static).render())
        assert "Cy (seat 2): a buy-in of 60 is refused" in error
        assert app.ledger.tables() == []                      # nothing written


async def test_setup_seats_that_are_not_a_number_are_refused_with_the_reason(tmp_path: Path) -> None:
    app = make_app(staffed_path(tmp_path / "l.sqlite"), options=Options(game="high-card-flush"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = on_top(app)
        assert isinstance(screen, SetupScreen)
        seats = screen.query_one("#seats", Input)
        seats.value = ""
        await pilot.press(*["tab"] * 4, *"7x", *["tab"], *"Ann 1000", "ctrl+o")
        assert seats.value == "7x"                             # every key typed is kept, none dropped
        assert str(screen.query_one("#setup-error", Static).render()) == "Seats: '7x' is not a whole number (2 to 7)."
        seats.value = "2000200020003000"
        await pilot.press("ctrl+o")
        assert str(screen.query_one("#setup-error", Static).render()) == (
            "Seats: 2000200020003000 is not possible at this table: 2 to 7.")
        assert app.ledger.tables() == []


@pytest.mark.parametrize("size", [(120, 36), (80, 24)])
async def test_setup_says_what_is_missing_where_the_dealer_looks_and_goes_to_that_field(
        tmp_path: Path, size: tuple[int, int]) -> None:
    """The only field a new table needs filled, Players, comes before the paytable; ctrl+o with it
    empty says so on screen, beside the fields, and puts the cursor in it."""
    app = make_app(staffed_path(tmp_path / "l.sqlite"), options=Options(game="high-card-flush"))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = on_top(app)
        assert isinstance(screen, SetupScreen)
        players = screen.query_one("#players", Input)
        assert players.region.y + players.region.height <= size[1]      # in view when the screen opens
        await pilot.press("ctrl+o")
        await pilot.pause()
        error = screen.query_one("#setup-error", Static)
        assert str(error.render()) == "Players: seat at least one player."
        assert 0 <= error.region.y < size[1] - 1 and error.region.height > 0   # on screen, above the key bar
        assert app.focused is players
        assert app.ledger.tables() == []


def test_parse_seats_takes_a_whole_number_in_range() -> None:
    assert parse_seats(" 6 ", 7) == 6
    for bad in ("", "six", "6.0", "-3", "١", "99999999999999999999"):
        with pytest.raises(ValueError, match="^seats: "):
            parse_seats(bad, 7)


def test_a_new_table_gets_a_name_no_table_has() -> None:
    assert unused_name([]) == "Table 1"
    assert unused_name(["Table 1", "table 2", "High rollers"]) == "Table 3"
    assert unused_name(["Table 2"]) == "Table 1"


async def test_setup_lists_the_ledgers_tables_and_resumes_the_one_chosen(tmp_path: Path) -> None:
    seated_app(tmp_path, "high-card-flush", [(1, "Ann", 5000)])           # a table named "Pilot"
    app = make_app(staffed_path(tmp_path / "ledger.sqlite"),
                   options=Options(new_table=True))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = on_top(app)
        assert isinstance(screen, SetupScreen)
        assert screen.query_one("#name", Input).value == "Table 1"
        choose = screen.query_one("#table", Select)
        assert app.focused is choose
        await pilot.press("enter", "down", "enter")                     # the list: a new table, then Pilot
        assert not screen.query_one("#players", Input).parent.display    # nothing to fill in for a resume
        await pilot.press("ctrl+o")
        assert isinstance(on_top(app), RoundScreen)
        assert app.table is not None and app.table.record.name == "Pilot"
        assert len(app.ledger.tables()) == 1                             # resumed, not created


async def test_setup_refuses_the_name_of_a_table_the_ledger_has(tmp_path: Path) -> None:
    seated_app(tmp_path, "high-card-flush", [(1, "Ann", 5000)])
    app = make_app(staffed_path(tmp_path / "ledger.sqlite"),
                   options=Options(new_table=True, game="high-card-flush"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = on_top(app)
        assert isinstance(screen, SetupScreen)
        screen.query_one("#name", Input).value = "pilot"
        screen.query_one("#players", Input).value = "Bob 1000"
        await pilot.press("ctrl+o")
        assert "the ledger already has a table 'pilot'" in str(screen.query_one("#setup-error", Static).render())
        assert len(app.ledger.tables()) == 1


async def test_a_new_table_set_up_from_a_round_keeps_its_fields_one_line_high(tmp_path: Path) -> None:
    """ctrl+p → New table over a running table: the setup's Seats and Players fields are the
    usual 3 rows (a border around one line), not stretched by the round screen's own layout."""
    app = seated_app(tmp_path, "high-card-flush", [(1, "Ann", 500)])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(on_top(app), RoundScreen)
        app.setup()
        await pilot.pause()
        assert isinstance(on_top(app), SetupScreen)
        for field in ("#name", "#seats", "#players", "#pit"):
            assert on_top(app).query_one(field, Input).region.height == 3, field
        assert on_top(app).query_one("#players", Input).region.bottom <= SIZE[1]


async def test_setup_asks_the_id_of_a_player_whose_cash_buy_in_reaches_the_threshold(tmp_path: Path) -> None:
    """A card-room table with no tray counted yet still takes cash, which the cash logs count: Ann's
    12,000 is over the 10,000 threshold, so her ID document is asked before the table opens; Bob's
    600 is not. Esc on the question leaves the setup as typed and writes nothing."""
    from dealer_tui.screens.reason_dialog import ReasonDialog

    app = make_app(staffed_path(tmp_path / "l.sqlite"), options=Options(game="high-card-flush"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(*TO_PLAYERS, *"Ann 12000, Bob 600", "enter")
        dialog = on_top(app)
        assert isinstance(dialog, ReasonDialog)
        assert dialog.title_text.startswith("Identification needed: Ann's cash in today comes to 12,000, at or over "
                                            "the currency-transaction threshold (10,000). Ann's ID document (seat 1")
        await pilot.press("escape")
        screen = on_top(app)
        assert isinstance(screen, SetupScreen)
        assert str(screen.query_one("#setup-error", Static).render()) == (
            "Ann (seat 1): a cash buy-in of 12,000 needs their ID document (ctrl+o asks for it again).")
        assert screen.query_one("#players", Input).value == "Ann 12000, Bob 600"
        assert app.ledger.tables() == []
        await pilot.press("ctrl+o", *"card 77", "enter")                 # not an ID document: asked again
        assert isinstance(on_top(app), ReasonDialog)
        await pilot.press("ctrl+u", *"passport X1234567", "enter", *DEALER_KEYS)
        assert isinstance(on_top(app), RoundScreen)
        table = app.table
        assert table is not None
        assert {s: (p.name, p.stack, p.document) for s, p in table.session.players.items()} == {
            1: ("Ann", 12000, "passport X1234567"), 2: ("Bob", 600, "")}


async def test_a_new_table_set_up_from_a_round_replaces_the_round_left(tmp_path: Path) -> None:
    """ctrl+p → New table at a table: the new table's round screen takes the old one's place, so
    ctrl+q quits instead of going back to the table left (which another terminal may take)."""
    app = seated_app(tmp_path, "high-card-flush", [(1, "Ann", 500)])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.setup()
        await pilot.pause()
        await pilot.press("tab", *TO_PLAYERS, *"Fay 500, Gus 500", "enter", *DEALER_KEYS)  # Table, then as above
        rounds = [s for s in app.screen_stack if isinstance(s, RoundScreen)]
        assert len(rounds) == 1 and rounds[0] is on_top(app)
        assert app.table is not None and app.table.record.name == "Table 1"   # the first table is "Pilot"
        assert [p.name for p in app.table.session.players.values()] == ["Fay", "Gus"]
