"""The embedded ledger: one SQLite file, WAL, synchronous FULL, owner-only permissions."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

from platformdirs import user_data_dir

from dealer_tui.ledger import hours, seatings
from dealer_tui.ledger.base import (
    GENESIS,
    ROUND_OPEN,
    ROUND_SETTLED,
    ROUND_VOIDED,
    SIGN_OFF_APPROVED,
    SIGN_OFF_REFUSED,
    SIGN_OFF_REQUESTED,
    SIGN_OFF_WITHDRAWN_BY,
    STAFF_AUTH_KINDS,
    STAFF_REGISTER,
    LedgerError,
    NewEvent,
    RoundRecord,
    RoundUpdate,
    StorageError,
    StoredEvent,
    TableLedger,
    TableRecord,
    event_hash,
    round_is,
)
from dealer_tui.ledger.leases import OPEN_TERMINALS, Leases
from dealer_tui.ledger.payouts import house_fees, round_chips
from dealer_tui.ledger.reads import LedgerReads
from dealer_tui.ledger.records import AuditReads, check_ledger_file, next_ledger_seq, not_a_ledger
from dealer_tui.ledger.schema import REVIEW_SCHEMA, SCHEMA_VERSION, migrate, read_as_is
from dealer_tui.ledger.storage import problem_of, rollback, storage_error, writable
from dealer_tui.ledger.witness import Witness
from rules.said import say, stored

Clock = Callable[[], str]


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def default_ledger_path() -> Path:
    return Path(user_data_dir("dealer-tui")) / "ledger.sqlite"


def default_training_ledger_path() -> Path:
    """`dealer-tui demo`'s own ledger: a demo never writes into the live one by accident."""
    return Path(user_data_dir("dealer-tui")) / "training.sqlite"


ADD_TO_HOUR = hours.upsert("hourly_totals", "rounds", "?", "MAX")
"""A settled round added to its hour's totals (`hours`)."""
SEAT_TAKEN = seatings.taken("seatings", "rounds", ":table", ":seat", ":player")
SEAT_LEFT = seatings.left("seatings", "rounds", ":table", ":seat")
"""Who sits where from which round on (`seatings`): what the player search reads."""


class SqliteLedger(Leases, AuditReads, LedgerReads, TableLedger):
    """A ledger in one SQLite file. `readonly=True` opens it for review beside a live writer, or
    on read-only storage.

    Each instance is one terminal (`terminal`, with this process and host): the tables it plays
    are held by it (`take_table`), and every write to a held table checks, in its own
    transaction, that the table is still held here."""

    def __init__(self, path: Path | str, *, readonly: bool = False, clock: Clock = utc_now,
                 terminal: str | None = None, witness: Witness | None = None) -> None:
        self.path = Path(path)
        self.witness = witness
        """Rewritten after every settled or voided round and every table event (`write_witness`)."""
        self._witness_due = False
        self.readonly = readonly
        self._clock = clock
        self.terminal = terminal or uuid.uuid4().hex[:8]
        self.host = socket.gethostname()
        self._held: set[int] = set()
        self._now: Callable[[], float] = time.time
        try:
            self._db = self._connect()
        except sqlite3.DatabaseError as exc:
            raise not_a_ledger(self.path, exc) or storage_error(self.path, exc, "read" if readonly else "written") from None
        except (sqlite3.Error, OSError) as exc:
            raise storage_error(self.path, exc, "read" if readonly else "written") from None
        OPEN_TERMINALS[self.terminal] = self

    def _connect(self) -> sqlite3.Connection:
        if self.readonly:
            return self._connect_readonly()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if not self.path.exists():
            try:
                fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
                os.close(fd)
            except FileExistsError:  # another program created it a moment ago
                pass
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA busy_timeout = 5000")  # first: two first starts wait for each other
            db.execute("BEGIN")  # one snapshot: another first start may be creating the schema meanwhile
            try:
                check_ledger_file(db, self.path, writer=True)
            finally:
                db.execute("COMMIT")
            self._use_wal(db)
            db.execute("PRAGMA synchronous = FULL")
            db.execute("PRAGMA foreign_keys = ON")
            migrate(db, str(self.path))
        except BaseException:
            db.close()
            raise
        return db

    @staticmethod
    def _use_wal(db: sqlite3.Connection) -> None:
        """WAL mode. Switching a new file to it needs the file to itself, and SQLite reports busy at
        once, without waiting, while another first start holds it: tried again for a few seconds."""
        deadline = time.monotonic() + 5
        while True:
            try:
                db.execute("PRAGMA journal_mode = WAL").fetchone()
                return
            except sqlite3.OperationalError as exc:
                if not (problem_of(exc) or "").startswith("busy") or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)

    def _connect_readonly(self, upgraded: bool = False) -> sqlite3.Connection:
        """Read-only, beside a live writer (`mode=ro`); on storage that cannot be written at all (a
        read-only mount, a directory SQLite cannot put its -shm file in), as an unchanging file
        (`immutable=1`) — unless a -wal file holds writes not yet in the file, which only a writable
        directory lets SQLite read."""
        if not self.path.exists():
            raise LedgerError(say("{ledger}: no such ledger", ledger=str(self.path)))
        uri = f"file:{quote(str(self.path.absolute()))}"
        try:
            db = self._open_uri(f"{uri}?mode=ro")
        except sqlite3.Error as exc:
            wal = self.path.with_name(self.path.name + "-wal")
            if writable(self.path) or problem_of(exc) != "the file cannot be opened":
                raise
            if wal.exists() and wal.stat().st_size > 0:
                raise LedgerError(say("the ledger cannot be read: its -wal file holds writes not yet in the ledger "
                                      "file and its folder is read-only ({ledger}); open it once where it can be "
                                      "written", ledger=str(self.path))) from None
            db = self._open_uri(f"{uri}?immutable=1")
        try:
            check_ledger_file(db, self.path, writer=False)
        except LedgerError:
            db.close()
            raise
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            db.close()
            raise LedgerError(say("{ledger}: ledger schema {version} is newer than this program's", ledger=str(self.path),
                                  version=version))
        if version < SCHEMA_VERSION and not upgraded:  # an older ledger gains the review's indexes first
            db.close()
            try:
                SqliteLedger(self.path).close()
            except StorageError:
                if version < REVIEW_SCHEMA:
                    raise
                return self._connect_readonly(upgraded=True)  # read-only storage: read it as it is
            return self._connect_readonly(upgraded=True)
        if version < SCHEMA_VERSION:
            read_as_is(db)
        return db

    @staticmethod
    def _open_uri(uri: str) -> sqlite3.Connection:
        db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA busy_timeout = 5000")
            db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()  # the file is really read here
        except BaseException:
            db.close()
            raise
        return db

    @contextmanager
    def _write(self, table_id: int | None = None) -> Iterator[sqlite3.Connection]:
        """One write transaction; for a table this terminal holds, the hold is checked inside it.
        A storage fault is a `StorageError` and nothing was recorded."""
        if self.readonly:
            raise LedgerError(say("{ledger}: opened read-only", ledger=str(self.path)))
        self._witness_due = False
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise storage_error(self.path, exc) from None
        try:
            if table_id is not None and table_id in self._held:
                self._check_lease(self._db, table_id)
            yield self._db
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            rollback(self._db)
            raise storage_error(self.path, exc) from None
        except BaseException:
            rollback(self._db)
            raise
        if self._witness_due:
            self.write_witness()

    # -- tables ---------------------------------------------------------------------------

    def create_table(self, name: str, game: str, profile: str, profile_sha256: str, card_source: str, *,
                     events: Sequence[NewEvent] = (), lease: bool = False) -> TableRecord:
        with self._write() as db:
            cur = db.execute(
                "INSERT INTO tables(name, game, profile, profile_sha256, card_source, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (name, game, profile, profile_sha256, card_source, self._clock()),
            )
            table_id = int(cur.lastrowid or 0)
            self._insert_events(db, table_id, None, events)
            if lease:
                self._hold(db, table_id)
        if lease:
            self._held.add(table_id)
        return self._table(table_id)

    # -- rounds and events ----------------------------------------------------------------

    def open_round(self, table_id: int, game: str, profile: str, events: Sequence[NewEvent],
                   flags: frozenset[str] = frozenset()) -> RoundRecord:
        with self._write(table_id) as db:
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
            if flags:
                self._update_round(db, round_id, RoundUpdate(add_flags=flags))
        return self.round(round_id)

    def append(self, table_id: int, round_id: int | None, events: Sequence[NewEvent],
               update: RoundUpdate | None = None) -> list[StoredEvent]:
        with self._write(table_id) as db:
            stored = self._insert_events(db, table_id, round_id, events)
            if update is not None and round_id is not None:
                self._update_round(db, round_id, update)
                self._witness_due |= update.status in (ROUND_SETTLED, ROUND_VOIDED)
        return stored

    def append_checked(self, table_id: int, decide: Callable[[list[StoredEvent]], Sequence[NewEvent]],
                       after: int = 0) -> list[StoredEvent]:
        with self._write(table_id) as db:
            return self._insert_events(db, table_id, None, decide(self.table_events(table_id, after=after)))

    def _insert_events(self, db: sqlite3.Connection, table_id: int, round_id: int | None,
                       events: Sequence[NewEvent]) -> list[StoredEvent]:
        last = db.execute(
            "SELECT seq, hash FROM events WHERE table_id = ? ORDER BY seq DESC LIMIT 1", (table_id,)
        ).fetchone()
        seq, prev = (last[0], last[1]) if last else (0, GENESIS)
        ledger_seq = next_ledger_seq(db) - 1
        self._witness_due |= round_id is None and bool(events)
        stored = []
        for event in events:
            seq += 1
            ledger_seq += 1
            ts = self._clock()
            try:
                payload = json.dumps(event.payload, sort_keys=True, ensure_ascii=False)
                digest = event_hash(prev, table_id, round_id, seq, ts, event.kind, event.payload, ledger_seq)
            except (TypeError, ValueError) as exc:
                raise LedgerError(say("event {kind}: payload is not plain data ({problem})", kind=event.kind,
                                      problem=str(exc))) from None
            cur = db.execute(
                "INSERT INTO events(table_id, round_id, seq, ts, kind, payload, prev_hash, hash, ledger_seq)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (table_id, round_id, seq, ts, event.kind, payload, prev, digest, ledger_seq),
            )
            stored.append(StoredEvent(int(cur.lastrowid or 0), table_id, round_id, seq, ts, event.kind,
                                      event.payload, prev, digest, ledger_seq))
            prev = digest
            if event.kind in ("seat_taken", "seat_left") and round_id is None:
                self._seating(db, table_id, event)
        return stored

    @staticmethod
    def _seating(db: sqlite3.Connection, table_id: int, event: NewEvent) -> None:
        """Who sits where from which round on: what the player search reads."""
        seat = event.payload.get("seat")
        if event.kind == "seat_taken":
            db.execute(SEAT_TAKEN, {"table": table_id, "seat": seat, "player": str(event.payload.get("player", ""))})
        else:
            db.execute(SEAT_LEFT, {"table": table_id, "seat": seat})

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
                "INSERT INTO settlements(round_id, seat, bet, stake, result, reason, role) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(round_id, r.seat, r.bet, r.stake, r.result, stored(r.reason), r.role) for r in update.settlement],
            )
            chips = round_chips(update.settlement)
            db.execute("UPDATE rounds SET paid = ?, returned = ?, from_stacks = ?, max_payout = ?, banking = ?,"
                       " fees = ? WHERE id = ?",
                       (chips.paid, chips.returned, chips.from_stacks, chips.max_payout, chips.kind,
                        house_fees(update.settlement), round_id))
        if status == ROUND_SETTLED and current.status != ROUND_SETTLED:
            self._add_to_hour(db, round_id)

    @staticmethod
    def _add_to_hour(db: sqlite3.Connection, round_id: int) -> None:
        """The hourly totals gain the settled round in the settlement's own transaction (a training
        table's round stays out of them)."""
        db.execute(ADD_TO_HOUR, (round_id,))

    def change_mark(self) -> int:
        """SQLite's data version: it changes when another connection commits (and this one's count
        of its own writes is added)."""
        try:
            return int(self._db.execute("PRAGMA data_version").fetchone()[0]) + self._db.total_changes
        except sqlite3.Error:
            return 0

    def ledger_id(self) -> str:
        """The ledger's own id (schema 8), made once: the pit server knows its tables by it."""
        try:
            row = self._db.execute("SELECT value FROM ledger_meta WHERE key = 'ledger_id'").fetchone()
        except sqlite3.Error:
            row = None
        if row is None:
            raise LedgerError(say("{ledger}: the ledger has no id", ledger=str(self.path)))
        return str(row[0])

    def pit_login_key(self) -> bytes:
        """This terminal's own key for what the pit wraps for its login (the PINs' secret parts of
        the pit's register), made once and kept with the ledger it serves."""
        row = self._db.execute("SELECT value FROM ledger_meta WHERE key = 'pit_login_key'").fetchone()
        if row is not None:
            return bytes.fromhex(str(row[0]))
        with self._write() as db:
            db.execute("INSERT INTO ledger_meta(key, value) VALUES ('pit_login_key', lower(hex(randomblob(32))))"
                       " ON CONFLICT (key) DO NOTHING")
            row = db.execute("SELECT value FROM ledger_meta WHERE key = 'pit_login_key'").fetchone()
        return bytes.fromhex(str(row[0]))

    def staff_auth(self, account: str) -> list[StoredEvent]:
        marks = ",".join("?" for _ in STAFF_AUTH_KINDS)
        by_account = f"table_id = {STAFF_REGISTER} AND json_extract(payload, '$.account') = ?"
        latest = self._db.execute(f"SELECT MAX(seq) FROM events WHERE {by_account}"
                                  " AND kind IN ('staff_signed_in', 'staff_locked', 'staff_unlocked')", (account,)
                                  ).fetchone()[0]
        return self._events(f"{by_account} AND kind IN ({marks}) AND seq >= ?",
                            (account, *STAFF_AUTH_KINDS, latest or 0))

    # -- sign-off by the floor --------------------------------------------------------------

    def decide_sign_off(self, round_id: int, approved: bool, by: str, reason: str = "",
                        sign_in: int | None = None) -> StoredEvent:
        if not by.strip():
            raise LedgerError(say("a sign-off decision names the supervisor who made it"))
        if not approved and not reason.strip():
            raise LedgerError(say("a refusal needs a reason"))
        with self._write() as db:
            record = self.round(round_id)  # read inside the lock: no other process decides in between
            latest = self._latest_sign_off(round_id)
            if record.status != ROUND_OPEN or latest is None or latest.kind != SIGN_OFF_REQUESTED:
                why = (round_is(record.status) if record.status != ROUND_OPEN else
                       say("its cards were corrected since: the dealer sends the new payout again")
                       if latest is not None and latest.kind in SIGN_OFF_WITHDRAWN_BY else say("it was already decided"))
                raise LedgerError(say("round {number} (id {id}): no sign-off is waiting ({why})", number=record.number,
                                      id=str(round_id), why=why))
            payload: dict[str, object] = {"by": by.strip()} if approved else {"by": by.strip(), "reason": reason.strip()}
            if sign_in is not None:
                payload["sign_in"] = sign_in
            kind = SIGN_OFF_APPROVED if approved else SIGN_OFF_REFUSED
            return self._insert_events(db, record.table_id, round_id, [NewEvent(kind, payload)])[0]

    # -- audit: chain_problems and the stored rows are read by `records.AuditReads` ---------

    def close(self) -> None:
        """Release the tables held here (a clean exit) and close. A release the storage refuses
        leaves the lease to be taken over: this process is gone by then."""
        for table_id in sorted(self._held):
            try:
                self.release_table(table_id)
            except LedgerError:
                pass
        OPEN_TERMINALS.pop(self.terminal, None)
        self._db.close()
