"""The ledger's SQLite schema and its migrations (`PRAGMA user_version` is the schema version)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable

from dealer_tui.ledger.base import LedgerError, SettlementRow
from dealer_tui.ledger.payouts import round_chips
from dealer_tui.ledger.storage import problem_of, rollback, storage_error
from rules.bets import declared_roles
from rules.said import say

Step = str | Callable[[sqlite3.Connection], None]


def backfill_seatings(db: sqlite3.Connection) -> None:
    """Who sat where from which round to which: rebuilt from the seat events, in chain order."""
    started: dict[int, int] = {}
    cursor = db.execute("SELECT table_id, kind, payload FROM events"
                        " WHERE kind IN ('round_started', 'seat_taken', 'seat_left') ORDER BY table_id, seq")
    for table_id, kind, payload in cursor.fetchall():
        data = json.loads(payload)
        if kind == "round_started":
            started[table_id] = started.get(table_id, 0) + 1
        elif kind == "seat_taken":
            db.execute("INSERT INTO seatings(table_id, seat, player, first_round) VALUES (?, ?, ?, ?)",
                       (table_id, data.get("seat"), str(data.get("player", "")), started.get(table_id, 0) + 1))
        else:
            db.execute("UPDATE seatings SET last_round = ? WHERE table_id = ? AND seat = ? AND last_round IS NULL",
                       (started.get(table_id, 0), table_id, data.get("seat")))


def backfill_flags(db: sqlite3.Connection) -> None:
    """Each flag of each round as a row of its own: a rare flag is found without reading every round."""
    rows = db.execute("SELECT id, flags FROM rounds WHERE flags <> ''").fetchall()
    db.executemany("INSERT OR IGNORE INTO round_flags(flag, round_id) VALUES (?, ?)",
                   [(flag, rid) for rid, flags in rows for flag in str(flags).split(",") if flag])


def fill_roles(db: sqlite3.Connection) -> None:
    """Each settlement row's role, as the games declare their bets (`rules.bets`)."""
    db.executemany("UPDATE settlements SET role = ? WHERE bet = ? AND role = ''", declared_roles())


def backfill_payouts(db: sqlite3.Connection) -> None:
    """Each settled round's paid, returned, from-stacks, biggest payout and banking, worked out
    again from its settlement rows by the one definition of a payout (`payouts.round_chips`)."""
    rows = db.execute("SELECT round_id, seat, bet, stake, result, reason FROM settlements ORDER BY round_id")
    updates: list[tuple[object, ...]] = []
    current: int | None = None
    found: list[SettlementRow] = []

    def flush() -> None:
        if current is not None:
            c = round_chips(found)
            updates.append((c.paid, c.returned, c.from_stacks, c.max_payout, c.kind, current))

    for round_id, *row in rows:
        if round_id != current:
            flush()
            current, found = round_id, []
        found.append(SettlementRow.read(*row))
    flush()
    db.executemany("UPDATE rounds SET paid = ?, returned = ?, from_stacks = ?, max_payout = ?, banking = ?"
                   " WHERE id = ?", updates)



MIGRATIONS: list[list[Step]] = [[
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
    """],
    # 2: the floor review: the biggest single result of a round, sort and time indexes, totals per
    # hour kept with each settlement, and who sat where (player search); back-filled from the records
    ["""
    ALTER TABLE rounds ADD COLUMN max_result INTEGER NOT NULL DEFAULT 0;
    UPDATE rounds SET max_result = COALESCE((SELECT MAX(result) FROM settlements s WHERE s.round_id = rounds.id), 0);
    CREATE INDEX rounds_by_time ON rounds(started_at, id);
    CREATE INDEX rounds_by_game ON rounds(game, started_at, id);
    CREATE INDEX rounds_by_paid ON rounds(paid, id);
    CREATE INDEX rounds_by_wagered ON rounds(wagered, id);
    CREATE INDEX rounds_by_house ON rounds(house_result, id);
    CREATE INDEX rounds_by_max_result ON rounds(max_result, id);
    CREATE TABLE hourly_totals(
        hour TEXT NOT NULL,
        table_id INTEGER NOT NULL REFERENCES tables(id),
        game TEXT NOT NULL,
        rounds INTEGER NOT NULL,
        wagered INTEGER NOT NULL,
        paid INTEGER NOT NULL,
        house INTEGER NOT NULL,
        biggest INTEGER NOT NULL,
        PRIMARY KEY(hour, table_id, game)
    ) WITHOUT ROWID;
    INSERT INTO hourly_totals(hour, table_id, game, rounds, wagered, paid, house, biggest)
        SELECT substr(started_at, 1, 13), table_id, game, COUNT(*), SUM(wagered), SUM(paid), SUM(house_result),
               MAX(paid)
        FROM rounds WHERE status = 'settled' GROUP BY 1, 2, 3;
    CREATE TABLE seatings(
        table_id INTEGER NOT NULL REFERENCES tables(id),
        seat INTEGER NOT NULL,
        player TEXT NOT NULL,
        first_round INTEGER NOT NULL,
        last_round INTEGER
    );
    CREATE INDEX seatings_by_table ON seatings(table_id, seat);
    CREATE TABLE round_flags(
        flag TEXT NOT NULL,
        round_id INTEGER NOT NULL REFERENCES rounds(id),
        PRIMARY KEY(flag, round_id)
    ) WITHOUT ROWID
    """, backfill_seatings, backfill_flags],
    # 3: rake and fees (the house's take: HCF rake, Chinese Poker fees, "1 or 5" exchange fees) per
    # round and per hour, back-filled from the settlement rows
    ["""
    ALTER TABLE rounds ADD COLUMN fees INTEGER NOT NULL DEFAULT 0;
    UPDATE rounds SET fees = COALESCE((SELECT -SUM(result) FROM settlements s WHERE s.round_id = rounds.id
                                       AND s.bet IN ('rake', 'fee', 'exchange')), 0);
    ALTER TABLE hourly_totals ADD COLUMN fees INTEGER NOT NULL DEFAULT 0;
    CREATE TEMP TABLE hour_fees AS SELECT substr(started_at, 1, 13) AS hour, table_id, game, SUM(fees) AS fees
        FROM rounds WHERE status = 'settled' GROUP BY 1, 2, 3;
    CREATE INDEX temp.hour_fees_key ON hour_fees(hour, table_id, game);
    UPDATE hourly_totals SET fees = COALESCE((SELECT h.fees FROM hour_fees h WHERE h.hour = hourly_totals.hour
        AND h.table_id = hourly_totals.table_id AND h.game = hourly_totals.game), 0);
    DROP TABLE temp.hour_fees
    """],
    # 4: one definition of a payout (`payouts.seat_chips`): a round's paid counts a DP's take too;
    # what came back on pushes (returned), what seats paid from their stacks beyond their stakes,
    # the biggest one seat's payout (the big-payout filter) and how the round was banked, per round
    # and per hour (the totals keep house-banked, DP-banked and pot games apart); back-filled from
    # the settlement rows
    ["""
    ALTER TABLE rounds ADD COLUMN returned INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE rounds ADD COLUMN from_stacks INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE rounds ADD COLUMN max_payout INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE rounds ADD COLUMN banking TEXT NOT NULL DEFAULT 'house';
    UPDATE rounds SET returned = wagered WHERE status = 'voided'
    """, backfill_payouts, """
    DROP INDEX rounds_by_max_result;
    CREATE INDEX rounds_by_max_payout ON rounds(max_payout, id);
    DROP TABLE hourly_totals;
    CREATE TABLE hourly_totals(
        hour TEXT NOT NULL,
        table_id INTEGER NOT NULL REFERENCES tables(id),
        game TEXT NOT NULL,
        banking TEXT NOT NULL DEFAULT 'house',
        rounds INTEGER NOT NULL,
        wagered INTEGER NOT NULL,
        paid INTEGER NOT NULL,
        returned INTEGER NOT NULL DEFAULT 0,
        from_stacks INTEGER NOT NULL DEFAULT 0,
        house INTEGER NOT NULL,
        biggest INTEGER NOT NULL,
        fees INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY(hour, table_id, game, banking)
    ) WITHOUT ROWID;
    INSERT INTO hourly_totals(hour, table_id, game, banking, rounds, wagered, paid, returned, from_stacks, house,
                              biggest, fees)
        SELECT substr(started_at, 1, 13), table_id, game, banking, COUNT(*), SUM(wagered), SUM(paid), SUM(returned),
               SUM(from_stacks), SUM(house_result), MAX(max_payout), SUM(fees)
        FROM rounds WHERE status = 'settled' GROUP BY 1, 2, 3, 4
    """],
    # 5: one terminal per table: the terminal holding each table (its id, process, host, since when,
    # its last heartbeat); a takeover of a dead terminal's table is also an event in the chain
    ["""
    CREATE TABLE table_leases(
        table_id INTEGER PRIMARY KEY REFERENCES tables(id),
        terminal TEXT NOT NULL,
        pid INTEGER NOT NULL,
        host TEXT NOT NULL,
        since TEXT NOT NULL,
        renewed_at REAL NOT NULL
    )
    """],
    # 6: a ledger-wide sequence of events across tables (1, 2, 3, ...): a table or events deleted
    # leave a gap, and the witness names each table's last event by it; back-filled in the order
    # the events were written (their row ids, gaps kept); events written from now on hash it too
    ["""
    ALTER TABLE events ADD COLUMN ledger_seq INTEGER;
    UPDATE events SET ledger_seq = id;
    CREATE UNIQUE INDEX events_by_ledger_seq ON events(ledger_seq)
    """],
    # 7: the staff register (`base.STAFF_REGISTER`): accounts, sign-ins, lock-outs and profile
    # approvals as one hash chain of events, kept under a table row of its own that is never
    # listed as a table; the events of one kind, and one account's, are found by an index
    ["""
    INSERT INTO tables(id, name, game, profile, profile_sha256, card_source, created_at)
        VALUES (0, 'staff register', 'staff', '', '', '', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'));
    CREATE INDEX events_by_kind ON events(table_id, kind, seq);
    CREATE INDEX staff_by_account ON events(json_extract(payload, '$.account'), seq) WHERE table_id = 0
    """],
    # 8: the ledger's own id, made once: what the pit server knows this terminal's tables by
    # (a copy of the file delivering as well is another terminal with the same id, and refused);
    # the pit area a table stands in (the floor filters by it)
    ["""
    ALTER TABLE tables ADD COLUMN area TEXT NOT NULL DEFAULT '';
    CREATE TABLE ledger_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
    INSERT INTO ledger_meta(key, value) VALUES ('ledger_id', lower(hex(randomblob(16))))
    """],
    # 9: each settlement row carries its bet's role (wager, bank, rake, fee, pool), as its game
    # declared the bet when the row was recorded; the rows already there get their bets' roles
    ["ALTER TABLE settlements ADD COLUMN role TEXT NOT NULL DEFAULT ''", fill_roles],
]
SCHEMA_VERSION = len(MIGRATIONS)
REVIEW_SCHEMA = 4
"""The oldest schema the review reads as it is when the ledger's storage cannot be written (a
read-only copy): the later steps add nothing the review reads."""


def read_as_is(db: sqlite3.Connection) -> None:
    """An older ledger read as it is (read-only storage): its settlement rows, stored before rows
    carried their role (schema 9), read with an empty one (`history verify` says they were not
    checked)."""
    if not any(r[1] == "role" for r in db.execute("PRAGMA table_info(settlements)")):
        db.execute("CREATE TEMP VIEW settlements AS SELECT *, '' AS role FROM main.settlements")


def migrate(db: sqlite3.Connection, where: str) -> None:
    """Bring the schema up to `SCHEMA_VERSION`, one transaction per step. Each step reads the
    version again once it holds the write lock: of two programs starting on a new ledger at once,
    the second finds the step done and skips it."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise LedgerError(say("{ledger}: ledger schema {version} is newer than this program's ({ours})", ledger=where,
                              version=version, ours=SCHEMA_VERSION))
    for number in range(version, SCHEMA_VERSION):
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise storage_error(where, exc) from None
        try:
            if db.execute("PRAGMA user_version").fetchone()[0] > number:
                db.execute("COMMIT")  # another program took this step while this one waited for the lock
                continue
            for step in MIGRATIONS[number]:
                if callable(step):
                    step(db)
                    continue
                for statement in step.split(";"):
                    if statement.strip():
                        db.execute(statement)
            db.execute(f"PRAGMA user_version = {number + 1}")
            db.execute("COMMIT")
        except (sqlite3.Error, ValueError) as exc:
            rollback(db)
            if problem_of(exc) is not None:
                raise storage_error(where, exc) from None
            raise LedgerError(say("{ledger}: cannot upgrade the ledger to schema {version} ({problem})", ledger=where,
                                  version=number + 1, problem=str(exc))) from None
