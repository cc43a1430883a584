"""The dealer's terminal: cold start to the first screen, and key press to screen updated over
scripted High Card Flush rounds (Textual's Pilot harness, headless).

    python bench/tui.py [--rounds 5] [--json]

Key press to screen updated ("key_to_frame"): the key event is posted to the app exactly as
`Pilot.press` posts it (through the headless driver); the time runs until the last frame the
app draws in response, found once the app is quiet again (no message waiting in the app, the
screens or any widget, no layout or repaint pending, the screen's refresh timer paused). So it
covers handling the key, the round's step and the ledger write, every layout and render, and
the frame being turned into the terminal's escape sequences (the headless driver would drop
them, so the bench renders them itself). A key the app answers without drawing anything is
counted until the app is quiet. Toasts are on, as in the dealer's terminal.

`Pilot.press` itself ("pilot_press") waits for the process to look idle, at least two sleeps of
20 ms each: a press bound to nothing ("idle_pilot_press") shows that floor. Both are reported.

Cold start ("cold_first_frame"): a fresh interpreter per run, from starting the process to the
first frame of the round screen, on a ledger with staff and a seated table made beforehand (so
the staff's PIN derivation is not counted); "cold_process" is the whole run, interpreter exit
included.

`--against DIR [DIR ...]` compares versions side by side: cold start and key to frame with the
`dealer_tui` of this checkout and of each DIR (another copy of the project), a fresh interpreter
per run, the versions run after run in turn (`--runs`).

Keys per round ("rounds"): one whole round of each game as a fast dealer plays it (`GAME_ROUNDS`),
the keys counted and their key to frame summed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

SIZE = (120, 36)
PLAYERS = [(1, "Ann", 20000), (2, "Bob", 20000), (3, "Cy", 20000)]
ROUND = ["s", "y", "2", "a", "enter", "3", "a", "enter", "d", "f", "f", "v", "enter"]
QUIET_POLL_S = 0.0005

COLD = """
import sys, time, asyncio
sys.path[:0] = [{root!r}]
from pathlib import Path
from dealer_tui.app import Options, make_app
from dealer_tui.screens.round_screen import RoundScreen
{speak}
app = make_app(Path({ledger!r}), options=Options(seed=5))
first = []
shown = app._display
def display(screen, update):
    if not first and isinstance(screen, RoundScreen):
        first.append(time.time())
    return shown(screen, update)
app._display = display
async def main():
    async with app.run_test(size=(120, 36)) as pilot:
        while not first:
            await asyncio.sleep(0.001)
asyncio.run(main())
print(first[0])
"""


def cold_ledger(work: Path) -> Path:
    """A ledger with staff and a seated High Card Flush table, made before the clock starts
    (its PINs' key derivation is the setup's, not the terminal's)."""
    from tui_support import seated_app

    work.mkdir(parents=True, exist_ok=True)
    seated_app(work, "high-card-flush", [(1, "Ann", 5000), (2, "Bob", 5000)])
    return work / "ledger.sqlite"


def cold_ledger_of(tree: Path, work: Path) -> Path:
    """`cold_ledger` made by the `dealer_tui` of `tree` (a ledger of its own schema: an older
    version may not open a newer ledger)."""
    work.mkdir(parents=True, exist_ok=True)
    code = (f"import sys; sys.path[:0] = [{str(tree)!r}]\n"
            "from pathlib import Path\n"
            "from tests.tui_support import seated_app\n"
            f"seated_app(Path({str(work)!r}), 'high-card-flush', [(1, 'Ann', 5000), (2, 'Bob', 5000)])\n")
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return work / "ledger.sqlite"


def speaking(language: str | None) -> str:
    """The line a run starts with to show the terminal in `language` (None: as the tree has it)."""
    return "" if language is None else f"from dealer_tui.language import use_terminal; use_terminal({language!r})"


def cold_run(tree: Path, ledger: Path, language: str | None = None) -> tuple[float, float]:
    """Seconds from starting a fresh interpreter to the round screen's first frame with the
    `dealer_tui` of `tree` on a copy of `ledger` (in `language`); and the whole process."""
    import shutil

    copy = ledger.parent / f"run-{time.perf_counter_ns()}"
    copy.mkdir()
    for f in ledger.parent.glob(ledger.name + "*"):
        shutil.copy(f, copy / f.name)
    code = COLD.format(root=str(tree), ledger=str(copy / ledger.name), speak=speaking(language))
    start = time.time()
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    return float(out.split()[-1]) - start, time.time() - start


def cold_start(tmp: Path, runs: int = 5) -> tuple[list[float], list[float]]:
    """Cold start of this checkout, `runs` times, on one prepared ledger (each run on its copy)."""
    ledger = cold_ledger(tmp / "cold")
    times = [cold_run(ROOT, ledger) for _ in range(runs)]
    return [t[0] for t in times], [t[1] for t in times]


def frame_log(app: Any) -> list[float]:
    """Times of the frames the app draws, each turned into the terminal's escape sequences."""
    from textual._compositor import CompositorUpdate

    frames: list[float] = []
    draw: Callable[..., None] = app._display

    def display(screen: Any, update: Any) -> None:
        if isinstance(update, CompositorUpdate):
            update.render_segments(app.console)
        frames.append(time.perf_counter())
        draw(screen, update)

    app._display = display
    return frames


def quiet(app: Any) -> bool:
    """Nothing left to do: no message waiting anywhere, nothing to lay out or draw."""
    screen = app.screen
    if (screen._layout_required or screen._repaint_required or screen._dirty_widgets or screen._scroll_required
            or screen._recompose_required or screen._callbacks or screen._update_timer._active.is_set()
            or app._batch_count):
        return False
    return not any(pump._message_queue.values or pump._next_callbacks
                   for pump in [app, *app.screen_stack, *screen.walk_children(with_self=False)])


def key_event(app: Any, key: str) -> Any:
    """The key event `Pilot.press` would send for `key`."""
    from textual import events
    from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key

    if len(key) == 1 and not key.isalnum():
        key = _character_to_key(key)
    try:
        char: str | None = unicodedata.lookup(_get_unicode_name_from_key(REPLACED_KEYS.get(key, key)))
    except KeyError:
        char = key if len(key) == 1 else None
    event = events.Key(key, char)
    event.set_sender(app)
    return event


async def key_to_frame(app: Any, frames: list[float], key: str) -> tuple[float, int]:
    """Seconds from posting `key` to the last frame drawn in response, and how many frames."""
    drawn = len(frames)
    start = time.perf_counter()
    app._driver.send_message(key_event(app, key))
    calm = 0
    while calm < 2:
        await asyncio.sleep(QUIET_POLL_S)
        calm = calm + 1 if quiet(app) else 0
    end = frames[-1] if len(frames) > drawn else time.perf_counter() - 2 * QUIET_POLL_S
    return end - start, len(frames) - drawn


def shown_dialog(app: Any) -> str:
    """The name of the dialog open over the round screen (none: empty)."""
    layer = getattr(app.screen, "dialogs", None)
    return type(layer.current).__name__ if layer is not None and layer.current is not None else ""


async def frames_run(tmp: Path, rounds: int, ordered: bool = True) -> list[tuple[str, float, int]]:
    """`ordered`: keys handed on strictly in order (`KeyOrder`, as the terminal runs); off, as
    Textual hands them."""
    from tui_support import seated_app

    app = seated_app(tmp, "high-card-flush", PLAYERS)
    app.key_order.enabled = ordered
    out = []
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        frames = frame_log(app)
        for _ in range(rounds):
            for key in ROUND:
                for pressed in (key, "p") if key == "v" else (key,):
                    if pressed == "p" and {type(app.screen).__name__, shown_dialog(app)} & {"PayoutScreen", "PayoutDialog"}:
                        continue  # the payout came up with the reveal (a version before that pressed p)
                    seconds, count = await key_to_frame(app, frames, pressed)
                    out.append((pressed, seconds, count))
                    await pilot.pause()
    return out


async def pilot_run(tmp: Path, rounds: int) -> tuple[list[float], list[float]]:
    from tui_support import seated_app

    app = seated_app(tmp, "high-card-flush", PLAYERS)
    idle, times = [], []
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        for _ in range(10 * rounds):  # a key bound to nothing: what Pilot itself costs per press
            start = time.perf_counter()
            await pilot.press("w")
            idle.append(time.perf_counter() - start)
        for _ in range(rounds):
            for key in ROUND:
                start = time.perf_counter()
                await pilot.press(key)
                times.append(time.perf_counter() - start)
    return idle, times


GAME_ROUNDS: dict[str, tuple[list[tuple[int, str, int]], int, int, list[str]]] = {
    # game: (players, seats, seed, the keys of one whole round as a fast dealer plays it)
    "high-card-flush": (PLAYERS, 7, 5, ["s", "y", "2", "a", "enter", "3", "a", "enter", "d", "f", "f", "v", "enter"]),
    "one-or-five": ([(1, "Ann", 1000), (2, "Bob", 1000)], 6, 5,
                    ["s", "1", "a", "enter", "2", "a", "enter", "d", "p", "b", "b", "v", "enter"]),
    "chinese-poker": ([(1, "Ann", 100), (2, "Bob", 100), (3, "Cy", 100)], 4, 5,
                      ["s", "d", "g", "k", "g", "k", "g", "k", "v", "enter"]),
    "palace-poker": ([(1, "Ann", 1000), (2, "Bob", 1000), (4, "Dee", 1000)], 10, 1,
                     ["s", "d", "A", "d", "d", "w", "w", "w", "v", "enter"]),
}
"""Each game's round: start, antes, deal, each seat's decision, reveal (the payout comes up with
it) and the payout confirmed."""


async def game_round(tmp: Path, game: str) -> tuple[int, float, str]:
    """One round of `game` by its keys: how many, key to frame summed, and the phase it ended in."""
    from tui_support import seated_app

    players, seats, seed, keys = GAME_ROUNDS[game]
    app = seated_app(tmp, game, players, seats=seats, seed=seed)
    total = 0.0
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        frames = frame_log(app)
        for key in keys:
            total += (await key_to_frame(app, frames, key))[0]
            await pilot.pause()
        phase = app.table.round.phase.value if app.table is not None and app.table.round is not None else "none"
    return len(keys), total, phase


def game_rounds(tmp: Path) -> dict[str, dict[str, float | str]]:
    out: dict[str, dict[str, float | str]] = {}
    for game in GAME_ROUNDS:
        (tmp / game).mkdir(parents=True)
        keys, seconds, phase = asyncio.run(game_round(tmp / game, game))
        out[game] = {"keys": keys, "seconds": seconds, "ended": phase}
    return out


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[int(0.95 * len(ordered))]


def compare_key_order(rounds: int, runs: int, as_json: bool) -> None:
    """Key to frame with and without `KeyOrder`, run after run in turn on the same machine."""
    seconds: dict[bool, list[float]] = {True: [], False: []}
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(runs):
            for ordered in (True, False):
                work = Path(tmp) / f"{run}-{ordered}"
                work.mkdir()
                seconds[ordered] += [s for _, s, _ in asyncio.run(frames_run(work, rounds, ordered))]
    result = {f"{name}_{stat}_ms": fn(seconds[ordered]) * 1e3
              for ordered, name in ((True, "in_order"), (False, "as_textual"))
              for stat, fn in (("median", statistics.median), ("p95", p95))}
    result["median_ratio"] = result["in_order_median_ms"] / result["as_textual_median_ms"]
    result["p95_ratio"] = result["in_order_p95_ms"] / result["as_textual_p95_ms"]
    if not as_json:
        for k, v in result.items():
            print(f"{k:>22}: {v:,.3f}")
    print(json.dumps(result))


AGAINST = """
import asyncio, json, pathlib, sys, tempfile
sys.path.insert(0, {bench!r})
import tui
sys.path[:0] = [{tree!r}, {tests!r}]
{speak}
with tempfile.TemporaryDirectory() as tmp:
    print(json.dumps(asyncio.run(tui.frames_run(pathlib.Path(tmp), {rounds}))))
"""


def keys_in(tree: Path, rounds: int, language: str | None = None) -> list[tuple[str, float, int]]:
    """Key to frame over `rounds` rounds with the `dealer_tui` of `tree` (in `language`), in a
    fresh interpreter."""
    code = AGAINST.format(bench=str(Path(__file__).resolve().parent), tree=str(tree), tests=str(tree / "tests"),
                          rounds=rounds, speak=speaking(language))
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    return [(key, seconds, count) for key, seconds, count in json.loads(out.splitlines()[-1])]


def figures_of(drawn: list[tuple[str, float, int]], cold: list[float], rounds: int, runs: int) -> dict[str, float]:
    seconds = [s for _, s, _ in drawn]
    return {"cold_first_frame_median_s": statistics.median(cold),
            "key_to_frame_median_ms": statistics.median(seconds) * 1e3,
            "key_to_frame_p95_ms": p95(seconds) * 1e3, "key_to_frame_max_ms": max(seconds) * 1e3,
            "frames_per_key": statistics.mean(c for _, _, c in drawn), "keys": len(seconds),
            "key_to_frame_per_round_ms": sum(seconds) * 1e3 / (rounds * runs)}


def show(result: dict[str, dict[str, float]], base: str, as_json: bool) -> None:
    if not as_json:
        for name, figures in result.items():
            print(name)
            for k, v in figures.items():
                ratio = f"  ({v / result[base][k]:.2f}x)" if name != base and result[base][k] else ""
                print(f"{k:>27}: {v:,.3f}{ratio}")
    print(json.dumps(result))


def compare_languages(languages: list[str], rounds: int, runs: int, as_json: bool) -> None:
    """Cold start and key to frame of this checkout shown in each of `languages`, run after run in
    turn; the ratios are to the first."""
    drawn: dict[str, list[tuple[str, float, int]]] = {code: [] for code in languages}
    cold: dict[str, list[float]] = {code: [] for code in languages}
    with tempfile.TemporaryDirectory() as tmp:
        ledger = cold_ledger_of(ROOT, Path(tmp) / "cold")
        for _ in range(runs):
            for code in languages:
                cold[code] += [cold_run(ROOT, ledger, code)[0] for _ in range(2)]
                drawn[code] += keys_in(ROOT, rounds, code)
    show({code: figures_of(drawn[code], cold[code], rounds, runs) for code in languages}, languages[0], as_json)


def compare_trees(others: list[Path], rounds: int, runs: int, as_json: bool) -> None:
    """Cold start and key to frame with this checkout and each of `others`, run after run in turn."""
    trees = [ROOT, *others]
    for tree in others:
        if not (tree / "dealer_tui").is_dir():
            raise SystemExit(f"{tree}: no dealer_tui here (not a copy of the project)")
    drawn: dict[Path, list[tuple[str, float, int]]] = {tree: [] for tree in trees}
    cold: dict[Path, list[float]] = {tree: [] for tree in trees}
    with tempfile.TemporaryDirectory() as tmp:
        ledgers = {tree: cold_ledger_of(tree, Path(tmp) / f"cold-{i}") for i, tree in enumerate(trees)}
        for _ in range(runs):
            for tree in trees:
                cold[tree] += [cold_run(tree, ledgers[tree])[0] for _ in range(2)]
                drawn[tree] += keys_in(tree, rounds)
    show({str(tree): figures_of(drawn[tree], cold[tree], rounds, runs) for tree in trees}, str(ROOT), as_json)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--compare-key-order", type=int, default=0, metavar="RUNS",
                        help="only key to frame, RUNS runs each with keys handed on in order and "
                             "without, interleaved")
    parser.add_argument("--against", type=Path, nargs="+", default=[], metavar="DIR",
                        help="cold start and key to frame (each key's, and a round's summed), with this "
                             "checkout's dealer_tui and each DIR's (another copy of the project), a fresh "
                             "interpreter per run, in turn")
    parser.add_argument("--languages", nargs="+", default=[], metavar="CODE",
                        help="cold start and key to frame of this checkout shown in each language (en hu pl ru), "
                             "in turn; ratios to the first")
    parser.add_argument("--runs", type=int, default=3, help="runs of each version (or language) with --against "
                                                            "(--languages)")
    args = parser.parse_args()
    if args.languages:
        compare_languages(args.languages, args.rounds, args.runs, args.json)
        return
    if args.against:
        compare_trees([tree.resolve() for tree in args.against], args.rounds, args.runs, args.json)
        return
    if args.compare_key_order:
        compare_key_order(args.rounds, args.compare_key_order, args.json)
        return
    with tempfile.TemporaryDirectory() as tmp:
        first_frame, process = cold_start(Path(tmp))
        (Path(tmp) / "frames").mkdir()
        (Path(tmp) / "pilot").mkdir()
        drawn = asyncio.run(frames_run(Path(tmp) / "frames", args.rounds))
        idle, pressed = asyncio.run(pilot_run(Path(tmp) / "pilot", args.rounds))
        per_game = game_rounds(Path(tmp) / "games")
    seconds = [s for _, s, _ in drawn]
    slowest = sorted(drawn, key=lambda d: -d[1])[:5]
    result = {"cold_first_frame_median_s": statistics.median(first_frame), "cold_first_frame_max_s": max(first_frame),
              "cold_process_median_s": statistics.median(process),
              "key_to_frame_median_ms": statistics.median(seconds) * 1e3, "key_to_frame_p95_ms": p95(seconds) * 1e3,
              "key_to_frame_max_ms": max(seconds) * 1e3,
              "frames_per_key": statistics.mean(c for _, _, c in drawn),
              "pilot_press_median_ms": statistics.median(pressed) * 1e3, "pilot_press_p95_ms": p95(pressed) * 1e3,
              "idle_pilot_press_median_ms": statistics.median(idle) * 1e3, "keys": len(drawn)}
    if not args.json:
        for k, v in result.items():
            print(f"{k:>27}: {v:,.3f}")
        print(f"{'slowest':>27}: " + ", ".join(f"{k} {s * 1e3:.0f} ms ({c} frames)" for k, s, c in slowest))
        for game, figures in per_game.items():
            print(f"{game:>27}: {figures['keys']} keys a round, {float(figures['seconds']) * 1e3:,.0f} ms of key to "
                  f"frame, ended {figures['ended']}")
    print(json.dumps({**result, "rounds": per_game}))


if __name__ == "__main__":
    main()
