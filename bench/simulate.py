"""The house-edge simulator: speed, parallel speed-up, and exact anchors to check it against.

    python bench/simulate.py                      # timing (below) on 10,000,000 HCF hands
    python bench/simulate.py timing [--hands N]   # one process, then --workers 2; "1 or 5"; Chinese Poker
    python bench/simulate.py exact                # exact High Card Flush figures (about 3 minutes)

timing: `dealer-tui simulate high-card-flush --profile high-card-flush-casino --strategy
mousseau` in-process, wall-clock and CPU seconds, once with one process and once with two
workers (the two results must be equal), then 1,000,000 "1 or 5" hands and 100 four-player
Chinese Poker deals. Target: 10,000,000 HCF hands in 20 s or less in one process.

exact: every 7-card player hand (by suit pattern, 15.6 million up to suit order) against
every 7-card banker hand from the other 45 cards, counted, not sampled: for each player hand
the banker hands below a flush key are counted suit by suit (how many c-card subsets of a
suit's remaining ranks make a key below the threshold) and combined over the ways to split 7
cards among the suits. Gives the exact house edge of `mousseau`, of `never-fold`, of the
best play knowing all 7 cards, and of the best play knowing only the flush (which is
`mousseau` itself), the banker's qualifying rate (HCF-7's 75.3637%), the flush-length and
straight-flush-length distributions, and the casino bonus bets' edges (HCF-20).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import time
from collections import defaultdict
from typing import Any

import numpy as np

from rules.games.high_card_flush.rules import FLUSH_KEYS, QUALIFYING_KEY
from rules.games.high_card_flush.simulate import STRATEGIES
from rules.profiles.loader import ProfileLibrary
from rules.simulate import Options, simulate

TARGET_SECONDS = 20.0
PUBLISHED = {"mousseau": 0.0275, "optimal": 0.026855}
"""Wizard of Odds: optimal play 2.6855%; `mousseau` reported about 0.06% worse."""


# timing ----------------------------------------------------------------------------------------


def _timed(game: str, profiles: list[str], strategy: str, hands: int, seed: int, workers: int,
           options: Options | None = None) -> dict[str, Any]:
    lib = ProfileLibrary()
    loaded = [lib.find(name, game=game) for name in profiles]
    wall, cpu = time.perf_counter(), time.process_time()
    children = _children_cpu()
    report = simulate(game, loaded, strategy, hands, seed, workers=workers, options=options or Options())
    wall = time.perf_counter() - wall
    cpu = time.process_time() - cpu + _children_cpu() - children
    first = report.profiles[0]
    return {"game": game, "hands": hands, "workers": workers, "seconds": round(wall, 2),
            "cpu_seconds": round(cpu, 2), "per_second": round(hands / wall),
            "house_edge": first.house_edge.value, "ci95": list(first.house_edge.ci95), "report": report.to_dict()}


def _children_cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timing(hands: int, seed: int) -> dict[str, Any]:
    casino = ["high-card-flush-casino"]
    one = _timed("high-card-flush", casino, "mousseau", hands, seed, 1)
    print(f"HCF, 1 process: {hands:,} hands in {one['seconds']} s ({one['per_second']:,}/s, "
          f"cpu {one['cpu_seconds']} s); house edge {one['house_edge']:.4%} "
          f"({one['ci95'][0]:.4%} to {one['ci95'][1]:.4%}); target <= {TARGET_SECONDS} s: "
          f"{'met' if one['seconds'] <= TARGET_SECONDS else 'MISSED'}")
    two = _timed("high-card-flush", casino, "mousseau", hands, seed, 2)
    same = one["report"] == two["report"]
    print(f"HCF, 2 workers: {two['seconds']} s ({two['per_second']:,}/s, cpu {two['cpu_seconds']} s); "
          f"speed-up {one['seconds'] / two['seconds']:.2f}x; same result as 1 process: {same}")
    edge = one["report"]["figures"]
    print(f"  anchors: mousseau exact 2.7114% (bench exact), published ~{PUBLISHED['mousseau']:.2%}; "
          f"banker qualifies {edge['banker_qualifies']['value']:.5%} (exact 75.36373%)")
    five = _timed("one-or-five", ["one-or-five"], "basic", 1_000_000, seed, 1)
    print(f'"1 or 5", basic: 1,000,000 hands in {five["seconds"]} s ({five["per_second"]:,}/s); '
          f"house edge {five['house_edge']:.3%} ({five['ci95'][0]:.3%} to {five['ci95'][1]:.3%})")
    cp = _timed("chinese-poker", ["chinese-poker"], "suggest", 100, seed, 1, Options(players=4))
    print(f"Chinese Poker, suggest, 4 players: 100 deals in {cp['seconds']} s ({cp['per_second']:,} deals/s)")
    for run in (one, two, five, cp):
        del run["report"]
    return {"hcf_one_process": one, "hcf_two_workers": two, "same_result": same, "one_or_five": five,
            "chinese_poker": cp}


# exact ------------------------------------------------------------------------------------------

_FK = np.array(FLUSH_KEYS, dtype=np.int64)
_POP = np.array([m.bit_count() for m in range(1 << 13)], dtype=np.int64)
_COMB = np.array([[math.comb(n, k) for k in range(16)] for n in range(16)], dtype=np.int64)
_MASKS = [np.array([m for m in range(1 << 13) if m.bit_count() == c], dtype=np.int64) for c in range(8)]
BANKER_HANDS = math.comb(45, 7)


def _comb(n: np.ndarray, k: np.ndarray) -> np.ndarray:
    ok = (k >= 0) & (k <= n)
    return np.where(ok, _COMB[np.clip(n, 0, 15), np.clip(k, 0, 15)], 0)


def _subsets_below(avail: np.ndarray, size: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """How many `size`-card subsets of the ranks `avail` have a rank mask below `mask`: at the
    highest rank where they differ, `mask` holds the rank and the subset does not."""
    total = np.zeros(len(avail), dtype=np.int64)
    for b in range(13):
        above = mask >> (b + 1)
        here = ((mask >> b) & 1 == 1) & ((above & ~(avail >> (b + 1))) == 0)
        total += np.where(here, _comb(_POP[avail & ((1 << b) - 1)], size - _POP[above & 0x1FFF]), 0)
    return total


def _banker_below(avail: list[np.ndarray], threshold: np.ndarray) -> np.ndarray:
    """Banker hands (7 of the 45 other cards) whose flush key is below `threshold`, per player hand."""
    length, mask = threshold >> 13, threshold & 0x1FFF
    poly = None
    for a in avail:
        n = _POP[a]
        at_length = _subsets_below(a, length, mask)
        coeffs = np.stack([np.where(c < length, _comb(n, np.full_like(n, c)), np.where(c == length, at_length, 0))
                           for c in range(8)], axis=1)
        if poly is None:
            poly = coeffs
            continue
        product = np.zeros_like(poly)
        for i in range(8):
            for j in range(8 - i):
                product[:, i + j] += poly[:, i] * coeffs[:, j]
        poly = product
    assert poly is not None
    return poly[:, 7]


def _patterns() -> list[tuple[int, int, int, int]]:
    return [p for p in itertools.product(range(8), repeat=4) if sum(p) == 7 and list(p) == sorted(p, reverse=True)]


def _run_length(mask: int) -> int:
    ranks = {r for r in range(13) if mask >> r & 1} | ({-1} if mask >> 12 & 1 else set())
    return max((next(n for n in range(1, 15) if r + n not in ranks) for r in ranks if r - 1 not in ranks), default=0)


def exact() -> dict[str, Any]:
    """Every player hand (up to suit order, weighted) against every banker hand."""
    strategies = {name: rule for name, (_, rule) in STRATEGIES.items()}
    totals = dict.fromkeys([*strategies, "optimal"], 0)
    by_key: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    weight_sum = not_qualified = 0
    started = time.perf_counter()
    for pattern in _patterns():
        weight = len(set(itertools.permutations(pattern)))
        lists = [_MASKS[c] for c in pattern]
        sizes = [len(x) for x in lists]
        count = math.prod(sizes)
        for start in range(0, count, 1 << 18):
            index = np.arange(start, min(count, start + (1 << 18)))
            masks = []
            for size, masks_of in zip(reversed(sizes), reversed(lists), strict=True):
                masks.append(masks_of[index % size])
                index = index // size
            masks.reverse()
            key = np.maximum(np.maximum(_FK[masks[0]], _FK[masks[1]]), np.maximum(_FK[masks[2]], _FK[masks[3]]))
            avail = [0x1FFF & ~m for m in masks]
            below_q = _banker_below(avail, np.full(len(key), QUALIFYING_KEY))
            below = _banker_below(avail, key)
            up_to = _banker_below(avail, key + 1)
            win = np.maximum(below - below_q, 0)
            lose = BANKER_HANDS - np.maximum(up_to, below_q)
            length = key >> 13
            cap = np.where(length <= 4, 1, np.where(length == 5, 2, 3))
            weight_sum += weight * len(key)
            not_qualified += weight * int(below_q.sum())
            for name, rule in strategies.items():
                r = rule(key)
                totals[name] += weight * int(np.where(r > 0, below_q + (1 + r) * (win - lose), -BANKER_HANDS).sum())
            best_raise = np.where(win >= lose, cap, 1)
            raised = below_q + (1 + best_raise) * (win - lose)
            totals["optimal"] += weight * int(np.maximum(-BANKER_HANDS, raised).sum())
            at_cap = below_q + (1 + cap) * (win - lose)
            keys, inverse = np.unique(key, return_inverse=True)
            sums = np.bincount(inverse, weights=at_cap.astype(np.float64))
            for k, s, n in zip(keys.tolist(), sums.tolist(), np.bincount(inverse).tolist(), strict=True):
                by_key[k][0] += weight * round(s)
                by_key[k][1] += weight * n
    assert weight_sum == math.comb(52, 7)
    pairs = weight_sum * BANKER_HANDS
    totals["flush_only_optimal"] = sum(max(-BANKER_HANDS * n, s) for s, n in by_key.values())
    out: dict[str, Any] = {name: -total / pairs for name, total in totals.items()}
    out["banker_qualifies"] = 1 - not_qualified / pairs
    print(f"exact High Card Flush main game ({time.perf_counter() - started:.0f} s):")
    for name in (*strategies, "optimal", "flush_only_optimal"):
        print(f"  house edge, {name}: {out[name]:.6%}")
    print(f"  banker qualifies: {out['banker_qualifies']:.6%} (docs/rules.md HCF-7: 100,825,036 / 133,784,560)")
    out.update(_bonus_exact())
    return out


def _bonus_exact() -> dict[str, Any]:
    """Flush and straight-flush length distributions of 7 cards, and the casino bonus edges."""
    per_suit: dict[tuple[int, int, int], int] = defaultdict(int)
    for m in range(1 << 13):
        if m.bit_count() <= 7:
            per_suit[(m.bit_count(), min(_run_length(m), 13), m.bit_count())] += 1
    table: dict[tuple[int, int, int], int] = {(0, 0, 0): 1}
    for _ in range(4):
        grown: dict[tuple[int, int, int], int] = defaultdict(int)
        for (cards, run, longest), ways in table.items():
            for (c, r, n), count in per_suit.items():
                if cards + c <= 7:
                    grown[(cards + c, max(run, r), max(longest, n))] += ways * count
        table = grown
    flush: dict[int, int] = defaultdict(int)
    runs: dict[int, int] = defaultdict(int)
    for (cards, run, longest), ways in table.items():
        if cards == 7:
            flush[longest] += ways
            runs[run] += ways
    total = math.comb(52, 7)
    casino = ProfileLibrary().find("high-card-flush-casino").profile
    pays_flush = casino.paytables.flush  # type: ignore[attr-defined]
    pays_sf = casino.paytables.straight_flush  # type: ignore[attr-defined]
    flush_return = sum(pays_flush.get(n, -1) * w for n, w in flush.items())
    sf_return = sum(pays_sf.get(n, -1) * w if n >= 3 else -w for n, w in runs.items())
    print("  longest flush of 7 cards:", {n: flush[n] for n in sorted(flush)})
    print("  longest straight flush of 7 cards:", {n: runs[n] for n in sorted(runs)})
    print(f"  casino Flush bet edge {-flush_return / total:.5%}, Straight Flush bet edge {-sf_return / total:.5%}")
    return {"flush_lengths": dict(flush), "straight_flush_lengths": dict(runs),
            "casino_flush_bet": -flush_return / total, "casino_straight_flush_bet": -sf_return / total}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", nargs="?", default="timing", choices=("timing", "exact"))
    parser.add_argument("--hands", type=int, default=10_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="also print the figures as one JSON line")
    args = parser.parse_args()
    figures = timing(args.hands, args.seed) if args.what == "timing" else exact()
    if args.json:
        print(json.dumps(figures, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
