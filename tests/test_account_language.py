"""Each person reads their own language: an account's language, chosen by the account itself with
its PIN or by a manager, is in the staff register as a signed event; the table is shown in the
language of the dealer signed in, the floor in that of the supervisor signed in to it, and the
record keeps the same events whoever reads it."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

import pytest
from textual.widgets import Static

from dealer_tui.audit import verify_ledger
from dealer_tui.cli import main
from dealer_tui.games import GAMES
from dealer_tui.language import language
from dealer_tui.ledger import SqliteLedger
from dealer_tui.screens.floor_map import PitMapScreen
from dealer_tui.screens.round_screen import RoundScreen
from dealer_tui.staff import MANAGE, SET_LANGUAGE, Purpose, StaffDesk, StaffError
from dealer_tui.widgets.key_bar import KeyBar
from dealer_tui.widgets.seat_panel import SeatPanel
from tests.staff_support import (
    DEALER,
    DEALER_PIN,
    MANAGER,
    MANAGER_PIN,
    SUPERVISOR,
    SUPERVISOR_PIN,
    staffed,
)
from tests.tui_support import PIN_KEYS, on_top, seated_app


def desk_of(path: Path) -> StaffDesk:
    ledger = SqliteLedger(path)
    staffed(ledger)
    return StaffDesk(ledger)


def test_an_account_chooses_its_own_language_with_its_pin(tmp_path: Path) -> None:
    desk = desk_of(tmp_path / "l.sqlite")
    assert desk.register().accounts[DEALER].language == ""  # the terminal's, until chosen
    own = desk.sign_in(DEALER, DEALER_PIN, Purpose(SET_LANGUAGE, "read Polish"))
    desk.set_language(DEALER, "pl", own)
    assert desk.register().accounts[DEALER].language == "pl"
    assert verify_ledger(desk.ledger, GAMES) == []


def test_a_manager_sets_an_accounts_language_and_no_one_else_does(tmp_path: Path) -> None:
    desk = desk_of(tmp_path / "l.sqlite")
    manager = desk.sign_in(MANAGER, MANAGER_PIN, Purpose(MANAGE, "languages"))
    desk.set_language(SUPERVISOR, "hu", manager)
    assert desk.register().accounts[SUPERVISOR].language == "hu"
    dealer = desk.sign_in(DEALER, DEALER_PIN, Purpose(SET_LANGUAGE, "a colleague's language"))
    with pytest.raises(StaffError, match="a manager signs in to manage staff"):
        desk.set_language(SUPERVISOR, "ru", dealer)
    desk.set_language(SUPERVISOR, "", manager)  # back to the terminal's
    assert desk.register().accounts[SUPERVISOR].language == ""
    assert verify_ledger(desk.ledger, GAMES) == []


def test_a_language_the_program_does_not_speak_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    desk = desk_of(tmp_path / "l.sqlite")
    own = desk.sign_in(DEALER, DEALER_PIN, Purpose(SET_LANGUAGE, "read German"))
    before = desk.register().seq
    with pytest.raises(StaffError, match=r"no language 'de' \(languages: en, hu, pl, ru\)"):
        desk.set_language(DEALER, "de", own)
    assert desk.register().seq == before


def test_a_language_change_rewritten_by_an_insider_is_named_by_verify(tmp_path: Path) -> None:
    path = tmp_path / "l.sqlite"
    desk = desk_of(path)
    own = desk.sign_in(DEALER, DEALER_PIN, Purpose(SET_LANGUAGE, "read Russian"))
    desk.set_language(DEALER, "ru", own)
    desk.ledger.close()
    with sqlite3.connect(path) as db:  # the event made to read another language, its hash left as it was
        db.execute("UPDATE events SET payload = replace(payload, '\"ru\"', '\"hu\"') "
                   "WHERE kind = 'staff_language_changed'")
    problems = verify_ledger(SqliteLedger(path, readonly=True), GAMES)
    assert [p.split(": ", 1)[1] for p in problems if "(staff_language_changed)" in p] == [
        "content does not match its hash",
        f"its signature is not {DEALER}'s: written without {DEALER}'s PIN (it stands for nothing)"]


def test_the_staff_command_sets_and_lists_the_language(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "l.sqlite"
    desk_of(path).ledger.close()
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{MANAGER_PIN}\n"))
    assert main(["staff", "set-language", "--id", DEALER, "--language", "hu", "--by", MANAGER,
                 "--ledger", str(path)]) == 0
    assert capsys.readouterr().out.startswith(f"ok: {DEALER} reads Magyar (by Mona Manager (M1)")
    assert main(["staff", "list", "--ledger", str(path)]) == 0
    listed = {line.split()[0]: line.split() for line in capsys.readouterr().out.splitlines()[1:]}
    assert listed[DEALER][-2:] == ["hu", "active"] and listed[SUPERVISOR][-2:] == ["-", "active"]


async def test_a_round_dealt_in_polish_is_reviewed_in_hungarian_and_back_at_the_table_in_polish(
        tmp_path: Path) -> None:
    app = seated_app(tmp_path, "high-card-flush", [(1, "Ann", 1000), (2, "Bob", 1000)])
    desk = StaffDesk(SqliteLedger(tmp_path / "ledger.sqlite"))
    desk.set_language(DEALER, "pl", desk.sign_in(DEALER, DEALER_PIN, Purpose(SET_LANGUAGE, "Polish")))
    desk.set_language(SUPERVISOR, "hu", desk.sign_in(SUPERVISOR, SUPERVISOR_PIN, Purpose(SET_LANGUAGE, "Hungarian")))
    desk.ledger.close()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        screen = on_top(app)
        assert isinstance(screen, RoundScreen)
        bar = str(screen.query_one(KeyBar).render())
        assert "Nowa runda" in bar and "New round" not in bar  # the dealer on duty reads Polish
        await pilot.press("F", *PIN_KEYS)  # the supervisor signs in to the floor
        floor = on_top(app)
        assert isinstance(floor, PitMapScreen)
        await pilot.pause()
        assert "Frissítés" in str(floor.query_one(KeyBar).render())  # the floor in Hungarian: r Refresh
        await pilot.press("escape", "escape")
        assert on_top(app) is screen
        await pilot.pause()
        assert "Nowa runda" in str(screen.query_one(KeyBar).render())
        panel = screen.query_one("#seat-1", SeatPanel)     # the seats' own words back in Polish too
        assert str(panel.border_title).startswith("Miejsce 1") and "żetony" in str(panel.border_subtitle)


async def test_the_first_start_offers_the_language_and_the_first_manager_reads_it(tmp_path: Path) -> None:
    from dealer_tui.app import Options, make_app
    from dealer_tui.screens.first_manager import FirstManagerScreen

    app = make_app(tmp_path / "new.sqlite", options=Options(game="high-card-flush"))
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        screen = on_top(app)
        assert isinstance(screen, FirstManagerScreen)
        assert str(screen.query_one("#manager-keys", Static).render()).endswith("F2 language: English")
        await pilot.press("f2", "f2")  # English, then Magyar, then Polski
        assert str(screen.query_one("#manager-title", Static).render()) == "Konta personelu: pierwszy kierownik"
        assert str(screen.query_one("#manager-keys", Static).render()).endswith("F2 język: Polski")
        await pilot.press("enter")  # an empty field asks in Polish
        assert str(screen.query_one("#manager-error", Static).render()) == (
            "Proszę wpisać identyfikator kierownika (np. M1) i nacisnąć Enter.")
        await pilot.press(*MANAGER, "enter", *"Mona Manager", "enter", *MANAGER_PIN, "enter", *MANAGER_PIN, "enter")
        await pilot.pause()
        assert not isinstance(on_top(app), FirstManagerScreen)
    assert StaffDesk(SqliteLedger(tmp_path / "new.sqlite", readonly=True)).register().accounts[MANAGER].language == "pl"


def test_a_manager_changes_their_own_language_and_pin_under_a_sign_in_to_manage(tmp_path: Path) -> None:
    """A manager's own account is one of those they manage: the change made under their sign-in to
    manage stands (and verifies), as one made under their sign-in for the change itself does."""
    desk = desk_of(tmp_path / "l.sqlite")
    managing = desk.sign_in(MANAGER, MANAGER_PIN, Purpose(MANAGE, "my own account"))
    desk.set_language(MANAGER, "ru", managing)
    desk.set_pin(MANAGER, "135792468", managing)
    assert desk.register().accounts[MANAGER].language == "ru"
    assert desk.sign_in(MANAGER, "135792468", Purpose(MANAGE, "the new PIN")).account == MANAGER
    assert verify_ledger(desk.ledger, GAMES) == []


async def test_the_one_signing_in_chooses_their_language_with_f2_and_their_account_keeps_it(tmp_path: Path) -> None:
    """F2 in the sign-in dialog: the dialog speaks the next language at once; once the PIN goes
    through, the account reads it from now on (changed under a sign-in of its own, with the same PIN)."""
    app = seated_app(tmp_path, "high-card-flush", [(1, "Ann", 1000), (2, "Bob", 1000)])
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.press("F", "f2")                            # English, then Magyar
        dialog = on_top(app)
        label = str(dialog.query_one("#account-label", Static).render())
        assert label == language("hu").text("Account ID") != "Account ID"   # the Hungarian catalog's words
        assert str(dialog.query_one("#sign-in-keys", Static).render()).endswith("F2 nyelv: Magyar")
        await pilot.press(*PIN_KEYS)
        floor = on_top(app)
        assert isinstance(floor, PitMapScreen)
        await pilot.pause()
        assert "Frissítés" in str(floor.query_one(KeyBar).render())
    ledger = SqliteLedger(tmp_path / "ledger.sqlite", readonly=True)
    assert StaffDesk(ledger).register().accounts[SUPERVISOR].language == "hu"
    assert verify_ledger(ledger, GAMES) == []


async def test_a_dealer_of_another_language_signing_in_sees_the_seats_in_it_at_once(tmp_path: Path) -> None:
    """A dealer change between hands to someone who reads Hungarian: the seats' own words (their
    titles, stacks, an empty seat) are Hungarian at once, not at the next round."""
    app = seated_app(tmp_path, "high-card-flush", [(1, "Ann", 1000), (2, "Bob", 1000)])
    desk = StaffDesk(SqliteLedger(tmp_path / "ledger.sqlite"))
    desk.set_language(SUPERVISOR, "hu", desk.sign_in(SUPERVISOR, SUPERVISOR_PIN, Purpose(SET_LANGUAGE, "Hungarian")))
    desk.ledger.close()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        screen = on_top(app)
        assert isinstance(screen, RoundScreen)
        assert str(screen.query_one("#seat-1", SeatPanel).border_title).startswith("Seat 1")
        await pilot.press("D", "c", *PIN_KEYS)                  # a dealer change: the supervisor deals now
        await pilot.pause()
        panel = screen.query_one("#seat-1", SeatPanel)
        assert app.table is not None and app.table.session.dealer is not None
        assert app.table.session.dealer.account == SUPERVISOR, on_top(app)
        assert str(panel.border_title).startswith("1. hely"), (panel.border_title, str(screen.query_one(KeyBar).render()))
        empty = screen.query_one("#seat-3", SeatPanel)
        assert "üres" in str(empty.render()), empty.render()
