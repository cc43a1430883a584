"""The ledger: hash chain, atomic writes, owner-only file, schema version, review queries."""

from __future__ import annotations

import sqlite3
import stat
from pathlib import Path

import pytest

from dealer_tui.ledger import LedgerError, NewEvent, SettlementRow, SqliteLedger
from dealer_tui.ledger.base import ROUND_SETTLED, RoundUpdate
from dealer_tui.ledger.schema import SCHEMA_VERSION


class Ticks:
    """A clock that returns distinct, fixed times."""

    def __init__(self) -> None:
        self.n = 0

    def __call__(self) -> str:
        self.n += 1
        return f"2026-01-01T00:00:{self.n:02d}.000000+00:00"


@pytest.fixture()
def ledger(tmp_path: Path) -> SqliteLedger:
    return SqliteLedger(tmp_path / "ledger.sqlite", clock=Ticks())


def _round_with_events(ledger: SqliteLedger, n: int = 5) -> tuple[int, int]:
    table = ledger.create_table("T1", "high-card-flush", "high-card-flush", "f" * 64, "shoe")
    rnd = ledger.open_round(table.id, "high-card-flush", "high-card-flush", [NewEvent("round_started", {"seats": 7})])
    for i in range(n):
        ledger.append(table.id, rnd.id, [NewEvent("ante", {"seat": i + 1, "amount": 10 + i})])
    return table.id, rnd.id


def test_ledger_file_is_readable_by_its_owner_only(ledger: SqliteLedger) -> None:
    mode = stat.S_IMODE(ledger.path.stat().st_mode)
    assert mode == 0o600


def test_ledger_uses_wal_and_full_synchronous_writes(ledger: SqliteLedger) -> None:
    assert ledger._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert ledger._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_events_are_chained_and_verify(ledger: SqliteLedger) -> None:
    table_id, round_id = _round_with_events(ledger)
    events = ledger.round_events(round_id)
    assert [e.seq for e in events] == [1, 2, 3, 4, 5, 6]
    assert events[0].prev_hash == "0" * 64
    assert all(b.prev_hash == a.hash for a, b in zip(events, events[1:]))
    assert ledger.chain_problems() == []


@pytest.mark.parametrize(
    ("column", "sql"),
    [
        ("payload", "UPDATE events SET payload = replace(payload, '12', '13') WHERE seq = 4"),
        ("kind", "UPDATE events SET kind = 'raise' WHERE seq = 3"),
        ("ts", "UPDATE events SET ts = replace(ts, '2026', '2027') WHERE seq = 3"),
        ("delete", "DELETE FROM events WHERE seq = 3"),
    ],
)
def test_history_verify_catches_a_single_changed_digit(ledger: SqliteLedger, column: str, sql: str) -> None:
    _round_with_events(ledger)
    raw = sqlite3.connect(ledger.path)
    raw.execute(sql)
    raw.commit()
    raw.close()
    problems = SqliteLedger(ledger.path, readonly=True).chain_problems()
    assert problems, column
    assert all(p.startswith("table 1, round id 1, event ") for p in problems)


def test_append_is_atomic_when_an_event_is_not_plain_data(ledger: SqliteLedger) -> None:
    table_id, round_id = _round_with_events(ledger, n=1)
    with pytest.raises(LedgerError, match="not plain data"):
        ledger.append(table_id, round_id, [NewEvent("ok", {"a": 1}), NewEvent("bad", {"x": object()})])
    assert [e.kind for e in ledger.round_events(round_id)] == ["round_started", "ante"]


def test_settlement_rows_status_flags_and_totals_land_together(ledger: SqliteLedger) -> None:
    table_id, round_id = _round_with_events(ledger, n=1)
    rows = [SettlementRow(1, "ante", 10, 10, "Ante wins 1:1"), SettlementRow(1, "raise", 20, 0, "push")]
    ledger.append(table_id, round_id, [NewEvent("settled", {})],
                  RoundUpdate(status=ROUND_SETTLED, add_flags=frozenset({"capped"}), settlement=rows,
                              totals=(1, 30, 40, -10)))
    record = ledger.round(round_id)
    # paid is worked out from the rows, whatever the totals say: the Ante's stake 10 and its win 10 = 20;
    # the Raise's 20 pushed and came back (returned); 30 wagered = 20 paid + 20 returned - 10 house
    assert (record.status, record.flags, record.wagered, record.paid, record.returned, record.house_result) == (
        "settled", frozenset({"capped"}), 30, 20, 20, -10)
    assert record.ended_at is not None
    assert ledger.settlement(round_id) == rows
    assert ledger.unfinished_rounds() == []


def test_unfinished_rounds_are_found_for_recovery(ledger: SqliteLedger) -> None:
    table_id, round_id = _round_with_events(ledger, n=2)
    assert [r.id for r in ledger.unfinished_rounds(table_id)] == [round_id]


def test_round_numbers_count_per_table_and_recent_rounds_page_newest_first(ledger: SqliteLedger) -> None:
    a = ledger.create_table("A", "one-or-five", "one-or-five", "0" * 64, "shoe")
    b = ledger.create_table("B", "one-or-five", "one-or-five", "0" * 64, "shoe")
    ids = [ledger.open_round(t.id, "one-or-five", "one-or-five", []).id for t in (a, b, a, a)]
    assert [ledger.round(i).number for i in ids] == [1, 1, 2, 3]
    first = ledger.recent_rounds(limit=2)
    assert [r.id for r in first] == [ids[3], ids[2]]
    assert [r.id for r in ledger.recent_rounds(limit=2, before_id=first[-1].id)] == [ids[1], ids[0]]


def test_readonly_ledger_refuses_writes(ledger: SqliteLedger) -> None:
    _round_with_events(ledger, n=1)
    ro = SqliteLedger(ledger.path, readonly=True)
    with pytest.raises(LedgerError, match="read-only"):
        ro.append(1, 1, [NewEvent("x", {})])


def test_schema_version_is_recorded_and_a_newer_ledger_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "l.sqlite"
    SqliteLedger(path).close()
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    raw.commit()
    raw.close()
    with pytest.raises(LedgerError, match="newer than this program"):
        SqliteLedger(path)


def test_a_file_that_is_not_a_ledger_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "junk.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(LedgerError, match="junk.sqlite"):
        SqliteLedger(path)
