"""A table's terminal as a process of its own, for the pit's fault tests and its benchmark: it
plays `rounds` rounds of High Card Flush with the demo's players at a table of its own ledger,
its delivery thread taking each event to the pit server as the table plays, then stops cleanly.

    python -m tests.pit_terminal LEDGER URL ROUNDS SEED [PAUSE_S]

Each round's number is printed as it ends (a test waits for a few before it kills the process)."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

from dealer_tui.demo import play, seat_players
from dealer_tui.games import GAMES
from dealer_tui.ledger import SqliteLedger
from dealer_tui.pit.delivery import DeliveryThread
from dealer_tui.rounds.cards import VirtualShoe
from dealer_tui.rounds.table import Table
from rules.profiles.loader import ProfileLibrary
from tests.staff_support import quick_pins, staffed


def main(argv: list[str]) -> int:
    path, url, rounds, seed = Path(argv[0]), argv[1], int(argv[2]), int(argv[3])
    pause = float(argv[4]) if len(argv) > 4 else 0.0
    quick_pins()
    ledger = SqliteLedger(path)
    crew = staffed(ledger)
    loaded = ProfileLibrary([]).find("high-card-flush")
    tables = ledger.tables()
    if tables:
        table = Table.open(ledger, tables[0], GAMES.find(loaded.game), loaded, VirtualShoe.seeded_with(seed))
    else:
        table = Table.create(ledger, f"Table {seed}", GAMES.find(loaded.game), loaded, VirtualShoe.seeded_with(seed), seats=7)
    crew.deal(table)
    seat_players(table, 4)
    link = DeliveryThread(path, url, f"terminal-{seed}", poll=0.05)
    link.start()

    def ended(number: int) -> None:
        print(number, flush=True)
        if pause:
            time.sleep(pause)

    play(table, rounds, random.Random(seed), ended, crew.approver())
    link.stop(timeout=60)
    table.close()
    ledger.close()
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
