"""Delivery to the pit server (PostgreSQL, a throwaway cluster): every event taken once, in
order, a retry or a restart never duplicating; a history rewritten on the terminal refused; the
server's events never updated or deleted, even by a terminal that tries."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

psycopg = pytest.importorskip("psycopg")

from dealer_tui.demo import play, seat_players  # noqa: E402
from dealer_tui.ledger import SqliteLedger  # noqa: E402
from dealer_tui.ledger.pit import PitError, PitLink, deliver_table, init_schema  # noqa: E402
from dealer_tui.rounds.cards import VirtualShoe  # noqa: E402
from dealer_tui.rounds.table import Table  # noqa: E402
from rules.profiles.loader import ProfileLibrary  # noqa: E402
from tests.staff_support import staffed_table  # noqa: E402
from tests.test_tampering import rehash  # noqa: E402

HCF = ProfileLibrary([]).find("high-card-flush")


def played(path: Path, rounds: int = 5) -> SqliteLedger:
    ledger = SqliteLedger(path)
    table = staffed_table(ledger, "Main 1", HCF, VirtualShoe.seeded_with(3), seats=7)
    seat_players(table, 3)
    play(table, rounds, random.Random(3))
    return ledger


def test_every_event_is_delivered_once_and_a_retry_adds_nothing(tmp_path: Path, pit_db: str) -> None:
    init_schema(pit_db)
    ledger = played(tmp_path / "l.sqlite")
    events = ledger.table_events(1)
    link = PitLink(pit_db, "terminal-a")
    first = deliver_table(link, 1, "Main 1", events)
    assert (first.added, first.known) == (len(events), 0)
    again = deliver_table(link, 1, "Main 1", events)
    assert (again.added, again.known) == (0, 1)           # only the server's last is sent again, and checked
    server = link.server_table(1, "Main 1")
    assert link.server_last(server) == len(events) and link.server_chain_problems(server) == []


def test_a_restart_resumes_where_the_server_stands(tmp_path: Path, pit_db: str) -> None:
    """Two rounds delivered; the terminal stops, plays two more after its restart, delivers again:
    only the new events are added (the server's last is sent again and checked)."""
    init_schema(pit_db)
    ledger = played(tmp_path / "l.sqlite", rounds=2)
    deliver_table(PitLink(pit_db, "terminal-a"), 1, "Main 1", ledger.table_events(1))
    before = len(ledger.table_events(1))
    ledger.close()
    again = SqliteLedger(tmp_path / "l.sqlite")
    table = Table.open(again, again.tables()[0], HCF, VirtualShoe.seeded_with(4))
    assert play(table, 2, random.Random(4)) == 2
    after = again.table_events(1)
    assert len(after) > before
    resumed = deliver_table(PitLink(pit_db, "terminal-a"), 1, "Main 1", after)  # the terminal started again
    assert (resumed.added, resumed.known) == (len(after) - before, 1)


def test_a_history_rewritten_on_the_terminal_is_refused(tmp_path: Path, pit_db: str) -> None:
    init_schema(pit_db)
    ledger = played(tmp_path / "l.sqlite")
    link = PitLink(pit_db, "terminal-a")
    deliver_table(link, 1, "Main 1", ledger.table_events(1))
    ledger.close()
    with sqlite3.connect(tmp_path / "l.sqlite") as db:                              # a payout rewritten, re-hashed
        db.execute("UPDATE events SET payload = json_set(payload, '$.house', 999999) WHERE kind = 'payout_confirmed'")
    rehash(tmp_path / "l.sqlite")
    rewritten = SqliteLedger(tmp_path / "l.sqlite", readonly=True).table_events(1)
    with pytest.raises(PitError, match="differs from the one the server holds"):
        link.deliver(link.server_table(1, "Main 1"), rewritten)


def test_the_server_refuses_an_event_that_does_not_link(tmp_path: Path, pit_db: str) -> None:
    init_schema(pit_db)
    ledger = played(tmp_path / "l.sqlite")
    events = ledger.table_events(1)
    link = PitLink(pit_db, "terminal-a")
    server = link.server_table(1, "Main 1")
    with pytest.raises(PitError, match="does not follow the server's last"):
        link.deliver(server, events[1:])                                          # the first one skipped
    link.deliver(server, events[:3])
    forged = [events[3].__class__(**{**events[3].__dict__, "prev_hash": "f" * 64})]
    with pytest.raises(PitError, match="does not link to the server's event 3"):
        link.deliver(server, forged)


def test_no_one_but_the_owner_updates_or_deletes_the_servers_events(tmp_path: Path, pit_db: str) -> None:
    init_schema(pit_db)
    ledger = played(tmp_path / "l.sqlite", rounds=1)
    link = PitLink(pit_db, "terminal-a")
    deliver_table(link, 1, "Main 1", ledger.table_events(1))
    with psycopg.connect(pit_db, autocommit=True) as db:
        db.execute("CREATE ROLE dealer_terminal LOGIN IN ROLE pit_terminal")
    as_terminal = pit_db.replace("user=pit", "user=dealer_terminal")
    with psycopg.connect(as_terminal, autocommit=True) as db:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            db.execute("UPDATE pit_events SET kind = 'x' WHERE seq = 1")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            db.execute("DELETE FROM pit_events")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            db.execute("INSERT INTO pit_events(table_id, seq, ts, kind, payload, prev_hash, hash)"
                       " VALUES (1, 999, 't', 'k', '{}', 'p', 'h')")
    with psycopg.connect(pit_db, autocommit=True) as db:                          # the owner: stopped by the trigger
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="events are never update"):
            db.execute("UPDATE pit_events SET kind = 'x' WHERE seq = 1")
    terminal = PitLink(as_terminal, "terminal-a")                                   # it may append, through pit_append
    assert terminal.server_last(terminal.server_table(1, "Main 1")) == len(ledger.table_events(1))
