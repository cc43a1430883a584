"""An insider's tools against a terminal's ledger: SQL run on the file behind the terminal's back,
every chain hashed again after a change (as one who knows the hash scheme would), and `history
verify` run on the result."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from dealer_tui.cli import main
from dealer_tui.ledger.base import GENESIS, event_hash


def sql(path: Path, *statements: str, args: tuple[object, ...] = ()) -> None:
    db = sqlite3.connect(path)
    for statement in statements:
        db.execute(statement, args if "?" in statement else ())
    db.commit()
    db.close()


def one(path: Path, query: str, args: tuple[object, ...] = ()) -> tuple[object, ...]:
    db = sqlite3.connect(path)
    row = db.execute(query, args).fetchone()
    db.close()
    assert row is not None, query
    return tuple(row)


def verify(path: Path, capsys: pytest.CaptureFixture[str], witness: Path | None = None) -> tuple[int, str]:
    args = ["history", "verify", "--ledger", str(path)]
    if witness is not None:
        args += ["--witness", str(witness)]
    status = main(args)
    out, err = capsys.readouterr()
    return status, out + err


def fails(path: Path, capsys: pytest.CaptureFixture[str], *expected: str, witness: Path | None = None) -> str:
    status, out = verify(path, capsys, witness)
    assert status == 1, out
    for text in expected:
        assert text in out, out
    return out


def verify_in(language: str, path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """`dealer-tui --lang <language> history verify` of the ledger: it fails, and says why."""
    status = main(["--lang", language, "history", "verify", "--ledger", str(path)])
    out, err = capsys.readouterr()
    assert status == 1, out + err
    return out + err


def rehash(path: Path) -> None:
    """What an insider who knows the hash scheme does after a change: every table's chain hashed
    again from its start, each event over its ledger-wide number too."""
    db = sqlite3.connect(path)
    rows = db.execute("SELECT id, table_id, round_id, seq, ts, kind, payload, ledger_seq FROM events"
                      " ORDER BY table_id, seq").fetchall()
    prev: dict[int, str] = {}
    for event_id, table_id, round_id, seq, ts, kind, payload, ledger_seq in rows:
        before = prev.get(table_id, GENESIS)
        digest = event_hash(before, table_id, round_id, seq, ts, kind, json.loads(payload), ledger_seq)
        db.execute("UPDATE events SET prev_hash = ?, hash = ? WHERE id = ?", (before, digest, event_id))
        prev[table_id] = digest
    db.commit()
    db.close()
