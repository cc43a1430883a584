"""Throughput of High Card Flush settlement: `dealer-tui settle --jsonl` end to end and in-process.

    python bench/settle_hcf.py [--rounds 10000] [--seed 7] [--keep FILE]

Deals seeded six-player rounds (both profiles, every rake mode, random bonus bets, folds and
raises within HCF-6), writes them as JSON Lines, then times
1. the command in a subprocess, start-up included, output discarded;
2. the settler in-process (JSON decode, settle, JSON encode per line, as the command does).
Target: 5,000 rounds/s or better.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rules.cards import Shoe, format_cards
from rules.high_card_flush import flush_key, flush_length, raise_bounds
from rules.profiles.loader import ProfileLibrary
from rules.settle import settle_round

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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", type=Path, help="also write the rounds to this file")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    lines = [json.dumps(deal_round(rng)) for _ in range(args.rounds)]
    text = "\n".join(lines) + "\n"
    if args.keep:
        args.keep.write_text(text, encoding="utf-8")

    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", encoding="utf-8", delete=False) as tmp:
        tmp.write(text)
    path = Path(tmp.name)
    try:
        start = time.perf_counter()
        done = subprocess.run(
            ["dealer-tui", "settle", "--jsonl", str(path)], capture_output=True, text=True, check=False
        )
        cli_seconds = time.perf_counter() - start
    finally:
        path.unlink()
    out_lines = done.stdout.splitlines()
    errors = [line for line in out_lines if '"error"' in line[:20]]
    if done.returncode != 0 or len(out_lines) != args.rounds or errors:
        print(f"command failed: status {done.returncode}, {len(out_lines)} lines, {len(errors)} errors",
              errors[:3], done.stderr[-500:], file=sys.stderr)
        return 1

    library = ProfileLibrary([])
    start = time.perf_counter()
    for line in lines:
        json.dumps(settle_round(json.loads(line), library))
    lib_seconds = time.perf_counter() - start

    for label, seconds in (("dealer-tui settle --jsonl (subprocess, start-up included)", cli_seconds),
                           ("in-process (decode + settle + encode)", lib_seconds)):
        print(f"{label}: {args.rounds} rounds in {seconds:.3f} s = {args.rounds / seconds:,.0f} rounds/s")
    rate = args.rounds / cli_seconds
    print(f"target {TARGET:,} rounds/s end to end: {'met' if rate >= TARGET else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
