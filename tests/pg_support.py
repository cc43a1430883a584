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
    """The conninfo of a fresh cluster's maintenance database, shared by the session's tests."""
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
