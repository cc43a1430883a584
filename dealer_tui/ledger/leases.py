"""One terminal per table: the lease a terminal holds on each table it plays (its id, process,
host, since when, its last heartbeat), taken over from a terminal that is gone — with the
takeover an event of the table's chain (mixed into `SqliteLedger`)."""

from __future__ import annotations

import os
import sqlite3
import weakref
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING

from dealer_tui.ledger.base import (
    HEARTBEAT_S,
    LEASE_TIMEOUT_S,
    Lease,
    LeaseLost,
    LedgerError,
    NewEvent,
    StoredEvent,
    TableInUse,
)
from rules.said import say

TAKEOVER = "terminal_taken_over"
"""The event a terminal records in a table's chain when it takes over a dead terminal's table."""

OPEN_TERMINALS: weakref.WeakValueDictionary[str, Leases] = weakref.WeakValueDictionary()
"""The terminals (ledger connections) open in this process: a lease held by this process whose
terminal is not among them was left by a connection that is gone."""


def process_gone(pid: int) -> bool:
    """Whether process `pid` of this host has ended (a zombie, ended but not yet reaped, has).
    Unknown is not gone: such a lease waits for its heartbeat to time out."""
    if os.name != "posix" or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # alive under another user, or not ours to ask about
        return False
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state in ("Z", "X")


class Leases:
    """The leases of the tables this terminal (`terminal`, this process on `host`) holds."""

    _db: sqlite3.Connection
    path: Path
    _held: set[int]
    terminal: str
    host: str
    _now: Callable[[], float]
    _clock: Callable[[], str]

    if TYPE_CHECKING:
        def _write(self, table_id: int | None = None) -> AbstractContextManager[sqlite3.Connection]: ...
        def _insert_events(self, db: sqlite3.Connection, table_id: int, round_id: int | None,
                           events: Sequence[NewEvent]) -> list[StoredEvent]: ...
        def _table_name(self, table_id: int) -> str: ...

    def _hold(self, db: sqlite3.Connection, table_id: int, since: str | None = None) -> None:
        db.execute("INSERT OR REPLACE INTO table_leases(table_id, terminal, pid, host, since, renewed_at)"
                   " VALUES (?, ?, ?, ?, ?, ?)",
                   (table_id, self.terminal, os.getpid(), self.host, since or self._clock(), self._now()))

    @staticmethod
    def _lease_row(db: sqlite3.Connection, table_id: int) -> Lease | None:
        row = db.execute("SELECT terminal, pid, host, since, renewed_at FROM table_leases WHERE table_id = ?",
                         (table_id,)).fetchone()
        return None if row is None else Lease(table_id, str(row[0]), int(row[1]), str(row[2]), str(row[3]),
                                             float(row[4]))

    def _gone_because(self, lease: Lease) -> str | None:
        """Why the lease's terminal is gone (its table may be taken over); None while it may live."""
        if lease.host == self.host:
            if lease.pid == os.getpid():
                if lease.terminal not in OPEN_TERMINALS:
                    return f"its connection in process {lease.pid} was closed"
            elif process_gone(lease.pid):
                return f"process {lease.pid} on {lease.host} has ended"
        silent = self._now() - lease.renewed_at
        if silent > LEASE_TIMEOUT_S:
            return f"no heartbeat for {silent:.0f} s (more than {LEASE_TIMEOUT_S:.0f} s)"
        return None

    def take_table(self, table_id: int) -> Lease | None:
        with self._write() as db:
            if db.execute("SELECT 1 FROM tables WHERE id = ?", (table_id,)).fetchone() is None:
                raise LedgerError(say("no table {table} in {ledger}", table=str(table_id), ledger=str(self.path)))
            current = self._lease_row(db, table_id)
            if current is None or current.terminal == self.terminal:
                self._hold(db, table_id, current.since if current is not None else None)
                taken = None
            else:
                why = self._gone_because(current)
                if why is None:
                    raise TableInUse(self._table_name(table_id), current)
                self._hold(db, table_id)
                self._insert_events(db, table_id, None, [NewEvent(TAKEOVER, {
                    "terminal": self.terminal, "pid": os.getpid(), "host": self.host, "reason": why,
                    "from": {"terminal": current.terminal, "pid": current.pid, "host": current.host,
                             "since": current.since}})])
                taken = current
        self._held.add(table_id)
        return taken

    def release_table(self, table_id: int) -> None:
        if table_id not in self._held:
            return
        self._held.discard(table_id)
        with self._write() as db:
            db.execute("DELETE FROM table_leases WHERE table_id = ? AND terminal = ?", (table_id, self.terminal))

    def renew_leases(self) -> None:
        for table_id in sorted(self._held):
            with self._write(table_id) as db:
                db.execute("UPDATE table_leases SET renewed_at = ? WHERE table_id = ? AND terminal = ?",
                           (self._now(), table_id, self.terminal))

    def table_lease(self, table_id: int) -> Lease | None:
        try:
            return self._lease_row(self._db, table_id)
        except sqlite3.OperationalError:  # a ledger read as it is, from before leases
            return None

    def _check_lease(self, db: sqlite3.Connection, table_id: int) -> None:
        """Inside a write to a table held here: is it still this terminal's? (Renewed when due.)"""
        lease = self._lease_row(db, table_id)
        if lease is None or lease.terminal != self.terminal:
            raise LeaseLost(self._table_name(table_id), lease)
        now = self._now()
        if now - lease.renewed_at >= HEARTBEAT_S:
            db.execute("UPDATE table_leases SET renewed_at = ? WHERE table_id = ?", (now, table_id))

