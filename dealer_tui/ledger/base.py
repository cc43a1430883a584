"""Records and the storage-neutral interface of the ledger."""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from dealer_tui.ledger.kept import redacted
from rules.said import Said, say

GENESIS = "0" * 64

ROUND_OPEN = "open"
ROUND_SETTLED = "settled"
ROUND_VOIDED = "voided"

FLAGS = {
    "signed_off": "a supervisor signed off the payout",
    "override": "a manager paid a payout the floor had refused, saying why",
    "voided": "the round was voided (a misdeal): every bet returned",
    "capped": "a payout was cut by a cap or by table stakes",
    "recovered": "the round was reopened after a restart",
    "seeded": "dealt from a seed (training, demos)",
    "training": "played at a training table (demos): left out of the totals unless asked for",
    "late_delivery": "reached the pit server later after it ended than the floor allows (a terminal offline, or "
                     "rounds held back): the pit's own flag",
}
"""The flags a round of any game may carry, with what they mean; a game's own flags are its
round's `FLAGS` (`Games.flags()` gives them all: what the floor's flag filter and `history export
--flag` offer)."""

TRAINING = "training"

STAFF_REGISTER = 0
"""The id of the staff register: accounts, sign-ins and profile approvals are its hash chain,
kept like a table's (the witness and `history verify` cover it) but never listed as a table."""
ACCOUNT_KINDS = ("staff_added", "staff_role_changed", "staff_pin_changed", "staff_disabled", "profile_approved",
                 "floor_settings_changed", "staff_unlocked", "staff_language_changed")
"""The events that make the accounts (and the approved profiles) what they are: a pit server's
register holds them, and its terminals receive them."""
MAX_TRIES = 3
"""Wrong PINs in a row that lock an account."""
LOCK_SECONDS = 5 * 60
"""How long three wrong PINs in a row lock an account."""
PIT_BOUND = "pit_bound"
STAFF_ACCOUNT_KINDS = (*ACCOUNT_KINDS, "staff_received", PIT_BOUND)
"""The register's events that make the accounts (and the approved profiles) what they are: few,
read whole on start; sign-ins and refusals are read one account or one sign-in at a time."""
STAFF_AUTH_KINDS = ("staff_signed_in", "staff_refused", "staff_locked", "staff_unlocked", "staff_received")

SIGN_OFF_REQUESTED = "sign_off_requested"
SIGN_OFF_APPROVED = "sign_off_approved"
SIGN_OFF_REFUSED = "sign_off_refused"
SIGN_OFF_KINDS = (SIGN_OFF_REQUESTED, SIGN_OFF_APPROVED, SIGN_OFF_REFUSED)
SIGN_OFF_WITHDRAWN_BY = ("cards_corrected",)
"""Events after which a waiting request (or a decision on it) no longer stands: the payout it
was about may have changed, so the dealer sends it to the floor again."""

SORTS = {"time": "started_at", "wagered": "wagered", "paid": "paid", "house": "house_result"}
"""The columns the rounds list sorts by (always then by id), keyed by the name the screen uses."""

Cursor = tuple[object, int]
"""Where a page of rounds ended: the last row's sort value and id (keyset paging)."""


class LedgerError(Exception):
    """The ledger could not be read or written; nothing was changed."""


class NotALedger(LedgerError):
    """The file is not a dealer-tui ledger: empty, another program's SQLite file, or no SQLite
    file at all."""


NOTHING_RECORDED = "; nothing was recorded"
"""How a storage fault's English message ends when a write failed."""


class StorageError(LedgerError):
    """The storage under the ledger failed (disk full, read-only, an I/O error): nothing was
    recorded, and the same step may be tried again once the storage is fixed. Its message is a
    sentence (`storage.storage_error`) or a plain text."""

    def __init__(self, message: str, problem: str, fault: str | None = None) -> None:
        super().__init__(message)
        self.problem = problem
        """What failed, in a few words: "disk full", "read-only", "I/O error"... (a code: compared
        as it is; `storage.problem_said` says it in words)."""
        self.fault: str = fault if fault is not None else message.removesuffix(NOTHING_RECORDED)
        """The message without its "nothing was recorded" (a dialog says that in its own words)."""


HEARTBEAT_S = 30.0
"""A terminal renews its hold on its table this often (and with a write, when one is due)."""
LEASE_TIMEOUT_S = 120.0
"""A hold not renewed for this long is a dead terminal's: another terminal may take the table over."""


@dataclass(frozen=True)
class Lease:
    """A terminal's hold on a table: only the holder writes the table's rounds."""

    table_id: int
    terminal: str
    pid: int
    host: str
    since: str
    """When the terminal took the table (ISO time, UTC)."""
    renewed_at: float
    """The last heartbeat (seconds since the epoch)."""

    def describe(self) -> Said:
        """The terminal as a takeover notice names it: its id, process, host and since when."""
        since = self.since[:19].replace("T", " ")
        return say("terminal {terminal} (process {pid} on {host}; it took the table at {since} UTC)",
                   terminal=self.terminal, pid=str(self.pid), host=self.host, since=since)


class TableInUse(LedgerError):
    """The table is open on another terminal that is still alive; it may only be reviewed here."""

    def __init__(self, table: str, lease: Lease) -> None:
        super().__init__(say("table {table} is open on another terminal: {terminal}; it can be reviewed here "
                             "(read-only), not played", table=table, terminal=lease.describe()))
        self.table, self.lease = table, lease


class LeaseLost(LedgerError):
    """This terminal's hold on its table was taken over by another terminal: it may not write the
    table any more (nothing was recorded)."""

    def __init__(self, table: str, lease: Lease | None) -> None:
        by = lease.describe() if lease is not None else say("another terminal (this terminal's hold was released)")
        super().__init__(say("table {table} was taken over by {terminal}: nothing was recorded here; the table is "
                             "played on that terminal now", table=table, terminal=by))
        self.table, self.lease = table, lease


STATUS_WORDS: dict[str, Said] = {ROUND_OPEN: say("open"), ROUND_SETTLED: say("settled"), ROUND_VOIDED: say("voided")}
"""A round's status as a reader says it (the record keeps the code)."""


def status_said(status: str) -> Said:
    """A round's status in the reader's words; a status not known here as recorded."""
    return STATUS_WORDS.get(status) or Said.literal(status)


def round_is(status: str) -> Said:
    """Why a round takes no more steps of a kind: it is settled or voided (or another status, named)."""
    if status == ROUND_SETTLED:
        return say("the round is settled")
    if status == ROUND_VOIDED:
        return say("the round is voided")
    return say("the round is {status}", status=status_said(status))


def canonical(data: Any) -> str:
    """The one JSON text of a value that its hash is computed over."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def pit_signed_text(pit_key: str, seq: int, kind: str, payload: dict[str, Any]) -> bytes:
    """What the pit's key signs of an account event on its own register: the key it is signed with
    (so one pit's signature never stands for another's), the event's place in the pit's chain, its
    kind and its content as the pit holds it."""
    return canonical({"pit": pit_key, "seq": seq, "kind": kind, "payload": redacted(payload)}).encode()


def key_fingerprint(public: str) -> str:
    """A public key as a person compares it: the first 80 bits of its SHA-256, in groups of four."""
    digest = hashlib.sha256(bytes.fromhex(public) if _is_hex(public) else public.encode()).hexdigest()[:20]
    return " ".join(digest[i:i + 4] for i in range(0, 20, 4))


def _is_hex(text: str) -> bool:
    try:
        bytes.fromhex(text)
    except ValueError:
        return False
    return True


def event_hash(prev_hash: str, table_id: int, round_id: int | None, seq: int, ts: str, kind: str,
               payload: dict[str, Any], ledger_seq: int | None = None) -> str:
    """The event's hash over the one before it in its table's chain and its own content; an
    event written since the ledger-wide sequence exists (schema 6) covers its place in it too. A
    PIN in the kept form counts by its digest, not its secret parts (`kept`)."""
    fields: dict[str, Any] = {"table": table_id, "round": round_id, "seq": seq, "ts": ts, "kind": kind,
                              "payload": redacted(payload)}
    if ledger_seq is not None:
        fields["ledger_seq"] = ledger_seq
    return hashlib.sha256(f"{prev_hash}|{canonical(fields)}".encode()).hexdigest()


@dataclass(frozen=True)
class NewEvent:
    """An event a round computed and wants recorded."""

    kind: str
    payload: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class StoredEvent:
    """An event as the ledger holds it, with its place in the chain."""

    id: int
    table_id: int
    round_id: int | None
    seq: int
    ts: str
    kind: str
    payload: dict[str, Any]
    prev_hash: str
    hash: str
    ledger_seq: int | None = None
    """The event's place among every event of the ledger, across tables (1, 2, 3, ...)."""

    def expected_hash(self) -> str:
        return event_hash(self.prev_hash, self.table_id, self.round_id, self.seq, self.ts, self.kind,
                          self.payload, self.ledger_seq)

    def hash_checks(self, older_first: bool = False) -> bool | None:
        """Whether the stored hash is the content's: over the ledger-wide sequence, or for an event
        written before the ledger had one (schema 5 and older), without it. None: it is neither;
        True: the one over the sequence; False: the older one (tried first with `older_first`)."""
        forms = [None, self.ledger_seq] if older_first else [self.ledger_seq, None]
        for ledger_seq in dict.fromkeys(forms):
            if self.hash == event_hash(self.prev_hash, self.table_id, self.round_id, self.seq, self.ts, self.kind,
                                       self.payload, ledger_seq):
                return ledger_seq is not None
        return None


@dataclass(frozen=True)
class SettlementRow:
    """One seat's result on one bet: `result` is signed (+won, -lost, 0 push or returned)."""

    seat: int
    bet: str
    stake: int
    result: int
    reason: str
    role: str = ""
    """What the row's chips are, as the game declared the bet when the row was recorded
    (`rules.bets`: wager, bank, rake, fee, pool); empty on a row not recorded yet."""

    @classmethod
    def read(cls, seat: int, bet: str, stake: int, result: int, reason: str, role: str = "") -> SettlementRow:
        """A row as a settlements table holds it: its reason, stored as a sentence's record
        (`Said.stored`) or an older row's English, read back as a sentence."""
        return cls(seat, bet, stake, result, Said.from_stored(reason), role)


@dataclass(frozen=True)
class TableRecord:
    id: int
    name: str
    game: str
    profile: str
    profile_sha256: str
    card_source: str
    created_at: str


@dataclass(frozen=True)
class RoundRecord:
    """A round's row: status, flags and the totals the floor review lists."""

    id: int
    table_id: int
    number: int
    game: str
    profile: str
    status: str
    flags: frozenset[str]
    started_at: str
    ended_at: str | None
    seats: int
    wagered: int
    paid: int
    house_result: int
    returned: int = 0
    from_stacks: int = 0
    banking: str = "house"
    """How the round was banked (`payouts.KINDS`)."""
    max_payout: int = 0
    """The largest one seat's payout (`payouts.seat_chips`)."""


@dataclass(frozen=True)
class RoundUpdate:
    """What an append changes on its round besides adding events."""

    status: str | None = None
    add_flags: frozenset[str] = frozenset()
    settlement: Sequence[SettlementRow] | None = None
    totals: tuple[int, int, int, int] | None = None  # seats, wagered, paid, house result
    """With settlement rows, the round's paid, returned, from-stacks and biggest payout are worked
    out from the rows (`payouts.round_chips`): the one definition, whatever paid says here."""


@dataclass(frozen=True)
class RowQuery:
    """Filters for settlement rows (every field optional)."""

    game: str | None = None
    table_id: int | None = None
    since: str | None = None  # ISO time, inclusive
    until: str | None = None  # ISO time, exclusive
    seat: int | None = None
    min_payout: int | None = None  # rounds (export: seats) with one seat's payout at least this
    flag: str | None = None
    search: str | None = None  # a round number or id, a table's name or a player's name (part of it)
    training: bool = False  # take in the rounds of training tables (always, filtering by the flag)
    area: str | None = None  # the pit area the table stands in (a pit server's tables; any case)

    @property
    def only_time(self) -> bool:
        """Whether the query filters by nothing but game, table and time (the hourly totals answer it:
        they hold no training round)."""
        return (self.seat is None and self.min_payout is None and self.flag is None and not self.search
                and not self.training and not self.area)

    @property
    def without_training(self) -> bool:
        """Whether training tables' rounds are left out."""
        return not self.training and self.flag != TRAINING


@dataclass(frozen=True)
class Totals:
    """Drop, win and hold of a table's finished rounds of one game banked one way (`banking`).
    They add up as  wagered + from_stacks = paid + returned + house  (`payouts.RoundChips`)."""

    table_id: int
    game: str
    rounds: int
    wagered: int
    paid: int
    house: int
    max_payout: int
    fees: int = 0
    """Rake and fees the house took (part of `house`)."""
    banking: str = "house"
    returned: int = 0
    from_stacks: int = 0

    @property
    def hold(self) -> float | None:
        """The house's result as a share of the drop (None when nothing was wagered)."""
        return self.house / self.wagered if self.wagered else None


@dataclass(frozen=True)
class HourTotals:
    """One hour's settled rounds banked one way: the drop and the house's signed result."""

    hour: str
    banking: str
    rounds: int
    wagered: int
    house: int

    @property
    def hold(self) -> float | None:
        return self.house / self.wagered if self.wagered else None


@dataclass(frozen=True)
class PendingSignOff:
    """A payout the dealer sent to the floor, still waiting for the supervisor's decision."""

    round: RoundRecord
    request: StoredEvent


def cursor_of(record: RoundRecord, sort: str) -> Cursor:
    """The keyset cursor after `record` in a list sorted by `sort`."""
    value = record.started_at if sort == "time" else getattr(record, SORTS[sort])
    return (value, record.id)


class Ledger(ABC):
    """Storage-neutral journal, as every store keeps it (a terminal's own ledger and the pit server):
    its reads, the events appended to a table's chain and the floor's decisions; every write is one
    transaction that fully lands or not at all."""

    @abstractmethod
    def tables(self) -> list[TableRecord]: ...

    @abstractmethod
    def append(self, table_id: int, round_id: int | None, events: Sequence[NewEvent],
               update: RoundUpdate | None = None) -> list[StoredEvent]:
        """Record events (and the round's new status, flags, settlement) atomically."""

    @abstractmethod
    def append_checked(self, table_id: int, decide: Callable[[list[StoredEvent]], Sequence[NewEvent]],
                       after: int = 0) -> list[StoredEvent]:
        """Record what `decide` makes of the chain's events after chain number `after`, as they are
        inside the write's own transaction (no other writer in between: a lock-out counted across
        terminals); `decide` raising records nothing."""

    @abstractmethod
    def chain_length(self, table_id: int) -> int:
        """The chain number of the table's last event (0: none)."""

    @abstractmethod
    def ledger_event(self, ledger_seq: int) -> StoredEvent | None:
        """The event at this place in the ledger-wide sequence, if any."""

    @abstractmethod
    def staff_auth(self, account: str) -> list[StoredEvent]:
        """The account's sign-ins, refused sign-ins and lock-outs since its latest sign-in or
        lock-out (that one first), in chain order: what its lock-out is worked out from."""

    @abstractmethod
    def round(self, round_id: int) -> RoundRecord: ...

    @abstractmethod
    def round_events(self, round_id: int) -> list[StoredEvent]: ...

    @abstractmethod
    def table_events(self, table_id: int, kinds: Sequence[str] | None = None, after: int = 0) -> list[StoredEvent]:
        """The table's events in chain order (of these kinds; only those after chain number `after`)."""

    @abstractmethod
    def settlement(self, round_id: int) -> list[SettlementRow]: ...

    @abstractmethod
    def unfinished_rounds(self, table_id: int | None = None) -> list[RoundRecord]: ...

    @abstractmethod
    def recent_rounds(self, limit: int = 50, before_id: int | None = None) -> list[RoundRecord]: ...

    @abstractmethod
    def table_rounds(self, table_id: int) -> list[RoundRecord]:
        """Every round of a table, oldest first."""

    @abstractmethod
    def settlement_rows(self, query: RowQuery) -> Iterator[tuple[RoundRecord, SettlementRow]]:
        """Settlement rows of finished rounds matching the query, oldest round first."""

    @abstractmethod
    def table_settlements(self, table_id: int) -> dict[int, list[SettlementRow]]:
        """Every settled round's rows at a table, by round id (what `table_rounds` lists)."""

    @abstractmethod
    def table_stakes(self, table_id: int) -> dict[int, dict[str, int]]:
        """The chips staked in each settled round at a table, by round id and bet (all seats)."""

    @abstractmethod
    def any_flagged(self, flag: str) -> bool:
        """Whether any round carries the flag (the floor says training rounds are left out only
        where there are some)."""

    @abstractmethod
    def find_rounds(self, query: RowQuery, limit: int = 100, after: Cursor | None = None, sort: str = "time",
                    descending: bool = True) -> list[RoundRecord]:
        """Rounds matching the query sorted by `sort` (newest first by default), `limit` at a time; the
        next page starts `after` the cursor of the last row shown (`cursor_of`)."""

    @abstractmethod
    def totals(self, query: RowQuery) -> list[Totals]:
        """Finished rounds' totals per table and game."""

    @abstractmethod
    def hourly(self, query: RowQuery) -> list[HourTotals]:
        """Finished rounds per hour and banking, oldest hour first."""

    @abstractmethod
    def sign_off_queue(self) -> list[PendingSignOff]:
        """Unfinished rounds whose latest sign-off request has no decision yet, oldest first."""

    @abstractmethod
    def decide_sign_off(self, round_id: int, approved: bool, by: str, reason: str = "",
                        sign_in: int | None = None) -> StoredEvent:
        """Record the supervisor's decision on the round's waiting request (`sign_off_approved {by,
        sign_in}` or `sign_off_refused {by, reason, sign_in}`); refused when nothing is waiting any more."""

    @abstractmethod
    def chain_problems(self) -> list[str]:
        """Every event whose hash or link does not check, one line each naming table and round."""

    def unreachable(self) -> str | None:
        """Why the ledger cannot be read now (a server away), said in words; None: it can be."""
        return None

    checks_pins_elsewhere = False
    """Whether PINs whose secret parts its register lacks are checked by `unseal` (the pit's)."""

    def unseal(self, kept: str, attempt: str) -> tuple[str, str] | None:
        """For a PIN whose secret parts this ledger's reader does not hold (`kept`): its sealed key
        and nonce when `attempt` is its hash, else None. A ledger whose register holds its PINs in
        full checks them itself (None here)."""
        return None

    def change_mark(self) -> int:
        """A number that changes when the ledger was written since (by anyone): the floor looks
        again then. 0: not known (the floor looks every few seconds)."""
        return 0

    @abstractmethod
    def close(self) -> None: ...


class TableLedger(Ledger):
    """A terminal's own ledger: besides the journal it opens tables, holds them for the terminal
    that plays them (leases) and opens their rounds. The pit server takes a table only as its
    terminal delivers it, so it is a `Ledger`, not one of these."""

    @abstractmethod
    def create_table(self, name: str, game: str, profile: str, profile_sha256: str, card_source: str, *,
                     events: Sequence[NewEvent] = (), lease: bool = False) -> TableRecord:
        """A new table with its opening events (and, with `lease`, held by this terminal), atomically."""

    @abstractmethod
    def take_table(self, table_id: int) -> Lease | None:
        """Hold the table for this terminal, in one transaction: None when it was free or already
        held here; the lease taken over when its terminal is gone (its process ended on this host,
        or no heartbeat for `LEASE_TIMEOUT_S`), recorded as a `terminal_taken_over` event.
        `TableInUse` when another live terminal holds it."""

    @abstractmethod
    def release_table(self, table_id: int) -> None:
        """Give up this terminal's hold on the table (a clean exit)."""

    @abstractmethod
    def renew_leases(self) -> None:
        """The heartbeat: every table held here is renewed; `LeaseLost` for one taken over."""

    @abstractmethod
    def table_lease(self, table_id: int) -> Lease | None:
        """Who holds the table now (None: no terminal)."""

    @abstractmethod
    def open_round(self, table_id: int, game: str, profile: str, events: Sequence[NewEvent],
                   flags: frozenset[str] = frozenset()) -> RoundRecord:
        """Start a round (with its flags) and record its first events, atomically."""
