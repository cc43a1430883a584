"""The manager's staff screen at the terminal: a new casino's first run reaches a paid round
with no shell — the first manager, then the dealer and the supervisor added on screen, each
change recorded as signed by the manager's sign-in; refusals stay in their dialog."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import DataTable, Static

from dealer_tui.app import Options, make_app
from dealer_tui.ledger import SqliteLedger
from dealer_tui.ledger.base import STAFF_REGISTER
from dealer_tui.rounds.base import Phase
from dealer_tui.screens.choice_dialog import ChoiceDialog
from dealer_tui.screens.reason_dialog import ReasonDialog
from dealer_tui.screens.round_screen import RoundScreen
from dealer_tui.screens.setup_screen import SetupScreen
from dealer_tui.screens.sign_in_modal import SignInModal
from dealer_tui.screens.staff_screen import PURPOSE, AccountModal, StaffScreen
from dealer_tui.staff import StaffDesk
from tests.staff_support import MANAGER, MANAGER_PIN, until
from tests.tui_support import on_top, seated_app

SIZE = (120, 36)
MONA = [*"M1", "enter", *"Mona Manager", "enter", *"246813579", "enter", *"246813579", "enter"]


def error_of(screen: object) -> str:
    return str(screen.query_one("#account-error", Static).render())  # type: ignore[attr-defined]


async def test_a_new_casino_reaches_its_first_paid_round_from_the_terminal_alone(tmp_path: Path) -> None:
    app = make_app(tmp_path / "new.sqlite", options=Options(game="high-card-flush", seed=5))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(*MONA)
        assert isinstance(on_top(app), ChoiceDialog)
        await pilot.press("s")                                    # add the staff now: Mona signs in again
        assert isinstance(on_top(app), SignInModal)
        await pilot.press(*"246813579", "enter")                  # her ID is filled in
        assert isinstance(on_top(app), StaffScreen)
        assert str(on_top(app).query_one("#staff-status", Static).render()) == (
            "Active: 0 dealers, 0 supervisors, 1 manager, 0 auditors. Still needed: a dealer; a supervisor, who signs "
            "off big payouts (nobody signs off a round they dealt).")
        await pilot.press("a", "d")                               # a dealer
        assert isinstance(on_top(app), AccountModal)
        await pilot.press(*"D1", "enter", *"Dana Dealer", "enter", *"11111111", "enter")
        assert error_of(on_top(app)).startswith("A PIN of one digit repeated")   # refused at once, nothing lost
        await pilot.press(*"13579246", "enter", *"13579246", "enter")
        assert isinstance(on_top(app), StaffScreen)
        await pilot.press("a", "s", *"M1", "enter", *"Sam Super", "enter", *"975318642", "enter", *"975318642",
                          "enter")
        assert isinstance(on_top(app), AccountModal)               # M1 is taken: the dialog stays, the name kept
        assert error_of(on_top(app)) == ("There is an account 'M1' already: Mona Manager (M1, manager). Nothing was "
                                        "changed.")
        assert on_top(app).query_one("#name").value == "Sam Super"  # type: ignore[attr-defined]
        await pilot.press("ctrl+a", "ctrl+k", *"S1", "enter", "enter", *"975318642", "enter", *"975318642", "enter")
        assert isinstance(on_top(app), StaffScreen)
        table = on_top(app).query_one(DataTable)
        assert [table.get_row_at(r)[:3] for r in range(table.row_count)] == [
            ["D1", "Dana Dealer", "dealer"], ["S1", "Sam Super", "supervisor"], ["M1", "Mona Manager", "manager"]]
        assert "Still needed" not in str(on_top(app).query_one("#staff-status", Static).render())
        await pilot.press("escape")                               # done: on to the table's setup
        assert isinstance(on_top(app), SetupScreen)
        await pilot.press(*["tab"] * 5, *"Ann 5000, Bob 1000", "ctrl+o")
        assert isinstance(on_top(app), SignInModal)
        await pilot.press(*"D1", "enter", *"13579246", "enter")   # the dealer just added deals
        assert isinstance(on_top(app), RoundScreen)
        await pilot.press("s", "y", "2", "a", "enter", "d", "r", "enter", "v", "enter")
        assert app.table is not None and app.table.round is not None and app.table.round.phase is Phase.DONE
    ledger = SqliteLedger(tmp_path / "new.sqlite", readonly=True)
    added = [e.payload for e in ledger.table_events(STAFF_REGISTER) if e.kind == "staff_added"]
    assert [(p["account"], p["role"], p.get("by")) for p in added] == [
        ("M1", "manager", None), ("D1", "dealer", "M1"), ("S1", "supervisor", "M1")]


async def test_staff_screen_role_pin_disable_and_the_rules_a_manager_cannot_break(tmp_path: Path) -> None:
    app = seated_app(tmp_path, "high-card-flush", [(1, "Ann", 5000), (2, "Bob", 5000)])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.open_staff()
        await pilot.press(*MANAGER, "enter", *MANAGER_PIN, "enter")
        screen = on_top(app)
        assert isinstance(screen, StaffScreen)
        ids = [a.id for a in screen.accounts]
        await pilot.press(*["down"] * ids.index(MANAGER), "d")    # a manager does not disable themselves
        assert isinstance(on_top(app), ReasonDialog)
        await pilot.press(*"leaving", "enter")
        assert isinstance(on_top(app), ReasonDialog)
        assert str(on_top(app).query_one("#reason-error").render()) == (
            "A manager does not disable their own account: another manager does. Nothing was changed.")
        await pilot.press("escape", *["up"] * ids.index(MANAGER), "r", "s")  # D1 becomes a supervisor
        await pilot.press("p", *"42424242", "enter")              # 8 digits: a dealer's length
        assert isinstance(on_top(app), AccountModal) and error_of(on_top(app)) == (
            "A supervisor's PIN is 9 to 12 digits: choose another PIN and type it in both fields.")
        await pilot.press(*"424242421", "enter", *"424242422", "enter")
        assert error_of(on_top(app)) == "The two PINs differ: type the PIN again, in both fields."
        await pilot.press(*"862419753", "enter", *"862419753", "enter")
        assert isinstance(on_top(app), StaffScreen)
        await pilot.press("d", *"left the casino", "enter")
        assert isinstance(on_top(app), StaffScreen)
        assert ("D1", "disabled") in [(r[0], r[4]) for r in (screen.query_one(DataTable).get_row_at(i)
                                                           for i in range(len(ids)))]
    register = StaffDesk(SqliteLedger(tmp_path / "ledger.sqlite", readonly=True)).register()
    assert register.accounts["D1"].role == "supervisor" and not register.accounts["D1"].active
    kinds = [e.kind for e in SqliteLedger(tmp_path / "ledger.sqlite", readonly=True).table_events(STAFF_REGISTER)]
    assert kinds[-3:] == ["staff_role_changed", "staff_pin_changed", "staff_disabled"]


async def test_staff_screen_closes_after_its_idle_time_and_a_dealer_cannot_open_it(tmp_path: Path) -> None:
    now = [0.0]
    app = seated_app(tmp_path, "high-card-flush", [(1, "Ann", 5000), (2, "Bob", 5000)])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.open_staff()
        await pilot.press(*"D1", "enter", *"13579246", "enter")   # a dealer may not manage staff
        assert isinstance(on_top(app), SignInModal)
        assert "only a manager may manage staff" in str(on_top(app).query_one("#pin-error").render())
        await pilot.press("escape")
        app.push_screen(StaffScreen(app.staff, app.staff.sign_in(MANAGER, MANAGER_PIN, PURPOSE),
                                    idle_s=120, clock=lambda: now[0]))
        await pilot.pause()
        screen = on_top(app)
        assert isinstance(screen, StaffScreen)
        now[0] = 119.0
        screen.idle_check()
        assert on_top(app) is screen                               # not yet
        now[0] = 121.0
        screen.idle_check()
        await until(pilot, lambda: on_top(app) is not screen)
        assert not isinstance(on_top(app), StaffScreen)



async def test_a_manager_sets_the_language_an_account_reads_on_the_staff_screen(tmp_path: Path) -> None:
    app = seated_app(tmp_path, "high-card-flush", [(1, "Ann", 5000)])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.open_staff()
        await pilot.press(*MANAGER, "enter", *MANAGER_PIN, "enter")
        screen = on_top(app)
        assert isinstance(screen, StaffScreen)
        ids = [a.id for a in screen.accounts]
        await pilot.press(*["down"] * ids.index("D1"), "g", "h")  # D1 reads Hungarian
        assert isinstance(on_top(app), StaffScreen)
        row = screen.query_one(DataTable).get_row_at(ids.index("D1"))
        assert (row[0], row[3]) == ("D1", "Magyar")
    register = StaffDesk(SqliteLedger(tmp_path / "ledger.sqlite", readonly=True)).register()
    assert register.accounts["D1"].language == "hu"
