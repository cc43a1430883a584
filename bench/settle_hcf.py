"""Throughput of High Card Flush settlement: `dealer-tui settle --jsonl` end to end and in-process.

    python bench/settle_hcf.py [--rounds 10000] [--seed 7] [--repeat 5] [--keep FILE]
                               [--compare [--before DIR]]

Deals seeded six-player rounds (both profiles, every rake mode, random bonus bets, folds and
raises within HCF-6), writes them as JSON Lines, then times, `--repeat` times each, medians:
1. the command in a subprocess, start-up included, output discarded;
2. the command's start-up alone (the same command on the first round only);
3. the settler in-process (JSON decode, settle, JSON line per round, as the command does).
Target: 5,000 rounds/s or better end to end.

`--compare` times instead the ways of settling in `WAYS`, side by side, each in a fresh
interpreter started in a scratch directory, in turn within each repeat: the command
(`dealer_tui.cli.main`, start-up included) and the in-process loop. `--before DIR` adds the
brief settler of the `rules` package in DIR (an earlier commit's, say, from `git archive`). It
checks that every way writes the same lines and prints rounds/s and the ratio to the first way,
by wall time and by CPU time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from dealer_tui.commands.settle import decode
from rules.cards import Shoe, format_cards
from rules.games.high_card_flush.rules import flush_key, flush_length, raise_bounds
from rules.profiles.loader import ProfileLibrary
from rules.settle import settle_json

TARGET = 5000
WAYS = {
    "brief": "pass",
    "readable": "rules.settle._BRIEF_SETTLERS.pop('high-card-flush')",
    "readable, no reason texts": "rules.settle._BRIEF_SETTLERS.pop('high-card-flush'); no_reason_texts()",
    "brief reading, readable": "readable_behind_brief()",
}
"""How `--compare` settles, by name: the code run before the rounds. "brief" is `settle --jsonl`
as it is (the brief settler); "readable" leaves every round to `settle_high_card_flush` (the
readable settlement with its reasons, then the explanations dropped and the result encoded);
"readable, no reason texts" also leaves every reason text empty, the most a fast path skipping
the reasons could save; "brief reading, readable" keeps the brief settler's reading and writing
but settles with the readable settlement instead of `high_card_flush_chips`."""


def no_reason_texts() -> None:
    """Every bet's reason text and a hand's descriptions left empty in the readable settlement."""
    import rules.games.high_card_flush.rules as hands
    import rules.games.high_card_flush.settlement as settlement
    from rules.games.high_card_flush.cuts import BetResult as Bet

    for name in ("_won", "_lost", "_pushed", "_returned"):
        assert hasattr(settlement, name), name
    settlement._won = lambda label, stake, odds, why: Bet(stake, stake * odds, "")  # type: ignore[assignment]
    settlement._lost = lambda label, stake, why: Bet(stake, -stake, "")  # type: ignore[assignment]
    settlement._pushed = lambda label, stake, why: Bet(stake, 0, "")  # type: ignore[assignment]
    settlement._returned = lambda label, stake, note: Bet(stake, 0, "")  # type: ignore[assignment]
    hands.HandReading.describe_flush = lambda self: ""  # type: ignore[method-assign]
    hands.HandReading.describe_straight_flush = lambda self: ""  # type: ignore[method-assign]


def readable_behind_brief() -> None:
    """The brief settler with `high_card_flush_chips` swapped for the readable settlement: the
    round's cards taken from its request, the profile loaded once per name."""
    import rules.games.high_card_flush.settle_brief as brief
    import rules.settle
    from rules.cards import DECK
    from rules.games.high_card_flush.chips import Chips, Hand
    from rules.games.high_card_flush.profile import GAME_ID
    from rules.games.high_card_flush.settlement import BankerHand, PlayerHand, Terms, settle
    from rules.settle.common import resolve_profile

    tokens = {card.text: card for card in DECK}
    profiles: dict[Any, Any] = {}
    now: dict[str, Any] = {}

    def settler(request: dict[str, Any], library: Any) -> str | None:
        now["request"], now["library"] = request, library
        return brief.settle_brief(request, library)

    def readable(seats: int, dp: tuple[int | None, int | None], hands: list[Hand], terms: Terms) -> Chips:
        request = now["request"]
        name = request.get("profile")
        if name not in profiles:
            profiles[name] = resolve_profile(request, now["library"], GAME_ID).profile
        cards = {p["seat"]: p.get("cards") for p in request["players"]}

        def read(text: str | None) -> Any:
            return None if text is None else tuple(tokens[token] for token in text.split())

        players = [PlayerHand(*hand[:5], read(cards[hand[0]])) for hand in hands]
        done = settle(profiles[name], seats, BankerHand(read(request["banker"].get("cards")), *dp), players, terms)
        results = [(p.dead, p.ante.result, p.raise_bet.result, p.flush.result, p.straight_flush.result, p.rake)
                   for p in done.players]
        return Chips(results, done.order, done.banker.rake, done.banker.net, done.house_rake)

    brief.settle_house = lambda key, hands, odds, terms: readable(7, (None, None), hands, terms)  # type: ignore[assignment]
    brief.settle_designated_player = (  # type: ignore[assignment]
        lambda seats, banker, hands, odds, terms: readable(seats, banker[:2], hands, terms))
    rules.settle._BRIEF_SETTLERS[GAME_ID] = settler


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


_LOOP = """
import sys, time
sys.path.insert(0, BENCH)
from settle_hcf import no_reason_texts, readable_behind_brief
import rules.settle, rules.games.high_card_flush.settle
from dealer_tui.commands.settle import decode
from rules.profiles.loader import ProfileLibrary
from rules.settle import settle_json
SETUP
library = ProfileLibrary([])
lines = open(PATH, encoding="utf-8").read().splitlines()
start = time.perf_counter()
for line in lines:
    settle_json(decode(line), library, explain=False)
print(time.perf_counter() - start)
"""
_COMMAND = """
import sys
sys.path.insert(0, BENCH)
from settle_hcf import no_reason_texts, readable_behind_brief
import rules.settle, rules.games.high_card_flush.settle
SETUP
from dealer_tui.cli import main
sys.exit(main(["settle", "--jsonl", PATH]))
"""


def _program(template: str, setup: str, path: Path) -> str:
    return (template.replace("BENCH", repr(str(Path(__file__).parent))).replace("SETUP", setup)
            .replace("PATH", repr(str(path))))


def compare(text: str, rounds: int, repeat: int, before: Path | None) -> int:
    """`--compare`: each way's command and in-process loop, the ways in turn within a repeat."""
    ways = {name: (setup, None) for name, setup in WAYS.items()}
    if before is not None:
        ways = {"brief, before": (WAYS["brief"], before), **ways}
    wall: dict[str, list[float]] = {way: [] for way in ways}
    cpu: dict[str, list[float]] = {way: [] for way in ways}
    loop: dict[str, list[float]] = {way: [] for way in ways}
    outputs: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "rounds.jsonl"
        path.write_text(text, encoding="utf-8")
        for _ in range(repeat):
            for way, (setup, tree) in ways.items():
                env = {**os.environ, "PYTHONPATH": str(tree)} if tree is not None else None
                before_run = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.perf_counter()
                done = subprocess.run([sys.executable, "-c", _program(_COMMAND, setup, path)], env=env,
                                      cwd=tmp, capture_output=True, text=True, check=False)
                wall[way].append(time.perf_counter() - start)
                after_run = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu[way].append(after_run.ru_utime - before_run.ru_utime + after_run.ru_stime - before_run.ru_stime)
                if done.returncode != 0 or done.stdout.count("\n") != rounds:
                    print(f"{way}: status {done.returncode}", done.stderr[-500:], file=sys.stderr)
                    return 1
                outputs[way] = done.stdout
                timed = subprocess.run([sys.executable, "-c", _program(_LOOP, setup, path)], env=env,
                                       cwd=tmp, capture_output=True, text=True, check=True)
                loop[way].append(float(timed.stdout))
    if len(set(outputs.values())) != 1:
        print("the ways write different lines", file=sys.stderr)
        return 1
    first = next(iter(ways))
    print(f"{rounds} rounds, median of {repeat} runs of each way in turn, the same lines from each; "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"{'':26}{'command, wall':>22}{'command, CPU':>22}{'in-process':>22}")
    for way in ways:
        cells = []
        for runs in (wall, cpu, loop):
            seconds, base = statistics.median(runs[way]), statistics.median(runs[first])
            cells.append(f"{rounds / seconds:,.0f}/s {seconds / base:.2f}x")
        print(f"{way:26}" + "".join(f"{cell:>22}" for cell in cells))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=5, help="runs of each timing (the median is quoted)")
    parser.add_argument("--keep", type=Path, help="also write the rounds to this file")
    parser.add_argument("--compare", action="store_true", help="the ways of settling side by side (WAYS)")
    parser.add_argument("--before", type=Path, help="with --compare: also the brief settler of DIR/rules")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    lines = [json.dumps(deal_round(rng)) for _ in range(args.rounds)]
    text = "\n".join(lines) + "\n"
    if args.keep:
        args.keep.write_text(text, encoding="utf-8")
    if args.compare:
        return compare(text, args.rounds, args.repeat, args.before)

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
