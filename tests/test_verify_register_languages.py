"""`history verify --lang` tells an auditor what is wrong with the staff register and with the
ledger against its witness in their language: the event, the account and the figures named as
they are, the words around them translated, while the English stays what it always was."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from dealer_tui.cli import main
from dealer_tui.ledger import SqliteLedger
from dealer_tui.ledger.witness import default_witness_path
from dealer_tui.staff.pins import hash_pin
from tests.insider_support import rehash, verify_in
from tests.staff_support import demo, staffed

pytestmark = pytest.mark.usefixtures("staff_pins")


def test_an_account_rewritten_behind_the_managers_back_is_told_in_the_readers_language(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """S1's PIN replaced in place with one the insider knows, the chains hashed again: the
    manager's signature over S1's creation no longer checks, and verify says so in Russian,
    naming the register's event and M1 as they are."""
    path = tmp_path / "ledger.sqlite"
    ledger = SqliteLedger(path)
    staffed(ledger)
    ledger.close()
    with sqlite3.connect(path) as db:
        event_id, seq, payload = db.execute("SELECT id, ledger_seq, payload FROM events WHERE kind = 'staff_added' "
                                            "AND payload LIKE ?", ('%"account": "S1"%',)).fetchone()
        data = {**json.loads(payload), "pin": hash_pin("192837465").to_payload()}
        db.execute("UPDATE events SET payload = ? WHERE id = ?", (json.dumps(data), event_id))
    db.close()
    rehash(path)

    out = verify_in("en", path, capsys)
    assert (f"staff register, event {seq} (staff_added): its signature is not M1's: written without M1's PIN "
            "(it stands for nothing)") in out
    out = verify_in("ru", path, capsys)
    assert (f"реестр персонала, событие {seq} (staff_added): его подпись — не подпись M1: записано без PIN-кода M1 "
            "(не имеет силы)") in out
    assert "its signature" not in out


def test_a_ledger_rolled_back_behind_its_witness_is_told_in_the_readers_language(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The demo's last round cut out of the ledger (its events, its row): the witness still holds
    the table's last event, and verify names the table, that event and the ledger's last in
    Russian."""
    path = tmp_path / "ledger.sqlite"
    assert main(demo("--game", "high-card-flush", "--rounds", "3", "--seed", "1", "--ledger", str(path))) == 0
    capsys.readouterr()
    held = json.loads(default_witness_path(path).read_text())
    head = next(h for h in held["tables"] if h["table"] == 1)
    with sqlite3.connect(path) as db:
        name = db.execute("SELECT name FROM tables WHERE id = 1").fetchone()[0]
        db.execute("DELETE FROM events WHERE table_id = 1 AND seq >= (SELECT MIN(seq) FROM events WHERE round_id = 3)")
        for table in ("settlements", "round_flags"):
            db.execute(f"DELETE FROM {table} WHERE round_id = 3")
        db.execute("DELETE FROM rounds WHERE id = 3")
        last = db.execute("SELECT MAX(ledger_seq) FROM events").fetchone()[0]
    db.close()
    witness_seq = head["ledger_seq"]

    out = verify_in("en", path, capsys)
    assert (f"table 1 ({name}): the ledger is behind its witness: the witness holds event {witness_seq} as this "
            f"table's last, the ledger has no event {witness_seq} (its last is {last})") in out
    out = verify_in("ru", path, capsys)
    assert (f"стол 1 ({name}): журнал отстаёт от своего свидетеля: свидетель хранит событие {witness_seq} как "
            f"последнее для этого стола, а в журнале нет события {witness_seq} (его последнее — {last}): обрезка, "
            "удалённые раунды или более старая копия") in out
    assert "behind its witness" not in out
