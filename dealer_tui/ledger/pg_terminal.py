"""What a terminal exchanges with the pit server: its deliveries in — each table's events with
what they write (the round's row, its settlement rows, flags, hours, seatings), through the
server's functions, which check the table is the login's own — and the pit's staff, running
lock-outs and floor decisions out (mixed into `PgLedger`)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import psycopg

from dealer_tui.ledger.base import (
    ACCOUNT_KINDS,
    GENESIS,
    STAFF_REGISTER,
    LedgerError,
    RoundUpdate,
    StoredEvent,
    TableRecord,
)
from dealer_tui.ledger.kept import Secret, redacted, unwrap
from dealer_tui.ledger.payouts import house_fees, round_chips
from dealer_tui.ledger.pg_connection import Pooled, answers, first_line
from dealer_tui.ledger.pit_schema import PIT_ORIGIN
from dealer_tui.ledger.pit_words import server_said
from rules.said import say, stored


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
    """The server refused a delivery: the terminal's history disagrees with the server's. Its
    message is a sentence: the server's own refusal read back into its sentence (`pit_words`), as
    the server worded it when it is not one known here."""

    def __init__(self, message: str, server_table: int = 0) -> None:
        super().__init__(message)
        self.server_table = server_table


class TerminalExchange:
    """A terminal's side of the pit server, over the pool's connections (`_raw`)."""

    _raw: Pooled
    path: str

    @answers
    def pit_staff(self, after: int) -> list[tuple[StoredEvent, str]]:
        """The pit register's account events (accounts, approved profiles) after chain number
        `after`, each with the pit's signature ("": none)."""
        kinds = list(ACCOUNT_KINDS)
        rows = self._raw.execute("SELECT e.id, e.seq, e.ts, e.kind, e.payload, e.prev_hash, e.hash, e.ledger_seq,"
                                 " COALESCE(s.signature, '') FROM pit_events e LEFT JOIN pit_signatures s ON s.seq = e.seq"
                                 " WHERE e.table_id = 0 AND e.seq > %s AND e.kind = ANY(%s) ORDER BY e.seq",
                                 (after, kinds)).fetchall()
        return [(StoredEvent(int(i), STAFF_REGISTER, None, int(q), str(t), str(k), json.loads(p), str(ph), str(h),
                             None if ls is None else int(ls)), str(sig)) for i, q, t, k, p, ph, h, ls, sig in rows]

    @answers
    def wrapped_secrets(self, key: bytes) -> dict[str, Secret] | str:
        """The secret parts of the PINs of the pit's register, unwrapped with this terminal's own
        `key`, once a manager of the pit has confirmed it for this login (`take_login_key`); else
        why not: "none" (no key confirmed for the login) or "other" (another key is). The pit
        owner's login reads them as they are."""
        owner = self._raw.execute("SELECT has_table_privilege('pit_pin_secrets', 'SELECT')").fetchone()
        if owner is not None and owner[0]:
            rows = self._raw.execute("SELECT kept, hash, sealed, nonce FROM pit_pin_secrets").fetchall()
            return {str(k): Secret(str(k), str(h), str(s), str(n)) for k, h, s, n in rows}
        row = self._raw.execute("SELECT pit_key_state(%s)", (key.hex(),)).fetchone()
        if row is None or row[0] != "this":
            return "none" if row is None else str(row[0])
        found: dict[str, Secret] = {}
        for kept, iv, wrapped in self._raw.execute("SELECT kept, iv, wrapped FROM pit_wrapped_secrets()").fetchall():
            secret = Secret.parse(str(kept), unwrap(key, bytes.fromhex(str(iv)), bytes.fromhex(str(wrapped))))
            if secret is not None:
                found[secret.kept] = secret
        return found

    @answers
    def take_login_key(self, kept: str, attempt: str, key: bytes) -> tuple[str, str] | None:
        """A manager of the pit confirms this terminal's `key` for its login with their PIN (`kept`,
        and the hash of the PIN typed): what `unseal` gives; the key is taken only when the PIN is
        an active manager's of the pit."""
        with self._raw.transaction():
            row = self._raw.execute("SELECT pit_take_login_key(%s, %s, %s)", (kept, attempt, key.hex())).fetchone()
        if row is None or row[0] is None:
            return None
        sealed, _, nonce = str(row[0]).partition(":")
        return sealed, nonce

    @answers
    def pit_key(self) -> str:
        """The pit's public key ("" when the pit has none yet: made before pits had keys)."""
        row = self._raw.execute("SELECT value FROM pit_meta WHERE key = 'pit_key'").fetchone()
        return "" if row is None else str(row[0])

    @answers
    def pit_key_from(self) -> int:
        """How many events of the pit's own register came before its key (unsigned, from before pits signed)."""
        row = self._raw.execute("SELECT value FROM pit_meta WHERE key = 'pit_key_from'").fetchone()
        return int(row[0]) if row is not None and str(row[0]).isdigit() else 0

    @answers
    def pit_signature(self, seq: int) -> str:
        """The pit's signature of the event at `seq` of its own chain ("": none)."""
        row = self._raw.execute("SELECT signature FROM pit_signatures WHERE seq = %s", (seq,)).fetchone()
        return "" if row is None else str(row[0])

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

    def contact(self, origin: str, terminal: str, host: str, closed: bool = False) -> None:
        """The terminal is alive (its heartbeat), or, `closed`, it was shut down cleanly."""
        self._call("SELECT pit_contact(%s, %s, %s, %s)", (origin, terminal, host, closed))

    def alarm(self, origin: str, table: str, message: str) -> None:
        self._call("SELECT pit_alarm(%s, %s, %s)", (origin, table, message))

    def _call(self, text: str, args: tuple[object, ...]) -> None:
        try:
            self._raw.execute(text, args)
        except psycopg.errors.InsufficientPrivilege as exc:
            raise DeliveryRefused(server_said(first_line(exc).removeprefix("ERROR:").strip())) from None
        except psycopg.Error as exc:
            raise LedgerError(say("the pit server {server} refused: {problem}", server=self.path,
                                  problem=first_line(exc))) from None

    def server_table(self, origin: str, table: TableRecord) -> int:
        """The server's id of a terminal's table, registered on its first delivery (`pit_register`:
        a table of a ledger whose tables another login registered is refused)."""
        try:
            row = self._raw.execute("SELECT pit_register(%s, %s, %s, %s, %s, %s, %s, %s)",
                                    (origin, table.id, table.name, table.game, table.profile, table.profile_sha256,
                                     table.card_source, table.created_at)).fetchone()
        except psycopg.errors.InsufficientPrivilege:
            raise DeliveryRefused(say("the server holds tables of this ledger (id {ledger}) that another login "
                                      "registered: a copy of this ledger, or a login posing as it", ledger=origin)
                                  ) from None
        except psycopg.Error as exc:
            raise LedgerError(say("the pit server {server} refused the table: {problem}", server=self.path,
                                  problem=first_line(exc))) from None
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
            raise DeliveryRefused(server_said(first_line(exc).removeprefix("ERROR:").strip()), current) from None
        except psycopg.Error as exc:
            raise LedgerError(say("the pit server {server} did not take the delivery: {problem}", server=self.path,
                                  problem=first_line(exc))) from None
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
                 json.dumps(redacted(e.payload), sort_keys=True, ensure_ascii=False), e.prev_hash, e.hash,
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
            rows = json.dumps([{"seat": r.seat, "bet": r.bet, "stake": r.stake, "result": r.result, "reason": stored(r.reason),
                                "role": r.role} for r in update.settlement])
            worked = round_chips(update.settlement)
            chips = [worked.paid, worked.returned, worked.from_stacks, worked.max_payout,
                     house_fees(update.settlement)]
            banking = worked.kind
        self._raw.execute("SELECT pit_round_update(%s, %s, %s, %s, %s, %s::jsonb, %s, %s)",
                          (round_id, update.status, sorted(update.add_flags), ts,
                           list(update.totals) if update.totals is not None else None, rows, chips, banking))
