"""Best-hand evaluation speed: the project's fast path against eval7 and treys.

    python bench/evaluators.py [--hands 200000] [--seed 1] [--repeat 3] [--json]

One hand per call, the way the games call the evaluator: `hand_value(codes)` for the
project, `eval7.evaluate(cards)` and `treys.Evaluator().evaluate(hand, board)`. All three
value the same seeded random hands (7 cards, then 5 cards); each library's card conversion
is done before timing. Each loop runs `--repeat` times and the best time counts.

A sanity check first: on pairs of the same hands, the three evaluators must order every
pair alike (treys counts down, the other two up); a disagreement exits with status 1.
With `--json` the last line of standard output is one JSON object of evaluations/s.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from importlib.metadata import version
from typing import Any

import eval7
import treys
from rich.console import Console
from rich.table import Table

from rules.cards import DECK
from rules.evaluator import CODES, hand_value

SANITY_PAIRS = 20_000

Hand = tuple[int, ...]  # card indexes 0..51
Timer = Callable[[Any], float]


def deal_hands(rng: random.Random, count: int, size: int) -> list[Hand]:
    """`count` hands of `size` distinct cards."""
    deck = range(52)
    return [tuple(rng.sample(deck, size)) for _ in range(count)]


def as_project(hands: Sequence[Hand]) -> list[tuple[int, ...]]:
    return [tuple(CODES[i] for i in hand) for hand in hands]


def as_eval7(hands: Sequence[Hand]) -> list[list[eval7.Card]]:
    cards = [eval7.Card(card.text) for card in DECK]
    return [[cards[i] for i in hand] for hand in hands]


def as_treys(hands: Sequence[Hand]) -> list[tuple[list[int], list[int]]]:
    """(two hole cards, the rest as the board): treys values the union."""
    cards = [treys.Card.new(card.text) for card in DECK]
    return [([cards[i] for i in hand[:2]], [cards[i] for i in hand[2:]]) for hand in hands]


def time_project(hands: list[tuple[int, ...]]) -> float:
    evaluate = hand_value
    start = time.perf_counter()
    for codes in hands:
        evaluate(codes)
    return time.perf_counter() - start


def time_eval7(hands: list[list[eval7.Card]]) -> float:
    evaluate = eval7.evaluate
    start = time.perf_counter()
    for cards in hands:
        evaluate(cards)
    return time.perf_counter() - start


def time_treys(hands: list[tuple[list[int], list[int]]]) -> float:
    evaluate = treys.Evaluator().evaluate
    start = time.perf_counter()
    for hole, board in hands:
        evaluate(hole, board)
    return time.perf_counter() - start


def best_rates(loops: dict[str, tuple[Timer, list[Any]]], repeat: int) -> dict[str, float]:
    """Evaluations per second of each loop's fastest run.

    The runs are interleaved (every loop once, `repeat` times over) so that a change in the
    machine's load falls on all the evaluators alike.
    """
    best = dict.fromkeys(loops, float("inf"))
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeat):
            for key, (timer, hands) in loops.items():
                best[key] = min(best[key], timer(hands))
    finally:
        gc.enable()
    return {key: len(loops[key][1]) / seconds for key, seconds in best.items()}


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def ordering_disagreements(hands: Sequence[Hand]) -> tuple[int, int, int]:
    """(pairs checked, pairs ordered differently by any evaluator, ties) on consecutive pairs."""
    pairs = [(hands[i], hands[i + 1]) for i in range(0, min(len(hands) - 1, 2 * SANITY_PAIRS), 2)]
    project = as_project([h for pair in pairs for h in pair])
    seven = as_eval7([h for pair in pairs for h in pair])
    tre = as_treys([h for pair in pairs for h in pair])
    evaluator = treys.Evaluator()
    bad = ties = 0
    for k in range(len(pairs)):
        a, b = 2 * k, 2 * k + 1
        ours = sign(hand_value(project[a]) - hand_value(project[b]))
        theirs7 = sign(eval7.evaluate(seven[a]) - eval7.evaluate(seven[b]))
        # treys: a lower number is a better hand
        theirs_t = sign(evaluator.evaluate(*tre[b]) - evaluator.evaluate(*tre[a]))
        bad += not ours == theirs7 == theirs_t
        ties += ours == 0
    return len(pairs), bad, ties


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--hands", type=int, default=200_000, help="hands per size (default 200000)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the random hands (default 1)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per loop, best counts")
    parser.add_argument("--json", action="store_true", help="end with one JSON line of rates")
    args = parser.parse_args(argv)
    if args.hands < 2 or args.repeat < 1:
        parser.error("--hands must be at least 2 and --repeat at least 1")

    rng = random.Random(args.seed)
    hands = {7: deal_hands(rng, args.hands, 7), 5: deal_hands(rng, args.hands, 5)}
    notes = Console(stderr=args.json)

    all_agree = True
    for size in (7, 5):
        checked, bad, ties = ordering_disagreements(hands[size])
        all_agree &= bad == 0
        verdict = "all three agree" if bad == 0 else f"[bold red]{bad} DISAGREE[/]"
        notes.print(f"ordering check, {size}-card: {checked:,} pairs, {verdict} ({ties} ties)")

    rates: dict[str, float] = {}
    for size in (7, 5):
        loops: dict[str, tuple[Timer, list[Any]]] = {
            f"project_{size}card": (time_project, as_project(hands[size])),
            f"eval7_{size}card": (time_eval7, as_eval7(hands[size])),
            f"treys_{size}card": (time_treys, as_treys(hands[size])),
        }
        rates |= best_rates(loops, args.repeat)

    if args.json:
        keys = ["project_7card", "eval7_7card", "treys_7card"]
        keys += ["project_5card", "eval7_5card", "treys_5card"]
        print(json.dumps({key: round(rates[key]) for key in keys}))
    else:
        print_table(rates, args)
    return 0 if all_agree else 1


def print_table(rates: dict[str, float], args: argparse.Namespace) -> None:
    table = Table(
        title="Best-hand evaluations per second",
        caption=f"{args.hands:,} hands, seed {args.seed}, best of {args.repeat}",
    )
    table.add_column("evaluator")
    table.add_column("7 cards", justify="right")
    table.add_column("5 cards", justify="right")
    names = {
        "project": "project hand_value",
        "eval7": f"eval7 {version('eval7')}",
        "treys": f"treys {version('treys')}",
    }
    for key, label in names.items():
        table.add_row(label, f"{rates[key + '_7card']:,.0f}", f"{rates[key + '_5card']:,.0f}")
    table.add_section()
    for other in ("eval7", "treys"):
        table.add_row(
            f"project / {other}",
            f"{rates['project_7card'] / rates[other + '_7card']:.2f}×",
            f"{rates['project_5card'] / rates[other + '_5card']:.2f}×",
        )
    Console().print(table)


if __name__ == "__main__":
    sys.exit(main())
