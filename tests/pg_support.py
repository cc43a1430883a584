"""A throwaway PostgreSQL cluster for the tests: `initdb` into a temporary directory (as the
`postgres` user when the tests run as root: PostgreSQL refuses root), `pg_ctl start` on a Unix
socket only, stopped at the end. Where PostgreSQL is not installed the tests that need it skip,
saying so."""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

_names = itertools.count(1)


def bindir() -> Path | None:
    """Where `initdb` and `pg_ctl` are: `PG_BINDIR`, then PATH, then Debian's place."""
    for candidate in (os.environ.get("PG_BINDIR"), shutil.which("initdb") and str(Path(shutil.which("initdb") or "").resolve().parent),
                      *sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)):
        if candidate and (Path(candidate) / "initdb").exists() and (Path(candidate) / "pg_ctl").exists():
            return Path(candidate)
    return None


def _as_owner(argv: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *argv] if os.geteuid() == 0 else argv


class Cluster:
    """A throwaway PostgreSQL cluster in a temporary directory, on a Unix socket only."""

    def __init__(self, where: Path, port: int = 5432) -> None:
        self.bin = where
        self.root = Path(tempfile.mkdtemp(prefix="pit-pg-"))
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres")
        self.data = self.root / "data"
        self.port = port
        subprocess.run(_as_owner([str(where / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "pit",
                                  "--no-sync", "-E", "UTF8"]), check=True, capture_output=True, timeout=120)

    @property
    def conninfo(self) -> str:
        """The maintenance database's conninfo (user `pit`, trust on the socket)."""
        return f"host={self.root} port={self.port} dbname=postgres user=pit"

    def start(self) -> None:
        subprocess.run(_as_owner([str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.root / "log"), "-w",
                                  "-o", (f"-k {self.root} -p {self.port} -c listen_addresses='' -c fsync=off"
                                         " -c synchronous_commit=off"), "start"]),
                       check=True, capture_output=True, timeout=120)

    def stop(self, mode: str = "fast") -> None:
        """`fast`: a clean shutdown; `immediate`: the server's processes killed, as in a crash."""
        subprocess.run(_as_owner([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop"]),
                       check=False, capture_output=True, timeout=120)

    def remove(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)

    def database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.conninfo, autocommit=True) as db:
            db.execute(f"CREATE DATABASE {name}")
        return self.conninfo.replace("dbname=postgres", f"dbname={name}")


def new_cluster() -> Cluster:
    where = bindir()
    if where is None:
        pytest.skip("PostgreSQL is not installed here (no initdb/pg_ctl): the pit tests need it")
    cluster = Cluster(where)
    cluster.start()
    return cluster


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[str]:
    """The conninfo of a fresh cluster's maintenance database, shared by the session's tests: the
    one `.ci/run` started (`PIT_TEST_CLUSTER`), else one of the session's own."""
    given = os.environ.get("PIT_TEST_CLUSTER")
    if given:
        yield given
        return
    cluster = new_cluster()
    try:
        yield cluster.conninfo
    finally:
        cluster.remove()


@pytest.fixture()
def pit_db(pg_cluster: str) -> str:
    """A database of its own for one test, on the session's cluster."""
    import psycopg

    name = f"pit_{os.getpid()}_{next(_names)}"
    with psycopg.connect(pg_cluster, autocommit=True) as db:
        db.execute(f"CREATE DATABASE {name}")
    return pg_cluster.replace("dbname=postgres", f"dbname={name}")


@dataclass(frozen=True)
class Tally:
    """A terminal's ledger held against the pit server: what the server lacks or holds twice."""

    lost: int
    """Events of the ledger the server does not hold as they are, and rounds it does not have."""
    duplicated: int
    """Events and rounds the server holds more than once."""
    rounds: int
    """The ledger's rounds."""


def tally(path: Path, conninfo: str) -> Tally:
    """Every event and round of the terminal's ledger looked for on the server (plain SQL)."""
    import psycopg

    from dealer_tui.ledger import SqliteLedger

    ledger = SqliteLedger(path, readonly=True)
    try:
        origin = ledger.ledger_id()
        local = {(t.id, e.seq): e.hash for t in [ledger.table_record(0), *ledger.tables()]
                 for e in ledger.table_events(t.id)}
        numbers = {(t.id, r.number) for t in ledger.tables() for r in ledger.table_rounds(t.id)}
    finally:
        ledger.close()
    with psycopg.connect(conninfo) as db:
        held = db.execute("SELECT t.origin_id, e.seq, e.hash FROM pit_events e JOIN pit_tables t ON t.id = e.table_id"
                          " WHERE t.origin = %s", (origin,)).fetchall()
        rounds = db.execute("SELECT t.origin_id, r.number FROM pit_rounds r JOIN pit_tables t ON t.id = r.table_id"
                            " WHERE t.origin = %s", (origin,)).fetchall()
    on_server = {(t, s): h for t, s, h in held}
    lost = sum(1 for key, digest in local.items() if on_server.get(key) != digest)
    lost += len(numbers - {(int(t), int(n)) for t, n in rounds})
    duplicated = len(held) - len(on_server) + len(rounds) - len(set(rounds))
    return Tally(lost, duplicated, len(numbers))


def paid_twice(conninfo: str) -> int:
    """Rounds on the server with more than one payout."""
    import psycopg

    with psycopg.connect(conninfo) as db:
        row = db.execute("SELECT COUNT(*) FROM (SELECT round_id FROM pit_events WHERE kind = 'payout_confirmed'"
                         " GROUP BY 1 HAVING COUNT(*) > 1) AS twice").fetchone()
    return int(row[0]) if row is not None else 0


def bind_to_pit(path: Path, url: str, account: str = "PM", pin: str = "424242424") -> None:
    """The terminal's ledger at `path` bound to the pit at `url`: a terminal with no manager of its
    own, confirmed by the pit's manager with their PIN, which confirms the terminal's key for the
    pit's PINs too (as `dealer-tui pit bind` does)."""
    from dealer_tui.ledger import SqliteLedger
    from dealer_tui.ledger.postgres import PgLedger, shown, unsealer
    from dealer_tui.staff import StaffDesk, StaffRegister

    pit = PgLedger(url)
    try:
        key, register = pit.pit_key(), StaffRegister.read(pit)
    finally:
        pit.close()
    ledger = SqliteLedger(path)
    try:
        desk = StaffDesk(ledger)
        desk.bind_pit(key, shown(url), desk.confirm_pit_manager(account, pin, register, "bind (test)",
                                                                unsealer(url, ledger.pit_login_key())), at_pit=True)
    finally:
        ledger.close()


def floor_login(pit: str, name: str = "floor") -> str:
    """The conninfo of a login of the floor's role of its own (named after the test's database:
    roles are the cluster's)."""
    import psycopg

    role = f"{pit.split('dbname=')[1].split()[0]}_{name}"
    with psycopg.connect(pit, autocommit=True) as db:
        db.execute(f"CREATE ROLE {role} LOGIN IN ROLE pit_floor")
    return pit.replace("user=pit", f"user={role}")
