"""Delivery to the pit server (PostgreSQL, a throwaway cluster): every event taken once, in
order, a retry or a restart never duplicating; a history rewritten, rolled back or delivered by a
second terminal refused and kept as an alarm; the server's events never updated or deleted, even
by a terminal that tries; the server's rows are the terminal's, and `verify` says when they are not."""

from __future__ import annotations

import random
import shutil
import sqlite3
from pathlib import Path

import psycopg
import pytest

from dealer_tui.audit.pit_audit import verify_pit
from dealer_tui.demo import play
from dealer_tui.games import GAMES
from dealer_tui.ledger import SqliteLedger
from dealer_tui.ledger.postgres import PgLedger, init_schema
from dealer_tui.pit.delivery import Delivery
from dealer_tui.rounds.cards import VirtualShoe
from dealer_tui.rounds.table import Table
from tests.insider_support import rehash
from tests.pit_support import HCF, played, server_count, terminal_login


def test_every_event_is_delivered_once_and_a_retry_adds_nothing(tmp_path: Path, pit_db: str) -> None:
    init_schema(pit_db)
    ledger = played(tmp_path / "l.sqlite")
    written = ledger.chain_length(1) + ledger.chain_length(0)                    # the table's and the register's
    delivery = Delivery(tmp_path / "l.sqlite", pit_db, "T1")
    first = delivery.once()
    assert (first.added, first.known, first.refused) == (written, 0, [])
    again = delivery.once()
    assert (again.added, again.known) == (0, 0)                                  # nothing new: nothing sent
    assert server_count(pit_db, "SELECT COUNT(*) FROM pit_events WHERE table_id <> 0") == written
    assert server_count(pit_db, "SELECT COUNT(*) FROM pit_rounds") == 5


def test_a_restart_resumes_where_the_server_stands(tmp_path: Path, pit_db: str) -> None:
    """Two rounds delivered; the terminal stops, plays two more after its restart, delivers again:
    only the new events are added (the server's last is sent again and checked)."""
    init_schema(pit_db)
    ledger = played(tmp_path / "l.sqlite", rounds=2)
    Delivery(tmp_path / "l.sqlite", pit_db).once()
    before = ledger.chain_length(1)
    ledger.close()
    again = SqliteLedger(tmp_path / "l.sqlite")
    table = Table.open(again, again.tables()[0], GAMES.find(HCF.game), HCF, VirtualShoe.seeded_with(4))
    assert play(table, 2, random.Random(4)) == 2
    after = again.chain_length(1)
    resumed = Delivery(tmp_path / "l.sqlite", pit_db).once()                     # the terminal started again
    assert (resumed.added, resumed.known) == (after - before, 1)
    assert server_count(pit_db, "SELECT COUNT(*) FROM pit_rounds") == 4


def test_a_history_rewritten_on_the_terminal_is_refused_and_raised_as_an_alarm(tmp_path: Path, pit_db: str) -> None:
    init_schema(pit_db)
    played(tmp_path / "l.sqlite").close()
    Delivery(tmp_path / "l.sqlite", pit_db).once()
    with sqlite3.connect(tmp_path / "l.sqlite") as db:                              # a payout rewritten, re-hashed
        db.execute("UPDATE events SET payload = json_set(payload, '$.house', 999999) WHERE kind = 'payout_confirmed'")
    rehash(tmp_path / "l.sqlite")
    refused = Delivery(tmp_path / "l.sqlite", pit_db, "T1").once().refused
    assert len(refused) == 1 and "differs from the one the server holds" in refused[0]
    alarms = PgLedger(pit_db).alarms()
    assert len(alarms) == 1 and alarms[0][2] == "Main 1" and "terminal T1" in alarms[0][3]


def test_a_ledger_rolled_back_to_an_older_copy_is_refused(tmp_path: Path, pit_db: str) -> None:
    init_schema(pit_db)
    ledger = played(tmp_path / "l.sqlite", rounds=2)
    ledger.close()
    shutil.copy(tmp_path / "l.sqlite", tmp_path / "backup.sqlite")
    again = SqliteLedger(tmp_path / "l.sqlite")
    play(Table.open(again, again.tables()[0], GAMES.find(HCF.game), HCF, VirtualShoe.seeded_with(4)), 2, random.Random(4))
    again.close()
    Delivery(tmp_path / "l.sqlite", pit_db).once()
    shutil.copy(tmp_path / "backup.sqlite", tmp_path / "l.sqlite")              # restored from the backup
    refused = Delivery(tmp_path / "l.sqlite", pit_db).once().refused
    assert any("rolled back or restored from an older copy" in r for r in refused)


def test_a_second_terminal_delivering_a_copy_of_the_ledger_is_refused(tmp_path: Path, pit_db: str) -> None:
    """A copy of the ledger file played on another machine has the same ledger id: its rounds
    differ from the first terminal's after the copy, and the server takes only the first's."""
    init_schema(pit_db)
    ledger = played(tmp_path / "a.sqlite", rounds=1)
    ledger.close()
    shutil.copy(tmp_path / "a.sqlite", tmp_path / "b.sqlite")
    for name, seed in (("a", 5), ("b", 6)):
        copy = SqliteLedger(tmp_path / f"{name}.sqlite")
        play(Table.open(copy, copy.tables()[0], GAMES.find(HCF.game), HCF, VirtualShoe.seeded_with(seed)), 1, random.Random(seed))
        copy.close()
    assert Delivery(tmp_path / "a.sqlite", pit_db, "A").once().refused == []
    refused = Delivery(tmp_path / "b.sqlite", pit_db, "B").once().refused
    assert len(refused) == 1 and "another terminal delivers the same ledger" in refused[0]
    assert server_count(pit_db, "SELECT COUNT(*) FROM pit_rounds") == 2


def test_no_one_but_the_pit_append_function_writes_the_servers_events(tmp_path: Path, pit_db: str) -> None:
    init_schema(pit_db)
    played(tmp_path / "l.sqlite", rounds=1).close()
    as_terminal = terminal_login(pit_db, 7)
    assert Delivery(tmp_path / "l.sqlite", as_terminal).once().refused == []         # it delivers, through pit_append
    with psycopg.connect(as_terminal, autocommit=True) as db:
        for statement in ("UPDATE pit_events SET kind = 'x' WHERE seq = 1", "DELETE FROM pit_events",
                          "DELETE FROM pit_rounds", "DELETE FROM pit_alarms", "TRUNCATE pit_events",
                          ("INSERT INTO pit_events(table_id, seq, ts, kind, payload, prev_hash, hash)"
                           " VALUES (1, 999, 't', 'k', '{}', 'p', 'h')")):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                db.execute(statement)
    with psycopg.connect(pit_db, autocommit=True) as db:                          # the owner: stopped by the trigger
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="never update"):
            db.execute("UPDATE pit_events SET kind = 'x' WHERE seq = 1")
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="never delete"):
            db.execute("DELETE FROM pit_events")


def test_the_servers_rows_of_a_terminal_are_its_own_ledgers(tmp_path: Path, pit_db: str) -> None:
    """Read as the terminal's ledger (by its ids), the server holds the rounds, settlement rows,
    flags, hourly totals and seatings the terminal's file holds, and verifies clean."""
    init_schema(pit_db)
    ledger = played(tmp_path / "l.sqlite", rounds=6)
    Delivery(tmp_path / "l.sqlite", pit_db).once()
    view = PgLedger(pit_db, origin=ledger.ledger_id())
    assert view.stored_rounds(1) == ledger.stored_rounds(1)
    assert all(view.settlement(r.id) == ledger.settlement(r.id) for r in ledger.table_rounds(1))
    assert view.stored_hours() == ledger.stored_hours()
    assert view.stored_flags() == ledger.stored_flags()
    assert sorted(view.stored_seatings()) == sorted(ledger.stored_seatings())
    report = verify_pit(pit_db, GAMES)
    assert report.problems == [] and report.rounds == 6


def test_verify_names_a_servers_round_that_its_events_do_not_give(tmp_path: Path, pit_db: str) -> None:
    """The rows are the events' projection: a terminal (or anyone with the owner's rights) that
    writes a round's paid figure on the server is found by `verify_pit`."""
    init_schema(pit_db)
    played(tmp_path / "l.sqlite", rounds=3).close()
    Delivery(tmp_path / "l.sqlite", pit_db).once()
    with psycopg.connect(pit_db, autocommit=True) as db:
        db.execute("UPDATE pit_rounds SET paid = paid + 100 WHERE number = 2")
    problems = verify_pit(pit_db, GAMES).problems
    assert len(problems) == 1 and "round 2" in problems[0] and "stored paid" in problems[0]


def test_the_server_refuses_an_event_that_does_not_link(tmp_path: Path, pit_db: str) -> None:
    init_schema(pit_db)
    ledger = played(tmp_path / "l.sqlite", rounds=1)
    server = PgLedger(pit_db)
    table = server.server_table("terminal-a", ledger.table_record(1))
    events = ledger.table_events(1)
    from dealer_tui.ledger.postgres import DeliveryRefused
    from dealer_tui.pit.projection import projection

    with pytest.raises(DeliveryRefused, match="does not follow the server's last"):
        server.receive([(table, events[1:2])], projection)                          # the first one skipped
    server.receive([(table, events[:1])], projection)
    forged = events[1].__class__(**{**events[1].__dict__, "prev_hash": "f" * 64})
    with pytest.raises(DeliveryRefused, match="does not link to the server's event 1"):
        server.receive([(table, [forged])], projection)


def test_the_pit_server_is_the_witness_of_a_ledger_rewritten_after_delivery(tmp_path: Path, pit_db: str,
                                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """An insider rewrites a delivered round on the terminal and hashes the chain again; with the
    pit server as witness, `history verify` names the table and the first event that differs."""
    from dealer_tui.cli import main

    init_schema(pit_db)
    ledger = played(tmp_path / "l.sqlite", rounds=3)
    written = ledger.chain_length(0) + ledger.chain_length(1)
    ledger.close()
    Delivery(tmp_path / "l.sqlite", pit_db).once()
    assert main(["history", "verify", "--ledger", str(tmp_path / "l.sqlite"), "--pit", pit_db]) == 0
    assert f"the {written} event(s) it took from this ledger are all in it" in capsys.readouterr().out
    with sqlite3.connect(tmp_path / "l.sqlite") as db:
        first = db.execute("SELECT MIN(seq) FROM events WHERE table_id = 1 AND kind = 'seat_taken'").fetchone()[0]
        db.execute("UPDATE events SET payload = json_set(payload, '$.player', 'Someone Else')"
                   " WHERE table_id = 1 AND seq = ?", (first,))
    rehash(tmp_path / "l.sqlite")
    assert main(["history", "verify", "--ledger", str(tmp_path / "l.sqlite"), "--pit", pit_db]) == 1
    out = capsys.readouterr().out
    assert "table 1 (Main 1): " in out and f"differ from the ones the pit server holds (from event {first})" in out


def test_the_floor_hears_of_a_delivery_within_a_second(tmp_path: Path, pit_db: str) -> None:
    """The floor's connection LISTENs: a delivery's notification moves its change mark (the
    rounds list looks again when it moves) well within a second."""
    import time

    init_schema(pit_db)
    floor = PgLedger(pit_db)
    before = floor.change_mark()                       # starts listening
    deadline = time.monotonic() + 5
    while floor.change_mark() == before and time.monotonic() < deadline:
        time.sleep(0.01)                               # connected (the mark moves once on connecting)
    listening = floor.change_mark()
    played(tmp_path / "l.sqlite", rounds=1).close()
    Delivery(tmp_path / "l.sqlite", pit_db).once()
    delivered = time.monotonic()
    while floor.change_mark() == listening and time.monotonic() - delivered < 5:
        time.sleep(0.01)
    assert floor.change_mark() > listening and time.monotonic() - delivered < 1.0
    floor.close()


@pytest.mark.pit
def test_the_floors_connections_outlive_a_server_restart(tmp_path: Path) -> None:
    """The floor's reads borrow their connections from a pool that replaces the ones a server
    restart dropped: after the restart the floor reads again without being reopened, and while
    the server is away each read is one `LedgerError`, not a traceback."""
    import time

    from dealer_tui.ledger import LedgerError, RowQuery
    from tests.pg_support import new_cluster

    cluster = new_cluster()
    try:
        url = cluster.database("pit")
        init_schema(url)
        played(tmp_path / "l.sqlite", rounds=2).close()
        Delivery(tmp_path / "l.sqlite", url).once()
        floor = PgLedger(url, connect_timeout=2)
        assert len(floor.find_rounds(RowQuery(), 10)) == 2
        cluster.stop("fast")
        with pytest.raises(LedgerError):
            floor.find_rounds(RowQuery(), 10)
        with pytest.raises(LedgerError):
            floor.table_links()
        cluster.start()
        deadline = time.monotonic() + 30                    # the pool connects again in the background
        while True:
            try:
                assert len(floor.find_rounds(RowQuery(), 10)) == 2
                break
            except LedgerError:
                assert time.monotonic() < deadline, "the floor never read the server again"
                time.sleep(0.5)
        floor.close()
    finally:
        cluster.remove()


def test_a_terminals_login_writes_its_own_tables_only(tmp_path: Path, pit_db: str) -> None:
    """Each terminal logs in as a role of its own: another terminal's login may neither append to
    its table, nor to the pit's staff register, nor write (or lock) its rounds' rows: a login
    writes its own rows only through the pit's functions, which check the table is its own."""
    init_schema(pit_db)
    played(tmp_path / "l.sqlite", rounds=2).close()
    seven, eight = (terminal_login(pit_db, n) for n in (7, 8))
    assert Delivery(tmp_path / "l.sqlite", seven).once().refused == []
    with psycopg.connect(pit_db) as db:
        table, before = db.execute("SELECT table_id, SUM(paid) FROM pit_rounds GROUP BY 1").fetchone()
        round_id = db.execute("SELECT MIN(id) FROM pit_rounds").fetchone()[0]
    with psycopg.connect(eight, autocommit=True) as db:
        for statement in ("UPDATE pit_rounds SET paid = 0", "UPDATE pit_hourly_totals SET house = 0",
                          f"INSERT INTO pit_settlements(round_id, seat, bet, stake, result, reason)"
                          f" VALUES ({round_id}, 9, 'ante', 1, 1000, 'x')",
                          "LOCK TABLE pit_rounds IN ACCESS EXCLUSIVE MODE", "SELECT 1 FROM pit_tables FOR UPDATE"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied"), db.transaction():
                db.execute(statement)                                    # its writes go through the functions only
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="not this login's"):
            db.execute("SELECT pit_round_update(%s, 'settled', '{}', 't', NULL, NULL, NULL, NULL)", (round_id,))
        for target in (table, 0):
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="delivers its own tables only"):
                db.execute("SELECT pit_append(%s, NULL, NULL, 999, 't', 'k', '{}', 'p', 'h', 1)", (target,))
    with psycopg.connect(pit_db) as db:
        assert db.execute("SELECT SUM(paid) FROM pit_rounds").fetchone()[0] == before
    assert verify_pit(pit_db, GAMES).problems == []


def test_the_pits_settlement_rows_carry_their_bets_roles_and_a_schema_2_pit_is_brought_up_to_date(
        tmp_path: Path, pit_db: str) -> None:
    """High Card Flush's ante, raise and bonus bets are wagers, the DP's bank its bank and the house's
    cut rake (HCF-4, HCF-5, HCF-17): the server's rows say so as the terminal's do. A pit of schema 2
    (rows without roles) is brought up to date by `pit init`: its rows get their bets' roles, and it
    verifies."""
    declared = {"ante": "wager", "raise": "wager", "flush": "wager", "straight_flush": "wager", "bank": "bank",
                "rake": "rake"}
    init_schema(pit_db)
    played(tmp_path / "l.sqlite")
    Delivery(tmp_path / "l.sqlite", pit_db, "T1").once()
    with psycopg.connect(pit_db) as db:
        delivered = db.execute("SELECT DISTINCT bet, role FROM pit_settlements ORDER BY bet").fetchall()
    assert {"ante", "raise"} <= {bet for bet, _ in delivered}
    assert delivered == [(bet, declared[bet]) for bet, _ in delivered]
    with psycopg.connect(pit_db, autocommit=True) as db:  # the pit as schema 2 left it
        db.execute("ALTER TABLE pit_settlements DROP COLUMN role")
        db.execute("UPDATE pit_meta SET value = '2' WHERE key = 'schema'")
    init_schema(pit_db)
    with psycopg.connect(pit_db) as db:
        assert db.execute("SELECT value FROM pit_meta WHERE key = 'schema'").fetchone() == ("4",)
        assert db.execute("SELECT DISTINCT bet, role FROM pit_settlements ORDER BY bet").fetchall() == delivered
    assert verify_pit(pit_db, GAMES).problems == []
