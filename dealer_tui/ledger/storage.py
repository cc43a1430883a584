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
from rules.said import Said, say

READ_ONLY, DISK_FULL, IO_ERROR, CANNOT_OPEN = say("read-only"), say("disk full"), say("I/O error"), say(
    "the file cannot be opened")
PERMISSION_DENIED = say("permission denied")
SQLITE_PROBLEMS: dict[int, Said] = {
    3: PERMISSION_DENIED,                                                   # SQLITE_PERM
    5: say("busy (another program holds the ledger's write lock)"),         # SQLITE_BUSY
    6: say("busy (the ledger is locked)"),                                  # SQLITE_LOCKED
    8: READ_ONLY,                                                           # SQLITE_READONLY
    10: IO_ERROR,                                                           # SQLITE_IOERR
    11: say("the file is damaged"),                                         # SQLITE_CORRUPT
    13: DISK_FULL,                                                          # SQLITE_FULL
    14: CANNOT_OPEN,                                                        # SQLITE_CANTOPEN
    23: say("not authorized"),                                              # SQLITE_AUTH
    26: say("not a ledger file"),                                           # SQLITE_NOTADB
}
"""SQLite's primary result codes that name a fault of the storage, not of the program: each a code
(`StorageError.problem`, compared as it is: "disk full") that is also its words for a reader."""

ERRNO_PROBLEMS: dict[int, Said] = {
    errno.ENOSPC: DISK_FULL,
    errno.EDQUOT: say("disk quota exceeded"),
    errno.EROFS: READ_ONLY,
    errno.EACCES: PERMISSION_DENIED,
    errno.EPERM: PERMISSION_DENIED,
    errno.EIO: IO_ERROR,
}
PROBLEM_SAID = {str(said): said for said in (*SQLITE_PROBLEMS.values(), *ERRNO_PROBLEMS.values())}
"""Each storage fault's code, with its words."""


def problem_said(problem: str) -> Said:
    """A storage fault's code in words (one not known here: as it is)."""
    return PROBLEM_SAID.get(problem) or Said.literal(problem)


def problem_of(exc: BaseException, path: Path | str | None = None) -> Said | None:
    """The storage fault behind `exc` in a few words; None when it is not one."""
    if isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorcode", None)
        if code is None:
            return None
        problem = SQLITE_PROBLEMS.get(code & 0xFF)
        if problem == CANNOT_OPEN and path is not None and not writable(Path(path)):
            return READ_ONLY
        if problem == IO_ERROR and (code == SQLITE_IOERR_SHMSIZE or (path is not None and no_room(Path(path)))):
            return DISK_FULL  # SQLite reports a -shm or -wal file it could not grow as an I/O error
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
    """The error to raise for `exc` (a step that `doing`: "written" or "read"): a `StorageError`
    naming the fault when the storage failed, else a plain `LedgerError` quoting the database's own
    words; its message a sentence, the database's words in it as they are."""
    detail = getattr(exc, "strerror", None) if isinstance(exc, OSError) else None
    detail = detail or str(exc)
    problem = problem_of(exc, where)
    if problem is None:
        return LedgerError(say("{ledger}: the ledger refused the change ({problem}); nothing was recorded",
                               ledger=str(where), problem=detail))
    cause = f"{where}: {detail}" if str(where) else detail  # the file and the database's (or system's) own words
    if doing == "read":
        fault = say("the ledger cannot be read: {problem} ({cause})", problem=problem_said(problem), cause=cause)
        return StorageError(fault, problem, fault)
    fault = say("the ledger cannot be written: {problem} ({cause})", problem=problem_said(problem), cause=cause)
    return StorageError(say("{fault}; nothing was recorded", fault=fault), problem, fault)


def rollback(db: sqlite3.Connection) -> None:
    """End a failed transaction if it is still open (SQLite has already rolled back after a full
    disk or an I/O error; a second rollback would fail)."""
    if db.in_transaction:
        try:
            db.execute("ROLLBACK")
        except sqlite3.Error:
            pass
