"""The floor's alerts: each raised from what the ledger records (a big payout sent for sign-off,
two voids within an hour, a PIN lock-out, a currency transaction), kept until a supervisor
acknowledges it by name (with their PIN), and an acknowledgement that verify holds to its sign-in."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from dealer_tui.accounting.alerts import acknowledge, open_alerts, raised
from dealer_tui.accounting.theoretical import Theory
from dealer_tui.audit import verify_ledger
from dealer_tui.cli import main
from dealer_tui.games import GAMES
from dealer_tui.games.high_card_flush.steps import Ante
from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.cards import ScriptedDeck, VirtualShoe
from dealer_tui.rounds.steps import ConfirmPayout, Reveal, SendToFloor, Void
from dealer_tui.staff import ACKNOWLEDGE, SIGN_OFF, VOID, Purpose, SignInRefused, StaffDesk
from rules.cards import parse_cards
from rules.errors import IllegalAction
from rules.profiles.loader import ProfileLibrary
from tests.accounting_support import Clock
from tests.hcf_support import BANKER, PROFILE, SEAT2, SEAT3, big_win, sent_to_floor
from tests.staff_support import (
    DEALER,
    DEALER_PIN,
    SUPERVISOR,
    SUPERVISOR_PIN,
    casino_on_shift,
    staffed,
    staffed_table,
    until,
)


def big_payout_table(path: Path):  # type: ignore[no-untyped-def]
    """The sign-off tests' round: seat 2 wins 8,500, over the 5,000 threshold, sent to the floor."""
    ledger = SqliteLedger(path)
    table = sent_to_floor(ledger)
    return ledger, staffed(ledger), table


def test_a_big_payout_raises_an_alert_kept_until_a_supervisor_acknowledges_it(tmp_path: Path) -> None:
    ledger, crew, table = big_payout_table(tmp_path / "l.sqlite")
    # the DP's 20,000 bought in cash is a currency transaction too; seat 2's payout is 8,500 + its stakes 1,700
    ctr, alert = open_alerts(ledger)
    assert (ctr.kind, alert.kind, alert.table) == ("currency transaction", "big payout", "H1")
    assert ctr.text == "Ann (ID passport X0000001): cash in 20,000 on gaming day " + ctr.id.split(":")[1]
    assert alert.text == "round 1: seat 2 10,200 at or over the sign-off threshold (5,000), sent for sign-off"
    by = crew.desk.sign_in(SUPERVISOR, SUPERVISOR_PIN, Purpose(ACKNOWLEDGE, "acknowledge (test)"))
    acknowledge(ledger, alert.id, by, "paid as settled")
    assert open_alerts(ledger) == [ctr] and alert.id in [a.id for a in raised(ledger)]   # it stays on record
    with pytest.raises(IllegalAction, match="acknowledged already"):
        acknowledge(ledger, alert.id, crew.desk.sign_in(SUPERVISOR, SUPERVISOR_PIN, Purpose(ACKNOWLEDGE, "again")))
    with pytest.raises(IllegalAction, match="no alert nothing:1 is raised"):
        acknowledge(ledger, "nothing:1", crew.desk.sign_in(SUPERVISOR, SUPERVISOR_PIN, Purpose(ACKNOWLEDGE, "x")))
    assert verify_ledger(ledger, GAMES) == []


def test_a_dealer_does_not_acknowledge_an_alert(tmp_path: Path) -> None:
    ledger, crew, _ = big_payout_table(tmp_path / "l.sqlite")
    big = next(a for a in open_alerts(ledger) if a.kind == "big payout")
    with pytest.raises(SignInRefused, match="only a supervisor or a manager may acknowledge an alert"):
        crew.desk.sign_in(DEALER, DEALER_PIN, Purpose(ACKNOWLEDGE, "acknowledge (test)"))
    wrong = crew.desk.sign_in(SUPERVISOR, SUPERVISOR_PIN, Purpose(SIGN_OFF, "a sign-off", 1, 1))
    with pytest.raises(IllegalAction, match="signed in to acknowledge"):
        acknowledge(ledger, big.id, wrong)


def test_two_voids_within_an_hour_raise_an_alert(tmp_path: Path) -> None:
    clock = Clock()
    ledger = SqliteLedger(tmp_path / "l.sqlite", clock=clock)
    crew = staffed(ledger)
    table = staffed_table(ledger, "T1", ProfileLibrary().find("high-card-flush-casino"), VirtualShoe.seeded_with(1),
                          seats=6)
    table.seat_player(1, "Ann", 1000)

    def voided(hh: int, mm: int) -> None:
        clock.at(hh, mm)
        table.start_round()
        table.act(Ante(seat=1, amount=10))
        table.act(Void(reason="red light", **crew.approval(table, VOID)))

    voided(18, 0)
    voided(19, 30)                        # 90 minutes apart: no alert
    assert [a.kind for a in raised(ledger)] == []
    voided(20, 15)                        # 45 minutes after the one before
    [alert] = raised(ledger)
    assert (alert.kind, alert.text, alert.at[11:16]) == ("voids", "two voids at this table within 60 minutes", "20:15")


def test_a_pin_lockout_raises_an_alert(tmp_path: Path) -> None:
    ledger = SqliteLedger(tmp_path / "l.sqlite")
    desk = staffed(ledger).desk
    for _ in range(3):
        with pytest.raises(SignInRefused):
            desk.sign_in(DEALER, "000000", Purpose("deal", "a guess (test)", None))
    [alert] = raised(ledger)
    assert (alert.kind, alert.text) == ("PIN lock-out", f"{DEALER} locked out after wrong PINs")


def test_the_command_lists_and_acknowledges_with_the_supervisors_pin(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str],
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    ledger, _, table = big_payout_table(tmp_path / "l.sqlite")
    alert = next(a for a in open_alerts(ledger) if a.kind == "big payout")
    table.close()
    ledger.close()
    path = str(tmp_path / "l.sqlite")
    assert main(["alerts", "list", "--ledger", path]) == 0
    assert "big payout at H1: round 1: seat 2 10,200" in capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{SUPERVISOR_PIN}\n"))
    assert main(["alerts", "acknowledge", alert.id, "--by", SUPERVISOR, "--note", "checked", "--ledger", path]) == 0
    assert f"acknowledged by {SUPERVISOR}" in capsys.readouterr().out
    assert main(["alerts", "list", "--ledger", path]) == 0
    assert "big payout" not in capsys.readouterr().out                  # acknowledged: no longer listed
    assert main(["alerts", "list", "--all", "--ledger", path]) == 0
    assert f"acknowledged by {SUPERVISOR}: checked" in capsys.readouterr().out
    assert StaffDesk(SqliteLedger(path, readonly=True)).register().has_accounts()


def test_the_command_lists_a_big_payout_approved_since_as_closed_not_open(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """The floor approves the payout sent to it and the dealer pays it: the alert closed with the
    approval, `alerts list` leaves it out, and `--all` says what closed it."""
    from dealer_tui.screens.payout_dialog import FloorRequest

    ledger, crew, table = big_payout_table(tmp_path / "l.sqlite")
    approval = crew.signed(table, SIGN_OFF)
    ledger.decide_sign_off(table.round_id or 0, True, SUPERVISOR, "", approval.sign_in)
    FloorRequest(table).refresh()                                        # the table hears of the approval
    table.act(ConfirmPayout())
    table.close()
    ledger.close()
    path = str(tmp_path / "l.sqlite")
    assert main(["alerts", "list", "--ledger", path]) == 0
    assert "big payout" not in capsys.readouterr().out
    assert main(["alerts", "list", "--all", "--ledger", path]) == 0
    assert f"— closed: approved by {SUPERVISOR}" in capsys.readouterr().out


async def test_the_floor_shows_the_open_alerts_and_a_supervisor_acknowledges_one(tmp_path: Path) -> None:
    from textual.widgets import DataTable, Static

    from dealer_tui.screens.floor_alerts import AlertsScreen
    from tests.staff_support import floor_review

    ledger, _, table = big_payout_table(tmp_path / "l.sqlite")
    table.close()
    ledger.close()
    app = floor_review(tmp_path / "l.sqlite")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("exclamation_mark")
        screen = app.screen
        assert isinstance(screen, AlertsScreen)
        await until(pilot, lambda: screen.alerts, 10)
        assert [a.kind for a in screen.alerts] == ["currency transaction", "big payout"]
        await pilot.press("down")                                       # the alert in full, and what to look at
        detail = str(screen.query_one("#alert-detail", Static).render())
        assert detail.startswith("big payout at ") and "Next: s opens the sign-off queue" in detail
        assert screen.alerts[1].text in detail
        await pilot.press("a", *SUPERVISOR_PIN, "enter", *"paid as settled", "enter")
        await until(pilot, lambda: len(screen.alerts) == 1, 10)
        assert [a.kind for a in screen.alerts] == ["currency transaction"]
        assert screen.query_one(DataTable).row_count == 1
    ack = SqliteLedger(tmp_path / "l.sqlite", readonly=True).table_events(0, ["alert_acknowledged"])
    assert [(e.payload["by"], e.payload["note"]) for e in ack] == [(SUPERVISOR, "paid as settled")]


# -- the floor's settings ------------------------------------------------------------------------------


def test_a_manager_sets_the_thresholds_and_they_are_recorded(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A currency-transaction threshold of 5,000: a 6,000 cash buy-in now needs the player's ID; a
    supervisor may not change it; the change verifies (signed by the manager, its sign-in checked)."""
    from tests.staff_support import MANAGER, MANAGER_PIN

    path = tmp_path / "l.sqlite"
    ledger = SqliteLedger(path)
    crew, table = casino_on_shift(ledger, opener={"1000": 20})
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{SUPERVISOR_PIN}\n"))
    assert main(["staff", "settings", "--ctr", "5000", "--by", SUPERVISOR, "--reason", "x", "--ledger", str(path)]) == 2
    assert "only a manager may" in capsys.readouterr().err
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{MANAGER_PIN}\n"))
    assert main(["staff", "settings", "--ctr", "5000", "--void-minutes", "30", "--by", MANAGER,
                 "--reason", "the regulator's new limit", "--ledger", str(path)]) == 0
    assert "ctr_threshold 5,000" in capsys.readouterr().out
    assert main(["staff", "settings", "--ledger", str(path)]) == 0
    shown = capsys.readouterr().out
    assert "ctr_threshold" in shown and "5,000" in shown and "void_alert_minutes" in shown
    with pytest.raises(IllegalAction, match=r"comes to 6,000, at or over the currency-transaction threshold \(5,000\)"):
        table.seat_player(1, "Ann", 6000)
    table.seat_player(1, "Ann", 6000, document="passport ID-50505")
    [alert] = [a for a in raised(ledger) if a.kind == "currency transaction"]
    assert "cash in 6,000" in alert.text
    assert verify_ledger(ledger, GAMES) == []
    assert main(["staff", "settings", "--ctr", "0", "--by", MANAGER, "--reason", "x", "--ledger", str(path)]) == 2
    assert "ctr_threshold: 0 is not 1 to" in capsys.readouterr().err


async def test_every_alert_of_a_table_ledger_is_raised_and_acknowledged_on_the_floor(tmp_path: Path) -> None:
    """One ledger, every alert a table's records raise — an over-cap raise keyed at a live table, a
    big payout sent for sign-off, two voids within the hour, a shift's result outside its band (a
    known hold with no spread), a currency transaction, a PIN lock-out — each acknowledged on the
    floor's alerts screen with the supervisor's PIN and a note, until none is left."""
    from textual.widgets import DataTable

    from dealer_tui.accounting.theoretical import Edge, Theory
    from dealer_tui.screens.floor_alerts import AlertsScreen
    from dealer_tui.screens.floor_rounds import RoundsScreen
    from dealer_tui.staff import DEAL, TRAY
    from rules.profiles.loader import LoadedProfile
    from tests.accounting_support import folded_round
    from tests.hcf_support import acted, keyed, live_table
    from tests.staff_support import AUDITOR, floor_review

    class NoSpread(Theory):
        def __init__(self) -> None:
            super().__init__(GAMES, None)

        def edge(self, loaded: LoadedProfile) -> Edge | None:
            return Edge(0.05, 0.0, "test", 0, 0) if loaded.profile.house_banked() else None

    live = live_table(tmp_path)                                       # tmp_path / "ledger.sqlite"
    acted(live, 30, 10)                                               # seat 2 declares 30 over its cap of 20
    live.act(Reveal(cards=keyed({"seat 2": SEAT2, "seat 3": SEAT3, "banker": BANKER})))
    live.act(ConfirmPayout())
    ledger = live.ledger
    crew = staffed(ledger)
    big = staffed_table(ledger, "H1", PROFILE, ScriptedDeck([parse_cards(f"{SEAT2} {SEAT3} {BANKER}")]), seats=7)
    for seat, (name, stack) in enumerate((("Ann", 9000), ("Bob", 5000), ("Cy", 1000)), start=1):
        # Ann's 5,000 at the live table and 9,000 here reach 14,000: her ID is asked for here
        big.seat_player(seat, name, stack, document="passport X0000001" if name == "Ann" else "")
    big.start_round()
    big_win(big)
    big.act(SendToFloor())
    casino = staffed_table(ledger, "C1", ProfileLibrary().find("high-card-flush-casino"), VirtualShoe.seeded_with(2),
                           seats=6)
    casino.money.open_shift({"1000": 20}, crew.sign_in(DEALER, DEALER_PIN, DEAL, casino),
                      crew.sign_in(SUPERVISOR, SUPERVISOR_PIN, TRAY, casino))
    casino.seat_player(1, "Dee", 12000, document="passport ID-90909")                 # a currency transaction
    for _ in range(2):                                                # two voids within the hour
        casino.start_round()
        casino.act(Ante(seat=1, amount=10))
        casino.act(Void(reason="red light", **crew.approval(casino, VOID)))
    folded_round(casino, {1: 10})                                     # +10 where 5% of 10 was expected, no spread
    casino.money.close_shift({"1000": 8, "5": 2}, crew.sign_in(DEALER, DEALER_PIN, DEAL, casino),
                       crew.sign_in(SUPERVISOR, SUPERVISOR_PIN, TRAY, casino))
    for _ in range(3):                                                # a PIN lock-out
        with pytest.raises(SignInRefused):
            crew.desk.sign_in(AUDITOR, "000000", Purpose("floor", "a guess (test)"))
    expected = {"over-cap raise", "big payout", "voids", "hold outside its band", "currency transaction",
                "PIN lock-out"}
    assert {a.kind for a in open_alerts(ledger, NoSpread())} == expected
    for t in (live, big, casino):
        t.close()
    ledger.close()
    app = floor_review(tmp_path / "ledger.sqlite")
    async with app.run_test(size=(120, 36)) as pilot:
        rounds = app.screen
        assert isinstance(rounds, RoundsScreen)
        screen = AlertsScreen(rounds.ledger, rounds.desk, NoSpread())
        app.push_screen(screen)

        async def settled(count: int) -> None:
            for _ in range(300):
                await pilot.pause(0.05)
                if len(screen.alerts) == count and screen.query_one(DataTable).row_count == count:
                    return
            raise AssertionError(f"{len(screen.alerts)} alerts shown, not {count}: {[(a.kind, a.text) for a in screen.alerts]}")

        shown = len(expected) + 1  # two currency transactions: Dee (ID-9), and Ann at two tables
        await settled(shown)
        assert {a.kind for a in screen.alerts} == expected
        for left in range(shown - 1, -1, -1):
            await pilot.press("a", *SUPERVISOR_PIN, "enter", *"looked into", "enter")
            await settled(left)
        assert "No alert is open." in str(screen.query_one("#alerts-status").render())
    done = SqliteLedger(tmp_path / "ledger.sqlite", readonly=True)
    assert open_alerts(done, NoSpread()) == []
    assert verify_ledger(done, GAMES) == []


def test_an_acknowledged_alert_covers_what_was_seen_and_a_worse_condition_is_a_new_alert(tmp_path: Path) -> None:
    """Dee, identified, brings 12,000 cash (threshold 10,000): one alert, acknowledged. She brings
    9,000 more: 21,000 has passed the threshold twice — a new alert, open, while the first stays
    acknowledged. A closer 15 short of what the tray should hold raises its own alert. By hand:
    opener 20 x 1,000 = 20,000; sold 12,000 + 9,000 = 21,000 > 20,000 in the tray, so a fill of
    5 x 1,000 first; the tray then should hold 20,000 + 5,000 - 21,000 = 4,000; counted 3,985."""
    from dealer_tui.staff import DEAL, TRAY

    ledger = SqliteLedger(tmp_path / "l.sqlite")
    crew = staffed(ledger)
    casino = staffed_table(ledger, "C1", ProfileLibrary().find("high-card-flush-casino"), VirtualShoe.seeded_with(2),
                           seats=6)

    def both():  # type: ignore[no-untyped-def]
        return crew.sign_in(DEALER, DEALER_PIN, DEAL, casino), crew.sign_in(SUPERVISOR, SUPERVISOR_PIN, TRAY, casino)

    casino.money.open_shift({"1000": 20}, *both())
    casino.seat_player(1, "Dee", 12000, document="passport ID-90909")
    [first] = [a for a in open_alerts(ledger) if a.kind == "currency transaction"]
    acknowledge(ledger, first.id, crew.sign_in(SUPERVISOR, SUPERVISOR_PIN, ACKNOWLEDGE), "ID checked")
    assert [a for a in open_alerts(ledger) if a.kind == "currency transaction"] == []
    casino.money.fill("F-1", {"1000": 5}, *both())
    casino.buy_chips(1, 9000)
    [worse] = [a for a in open_alerts(ledger) if a.kind == "currency transaction"]
    assert worse.id != first.id and "cash in 21,000" in worse.text
    casino.money.close_shift({"1000": 3, "500": 1, "100": 4, "25": 3, "5": 2}, *both())   # 3,985
    [closer] = [a for a in open_alerts(ledger, Theory(GAMES, None, hands=2_000)) if a.kind == "closer difference"]
    assert closer.text == "shift 1: the closer is short by 15 against what the tray should hold"
