"""Where a ledger is: a `--ledger` or `--pit` that names a PostgreSQL server, and a conninfo as
the screens show it. Free of the server's driver, so the terminal's start does not load it."""

from __future__ import annotations

import re


def is_server(where: object) -> bool:
    """Whether a `--ledger` names a PostgreSQL server rather than a file."""
    return str(where).startswith(("postgresql://", "postgres://"))


def shown(conninfo: str) -> str:
    """The conninfo as the screens show it: any password left out."""
    return re.sub(r"(://[^:/@]*):[^@]*@", r"\1@", re.sub(r"password=\S+", "password=…", conninfo))
