"""The ledger's reads, written once over a connection that speaks the SQLite ledger's SQL: the
embedded ledger's own connection, or the pit server's through `postgres.PgConn` (placeholders
and index hints adapted). Mixed into `SqliteLedger` and `PgLedger`."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from dealer_tui.ledger import queries
from dealer_tui.ledger.base import (
    ROUND_OPEN,
    SIGN_OFF_KINDS,
    SIGN_OFF_REQUESTED,
    SIGN_OFF_WITHDRAWN_BY,
    STAFF_REGISTER,
    Cursor,
    HourTotals,
    LedgerError,
    PendingSignOff,
    RoundRecord,
    RowQuery,
    SettlementRow,
    StoredEvent,
    TableRecord,
    Totals,
)
from dealer_tui.printable import UNSEEN_IN_A_CELL, shown_cell
from rules.said import say


def shown_record(row: Sequence[Any]) -> TableRecord:
    """A table's row as every screen and report shows it: its name with control characters escaped
    (a name is no event: whoever edits the file may write anything there)."""
    record = TableRecord(*row)
    return replace(record, name=shown_cell(record.name)) if UNSEEN_IN_A_CELL.search(record.name) else record


class LedgerReads:
    """Tables, rounds, events, settlement rows and the floor's queries, read through `_db`."""

    _db: Any
    path: Any

    def _event_fields(self) -> str:
        raise NotImplementedError

    def has_ledger_seq(self) -> bool:
        raise NotImplementedError

    def _table_name(self, table_id: int) -> str:
        row = self._db.execute("SELECT name FROM tables WHERE id = ?", (table_id,)).fetchone()
        return repr(row[0]) if row else str(table_id)

    def _table(self, table_id: int) -> TableRecord:
        row = self._db.execute(
            "SELECT id, name, game, profile, profile_sha256, card_source, created_at FROM tables WHERE id = ?",
            (table_id,),
        ).fetchone()
        if row is None:
            raise LedgerError(say("no table {table} in {ledger}", table=str(table_id), ledger=str(self.path)))
        return shown_record(row)

    def table_record(self, table_id: int) -> TableRecord:
        """The table's row (the staff register's too)."""
        return self._table(table_id)

    def tables(self) -> list[TableRecord]:
        rows = self._db.execute(
            "SELECT id, name, game, profile, profile_sha256, card_source, created_at FROM tables WHERE id <> ?"
            " ORDER BY id", (STAFF_REGISTER,)
        ).fetchall()
        return [shown_record(row) for row in rows]

    _ROUND_COLUMNS = queries.ROUND_COLUMNS
    _round_record = staticmethod(queries.round_record)

    def round(self, round_id: int) -> RoundRecord:
        row = self._db.execute(f"SELECT {self._ROUND_COLUMNS} FROM rounds WHERE id = ?", (round_id,)).fetchone()
        if row is None:
            raise LedgerError(say("no round {round} in {ledger}", round=str(round_id), ledger=str(self.path)))
        return self._round_record(row)

    def _events(self, where: str, args: tuple[object, ...]) -> list[StoredEvent]:
        rows = self._db.execute(
            f"SELECT {self._event_fields()} FROM events WHERE {where} ORDER BY table_id, seq", args
        ).fetchall()
        return [StoredEvent(r[0], r[1], r[2], r[3], r[4], r[5], json.loads(r[6]), r[7], r[8], r[9]) for r in rows]

    def round_events(self, round_id: int) -> list[StoredEvent]:
        return self._events("round_id = ?", (round_id,))

    def table_events(self, table_id: int, kinds: Sequence[str] | None = None, after: int = 0) -> list[StoredEvent]:
        if not kinds:
            return self._events("table_id = ? AND seq > ?", (table_id, after))
        marks = ",".join("?" for _ in kinds)
        return self._events(f"table_id = ? AND seq > ? AND kind IN ({marks})", (table_id, after, *kinds))

    def chain_length(self, table_id: int) -> int:
        return int(self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = ?",
                                    (table_id,)).fetchone()[0])

    def ledger_event(self, ledger_seq: int) -> StoredEvent | None:
        found = self._events("ledger_seq = ?", (ledger_seq,)) if self.has_ledger_seq() else []
        return found[0] if found else None

    def settlement(self, round_id: int) -> list[SettlementRow]:
        rows = self._db.execute(
            "SELECT seat, bet, stake, result, reason, role FROM settlements WHERE round_id = ? ORDER BY seat, bet",
            (round_id,),
        ).fetchall()
        return [SettlementRow.read(*row) for row in rows]

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

    def any_flagged(self, flag: str) -> bool:
        return queries.any_flagged(self._db, flag)

    def totals(self, query: RowQuery) -> list[Totals]:
        return queries.totals(self._db, query)

    def hourly(self, query: RowQuery) -> list[HourTotals]:
        return queries.hourly(self._db, query)

    def settlement_rows(self, query: RowQuery) -> Iterator[tuple[RoundRecord, SettlementRow]]:
        return queries.settlement_rows(self._db, query)

    def table_settlements(self, table_id: int) -> dict[int, list[SettlementRow]]:
        return queries.table_settlements(self._db, table_id)

    def table_stakes(self, table_id: int) -> dict[int, dict[str, int]]:
        return queries.table_stakes(self._db, table_id)

    def _latest_sign_off(self, round_id: int) -> StoredEvent | None:
        """The round's latest sign-off event, or the correction that withdrew it."""
        kinds = (*SIGN_OFF_KINDS, *SIGN_OFF_WITHDRAWN_BY)
        marks = ",".join("?" for _ in kinds)
        found = self._events(f"round_id = ? AND kind IN ({marks})", (round_id, *kinds))
        return found[-1] if found else None

    def sign_off_queue(self) -> list[PendingSignOff]:
        waiting = []
        for record in self.unfinished_rounds():
            latest = self._latest_sign_off(record.id)
            if latest is not None and latest.kind == SIGN_OFF_REQUESTED:
                waiting.append(PendingSignOff(record, latest))
        return waiting
