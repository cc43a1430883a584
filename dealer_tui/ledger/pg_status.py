"""The pit at a glance, as the floor, `pit status` and `history verify` read it: the terminals
that delivered and their tables, who registered them, each table's last contact and area, the
deliveries the server refused (alarms) and a manager's word on them (mixed into `PgLedger`)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from dealer_tui.ledger.base import (
    ACCOUNT_KINDS,
    LOCK_SECONDS,
    MAX_TRIES,
    LedgerError,
    NewEvent,
    StoredEvent,
)
from dealer_tui.ledger.pg_connection import Pooled, answers
from rules.said import say


class PitStatus:
    """The pit's links, tables, areas and alarms, over the pool's connections (`_raw`)."""

    _raw: Pooled
    path: str
    if TYPE_CHECKING:  # PgLedger's own, where this is mixed in
        def _append_own(self, decide: Callable[[list[StoredEvent]], Sequence[NewEvent]], after: int
                        ) -> list[StoredEvent]: ...

        def chain_length(self, table_id: int) -> int: ...

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
    def server_lockouts(self, account: str | None = None) -> dict[str, tuple[int, float]]:
        """The lock-outs running now, as the server works them out from the wrong PINs it holds
        (every terminal's and the floor's, in the order it received them, on its own clock): account
        -> (when the lock began, seconds since the epoch on the server's clock; seconds left). Three
        wrong PINs in a row (within a day, none signed in between, no manager's lift) lock an account
        for `LOCK_SECONDS` from the third's arrival. What a terminal wrote as a lock-out counts for
        nothing here."""
        rows = self._raw.execute(
            "WITH recent AS (SELECT DISTINCT e.payload::jsonb ->> 'account' AS account FROM pit_events e"
            "  WHERE e.kind = 'staff_refused' AND e.received_at > clock_timestamp() - make_interval(secs => %s)"
            "  AND (%s::text IS NULL OR e.payload::jsonb ->> 'account' = %s::text))"
            " SELECT e.payload::jsonb ->> 'account', e.kind, COALESCE(e.payload::jsonb ->> 'reason', ''),"
            " extract(epoch FROM e.received_at)::float8, extract(epoch FROM clock_timestamp())::float8"
            " FROM pit_events e JOIN pit_tables t ON t.id = e.table_id JOIN recent r"
            " ON r.account = e.payload::jsonb ->> 'account'"
            " WHERE t.origin_id = 0 AND (e.kind IN ('staff_refused', 'staff_signed_in')"
            " OR e.kind = 'staff_unlocked' AND t.id = 0)"
            " AND e.received_at > clock_timestamp() - interval '1 day' ORDER BY e.received_at, e.id",
            (LOCK_SECONDS, account, account)).fetchall()
        failures: dict[str, int] = {}
        locks: dict[str, tuple[int, float]] = {}
        now = 0.0
        for who, kind, reason, at, now in rows:
            who = str(who)
            if kind in ("staff_signed_in", "staff_unlocked"):
                failures[who] = 0
                if kind == "staff_unlocked":
                    locks.pop(who, None)
            elif reason == "pin":
                failures[who] = failures.get(who, 0) + 1
                if failures[who] >= MAX_TRIES:
                    locks[who], failures[who] = (int(at), float(at) + LOCK_SECONDS), 0
        return {who: (start, until - now) for who, (start, until) in locks.items() if until > now}

    @answers
    def late_rounds(self) -> list[tuple[int, str, int, str, float, float]]:
        """Rounds that reached the server later after they ended than the floor allows: (the
        server's round id, the table's name, the round's number, when it ended, how many minutes
        after, the floor's limit in minutes)."""
        rows = self._raw.execute(
            "SELECT d.round_id, t.name, r.number, d.ended_at, d.seconds / 60.0, (SELECT pit_late_seconds()) / 60.0"
            " FROM pit_deliveries d JOIN pit_rounds r ON r.id = d.round_id JOIN pit_tables t ON t.id = r.table_id"
            " WHERE d.seconds > (SELECT pit_late_seconds()) ORDER BY d.round_id").fetchall()
        return [(int(i), str(n), int(num), str(e), float(m), float(limit)) for i, n, num, e, m, limit in rows]

    @answers
    def shared_chains(self) -> list[tuple[str, str, int]]:
        """Ledgers whose chains share events (one a copy of the other under a new id): (the ledger
        whose copy of an event came first, the other, how many events they share)."""
        rows = self._raw.execute(
            "SELECT a.origin, b.origin, COUNT(*) FROM pit_events ea JOIN pit_tables a ON a.id = ea.table_id"
            " JOIN pit_events eb ON eb.hash = ea.hash AND eb.id > ea.id JOIN pit_tables b ON b.id = eb.table_id"
            " WHERE a.origin <> b.origin GROUP BY 1, 2 ORDER BY 1, 2").fetchall()
        return [(str(a), str(b), int(n)) for a, b, n in rows]

    @answers
    def account_signatures(self) -> list[tuple[int, str, dict[str, object], str]]:
        """The pit's own account events with the pit's signature of each ("": none): (seq, kind,
        payload, signature)."""
        rows = self._raw.execute(
            "SELECT e.seq, e.kind, e.payload, COALESCE(s.signature, '') FROM pit_events e LEFT JOIN pit_signatures s"
            " ON s.seq = e.seq WHERE e.table_id = 0 AND e.kind = ANY(%s) ORDER BY e.seq",
            (list(ACCOUNT_KINDS),)).fetchall()
        return [(int(q), str(k), json.loads(p), str(sig)) for q, k, p, sig in rows]

    @answers
    def future_events(self, slack_minutes: int = 5) -> list[tuple[str, str, str]]:
        """Events whose time is later than when the server received them: (where, time, received)."""
        rows = self._raw.execute(
            "SELECT t.origin, t.name, e.seq, e.kind, e.ts, to_char(e.received_at AT TIME ZONE 'UTC',"
            " 'YYYY-MM-DD HH24:MI:SS') FROM pit_events e JOIN pit_tables t ON t.id = e.table_id"
            " WHERE e.ts ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+[+-][0-9]{2}:[0-9]{2}$'"
            " AND e.ts::timestamptz > e.received_at + make_interval(mins => %s) ORDER BY e.id LIMIT 1000",
            (slack_minutes,)).fetchall()
        return [(say("terminal {terminal}, {table}, event {seq} ({kind})", terminal=str(o)[:8], table=str(n), seq=str(q),
                     kind=str(k)), str(ts), str(r)) for o, n, q, k, ts, r in rows]

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
    def alarm_rows(self) -> list[tuple[int, str, str, str, str]]:
        """Every alarm the server raised, oldest first: (id, when as ISO UTC, origin, table, what)."""
        rows = self._raw.execute("SELECT id, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS'), origin,"
                                 " table_name, message FROM pit_alarms ORDER BY id").fetchall()
        return [(int(i), str(a), str(o), str(t), str(m)) for i, a, o, t, m in rows]

    @answers
    def acknowledged(self) -> dict[int, tuple[str, str]]:
        """Alarms a manager acknowledged on the pit's chain: alarm id -> (by, reason) — each naming a
        sign-in on the pit's chain by that account, for managing, made to acknowledge that alarm (its
        signature and the account's role are `history verify`'s to check)."""
        return {int(p["alarm"]): (str(p.get("by", "")), str(p.get("reason", ""))) for p in (
            json.loads(t) for (t,) in self._raw.execute(
                "SELECT a.payload FROM pit_events a JOIN pit_events s ON s.table_id = 0 AND s.kind = 'staff_signed_in'"
                " AND s.ledger_seq::text = a.payload::jsonb ->> 'sign_in'"
                " AND s.payload::jsonb ->> 'account' = a.payload::jsonb ->> 'by'"
                " AND s.payload::jsonb ->> 'act' = 'manage'"
                " AND s.payload::jsonb ->> 'purpose' = 'acknowledge alarm ' || (a.payload::jsonb ->> 'alarm')"
                " WHERE a.table_id = 0 AND a.kind = 'alarm_acknowledged'").fetchall())
            if isinstance(p.get("alarm"), int)}

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
        return {int(t): str(a) for t, a in self._raw.execute("SELECT id, pit_area(id) FROM pit_tables").fetchall()}

    def set_area(self, table_id: int, area: str, by: str, sign_in: int) -> None:
        """The pit area a table stands in: a manager's change, signed in for and recorded on the
        pit's chain (`area_changed`); the floor filters by it."""
        known = self._raw.execute("SELECT 1 FROM pit_tables WHERE id = %s AND origin_id <> 0", (table_id,)).fetchone()
        if known is None:
            raise LedgerError(say("the pit server {server} has no table {table} (`dealer-tui pit status` lists them)",
                                  server=self.path, table=str(table_id)))
        self._append_own(lambda _: [NewEvent("area_changed", {"table": table_id, "area": area.strip(), "by": by,
                                                               "sign_in": sign_in})],
                         self.chain_length(0))
