"""The pit server as a ledger (PostgreSQL, psycopg 3): what terminals deliver, read by the floor,
`history` and the totals through the same interface as the embedded ledger.

A connection shows the server's tables under the embedded ledger's names (temporary views), so
the reads are the embedded ledger's own (`reads.LedgerReads`, `records.AuditReads`): for the whole
pit, by the server's ids; or, for `history verify`, one terminal's tables (`origin`) by the ids its
events were hashed with, exactly as that terminal's own ledger shows them.

Terminals write only by delivering (`receive`); the floor writes only the pit's own staff
register (sign-ins, accounts), through `pit_floor_append`.
"""

from __future__ import annotations

import functools
import json
import logging
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any, TypeVar

import psycopg
from psycopg import sql
from psycopg_pool import ConnectionPool, PoolTimeout

from dealer_tui.ledger.base import (
    GENESIS,
    ROUND_OPEN,
    SIGN_OFF_REQUESTED,
    STAFF_ACCOUNT_KINDS,
    STAFF_AUTH_KINDS,
    STAFF_REGISTER,
    Lease,
    Ledger,
    LedgerError,
    NewEvent,
    PendingSignOff,
    RoundRecord,
    RoundUpdate,
    StoredEvent,
    TableRecord,
    event_hash,
)
from dealer_tui.ledger.payouts import round_chips
from dealer_tui.ledger.pit import PIT_ORIGIN, SCHEMA_VERSION
from dealer_tui.ledger.reads import LedgerReads
from dealer_tui.ledger.records import AuditReads
from dealer_tui.ledger.schema import FEE_BETS


def is_server(where: object) -> bool:
    """Whether a `--ledger` names a PostgreSQL server rather than a file."""
    return str(where).startswith(("postgresql://", "postgres://"))


def shown(conninfo: str) -> str:
    """The conninfo as the screens show it: any password left out."""
    return re.sub(r"(://[^:/@]*):[^@]*@", r"\1@", re.sub(r"password=\S+", "password=…", conninfo))


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
            raise psycopg.OperationalError(f"no connection to the server ({exc})") from None

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
            raise LedgerError(f"the pit server could not answer: {first_line(exc)}") from None


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
    def wrapped(self: PgLedger, *args: Any, **kwargs: Any) -> Any:
        try:
            return read(self, *args, **kwargs)
        except psycopg.Error as exc:
            raise LedgerError(f"the pit server {self.path} could not answer: {first_line(exc)}") from None
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
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


@dataclass(frozen=True)
class Projection:
    """What an event writes besides itself: a round started (its number, profile and flags), or
    the round's new status, flags and settlement (`RoundUpdate`)."""

    start: tuple[int, str, frozenset[str]] | None = None
    update: RoundUpdate | None = None
    at: str | None = None
    """The time the terminal's row records for the start or the end (else the event's own)."""


Project = Callable[[StoredEvent], Projection | None]


@dataclass(frozen=True)
class Received:
    added: int
    known: int


class DeliveryRefused(LedgerError):
    """The server refused a delivery: the terminal's history disagrees with the server's."""

    def __init__(self, message: str, server_table: int = 0) -> None:
        super().__init__(message)
        self.server_table = server_table


VIEW_NAMES = ("tables", "rounds", "events", "settlements", "round_flags", "hourly_totals", "seatings")
ROUND_VIEW = ("number, game, profile, status, flags, started_at, ended_at, seats, wagered, paid, house_result,"
              " returned, from_stacks, max_payout, banking, fees")
HOUR_VIEW = "hour, game, banking, rounds, wagered, paid, returned, from_stacks, house, biggest, fees"


LIMITS = "SET lock_timeout = '10s'; SET statement_timeout = '120s'"
"""A lock another login holds (a table locked, a transaction left open) makes a statement fail
within seconds instead of hanging the terminal or the floor."""


def pit_views() -> list[str]:
    """The whole pit by the server's ids (the pit's own staff register is table 0)."""
    bodies = {
        "tables": ("SELECT id, name, game, profile, profile_sha256, card_source, created_at, area FROM pit_tables"
                   " WHERE origin_id <> 0 OR id = 0"),
        "rounds": f"SELECT id, table_id, {ROUND_VIEW} FROM pit_rounds",
        "events": "SELECT id, table_id, round_id, seq, ts, kind, payload, prev_hash, hash, ledger_seq FROM pit_events",
        "settlements": "SELECT round_id, seat, bet, stake, result, reason FROM pit_settlements",
        "round_flags": "SELECT flag, round_id FROM pit_round_flags",
        "hourly_totals": f"SELECT table_id, {HOUR_VIEW} FROM pit_hourly_totals",
        "seatings": "SELECT table_id, seat, player, first_round, last_round FROM pit_seatings",
    }
    return [f"CREATE OR REPLACE TEMP VIEW {name} AS {body}" for name, body in bodies.items()]


def origin_views(origin: str) -> list[sql.Composed]:
    """One terminal's tables by the ids its own ledger gives them (what its events were hashed with)."""
    rounds = ", ".join(f"r.{c.strip()}" for c in ROUND_VIEW.split(","))
    hours = ", ".join(f"h.{c.strip()}" for c in HOUR_VIEW.split(","))
    of_round = "JOIN pit_rounds r ON r.id = {a}.round_id JOIN pit_tables t ON t.id = r.table_id WHERE t.origin = {o}"
    of_table = "JOIN pit_tables t ON t.id = {a}.table_id WHERE t.origin = {o}"
    bodies = {
        "tables": ("SELECT origin_id AS id, name, game, profile, profile_sha256, card_source, created_at, area"
                   " FROM pit_tables WHERE origin = {o}"),
        "rounds": f"SELECT r.origin_id AS id, t.origin_id AS table_id, {rounds} FROM pit_rounds r "
                  + of_table.replace("{a}", "r"),
        "events": ("SELECT e.id, t.origin_id AS table_id, e.origin_round AS round_id, e.seq, e.ts, e.kind, e.payload,"
                   " e.prev_hash, e.hash, e.ledger_seq FROM pit_events e " + of_table.replace("{a}", "e")),
        "settlements": ("SELECT r.origin_id AS round_id, s.seat, s.bet, s.stake, s.result, s.reason FROM pit_settlements s "
                        + of_round.replace("{a}", "s")),
        "round_flags": "SELECT f.flag, r.origin_id AS round_id FROM pit_round_flags f " + of_round.replace("{a}", "f"),
        "hourly_totals": f"SELECT t.origin_id AS table_id, {hours} FROM pit_hourly_totals h "
                         + of_table.replace("{a}", "h"),
        "seatings": ("SELECT t.origin_id AS table_id, s.seat, s.player, s.first_round, s.last_round FROM pit_seatings s "
                     + of_table.replace("{a}", "s")),
    }
    return [sql.SQL(f"CREATE OR REPLACE TEMP VIEW {name} AS {body}").format(o=sql.Literal(origin))
            for name, body in bodies.items()]


class PgLedger(AuditReads, LedgerReads, Ledger):
    """The pit server read as one ledger (`origin=None`: every table, by the server's ids), or as
    one terminal's ledger (`origin`: that terminal's tables, by their own ids)."""

    def __init__(self, conninfo: str, *, origin: str | None = None, clock: Callable[[], str] = utc_now,
                 connect_timeout: float = 5.0) -> None:
        self.conninfo, self.origin = conninfo, origin
        self.path = shown(conninfo)
        self.witness = None
        self._listener: Listener | None = None
        self._clock = clock
        views = pit_views() if origin is None else origin_views(origin)

        def configure(conn: psycopg.Connection[Any]) -> None:  # each new connection shows the views
            conn.execute(LIMITS)
            for statement in views:
                conn.execute(statement)

        pool: ConnectionPool[psycopg.Connection[Any]] = ConnectionPool(
            conninfo, min_size=1, max_size=4, open=False, timeout=connect_timeout, configure=configure,
            check=ConnectionPool.check_connection,
            kwargs={"autocommit": True, "connect_timeout": max(1, round(connect_timeout))})
        self._pool = pool
        self._raw = Pooled(pool)
        self._db = PgConn(self._raw)
        try:  # one plain connection first: a refusal says why (no such database, a wrong password...)
            with psycopg.connect(conninfo, autocommit=True, connect_timeout=max(1, round(connect_timeout))) as probe:
                row = probe.execute("SELECT value FROM pit_meta WHERE key = 'schema'").fetchone()
        except psycopg.errors.UndefinedTable:
            raise LedgerError(f"{self.path}: not a pit server (no pit schema): `dealer-tui pit init --server URL` "
                              "makes one") from None
        except psycopg.Error as exc:
            raise LedgerError(f"the pit server {self.path} cannot be reached: {reason(exc)}") from None
        if row is None or int(row[0]) != SCHEMA_VERSION:
            raise LedgerError(f"{self.path}: pit schema {row[0] if row else 'unknown'}, this program's is "
                              f"{SCHEMA_VERSION}: `dealer-tui pit init` brings it up to date")
        try:
            pool.open(wait=True, timeout=connect_timeout)
        except (psycopg.Error, PoolTimeout) as exc:
            pool.close()
            raise LedgerError(f"the pit server {self.path} cannot be reached: {first_line(exc)}") from None

    # -- live: the server's notifications ----------------------------------------------------

    def change_mark(self) -> int:
        """Counts the server's notifications of new events (LISTEN pit_events on a connection of
        its own, started on the first call); 0 while it cannot listen."""
        if self._listener is None:
            self._listener = Listener(self.conninfo)
            self._listener.start()
        return self._listener.count

    def unreachable(self) -> str | None:
        """Since when the server cannot be reached, said in words (None: it can be, as far as known)."""
        lost = self._listener.lost_at if self._listener is not None else None
        if lost is None:
            return None
        return f"the pit server {self.path} cannot be reached (since {time.strftime('%H:%M:%S', time.localtime(lost))})"

    # -- what the audit reads, as the server holds it ------------------------------------------

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        with self._raw.pinned() as conn:
            if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                yield
                return
            conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            try:
                yield
            finally:
                conn.execute("ROLLBACK")

    def has_ledger_seq(self) -> bool:
        return True

    def integrity_problems(self) -> list[str]:
        return []

    def id_gaps(self, table: str) -> list[tuple[int, int]]:
        """None on the server: its ids are its own (a delivery refused leaves an id unused), and
        no role may delete a row; a terminal's own ids are checked by its chain."""
        return []

    @answers
    def origins(self) -> list[tuple[str, str]]:
        """Every terminal that delivered, with its tables' names, and the pit itself."""
        rows = self._raw.execute("SELECT origin, string_agg(name, ', ' ORDER BY origin_id) FILTER (WHERE origin_id <> 0)"
                                 " FROM pit_tables GROUP BY origin ORDER BY origin").fetchall()
        return [(str(o), str(n or "")) for o, n in rows]

    @answers
    def owners(self) -> dict[str, set[str]]:
        """The logins that registered each terminal's tables (one each, unless one poses as another)."""
        out: dict[str, set[str]] = {}
        for origin, owner in self._raw.execute("SELECT DISTINCT origin, owner_role FROM pit_tables").fetchall():
            out.setdefault(str(origin), set()).add(str(owner))
        return out

    @answers
    def ledgers_of_logins(self) -> dict[str, set[str]]:
        """The ledgers whose tables each terminal login (not a superuser) registered."""
        out: dict[str, set[str]] = {}
        for login, origin in self._raw.execute(
                "SELECT DISTINCT t.owner_role, t.origin FROM pit_tables t LEFT JOIN pg_roles r ON r.rolname = t.owner_role"
                " WHERE t.origin_id <> 0 AND NOT COALESCE(r.rolsuper, false)").fetchall():
            out.setdefault(str(login), set()).add(str(origin))
        return out

    @answers
    def future_events(self, slack_minutes: int = 5) -> list[tuple[str, str, str]]:
        """Events whose time is later than when the server received them: (where, time, received)."""
        rows = self._raw.execute(
            "SELECT t.origin, t.name, e.seq, e.kind, e.ts, to_char(e.received_at AT TIME ZONE 'UTC',"
            " 'YYYY-MM-DD HH24:MI:SS') FROM pit_events e JOIN pit_tables t ON t.id = e.table_id"
            " WHERE e.ts ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+[+-][0-9]{2}:[0-9]{2}$'"
            " AND e.ts::timestamptz > e.received_at + make_interval(mins => %s) ORDER BY e.id LIMIT 1000",
            (slack_minutes,)).fetchall()
        return [(f"terminal {str(o)[:8]}, {n}, event {q} ({k})", str(ts), str(r)) for o, n, q, k, ts, r in rows]

    @answers
    def alarms(self, limit: int | None = 100, acknowledged: bool = False) -> list[tuple[str, str, str, str]]:
        """Deliveries the server refused, newest first (all: `limit` None), less those a manager
        acknowledged (unless `acknowledged`): (when, origin, table, what)."""
        done = set() if acknowledged else set(self.acknowledged())
        rows = self._raw.execute("SELECT id, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'), origin, table_name,"
                                 " message FROM pit_alarms ORDER BY id DESC").fetchall()
        kept = [(str(a), str(b), str(c), f"{d} (alarm {i})") for i, a, b, c, d in rows if int(i) not in done]
        return kept if limit is None else kept[:limit]

    @answers
    def acknowledged(self) -> dict[int, tuple[str, str]]:
        """Alarms a manager acknowledged on the pit's chain: alarm id -> (by, reason)."""
        return {int(p["alarm"]): (str(p.get("by", "")), str(p.get("reason", ""))) for p in (
            json.loads(t) for (t,) in self._raw.execute(
                "SELECT payload FROM pit_events WHERE table_id = 0 AND kind = 'alarm_acknowledged'").fetchall())
            if isinstance(p.get("alarm"), int)}

    def acknowledge(self, alarm: int, reason: str, by: str, sign_in: int) -> None:
        """A manager's word on an alarm, looked into (`AlarmAcknowledged` on the pit's chain)."""
        if not reason.strip():
            raise LedgerError("an acknowledgement says what was found")
        known = self._raw.execute("SELECT 1 FROM pit_alarms WHERE id = %s", (alarm,)).fetchone()
        if known is None:
            raise LedgerError(f"no alarm {alarm} on the server (`dealer-tui pit status` lists them)")
        self._append_own(lambda _: [NewEvent("alarm_acknowledged", {"alarm": alarm, "reason": reason.strip(),
                                                                     "by": by, "sign_in": sign_in})],
                         self.chain_length(STAFF_REGISTER))

    @answers
    def links(self) -> dict[str, tuple[str, str, float]]:
        """Each terminal's last contact: origin -> (terminal, host, seconds ago)."""
        rows = self._raw.execute("SELECT origin, terminal, host, EXTRACT(EPOCH FROM clock_timestamp() - last_contact)"
                                 " FROM pit_links").fetchall()
        return {str(o): (str(t), str(h), float(s)) for o, t, h, s in rows}

    @answers
    def table_links(self) -> dict[int, tuple[str, float | None, bool]]:
        """Each table (server id): its terminal's last contact (UTC), how long ago in seconds, and
        whether the terminal was closed cleanly then."""
        rows = self._raw.execute(
            "SELECT t.id, to_char(l.last_contact AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'),"
            " EXTRACT(EPOCH FROM clock_timestamp() - l.last_contact), COALESCE(l.closed, false) FROM pit_tables t"
            " LEFT JOIN pit_links l ON l.origin = t.origin WHERE t.origin_id <> 0").fetchall()
        return {int(i): (str(at or ""), None if ago is None else float(ago), bool(closed))
                for i, at, ago, closed in rows}

    @answers
    def table_names(self, exclude_origin: str = "") -> list[str]:
        """The names of the pit's tables (less one terminal's own)."""
        return [str(n) for (n,) in self._raw.execute(
            "SELECT name FROM pit_tables WHERE origin_id <> 0 AND origin <> %s ORDER BY id", (exclude_origin,))]

    @answers
    def round_counts(self) -> dict[int, int]:
        """Rounds per table (server id)."""
        return {int(t): int(n) for t, n in self._raw.execute(
            "SELECT table_id, COUNT(*) FROM pit_rounds GROUP BY 1").fetchall()}

    @answers
    def areas(self) -> dict[int, str]:
        """Each table's pit area (server id; '' for none)."""
        return {int(t): str(a) for t, a in self._raw.execute("SELECT id, area FROM pit_tables").fetchall()}

    def set_area(self, table_id: int, area: str) -> None:
        """The pit area a table stands in (a manager's change; the floor filters by it)."""
        try:
            found = self._raw.execute("SELECT pit_set_area(%s, %s)", (table_id, area.strip())).fetchone()
        except psycopg.Error as exc:
            raise LedgerError(f"the pit server {self.path} refused the change: {first_line(exc)}") from None
        if found is None or not found[0]:
            raise LedgerError(f"the pit server {self.path} has no table {table_id} (`dealer-tui pit status` lists them)")

    # -- the pit's staff, as terminals receive it -----------------------------------------------

    @answers
    def pit_staff(self, after: int) -> list[StoredEvent]:
        """The pit register's account events (accounts, approved profiles) after chain number `after`."""
        kinds = [k for k in STAFF_ACCOUNT_KINDS if k != "staff_received"]
        rows = self._raw.execute("SELECT id, seq, ts, kind, payload, prev_hash, hash, ledger_seq FROM pit_events"
                                 " WHERE table_id = 0 AND seq > %s AND kind = ANY(%s) ORDER BY seq",
                                 (after, kinds)).fetchall()
        return [StoredEvent(int(i), STAFF_REGISTER, None, int(q), str(t), str(k), json.loads(p), str(ph), str(h),
                            None if ls is None else int(ls)) for i, q, t, k, p, ph, h, ls in rows]

    @answers
    def chain_event(self, origin: str, seq: int) -> StoredEvent | None:
        """The event at chain number `seq` of the staff register of `origin` (the pit's: "pit")."""
        row = self._raw.execute("SELECT e.id, e.ts, e.kind, e.payload, e.prev_hash, e.hash, e.ledger_seq FROM pit_events e"
                                " JOIN pit_tables t ON t.id = e.table_id WHERE t.origin = %s AND t.origin_id = 0"
                                " AND e.seq = %s", (origin, seq)).fetchone()
        if row is None:
            return None
        i, ts, kind, payload, prev, digest, ledger_seq = row
        return StoredEvent(int(i), STAFF_REGISTER, None, seq, str(ts), str(kind), json.loads(payload), str(prev),
                           str(digest), None if ledger_seq is None else int(ledger_seq))

    @answers
    def lockouts(self, now: float, origin: str) -> list[tuple[str, StoredEvent]]:
        """Lock-outs still running that other terminals (or the pit's floor) recorded: (origin, event)."""
        rows = self._raw.execute(
            "SELECT t.origin, e.id, e.seq, e.ts, e.payload, e.hash FROM pit_events e JOIN pit_tables t ON t.id = e.table_id"
            " WHERE t.origin_id = 0 AND t.origin <> %s AND e.kind = 'staff_locked'"
            " AND jsonb_typeof(e.payload::jsonb -> 'until') = 'number'"
            " AND (e.payload::jsonb ->> 'until')::numeric > %s::numeric ORDER BY e.id", (origin, now)).fetchall()
        return [(str(o), StoredEvent(int(i), STAFF_REGISTER, None, int(q), str(t), "staff_locked", json.loads(p), "",
                                     str(h))) for o, i, q, t, p, h in rows]

    # -- a terminal's delivery --------------------------------------------------------------

    def contact(self, origin: str, terminal: str, host: str, closed: bool = False) -> None:
        """The terminal is alive (its heartbeat), or, `closed`, it was shut down cleanly."""
        self._call("SELECT pit_contact(%s, %s, %s, %s)", (origin, terminal, host, closed))

    def alarm(self, origin: str, table: str, message: str) -> None:
        self._call("SELECT pit_alarm(%s, %s, %s)", (origin, table, message))

    def _call(self, text: str, args: tuple[object, ...]) -> None:
        try:
            self._raw.execute(text, args)
        except psycopg.errors.InsufficientPrivilege as exc:
            raise DeliveryRefused(first_line(exc).removeprefix("ERROR:").strip()) from None
        except psycopg.Error as exc:
            raise LedgerError(f"the pit server {self.path} refused: {first_line(exc)}") from None

    def server_table(self, origin: str, table: TableRecord) -> int:
        """The server's id of a terminal's table, registered on its first delivery (`pit_register`:
        a table of a ledger whose tables another login registered is refused)."""
        try:
            row = self._raw.execute("SELECT pit_register(%s, %s, %s, %s, %s, %s, %s, %s)",
                                    (origin, table.id, table.name, table.game, table.profile, table.profile_sha256,
                                     table.card_source, table.created_at)).fetchone()
        except psycopg.errors.InsufficientPrivilege:
            raise DeliveryRefused(f"the server holds tables of this ledger (id {origin}) that another login "
                                  "registered: a copy of this ledger, or a login posing as it") from None
        except psycopg.Error as exc:
            raise LedgerError(f"the pit server {self.path} refused the table: {first_line(exc)}") from None
        assert row is not None
        return int(row[0])

    @answers
    def server_head(self, server_table: int) -> tuple[int, str]:
        """The chain number and hash of the table's last event on the server ((0, GENESIS): none)."""
        row = self._raw.execute("SELECT seq, hash FROM pit_events WHERE table_id = %s ORDER BY seq DESC LIMIT 1",
                                (server_table,)).fetchone()
        return (int(row[0]), str(row[1])) if row is not None else (0, GENESIS)

    def receive(self, batches: Sequence[tuple[int, Sequence[StoredEvent]]], project: Project) -> Received:
        """A terminal's events, each table's in chain order (server table id, events), with what
        they write (`project`), in one transaction: the server holds what the terminal held at one
        moment, or nothing of it. An event the server holds is checked to be the same and counted
        known. `DeliveryRefused` (naming the table) when one does not follow the server's chain."""
        added = known = 0
        current = 0
        try:
            with self._raw.transaction():
                for server_table, events in batches:
                    current = server_table
                    a, k = self._receive(server_table, events, project)
                    added, known = added + a, known + k
        except (psycopg.IntegrityError, psycopg.errors.InsufficientPrivilege) as exc:
            raise DeliveryRefused(first_line(exc).removeprefix("ERROR:").strip(), current) from None
        except psycopg.Error as exc:
            raise LedgerError(f"the pit server {self.path} did not take the delivery: {first_line(exc)}") from None
        return Received(added, known)

    def _receive(self, server_table: int, events: Sequence[StoredEvent], project: Project) -> tuple[int, int]:
        added = known = 0
        head_seq, _ = self.server_head(server_table)
        rounds: dict[int, int] = {}
        for e in events:
            server_round = None if e.round_id is None else self._server_round(server_table, e.round_id, rounds)
            if e.seq > head_seq:
                step = project(e)
                if step is not None and step.start is not None and e.round_id is not None and server_round is None:
                    server_round = self._open_round(server_table, e, step.start, step.at or e.ts)
                    rounds[e.round_id] = server_round
                self._project_seating(server_table, e)
                if step is not None and step.update is not None and server_round is not None:
                    self._update_round(server_round, step.update, step.at or e.ts)
            row = self._raw.execute(
                "SELECT pit_append(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                (server_table, server_round, e.round_id, e.seq, e.ts, e.kind,
                 json.dumps(e.payload, sort_keys=True, ensure_ascii=False), e.prev_hash, e.hash,
                 e.ledger_seq)).fetchone()
            if row is not None and row[0] == "added":
                added += 1
            else:
                known += 1
        return added, known

    def _server_round(self, server_table: int, origin_round: int, rounds: dict[int, int]) -> int | None:
        if origin_round not in rounds:
            row = self._raw.execute("SELECT id FROM pit_rounds WHERE table_id = %s AND origin_id = %s",
                                    (server_table, origin_round)).fetchone()
            if row is None:
                return None
            rounds[origin_round] = int(row[0])
        return rounds[origin_round]

    def _open_round(self, server_table: int, e: StoredEvent, start: tuple[int, str, frozenset[str]], at: str) -> int:
        number, profile, flags = start
        row = self._raw.execute("SELECT pit_round_open(%s, %s, %s, %s, %s, %s)",
                                (server_table, e.round_id, number, profile, ",".join(sorted(flags)), at)).fetchone()
        assert row is not None
        return int(row[0])

    def _project_seating(self, server_table: int, e: StoredEvent) -> None:
        """Who sits where from which round on (`pit_seating`)."""
        if e.round_id is not None or e.kind not in ("seat_taken", "seat_left"):
            return
        seat = e.payload.get("seat")
        self._raw.execute("SELECT pit_seating(%s, %s, %s, %s)",
                          (server_table, e.kind == "seat_taken", seat if isinstance(seat, int) else None,
                           str(e.payload.get("player", ""))))

    def _update_round(self, round_id: int, update: RoundUpdate, ts: str) -> None:
        """The embedded ledger's `_update_round`, on the server (`pit_round_update`; the round's end
        time is the terminal's row's): the chips worked out here by the one definition of a payout."""
        rows = chips = banking = None
        if update.settlement is not None:
            rows = json.dumps([{"seat": r.seat, "bet": r.bet, "stake": r.stake, "result": r.result, "reason": r.reason}
                               for r in update.settlement])
            worked = round_chips(update.settlement)
            chips = [worked.paid, worked.returned, worked.from_stacks, worked.biggest,
                     -sum(r.result for r in update.settlement if r.bet in FEE_BETS)]
            banking = worked.kind
        self._raw.execute("SELECT pit_round_update(%s, %s, %s, %s, %s, %s::jsonb, %s, %s)",
                          (round_id, update.status, sorted(update.add_flags), ts,
                           list(update.totals) if update.totals is not None else None, rows, chips, banking))

    # -- the pit's own staff register: the floor's only writes ---------------------------------

    def _own(self, table_id: int) -> None:
        if table_id != STAFF_REGISTER or self.origin not in (None, PIT_ORIGIN):
            raise LedgerError("the pit server's tables are written by their terminals only (delivered from each "
                              "terminal's ledger); the floor writes sign-ins and staff accounts")

    def _append_own(self, decide: Callable[[list[StoredEvent]], Sequence[NewEvent]], after: int) -> list[StoredEvent]:
        stored: list[StoredEvent] = []
        try:
            with self._raw.transaction():
                self._raw.execute("SELECT pit_lock_register()")
                events = decide(self.table_events(STAFF_REGISTER, after=after))
                seq, prev = self.server_head(STAFF_REGISTER)
                row = self._raw.execute("SELECT COALESCE(MAX(ledger_seq), 0) FROM pit_events WHERE table_id = 0"
                                        ).fetchone()
                ledger_seq = int(row[0]) if row is not None else 0
                for event in events:
                    seq, ledger_seq, ts = seq + 1, ledger_seq + 1, self._clock()
                    try:
                        payload = json.dumps(event.payload, sort_keys=True, ensure_ascii=False)
                        digest = event_hash(prev, STAFF_REGISTER, None, seq, ts, event.kind, event.payload, ledger_seq)
                    except (TypeError, ValueError) as exc:
                        raise LedgerError(f"event {event.kind}: payload is not plain data ({exc})") from None
                    self._raw.execute("SELECT pit_floor_append(%s, %s, %s, %s, %s, %s, %s)",
                                      (seq, ts, event.kind, payload, prev, digest, ledger_seq))
                    stored.append(StoredEvent(0, STAFF_REGISTER, None, seq, ts, event.kind, event.payload, prev,
                                              digest, ledger_seq))
                    prev = digest
        except psycopg.Error as exc:
            raise LedgerError(f"the pit server {self.path} did not record it: {first_line(exc)}") from None
        return stored

    def append(self, table_id: int, round_id: int | None, events: Sequence[NewEvent],
               update: RoundUpdate | None = None) -> list[StoredEvent]:
        self._own(table_id)
        return self._append_own(lambda _: events, self.chain_length(table_id))

    def append_checked(self, table_id: int, decide: Callable[[list[StoredEvent]], Sequence[NewEvent]],
                       after: int = 0) -> list[StoredEvent]:
        self._own(table_id)
        return self._append_own(decide, after)

    @answers
    def staff_auth(self, account: str) -> list[StoredEvent]:
        kinds = list(STAFF_AUTH_KINDS)
        latest = self._raw.execute(
            "SELECT MAX(seq) FROM pit_events WHERE table_id = 0 AND kind IN ('staff_signed_in', 'staff_locked')"
            " AND (payload::jsonb ->> 'account') = %s", (account,)).fetchone()
        own = self._events("table_id = 0 AND kind = ANY(?) AND (payload::jsonb ->> 'account') = ? AND seq >= ?",
                           (kinds, account, (latest[0] if latest else None) or 0))
        return own + [e for _, e in self.lockouts(time.time(), PIT_ORIGIN) if e.payload.get("account") == account]

    # -- what only a terminal does ----------------------------------------------------------------

    def _terminals_only(self) -> LedgerError:
        return LedgerError("the pit server's tables are played at their terminals: a table is opened, played and "
                           "signed off there, and delivered here")

    def create_table(self, name: str, game: str, profile: str, profile_sha256: str, card_source: str, *,
                     events: Sequence[NewEvent] = (), lease: bool = False) -> TableRecord:
        raise self._terminals_only()

    def take_table(self, table_id: int) -> Lease | None:
        raise self._terminals_only()

    def release_table(self, table_id: int) -> None:
        return None

    def renew_leases(self) -> None:
        return None

    def table_lease(self, table_id: int) -> Lease | None:
        return None

    def open_round(self, table_id: int, game: str, profile: str, events: Sequence[NewEvent],
                   flags: frozenset[str] = frozenset()) -> RoundRecord:
        raise self._terminals_only()

    def decide_sign_off(self, round_id: int, approved: bool, by: str, reason: str = "",
                        sign_in: int | None = None) -> StoredEvent:
        """The pit floor's decision on a payout a table sent to the floor: a `floor_decided` event
        on the pit's own chain, which the table's terminal receives and records in the round (the
        table's chain is its terminal's alone). Refused when nothing is waiting any more."""
        if self.origin is not None:
            raise LedgerError("a terminal's own view of the pit decides nothing")
        if not by.strip():
            raise LedgerError("a sign-off decision names the supervisor who made it")
        if not approved and not reason.strip():
            raise LedgerError("a refusal needs a reason")
        if sign_in is None:
            raise LedgerError("a sign-off decision at the pit's floor names the supervisor's sign-in")
        decided: list[StoredEvent] = []

        def decide(_: list[StoredEvent]) -> Sequence[NewEvent]:
            record = self.round(round_id)
            latest = self._latest_sign_off(round_id)
            if record.status != ROUND_OPEN or latest is None or latest.kind != SIGN_OFF_REQUESTED:
                why = f"the round is {record.status}" if record.status != ROUND_OPEN else "it was already decided"
                raise LedgerError(f"round {record.number} (id {round_id}): no sign-off is waiting ({why})")
            if latest.seq in self._floor_decided().get(record.table_id, set()):
                raise LedgerError(f"round {record.number} (id {round_id}): the pit's floor decided it already; "
                                  "the table's terminal records it when it next reaches the server")
            row = self._raw.execute("SELECT t.origin, t.origin_id, r.origin_id FROM pit_rounds r JOIN pit_tables t"
                                    " ON t.id = r.table_id WHERE r.id = %s", (round_id,)).fetchone()
            assert row is not None
            payload: dict[str, object] = {"origin": row[0], "table": int(row[1]), "round": int(row[2]),
                                          "number": record.number, "pit_table": record.table_id,
                                          "request": latest.seq, "approved": approved, "by": by.strip(),
                                          "sign_in": sign_in, "reason": reason.strip()}
            return [NewEvent("floor_decided", payload)]

        decided = self._append_own(decide, self.chain_length(STAFF_REGISTER))
        return decided[0]

    @answers
    def _floor_decided(self) -> dict[int, set[int]]:
        """The requests the pit's floor decided: server table id -> the requests' chain numbers."""
        out: dict[int, set[int]] = {}
        for table, request in self._raw.execute(
                "SELECT (payload::jsonb ->> 'pit_table')::bigint, (payload::jsonb ->> 'request')::bigint FROM pit_events"
                " WHERE table_id = 0 AND kind = 'floor_decided'").fetchall():
            out.setdefault(int(table), set()).add(int(request))
        return out

    @answers
    def sign_off_queue(self) -> list[PendingSignOff]:
        """The waiting requests less those the pit's floor decided (not received by the table yet)."""
        decided = self._floor_decided()
        return [w for w in super().sign_off_queue() if w.request.seq not in decided.get(w.round.table_id, set())]

    @answers
    def floor_decisions(self, origin: str, after: int) -> list[StoredEvent]:
        """The pit floor's decisions on a terminal's rounds, after the pit's chain number `after`."""
        rows = self._raw.execute("SELECT id, seq, ts, payload, prev_hash, hash, ledger_seq FROM pit_events"
                                 " WHERE table_id = 0 AND kind = 'floor_decided' AND seq > %s"
                                 " AND payload::jsonb ->> 'origin' = %s ORDER BY seq", (after, origin)).fetchall()
        return [StoredEvent(int(i), STAFF_REGISTER, None, int(q), str(t), "floor_decided", json.loads(p), str(ph),
                            str(h), None if ls is None else int(ls)) for i, q, t, p, ph, h, ls in rows]

    @answers
    def pit_event_at(self, ledger_seq: int) -> StoredEvent | None:
        """The pit's own chain's event at this place in its ledger-wide sequence (a sign-in)."""
        row = self._raw.execute("SELECT seq FROM pit_events WHERE table_id = 0 AND ledger_seq = %s",
                                (ledger_seq,)).fetchone()
        return None if row is None else self.chain_event(PIT_ORIGIN, int(row[0]))

    def close(self) -> None:
        if self._listener is not None:
            self._listener.stop()
        self._pool.close()


def init_schema(conninfo: str) -> None:
    """Create (or bring up to date) the pit's schema, the pit's own staff register and the three
    roles, as the database's owner; one transaction."""
    from dealer_tui.ledger.pit import OWN_REGISTER, RLS, ROLES, SCHEMA

    try:
        with psycopg.connect(conninfo, autocommit=True, connect_timeout=10) as db, db.transaction():
            db.execute(LIMITS)  # a lock another login holds fails the init within seconds
            db.execute("SELECT pg_advisory_xact_lock(20)")  # two first starts: one makes it, one finds it
            found = db.execute("SELECT to_regclass('pit_meta') IS NOT NULL").fetchone()
            if found is not None and found[0]:
                row = db.execute("SELECT value FROM pit_meta WHERE key = 'schema'").fetchone()
                version = int(row[0]) if row is not None else 0
                if version > SCHEMA_VERSION:
                    raise LedgerError(f"{shown(conninfo)}: pit schema {version} is newer than this program's "
                                      f"({SCHEMA_VERSION})")
                if version < SCHEMA_VERSION:
                    raise LedgerError(f"{shown(conninfo)}: pit schema {version} cannot be brought up to "
                                      f"{SCHEMA_VERSION} here; start from an empty database")
            db.execute(SCHEMA)
            db.execute(OWN_REGISTER)
            db.execute(ROLES)
            db.execute(RLS)
            # a login's transaction left open (holding locks) is ended by the server within a minute
            db.execute(sql.SQL("ALTER DATABASE {} SET idle_in_transaction_session_timeout = '60s'").format(
                sql.Identifier(str(db.info.dbname))))
            db.execute("INSERT INTO pit_meta(key, value) VALUES ('schema', %s) ON CONFLICT (key) DO UPDATE"
                       " SET value = EXCLUDED.value", (str(SCHEMA_VERSION),))
    except psycopg.Error as exc:
        raise LedgerError(f"the pit server {shown(conninfo)}: the schema could not be made: {first_line(exc)}") from None
