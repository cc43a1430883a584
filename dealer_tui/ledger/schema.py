"""The ledger's SQLite schema and its migrations (`PRAGMA user_version` is the schema version)."""

from __future__ import annotations

import sqlite3

from dealer_tui.ledger.base import LedgerError

MIGRATIONS: list[str] = [
    # 1: tables, rounds, the event chain, settlement rows
    """
    CREATE TABLE tables(
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        game TEXT NOT NULL,
        profile TEXT NOT NULL,
        profile_sha256 TEXT NOT NULL,
        card_source TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE TABLE rounds(
        id INTEGER PRIMARY KEY,
        table_id INTEGER NOT NULL REFERENCES tables(id),
        number INTEGER NOT NULL,
        game TEXT NOT NULL,
        profile TEXT NOT NULL,
        status TEXT NOT NULL,
        flags TEXT NOT NULL DEFAULT '',
        started_at TEXT NOT NULL,
        ended_at TEXT,
        seats INTEGER NOT NULL DEFAULT 0,
        wagered INTEGER NOT NULL DEFAULT 0,
        paid INTEGER NOT NULL DEFAULT 0,
        house_result INTEGER NOT NULL DEFAULT 0,
        UNIQUE(table_id, number)
    );
    CREATE INDEX rounds_by_status ON rounds(status, id);
    CREATE TABLE events(
        id INTEGER PRIMARY KEY,
        table_id INTEGER NOT NULL REFERENCES tables(id),
        round_id INTEGER REFERENCES rounds(id),
        seq INTEGER NOT NULL,
        ts TEXT NOT NULL,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL,
        UNIQUE(table_id, seq)
    );
    CREATE INDEX events_by_round ON events(round_id, seq);
    CREATE TABLE settlements(
        round_id INTEGER NOT NULL REFERENCES rounds(id),
        seat INTEGER NOT NULL,
        bet TEXT NOT NULL,
        stake INTEGER NOT NULL,
        result INTEGER NOT NULL,
        reason TEXT NOT NULL,
        PRIMARY KEY(round_id, seat, bet)
    );
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)


def migrate(db: sqlite3.Connection, where: str) -> None:
    """Bring the schema up to `SCHEMA_VERSION`, one transaction per step."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise LedgerError(f"{where}: ledger schema {version} is newer than this program's ({SCHEMA_VERSION})")
    for number in range(version, SCHEMA_VERSION):
        db.execute("BEGIN IMMEDIATE")
        try:
            for statement in MIGRATIONS[number].split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA user_version = {number + 1}")
        except sqlite3.Error as exc:
            db.execute("ROLLBACK")
            raise LedgerError(f"{where}: cannot upgrade the ledger to schema {number + 1} ({exc})") from None
        db.execute("COMMIT")
