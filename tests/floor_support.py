"""Helpers for the floor review's tests: ledgers filled by `demo` under a fixed clock, and sums
taken straight from the stored rows with plain SQL (never through the code under test)."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path

from dealer_tui.cli import main
from dealer_tui.ledger import SqliteLedger


class FixedClock:
    """Distinct times `step` seconds apart from `start`: the same ledger every run."""

    def __init__(self, start: str = "2026-03-06T17:40:00", step: int = 53) -> None:
        self.now, self.step = datetime.fromisoformat(start), timedelta(seconds=step)

    def __call__(self) -> str:
        self.now += self.step
        return self.now.isoformat(timespec="microseconds") + "+00:00"


@contextmanager
def fixed_clock(clock: FixedClock) -> Iterator[None]:
    """Every ledger opened inside writes with `clock` (the demo command opens its own)."""
    defaults = SqliteLedger.__init__.__kwdefaults__
    assert defaults is not None
    saved = defaults["clock"]
    defaults["clock"] = clock
    try:
        yield
    finally:
        defaults["clock"] = saved


DEMOS = (("high-card-flush", "high-card-flush-casino", 14, "3"), ("one-or-five", "one-or-five", 12, "3"),
         ("palace-poker", "palace-poker", 6, "1"))


def demo_ledger(path: Path, clock: FixedClock | None = None) -> Path:
    """Three tables filled by `demo` with fixed seeds (and a fixed clock: rounds over several hours)."""
    with fixed_clock(clock or FixedClock()):
        for game, profile, rounds, seed in DEMOS:
            assert main(["demo", "--game", game, "--profile", profile, "--rounds", str(rounds), "--seed", seed,
                         "--ledger", str(path)]) == 0
    return path


def digest(path: Path) -> str:
    """Every event hash and every round's state: equal digests, nothing recorded or changed."""
    db = sqlite3.connect(path)
    rows = db.execute("SELECT hash FROM events ORDER BY id").fetchall() + db.execute(
        "SELECT id, status, flags, seats, wagered, paid, house_result FROM rounds ORDER BY id").fetchall() + \
        db.execute("SELECT * FROM settlements ORDER BY round_id, seat, bet").fetchall()
    db.close()
    return hashlib.sha256(repr(rows).encode()).hexdigest()


def settled_sums(path: Path, where: str = "1 = 1", args: tuple[object, ...] = ()) -> dict[tuple[int, str], tuple[int, ...]]:
    """(table, game) -> (rounds, drop, house win, biggest chips paid in a round), from settlement rows:
    the drop is every stake but the bank's and the rake; the house wins what the seats lose (C-2);
    a round pays every winning row's stake and win."""
    db = sqlite3.connect(path)
    per_round = db.execute(
        "SELECT r.table_id, r.game, r.id,"
        " SUM(CASE WHEN s.bet IN ('bank', 'rake') THEN 0 ELSE s.stake END), -SUM(s.result),"
        " SUM(CASE WHEN s.result > 0 AND s.bet NOT IN ('bank', 'rake') THEN s.stake + s.result ELSE 0 END)"
        f" FROM settlements s JOIN rounds r ON r.id = s.round_id WHERE r.status = 'settled' AND {where}"
        " GROUP BY r.id", args).fetchall()
    db.close()
    out: dict[tuple[int, str], list[int]] = {}
    for table_id, game, _, drop, win, paid in per_round:
        into = out.setdefault((table_id, game), [0, 0, 0, 0])
        into[0] += 1
        into[1] += drop
        into[2] += win
        into[3] = max(into[3], paid)
    return {k: tuple(v) for k, v in out.items()}


def fees_summed(path: Path, where: str = "1 = 1") -> dict[tuple[int, str], int]:
    """(table, game) -> the house's take: rake, Chinese Poker fees and "1 or 5" exchange fees, as the
    settlement rows record them (each such row's result is what the seat paid, negative)."""
    db = sqlite3.connect(path)
    rows = db.execute("SELECT r.table_id, r.game, -SUM(CASE WHEN s.bet IN ('rake', 'fee', 'exchange') THEN s.result"
                     " ELSE 0 END) FROM settlements s JOIN rounds r ON r.id = s.round_id"
                     f" WHERE r.status = 'settled' AND {where} GROUP BY 1, 2").fetchall()
    db.close()
    return {(t, g): fees for t, g, fees in rows}
