"""The shift report against the floor's totals and `history verify` on the same ledger: a house-
banked High Card Flush table whose rounds are played through the real table (the demo's players)
in `--shifts` shifts with their fills, credits, closers and drop counts; each measure's median of
`--repeat` runs, run in turn within each repeat, with the ratio to the totals query.

    python bench/shifts.py [--rounds 3000] [--shifts 3] [--repeat 5] [--json]

The theoretical win's house edge is simulated once and cached before the timing (a cold cache adds
the simulation: `--hands`, 400,000 by default, about a second per profile).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dealer_tui.accounting.count import record_drop  # noqa: E402
from dealer_tui.accounting.shifts import shift_figures  # noqa: E402
from dealer_tui.accounting.theoretical import THEORY_HANDS, Theory  # noqa: E402
from dealer_tui.audit import verify_ledger  # noqa: E402
from dealer_tui.demo import play, seat_players  # noqa: E402
from dealer_tui.demo.shift import DemoShift  # noqa: E402
from dealer_tui.games import GAMES
from dealer_tui.ledger import RowQuery, SqliteLedger  # noqa: E402
from dealer_tui.rounds.cards import VirtualShoe  # noqa: E402
from dealer_tui.staff import COUNT_DROP, DEAL, TRAY  # noqa: E402
from rules.profiles.loader import ProfileLibrary  # noqa: E402
from tests.staff_support import (  # noqa: E402
    AUDITOR,
    AUDITOR_PIN,
    DEALER,
    DEALER_PIN,
    SUPERVISOR,
    SUPERVISOR_PIN,
    quick_pins,
    staffed,
    staffed_table,
)


def build(path: Path, rounds: int, shifts: int) -> None:
    quick_pins()
    ledger = SqliteLedger(path)
    crew = staffed(ledger)
    table = staffed_table(ledger, "Bench", ProfileLibrary().find("high-card-flush-casino"), VirtualShoe.seeded_with(1),
                          seats=6)
    shift = DemoShift(table, lambda: (crew.sign_in(DEALER, DEALER_PIN, DEAL, table),
                                      crew.sign_in(SUPERVISOR, SUPERVISOR_PIN, TRAY, table)),
                      lambda text: crew.sign_in(SUPERVISOR, SUPERVISOR_PIN, TRAY, table, text=text))
    rng = random.Random(1)
    for _ in range(shifts):
        shift.fills = shift.credits = 0
        shift.open(5)
        seat_players(table, 5, shift)
        play(table, rounds // shifts, rng, approve=crew.approver(), shift=shift)
        shift.credit()
        shift.close()
        closed = table.tray.shifts[-1]
        record_drop(ledger, table.record, closed.sold_cash + closed.before_cash,
                    closed.sold_marker + closed.before_marker, 0, crew.sign_in(AUDITOR, AUDITOR_PIN, COUNT_DROP, table))
    table.close()
    ledger.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3000)
    parser.add_argument("--shifts", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--hands", type=int, default=THEORY_HANDS)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite"
        started = time.perf_counter()
        build(path, args.rounds, args.shifts)
        built = time.perf_counter() - started
        ledger = SqliteLedger(path, readonly=True)
        theory = Theory(GAMES, Path(tmp) / "edges.json", hands=args.hands)
        shift_figures(ledger, theory)  # the house edge simulated and cached before the timing
        measures = {"shift report": lambda: shift_figures(ledger, Theory(GAMES, Path(tmp) / "edges.json", hands=args.hands)),
                    "floor totals": lambda: ledger.totals(RowQuery(training=True)),
                    "history verify": lambda: verify_ledger(ledger, GAMES)}
        times: dict[str, list[float]] = {name: [] for name in measures}
        for _ in range(args.repeat):
            for name, measure in measures.items():
                t0 = time.perf_counter()
                measure()
                times[name].append(time.perf_counter() - t0)
        ledger.close()
    medians = {name: statistics.median(ts) for name, ts in times.items()}
    base = medians["floor totals"]
    if args.json:
        print(json.dumps({"rounds": args.rounds, "shifts": args.shifts, "seconds": medians}))
        return 0
    print(f"{args.rounds:,} rounds in {args.shifts} shift(s), played in {built:.1f} s; medians of {args.repeat}:")
    for name, seconds in medians.items():
        print(f"  {name:15} {seconds * 1000:9.1f} ms  {seconds / base:6.2f}x the totals  "
              f"{seconds * 1000 / args.rounds * 1000:7.1f} ms per 1,000 rounds")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
