"""The pit server against insiders (found by attacking it): a terminal's login that holds locks,
writes lock-outs that would last for ever or are no number, registers tables under another
terminal's ledger, speaks for another terminal's link; a floor login that writes a received
account onto the pit's own chain; a terminal file that replays a received account event or
changes its ledger id. Each is refused, bounded, or named by `history verify`."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

import psycopg
import pytest

from dealer_tui.audit import verify_ledger
from dealer_tui.audit.pit_audit import server_witness, verify_pit
from dealer_tui.demo import play
from dealer_tui.events.staff import StaffAdded, StaffLocked
from dealer_tui.games import GAMES
from dealer_tui.ledger import SqliteLedger
from dealer_tui.ledger.base import GENESIS, STAFF_REGISTER, NewEvent, event_hash
from dealer_tui.ledger.postgres import PgLedger, init_schema
from dealer_tui.pit.delivery import Delivery
from dealer_tui.rounds.cards import VirtualShoe
from dealer_tui.rounds.table import Table
from dealer_tui.staff import DEAL, FLOOR, MANAGE, Purpose, SignInRefused, StaffDesk
from tests.insider_support import rehash
from tests.pg_support import bind_to_pit, floor_login
from tests.pit_support import (
    DEALER,
    DEALER_PIN,
    HCF,
    PIT_MANAGER,
    PIT_MANAGER_PIN,
    SUPER,
    SUPER_PIN,
    pit_with_staff,
    played,
    terminal_login,
)


def server_append(conninfo: str, server_table: int, kind: str, payload: dict[str, object], *, raw: str | None = None,
                  origin_table: int = 0, at: str | None = None) -> None:
    """An event appended to a table's chain on the server, hashed right (as an insider who knows
    the scheme does), through `pit_append` as the login of `conninfo`."""
    with psycopg.connect(conninfo, autocommit=True) as db:
        row = db.execute("SELECT seq, hash, ledger_seq FROM pit_events WHERE table_id = %s ORDER BY seq DESC LIMIT 1",
                         (server_table,)).fetchone()
        seq, prev, ledger_seq = (row[0], row[1], row[2]) if row else (0, GENESIS, 0)
        ts = at or datetime.now(UTC).isoformat(timespec="microseconds")
        digest = event_hash(prev, origin_table, None, seq + 1, ts, kind, payload, (ledger_seq or 0) + 1)
        db.execute("SELECT pit_append(%s, NULL, NULL, %s, %s, %s, %s, %s, %s, %s)",
                   (server_table, seq + 1, ts, kind, raw or json.dumps(payload, sort_keys=True), prev, digest,
                    (ledger_seq or 0) + 1))


def test_a_forged_lock_out_is_refused_by_the_pit_and_locks_no_one(tmp_path: Path, pit_db: str) -> None:
    """Attack 3: a terminal's login writes lock-outs into its own register on the server: one to
    last for ever (a time in 2100), one of no finite number, one that looks real but follows no
    wrong PIN. The server takes none of them (it locks on the wrong PINs it sees, on its clock):
    no other terminal and not the pit's floor locks anyone."""
    pit_with_staff(pit_db)
    seven = terminal_login(pit_db, 7)
    SqliteLedger(tmp_path / "a.sqlite").close()
    bind_to_pit(tmp_path / "a.sqlite", seven)
    Delivery(tmp_path / "a.sqlite", seven).once()
    with psycopg.connect(pit_db) as db:  # the terminal's staff register on the server
        own = db.execute("SELECT id FROM pit_tables WHERE owner_role LIKE %s AND origin_id = 0",
                         ("%table_7",)).fetchone()[0]
    now = time.time()
    for account, payload, raw in (
            (PIT_MANAGER, {"account": PIT_MANAGER, "until": 4102444800.0, "seconds": 10**9}, None),
            (DEALER, {"account": DEALER, "seconds": 1, "until": 1e400},
             f'{{"account": "{DEALER}", "seconds": 1, "until": {"1" + "0" * 400}}}'),
            (SUPER, {"account": SUPER, "until": now + 300, "seconds": 300}, None)):
        with pytest.raises(psycopg.errors.IntegrityConstraintViolation, match="a lock-out no three wrong PINs"):
            server_append(seven, own, StaffLocked.KIND, payload, raw=raw)
    b = tmp_path / "b.sqlite"
    SqliteLedger(b).close()
    bind_to_pit(b, pit_db)
    assert Delivery(b, pit_db).once().refused == []
    desk = StaffDesk(SqliteLedger(b))
    desk.sign_in(PIT_MANAGER, PIT_MANAGER_PIN, Purpose(MANAGE, "not locked"))
    desk.sign_in(DEALER, DEALER_PIN, Purpose(DEAL, "not locked", 1))
    desk.sign_in(SUPER, SUPER_PIN, Purpose(FLOOR, "not locked"))
    StaffDesk(PgLedger(pit_db)).sign_in(SUPER, SUPER_PIN, Purpose(FLOOR, "not locked at the pit's floor"))
    assert verify_pit(pit_db, GAMES).problems == []


def test_wrong_pins_at_several_terminals_lock_the_account_on_the_pits_clock_until_a_manager_lifts_it(
        tmp_path: Path, pit_db: str) -> None:
    """Attack 6's spread guesses: two wrong PINs at one terminal and one at the pit's floor lock the
    account at the pit and at every other terminal, counted by the server in the order it received
    them; a manager lifts the lock-out, recorded with the reason."""
    pit = pit_with_staff(pit_db)
    a, b = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    for path in (a, b):
        SqliteLedger(path).close()
        bind_to_pit(path, pit_db)
        Delivery(path, pit_db).once()
    for _ in range(2):
        with pytest.raises(SignInRefused, match="wrong ID or PIN"):
            StaffDesk(SqliteLedger(a)).sign_in(SUPER, "918273645", Purpose(FLOOR, "a guess"))
    Delivery(a, pit_db).once()
    with pytest.raises(SignInRefused, match="wrong ID or PIN: 2 tries left"):   # the floor's own count: one
        StaffDesk(pit).sign_in(SUPER, "918273640", Purpose(FLOOR, "a third guess, at the floor"))
    with pytest.raises(SignInRefused, match="S7 is locked for"):             # the pit counts three
        StaffDesk(pit).sign_in(SUPER, SUPER_PIN, Purpose(FLOOR, "the real PIN"))
    Delivery(b, pit_db).once()
    with pytest.raises(SignInRefused, match="S7 is locked for"):
        StaffDesk(SqliteLedger(b)).sign_in(SUPER, SUPER_PIN, Purpose(FLOOR, "the real PIN at terminal B"))
    assert StaffDesk(SqliteLedger(b)).locked_for(SUPER) <= 300
    desk = StaffDesk(pit)
    desk.unlock(SUPER, desk.sign_in(PIT_MANAGER, PIT_MANAGER_PIN, Purpose(MANAGE, "lift S7's lock-out")),
                "S7 forgot the new PIN; checked their badge")
    desk.sign_in(SUPER, SUPER_PIN, Purpose(FLOOR, "lifted"))
    Delivery(b, pit_db).once()
    StaffDesk(SqliteLedger(b)).sign_in(SUPER, SUPER_PIN, Purpose(FLOOR, "lifted at terminal B"))
    assert verify_pit(pit_db, GAMES).problems == []


def test_a_login_holding_locks_does_not_hang_another_terminals_delivery(tmp_path: Path, pit_db: str) -> None:
    """Advisory locks are anyone's: the chains are locked through their table rows, which no
    terminal login may lock; a statement waiting on a lock fails within seconds."""
    init_schema(pit_db)
    seven, eight = terminal_login(pit_db, 7), terminal_login(pit_db, 8)
    played(tmp_path / "t8.sqlite", rounds=1, name="Main 8").close()
    Delivery(tmp_path / "t8.sqlite", eight).once()
    with psycopg.connect(pit_db) as db:
        tables = [t for (t,) in db.execute("SELECT id FROM pit_tables")]
    hog = psycopg.connect(seven, autocommit=True)
    for key in [*tables, 0, 20]:
        hog.execute("SELECT pg_advisory_lock(%s)", (key,))
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        hog.execute("SELECT 1 FROM pit_tables FOR UPDATE")
    ledger = SqliteLedger(tmp_path / "t8.sqlite")
    play(Table.open(ledger, ledger.tables()[0], GAMES.find(HCF.game), HCF, VirtualShoe.seeded_with(9)), 1, random.Random(9))
    ledger.close()
    done: list[object] = []
    worker = threading.Thread(target=lambda: done.append(Delivery(tmp_path / "t8.sqlite", eight).once()))
    worker.start()
    worker.join(30)
    hog.close()
    assert done and getattr(done[0], "refused", None) == []


def test_a_floor_login_may_not_write_a_received_account_onto_the_pits_own_chain(pit_db: str) -> None:
    pit = pit_with_staff(pit_db)
    floor = floor_login(pit_db)
    head = pit.chain_length(STAFF_REGISTER)
    with psycopg.connect(floor, autocommit=True) as db, \
            pytest.raises(psycopg.errors.InsufficientPrivilege, match="staff_received event has no place"):
        db.execute("SELECT pit_floor_append(%s, 't', 'staff_received', '{}', 'p', 'h', 1)", (head + 1,))
    assert pit.chain_length(STAFF_REGISTER) == head


def test_a_received_account_event_replayed_in_a_terminal_file_stands_for_nothing(tmp_path: Path, pit_db: str) -> None:
    """The pit disables a dealer; an insider at a terminal writes the dealer's old staff_added
    (a genuine event received earlier) into the file again: the dealer stays disabled there, and
    verify names the replay."""
    pit = pit_with_staff(pit_db)
    path = tmp_path / "t.sqlite"
    SqliteLedger(path).close()
    bind_to_pit(path, pit_db)
    delivery = Delivery(path, pit_db)
    delivery.once()
    desk = StaffDesk(pit)
    desk.disable(DEALER, desk.sign_in(PIT_MANAGER, PIT_MANAGER_PIN, Purpose(MANAGE, "a dealer leaves")), "left")
    delivery.once()
    ledger = SqliteLedger(path)
    added = next(e for e in ledger.table_events(STAFF_REGISTER, ["staff_received"])
                 if e.payload["event_kind"] == "staff_added" and e.payload["account"] == DEALER)
    ledger.append(STAFF_REGISTER, None, [NewEvent("staff_received", added.payload)])
    with pytest.raises(SignInRefused, match="is disabled"):
        StaffDesk(ledger).sign_in(DEALER, DEALER_PIN, Purpose(DEAL, "deal", 1))
    assert any("is received a second time (it stands for nothing)" in p for p in verify_ledger(ledger, GAMES))


def test_a_login_may_not_register_tables_under_another_terminals_ledger(tmp_path: Path, pit_db: str) -> None:
    init_schema(pit_db)
    seven, eight = terminal_login(pit_db, 7), terminal_login(pit_db, 8)
    played(tmp_path / "t8.sqlite", rounds=1, name="Main 8").close()
    Delivery(tmp_path / "t8.sqlite", eight).once()
    origin = SqliteLedger(tmp_path / "t8.sqlite", readonly=True).ledger_id()
    with psycopg.connect(seven, autocommit=True) as db:
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied"):
            db.execute("INSERT INTO pit_tables(origin, origin_id, name, game, profile, profile_sha256, card_source,"
                       " created_at) VALUES (%s, 2, 'VIP 8', 'high-card-flush', 'x', 'x', 'shoe', 't')", (origin,))
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="another login's"):
            db.execute("SELECT pit_register(%s, 2, 'VIP 8', 'high-card-flush', 'x', 'x', 'shoe', 't')", (origin,))
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="another login's"):
            db.execute("SELECT pit_contact(%s, 'T8', 'spoof', false)", (origin,))
    shutil.copy(tmp_path / "t8.sqlite", tmp_path / "copy.sqlite")             # table 8's ledger, table 7's login
    refused = Delivery(tmp_path / "copy.sqlite", seven).once().refused
    assert refused and "another login" in refused[0]
    alarms = PgLedger(pit_db).alarms()
    assert alarms and "raised by login" in alarms[0][3] and "_table_7]" in alarms[0][3]


def test_a_terminal_file_whose_ledger_id_was_changed_has_no_witness_on_the_pit(tmp_path: Path, pit_db: str) -> None:
    init_schema(pit_db)
    played(tmp_path / "t.sqlite", rounds=2).close()
    Delivery(tmp_path / "t.sqlite", pit_db).once()
    with sqlite3.connect(tmp_path / "t.sqlite") as db:
        db.execute("DELETE FROM settlements WHERE round_id = 2")
        db.execute("DELETE FROM events WHERE round_id = 2")
        db.execute("DELETE FROM rounds WHERE id = 2")
        db.execute("UPDATE ledger_meta SET value = '0123456789abcdef0123456789abcdef' WHERE key = 'ledger_id'")
    rehash(tmp_path / "t.sqlite")
    problems, compared = server_witness(SqliteLedger(tmp_path / "t.sqlite", readonly=True), pit_db)
    assert compared == 0 and any("holds no event of this ledger (id 0123456789abcdef0123456789abcdef)" in p
                                 for p in problems)


def test_a_pit_sign_in_copied_into_a_terminal_file_for_a_sign_off_is_named(tmp_path: Path, pit_db: str) -> None:
    """A supervisor signs in at the pit's floor for another table's round; an insider at a
    terminal copies that sign-in into the terminal's register as if received for one of its own
    rounds: the pit, as the terminal's witness, names it (the pit's floor decided nothing there)."""
    pit = pit_with_staff(pit_db)
    path = tmp_path / "t.sqlite"
    SqliteLedger(path).close()
    Delivery(path, pit_db).once()
    StaffDesk(pit).sign_in(SUPER, SUPER_PIN, Purpose("sign_off", "another table's payout", 99, 1))
    taken = next(e for e in reversed(pit.table_events(STAFF_REGISTER)) if e.kind == "staff_signed_in")
    ledger = SqliteLedger(path)
    ledger.append(STAFF_REGISTER, None, [NewEvent("staff_received", {
        "pit_seq": taken.seq, "pit_hash": taken.hash, "event_kind": taken.kind, "event": taken.payload,
        "account": SUPER, "origin": "", "local_table": 1})])
    problems, _ = server_witness(SqliteLedger(path, readonly=True), pit_db)
    assert any("received for table 1, but the pit's floor decided nothing of this terminal's with it" in p
               for p in problems)


def test_a_self_signed_account_on_the_pits_chain_is_no_terminals_account(tmp_path: Path, pit_db: str) -> None:
    """A floor login writes onto the pit's chain a manager signed by itself (as only a first
    account may be), and the supervisor's account again with a PIN of its own: terminals take
    neither (the real PIN still signs in), and the pit's verify names both."""
    from dealer_tui.staff.desk import signed
    from dealer_tui.staff.pins import seal_pin

    pit = pit_with_staff(pit_db)
    path = tmp_path / "t.sqlite"
    SqliteLedger(path).close()
    bind_to_pit(path, pit_db)
    delivery = Delivery(path, pit_db)
    delivery.once()
    for account, role in (("E1", "manager"), (SUPER, "supervisor")):
        pin, key = seal_pin("864209753")
        assert key is not None
        head = pit.chain_length(STAFF_REGISTER)
        forged = signed(StaffAdded(account=account, name="Insider", role=role, pin=pin), key, head + 1)
        pit.append(STAFF_REGISTER, None, [forged.record()])
    delivery.once()
    desk = StaffDesk(SqliteLedger(path))
    assert "E1" not in desk.register().accounts
    desk.sign_in(SUPER, SUPER_PIN, Purpose(FLOOR, "the real PIN"))
    with pytest.raises(SignInRefused):
        desk.sign_in(SUPER, "864209753", Purpose(FLOOR, "the insider's PIN"))
    problems = verify_pit(pit_db, GAMES).problems
    assert sum("added by no one" in p or "added again" in p for p in problems) >= 2
