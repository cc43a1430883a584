"""A table is created in one transaction, with its opening event (and this terminal's hold on it):
a terminal killed at any point of a creation leaves either no table or one that opens. Two first
starts on a new ledger at once both open it (the schema is created once)."""

from __future__ import annotations

import multiprocessing
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from dealer_tui.app import make_app
from dealer_tui.audit import verify_ledger
from dealer_tui.games import GAMES
from dealer_tui.games.high_card_flush.steps import Ante
from dealer_tui.ledger import SqliteLedger
from dealer_tui.ledger.schema import SCHEMA_VERSION
from dealer_tui.rounds.cards import VirtualShoe
from dealer_tui.rounds.table import Table
from dealer_tui.rounds.table_profiles import current_profile
from tests.staff_support import staffed_table, void

DRIVER = Path(__file__).with_name("create_driver.py")


def drive(path: Path, tables: int, hook: str = "") -> subprocess.CompletedProcess[str]:
    args = [sys.executable, str(DRIVER), str(path), str(tables), *([hook] if hook else [])]
    return subprocess.run(args, capture_output=True, text=True, timeout=60, check=False)


def every_table_opens(path: Path, tmp_path: Path) -> list[int]:
    """Each table of the ledger opens (and the terminal resumes the newest); the chain verifies.
    The players seated at each table, oldest table first."""
    ledger = SqliteLedger(path)
    seated = []
    try:
        for record in ledger.tables():
            table = Table.open(ledger, record, GAMES.find(record.game), current_profile(ledger, record.id), VirtualShoe())
            seated.append(len(table.session.players))
            table.close()
        assert verify_ledger(ledger, GAMES) == []
    finally:
        ledger.close()
    app = make_app(path)
    try:
        resumed = app.resume()
        assert (resumed is None) == (not seated)
    finally:
        app.release() if app.table else None
        if resumed is not None:
            resumed.close()
        app.ledger.close()
    return seated


@pytest.mark.crash
@pytest.mark.parametrize(("hook", "seated"), [("before_create", []), ("inside_create", []),
                                              ("after_create", [0]), ("after_seat", [1])])
def test_a_kill_inside_a_table_creation_leaves_a_ledger_whose_tables_all_open(
        tmp_path: Path, hook: str, seated: list[int]) -> None:
    path = tmp_path / "ledger.sqlite"
    done = drive(path, 2, hook)
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert every_table_opens(path, tmp_path) == seated
    done = drive(path, 1)                      # the restart sets up the next table
    assert done.returncode == 0, done.stderr
    assert every_table_opens(path, tmp_path) == [*seated, 2]


@pytest.mark.crash
def test_kills_at_random_moments_while_creating_tables_never_leave_a_table_that_cannot_open(
        tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite"
    rng = random.Random(7)
    created = 0
    for kills in range(1, 5):
        driver = subprocess.Popen([sys.executable, str(DRIVER), str(path), "100000"], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        try:
            assert driver.stdout is not None
            first = driver.stdout.readline()
            assert first.startswith("created "), driver.stderr.read() if driver.stderr else ""
            time.sleep(rng.uniform(0, 0.15))
            driver.send_signal(signal.SIGKILL)
            assert driver.wait(10) == -signal.SIGKILL
        finally:
            driver.kill()
            driver.wait(10)
            for stream in (driver.stdout, driver.stderr):
                if stream is not None:
                    stream.close()
        seated = every_table_opens(path, tmp_path)
        assert len(seated) > created and all(n in (0, 1, 2) for n in seated)
        assert sum(n < 2 for n in seated) <= kills  # short of players: only a table being set up when killed
        created = len(seated)


def _first_start(path: str, barrier: Any, results: Any) -> None:
    barrier.wait()
    try:
        SqliteLedger(path).close()
        results.put("ok")
    except Exception as exc:
        results.put(f"{type(exc).__name__}: {exc}")


@pytest.mark.slow
def test_two_first_starts_at_once_both_open_the_new_ledger(tmp_path: Path) -> None:
    context = multiprocessing.get_context("fork")
    for attempt in range(20):
        path = tmp_path / f"ledger-{attempt}.sqlite"
        barrier, results = context.Barrier(2), context.Queue()
        starts = [context.Process(target=_first_start, args=(str(path), barrier, results)) for _ in range(2)]
        for start in starts:
            start.start()
        outcomes = [results.get(timeout=30) for _ in starts]
        for start in starts:
            start.join(10)
        assert outcomes == ["ok", "ok"], f"attempt {attempt}: {outcomes}"
        db = sqlite3.connect(path)
        assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        db.close()


def test_a_restart_reopens_the_table_whose_round_is_in_play_not_the_newest(tmp_path: Path) -> None:
    """Three tables; the oldest has a round in play (the terminal was killed in it): a plain
    restart reopens that one, at the round where it stopped. With no round in play, the table
    that played last comes back, not the one created last."""
    from dealer_tui.rounds.base import Phase
    from rules.profiles.loader import ProfileLibrary

    path = tmp_path / "ledger.sqlite"
    hcf = ProfileLibrary([]).find("high-card-flush")
    ledger = SqliteLedger(path)
    tables = []
    for name in ("Flush 1", "Flush 2", "Flush 3"):
        table = staffed_table(ledger, name, hcf, VirtualShoe(random.Random(1)), seats=7)
        for seat in (1, 2):
            table.seat_player(seat, f"P{seat}", 5000, document=f"passport X{seat:07}")  # tables on tables: over 10,000
        tables.append(table)
    tables[1].start_round()
    void(tables[1], "test")    # Flush 2 played last...
    tables[0].start_round()
    tables[0].act(Ante(seat=2, amount=10, flush=0, straight_flush=0))  # ...Flush 1 is in play
    ledger.close()

    def resumed_name() -> tuple[str, Phase | None]:
        app = make_app(path)
        try:
            table = app.resume()
            assert table is not None
            name, phase = table.record.name, table.round.phase if table.round else None
            table.close()
        finally:
            app.ledger.close()
        return name, phase

    assert resumed_name() == ("Flush 1", Phase.ANTE)
    ledger = SqliteLedger(path)
    table = Table.open(ledger, ledger.tables()[0], GAMES.find(hcf.game), hcf, VirtualShoe())
    void(table, "test")         # nothing in play now
    table.close()
    ledger.close()
    assert resumed_name() == ("Flush 1", None)                              # the one that played last
    ledger = SqliteLedger(path)
    table = Table.open(ledger, ledger.tables()[1], GAMES.find(hcf.game), hcf, VirtualShoe())
    table.start_round()
    void(table, "test")
    table.close()
    ledger.close()
    assert resumed_name() == ("Flush 2", None)
