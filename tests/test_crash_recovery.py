"""A real crash test: a headless dealer process is killed with SIGKILL at many points; after each
restart the round comes back where it was, and the final stacks equal an uninterrupted run."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from dealer_tui.audit import verify_ledger
from dealer_tui.games import GAMES
from dealer_tui.ledger import SqliteLedger

pytestmark = pytest.mark.crash
DRIVER = Path(__file__).with_name("crash_driver.py")
ROUNDS = 12
SEED = 11
# (step, how many of that step after the (re)start) — 21 kills in a row on the same ledger
CRASHES = [
    ("after_append", 2), ("before_append", 3), ("after_apply", 1), ("after_append", 5),
    ("between_rounds", 1), ("before_append", 1), ("after_append", 1), ("after_apply", 4),
    ("after_append", 3), ("before_append", 6), ("after_apply", 2), ("between_rounds", 2),
    ("after_append", 7), ("before_append", 2), ("after_apply", 6), ("after_append", 4),
    ("before_append", 4), ("after_apply", 3), ("after_append", 6), ("before_append", 5),
    ("after_apply", 5),
]


def drive(ledger: Path, game: str, crash: tuple[str, int] | None = None) -> subprocess.CompletedProcess[str]:
    args = [sys.executable, str(DRIVER), str(ledger), game, str(ROUNDS), str(SEED)]
    if crash:
        args.append(f"{crash[0]}:{crash[1]}")
    return subprocess.run(args, capture_output=True, text=True, timeout=120, check=False)


def final(done: subprocess.CompletedProcess[str]) -> dict[str, object]:
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@pytest.mark.parametrize("game", ["one-or-five", "high-card-flush", "palace-poker", "chinese-poker",
                                  "keyed:one-or-five", "keyed:high-card-flush", "keyed:palace-poker",
                                  "keyed:chinese-poker"])
def test_crash_at_21_points_loses_nothing_and_pays_nothing_twice(tmp_path: Path, game: str) -> None:
    expected = final(drive(tmp_path / "clean.sqlite", game))
    ledger = tmp_path / "crashing.sqlite"
    kills = 0
    for crash in CRASHES:
        done = drive(ledger, game, crash)
        if done.returncode == 0:  # the run finished before reaching that step
            break
        assert done.returncode == -signal.SIGKILL, done.stderr
        kills += 1
        steps = [line.split() for line in done.stdout.splitlines() if line.startswith("step ")]
        assert steps and steps[-1][1] == crash[0]
    assert kills >= 20
    assert final(drive(ledger, game)) == expected
    audit = SqliteLedger(ledger, readonly=True)
    assert verify_ledger(audit, GAMES) == []
    rounds = audit.table_rounds(1)
    assert [r.status for r in rounds] == ["settled"] * ROUNDS or all(r.status in ("settled", "voided") for r in rounds)
    assert any("recovered" in r.flags for r in rounds)
