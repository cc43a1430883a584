"""Throughput of High Card Flush settlement: `dealer-tui settle --jsonl` end to end and in-process.

    python bench/settle_hcf.py [--rounds 10000] [--seed 7] [--repeat 5] [--keep FILE]

Deals seeded six-player rounds (both profiles, every rake mode, random bonus bets, folds and
raises within HCF-6), writes them as JSON Lines, then times, `--repeat` times each, medians:
1. the command in a subprocess, start-up included, output discarded;
2. the command's start-up alone (the same command on the first round only);
3. the settler in-process (JSON decode, settle, JSON line per round, as the command does).
Target: 5,000 rounds/s or better end to end.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from dealer_tui.commands.settle import decode
from rules.cards import Shoe, format_cards
from rules.high_card_flush import flush_key, flush_length, raise_bounds
from rules.profiles.loader import ProfileLibrary
from rules.settle import settle_json

TARGET = 5000


def deal_round(rng: random.Random) -> dict[str, Any]:
    """One finished six-player round: 80% card room (DP on a random seat of 7), 20% casino."""
    shoe = Shoe(rng, seeded=True)
    casino = rng.random() < 0.2
    seats = list(range(1, 8))
    dp_seat = rng.choice(seats)
    player_seats = seats[:6] if casino else [s for s in seats if s != dp_seat]
    banker_cards = shoe.deal(7)
    players = []
    for seat in player_seats:
        cards = shoe.deal(7)
        ante = rng.choice((5, 10, 25, 50, 100))
        length = flush_length(flush_key(c.index for c in cards))
        low, high = raise_bounds(ante, length)
        raised = 0 if length <= 3 and rng.random() < 0.4 else rng.randint(low, high)
        player: dict[str, Any] = {"seat": seat, "ante": ante, "raise": raised}
        if rng.random() < 0.5:
            player["flush"] = rng.randint(1, 100)
        if rng.random() < 0.5:
            player["straight_flush"] = rng.randint(1, 100)
        player["cards"] = format_cards(cards, sort=False)
        players.append(player)
    request: dict[str, Any] = {"game": "high-card-flush", "seats": 7, "players": players}
    if casino:
        request["profile"] = "high-card-flush-casino"
        request["banker"] = {"cards": format_cards(banker_cards, sort=False)}
    else:
        request["banker"] = {"seat": dp_seat, "stack": rng.choice((200, 1000, 5000, 20000)),
                             "cards": format_cards(banker_cards, sort=False)}
        request["rake"] = {"mode": rng.choice(("all", "players", "dp_only")), "amount": rng.choice((0, 1, 5))}
    return request


CPU_RUNS: list[float] = []
"""CPU seconds (user + system) of each full run: the work itself, whatever else the machine runs."""


def run_command(path: Path, rounds: int) -> float:
    """Seconds for `dealer-tui settle --jsonl path`; exits when a line fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(["dealer-tui", "settle", "--jsonl", str(path)], capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if rounds > 1:
        CPU_RUNS.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    out_lines = done.stdout.splitlines()
    errors = [line for line in out_lines if '"error"' in line[:20]]
    if done.returncode != 0 or len(out_lines) != rounds or errors:
        print(f"command failed: status {done.returncode}, {len(out_lines)} lines, {len(errors)} errors",
              errors[:3], done.stderr[-500:], file=sys.stderr)
        raise SystemExit(1)
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=5, help="runs of each timing (the median is quoted)")
    parser.add_argument("--keep", type=Path, help="also write the rounds to this file")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    lines = [json.dumps(deal_round(rng)) for _ in range(args.rounds)]
    text = "\n".join(lines) + "\n"
    if args.keep:
        args.keep.write_text(text, encoding="utf-8")

    with tempfile.TemporaryDirectory() as tmp:
        path, first = Path(tmp) / "rounds.jsonl", Path(tmp) / "first.jsonl"
        path.write_text(text, encoding="utf-8")
        first.write_text(lines[0] + "\n", encoding="utf-8")
        cli_runs, start_runs = [], []
        for _ in range(args.repeat):
            cli_runs.append(run_command(path, args.rounds))
            start_runs.append(run_command(first, 1))

    library = ProfileLibrary([])
    lib_runs = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        for line in lines:
            settle_json(decode(line), library, explain=False)
        lib_runs.append(time.perf_counter() - start)

    cli, start_up, lib = (statistics.median(runs) for runs in (cli_runs, start_runs, lib_runs))
    print(f"dealer-tui settle --jsonl (subprocess, start-up included): {args.rounds} rounds in {cli:.3f} s "
          f"= {args.rounds / cli:,.0f} rounds/s (median of {args.repeat}; "
          f"fastest {min(cli_runs):.3f} s, slowest {max(cli_runs):.3f} s)")
    cpu = statistics.median(CPU_RUNS)
    print(f"  CPU time of those runs (user + system, the work without waiting for the other core's load): "
          f"{cpu:.3f} s = {args.rounds / cpu:,.0f} rounds/s (median); load average {os.getloadavg()[0]:.2f}")
    print(f"start-up (the command on one round): {start_up:.3f} s")
    print(f"in-process (decode + settle + JSON line): {args.rounds} rounds in {lib:.3f} s "
          f"= {args.rounds / lib:,.0f} rounds/s, {lib / args.rounds * 1e6:.0f} µs a round")
    rate = args.rounds / cli
    print(f"target {TARGET:,} rounds/s end to end: {'met' if rate >= TARGET else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
