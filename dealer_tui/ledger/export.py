"""The settlement rows of a query's rounds as CSV: the one export the floor's screen and
`history export` share (the ledger's data only; no game code). The columns are codes and
figures; each row's reason is written in the reader's language."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from dealer_tui.language import told
from dealer_tui.ledger.base import Ledger, RowQuery
from dealer_tui.printable import csv_cell
from rules.said import say

CSV_COLUMNS = ("round_id", "table", "round", "time", "game", "profile", "seat", "bet", "stake", "result",
               "reason", "flags")


def write_rows(ledger: Ledger, query: RowQuery, out: TextIO) -> int:
    """One CSV row per seat per bet of the query's rounds; the number of rows written."""
    import csv

    tables = {t.id: t.name for t in ledger.tables()}
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    count = 0
    for record, row in ledger.settlement_rows(query):
        writer.writerow([csv_cell(v) for v in (
            record.id, tables.get(record.table_id, ""), record.number, record.started_at, record.game, record.profile,
            row.seat, row.bet, row.stake, row.result, told(row.reason), ";".join(sorted(record.flags)))])
        count += 1
    return count


def export_csv(ledger: Ledger, query: RowQuery, target: Path) -> int:
    """Write the rows to `target` through a `.part` file, so nothing is ever half-written; OSError
    (with a plain `strerror`: the system's words, or a sentence, `say`) when the path cannot be written."""
    if not str(target).strip():
        raise OSError(0, say("a file name is needed"))
    if target.is_dir():
        raise OSError(0, say("is a folder: add a file name"))
    tmp = target.with_name(target.name + ".part")
    try:
        with open(tmp, "w", newline="", encoding="utf-8") as out:
            count = write_rows(ledger, query, out)
        tmp.replace(target)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise
    return count
