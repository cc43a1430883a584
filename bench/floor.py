"""Floor review benchmarks on a ledger of a million rounds (target: each ≤ 300 ms): opening the
list, changing a filter (each kind), opening a round's story and a shift's totals — through the
real screens, from posting the key (as Pilot posts it) to the last frame the app draws in
response (bench/tui.py's measure: nothing pending anywhere, the frame turned into escape
sequences) — and the ledger query alone for scale.

    python bench/floor.py [--rounds 1000000] [--repeat 5] [--dir DIR] [--keep PATH] [--only queries|screens] [--json]
    python bench/floor.py --keep PATH --against DIR [DIR ...] [--runs 3] [--repeat 5]

The ledger is filled the fast way (plain rows in batches, one transaction each): four tables and
three games, four settlement rows and three events per round, a round every 40 seconds, a few
voided and big-payout rounds, a dozen players coming and going; the hourly totals and the seat
ranges are built as the schema upgrade builds them.

`--against` compares versions side by side: the screens with the `dealer_tui` of this checkout and
of each DIR (another copy of the project), on the same ledger, a fresh interpreter per run of
`--repeat` apps, the versions run after run in turn (`--runs`); medians of the runs' medians.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from dealer_tui.games import GAMES as EVERY_GAME
from dealer_tui.ledger import RowQuery, SqliteLedger

GAMES = ("high-card-flush", "one-or-five", "palace-poker")
TABLES = 4
START = datetime(2025, 1, 1, 12, 0, 0)


def fill(path: Path, rounds: int, batch: int = 50_000, seed: int = 1) -> float:
    rng = random.Random(seed)
    ledger = SqliteLedger(path)
    for t in range(TABLES):
        game = GAMES[t % len(GAMES)]
        ledger.create_table(f"Main {t + 1}", game, game, "0" * 64, "shoe")
    db = ledger._db
    start = time.perf_counter()
    numbers = [0] * TABLES
    seqs = [0] * TABLES
    event_id = 0
    for first in range(0, rounds, batch):
        round_rows, settle_rows, event_rows = [], [], []
        for rid in range(first + 1, min(rounds, first + batch) + 1):
            t = rid % TABLES
            numbers[t] += 1
            when = (START + timedelta(seconds=40 * rid)).isoformat(timespec="microseconds") + "+00:00"
            stakes = [rng.choice((5, 10, 25, 50)) for _ in range(4)]
            results = [rng.choice((-s, -s, s, 0)) for s in stakes]
            if rng.random() < 0.0005:
                results[0] = 5000                           # a big payout, now and then
            voided = rng.random() < 0.002
            flags = "voided" if voided else ("signed_off" if results[0] >= 5000 else "")
            wagered = sum(stakes)
            paid = sum(s + r for s, r in zip(stakes, results) if r > 0)
            house = -sum(results)
            round_rows.append((rid, t + 1, numbers[t], GAMES[t % 3], GAMES[t % 3], "voided" if voided else "settled",
                               flags, when, when, 4, 0 if voided else wagered, 0 if voided else paid,
                               0 if voided else house, 0 if voided else max(results)))
            if not voided:
                settle_rows += [(rid, seat + 1, "ante", stakes[seat], results[seat], "bench")
                                for seat in range(4)]
            for kind in ("bench_start", "bench_step", "bench_end"):
                seqs[t] += 1
                event_id += 1
                event_rows.append((event_id, t + 1, rid, seqs[t], when, kind, '{"bench":true}', "0" * 64, "0" * 64))
        db.execute("BEGIN")
        db.executemany("INSERT INTO rounds(id, table_id, number, game, profile, status, flags, started_at, ended_at,"
                       " seats, wagered, paid, house_result, max_result) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                       round_rows)
        db.executemany("INSERT INTO settlements(round_id, seat, bet, stake, result, reason) VALUES (?,?,?,?,?,?)",
                       settle_rows)
        db.executemany("INSERT INTO events(id, table_id, round_id, seq, ts, kind, payload, prev_hash, hash)"
                       " VALUES (?,?,?,?,?,?,?,?,?)", event_rows)
        db.execute("COMMIT")
    db.execute("BEGIN")
    db.execute("INSERT INTO round_flags(flag, round_id) SELECT flags, id FROM rounds WHERE flags <> ''")
    db.execute("INSERT INTO hourly_totals(hour, table_id, game, rounds, wagered, paid, house, biggest)"
               " SELECT substr(started_at, 1, 13), table_id, game, COUNT(*), SUM(wagered), SUM(paid),"
               " SUM(house_result), MAX(paid) FROM rounds WHERE status = 'settled' GROUP BY 1, 2, 3")
    per_table = rounds // TABLES
    for t in range(TABLES):
        for seat in range(1, 5):
            for k, first_round in enumerate(range(1, per_table, max(1, per_table // 3))):
                last = min(per_table, first_round + per_table // 3 - 1)
                db.execute("INSERT INTO seatings(table_id, seat, player, first_round, last_round) VALUES (?,?,?,?,?)",
                           (t + 1, seat, f"Player {t}-{seat}-{k}", first_round, last))
    db.execute("INSERT INTO seatings(table_id, seat, player, first_round, last_round) VALUES (2, 5, 'Rare Visitor',"
               " ?, ?)", (per_table // 2, per_table // 2 + 40))
    db.execute("COMMIT")
    db.execute("ANALYZE")
    ledger.close()
    return time.perf_counter() - start


def timed(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return statistics.median(out) * 1e3


def middle(rounds: int, hours: float = 0.0) -> str:
    """Mid-ledger, plus `hours`, to the minute (as the filter dialog takes times)."""
    return (START + timedelta(seconds=40 * rounds // 2, hours=hours)).strftime("%Y-%m-%dT%H:%M:00")


def filters(rounds: int) -> dict[str, RowQuery]:
    return {
        "game": RowQuery(game="one-or-five"),
        "flag voided (rare)": RowQuery(flag="voided"),
        "flag signed_off (very rare)": RowQuery(flag="signed_off"),
        "min payout 1000 (very rare)": RowQuery(min_payout=1000),
        "seat 3": RowQuery(seat=3),
        "date range, mid-ledger day": RowQuery(since=middle(rounds), until=middle(rounds, 24)),
        "date range + game + seat": RowQuery(since=middle(rounds), until=middle(rounds, 24), game="palace-poker",
                                             seat=2),
        "search player (rare)": RowQuery(search="Rare Visitor"),
        "search player (common)": RowQuery(search="Player 1-2-1"),
        "search table": RowQuery(search="Main 3"),
        "search round number": RowQuery(search=str(rounds // 8)),
    }


def query_figures(path: Path, rounds: int, repeat: int) -> dict[str, float]:
    from dealer_tui.screens.floor_rounds import PAGE

    ledger = SqliteLedger(path, readonly=True)
    out = {"query: first page": timed(lambda: ledger.find_rounds(RowQuery(), PAGE), repeat)}
    for name, q in filters(rounds).items():
        out[f"query: {name}"] = timed(lambda q=q: ledger.find_rounds(q, PAGE), repeat)
    for sort in ("paid", "house"):
        out[f"query: sort by {sort}"] = timed(lambda s=sort: ledger.find_rounds(RowQuery(), PAGE, None, s), repeat)
    shift = RowQuery(since=middle(rounds, 0.25), until=middle(rounds, 8.6))
    out["query: shift totals (8 h, partial hours)"] = timed(lambda: (ledger.totals(shift), ledger.hourly(shift)), repeat)
    month = RowQuery(since=middle(rounds), until=middle(rounds, 24 * 30))
    out["query: month totals"] = timed(lambda: (ledger.totals(month), ledger.hourly(month)), repeat)
    out["query: all-time totals"] = timed(lambda: (ledger.totals(RowQuery()), ledger.hourly(RowQuery())), repeat)
    out["query: a round's events + settlement"] = timed(
        lambda: (ledger.round_events(rounds // 2), ledger.settlement(rounds // 2)), repeat)
    ledger.close()
    return out


def first_frame(app: Any) -> list[float]:
    """The time of the first frame the app draws, once drawn."""
    first: list[float] = []
    draw = app._display

    def display(screen: Any, update: Any) -> None:
        if not first:
            first.append(time.perf_counter())
        draw(screen, update)

    app._display = display
    return first


async def screen_figures(path: Path, rounds: int, repeat: int) -> dict[str, float]:
    """Key (or applied filter) to the last frame drawn, through the real screens, medians in ms."""
    from textual.widgets import Input
    from tui import frame_log, key_to_frame

    from dealer_tui.floor_app import FloorApp
    from dealer_tui.screens.floor_filters import FIELDS, FilterModal, typed_of
    from dealer_tui.screens.floor_rounds import PAGE, RoundsScreen
    from dealer_tui.screens.floor_story import StoryScreen
    from dealer_tui.screens.floor_totals import TotalsScreen

    out: dict[str, list[float]] = {}
    drawn: dict[str, list[int]] = {}

    async def key(name: str, pressed: str) -> None:
        seconds, count = await key_to_frame(app, frames, pressed)
        out.setdefault(name, []).append(seconds)
        drawn.setdefault(name, []).append(count)
        await pilot.pause()

    typed = {name: q for name, q in filters(rounds).items() if q.seat or q.since or q.search}
    for _ in range(repeat):
        start = time.perf_counter()
        app = FloorApp(SqliteLedger(path, readonly=True), EVERY_GAME)
        first = first_frame(app)
        async with app.run_test(size=(140, 40)) as pilot:
            while not first or not isinstance(app.screen, RoundsScreen):
                await asyncio.sleep(0.001)
            out.setdefault("screen: open the review (app start to first frame of the list)", []).append(
                first[0] - start)
            await pilot.pause()
            frames = frame_log(app)
            screen = app.screen
            assert isinstance(screen, RoundsScreen) and len(screen.rows) == PAGE
            await key("screen: refresh the list (r)", "r")
            await key("screen: filter game (g)", "g")
            await key("screen: clear the filters (c)", "c")
            await key("screen: filter flag signed_off, very rare (f)", "f")
            await key("screen: filter flag voided, rare (f again)", "f")
            await pilot.press("c")
            await key("screen: filter big payouts, min payout 1000 (b)", "b")
            for name, q in typed.items():                      # typed in the dialog; Enter applies it
                screen.set_query(RowQuery(game=q.game))
                await pilot.press("slash")
                modal = app.screen
                assert isinstance(modal, FilterModal)
                values = typed_of(q)
                for field, _ in FIELDS:
                    modal.query_one(f"#filter-{field}", Input).value = getattr(values, field)
                await pilot.pause()
                await key(f"screen: filter {name} (dialog, Enter)", "enter")
                assert app.screen is screen and screen.query_ == q, (name, screen.query_, q)
            await pilot.press("c")
            await key("screen: sort by paid (o)", "o")
            await key("screen: next page (n)", "n")
            await key("screen: previous page (p)", "p")
            await key("screen: cursor down a row (down)", "down")
            await key("screen: open a round's story (enter)", "enter")
            assert isinstance(app.screen, StoryScreen)
            await key("screen: back from the story (escape)", "escape")
            screen.set_query(RowQuery(since=middle(rounds, 0.25), until=middle(rounds, 8.6)))
            await pilot.pause()
            await key("screen: a shift's totals, 8 h (t)", "t")
            assert isinstance(app.screen, TotalsScreen)
            await key("screen: back from the totals (escape)", "escape")
            start = time.perf_counter()
            await pilot.press("z")
            out.setdefault("pilot.press of an unbound key (Pilot's own wait, for scale)", []).append(
                time.perf_counter() - start)
    result = {k: statistics.median(v) * 1e3 for k, v in out.items()}
    result.update({f"frames: {k[8:]}": statistics.median(v) for k, v in drawn.items()})
    return result


AGAINST = """
import asyncio, json, pathlib, sys
sys.path[:0] = [{tree!r}, {bench!r}]
import floor
print(json.dumps(asyncio.run(floor.screen_figures(pathlib.Path({path!r}), {rounds}, {repeat}))))
"""


def compare_trees(others: list[Path], path: Path, rounds: int, repeat: int, runs: int, as_json: bool) -> None:
    """The screens with this checkout and each of `others`, run after run in turn."""
    root = Path(__file__).resolve().parent.parent
    trees = [root, *others]
    for tree in others:
        if not (tree / "dealer_tui").is_dir():
            raise SystemExit(f"{tree}: no dealer_tui here (not a copy of the project)")
    seen: dict[Path, list[dict[str, float]]] = {tree: [] for tree in trees}
    for _ in range(runs):
        for tree in trees:
            code = AGAINST.format(tree=str(tree), bench=str(root / "bench"), path=str(path), rounds=rounds,
                                  repeat=repeat)
            out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
            seen[tree].append(json.loads(out.splitlines()[-1]))
    result = {str(tree): {k: statistics.median(run[k] for run in seen[tree]) for k in seen[tree][0]}
              for tree in trees}
    if not as_json:
        base = result[str(root)]
        print(f"{'':>66}  " + "  ".join(f"{i:>13}" for i in range(len(trees))))
        for k in base:
            print(f"{k:>66}: " + "  ".join(f"{result[str(t)].get(k, float('nan')):7,.1f}" +
                                            (f" {result[str(t)].get(k, 0) / base[k]:4.2f}x" if t != root and base[k]
                                             else "      ") for t in trees))
        for i, tree in enumerate(trees):
            print(f"{i}: {tree}")
    print(json.dumps(result))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--keep", type=Path, default=None, help="fill this ledger once and reuse it next time")
    parser.add_argument("--only", choices=("queries", "screens"), default=None)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--against", type=Path, nargs="+", default=[], metavar="DIR",
                        help="only the screens, with this checkout's dealer_tui and each DIR's (another copy of "
                             "the project), on the --keep ledger, a fresh interpreter per run, in turn")
    parser.add_argument("--runs", type=int, default=3, help="runs of each version with --against")
    args = parser.parse_args()
    if args.against:
        if args.keep is None or not args.keep.exists():
            parser.error("--against needs a filled ledger: --keep PATH (run once without --against to fill it)")
        compare_trees([tree.resolve() for tree in args.against], args.keep.resolve(), args.rounds, args.repeat,
                      args.runs, args.json)
        return
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        path = args.keep or Path(tmp) / "million.sqlite"
        filled = fill(path, args.rounds) if not path.exists() else 0.0
        result: dict[str, float] = {"fill_seconds": filled, "ledger_mb": path.stat().st_size / 1e6}
        if args.only != "screens":
            result.update(query_figures(path, args.rounds, args.repeat))
        if args.only != "queries":
            result.update(asyncio.run(screen_figures(path, args.rounds, args.repeat)))
    if not args.json:
        for key, value in result.items():
            print(f"{key:>66}: {value:,.1f}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
