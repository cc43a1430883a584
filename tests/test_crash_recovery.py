"""A real crash test: a headless dealer process is killed with SIGKILL at many points; after each
restart the round comes back where it was, and the final stacks equal an uninterrupted run."""

from __future__ import annotations

import json
import select
import signal
import subprocess
import sys
from collections.abc import Iterator
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


class Terminals:
    """The crash driver started once (`--serve`): each run a headless terminal of its own, forked
    from it, that a kill ends as it would end the terminal."""

    def __init__(self) -> None:
        self.server = subprocess.Popen([sys.executable, str(DRIVER), "--serve"], stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, text=True)

    def drive(self, ledger: Path, game: str, crash: tuple[str, int] | None = None) -> subprocess.CompletedProcess[str]:
        args = [str(ledger), game, str(ROUNDS), str(SEED)] + ([f"{crash[0]}:{crash[1]}"] if crash else [])
        assert self.server.stdin is not None and self.server.stdout is not None
        self.server.stdin.write(json.dumps(args) + "\n")
        self.server.stdin.flush()
        ready, _, _ = select.select([self.server.stdout], [], [], 120)
        assert ready, f"no answer in 120 s for {args}"
        answer = json.loads(self.server.stdout.readline())
        return subprocess.CompletedProcess(args, answer["returncode"], answer["stdout"], answer["stderr"])

    def close(self) -> None:
        if self.server.stdin is not None:
            self.server.stdin.close()
        self.server.wait(timeout=30)


@pytest.fixture
def terminals() -> Iterator[Terminals]:
    started = Terminals()
    yield started
    started.close()


def final(done: subprocess.CompletedProcess[str]) -> dict[str, object]:
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@pytest.mark.parametrize("game", ["one-or-five", "high-card-flush", "palace-poker", "chinese-poker",
                                  "keyed:one-or-five", "keyed:high-card-flush", "keyed:palace-poker",
                                  "keyed:chinese-poker"])
def test_crash_at_21_points_loses_nothing_and_pays_nothing_twice(tmp_path: Path, game: str,
                                                                  terminals: Terminals) -> None:
    expected = final(terminals.drive(tmp_path / "clean.sqlite", game))
    ledger = tmp_path / "crashing.sqlite"
    kills = 0
    for crash in CRASHES:
        done = terminals.drive(ledger, game, crash)
        if done.returncode == 0:  # the run finished before reaching that step
            break
        assert done.returncode == -signal.SIGKILL, done.stderr
        kills += 1
        steps = [line.split() for line in done.stdout.splitlines() if line.startswith("step ")]
        assert steps and steps[-1][1] == crash[0]
    assert kills >= 20
    assert final(terminals.drive(ledger, game)) == expected
    audit = SqliteLedger(ledger, readonly=True)
    assert verify_ledger(audit, GAMES) == []
    rounds = audit.table_rounds(1)
    assert [r.status for r in rounds] == ["settled"] * ROUNDS or all(r.status in ("settled", "voided") for r in rounds)
    assert any("recovered" in r.flags for r in rounds)
