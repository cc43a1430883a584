"""Chinese Poker benchmarks: settle throughput, legal-setting enumeration, `suggest` speed, quality.

    python bench/chinese_poker.py                 # everything below except calibrate
    python bench/chinese_poker.py settle          # settle --jsonl on 10,000 four-player rounds
    python bench/chinese_poker.py enumerate       # legal_settings per hand, brute-force cross-check
    python bench/chinese_poker.py suggest         # suggest per hand
    python bench/chinese_poker.py quality         # suggest against simpler setters, duplicate deals
    python bench/chinese_poker.py calibrate       # regenerate the reference quantiles of suggest

Targets: settle >= 3,000 rounds/s, enumeration <= 5 ms per hand, suggest <= 50 ms per hand.
Every deal is seeded, so figures are reproducible (timings aside).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from itertools import combinations
from pathlib import Path

import numpy as np

from rules.cards import Card, Shoe
from rules.games.chinese_poker.rules import (
    ScoringTerms,
    SetHand,
    foul_reason,
    judge,
    natural_of,
    row_values,
    score_pair,
)
from rules.games.chinese_poker.setting import (
    SPLITS,
    LegalSettings,
    RowReference,
    default_profile,
    expected_points,
    legal_settings,
    suggest,
)
from rules.profiles.loader import ProfileLibrary
from rules.settle import settle_round

Setter = Callable[[tuple[Card, ...]], SetHand]


def deals(seed: int, count: int) -> list[tuple[tuple[Card, ...], ...]]:
    """`count` seeded deals of four 13-card hands (CP-1)."""
    shoe = Shoe.seeded_with(seed)
    out = []
    for _ in range(count):
        shoe.shuffle()
        out.append(tuple(shoe.deal(13) for _ in range(4)))
    return out


# --- settle ---------------------------------------------------------------------------------


def _quick_setting(cards: tuple[Card, ...], rng: random.Random) -> SetHand:
    """A cheap setting for load tests: by rank (usually legal) or at random (often fouled)."""
    ordered = (
        sorted(cards, key=lambda c: (c.rank, c.suit))
        if rng.random() < 0.7
        else rng.sample(cards, 13)
    )
    return SetHand(tuple(ordered[:3]), tuple(ordered[3:8]), tuple(ordered[8:]))


def settle_rounds(count: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    scorings = ("basic", "mandarin", "super_bonus")
    lines = []
    for hands in deals(seed, count):
        players = []
        for seat, cards in enumerate(hands, start=1):
            hand = _quick_setting(cards, rng)
            row = {
                "seat": seat,
                "stack": rng.choice((100, 200, 500, 1000)),
                "front": " ".join(c.text for c in hand.front),
                "middle": " ".join(c.text for c in hand.middle),
                "back": " ".join(c.text for c in hand.back),
            }
            if natural_of(hand) is not None:
                row["natural"] = True
            players.append(row)
        request = {
            "game": "chinese-poker",
            "scoring": rng.choice(scorings),
            "point_value": 5,
            "button": rng.randint(1, 4),
            "players": players,
        }
        lines.append(json.dumps(request))
    return lines


def bench_settle(count: int, repeats: int = 3) -> None:
    """The command on a file of `count` rounds (start-up included, output piped to memory), and
    the settler in-process (decode, settle, encode per line as the command does); best of
    `repeats` runs each, wall clock and CPU time."""
    lines = settle_rounds(count)
    lib = ProfileLibrary()
    results = [settle_round(json.loads(line), lib) for line in lines]
    fouled = sum(p["fouled"] for r in results for p in r["players"])
    naturals = sum(p["natural"] is not None for r in results for p in r["players"])
    short = sum(bool(r["unpaid"]) for r in results)
    wall = cpu = math.inf
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        for line in lines:
            json.dumps(settle_round(json.loads(line), lib))
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as tmp:
        tmp.write("\n".join(lines) + "\n")
    command = [sys.executable, "-m", "dealer_tui.cli", "settle", "--jsonl", tmp.name]
    end_to_end = math.inf
    for _ in range(repeats):
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        end_to_end = min(end_to_end, time.perf_counter() - start)
    Path(tmp.name).unlink()
    out_lines = done.stdout.splitlines()
    errors = sum('"error"' in line for line in out_lines)
    print(
        f"settle: {count:,} four-player rounds ({fouled:,} fouled hands, {naturals} naturals, "
        f"{short:,} rounds with a table-stakes shortfall), best of {repeats}"
    )
    print(
        f"  in process : {count / wall:,.0f} rounds/s wall, {count / cpu:,.0f} rounds/s CPU "
        f"({wall * 1e6 / count:.0f} us/round)"
    )
    print(
        f"  subprocess : {count / end_to_end:,.0f} rounds/s end to end, exit {done.returncode}, "
        f"{len(out_lines):,} lines, {errors} errors (target >= 3,000 rounds/s)"
    )


# --- enumeration ----------------------------------------------------------------------------


def brute_force(cards: tuple[Card, ...]) -> set[tuple[frozenset[Card], ...]]:
    """Every legal setting found one split at a time with the rules' own foul check."""
    found = set()
    for back in combinations(cards, 5):
        rest = [c for c in cards if c not in back]
        for middle in combinations(rest, 5):
            front = tuple(c for c in rest if c not in middle)
            if foul_reason(SetHand(front, middle, back)) is None:
                found.add((frozenset(front), frozenset(middle), frozenset(back)))
    return found


def bench_enumerate(count: int, checks: int) -> None:
    hands = [d[0] for d in deals(11, count)]
    start = time.perf_counter()
    legal_settings(hands[0])
    first = time.perf_counter() - start
    times = []
    sizes = []
    for cards in hands:
        start = time.perf_counter()
        legal = legal_settings(cards)
        times.append(time.perf_counter() - start)
        sizes.append(len(legal))
    print(f"enumerate: {count} hands, all {SPLITS:,} splits each")
    print(f"  first call (index tables built once): {first * 1e3:.0f} ms")
    print(
        f"  mean {statistics.mean(times) * 1e3:.2f} ms, "
        f"median {statistics.median(times) * 1e3:.2f} ms, "
        f"p99 {sorted(times)[int(0.99 * count)] * 1e3:.2f} ms per hand (target <= 5 ms)"
    )
    print(
        f"  legal settings per hand: mean {statistics.mean(sizes):,.0f}, "
        f"min {min(sizes):,}, max {max(sizes):,}"
    )
    for cards in hands[:checks]:
        legal = legal_settings(cards)
        mine = {
            (frozenset(h.front), frozenset(h.middle), frozenset(h.back)) for h in legal.settings()
        }
        expected = brute_force(cards)
        status = "ok" if mine == expected else "MISMATCH"
        shown = " ".join(c.text for c in cards)
        print(f"  brute force {shown}: {len(expected):,} legal, enumeration {len(mine):,} {status}")


# --- suggest --------------------------------------------------------------------------------


def bench_suggest(count: int) -> None:
    hands = [d[0] for d in deals(13, count)]
    suggest(hands[0])
    times = []
    naturals = 0
    for cards in hands:
        start = time.perf_counter()
        s = suggest(cards)
        times.append(time.perf_counter() - start)
        naturals += s.natural is not None
        assert foul_reason(s.hand) is None
    print(f"suggest: {count} hands, {naturals} holding a natural")
    print(
        f"  mean {statistics.mean(times) * 1e3:.2f} ms, "
        f"median {statistics.median(times) * 1e3:.2f} ms, "
        f"max {max(times) * 1e3:.2f} ms per hand (target <= 50 ms)"
    )


def greedy(cards: tuple[Card, ...]) -> SetHand:
    """Baseline: the best back, then the best middle of what is left, the rest in front."""
    legal = legal_settings(cards)
    return legal.setting(_lexmax(legal))


def _lexmax(legal: LegalSettings) -> int:
    """The legal setting with the highest back, then middle, then front."""
    return int(np.lexsort(legal.row_values())[-1])


def rows_only(cards: tuple[Card, ...]) -> SetHand:
    """Ablation: the sum of row win chances only (no scoop, no royalties in the objective)."""
    profile = default_profile().model_copy(update={"scoring": "basic"})
    return suggest(cards, profile).hand


def duplicate_match(
    deal_count: int, seed: int, first: Setter, second: Setter, terms: ScoringTerms
) -> tuple[float, float]:
    """Heads-up duplicate: both setters play both hands of each deal. Mean points per hand won
    by `first`, and its standard error."""
    results = []
    for hands in deals(seed, deal_count):
        a_cards, b_cards = hands[0], hands[1]
        total = 0
        for mine, theirs in ((a_cards, b_cards), (b_cards, a_cards)):
            ours = judge(1, first(mine), terms)
            other = judge(2, second(theirs), terms)
            total += score_pair(ours, other, terms).points
        results.append(total / 2)
    mean = statistics.mean(results)
    return mean, statistics.stdev(results) / math.sqrt(len(results))


def bench_quality(deal_count: int) -> None:
    terms = ScoringTerms.of(default_profile())
    print(f"quality: heads-up duplicate deals, mandarin scoring, {deal_count} deals each")
    matchups: list[tuple[str, Setter, Setter]] = [
        ("suggest v greedy", lambda c: suggest(c).hand, greedy),
        ("suggest v rows-only", lambda c: suggest(c).hand, rows_only),
        ("rows-only v greedy", rows_only, greedy),
    ]
    for name, first, second in matchups:
        mean, err = duplicate_match(deal_count, 17, first, second, terms)
        print(f"  {name}: {mean:+.3f} ± {err:.3f} points per hand to the first")


# --- calibration ----------------------------------------------------------------------------


def _rows_of(
    setter: Setter, hands: list[tuple[Card, ...]]
) -> tuple[list[int], list[int], list[int]]:
    rows: tuple[list[int], list[int], list[int]] = ([], [], [])
    for cards in hands:
        for row, value in zip(rows, row_values(setter(cards)), strict=True):
            assert value is not None
            row.append(value)
    return rows


def calibrate(hand_count: int, rounds: int) -> None:
    hands = [h for d in deals(23, (hand_count + 3) // 4) for h in d][:hand_count]
    reference = RowReference.from_values(_rows_of(greedy, hands))
    terms = ScoringTerms.of(default_profile())
    for i in range(rounds):

        def setter(cards: tuple[Card, ...], ref: RowReference = reference) -> SetHand:
            legal = legal_settings(cards)
            return legal.setting(int(np.argmax(expected_points(legal, terms, ref))))

        reference = RowReference.from_values(_rows_of(setter, hands))
        print(f"# round {i + 1} of {rounds} done", file=sys.stderr)
    print(f"# {hand_count} hands, {rounds} rounds from the greedy setter")
    print("_REFERENCE: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] = (")
    for q in reference.quantiles:
        values = [str(int(v)) for v in q]
        print("    (")
        for i in range(0, len(values), 10):
            print("        " + ", ".join(values[i : i + 10]) + ",")
        print("    ),")
    print(")")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "what",
        nargs="?",
        default="all",
        choices=("all", "settle", "enumerate", "suggest", "quality", "calibrate"),
    )
    parser.add_argument(
        "--rounds", type=int, default=10_000, help="settle: rounds (default 10,000)"
    )
    parser.add_argument(
        "--hands", type=int, default=1_000, help="enumerate/suggest: hands (default 1,000)"
    )
    parser.add_argument(
        "--checks", type=int, default=3, help="enumerate: hands cross-checked by brute force"
    )
    parser.add_argument(
        "--deals", type=int, default=2_000, help="quality: duplicate deals per match-up"
    )
    parser.add_argument("--calibration-hands", type=int, default=8_000)
    parser.add_argument("--calibration-rounds", type=int, default=3)
    args = parser.parse_args(argv)
    run_all = args.what == "all"
    if run_all or args.what == "settle":
        bench_settle(args.rounds)
    if run_all or args.what == "enumerate":
        bench_enumerate(args.hands, args.checks)
    if run_all or args.what == "suggest":
        bench_suggest(args.hands)
    if run_all or args.what == "quality":
        bench_quality(args.deals)
    if args.what == "calibrate":
        calibrate(args.calibration_hands, args.calibration_rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
