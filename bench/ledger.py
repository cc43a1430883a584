"""Ledger benchmarks: one event append with synchronous writes (against a raw fsync on the same
disk, so the figure reads on any machine), and `history list` over a ledger of a million rounds.

    python bench/ledger.py [--appends 500] [--rounds 1000000] [--dir DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from dealer_tui.ledger import NewEvent, SqliteLedger


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def raw_fsync(directory: Path, n: int) -> list[float]:
    path = directory / "fsync.probe"
    fd = os.open(path, os.O_CREAT | os.O_WRONLY, 0o600)
    out = []
    try:
        for _ in range(n):
            os.write(fd, b"x" * 200)
            start = time.perf_counter()
            os.fsync(fd)
            out.append(time.perf_counter() - start)
    finally:
        os.close(fd)
        path.unlink()
    return out


def appends(directory: Path, n: int) -> list[float]:
    ledger = SqliteLedger(directory / "append.sqlite")
    table = ledger.create_table("Bench", "high-card-flush", "high-card-flush", "0" * 64, "shoe")
    rnd = ledger.open_round(table.id, "high-card-flush", "high-card-flush", [])
    out = []
    for i in range(n):
        event = NewEvent("player_acted", {"seat": i % 6 + 1, "raise": 10})
        start = time.perf_counter()
        ledger.append(table.id, rnd.id, [event])
        out.append(time.perf_counter() - start)
    ledger.close()
    return out


def fill(path: Path, rounds: int, batch: int = 20_000) -> float:
    """A million-round ledger the fast way: one transaction per batch of plain rows."""
    ledger = SqliteLedger(path)
    table = ledger.create_table("Bulk", "high-card-flush", "high-card-flush", "0" * 64, "shoe")
    db = ledger._db
    start = time.perf_counter()
    for first in range(0, rounds, batch):
        rows = [(table.id, n + 1, "high-card-flush", "high-card-flush", "settled", "",
                 f"2026-01-01T00:00:{n % 60:02d}", None, 6, 120, 100, 20)
                for n in range(first, min(rounds, first + batch))]
        db.execute("BEGIN")
        db.executemany("INSERT INTO rounds(table_id, number, game, profile, status, flags, started_at, ended_at,"
                       " seats, wagered, paid, house_result) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", rows)
        db.execute("COMMIT")
    ledger.close()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--appends", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        directory = Path(tmp)
        fs = raw_fsync(directory, args.appends)
        ap = appends(directory, args.appends)
        big = directory / "million.sqlite"
        filled = fill(big, args.rounds)
        ledger = SqliteLedger(big, readonly=True)
        page = []
        for _ in range(20):
            start = time.perf_counter()
            ledger.recent_rounds(limit=20)
            page.append(time.perf_counter() - start)
        ledger.close()
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "dealer_tui.cli", "history", "list", "--ledger", str(big)],
                       check=True, capture_output=True)
        command = time.perf_counter() - start
    result = {
        "append_median_ms": statistics.median(ap) * 1e3, "append_p95_ms": percentile(ap, 0.95) * 1e3,
        "fsync_median_ms": statistics.median(fs) * 1e3, "fsync_p95_ms": percentile(fs, 0.95) * 1e3,
        "append_over_fsync": statistics.median(ap) / statistics.median(fs),
        "fill_rounds": args.rounds, "fill_seconds": filled,
        "first_page_query_ms": statistics.median(page) * 1e3,
        "history_list_command_ms": command * 1e3,
    }
    if not args.json:
        for key, value in result.items():
            print(f"{key:>26}: {value:,.3f}" if isinstance(value, float) else f"{key:>26}: {value:,}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
