"""Staff on the pit server: the pit's accounts are every terminal's (received into the terminal's
own register, so that staff sign in at a table offline too, against the copy last received); a
terminal's own account changes are refused while its staff come from the pit; a lock-out at one
terminal locks the account at the others and at the pit's floor; and the server re-checks what a
terminal says it received."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_tui.audit.pit_audit import server_witness, verify_pit
from dealer_tui.events.staff import StaffAdded, StaffReceived
from dealer_tui.games import GAMES
from dealer_tui.ledger import SqliteLedger
from dealer_tui.ledger.base import STAFF_REGISTER
from dealer_tui.pit.delivery import Delivery
from dealer_tui.rounds.steps import ConfirmPayout, SendToFloor
from dealer_tui.staff import DEAL, FLOOR, MANAGE, Purpose, SignInRefused, StaffDesk, StaffError
from dealer_tui.staff.pins import seal_pin
from tests.pit_support import (
    DEALER,
    DEALER_PIN,
    PIT_MANAGER,
    PIT_MANAGER_PIN,
    SUPER,
    SUPER_PIN,
    pit_with_staff,
    terminal,
)


def test_a_terminal_signs_staff_in_against_the_pits_accounts_offline_too(tmp_path: Path, pit_db: str) -> None:
    pit_with_staff(pit_db)
    ledger, delivery = terminal(tmp_path / "t.sqlite", pit_db)
    delivery.close()
    register = StaffDesk(ledger).register()
    assert sorted(register.accounts) == [DEALER, PIT_MANAGER, SUPER] and register.attached
    offline = Delivery(tmp_path / "t.sqlite", "host=/nonexistent dbname=none")
    with pytest.raises(Exception, match="cannot be reached"):
        offline.once()                                                        # no server: the copy serves
    approval = StaffDesk(ledger).sign_in(DEALER, DEALER_PIN, Purpose(DEAL, "deal at table 1", table=1))
    assert (approval.account, approval.role) == (DEALER, "dealer")


def test_a_terminals_own_account_changes_are_refused_while_its_staff_come_from_the_pit(tmp_path: Path,
                                                                                       pit_db: str) -> None:
    pit_with_staff(pit_db)
    ledger, _ = terminal(tmp_path / "t.sqlite", pit_db)
    desk = StaffDesk(ledger)
    by = desk.sign_in(PIT_MANAGER, PIT_MANAGER_PIN, Purpose(MANAGE, "add a dealer here"))
    written = ledger.chain_length(STAFF_REGISTER)
    with pytest.raises(StaffError, match="come from its pit server: a manager changes them there"):
        desk.add("D8", "Dan", "dealer", "88812345", by)
    assert ledger.chain_length(STAFF_REGISTER) == written                       # nothing recorded


def test_an_account_disabled_on_the_pit_is_refused_at_the_terminal_once_received(tmp_path: Path, pit_db: str) -> None:
    pit = pit_with_staff(pit_db)
    ledger, delivery = terminal(tmp_path / "t.sqlite", pit_db)
    desk = StaffDesk(pit)
    desk.disable(DEALER, desk.sign_in(PIT_MANAGER, PIT_MANAGER_PIN, Purpose(MANAGE, "a dealer leaves")), "left")
    assert delivery.receive_staff() == 1
    with pytest.raises(SignInRefused, match="Dot Dealer \\(D7, dealer, disabled\\) is disabled"):
        StaffDesk(ledger).sign_in(DEALER, DEALER_PIN, Purpose(DEAL, "deal at table 1", table=1))


def test_a_lock_out_at_one_terminal_locks_the_account_at_another_and_at_the_pits_floor(tmp_path: Path,
                                                                                       pit_db: str) -> None:
    pit = pit_with_staff(pit_db)
    a, at_a = terminal(tmp_path / "a.sqlite", pit_db)
    b, at_b = terminal(tmp_path / "b.sqlite", pit_db)
    for _ in range(3):
        with pytest.raises(SignInRefused):
            StaffDesk(a).sign_in(SUPER, "000000", Purpose(FLOOR, "the floor"))
    at_a.once()                                                                  # terminal A delivers its lock-out
    at_b.once()                                                                  # terminal B receives it
    with pytest.raises(SignInRefused, match="S7 is locked for"):
        StaffDesk(b).sign_in(SUPER, SUPER_PIN, Purpose(FLOOR, "the floor"))
    with pytest.raises(SignInRefused, match="S7 is locked for"):
        StaffDesk(pit).sign_in(SUPER, SUPER_PIN, Purpose(FLOOR, "the pit's floor"))


def test_the_server_names_an_account_a_terminal_says_it_received_but_made_up(tmp_path: Path, pit_db: str) -> None:
    """An insider at a terminal writes a manager of their own into its register as if received
    from the pit (signed by itself, as a first manager is): the terminal takes it; the pit's
    check, on the server and as the terminal's witness, names it."""
    pit_with_staff(pit_db)
    ledger, delivery = terminal(tmp_path / "t.sqlite", pit_db)
    pin, _ = seal_pin("999111333")
    fake = StaffAdded(account="X1", name="Insider", role="manager", pin=pin)
    ledger.append(STAFF_REGISTER, None, [StaffReceived(pit_seq=99, pit_hash="0" * 64, event_kind=fake.KIND,
                                                       event=fake.record().payload, account="X1").record()])
    problems, _ = server_witness(SqliteLedger(tmp_path / "t.sqlite", readonly=True), pit_db)
    assert any("a staff_added said to be received from the pit's staff register (its event 99)" in p for p in problems)
    delivery.once()
    assert any("an account or lock-out made up at the terminal" in p for p in verify_pit(pit_db, GAMES).problems)


def test_a_big_payout_signed_off_at_the_pits_floor_is_paid_at_the_table(tmp_path: Path, pit_db: str) -> None:
    """A dealer sends a big payout to the floor (HCF example: seat 2 wins 500 + 1000 + 100 x 10 +
    100 x 60 = 8500); a supervisor at the pit's floor approves it with their own sign-in there;
    the terminal receives the decision and pays; the pit verifies, and so does the terminal's file
    with the pit as its witness."""
    from dealer_tui.audit import verify_ledger
    from dealer_tui.screens.payout_dialog import FloorRequest
    from dealer_tui.staff import SIGN_OFF
    from tests.hcf_support import big_payout_table, big_win

    pit = pit_with_staff(pit_db)
    ledger, delivery = terminal(tmp_path / "t.sqlite", pit_db)
    table = big_payout_table(ledger, StaffDesk(ledger).sign_in(DEALER, DEALER_PIN, Purpose(DEAL, "deal", 1)))
    big_win(table)
    table.act(SendToFloor())
    delivery.once()
    waiting = pit.sign_off_queue()
    assert len(waiting) == 1
    record = waiting[0].round
    desk = StaffDesk(pit)
    who = desk.sign_in(SUPER, SUPER_PIN, Purpose(SIGN_OFF, "approve at the pit", record.table_id, record.number,
                                                 signs=waiting[0].request.payload["figures"]))
    pit.decide_sign_off(record.id, True, SUPER, sign_in=who.sign_in)
    assert pit.sign_off_queue() == []                                   # decided: no longer waiting at the pit
    delivery.once()                                                     # the terminal receives it
    assert FloorRequest(table).refresh()
    table.act(ConfirmPayout())                                  # no PIN here: the pit's floor signed
    assert table.session.stacks() == {1: 20000 - 8490, 2: 5000 + 8500, 3: 1000 - 10}
    done = [e for e in ledger.round_events(table.round_id or 0) if e.kind == "payout_confirmed"]
    assert done[0].payload["signed_off_by"] == SUPER
    delivery.once()
    assert verify_ledger(ledger, GAMES) == []
    assert verify_pit(pit_db, GAMES).problems == []
    assert server_witness(SqliteLedger(tmp_path / "t.sqlite", readonly=True), pit_db)[0] == []


def test_a_second_first_manager_written_into_a_register_with_accounts_stands_for_nothing(tmp_path: Path) -> None:
    """An insider writes a manager of their own, signed by itself as only the first account may
    be, into a register that has accounts: the register names it and does not take it."""
    from dealer_tui.staff.desk import signed

    ledger = SqliteLedger(tmp_path / "l.sqlite")
    StaffDesk(ledger).add_first_manager(PIT_MANAGER, "Pat Pitboss", PIT_MANAGER_PIN)
    pin, key = seal_pin("999111333")
    assert key is not None
    forged = signed(StaffAdded(account="X1", name="Insider", role="manager", pin=pin), key,
                    ledger.chain_length(STAFF_REGISTER) + 1)
    ledger.append(STAFF_REGISTER, None, [forged.record()])
    register = StaffDesk(SqliteLedger(tmp_path / "l.sqlite", readonly=True)).register()
    assert "X1" not in register.accounts
    assert any("account 'X1' added by no one on a register with accounts (it stands for nothing)" in p
               for p in register.problems)


def test_an_alarm_a_manager_acknowledged_leaves_verifys_problems_for_its_notes(tmp_path: Path, pit_db: str) -> None:
    """A rewritten ledger is refused and raised as an alarm: verify names it until a manager,
    signed in for it, says what was found (the alarm itself stays); a supervisor's word does not
    count."""
    import sqlite3

    from tests.insider_support import rehash
    from tests.pit_support import played

    pit = pit_with_staff(pit_db)
    played(tmp_path / "t.sqlite", rounds=2).close()
    Delivery(tmp_path / "t.sqlite", pit_db).once()
    with sqlite3.connect(tmp_path / "t.sqlite") as db:
        db.execute("UPDATE events SET payload = json_set(payload, '$.house', 999) WHERE kind = 'payout_confirmed'")
    rehash(tmp_path / "t.sqlite")
    assert Delivery(tmp_path / "t.sqlite", pit_db, "T").once().refused
    assert any("the server refused its delivery" in p for p in verify_pit(pit_db, GAMES).problems)
    number = int(pit.alarms()[0][3].rsplit("(alarm ", 1)[1].rstrip(")"))
    desk = StaffDesk(pit)
    sup = desk.sign_in(SUPER, SUPER_PIN, Purpose(FLOOR, "not a manager's word"))
    pit.acknowledge(number, "looked at it", SUPER, sup.sign_in)
    assert any("the server refused its delivery" in p for p in verify_pit(pit_db, GAMES).problems)   # it stands for nothing
    by = desk.sign_in(PIT_MANAGER, PIT_MANAGER_PIN, Purpose(MANAGE, f"acknowledge alarm {number}"))
    pit.acknowledge(number, "the terminal's file was restored from a backup; re-installed", PIT_MANAGER, by.sign_in)
    report = verify_pit(pit_db, GAMES)
    assert not any("the server refused its delivery" in p for p in report.problems)
    assert f"alarm {number}: acknowledged by PM: the terminal's file was restored from a backup; re-installed" \
        in report.notes


def test_an_accounts_language_chosen_at_the_pit_reaches_its_terminals_and_a_schema_3_pit_takes_it_after_init(
        tmp_path: Path, pit_db: str) -> None:
    """The dealer chooses Russian at the pit with their own PIN (a signed account event of the pit's
    register); a terminal bound to the pit receives it. A pit made by the program before accounts had
    languages (schema 3) is refused by a terminal until `pit init` brings it up to date."""
    import psycopg

    from dealer_tui.ledger import LedgerError
    from dealer_tui.ledger.postgres import PgLedger, init_schema
    from dealer_tui.staff import SET_LANGUAGE

    pit = pit_with_staff(pit_db)
    ledger, delivery = terminal(tmp_path / "t.sqlite", pit_db)
    pit.close()
    with psycopg.connect(pit_db, autocommit=True) as db:  # the pit as schema 3 left it
        db.execute("UPDATE pit_meta SET value = '3' WHERE key = 'schema'")
    with pytest.raises(LedgerError, match="`dealer-tui pit init` brings it up to date"):
        PgLedger(pit_db)
    init_schema(pit_db)
    pit = PgLedger(pit_db)
    desk = StaffDesk(pit)
    desk.set_language(DEALER, "ru", desk.sign_in(DEALER, DEALER_PIN, Purpose(SET_LANGUAGE, "read Russian")))
    assert desk.register().accounts[DEALER].language == "ru"
    assert delivery.receive_staff() == 1
    assert StaffDesk(ledger).register().accounts[DEALER].language == "ru"
    assert verify_pit(pit_db, GAMES).problems == []
