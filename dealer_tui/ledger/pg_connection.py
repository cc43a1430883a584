"""Talking to the pit server: a `--ledger` that names one, a conninfo as the screens show it,
the embedded ledger's SQL for PostgreSQL, the pool's connections used as one (a statement
borrows one; a transaction or a snapshot keeps one), the LISTEN that tells the floor of new
events, and a server's failures said in one line."""

from __future__ import annotations

import functools
import logging
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import Any, TypeVar

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout

from dealer_tui.ledger.base import (
    LedgerError,
)
from dealer_tui.ledger.where import is_server as is_server
from dealer_tui.ledger.where import shown as shown
from rules.said import Said, say

logging.getLogger("psycopg.pool").addHandler(logging.NullHandler())  # its retries are not printed over a screen


@lru_cache(maxsize=512)
def translate(text: str) -> str:
    """The embedded ledger's SQL for PostgreSQL: `?` placeholders become `%s` (a literal `%`
    doubled), SQLite's `+column` index hints are dropped, and LIKE ignores ASCII case as SQLite's does."""
    text = text.replace("%", "%%").replace("?", "%s")
    text = re.sub(r"(?<=[\s(])\+(?=[A-Za-z_])", "", text)
    return re.sub(r"\bLIKE\b", "ILIKE", text)


class Pooled:
    """The pool's connections as one: each statement runs on a connection borrowed for it (a
    connection the server dropped is replaced: the floor outlives a restart or a fail-over); a
    transaction or a snapshot keeps one connection for its length (per thread)."""

    def __init__(self, pool: ConnectionPool[psycopg.Connection[Any]]) -> None:
        self.pool = pool
        self._local = threading.local()

    def _pin(self) -> psycopg.Connection[Any] | None:
        pinned: psycopg.Connection[Any] | None = getattr(self._local, "conn", None)
        return pinned

    @contextmanager
    def pinned(self) -> Iterator[psycopg.Connection[Any]]:
        """One connection for every statement of the block (the one already held, if any)."""
        held = self._pin()
        if held is not None:
            yield held
            return
        try:
            with self.pool.connection() as conn:
                self._local.conn = conn
                try:
                    yield conn
                finally:
                    self._local.conn = None
        except PoolTimeout as exc:
            raise psycopg.OperationalError(say("no connection to the server ({problem})", problem=str(exc))) from None

    def execute(self, query: Any, params: Any = None) -> psycopg.Cursor[Any]:
        with self.pinned() as conn:
            return conn.execute(query, params)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        with self.pinned() as conn, conn.transaction():
            yield

    def cursor(self) -> psycopg.Cursor[Any]:
        held = self._pin()
        if held is None:
            raise RuntimeError("a cursor is taken inside a transaction only")
        return held.cursor()


class PgConn:
    """A psycopg connection that takes the embedded ledger's SQL (`translate`)."""

    def __init__(self, db: Pooled) -> None:
        self.db = db

    def execute(self, text: str, args: Sequence[object] = ()) -> psycopg.Cursor[Any]:
        try:
            return self.db.execute(translate(text), tuple(args))
        except psycopg.Error as exc:
            raise LedgerError(say("the pit server could not answer: {problem}", problem=first_line(exc))) from None


class Listener(threading.Thread):
    """Counts the server's `pit_events` notifications (one per event taken); connects again
    when the connection is lost (the count then moves once, so the floor looks again)."""

    def __init__(self, conninfo: str) -> None:
        super().__init__(name="pit-listener", daemon=True)
        self.conninfo = conninfo
        self.count = 0
        self.lost_at: float | None = None
        """Since when the server cannot be reached (None: listening)."""
        self._halt = threading.Event()

    def stop(self) -> None:
        self._halt.set()

    def run(self) -> None:
        while not self._halt.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True, connect_timeout=5) as db:
                    db.execute("LISTEN pit_events")
                    self.count += 1
                    self.lost_at = None
                    while not self._halt.is_set():
                        for _ in db.notifies(timeout=0.5, stop_after=1000):
                            self.count += 1
            except psycopg.Error:
                if self.lost_at is None:
                    self.lost_at = time.time()
                self._halt.wait(2.0)


F = TypeVar("F", bound=Callable[..., Any])


def answers(read: F) -> F:
    """A read of the server whose failure (the server away, a connection lost) is a `LedgerError`."""
    @functools.wraps(read)
    def wrapped(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return read(self, *args, **kwargs)
        except psycopg.Error as exc:
            raise LedgerError(say("the pit server {server} could not answer: {problem}", server=str(self.path),
                                  problem=first_line(exc))) from None
    return wrapped  # type: ignore[return-value]


def reason(exc: BaseException) -> str:
    """What the server or the network said, without libpq's preamble."""
    text = " ".join(str(exc).split())
    for mark in ("FATAL:", "failed:"):
        if mark in text:
            text = text.rsplit(mark, 1)[1].strip()
            break
    return text or type(exc).__name__


def first_line(exc: BaseException) -> str:
    """The error's first line: a sentence this program raised (`say`) as it is, else the server's (or
    the driver's) own words, as they are."""
    said = exc.args[0] if len(exc.args) == 1 else None
    if isinstance(said, Said) and "\n" not in said and said == said.strip():
        return said
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]
