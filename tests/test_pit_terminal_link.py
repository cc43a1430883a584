"""The terminal's link to the pit as the dealer sets it: the setup screen's pit server field
(refused when it is no postgresql:// URL, nothing written), the table delivered while it plays
with the link's state beside the round, and the server kept for the next start."""

from __future__ import annotations

import asyncio
from pathlib import Path

import psycopg
import pytest
from textual.widgets import Input, Static

from dealer_tui.app import Options, make_app
from dealer_tui.ledger.postgres import init_schema
from dealer_tui.paths import saved_pit
from dealer_tui.screens.round_screen import RoundScreen
from dealer_tui.screens.setup_screen import SetupScreen
from tests.staff_support import DEALER_KEYS, staffed_path
from tests.tui_support import on_top

SIZE = (120, 36)
TO_PLAYERS = ["tab"] * 5


@pytest.fixture(autouse=True)
def own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


async def test_setup_refuses_a_pit_server_that_is_not_a_postgresql_url(tmp_path: Path) -> None:
    app = make_app(staffed_path(tmp_path / "l.sqlite"), options=Options(game="high-card-flush"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = on_top(app)
        assert isinstance(screen, SetupScreen)
        screen.query_one("#pit", Input).value = "pit-server:5432"
        await pilot.press(*TO_PLAYERS, *"Ann 500", "enter")
        assert isinstance(on_top(app), SetupScreen)
        assert str(screen.query_one("#setup-error", Static).render()) == (
            "Pit server: not a postgresql:// URL (empty: no pit server).")      # what was typed is not echoed
        assert app.focused is screen.query_one("#pit", Input)
        assert app.ledger.tables() == [] and app.link is None and saved_pit() is None


async def test_a_pit_server_set_at_setup_takes_the_table_as_it_plays_and_is_kept(tmp_path: Path,
                                                                                  pit_db: str) -> None:
    init_schema(pit_db)
    url = "postgresql:///" + pit_db.split("dbname=")[1].split()[0] + "?host=" + pit_db.split("host=")[1].split()[0] \
        + "&user=pit"
    app = make_app(staffed_path(tmp_path / "l.sqlite"), options=Options(game="high-card-flush"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        on_top(app).query_one("#pit", Input).value = url
        await pilot.press(*TO_PLAYERS, *"Ann 500, Bob 600", "enter", *DEALER_KEYS)
        assert isinstance(on_top(app), RoundScreen) and app.link is not None
        for _ in range(100):
            await asyncio.sleep(0.1)
            await pilot.pause()
            if on_top(app).title.startswith("pit: NOT BOUND"):
                break
        # delivered, but the pit's staff are not taken: no manager bound this terminal to the pit's key
        assert on_top(app).title == "pit: NOT BOUND (staff not taken) — Table 1 — High Card Flush (card room)"
    with psycopg.connect(pit_db) as db:
        names = [n for (n,) in db.execute("SELECT name FROM pit_tables WHERE origin_id <> 0")]
        seated = db.execute("SELECT COUNT(*) FROM pit_events WHERE kind = 'seat_taken'").fetchone()
    assert names == ["Table 1"] and seated == (2,)
    assert saved_pit() == url                                   # the next start delivers there too


async def test_a_new_terminal_whose_pit_cannot_be_reached_says_so_before_any_first_manager(tmp_path: Path) -> None:
    """A new terminal's staff are the pit's: with the server away it is said, with the choice to
    try again, to make a first manager here anyway, or to quit — never the first manager's screen
    without a word."""
    from dealer_tui.screens.choice_dialog import ChoiceDialog

    app = make_app(tmp_path / "new.sqlite", pit="postgresql://nobody@/nodb?host=/tmp/nowhere")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = on_top(app)
        assert isinstance(screen, ChoiceDialog)
        assert screen.question.startswith("This terminal's staff come from its pit server, which cannot be reached:")
        assert [key for key, _ in screen.choices] == ["r", "l", "q"]
        await pilot.press("q")
        await pilot.pause()
    assert app.ledger.tables() == [] and app.ledger.chain_length(0) == 0        # nothing made, nothing recorded


async def test_a_new_table_of_the_pit_takes_no_other_terminals_table_name(tmp_path: Path, pit_db: str) -> None:
    """Another terminal has "Table 1" on the pit: the setup offers "Table 2", and refuses "Table 1"
    typed by hand, saying why (the floor must tell the tables apart)."""
    from dealer_tui.pit.delivery import Delivery
    from tests.pit_support import played

    init_schema(pit_db)
    other = played(tmp_path / "other.sqlite", rounds=1, name="Table 1")
    other.close()
    Delivery(tmp_path / "other.sqlite", pit_db).once()
    url = "postgresql:///" + pit_db.split("dbname=")[1].split()[0] + "?host=" + pit_db.split("host=")[1].split()[0] \
        + "&user=pit"
    app = make_app(staffed_path(tmp_path / "l.sqlite"), options=Options(game="high-card-flush"), pit=url)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(100):                                   # the link's first pass
            await asyncio.sleep(0.05)
            if app.link is not None and app.link.state.online:
                break
        app.setup()
        await pilot.pause()
        screen = on_top(app)
        assert isinstance(screen, SetupScreen)
        assert screen.query_one("#name", Input).value == "Table 2"
        screen.query_one("#name", Input).value = "table 1"
        await pilot.press(*TO_PLAYERS, *"Ann 500", "enter")
        assert str(screen.query_one("#setup-error", Static).render()) == (
            "Table name: the pit has a table 'table 1' already (another terminal's); give this one another name, so "
            "that the floor tells them apart.")


async def test_a_new_terminal_shows_the_pits_key_and_takes_its_staff_once_a_pit_manager_confirms_it(
        tmp_path: Path, pit_db: str) -> None:
    """A new terminal with a pit: before anything else the pit's key is shown for a manager of the
    pit to compare and confirm with their ID and PIN (a wrong PIN refused, counted); then the pit's
    staff are received and its dealer signs in."""
    from dealer_tui.ledger.base import key_fingerprint
    from dealer_tui.screens.choice_dialog import ChoiceDialog
    from dealer_tui.screens.sign_in_modal import SignInModal
    from tests.pit_support import DEALER, PIT_MANAGER, PIT_MANAGER_PIN, pit_with_staff

    pit = pit_with_staff(pit_db)
    key = pit.pit_key()
    pit.close()
    url = "postgresql:///" + pit_db.split("dbname=")[1].split()[0] + "?host=" + pit_db.split("host=")[1].split()[0] \
        + "&user=pit"
    app = make_app(tmp_path / "new.sqlite", options=Options(game="high-card-flush"), pit=url)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        choice = on_top(app)
        assert isinstance(choice, ChoiceDialog) and key_fingerprint(key) in choice.question
        await pilot.press("b")
        await pilot.pause()
        assert isinstance(on_top(app), SignInModal)
        await pilot.press(*PIT_MANAGER, "enter", *"111222333", "enter")
        assert "Wrong ID or PIN for the pit's manager PM." in str(on_top(app).query_one("#pin-error", Static).render())
        await pilot.press(*PIT_MANAGER_PIN, "enter")
        for _ in range(50):
            await pilot.pause(0.05)
            if not isinstance(on_top(app), (ChoiceDialog, SignInModal)) or \
                    getattr(on_top(app), "purpose", None) is not None and on_top(app).purpose.act == "deal":
                break
        register = app.staff.register()
        assert register.binding is not None and register.binding.pit_key == key and DEALER in register.accounts
