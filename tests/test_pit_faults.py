"""The pit's faults with real processes: a terminal killed (SIGKILL) while it delivers, the
server stopped while three tables play on, the server killed in the middle of a delivery's
transaction. Afterwards every event is on the server exactly once, each terminal's chain
verifies there, and no round was paid twice."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from dealer_tui.audit.pit_audit import verify_pit
from dealer_tui.games import GAMES
from dealer_tui.ledger import LedgerError, SqliteLedger
from dealer_tui.ledger.postgres import init_schema
from dealer_tui.pit.delivery import Delivery
from tests.pg_support import Cluster, new_cluster, paid_twice, tally

ROOT = Path(__file__).resolve().parent.parent
pytestmark = [pytest.mark.pit, pytest.mark.crash]
OUTAGE_S = float(os.environ.get("PIT_TEST_OUTAGE_S", "5"))
"""How long the server stays stopped while the tables play on: a few seconds by default (the
suite's time), `PIT_TEST_OUTAGE_S=60` for the minute a pit's network may be out. The tables' pace
follows it, so that they still play when the server is back."""


@pytest.fixture()
def cluster() -> Iterator[Cluster]:
    """A cluster of the test's own: the tests stop and kill it."""
    made = new_cluster()
    try:
        yield made
    finally:
        made.remove()


def terminal(path: Path, url: str, rounds: int, seed: int, pause: float = 0.0) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "tests.pit_terminal", str(path), url, str(rounds), str(seed),
                             str(pause)], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})


def wait_rounds(process: subprocess.Popen[str], rounds: int, timeout: float = 120.0) -> int:
    """Read the terminal's output until it has ended `rounds` rounds (or said done)."""
    assert process.stdout is not None
    deadline = time.monotonic() + timeout
    ended = 0
    while ended < rounds and time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line or line.strip() == "done":
            break
        ended = int(line)
    return ended


def exactly_once(path: Path, url: str) -> None:
    """Every event of the terminal's ledger is on the server once, unchanged; each round once,
    paid at most once."""
    counts = tally(path, url)
    assert (counts.lost, counts.duplicated, paid_twice(url)) == (0, 0, 0) and counts.rounds > 0


def test_a_terminal_killed_while_it_delivers_repeats_and_loses_nothing(tmp_path: Path, cluster: Cluster) -> None:
    url = cluster.database("pit")
    init_schema(url)
    path = tmp_path / "t.sqlite"
    first = terminal(path, url, 400, 1)
    assert wait_rounds(first, 25) == 25
    first.send_signal(signal.SIGKILL)                    # mid-round, mid-delivery: its thread delivers all the time
    first.wait(30)
    again = terminal(path, url, 5, 1)                    # the terminal started again: the round comes back
    assert wait_rounds(again, 10**6) >= 1
    assert again.wait(120) == 0
    exactly_once(path, url)
    assert verify_pit(url, GAMES).problems == []


def test_three_tables_play_on_while_the_server_is_stopped_and_catch_up_when_it_is_back(tmp_path: Path,
                                                                                      cluster: Cluster) -> None:
    url = cluster.database("pit")
    init_schema(url)
    paths = [tmp_path / f"t{n}.sqlite" for n in (1, 2, 3)]
    pace = OUTAGE_S / 75              # the 70 rounds left after the outage take about as long: they play on
    tables = [terminal(p, url, 100, n, pause=pace) for n, p in enumerate(paths, start=1)]
    for process in tables:
        assert wait_rounds(process, 5) == 5
    cluster.stop("fast")                                 # the server goes away while they play
    stopped = time.monotonic()
    played = [wait_rounds(process, 30) for process in tables]
    assert played == [30, 30, 30]                        # the tables did not wait on the network
    with pytest.raises(LedgerError, match="cannot be reached"):
        Delivery(paths[0], url).once()
    time.sleep(max(0.0, OUTAGE_S - (time.monotonic() - stopped)))
    cluster.start()                                      # back while they still play: they catch up
    for process in tables:
        assert wait_rounds(process, 100) == 100 and process.wait(300) == 0
    for p in paths:
        exactly_once(p, url)
    assert verify_pit(url, GAMES).problems == []


def test_the_server_killed_in_the_middle_of_a_delivery_takes_all_of_it_or_none(tmp_path: Path,
                                                                                cluster: Cluster) -> None:
    url = cluster.database("pit")
    init_schema(url)
    path = tmp_path / "t.sqlite"
    offline = terminal(path, "host=/nonexistent dbname=none", 150, 4)   # played with no server: nothing delivered
    assert offline.wait(300) == 0
    outcome: list[object] = []
    delivery = Delivery(path, url)
    worker = threading.Thread(target=lambda: outcome.append(_attempt(delivery)))
    worker.start()
    time.sleep(0.4)                                      # the backlog's one transaction is under way
    cluster.stop("immediate")                            # the server's processes killed
    worker.join(120)
    cluster.start()
    with psycopg.connect(url) as db:
        held = db.execute("SELECT COUNT(*) FROM pit_events WHERE table_id <> 0").fetchone()
    ledger = SqliteLedger(path, readonly=True)
    written = ledger.chain_length(ledger.tables()[0].id)
    ledger.close()
    assert held is not None and held[0] in (0, written)   # all of the table's events, or none
    assert Delivery(path, url).once().refused == []
    exactly_once(path, url)
    assert verify_pit(url, GAMES).problems == []


def _attempt(delivery: Delivery) -> object:
    try:
        return delivery.once()
    except LedgerError as exc:
        return exc
