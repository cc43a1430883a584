"""The dealer's terminal: cold start to the first screen, and key press to screen updated over a
scripted High Card Flush round (Textual Pilot, headless).

    python bench/tui.py [--rounds 5] [--json]
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
from pathlib import Path

COLD = """
import sys, time, asyncio
start = time.perf_counter()
sys.path.insert(0, {tests!r})
from tui_support import seated_app
app = seated_app(__import__('pathlib').Path({tmp!r}), "high-card-flush", [(1, "Ann", 5000), (2, "Bob", 5000)])
async def main():
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
asyncio.run(main())
"""


def cold_start(tmp: Path, runs: int = 5) -> list[float]:
    out = []
    for i in range(runs):
        work = tmp / f"cold{i}"
        work.mkdir()
        code = COLD.format(tests=str(Path(__file__).resolve().parent.parent / "tests"), tmp=str(work))
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        out.append(time.perf_counter() - start)
    return out


async def key_latency(tmp: Path, rounds: int) -> list[float]:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from tui_support import seated_app

    app = seated_app(tmp, "high-card-flush", [(1, "Ann", 20000), (2, "Bob", 20000), (3, "Cy", 20000)])
    times: list[float] = []
    async with app.run_test(size=(120, 36)) as pilot:
        for _ in range(10 * rounds):  # a key bound to nothing: what Pilot itself costs per press
            start = time.perf_counter()
            await pilot.press("z")
            BASELINE.append(time.perf_counter() - start)
        for _ in range(rounds):
            for key in ["s", "y", "2", "a", "enter", "3", "a", "enter", "d", "f", "f", "v", "p", "enter"]:
                start = time.perf_counter()
                await pilot.press(key)
                times.append(time.perf_counter() - start)
    return times


BASELINE: list[float] = []


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cold = cold_start(Path(tmp))
        keys = asyncio.run(key_latency(Path(tmp) / "keys", args.rounds)) if (Path(tmp) / "keys").mkdir() is None else []
    keys.sort()
    result = {"cold_start_median_s": statistics.median(cold), "cold_start_max_s": max(cold),
              "key_median_ms": statistics.median(keys) * 1e3, "key_p95_ms": keys[int(0.95 * len(keys))] * 1e3,
              "idle_key_median_ms": statistics.median(BASELINE) * 1e3,
              "key_p95_over_idle_ms": (keys[int(0.95 * len(keys))] - statistics.median(BASELINE)) * 1e3,
              "keys": len(keys)}
    if not args.json:
        for k, v in result.items():
            print(f"{k:>20}: {v:,.3f}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
