"""The pit map's refresh on a long ledger: the whole ledger read afresh at each look (`pit_map`)
against the map following its tables (`PitWatch`), whose later looks read only what the tables
recorded since: with nothing new, and after one more round. One house-banked High Card Flush
table played by the demo's players in `--shifts` shifts (as `bench/shifts.py` builds it); medians
of `--repeat` runs, each measure in turn within a repeat.

    python bench/pit_map.py [--rounds 3000] [--shifts 3] [--repeat 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from shifts import build  # noqa: E402

from dealer_tui.accounting.pit_map import PitWatch, pit_map  # noqa: E402
from dealer_tui.accounting.theoretical import THEORY_HANDS, Theory  # noqa: E402
from dealer_tui.demo import play, seat_players  # noqa: E402
from dealer_tui.games import GAMES
from dealer_tui.ledger import SqliteLedger  # noqa: E402
from dealer_tui.rounds.cards import VirtualShoe  # noqa: E402
from rules.profiles.loader import ProfileLibrary  # noqa: E402
from tests.staff_support import staffed, staffed_table  # noqa: E402


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
        build(path, args.rounds, args.shifts)
        ledger = SqliteLedger(path)
        theory = Theory(GAMES, Path(tmp) / "edges.json", hands=args.hands)
        crew = staffed(ledger)
        extra = staffed_table(ledger, "Extra", ProfileLibrary().find("high-card-flush"), VirtualShoe.seeded_with(2),
                              seats=7)
        seat_players(extra, 4)
        now = datetime.now(UTC)
        pit_map(ledger, theory, now)  # the house edge simulated and cached before the timing
        rng = random.Random(3)
        times: dict[str, list[float]] = {"read afresh": [], "followed, first look": [], "followed, nothing new": [],
                                         "followed, one round more": []}
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            fresh = pit_map(ledger, theory, now)
            times["read afresh"].append(time.perf_counter() - t0)
            watch = PitWatch(ledger, theory)
            t0 = time.perf_counter()
            watch.glances(now)
            times["followed, first look"].append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            assert watch.glances(now) == fresh
            times["followed, nothing new"].append(time.perf_counter() - t0)
            play(extra, 1, rng, approve=crew.approver())
            t0 = time.perf_counter()
            watch.glances(now)
            times["followed, one round more"].append(time.perf_counter() - t0)
        ledger.close()
    medians = {name: statistics.median(ts) for name, ts in times.items()}
    if args.json:
        print(json.dumps({"rounds": args.rounds, "shifts": args.shifts, "seconds": medians}))
        return 0
    base = medians["read afresh"]
    print(f"{args.rounds:,} rounds in {args.shifts} shift(s) (and a second table); medians of {args.repeat}:")
    for name, seconds in medians.items():
        print(f"  {name:26} {seconds * 1000:9.2f} ms  {base / seconds:8.1f}x faster than read afresh")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
