"""Staff at the terminal and the floor, driven by keys: the first run makes the manager's account,
the dealer signs in before the first round, a dealer change at the table, a sign-off by the
supervisor's own ID and PIN, a lock-out set at the floor stopping the running table, and the
auditor's read-only floor."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from dealer_tui.app import Options, make_app
from dealer_tui.floor_app import FloorApp
from dealer_tui.games import GAMES
from dealer_tui.games.one_or_five.steps import Ante
from dealer_tui.ledger import SqliteLedger
from dealer_tui.ledger.base import STAFF_REGISTER, NewEvent
from dealer_tui.rounds.base import Phase
from dealer_tui.screens.choice_dialog import ChoiceDialog
from dealer_tui.screens.first_manager import FirstManagerScreen
from dealer_tui.screens.floor_rounds import RoundsScreen
from dealer_tui.screens.floor_signoff import SignOffScreen
from dealer_tui.screens.round_screen import RoundScreen
from dealer_tui.screens.setup_screen import SetupScreen
from dealer_tui.screens.sign_in_modal import SignInModal
from dealer_tui.staff import StaffDesk
from dealer_tui.widgets.notice import Notice
from tests.staff_support import (
    AUDITOR,
    AUDITOR_PIN,
    DEALER,
    MANAGER,
    MANAGER_PIN,
    SUPERVISOR,
    SUPERVISOR2,
    SUPERVISOR2_PIN,
    SUPERVISOR_KEYS,
    floor_review,
)
from tests.tui_support import on_top, seated_app

SIZE = (120, 36)
PLAYERS = [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cy", 5000)]


def kinds(ledger: SqliteLedger, table_id: int, prefix: str) -> list[str]:
    return [e.kind for e in ledger.table_events(table_id) if e.kind.startswith(prefix)]


async def test_first_run_makes_the_manager_then_the_table_then_the_dealer_signs_in(tmp_path: Path) -> None:
    app = make_app(tmp_path / "new.sqlite", options=Options(game="high-card-flush"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(on_top(app), FirstManagerScreen)
        await pilot.press("enter")                                  # nothing typed: said, and the ID field keeps the cursor
        assert str(on_top(app).query_one("#manager-error", Static).render()) == (
            "Type the manager's ID (e.g. M1), then Enter.")
        assert app.focused is on_top(app).query_one("#account")
        await pilot.press(*"M1", "enter", *"Mona Manager", "enter", *"246813579", "enter", *"246810579", "enter")
        assert isinstance(on_top(app), FirstManagerScreen)          # the two PINs differ: asked again
        assert "differ" in str(on_top(app).query_one("#manager-error", Static).render())
        await pilot.press(*"999999999", "enter", *"999999999", "enter")
        said = str(on_top(app).query_one("#manager-error", Static).render())
        assert said == ("A PIN of one digit repeated is the first a guesser tries: choose another PIN and type it "
                        "in both fields.")
        await pilot.press(*"246813579", "enter", *"246813579", "enter")
        assert isinstance(on_top(app), ChoiceDialog) and "A table needs a dealer and a supervisor" in on_top(app).question
        await pilot.press("l")                                     # staff later
        assert isinstance(on_top(app), SetupScreen)
        staffing = str(on_top(app).query_one("#staffing", Static).render())
        assert staffing.startswith("Staff — Active: 0 dealers, 0 supervisors, 1 manager, 0 auditors. Still needed: a "
                                   "dealer; a supervisor")
        await pilot.press(*["tab"] * 5, *"Ann 5000, Bob 1000", "ctrl+o")
        assert isinstance(on_top(app), SignInModal)                 # the dealer signs in before the first round
        await pilot.press(*"M1", "enter", *"246813579", "enter")      # a manager may deal
        assert isinstance(on_top(app), RoundScreen)
        assert app.table is not None and app.table.session.dealer is not None
        assert app.table.session.dealer.account == "M1"
        await pilot.press("s", "y")
        started = app.ledger.table_events(app.table.record.id, ["round_started"])[-1]
        assert started.payload["dealer"] == "M1"
    register = StaffDesk(SqliteLedger(tmp_path / "new.sqlite", readonly=True)).register()
    assert [(a.id, a.name, a.role) for a in register.accounts.values()] == [("M1", "Mona Manager", "manager")]


async def test_escape_on_the_first_manager_quits_and_records_nothing(tmp_path: Path) -> None:
    app = make_app(tmp_path / "new.sqlite")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(*"M1", "enter", "escape")
    ledger = SqliteLedger(tmp_path / "new.sqlite", readonly=True)
    assert ledger.table_events(STAFF_REGISTER) == [] and ledger.tables() == []


async def test_a_dealer_change_and_a_break_at_the_table(tmp_path: Path) -> None:
    app = seated_app(tmp_path, "high-card-flush", PLAYERS)
    async with app.run_test(size=SIZE) as pilot:
        screen = on_top(app)
        assert isinstance(screen, RoundScreen) and "dealer Dana Dealer (D1)" in screen.sub_title
        await pilot.press("D")
        assert isinstance(on_top(app), ChoiceDialog)
        await pilot.press("c", *SUPERVISOR2, "enter", *SUPERVISOR2_PIN, "enter")  # the relief dealer
        assert "dealer Sue Second (S2)" in screen.sub_title
        await pilot.press("D", "o")                                # a break: signed out
        assert "no dealer signed in" in screen.sub_title
        await pilot.press("s")
        assert app.table is not None and app.table.round is None   # no round without a dealer
        assert str(screen.query_one(Notice).render()) == (
            "No round starts with no dealer signed in (Sue Second, S2: signed out at the table): D signs one in.")
        await pilot.press("D", *DEALER, "enter", *"13579246", "enter", "s", "y")
        assert app.table.round is not None and app.table.round.phase is Phase.ANTE
        table_id = app.table.record.id
        assert kinds(app.ledger, table_id, "dealer_") == ["dealer_signed_in", "dealer_signed_out", "dealer_signed_in",
                                                           "dealer_signed_out", "dealer_signed_in"]
        assert app.ledger.table_events(table_id, ["round_started"])[-1].payload["dealer"] == DEALER


async def test_a_lockout_set_on_the_floor_stops_the_running_table_at_once(tmp_path: Path) -> None:
    app = seated_app(tmp_path, "high-card-flush", PLAYERS)
    floor = FloorApp(SqliteLedger(tmp_path / "ledger.sqlite", readonly=True), GAMES,
                     StaffDesk(SqliteLedger(tmp_path / "ledger.sqlite")))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "y", "x")                             # a misdeal: the supervisor signs in
        assert isinstance(on_top(app), SignInModal)
        async with floor.run_test(size=SIZE) as fp:                  # someone guesses S1's PIN at the floor
            await fp.press(*SUPERVISOR, "enter", *"000001", "enter", *"000001", "enter", *"000001", "enter")
            assert "locked for 5 minutes" in str(floor.screen.query_one("#pin-error", Static).render())
        await pilot.press(*SUPERVISOR_KEYS)                          # the real S1, with the right PIN
        assert isinstance(on_top(app), SignInModal)
        assert "S1 is locked for" in str(on_top(app).query_one("#pin-error", Static).render())
        await pilot.press("escape")
        assert app.table is not None and app.table.round is not None and app.table.round.phase is Phase.ANTE


async def test_the_auditor_reads_the_floor_and_decides_nothing(tmp_path: Path) -> None:
    path = tmp_path / "l.sqlite"
    ledger = SqliteLedger(path)
    table = ledger.create_table("T9", "high-card-flush", "p", "0" * 64, "shoe")
    rnd = ledger.open_round(table.id, "high-card-flush", "p", [NewEvent("round_started", {})])
    ledger.append(table.id, rnd.id, [NewEvent("sign_off_requested", {"seats": [1], "payouts": {"1": 9000},
                                                                     "paid": 9000, "threshold": 5000,
                                                                     "wagered": 100})])
    app = floor_review(path, AUDITOR, AUDITOR_PIN)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(on_top(app), RoundsScreen) and "Avi Auditor (A1), auditor" in app.sub_title
        await pilot.press("s")
        queue = on_top(app)
        assert isinstance(queue, SignOffScreen) and len(queue.waiting) == 1
        await pilot.press("a")
        assert on_top(app) is queue                                   # no sign-in offered: nothing to decide
        await pilot.press("d")
        assert on_top(app) is queue
        assert len(queue.waiting) == 1
    assert [e.kind for e in ledger.round_events(rnd.id)][-1] == "sign_off_requested"


async def test_the_floor_asks_for_a_sign_in_and_refuses_a_dealer(tmp_path: Path) -> None:
    app = seated_app(tmp_path, "high-card-flush", PLAYERS)
    app.ledger.close()
    floor = FloorApp(SqliteLedger(tmp_path / "ledger.sqlite", readonly=True), GAMES,
                     StaffDesk(SqliteLedger(tmp_path / "ledger.sqlite")))
    async with floor.run_test(size=SIZE) as pilot:
        assert isinstance(floor.screen, SignInModal)
        await pilot.press(*DEALER, "enter", *"13579246", "enter")
        assert isinstance(floor.screen, SignInModal)
        assert "is a dealer: only a supervisor, a manager or an auditor may open the floor review" in str(
            floor.screen.query_one("#pin-error", Static).render())
        await pilot.press("escape")                                  # no sign-in: the review closes
    assert floor.return_code is not None or not floor.is_running


async def test_a_between_hands_key_during_a_hand_says_why(tmp_path: Path) -> None:
    app = seated_app(tmp_path, "high-card-flush", PLAYERS)
    async with app.run_test(size=SIZE) as pilot:
        screen = on_top(app)
        assert isinstance(screen, RoundScreen)
        await pilot.press("s", "y", "D")
        assert "Dealer sign-in waits for the end of the hand: finish or void the round first." in str(
            screen.query_one(Notice).render())
        await pilot.press("P")
        assert "Change profile waits for the end of the hand" in str(screen.query_one(Notice).render())
        assert on_top(app) is screen


async def test_a_register_whose_accounts_do_not_read_is_not_a_first_run(tmp_path: Path) -> None:
    """The staff register's accounts broken (here: their signatures): the terminal says so and
    offers no first-manager screen — breaking the register is no way to become manager."""
    import sqlite3

    app = seated_app(tmp_path, "high-card-flush", PLAYERS)
    app.ledger.close()
    with sqlite3.connect(tmp_path / "ledger.sqlite") as db:
        db.execute("UPDATE events SET payload = json_set(payload, '$.signature', 'ab') WHERE kind = 'staff_added'")
    again = make_app(tmp_path / "ledger.sqlite")
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(on_top(again), ChoiceDialog) and not isinstance(again.screen, FirstManagerScreen)
        assert "the staff register holds events but no account that reads" in on_top(again).question
        await pilot.press("q")
    ledger = SqliteLedger(tmp_path / "ledger.sqlite", readonly=True)
    assert [e.kind for e in ledger.table_events(STAFF_REGISTER)].count("staff_added") == 5  # nothing added


async def test_after_a_crash_the_hand_comes_back_and_the_dealer_signs_in_again_to_carry_it_on(tmp_path: Path) -> None:
    """The terminal stopped mid-hand (its connection gone without a clean exit): the next terminal
    takes the table over, the hand comes back as it was, and the dealer who was on duty is signed
    out with the terminal; a game key is refused until someone signs in with their PIN."""
    import gc

    from dealer_tui.rounds.cards import VirtualShoe
    from rules.profiles.loader import ProfileLibrary
    from tests.staff_support import staffed_table

    path = tmp_path / "ledger.sqlite"
    ledger = SqliteLedger(path)
    table = staffed_table(ledger, "Crash", ProfileLibrary().find("one-or-five"), VirtualShoe.seeded_with(3), seats=6)
    table.seat_player(1, "Ann", 1000)
    table.start_round()
    table.act(Ante(seat=1, amount=10))
    ledger._db.close()  # type: ignore[attr-defined]  # gone without a clean exit
    del table, ledger
    gc.collect()
    app = make_app(path, options=Options(seed=3))
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(on_top(app), SignInModal)                      # asked at once: who deals now
        await pilot.press("escape")                                     # not now: the table waits
        screen = on_top(app)
        assert isinstance(screen, RoundScreen) and "no dealer signed in" in screen.sub_title
        assert app.table is not None and app.table.round is not None and app.table.round.phase is Phase.ANTE
        prompt = str(screen.query_one("#prompt", Static).render())
        assert prompt == ("No dealer is signed in for this hand (Dana Dealer, D1: the terminal that held the table "
                          "stopped): D signs in (their PIN) to carry it on.")
        await pilot.press("d")                                          # deal: refused, nothing recorded
        assert app.table.round.phase is Phase.ANTE
        assert "No dealer is signed in for this hand" in str(screen.query_one(Notice).render())
        await pilot.press("D", *DEALER, "enter", *"13579246", "enter")
        assert "dealer Dana Dealer (D1)" in screen.sub_title
        assert kinds(app.ledger, app.table.record.id, "dealer_")[-2:] == ["dealer_signed_out", "dealer_signed_in"]
        await pilot.press("d")
        assert on_top(app) is not screen or app.table.round.phase is not Phase.ANTE   # the deal goes on


def short_pin_supervisor(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A supervisor S5 whose PIN (6 digits) was set before PINs had to be longer."""
    from dealer_tui.staff import MANAGE, Purpose, pins

    ledger = SqliteLedger(path)
    desk = StaffDesk(ledger)
    by = desk.sign_in(MANAGER, MANAGER_PIN, Purpose(MANAGE, "add S5 (test)"))
    with monkeypatch.context() as old_rules:
        old_rules.setattr(pins, "APPROVER_DIGITS", 6)
        desk.add("S5", "Old Sal", "supervisor", "581302", by)
    ledger.close()


async def test_a_pin_shorter_than_its_role_asks_is_changed_for_a_longer_one_at_the_next_sign_in(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """S5 signs in to the floor with the 6-digit PIN it has: the sign-in goes through, then a
    longer PIN is asked (twice; a short one refused saying so) before the floor opens; the old PIN
    signs in no more."""
    from dealer_tui.screens.sign_in_modal import RenewPinModal
    from dealer_tui.staff import FLOOR, Purpose, SignInRefused

    app = seated_app(tmp_path, "high-card-flush", PLAYERS)
    app.ledger.close()
    path = tmp_path / "ledger.sqlite"
    short_pin_supervisor(path, monkeypatch)
    floor = FloorApp(SqliteLedger(path, readonly=True), GAMES, StaffDesk(SqliteLedger(path)))
    async with floor.run_test(size=SIZE) as pilot:
        await pilot.press(*"S5", "enter", *"581302", "enter")
        await pilot.pause()
        assert isinstance(floor.screen, RenewPinModal)
        await pilot.press(*"58130", "enter")
        assert "a supervisor's PIN is 9 to 12 digits: choose another." in str(
            floor.screen.query_one("#renew-error", Static).render())
        await pilot.press(*"581302947", "enter", *"581302947", "enter")
        await pilot.pause()
        from dealer_tui.screens.floor_map import PitMapScreen
        assert isinstance(floor.screen, PitMapScreen)                         # the floor's first screen
    desk = StaffDesk(SqliteLedger(path))
    with pytest.raises(SignInRefused):
        desk.sign_in("S5", "581302", Purpose(FLOOR, "the old PIN"))
    assert not desk.sign_in("S5", "581302947", Purpose(FLOOR, "the new PIN")).renew_pin
    from dealer_tui.audit import verify_ledger
    assert verify_ledger(SqliteLedger(path), GAMES) == []


def test_the_dealer_terminal_neither_resumes_nor_offers_a_training_table(tmp_path: Path) -> None:
    """A demo played its training table last on this ledger: the dealer's terminal carries on at
    the live table, and its setup lists the live table only (the demo plays the training one;
    live play there would stay out of the cash logs and the ratings)."""
    from dealer_tui.rounds.cards import VirtualShoe
    from dealer_tui.rounds.table import Table
    from rules.profiles.loader import ProfileLibrary
    from tests.staff_support import approved, staffed, staffed_table

    path = tmp_path / "l.sqlite"
    ledger = SqliteLedger(path)
    staffed(ledger)
    loaded = approved(ledger, ProfileLibrary().find("high-card-flush"))
    staffed_table(ledger, "Live 1", loaded, VirtualShoe.seeded_with(1), seats=7).seat_player(1, "Ann", 1000)
    practice = Table.create(ledger, "Training 1", GAMES.find(loaded.game), loaded, VirtualShoe.seeded_with(2), seats=7, training=True)
    practice.seat_player(1, "Demo", 1000)                              # worked at last
    ledger.close()
    app = make_app(path, options=Options(game="high-card-flush"))
    resumed = app.resume()
    assert resumed is not None and resumed.record.name == "Live 1"
    assert [t.name for t in app.known_tables()] == ["Live 1"]


async def test_after_a_clean_quit_the_dealer_signs_in_again(tmp_path: Path) -> None:
    """ctrl+q gives the table up and signs the dealer on duty out: the terminal started again
    asks a dealer to sign in with their PIN before the table."""
    from tests.staff_support import DEALER_KEYS
    from tests.tui_support import seated_app as seated

    app = seated(tmp_path, "high-card-flush", PLAYERS)
    async with app.run_test(size=SIZE) as pilot:
        assert app.table is not None and app.table.session.dealer is not None
        await pilot.press("ctrl+q")
    again = make_app(tmp_path / "ledger.sqlite", options=Options(seed=5))
    async with again.run_test(size=SIZE) as pilot:
        assert isinstance(again.screen, SignInModal)                       # a dealer signs in first
        assert again.table is not None and again.table.session.dealer is None
        await pilot.press(*DEALER_KEYS)
        assert isinstance(again.screen, RoundScreen) and again.table.session.dealer is not None
    out = [e.payload for e in SqliteLedger(tmp_path / "ledger.sqlite", readonly=True).table_events(
        1, ["dealer_signed_out"])]
    assert out[0]["reason"] == {"said": "the terminal was closed: the dealer signs in again", "values": {}}  # no sentence kept


async def test_the_dealer_is_signed_out_after_the_profiles_idle_time_even_mid_hand(tmp_path: Path) -> None:
    """The shipped card-room profile signs the dealer out after 20 minutes without a key: 19:59
    keeps them; 20:00 signs them out (recorded, with the reason), mid-hand too, and the next game
    key is refused until someone signs in with their PIN."""
    now = [0.0]
    app = seated_app(tmp_path, "high-card-flush", PLAYERS)
    async with app.run_test(size=SIZE) as pilot:
        app.clock = lambda: now[0]
        await pilot.press("s", "y", "2", "a", "enter")             # a hand begins: seat 2 antes
        screen = on_top(app)
        assert isinstance(screen, RoundScreen) and app.table is not None
        now[0] = app.last_key + 19 * 60 + 59
        screen.idle_sign_out()
        assert app.table.session.dealer is not None
        now[0] = app.last_key + 20 * 60
        screen.idle_sign_out()
        assert app.table.session.dealer is None
        out = app.ledger.table_events(app.table.record.id, ["dealer_signed_out"])[-1]
        assert out.payload["reason"] == {"said": "no key for {minutes} minutes: the dealer signs in again",
                                         "values": {"minutes": 20}}
        assert "no dealer signed in" in screen.sub_title
        assert str(screen.query_one("#prompt", Static).render()) == (
            "No dealer is signed in for this hand (Dana Dealer, D1: no key for 20 minutes): D signs in (their PIN) "
            "to carry it on.")
        await pilot.press("3", "a")
        assert isinstance(on_top(app), RoundScreen)                  # refused: nobody is on duty
        assert app.table.round is not None and app.table.round.seats[3].ante == 0
        assert "No dealer is signed in for this hand" in str(screen.query_one(Notice).render())


async def test_a_profile_idle_time_of_0_never_signs_the_dealer_out(tmp_path: Path) -> None:
    profiles = tmp_path / "profiles"
    profiles.mkdir()
    from rules.profiles.loader import ProfileLibrary

    shipped = ProfileLibrary().find("high-card-flush")
    (profiles / "hcf-no-idle.yaml").write_text(shipped.text.replace("title:", "idle_sign_out_minutes: 0\ntitle:", 1),
                                               encoding="utf-8")
    app = seated_app(tmp_path, "hcf-no-idle", PLAYERS, profiles=profiles)
    now = [0.0]
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.clock = lambda: now[0]
        now[0] = app.last_key + 24 * 3600
        on_top(app).idle_sign_out()  # type: ignore[attr-defined]
        assert app.table is not None and app.table.session.dealer is not None
