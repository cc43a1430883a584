"""A headless terminal for the table-creation crash tests: sets up tables (each with two seated
players), and can kill itself with SIGKILL at a named point of a creation.

    python tests/create_driver.py LEDGER TABLES [HOOK]

HOOK is one of `before_create`, `inside_create` (in the creation's transaction, its table row
written, nothing committed), `after_create` (committed, no player seated yet), `after_seat`. It
prints `created N` after each table it sets up.
"""

from __future__ import annotations

import os
import random
import signal
import sys
from pathlib import Path
from typing import Any

from staff_support import quick_pins, staffed_table

from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.cards import VirtualShoe
from rules.profiles.loader import ProfileLibrary


def main() -> None:
    quick_pins()
    path, tables = Path(sys.argv[1]), int(sys.argv[2])
    hook = sys.argv[3] if len(sys.argv) > 3 else ""
    profile = ProfileLibrary([]).find("high-card-flush")
    ledger = SqliteLedger(path)

    def at(name: str) -> None:
        if name == hook:
            os.kill(os.getpid(), signal.SIGKILL)

    insert_events = ledger._insert_events

    def inserting(db: Any, table_id: int, round_id: int | None, events: Any) -> Any:
        if any(e.kind == "table_opened" for e in events):
            at("inside_create")
        return insert_events(db, table_id, round_id, events)

    ledger._insert_events = inserting  # type: ignore[method-assign]
    start = len(ledger.tables())
    for n in range(start + 1, start + tables + 1):
        at("before_create")
        table = staffed_table(ledger, f"Table {n}", profile, VirtualShoe(random.Random(n)), seats=7)
        at("after_create")
        table.seat_player(1, "Ann", 1000, document="passport X0000001")  # a day of many tables: over 10,000
        at("after_seat")
        table.seat_player(2, "Bob", 1000, document="passport X0000002")
        table.close()
        print(f"created {n}", flush=True)
    ledger.close()


if __name__ == "__main__":
    main()
