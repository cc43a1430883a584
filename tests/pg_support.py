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
    for candidate in (os.environ.get("PG_BINDIR"), shutil.which("initdb") and str(Path(shutil.which("initdb") or "").parent),
                      *sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)):
        if candidate and (Path(candidate) / "initdb").exists() and (Path(candidate) / "pg_ctl").exists():
            return Path(candidate)
    return None


def _as_owner(argv: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *argv] if os.geteuid() == 0 else argv


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[str]:
    """The conninfo of a fresh cluster's maintenance database (user `pit`, trust on the socket)."""
    where = bindir()
    if where is None:
        pytest.skip("PostgreSQL is not installed here (no initdb/pg_ctl): the pit tests need it")
    root = Path(tempfile.mkdtemp(prefix="pit-pg-"))
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
    data = root / "data"
    subprocess.run(_as_owner([str(where / "initdb"), "-D", str(data), "-A", "trust", "-U", "pit", "--no-sync",
                              "-E", "UTF8"]), check=True, capture_output=True, timeout=120)
    subprocess.run(_as_owner([str(where / "pg_ctl"), "-D", str(data), "-l", str(root / "log"), "-w", "-o",
                              f"-k {root} -c listen_addresses='' -c fsync=off -c synchronous_commit=off",
                              "start"]), check=True, capture_output=True, timeout=120)
    try:
        yield f"host={root} dbname=postgres user=pit"
    finally:
        subprocess.run(_as_owner([str(where / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
                       capture_output=True, timeout=120)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture()
def pit_db(pg_cluster: str) -> str:
    """A database of its own for one test, on the session's cluster."""
    import psycopg

    name = f"pit_{os.getpid()}_{next(_names)}"
    with psycopg.connect(pg_cluster, autocommit=True) as db:
        db.execute(f"CREATE DATABASE {name}")
    return pg_cluster.replace("dbname=postgres", f"dbname={name}")
