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

from dealer_tui.ledger import queries
from dealer_tui.ledger.base import (
    GENESIS,
    ROUND_OPEN,
    ROUND_SETTLED,
    ROUND_VOIDED,
    SIGN_OFF_APPROVED,
    SIGN_OFF_KINDS,
    SIGN_OFF_REFUSED,
    SIGN_OFF_REQUESTED,
    Cursor,
    HourTotals,
    Ledger,
    LedgerError,
    NewEvent,
    PendingSignOff,
    RoundRecord,
    RoundUpdate,
    RowQuery,
    SettlementRow,
    StoredEvent,
    TableRecord,
    Totals,
    event_hash,
)
from dealer_tui.ledger.payouts import round_chips
from dealer_tui.ledger.schema import FEE_BETS, SCHEMA_VERSION, migrate

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
            if version < SCHEMA_VERSION:  # an older ledger gains the review's indexes first; no record changes
                db.close()
                SqliteLedger(self.path).close()
                return self._connect()
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
            if event.kind in ("seat_taken", "seat_left") and round_id is None:
                self._seating(db, table_id, event)
        return stored

    @staticmethod
    def _seating(db: sqlite3.Connection, table_id: int, event: NewEvent) -> None:
        """Who sits where from which round on: what the player search reads."""
        played = db.execute("SELECT COALESCE(MAX(number), 0) FROM rounds WHERE table_id = ?", (table_id,)).fetchone()[0]
        seat = event.payload.get("seat")
        if event.kind == "seat_taken":
            db.execute("INSERT INTO seatings(table_id, seat, player, first_round) VALUES (?, ?, ?, ?)",
                       (table_id, seat, str(event.payload.get("player", "")), played + 1))
        else:
            db.execute("UPDATE seatings SET last_round = ? WHERE table_id = ? AND seat = ? AND last_round IS NULL",
                       (played, table_id, seat))

    def _update_round(self, db: sqlite3.Connection, round_id: int, update: RoundUpdate) -> None:
        current = self.round(round_id)
        flags = ",".join(sorted(current.flags | update.add_flags))
        status = update.status or current.status
        ended = self._clock() if update.status and update.status != ROUND_OPEN else current.ended_at
        db.execute("UPDATE rounds SET status = ?, flags = ?, ended_at = ? WHERE id = ?",
                   (status, flags, ended, round_id))
        db.executemany("INSERT OR IGNORE INTO round_flags(flag, round_id) VALUES (?, ?)",
                       [(flag, round_id) for flag in sorted(update.add_flags - current.flags)])
        if update.totals is not None:
            db.execute("UPDATE rounds SET seats = ?, wagered = ?, paid = ?, house_result = ? WHERE id = ?",
                       (*update.totals, round_id))
            if status == ROUND_VOIDED:  # a void hands every bet back
                db.execute("UPDATE rounds SET returned = wagered WHERE id = ?", (round_id,))
        if update.settlement is not None:
            db.execute("DELETE FROM settlements WHERE round_id = ?", (round_id,))
            db.executemany(
                "INSERT INTO settlements(round_id, seat, bet, stake, result, reason) VALUES (?, ?, ?, ?, ?, ?)",
                [(round_id, r.seat, r.bet, r.stake, r.result, r.reason) for r in update.settlement],
            )
            chips = round_chips(update.settlement)
            db.execute("UPDATE rounds SET paid = ?, returned = ?, from_stacks = ?, max_payout = ?, banking = ?,"
                       " fees = ? WHERE id = ?",
                       (chips.paid, chips.returned, chips.from_stacks, chips.biggest, chips.kind,
                        -sum(r.result for r in update.settlement if r.bet in FEE_BETS), round_id))
        if status == ROUND_SETTLED and current.status != ROUND_SETTLED:
            self._add_to_hour(db, round_id)

    @staticmethod
    def _add_to_hour(db: sqlite3.Connection, round_id: int) -> None:
        """The hourly totals gain the settled round in the settlement's own transaction."""
        db.execute(
            "INSERT INTO hourly_totals(hour, table_id, game, banking, rounds, wagered, paid, returned, from_stacks,"
            " house, biggest, fees)"
            " SELECT substr(started_at, 1, 13), table_id, game, banking, 1, wagered, paid, returned, from_stacks,"
            " house_result, max_payout, fees FROM rounds WHERE id = ? AND true"
            " ON CONFLICT(hour, table_id, game, banking) DO UPDATE SET rounds = rounds + 1,"
            " wagered = wagered + excluded.wagered, paid = paid + excluded.paid,"
            " returned = returned + excluded.returned, from_stacks = from_stacks + excluded.from_stacks,"
            " house = house + excluded.house, biggest = MAX(biggest, excluded.biggest), fees = fees + excluded.fees",
            (round_id,))

    _ROUND_COLUMNS = queries.ROUND_COLUMNS
    _round_record = staticmethod(queries.round_record)

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

    def find_rounds(self, query: RowQuery, limit: int = 100, after: Cursor | None = None, sort: str = "time",
                    descending: bool = True) -> list[RoundRecord]:
        return queries.find_rounds(self._db, query, limit, after, sort, descending)

    def totals(self, query: RowQuery) -> list[Totals]:
        return queries.totals(self._db, query)

    def hourly(self, query: RowQuery) -> list[HourTotals]:
        return queries.hourly(self._db, query)

    def settlement_rows(self, query: RowQuery) -> Iterator[tuple[RoundRecord, SettlementRow]]:
        return queries.settlement_rows(self._db, query)

    # -- sign-off by the floor --------------------------------------------------------------

    def _latest_sign_off(self, round_id: int) -> StoredEvent | None:
        marks = ",".join("?" for _ in SIGN_OFF_KINDS)
        found = self._events(f"round_id = ? AND kind IN ({marks})", (round_id, *SIGN_OFF_KINDS))
        return found[-1] if found else None

    def sign_off_queue(self) -> list[PendingSignOff]:
        waiting = []
        for record in self.unfinished_rounds():
            latest = self._latest_sign_off(record.id)
            if latest is not None and latest.kind == SIGN_OFF_REQUESTED:
                waiting.append(PendingSignOff(record, latest))
        return waiting

    def decide_sign_off(self, round_id: int, approved: bool, by: str, reason: str = "") -> StoredEvent:
        if not by.strip():
            raise LedgerError("a sign-off decision names the supervisor who made it")
        if not approved and not reason.strip():
            raise LedgerError("a refusal needs a reason")
        with self._write() as db:
            record = self.round(round_id)  # read inside the lock: no other process decides in between
            latest = self._latest_sign_off(round_id)
            if record.status != ROUND_OPEN or latest is None or latest.kind != SIGN_OFF_REQUESTED:
                why = f"the round is {record.status}" if record.status != ROUND_OPEN else "it was already decided"
                raise LedgerError(f"round {record.number} (id {round_id}): no sign-off is waiting ({why})")
            payload = {"by": by.strip()} if approved else {"by": by.strip(), "reason": reason.strip()}
            kind = SIGN_OFF_APPROVED if approved else SIGN_OFF_REFUSED
            return self._insert_events(db, record.table_id, round_id, [NewEvent(kind, payload)])[0]

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
