"""A terminal's delivery to the pit server: every table's chain (and the terminal's staff
register) sent from where the server stands, in order, while the table plays.

The table never waits on the network: the ledger is written first, and a thread of its own
(`DeliveryThread`) reads it through a read-only connection and delivers what the server lacks.
While the server cannot be reached the table plays on and the link says since when; it catches up
when the server is back. A server that refuses (the terminal's history disagrees with its own)
keeps an alarm the floor shows, and the link says so.
"""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path

from dealer_tui.events import typed_as
from dealer_tui.events.round_row import END_KINDS
from dealer_tui.events.staff import FloorDecided, StaffLocked, StaffReceived
from dealer_tui.events.table import RoundStarted
from dealer_tui.ledger import LedgerError, SqliteLedger
from dealer_tui.ledger.base import (
    ACCOUNT_KINDS,
    LOCK_SECONDS,
    STAFF_REGISTER,
    NewEvent,
    StoredEvent,
    TableRecord,
    key_fingerprint,
)
from dealer_tui.ledger.kept import missing_secrets, with_secrets
from dealer_tui.ledger.pit_schema import PIT_CLOCK
from dealer_tui.ledger.pit_words import server_said
from dealer_tui.ledger.postgres import DeliveryRefused, PgLedger, shown
from dealer_tui.pit.decisions import decision_problem
from dealer_tui.pit.projection import projection
from dealer_tui.staff.register import StaffRegister
from rules.said import Said, joined, said_of, say

HEARTBEAT_S = 10.0
"""The terminal tells the server it is alive this often, with or without events to deliver."""
OFFLINE_AFTER_S = 30.0
"""The floor shows a table as offline when its terminal was not heard from for this long."""


def unbound_problem(bound: str | None, pit_key: str) -> Said:
    """Why a terminal bound to `bound` takes no staff from the pit whose key is `pit_key` ("": it does)."""
    if not pit_key:
        return say("the pit server has no key: its owner runs `dealer-tui pit init` again to make one")
    if bound is None:
        return say("this terminal is bound to no pit: a manager compares the pit's key {key} and binds it "
                   "(`dealer-tui pit bind`)", key=key_fingerprint(pit_key))
    if bound != pit_key:
        return say("this terminal is bound to pit {bound}, and this server is pit {server}: its staff are not taken "
                   "(a manager re-binds with `dealer-tui pit bind`)", bound=key_fingerprint(bound),
                   server=key_fingerprint(pit_key))
    return NOTHING


NOTHING = Said.literal("")
"""No problem."""
KEY_PROBLEMS = {
    "none": say("no manager of the pit has confirmed this terminal's key for the pit's PINs yet: one does, with their "
                "PIN (`dealer-tui pit bind --pit-manager ID`; a terminal with no staff asks at its start)"),
    "other": say("the pit hands its PINs under another key to this terminal's login (another machine with the same "
                 "login, or this terminal's ledger replaced): a manager of the pit confirms this terminal's key again "
                 "(`dealer-tui pit bind --pit-manager ID`), and the key it replaces is raised as an alarm"),
}
"""Why the pit's staff are not taken though the terminal is bound (`PgLedger.wrapped_secrets`)."""


def link_state(at: str, ago: float | None, closed: bool = False) -> Said:
    """A table's link as the floor shows it, from its terminal's last contact (UTC), how long ago,
    and whether the terminal was closed then."""
    if ago is None:
        return say("never heard from")
    if closed:
        return say("closed at {at} UTC", at=at)
    if ago > OFFLINE_AFTER_S:
        return say("OFFLINE since {at} UTC", at=at)
    return say("online (heard from {seconds} s ago)", seconds=round(ago))


@dataclass(frozen=True)
class LinkState:
    """What the terminal knows of its link to the pit."""

    server: str
    online: bool = False
    since: float | None = None
    """Since when the link is in this state (seconds since the epoch)."""
    delivered: int = 0
    """Events the server took from this terminal since it started."""
    behind: int = 0
    """Events written here that the server does not hold yet (as of the last pass)."""
    problem: Said = NOTHING
    """Why the server cannot be reached, or why it refused."""
    refused: bool = False
    unbound: bool = False
    """The server is reached, but its staff are not taken: this terminal is not bound to it."""

    def describe(self) -> Said:
        """Short enough for the title line of an 80-column terminal."""
        since = time.strftime("%H:%M:%S", time.localtime(self.since)) if self.since else ""
        if self.refused:
            return say("pit: REFUSED since {since}", since=since)
        if not self.online:
            return (say("pit: OFFLINE since {since}, {count} to send", since=since, count=self.behind) if since
                    else say("pit: connecting"))
        if self.unbound:
            return say("pit: NOT BOUND (staff not taken)")
        return say("pit: delivered") if not self.behind else say("pit: sending {count}", count=self.behind)


@dataclass(frozen=True)
class Pass:
    added: int
    known: int
    refused: list[Said]


def _sentence_of(exc: BaseException) -> Said:
    """An error's message as a sentence, the pit server's refusal read back into its own."""
    said = said_of(exc)
    return server_said(said) if said.is_literal and isinstance(exc, DeliveryRefused) else said


class Delivery:
    """One terminal's ledger delivered to one pit server."""

    def __init__(self, ledger: Path, conninfo: str, terminal: str = "") -> None:
        self.ledger_path, self.conninfo = ledger, conninfo
        self.terminal = terminal or socket.gethostname()
        self.host = socket.gethostname()
        self._local: SqliteLedger | None = None
        self._writer: SqliteLedger | None = None
        """The connection the pit's staff are recorded through (the terminal's register)."""
        self._server: PgLedger | None = None
        self.upto = 0
        """The ledger-wide number of the last event of this terminal the server is known to hold."""
        self._said: dict[int, str] = {}
        """The alarm last raised for each table (raised again only when it changes)."""
        self.unbound = NOTHING
        """Why the pit's staff are not taken (this terminal is bound to no pit, or to another), or ""."""

    def close(self, said: bool = False) -> None:
        """Close the connections; `said`: tell the server first that the terminal closes cleanly."""
        if said and self._server is not None and self._local is not None:
            try:
                self._server.contact(self._local.ledger_id(), self.terminal, self.host, closed=True)
            except LedgerError:
                pass
        for db in (self._local, self._server, self._writer):
            if db is not None:
                db.close()
        self._local = self._server = self._writer = None

    def _open(self) -> tuple[SqliteLedger, PgLedger]:
        if self._local is None:
            self._local = SqliteLedger(self.ledger_path, readonly=True)
        if self._server is None:
            self._server = PgLedger(self.conninfo)
        return self._local, self._server

    def once(self) -> Pass:
        """Deliver what the server lacks of every table, as the ledger stands at one moment, in one
        transaction; a table the server refuses is left out and kept as an alarm, the others are
        delivered. `LedgerError` when the server cannot be reached (the next pass connects again)."""
        try:
            local, server = self._open()
            origin = local.ledger_id()
            try:
                server.contact(origin, self.terminal, self.host)
            except DeliveryRefused as exc:  # this ledger's tables are another login's on the server
                message = say("the server refused this terminal: {problem}", problem=_sentence_of(exc))
                if self._said.get(-1) != message:
                    server.alarm(origin, "-", f"{message} (terminal {self.terminal} on {self.host})")  # the pit's record
                    self._said[-1] = message
                return Pass(0, 0, [message])
            self.receive_staff(local, server, origin)
            refused: dict[int, Said] = {}
            with local.snapshot():
                upto = local.last_ledger_seq()
                pending: list[tuple[TableRecord, int, list[StoredEvent]]] = []
                for table in [local.table_record(STAFF_REGISTER), *local.tables()]:
                    server_table = server.server_table(origin, table)
                    try:
                        pending.append((table, server_table, self._missing(local, server, server_table, table)))
                    except DeliveryRefused as exc:
                        refused[server_table] = say("table {table}: {problem}", table=table.name, problem=_sentence_of(exc))
                rounds = {e.round_id for _, _, events in pending for e in events
                          if e.round_id is not None and e.kind in END_KINDS + (RoundStarted.KIND,)}
                rows = {r.id: (r.started_at, r.ended_at) for r in map(local.round, sorted(rounds))}

            def times(round_id: int) -> tuple[str, str | None]:
                return rows[round_id]

            names = {server_table: table.name for table, server_table, _ in pending}
            while True:
                batches = [(t, events) for _, t, events in pending if t not in refused and events]
                try:
                    received = server.receive(batches, lambda e: projection(e, times))
                    break
                except DeliveryRefused as exc:
                    refused[exc.server_table] = say("table {table}: {problem}",
                                                    table=names.get(exc.server_table, str(exc.server_table)),
                                                    problem=_sentence_of(exc))
            for server_table, message in refused.items():
                if self._said.get(server_table) != message:
                    server.alarm(origin, message.split(":")[0].removeprefix("table "),
                                 f"{message} (terminal {self.terminal} on {self.host})")
                    self._said[server_table] = message
            for server_table in [t for t in self._said if t not in refused]:
                del self._said[server_table]
            if not refused:
                self.upto = upto
            return Pass(received.added, received.known, list(refused.values()))
        except LedgerError:
            if self._server is not None:
                self._server.close()
            self._server = None
            raise

    def receive_staff(self, local: SqliteLedger | None = None, server: PgLedger | None = None,
                      origin: str | None = None) -> int:
        """The pit register's accounts and approved profiles this terminal lacks, each with the pit's
        signature, and the lock-outs other terminals recorded that still run, recorded in the
        terminal's own register (so that staff sign in here against the pit's accounts, offline
        too) — only from the pit this terminal is bound to (`unbound` says why not). The events
        recorded."""
        if local is None or server is None:
            local, server = self._open()
        origin = origin or local.ledger_id()
        pit_key = server.pit_key()
        binding = StaffRegister.read(local).binding
        self.unbound = unbound_problem(binding.pit_key if binding is not None else None, pit_key)
        if self.unbound:
            return 0
        assert binding is not None
        have = [typed_as(StaffReceived, e) for e in local.table_events(STAFF_REGISTER, [StaffReceived.KIND])
                if (e.ledger_seq or e.id) > binding.seq]
        last = max((r.pit_seq for r in have if not r.origin and r.event_kind in ACCOUNT_KINDS), default=0)
        last_decision = max((r.pit_seq for r in have if r.event_kind == FloorDecided.KIND), default=0)
        known = {(r.origin, r.pit_seq) for r in have if r.origin}
        secrets = server.wrapped_secrets(self.terminal_key())
        if isinstance(secrets, str):
            self.unbound = KEY_PROBLEMS[secrets]
            return 0
        new: list[StaffReceived] = []
        for e, signature in server.pit_staff(last):
            event = with_secrets(e.payload, secrets)
            if missing_secrets(event):  # not taken before its PIN can be: no account here without it
                self.unbound = say("the pit's event {seq} ({kind}) holds a PIN the pit does not hand to this "
                                   "terminal: its staff are taken up to there", seq=e.seq, kind=e.kind)
                break
            new.append(StaffReceived(pit_seq=e.seq, pit_hash=e.hash, event_kind=e.kind, event=event,
                                     account=str(e.payload.get("account", "")), pit_signature=signature))
        new += [StaffReceived(pit_seq=start, pit_hash="", event_kind=StaffLocked.KIND, account=account,
                              event={"account": account, "until": time.time() + left, "seconds": LOCK_SECONDS},
                              origin=PIT_CLOCK)
                for account, (start, left) in server.server_lockouts().items() if (PIT_CLOCK, start) not in known]
        recorded = len(self._record(local, new)) if new else 0
        decisions = server.floor_decisions(origin, last_decision)
        for decision in decisions:
            recorded += self._receive_decision(local, server, decision)
        return recorded

    def terminal_key(self) -> bytes:
        """This terminal's own key, under which the pit hands it its PINs once a pit manager has
        confirmed it (`PgLedger.take_login_key`)."""
        if self._writer is None:
            self._writer = SqliteLedger(self.ledger_path)
        return self._writer.pit_login_key()

    def _record(self, local: SqliteLedger, new: list[StaffReceived]) -> list[StoredEvent]:
        """Received events recorded in the terminal's register (those another pass took left out)."""
        if self._writer is None:
            self._writer = SqliteLedger(self.ledger_path)
        head = local.chain_length(STAFF_REGISTER)

        def decide(since: list[StoredEvent]) -> list[NewEvent]:
            meanwhile = {(r.origin, r.pit_seq) for r in (typed_as(StaffReceived, e) for e in since
                                                          if e.kind == StaffReceived.KIND)}
            return [r.record() for r in new if (r.origin, r.pit_seq) not in meanwhile]

        return self._writer.append_checked(STAFF_REGISTER, decide, after=head)

    def _receive_decision(self, local: SqliteLedger, server: PgLedger, stored: StoredEvent) -> int:
        """A decision of the pit's floor on one of this terminal's rounds: the supervisor's sign-in
        for it received, the decision recorded in the round (unless the round no longer waits: its
        own floor decided, its cards were corrected), then the decision marked received."""
        decision = typed_as(FloorDecided, stored)
        sign_in = server.pit_event_at(decision.sign_in)
        if sign_in is None:
            return 0
        problem = decision_problem(local, server, local.ledger_id(), decision, sign_in)
        if problem is not None:
            message = say("the pit floor's decision at its event {seq} is not taken: {problem}", seq=stored.seq,
                          problem=problem)
            if self._said.get(-2 - stored.seq) != message:
                server.alarm(local.ledger_id(), str(decision.table), f"{message} (terminal {self.terminal})")
                self._said[-2 - stored.seq] = message
            return 0
        received = self._record(local, [StaffReceived(pit_seq=sign_in.seq, pit_hash=sign_in.hash,
                                                      event_kind=sign_in.kind, event=sign_in.payload,
                                                      account=decision.by, local_table=decision.table)])
        here = next((e.ledger_seq for e in received), None)
        if here is None:  # taken by an earlier pass
            here = next((e.ledger_seq for e in local.table_events(STAFF_REGISTER, [StaffReceived.KIND])
                         if e.payload.get("pit_seq") == sign_in.seq and not e.payload.get("origin")), None)
        assert self._writer is not None
        try:
            self._writer.decide_sign_off(decision.round, decision.approved, decision.by, decision.reason, here)
        except LedgerError:
            pass  # the round no longer waits: the decision is marked received all the same
        return len(received) + len(self._record(local, [StaffReceived(
            pit_seq=stored.seq, pit_hash=stored.hash, event_kind=stored.kind, event=stored.payload,
            account=decision.by)]))

    @staticmethod
    def _missing(local: SqliteLedger, server: PgLedger, server_table: int, table: TableRecord) -> list[StoredEvent]:
        """The table's events the server lacks, and its last one again (checked to be the same)."""
        head_seq, head_hash = server.server_head(server_table)
        length = local.chain_length(table.id)
        if head_seq > length:
            raise DeliveryRefused(say("the server holds {held} events of the table, this terminal's ledger {length}: the "
                                      "ledger was rolled back or restored from an older copy", held=head_seq,
                                      length=length))
        events = local.table_events(table.id, after=max(head_seq - 1, 0))
        if head_seq and (not events or events[0].hash != head_hash):
            raise DeliveryRefused(say("event {seq} differs from the one the server holds (the terminal's history was "
                                      "rewritten, or another terminal delivers the same ledger)", seq=str(head_seq)))
        return events if len(events) > (1 if head_seq else 0) else []

    def pit_table_names(self) -> list[str]:
        """The names of the other terminals' tables on the server, as far as it is reached now
        (none while it is not: the setup does not wait for it)."""
        server = self._server
        if server is None or server.unreachable() is not None:
            return []
        try:
            origin = self._local.ledger_id() if self._local is not None else ""
            return server.table_names(exclude_origin=origin)
        except LedgerError:
            return []

    def written(self) -> int:
        """The ledger-wide number of the last event written here (0 when the ledger cannot be read)."""
        try:
            if self._local is None:
                self._local = SqliteLedger(self.ledger_path, readonly=True)
            return self._local.last_ledger_seq()
        except LedgerError:
            return 0


class DeliveryThread(threading.Thread):
    """Delivers in the background: soon after each write (it looks every `poll` seconds), and a
    heartbeat every `HEARTBEAT_S`; `state` is what the terminal shows."""

    def __init__(self, ledger: Path, conninfo: str, terminal: str = "", poll: float = 0.25) -> None:
        super().__init__(name="pit-delivery", daemon=True)
        self.delivery = Delivery(ledger, conninfo, terminal)
        self.poll = poll
        self.state = LinkState(shown(conninfo))
        self._halt = threading.Event()
        self._wake = threading.Event()

    def wake(self) -> None:
        """Deliver now (after a write)."""
        self._wake.set()

    def stop(self, timeout: float = 5.0) -> None:
        if self.ident is None:  # never started (the terminal quit before its table opened)
            self.delivery.close()
            return
        self._halt.set()
        self._wake.set()
        self.join(timeout)

    def _set(self, **changes: object) -> None:
        state = self.state
        if "online" in changes and changes["online"] != state.online or "refused" in changes and \
                changes["refused"] != state.refused or state.since is None:
            changes.setdefault("since", time.time())  # the state changed (or the first pass said how it is)
        self.state = replace(state, **changes)  # type: ignore[arg-type]

    def run(self) -> None:
        last_mark: int | None = None
        last_pass = 0.0
        backoff = self.poll
        while not self._halt.is_set():
            mark = self.delivery.written()
            due = mark != last_mark or time.monotonic() - last_pass >= HEARTBEAT_S or not self.state.online
            if due:
                try:
                    result = self.delivery.once()
                except LedgerError as exc:
                    self._set(online=False, problem=_sentence_of(exc), refused=False,
                              behind=max(mark - self.delivery.upto, 0))
                    backoff = min(backoff * 2, 5.0)
                except Exception as exc:  # noqa: BLE001  (hostile data from the server: said, and tried again)
                    self._set(online=False, problem=say("internal error ({kind}: {problem})",
                                                         kind=type(exc).__name__, problem=str(exc)), refused=False,
                              behind=max(mark - self.delivery.upto, 0))
                    self.delivery.close()
                    backoff = 5.0
                else:
                    backoff = self.poll
                    last_mark, last_pass = mark, time.monotonic()
                    self._set(online=True, delivered=self.state.delivered + result.added, behind=0,
                              refused=bool(result.refused), unbound=bool(self.delivery.unbound),
                              problem=joined(result.refused) if result.refused else self.delivery.unbound)
            self._wake.wait(backoff)
            self._wake.clear()
        try:
            self.delivery.once()  # what the last moments wrote
        except LedgerError:
            pass
        self.delivery.close(said=True)
