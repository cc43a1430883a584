"""The embedded ledger: one SQLite file, WAL, synchronous FULL, owner-only permissions."""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from platformdirs import user_data_dir

from dealer_tui.ledger.base import (
    GENESIS,
    ROUND_OPEN,
    Ledger,
    LedgerError,
    NewEvent,
    RoundRecord,
    RoundUpdate,
    RowQuery,
    SettlementRow,
    StoredEvent,
    TableRecord,
    Totals,
    event_hash,
)
from dealer_tui.ledger.schema import SCHEMA_VERSION, migrate

Clock = Callable[[], str]


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def default_ledger_path() -> Path:
    return Path(user_data_dir("dealer-tui")) / "ledger.sqlite"


class SqliteLedger(Ledger):
    """A ledger in one SQLite file. `readonly=True` opens it for review beside a live writer."""

    def __init__(self, path: Path | str, *, readonly: bool = False, clock: Clock = utc_now) -> None:
        self.path = Path(path)
        self.readonly = readonly
        self._clock = clock
        try:
            self._db = self._connect()
        except sqlite3.Error as exc:
            raise LedgerError(f"{self.path}: cannot open the ledger ({exc})") from None

    def _connect(self) -> sqlite3.Connection:
        if self.readonly:
            if not self.path.exists():
                raise LedgerError(f"{self.path}: no such ledger")
            db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, isolation_level=None,
                                 check_same_thread=False)
            db.execute("PRAGMA busy_timeout = 5000")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise LedgerError(f"{self.path}: ledger schema {version} is newer than this program's")
            return db
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if not self.path.exists():
            fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
            os.close(fd)
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = FULL")
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA busy_timeout = 5000")
        migrate(db, str(self.path))
        return db

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        if self.readonly:
            raise LedgerError(f"{self.path}: opened read-only")
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise LedgerError(f"{self.path}: cannot write ({exc})") from None
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        try:
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            self._db.execute("ROLLBACK")
            raise LedgerError(f"{self.path}: the write did not land ({exc})") from None

    # -- tables ---------------------------------------------------------------------------

    def create_table(self, name: str, game: str, profile: str, profile_sha256: str,
                     card_source: str) -> TableRecord:
        with self._write() as db:
            cur = db.execute(
                "INSERT INTO tables(name, game, profile, profile_sha256, card_source, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (name, game, profile, profile_sha256, card_source, self._clock()),
            )
            table_id = int(cur.lastrowid or 0)
        return self._table(table_id)

    def _table(self, table_id: int) -> TableRecord:
        row = self._db.execute(
            "SELECT id, name, game, profile, profile_sha256, card_source, created_at FROM tables WHERE id = ?",
            (table_id,),
        ).fetchone()
        if row is None:
            raise LedgerError(f"no table {table_id} in {self.path}")
        return TableRecord(*row)

    def tables(self) -> list[TableRecord]:
        rows = self._db.execute(
            "SELECT id, name, game, profile, profile_sha256, card_source, created_at FROM tables ORDER BY id"
        ).fetchall()
        return [TableRecord(*row) for row in rows]

    # -- rounds and events ----------------------------------------------------------------

    def open_round(self, table_id: int, game: str, profile: str, events: Sequence[NewEvent]) -> RoundRecord:
        with self._write() as db:
            number = db.execute(
                "SELECT COALESCE(MAX(number), 0) + 1 FROM rounds WHERE table_id = ?", (table_id,)
            ).fetchone()[0]
            cur = db.execute(
                "INSERT INTO rounds(table_id, number, game, profile, status, flags, started_at)"
                " VALUES (?, ?, ?, ?, ?, '', ?)",
                (table_id, number, game, profile, ROUND_OPEN, self._clock()),
            )
            round_id = int(cur.lastrowid or 0)
            self._insert_events(db, table_id, round_id, events)
        return self.round(round_id)

    def append(self, table_id: int, round_id: int | None, events: Sequence[NewEvent],
               update: RoundUpdate | None = None) -> list[StoredEvent]:
        with self._write() as db:
            stored = self._insert_events(db, table_id, round_id, events)
            if update is not None and round_id is not None:
                self._update_round(db, round_id, update)
        return stored

    def _insert_events(self, db: sqlite3.Connection, table_id: int, round_id: int | None,
                       events: Sequence[NewEvent]) -> list[StoredEvent]:
        last = db.execute(
            "SELECT seq, hash FROM events WHERE table_id = ? ORDER BY seq DESC LIMIT 1", (table_id,)
        ).fetchone()
        seq, prev = (last[0], last[1]) if last else (0, GENESIS)
        stored = []
        for event in events:
            seq += 1
            ts = self._clock()
            try:
                payload = json.dumps(event.payload, sort_keys=True, ensure_ascii=False)
                digest = event_hash(prev, table_id, round_id, seq, ts, event.kind, event.payload)
            except (TypeError, ValueError) as exc:
                raise LedgerError(f"event {event.kind}: payload is not plain data ({exc})") from None
            cur = db.execute(
                "INSERT INTO events(table_id, round_id, seq, ts, kind, payload, prev_hash, hash)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (table_id, round_id, seq, ts, event.kind, payload, prev, digest),
            )
            stored.append(StoredEvent(int(cur.lastrowid or 0), table_id, round_id, seq, ts, event.kind,
                                      event.payload, prev, digest))
            prev = digest
        return stored

    def _update_round(self, db: sqlite3.Connection, round_id: int, update: RoundUpdate) -> None:
        current = self.round(round_id)
        flags = ",".join(sorted(current.flags | update.add_flags))
        status = update.status or current.status
        ended = self._clock() if update.status and update.status != ROUND_OPEN else current.ended_at
        db.execute("UPDATE rounds SET status = ?, flags = ?, ended_at = ? WHERE id = ?",
                   (status, flags, ended, round_id))
        if update.totals is not None:
            db.execute("UPDATE rounds SET seats = ?, wagered = ?, paid = ?, house_result = ? WHERE id = ?",
                       (*update.totals, round_id))
        if update.settlement is not None:
            db.execute("DELETE FROM settlements WHERE round_id = ?", (round_id,))
            db.executemany(
                "INSERT INTO settlements(round_id, seat, bet, stake, result, reason) VALUES (?, ?, ?, ?, ?, ?)",
                [(round_id, r.seat, r.bet, r.stake, r.result, r.reason) for r in update.settlement],
            )

    _ROUND_COLUMNS = ("id, table_id, number, game, profile, status, flags, started_at, ended_at, seats,"
                      " wagered, paid, house_result")

    @staticmethod
    def _round_record(row: tuple[object, ...]) -> RoundRecord:
        flags = frozenset(f for f in str(row[6]).split(",") if f)
        return RoundRecord(row[0], row[1], row[2], row[3], row[4], row[5], flags, row[7], row[8],  # type: ignore[arg-type]
                           row[9], row[10], row[11], row[12])  # type: ignore[arg-type]

    def round(self, round_id: int) -> RoundRecord:
        row = self._db.execute(f"SELECT {self._ROUND_COLUMNS} FROM rounds WHERE id = ?", (round_id,)).fetchone()
        if row is None:
            raise LedgerError(f"no round {round_id} in {self.path}")
        return self._round_record(row)

    def _events(self, where: str, args: tuple[object, ...]) -> list[StoredEvent]:
        rows = self._db.execute(
            "SELECT id, table_id, round_id, seq, ts, kind, payload, prev_hash, hash FROM events"
            f" WHERE {where} ORDER BY table_id, seq", args
        ).fetchall()
        return [StoredEvent(r[0], r[1], r[2], r[3], r[4], r[5], json.loads(r[6]), r[7], r[8]) for r in rows]

    def round_events(self, round_id: int) -> list[StoredEvent]:
        return self._events("round_id = ?", (round_id,))

    def table_events(self, table_id: int, kinds: Sequence[str] | None = None) -> list[StoredEvent]:
        if not kinds:
            return self._events("table_id = ?", (table_id,))
        marks = ",".join("?" for _ in kinds)
        return self._events(f"table_id = ? AND kind IN ({marks})", (table_id, *kinds))

    def settlement(self, round_id: int) -> list[SettlementRow]:
        rows = self._db.execute(
            "SELECT seat, bet, stake, result, reason FROM settlements WHERE round_id = ? ORDER BY seat, bet",
            (round_id,),
        ).fetchall()
        return [SettlementRow(*row) for row in rows]

    def unfinished_rounds(self, table_id: int | None = None) -> list[RoundRecord]:
        sql = f"SELECT {self._ROUND_COLUMNS} FROM rounds WHERE status = ?"
        args: tuple[object, ...] = (ROUND_OPEN,)
        if table_id is not None:
            sql += " AND table_id = ?"
            args += (table_id,)
        return [self._round_record(r) for r in self._db.execute(sql + " ORDER BY id", args).fetchall()]

    def recent_rounds(self, limit: int = 50, before_id: int | None = None) -> list[RoundRecord]:
        sql = f"SELECT {self._ROUND_COLUMNS} FROM rounds"
        args: tuple[object, ...] = ()
        if before_id is not None:
            sql += " WHERE id < ?"
            args = (before_id,)
        rows = self._db.execute(sql + " ORDER BY id DESC LIMIT ?", (*args, limit)).fetchall()
        return [self._round_record(r) for r in rows]

    def table_rounds(self, table_id: int) -> list[RoundRecord]:
        rows = self._db.execute(f"SELECT {self._ROUND_COLUMNS} FROM rounds WHERE table_id = ? ORDER BY id",
                                (table_id,)).fetchall()
        return [self._round_record(r) for r in rows]

    @staticmethod
    def _round_where(query: RowQuery) -> tuple[list[str], list[object]]:
        where: list[str] = ["1 = 1"]
        args: list[object] = []
        for clause, value in (("game = ?", query.game), ("table_id = ?", query.table_id),
                              ("started_at >= ?", query.since), ("started_at < ?", query.until)):
            if value is not None:
                where.append(clause)
                args.append(value)
        if query.flag is not None:
            where.append("(',' || flags || ',') LIKE ?")
            args.append(f"%,{query.flag},%")
        if query.seat is not None:
            where.append("EXISTS (SELECT 1 FROM settlements s WHERE s.round_id = rounds.id AND s.seat = ?)")
            args.append(query.seat)
        if query.min_payout is not None:
            where.append("EXISTS (SELECT 1 FROM settlements s WHERE s.round_id = rounds.id AND s.result >= ?)")
            args.append(query.min_payout)
        return where, args

    def find_rounds(self, query: RowQuery, limit: int = 100, before_id: int | None = None) -> list[RoundRecord]:
        where, args = self._round_where(query)
        if before_id is not None:
            where.append("id < ?")
            args.append(before_id)
        sql = f"SELECT {self._ROUND_COLUMNS} FROM rounds WHERE {' AND '.join(where)} ORDER BY id DESC LIMIT ?"
        return [self._round_record(r) for r in self._db.execute(sql, (*args, limit)).fetchall()]

    def totals(self, query: RowQuery) -> list[Totals]:
        where, args = self._round_where(query)
        where.append("status = 'settled'")
        sql = ("SELECT table_id, game, COUNT(*), SUM(wagered), SUM(paid), SUM(house_result), MAX(paid) FROM rounds"
               f" WHERE {' AND '.join(where)} GROUP BY table_id, game ORDER BY table_id, game")
        return [Totals(*row) for row in self._db.execute(sql, args).fetchall()]

    def hourly(self, query: RowQuery) -> list[tuple[str, int, int]]:
        where, args = self._round_where(query)
        where.append("status = 'settled'")
        sql = ("SELECT substr(started_at, 1, 13), SUM(wagered), SUM(house_result) FROM rounds"
               f" WHERE {' AND '.join(where)} GROUP BY 1 ORDER BY 1")
        return [(str(h), int(w), int(r)) for h, w, r in self._db.execute(sql, args).fetchall()]

    def settlement_rows(self, query: RowQuery) -> Iterator[tuple[RoundRecord, SettlementRow]]:
        where, args = ["1 = 1"], []
        for clause, value in (("r.game = ?", query.game), ("r.table_id = ?", query.table_id),
                              ("r.started_at >= ?", query.since), ("r.started_at < ?", query.until),
                              ("s.seat = ?", query.seat), ("s.result >= ?", query.min_payout)):
            if value is not None:
                where.append(clause)
                args.append(value)
        if query.flag is not None:
            where.append("(',' || r.flags || ',') LIKE ?")
            args.append(f"%,{query.flag},%")
        columns = ", ".join(f"r.{c.strip()}" for c in self._ROUND_COLUMNS.split(","))
        sql = (f"SELECT {columns}, s.seat, s.bet, s.stake, s.result, s.reason FROM settlements s"
               f" JOIN rounds r ON r.id = s.round_id WHERE {' AND '.join(where)} ORDER BY r.id, s.seat, s.bet")
        for row in self._db.execute(sql, args):
            yield self._round_record(row[:13]), SettlementRow(*row[13:])

    # -- audit ----------------------------------------------------------------------------

    def chain_problems(self) -> list[str]:
        problems: list[str] = []
        prev_by_table: dict[int, tuple[int, str]] = {}
        cursor = self._db.execute(
            "SELECT id, table_id, round_id, seq, ts, kind, payload, prev_hash, hash FROM events ORDER BY table_id, seq"
        )
        for r in cursor:
            where = f"table {r[1]}, round {r[2] if r[2] is not None else '-'}, event {r[3]} ({r[5]})"
            try:
                event = StoredEvent(r[0], r[1], r[2], r[3], r[4], r[5], json.loads(r[6]), r[7], r[8])
            except json.JSONDecodeError:
                problems.append(f"{where}: payload is not valid JSON")
                prev_by_table[r[1]] = (r[3], r[8])
                continue
            last_seq, last_hash = prev_by_table.get(event.table_id, (0, GENESIS))
            if event.seq != last_seq + 1:
                problems.append(f"{where}: sequence jumps from {last_seq} to {event.seq}")
            if event.prev_hash != last_hash:
                problems.append(f"{where}: does not link to the event before it")
            if event.expected_hash() != event.hash:
                problems.append(f"{where}: content does not match its hash")
            prev_by_table[event.table_id] = (event.seq, event.hash)
        return problems

    def close(self) -> None:
        self._db.close()
