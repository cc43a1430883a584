"""Text anyone typed is printed with its control characters escaped (attack 8): a table named with
an escape sequence that would clear the screen and print "ALL TABLES OK" shows as the escape, in
a command's output and in a CSV export; a number no ledger can hold is one line, exit 2."""

from __future__ import annotations

import csv
import random
import sqlite3
from pathlib import Path

import pytest

from dealer_tui.cli import main
from dealer_tui.demo import play, seat_players
from dealer_tui.ledger import SqliteLedger
from dealer_tui.printable import csv_cell, shown_text
from dealer_tui.rounds.cards import VirtualShoe
from tests.pit_support import HCF
from tests.staff_support import staffed_table

HOSTILE = "\x1b[2J\x1b[HALL TABLES OK\u202e"


def hostile_ledger(path: Path) -> Path:
    ledger = SqliteLedger(path)
    table = staffed_table(ledger, "Main 1", HCF, VirtualShoe.seeded_with(3), seats=7)
    seat_players(table, 2)
    play(table, 1, random.Random(3))
    ledger.close()
    with sqlite3.connect(path) as db:                       # an insider names the table (its name is no event)
        db.execute("UPDATE tables SET name = ? WHERE name = 'Main 1'", (HOSTILE,))
    return path


def test_a_table_name_with_escape_sequences_is_printed_escaped(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = hostile_ledger(tmp_path / "l.sqlite")
    assert main(["history", "list", "--ledger", str(path)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\u202e" not in out
    assert "\\x1b[2J\\x1b[HALL TABLES OK\\u202e" in out
    assert main(["history", "export", "--csv", str(tmp_path / "rows.csv"), "--ledger", str(path)]) == 0
    with open(tmp_path / "rows.csv", newline="", encoding="utf-8") as rows:
        names = {row[1] for row in list(csv.reader(rows))[1:]}
    assert names == {"\\x1b[2J\\x1b[HALL TABLES OK\\u202e"}


def test_text_is_escaped_character_by_character() -> None:
    assert shown_text("Ann\tLee\n") == "Ann\tLee\n"                 # a tab and a line's end are text
    assert shown_text("a\x07b\x9bc\u200bd") == "a\\x07b\\x9bc\\u200bd"
    assert csv_cell("=1+1") == "'=1+1" and csv_cell("a\nb") == "a\\nb" and csv_cell(None) == "" and csv_cell(7) == 7


def test_a_number_no_ledger_can_hold_is_one_line_and_exit_2(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = hostile_ledger(tmp_path / "l.sqlite")
    with pytest.raises(SystemExit) as stopped:
        main(["history", "list", "--limit", "9" * 30, "--ledger", str(path)])
    assert stopped.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: argument --limit: must be a whole number from 1 to 1,000,000")
