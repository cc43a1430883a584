"""The pit server as a ledger (PostgreSQL, psycopg 3): what terminals deliver, read by the floor,
`history` and the totals through the same interface as the embedded ledger.

A connection shows the server's tables under the embedded ledger's names (temporary views), so
the reads are the embedded ledger's own (`reads.LedgerReads`, `records.AuditReads`): for the whole
pit, by the server's ids; or, for `history verify`, one terminal's tables (`origin`) by the ids its
events were hashed with, exactly as that terminal's own ledger shows them.

Terminals write only by delivering (`pg_terminal`); the floor writes only the pit's own chain
(sign-ins, accounts, sign-off decisions, alarms acknowledged), through `pit_floor_append`; the
pit's links and alarms are read by `pg_status`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import psycopg
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)
from psycopg import sql
from psycopg_pool import ConnectionPool, PoolTimeout

from dealer_tui.ledger import hours
from dealer_tui.ledger.base import (
    ACCOUNT_KINDS,
    LOCK_SECONDS,
    ROUND_OPEN,
    SIGN_OFF_REQUESTED,
    STAFF_AUTH_KINDS,
    STAFF_REGISTER,
    Ledger,
    LedgerError,
    NewEvent,
    PendingSignOff,
    RoundUpdate,
    StoredEvent,
    event_hash,
    pit_signed_text,
    round_is,
)
from dealer_tui.ledger.kept import redacted, secrets_in
from dealer_tui.ledger.pg_connection import (
    Listener,
    PgConn,
    Pooled,
    answers,
    first_line,
    is_server,
    reason,
    shown,
)
from dealer_tui.ledger.pg_status import PitStatus
from dealer_tui.ledger.pg_terminal import (
    DeliveryRefused,
    Project,
    Projection,
    Received,
    TerminalExchange,
)
from dealer_tui.ledger.pit_schema import PIT_CLOCK, PIT_ORIGIN, SCHEMA_VERSION
from dealer_tui.ledger.reads import LedgerReads
from dealer_tui.ledger.records import AuditReads
from rules.bets import declared_roles
from rules.said import Said, say

__all__ = ["DeliveryRefused", "PgLedger", "Project", "Projection", "Received", "init_schema", "is_server", "shown"]


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


ROUND_VIEW = ("number, game, profile, status, flags, started_at, ended_at, seats, wagered, paid, house_result,"
              " returned, from_stacks, max_payout, banking, fees")
HOUR_VIEW = ", ".join(("hour", "game", "banking", *hours.NAMES))


LIMITS = "SET lock_timeout = '10s'; SET statement_timeout = '120s'"
"""A lock another login holds (a table locked, a transaction left open) makes a statement fail
within seconds instead of hanging the terminal or the floor."""


LATE_FLAGS = ("CASE WHEN EXISTS (SELECT 1 FROM pit_deliveries d WHERE d.round_id = pit_rounds.id AND d.seconds >"
              " (SELECT pit_late_seconds())) THEN concat_ws(',', NULLIF(flags, ''), 'late_delivery') ELSE flags END"
              " AS flags")
"""A round's flags on the pit's floor: with `late_delivery` when it reached the server later after it
ended than the floor allows (the pit's own flag: a terminal's view of its tables is as it sent them)."""


def pit_views() -> list[str]:
    """The whole pit by the server's ids (the pit's own staff register is table 0)."""
    bodies = {
        "tables": ("SELECT id, name, game, profile, profile_sha256, card_source, created_at, pit_area(id) AS area"
                   " FROM pit_tables"
                   " WHERE origin_id <> 0 OR id = 0"),
        "rounds": f"SELECT id, table_id, {ROUND_VIEW.replace('flags', LATE_FLAGS)} FROM pit_rounds",
        "events": "SELECT id, table_id, round_id, seq, ts, kind, payload, prev_hash, hash, ledger_seq FROM pit_events",
        "settlements": "SELECT round_id, seat, bet, stake, result, reason, role FROM pit_settlements",
        "round_flags": ("SELECT flag, round_id FROM pit_round_flags UNION ALL SELECT 'late_delivery', round_id"
                        " FROM pit_deliveries WHERE seconds > (SELECT pit_late_seconds())"),
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
        "settlements": ("SELECT r.origin_id AS round_id, s.seat, s.bet, s.stake, s.result, s.reason, s.role"
                        " FROM pit_settlements s "
                        + of_round.replace("{a}", "s")),
        "round_flags": "SELECT f.flag, r.origin_id AS round_id FROM pit_round_flags f " + of_round.replace("{a}", "f"),
        "hourly_totals": f"SELECT t.origin_id AS table_id, {hours} FROM pit_hourly_totals h "
                         + of_table.replace("{a}", "h"),
        "seatings": ("SELECT t.origin_id AS table_id, s.seat, s.player, s.first_round, s.last_round FROM pit_seatings s "
                     + of_table.replace("{a}", "s")),
    }
    return [sql.SQL(f"CREATE OR REPLACE TEMP VIEW {name} AS {body}").format(o=sql.Literal(origin))
            for name, body in bodies.items()]


class PgLedger(PitStatus, TerminalExchange, AuditReads, LedgerReads, Ledger):
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
            raise LedgerError(say("{server}: not a pit server (no pit schema): `dealer-tui pit init --server URL` "
                                  "makes one", server=self.path)) from None
        except psycopg.Error as exc:
            raise LedgerError(say("the pit server {server} cannot be reached: {problem}", server=self.path,
                                  problem=reason(exc))) from None
        if row is None:
            raise LedgerError(say("{server}: pit schema unknown, this program's is {ours}: `dealer-tui pit init` "
                                  "brings it up to date", server=self.path, ours=SCHEMA_VERSION))
        if int(row[0]) != SCHEMA_VERSION:
            raise LedgerError(say("{server}: pit schema {version}, this program's is {ours}: `dealer-tui pit init` "
                                  "brings it up to date", server=self.path, version=str(row[0]), ours=SCHEMA_VERSION))
        try:
            pool.open(wait=True, timeout=connect_timeout)
        except (psycopg.Error, PoolTimeout) as exc:
            pool.close()
            raise LedgerError(say("the pit server {server} cannot be reached: {problem}", server=self.path,
                                  problem=first_line(exc))) from None

    # -- live: the server's notifications ----------------------------------------------------

    def change_mark(self) -> int:
        """Counts the server's notifications of new events (LISTEN pit_events on a connection of
        its own, started on the first call); 0 while it cannot listen."""
        if self._listener is None:
            self._listener = Listener(self.conninfo)
            self._listener.start()
        return self._listener.count

    def unreachable(self) -> Said | None:
        """Since when the server cannot be reached, said in words (None: it can be, as far as known)."""
        lost = self._listener.lost_at if self._listener is not None else None
        if lost is None:
            return None
        return say("the pit server {server} cannot be reached (since {time})", server=self.path,
                   time=time.strftime("%H:%M:%S", time.localtime(lost)))

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

    def has_roles(self) -> bool:
        return True

    def integrity_problems(self) -> list[str]:
        return []

    def id_gaps(self, table: str) -> list[tuple[int, int]]:
        """None on the server: its ids are its own (a delivery refused leaves an id unused), and
        no role may delete a row; a terminal's own ids are checked by its chain."""
        return []

    def acknowledge(self, alarm: int, reason: str, by: str, sign_in: int) -> None:
        """A manager's word on an alarm, looked into (`AlarmAcknowledged` on the pit's chain)."""
        if not reason.strip():
            raise LedgerError(say("an acknowledgement says what was found"))
        known = self._raw.execute("SELECT 1 FROM pit_alarms WHERE id = %s", (alarm,)).fetchone()
        if known is None:
            raise LedgerError(say("no alarm {alarm} on the server (`dealer-tui pit status` lists them)", alarm=str(alarm)))
        self._append_own(lambda _: [NewEvent("alarm_acknowledged", {"alarm": alarm, "reason": reason.strip(),
                                                                     "by": by, "sign_in": sign_in})],
                         self.chain_length(STAFF_REGISTER))

    # -- the pit's own staff register: the floor's only writes ---------------------------------

    def _own(self, table_id: int) -> None:
        if table_id != STAFF_REGISTER or self.origin not in (None, PIT_ORIGIN):
            raise LedgerError(say("the pit server's tables are written by their terminals only (delivered from each "
                                  "terminal's ledger); the floor writes sign-ins and staff accounts"))

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
                signer = self._pit_signer() if any(e.kind in ACCOUNT_KINDS for e in events) else None
                for event in events:
                    seq, ledger_seq, ts = seq + 1, ledger_seq + 1, self._clock()
                    try:
                        payload = json.dumps(redacted(event.payload), sort_keys=True, ensure_ascii=False)
                        digest = event_hash(prev, STAFF_REGISTER, None, seq, ts, event.kind, event.payload, ledger_seq)
                    except (TypeError, ValueError) as exc:
                        raise LedgerError(say("event {kind}: payload is not plain data ({problem})", kind=event.kind,
                                              problem=str(exc))) from None
                    account = str(event.payload.get("account", ""))
                    for secret in secrets_in(event.payload):  # kept where only the owner reads them; the PIN it
                        self._raw.execute(                    # replaces is checked nowhere any more
                            "DELETE FROM pit_pin_secrets WHERE account = %s AND kept <> %s", (account, secret.kept))
                        self._raw.execute("INSERT INTO pit_pin_secrets(kept, account, hash, sealed, nonce)"
                                          " VALUES (%s, %s, %s, %s, %s) ON CONFLICT (kept) DO NOTHING",
                                          (secret.kept, account, secret.hash, secret.sealed, secret.nonce))
                    if signer is not None and event.kind in ACCOUNT_KINDS:
                        key, public = signer
                        signature = key.sign(pit_signed_text(public, seq, event.kind, event.payload)).hex()
                        self._raw.execute("SELECT pit_sign_append(%s, %s, %s, %s, %s, %s, %s, %s)",
                                          (seq, ts, event.kind, payload, prev, digest, ledger_seq, signature))
                    else:
                        self._raw.execute("SELECT pit_floor_append(%s, %s, %s, %s, %s, %s, %s)",
                                          (seq, ts, event.kind, payload, prev, digest, ledger_seq))
                    stored.append(StoredEvent(0, STAFF_REGISTER, None, seq, ts, event.kind, event.payload, prev,
                                              digest, ledger_seq))
                    prev = digest
        except psycopg.Error as exc:
            raise LedgerError(say("the pit server {server} did not record it: {problem}", server=self.path,
                                  problem=first_line(exc))) from None
        return stored

    checks_pins_elsewhere = True

    @answers
    def unseal(self, kept: str, attempt: str) -> tuple[str, str] | None:
        row = self._raw.execute("SELECT pit_unseal(%s, %s)", (kept, attempt)).fetchone()
        if row is None or row[0] is None:
            return None
        sealed, _, nonce = str(row[0]).partition(":")
        return sealed, nonce

    def forget_login_key(self, login: str) -> str | None:
        """The key a terminal's login took for the pit's PINs forgotten (by the owner's login only):
        when it was taken, or None when the login held none."""
        try:
            with self._raw.transaction():
                row = self._raw.execute("DELETE FROM pit_login_keys WHERE login = %s RETURNING"
                                        " to_char(taken_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI')", (login,)).fetchone()
        except psycopg.errors.InsufficientPrivilege:
            raise LedgerError(say("a login's key is forgotten through the pit owner's login (the URL `pit init` was "
                                  "given)")) from None
        except psycopg.Error as exc:
            raise LedgerError(say("the pit server {server} did not forget it: {problem}", server=self.path,
                                  problem=first_line(exc))) from None
        return None if row is None else str(row[0])

    def _pit_signer(self) -> tuple[Ed25519PrivateKey, str]:
        """The pit's own key (only the owner's login reads it), to sign an account event with."""
        try:
            row = self._raw.execute("SELECT value FROM pit_secret WHERE key = 'pit_key'").fetchone()
        except psycopg.errors.InsufficientPrivilege:
            raise LedgerError(say("staff accounts and approved profiles are the pit's own acts, signed with its key: "
                                  "a manager makes them through the pit owner's login (the URL `pit init` was given)")
                              ) from None
        if row is None:
            raise LedgerError(say("the pit has no key yet: its owner runs `dealer-tui pit init` again to make one"))
        key = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(str(row[0])))
        return key, key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()

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
        running = self.server_lockouts(account).get(account)
        if running is None:
            return own
        start, left = running  # the lock the server works out from every terminal's wrong PINs, on its clock
        return own + [StoredEvent(0, STAFF_REGISTER, None, 0, utc_now(), "staff_received", {
            "pit_seq": start, "pit_hash": "", "event_kind": "staff_locked", "account": account, "origin": PIT_CLOCK,
            "event": {"account": account, "until": time.time() + left, "seconds": LOCK_SECONDS}}, "", "")]

    @answers
    def lock_began(self, account: str, start: int) -> bool:
        """Whether a wrong PIN of `account` reached the server at `start` (seconds since the epoch, its
        clock): where a lock-out the pit worked out began."""
        row = self._raw.execute(
            "SELECT 1 FROM pit_events e JOIN pit_tables t ON t.id = e.table_id WHERE t.origin_id = 0"
            " AND e.kind = 'staff_refused' AND e.payload::jsonb ->> 'account' = %s"
            " AND e.payload::jsonb ->> 'reason' = 'pin' AND floor(extract(epoch FROM e.received_at)) = %s LIMIT 1",
            (account, start)).fetchone()
        return row is not None

    def decide_sign_off(self, round_id: int, approved: bool, by: str, reason: str = "",
                        sign_in: int | None = None) -> StoredEvent:
        """The pit floor's decision on a payout a table sent to the floor: a `floor_decided` event
        on the pit's own chain, which the table's terminal receives and records in the round (the
        table's chain is its terminal's alone). Refused when nothing is waiting any more."""
        if self.origin is not None:
            raise LedgerError(say("a terminal's own view of the pit decides nothing"))
        if not by.strip():
            raise LedgerError(say("a sign-off decision names the supervisor who made it"))
        if not approved and not reason.strip():
            raise LedgerError(say("a refusal needs a reason"))
        if sign_in is None:
            raise LedgerError(say("a sign-off decision at the pit's floor names the supervisor's sign-in"))
        decided: list[StoredEvent] = []

        def decide(_: list[StoredEvent]) -> Sequence[NewEvent]:
            record = self.round(round_id)
            latest = self._latest_sign_off(round_id)
            if record.status != ROUND_OPEN or latest is None or latest.kind != SIGN_OFF_REQUESTED:
                why = round_is(record.status) if record.status != ROUND_OPEN else say("it was already decided")
                raise LedgerError(say("round {number} (id {id}): no sign-off is waiting ({why})", number=record.number,
                                      id=str(round_id), why=why))
            if latest.seq in self._floor_decided().get(record.table_id, set()):
                raise LedgerError(say("round {number} (id {id}): the pit's floor decided it already; the table's "
                                      "terminal records it when it next reaches the server", number=record.number,
                                      id=str(round_id)))
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

    def close(self) -> None:
        if self._listener is not None:
            self._listener.stop()
        self._pool.close()


def unsealer(conninfo: str, terminal_key: bytes | None = None) -> Callable[[str, str], tuple[str, str] | None]:
    """`PgLedger.unseal` of the pit at `conninfo`, over a connection of its own for each PIN: a
    pit manager's PIN checked at a terminal that does not hold the pit's PINs (not bound yet).
    With `terminal_key`, a manager's PIN that checks also confirms that key for the login: the
    pit's PINs are handed to it under that key from then on."""
    def unseal(kept: str, attempt: str) -> tuple[str, str] | None:
        pit = PgLedger(conninfo)
        try:
            return pit.unseal(kept, attempt) if terminal_key is None else pit.take_login_key(kept, attempt, terminal_key)
        finally:
            pit.close()
    return unseal


def upgrade_to_3(db: psycopg.Connection[Any]) -> None:
    """Pit schema 2 -> 3: each settlement row carries its bet's role, filled in for the rows
    already there as the games declare their bets (`rules.bets`)."""
    db.execute("ALTER TABLE pit_settlements ADD COLUMN IF NOT EXISTS role TEXT NOT NULL DEFAULT ''")
    with db.cursor() as cur:
        cur.executemany("UPDATE pit_settlements SET role = %s WHERE bet = %s AND role = ''", declared_roles())


def init_schema(conninfo: str) -> None:
    """Create (or bring up to date) the pit's schema, the pit's own staff register and the three
    roles, as the database's owner; one transaction."""
    from dealer_tui.ledger.pit_schema import OWN_REGISTER, RLS, ROLES, SCHEMA

    try:
        with psycopg.connect(conninfo, autocommit=True, connect_timeout=10) as db, db.transaction():
            db.execute(LIMITS)  # a lock another login holds fails the init within seconds
            db.execute("SELECT pg_advisory_xact_lock(20)")  # two first starts: one makes it, one finds it
            found = db.execute("SELECT to_regclass('pit_meta') IS NOT NULL").fetchone()
            if found is not None and found[0]:
                row = db.execute("SELECT value FROM pit_meta WHERE key = 'schema'").fetchone()
                version = int(row[0]) if row is not None else 0
                if version > SCHEMA_VERSION:
                    raise LedgerError(say("{server}: pit schema {version} is newer than this program's ({ours})",
                                          server=shown(conninfo), version=version, ours=SCHEMA_VERSION))
                if version == 2:
                    upgrade_to_3(db)
                elif version < 3:
                    raise LedgerError(say("{server}: pit schema {version} cannot be brought up to {ours} here; start "
                                          "from an empty database", server=shown(conninfo), version=version,
                                          ours=SCHEMA_VERSION))
            db.execute("CREATE EXTENSION IF NOT EXISTS pgcrypto")  # the PINs' secret parts, wrapped per login
            db.execute(SCHEMA)
            db.execute(OWN_REGISTER)
            db.execute(ROLES)
            db.execute(RLS)
            # a login's transaction left open (holding locks) is ended by the server within a minute
            db.execute(sql.SQL("ALTER DATABASE {} SET idle_in_transaction_session_timeout = '60s'").format(
                sql.Identifier(str(db.info.dbname))))
            db.execute("INSERT INTO pit_meta(key, value) VALUES ('schema', %s) ON CONFLICT (key) DO UPDATE"
                       " SET value = EXCLUDED.value", (str(SCHEMA_VERSION),))
            if db.execute("SELECT 1 FROM pit_secret WHERE key = 'pit_key'").fetchone() is None:
                key = Ed25519PrivateKey.generate()  # the pit's identity: it signs the pit's own register
                private = key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption()).hex()
                public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
                db.execute("INSERT INTO pit_secret(key, value) VALUES ('pit_key', %s)", (private,))
                db.execute("INSERT INTO pit_meta(key, value) VALUES ('pit_key', %s)", (public,))
                db.execute("INSERT INTO pit_meta(key, value) SELECT 'pit_key_from', COALESCE(MAX(seq), 0)::text"
                           " FROM pit_events WHERE table_id = 0")
                for seq, kind, payload in db.execute(  # a register from before pits had keys: its owner signs it now
                        "SELECT seq, kind, payload FROM pit_events WHERE table_id = 0 AND kind = ANY(%s) ORDER BY seq",
                        (list(ACCOUNT_KINDS),)).fetchall():
                    signature = key.sign(pit_signed_text(public, int(seq), str(kind), json.loads(payload))).hex()
                    db.execute("INSERT INTO pit_signatures(seq, signature) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                               (seq, signature))
    except psycopg.Error as exc:
        raise LedgerError(say("the pit server {server}: the schema could not be made: {problem}",
                              server=shown(conninfo), problem=first_line(exc))) from None
