"""Faults of the storage under the ledger (disk full, read-only, I/O errors) told in plain words.

A write that fails on its storage changed nothing (SQLite rolls the transaction back); the
caller is told what failed with a `StorageError`, never a bare database error.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path

from dealer_tui.ledger.base import LedgerError, StorageError

SQLITE_PROBLEMS = {
    3: "permission denied",          # SQLITE_PERM
    5: "busy (another program holds the ledger's write lock)",  # SQLITE_BUSY
    6: "busy (the ledger is locked)",  # SQLITE_LOCKED
    8: "read-only",                  # SQLITE_READONLY
    10: "I/O error",                 # SQLITE_IOERR
    11: "the file is damaged",       # SQLITE_CORRUPT
    13: "disk full",                 # SQLITE_FULL
    14: "the file cannot be opened",  # SQLITE_CANTOPEN
    23: "not authorized",            # SQLITE_AUTH
    26: "not a ledger file",         # SQLITE_NOTADB
}
"""SQLite's primary result codes that name a fault of the storage, not of the program."""

ERRNO_PROBLEMS = {
    errno.ENOSPC: "disk full",
    errno.EDQUOT: "disk quota exceeded",
    errno.EROFS: "read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EIO: "I/O error",
}


def problem_of(exc: BaseException, path: Path | str | None = None) -> str | None:
    """The storage fault behind `exc` in a few words; None when it is not one."""
    if isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorcode", None)
        if code is None:
            return None
        problem = SQLITE_PROBLEMS.get(code & 0xFF)
        if problem == "the file cannot be opened" and path is not None and not writable(Path(path)):
            return "read-only"
        if problem == "I/O error" and (code == SQLITE_IOERR_SHMSIZE or (path is not None and no_room(Path(path)))):
            return "disk full"  # SQLite reports a -shm or -wal file it could not grow as an I/O error
        return problem
    if isinstance(exc, OSError):
        return ERRNO_PROBLEMS.get(exc.errno or 0)
    return None


SQLITE_IOERR_SHMSIZE = 10 | (19 << 8)
"""The -shm file could not be grown (no room on its disk)."""


def no_room(path: Path) -> bool:
    """Whether the disk of the ledger's folder has no free space left."""
    try:
        return os.statvfs(path.parent if str(path.parent) else ".").f_bavail == 0
    except (OSError, AttributeError):
        return False


def writable(path: Path) -> bool:
    """Whether the ledger file and its directory (where SQLite keeps the -wal and -shm files) can
    be written (a read-only mount answers no, even to root)."""
    folder = path.parent if str(path.parent) else Path(".")
    return os.access(folder, os.W_OK) and (not path.exists() or os.access(path, os.W_OK))


def storage_error(where: Path | str, exc: BaseException, doing: str = "written") -> LedgerError:
    """The error to raise for `exc`: a `StorageError` naming the fault when the storage failed,
    else a plain `LedgerError` quoting the database's own words."""
    detail = getattr(exc, "strerror", None) if isinstance(exc, OSError) else None
    detail = detail or str(exc)
    problem = problem_of(exc, where)
    if problem is None:
        return LedgerError(f"{where}: the ledger refused the change ({detail}); nothing was recorded")
    tail = "; nothing was recorded" if doing == "written" else ""
    at = f"{where}: " if str(where) else ""
    return StorageError(f"the ledger cannot be {doing}: {problem} ({at}{detail}){tail}", problem)


def rollback(db: sqlite3.Connection) -> None:
    """End a failed transaction if it is still open (SQLite has already rolled back after a full
    disk or an I/O error; a second rollback would fail)."""
    if db.in_transaction:
        try:
            db.execute("ROLLBACK")
        except sqlite3.Error:
            pass
