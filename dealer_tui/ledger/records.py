"""What `history verify` reads from the SQLite file: every stored row as it is, so that each can be
held against what the events say (`dealer_tui.audit`), and the file's own structure: SQLite's
integrity check, the ledger-wide sequence of events, the chain of each table.

Also the check, on opening, that a file is a dealer-tui ledger at all.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dealer_tui.ledger import hours
from dealer_tui.ledger.base import GENESIS, STAFF_REGISTER, NotALedger, StoredEvent
from dealer_tui.ledger.witness import Head, Witness, heads_of, not_written
from rules.said import Said, say

LEDGER_TABLES = ("tables", "rounds", "events", "settlements")
"""The tables every dealer-tui ledger has had since schema 1."""

SQLITE_NOTADB = 26


def not_a_ledger(path: Path | str, exc: BaseException) -> NotALedger | None:
    """A file SQLite cannot read as a database at all (a text file, random bytes)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(exc, sqlite3.DatabaseError) and code is not None and code & 0xFF == SQLITE_NOTADB:
        return NotALedger(say("{path}: not a dealer-tui ledger (not an SQLite file)", path=str(path)))
    return None


def check_ledger_file(db: sqlite3.Connection, path: Path | str, *, writer: bool) -> None:
    """Refuse a file that is not a dealer-tui ledger: an empty file (for a reader: a writer makes
    it a new ledger), another program's SQLite file (whatever its `user_version`)."""
    names = {str(r[0]) for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if not names and version == 0:
        if writer:
            return
        raise NotALedger(say("{path}: not a dealer-tui ledger (an empty file)", path=str(path)))
    missing = [t for t in LEDGER_TABLES if t not in names]
    if missing:
        raise NotALedger(say("{path}: not a dealer-tui ledger (an SQLite file without the ledger's {tables})",
                             path=str(path), tables=", ".join(missing)))
    if version == 0:
        raise NotALedger(say("{path}: not a dealer-tui ledger (an SQLite file without the ledger's schema version)",
                             path=str(path)))


def next_ledger_seq(db: sqlite3.Connection) -> int:
    """The ledger-wide sequence number the next event takes (inside the write's transaction)."""
    return int(db.execute("SELECT COALESCE(MAX(ledger_seq), 0) + 1 FROM events").fetchone()[0])


@dataclass(frozen=True)
class StoredRound:
    """A round's row exactly as stored: everything the floor, `history list` and the exports show."""

    id: int
    table_id: int
    number: int
    game: str
    profile: str
    status: str
    flags: str
    started_at: str
    ended_at: str | None
    seats: int
    wagered: int
    paid: int
    house_result: int
    returned: int
    from_stacks: int
    max_payout: int
    banking: str
    fees: int


ROUND_FIELDS = ("id, table_id, number, game, profile, status, flags, started_at, ended_at, seats, wagered, paid,"
                " house_result, returned, from_stacks, max_payout, banking, fees")
HOUR_FIELDS = ", ".join(("hour", "table_id", "game", "banking", *hours.NAMES))
HOUR_NAMES = tuple(HOUR_FIELDS.split(", "))


class AuditReads:
    """The reads of an audit, over a SQLite ledger's connection (mixed into `SqliteLedger`)."""

    _db: Any
    path: Any
    witness: Witness | None

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """One read transaction: every read of an audit sees the same ledger, even while a terminal
        writes it."""
        if self._db.in_transaction:
            yield
            return
        self._db.execute("BEGIN")
        try:
            yield
        finally:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")

    def has_ledger_seq(self) -> bool:
        """Whether the events carry the ledger-wide sequence (schema 6; a ledger read as it is on
        read-only storage may be older)."""
        known = getattr(self, "_has_ledger_seq", None)
        if known is None:
            known = any(r[1] == "ledger_seq" for r in self._db.execute("PRAGMA table_info(events)"))
            self._has_ledger_seq = known
        return known

    def has_roles(self) -> bool:
        """Whether the settlement rows carry their role (schema 9; a ledger read as it is on
        read-only storage may be older)."""
        return any(r[1] == "role" for r in self._db.execute("PRAGMA main.table_info(settlements)"))

    def _event_fields(self) -> str:
        seq = "ledger_seq" if self.has_ledger_seq() else "NULL"
        return f"id, table_id, round_id, seq, ts, kind, payload, prev_hash, hash, {seq}"

    def chain_events(self, table_id: int) -> Iterator[tuple[StoredEvent, bool]]:
        """The table's events in chain order, read one at a time; with each, whether its payload
        is JSON (an event that is not has an empty payload here)."""
        cursor = self._db.execute(f"SELECT {self._event_fields()} FROM events WHERE table_id = ? ORDER BY seq",
                                  (table_id,))
        for r in cursor:
            try:
                payload, ok = json.loads(r[6]), True
            except (TypeError, ValueError):
                payload, ok = {}, False
            if not isinstance(payload, dict):
                payload, ok = {}, False
            yield StoredEvent(r[0], r[1], r[2], r[3], r[4], r[5], payload, r[7], r[8], r[9]), ok

    def chain_problems(self) -> list[str]:
        problems: list[str] = []
        for (table_id,) in self._db.execute("SELECT DISTINCT table_id FROM events ORDER BY table_id").fetchall():
            chain = ChainCheck()
            for event, ok in self.chain_events(table_id):
                problems += chain.problems(event, ok)
        return problems

    def stored_rounds(self, table_id: int) -> list[StoredRound]:
        rows = self._db.execute(f"SELECT {ROUND_FIELDS} FROM rounds WHERE table_id = ? ORDER BY id", (table_id,))
        return [StoredRound(*row) for row in rows]

    def stored_flags(self) -> dict[int, set[str]]:
        """The flag index (`round_flags`, which the flag filter reads): round id -> flags."""
        out: dict[int, set[str]] = {}
        for flag, round_id in self._db.execute("SELECT flag, round_id FROM round_flags"):
            out.setdefault(int(round_id), set()).add(str(flag))
        return out

    def stored_hours(self) -> dict[tuple[str, int, str, str], tuple[int, ...]]:
        """The hourly totals (the floor's totals read them): (hour, table, game, banking) -> figures."""
        return {(str(r[0]), int(r[1]), str(r[2]), str(r[3])): tuple(r[4:])
                for r in self._db.execute(f"SELECT {HOUR_FIELDS} FROM hourly_totals")}

    def stored_seatings(self) -> list[tuple[int, Any, str, int, Any]]:
        """Who sat where from which round to which (the player search reads them)."""
        return [(int(r[0]), r[1], str(r[2]), int(r[3]), r[4]) for r in self._db.execute(
            "SELECT table_id, seat, player, first_round, last_round FROM seatings")]

    def rounds_with_rows(self) -> set[int]:
        """The rounds that have settlement rows."""
        return {int(r[0]) for r in self._db.execute("SELECT DISTINCT round_id FROM settlements")}

    def orphans(self) -> list[str]:
        """Rows that belong to no table or round of the ledger."""
        problems: list[str] = []
        for table_id, count in self._db.execute(
                "SELECT table_id, COUNT(*) FROM events WHERE table_id NOT IN (SELECT id FROM tables) GROUP BY 1"):
            problems.append(say("table {table}: {count} event(s) of a table the ledger does not list",
                                table=str(table_id), count=int(count)))
        for table_id, count in self._db.execute(
                "SELECT table_id, COUNT(*) FROM rounds WHERE table_id NOT IN (SELECT id FROM tables) GROUP BY 1"):
            problems.append(say("table {table}: {count} round(s) of a table the ledger does not list",
                                table=str(table_id), count=int(count)))
        for table_id, round_id, count in self._db.execute(
                "SELECT e.table_id, e.round_id, COUNT(*) FROM events e WHERE e.round_id IS NOT NULL AND NOT EXISTS"
                " (SELECT 1 FROM rounds r WHERE r.id = e.round_id AND r.table_id = e.table_id) GROUP BY 1, 2"):
            problems.append(say("table {table}, round id {round}: {count} event(s) of a round the table does not "
                                "have", table=str(table_id), round=str(round_id), count=int(count)))
        return problems

    def id_gaps(self, table: str) -> list[tuple[int, int]]:
        """Where the ids of `tables` or `rounds` jump: (last id before, next id)."""
        assert table in ("tables", "rounds")
        return [(int(a), int(b)) for a, b in self._db.execute(
            f"SELECT prev, id FROM (SELECT id, LAG(id, 1, 0) OVER (ORDER BY id) AS prev FROM {table} WHERE id > 0) AS ids"
            " WHERE id <> prev + 1")]

    def sequence_problems(self) -> list[str]:
        """The ledger-wide sequence of events: 1, 2, 3, ... with nothing missing or repeated (a
        table deleted, or events taken out of the middle, leave a gap)."""
        if not self.has_ledger_seq():
            return []
        problems: list[str] = []
        missing = self._db.execute("SELECT COUNT(*) FROM events WHERE ledger_seq IS NULL").fetchone()[0]
        if missing:
            problems.append(say("ledger: {count} event(s) without a place in the ledger-wide sequence",
                                count=int(missing)))
        gaps: list[tuple[int, int]] = []
        repeats: list[tuple[int, int]] = []
        for before, after in self._db.execute(
                "SELECT prev, ledger_seq FROM (SELECT ledger_seq, LAG(ledger_seq, 1, 0) OVER (ORDER BY ledger_seq)"
                " AS prev FROM events WHERE ledger_seq IS NOT NULL) AS seqs WHERE ledger_seq <> prev + 1"):
            (repeats if after == before else gaps).append((int(before), int(after)))
        if gaps:
            count = sum(after - before - 1 for before, after in gaps)
            ranges = [f"{b + 1}" if a == b + 2 else f"{b + 1}-{a - 1}" for b, a in gaps]
            shown = ", ".join(ranges if len(ranges) <= 6 else [*ranges[:3], "...", *ranges[-2:]])
            problems.append(say("ledger: {count} event(s) of the ledger-wide sequence are missing (event {events}; "
                                "{gaps} gap(s)): events, rounds or a table were deleted", count=count, events=shown,
                                gaps=len(gaps)))
        for _, after in repeats:
            problems.append(say("ledger: event {seq} of the ledger-wide sequence appears more than once",
                                seq=str(after)))
        return problems

    def integrity_problems(self) -> list[str]:
        """SQLite's own check of the file (pages, indexes, constraints)."""
        rows = [str(r[0]) for r in self._db.execute("PRAGMA integrity_check")]
        return [] if rows == ["ok"] else [say("ledger file: {problem}", problem=line) for line in rows]

    def last_ledger_seq(self) -> int:
        if not self.has_ledger_seq():
            return 0
        return int(self._db.execute("SELECT COALESCE(MAX(ledger_seq), 0) FROM events").fetchone()[0])

    def event_at(self, ledger_seq: int) -> tuple[int, str] | None:
        """The table and hash of the ledger's event with this ledger-wide number."""
        if not self.has_ledger_seq():
            return None
        row = self._db.execute("SELECT table_id, hash FROM events WHERE ledger_seq = ?", (ledger_seq,)).fetchone()
        return None if row is None else (int(row[0]), str(row[1]))

    def heads(self) -> list[Head]:
        """Each table's last event: what the witness keeps."""
        if not self.has_ledger_seq():
            return []
        rows = []
        for table_id, name in self._db.execute("SELECT id, name FROM tables ORDER BY id").fetchall():
            last = self._db.execute("SELECT ledger_seq, hash FROM events WHERE table_id = ? ORDER BY seq DESC LIMIT 1",
                                    (table_id,)).fetchone()
            if last is not None:
                rows.append((int(table_id), str(name), last[0], str(last[1])))
        return heads_of(rows)

    def holds(self, head: Head) -> bool:
        return self.event_at(head.ledger_seq) == (head.table_id, head.hash)

    def write_witness(self) -> None:
        """After a committed write: the witness gets the heads of every table (never raises; a
        failure is kept in `witness.error`)."""
        if self.witness is None:
            return
        try:
            heads = self.heads()
        except sqlite3.Error as exc:
            self.witness.error = not_written(self.witness.path, exc)
            return
        self.witness.write(self.path, heads, self.holds)


class ChainCheck:
    """One table's chain, checked event by event in order: each links to the one before it and
    its hash is its content's."""

    def __init__(self) -> None:
        self.seq, self.hash = 0, GENESIS
        self.older = False
        """Whether the event before was hashed the older way (the ledger's events before schema 6)."""

    def problems(self, event: StoredEvent, payload_ok: bool) -> list[str]:
        where = (say("the staff register, event {seq} ({kind})", seq=str(event.seq), kind=event.kind)
                 if event.table_id == STAFF_REGISTER else
                 say("table {table}, round id {round}, event {seq} ({kind})", table=str(event.table_id),
                     round=str(event.round_id), seq=str(event.seq), kind=event.kind) if event.round_id is not None else
                 say("table {table}, event {seq} ({kind})", table=str(event.table_id), seq=str(event.seq),
                     kind=event.kind))
        last_seq, last_hash = self.seq, self.hash
        self.seq, self.hash = event.seq, event.hash
        if not payload_ok:
            return [_at(where, say("payload is not valid JSON"))]
        problems: list[str] = []
        if event.seq != last_seq + 1:
            problems.append(_at(where, say("sequence jumps from {last} to {seq}", last=str(last_seq),
                                           seq=str(event.seq))))
        if event.prev_hash != last_hash:
            problems.append(_at(where, say("does not link to the event before it")))
        form = event.hash_checks(older_first=self.older)
        if form is None:
            problems.append(_at(where, say("content does not match its hash")))
        else:
            self.older = not form
        return problems


def _at(where: Said, what: Said) -> Said:
    """`where: what`: a problem and the place it is found."""
    return say("{where}: {what}", where=where, what=what)
