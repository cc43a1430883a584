"""The staff register as the ledger holds it: every account and its history, the sign-ins by
their place in the ledger, lock-outs, and the casino profiles approved — the fold of the
register's chain (`ledger.base.STAFF_REGISTER`), read again whenever authority is asked for."""

from __future__ import annotations

import math
import threading
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime

from dealer_tui.events import Event, EventError, typed
from dealer_tui.events.codec import Recorded
from dealer_tui.events.staff import (
    MANAGER,
    ROLES,
    Claim,
    FloorDecided,
    FloorSettingsChanged,
    PinHash,
    PitBound,
    ProfileApproved,
    Signed,
    StaffAdded,
    StaffDisabled,
    StaffLanguageChanged,
    StaffLocked,
    StaffPinChanged,
    StaffReceived,
    StaffRefused,
    StaffRoleChanged,
    StaffSignedIn,
    StaffUnlocked,
    signed_text,
)
from dealer_tui.language import LANGUAGES
from dealer_tui.ledger.base import (
    ACCOUNT_KINDS,
    LOCK_SECONDS,
    MAX_TRIES,
    STAFF_ACCOUNT_KINDS,
    STAFF_REGISTER,
    Ledger,
    StoredEvent,
    key_fingerprint,
    pit_signed_text,
)
from dealer_tui.ledger.kept import secret_problems
from dealer_tui.staff.authority import claim_problem
from dealer_tui.staff.floor_settings import defaults, setting_problem
from dealer_tui.staff.pins import ROLE_NAMES, key_checks, readable_anywhere, signature_checks
from rules.said import Said, as_figure, said_of, say

_KEPT: weakref.WeakKeyDictionary[Ledger, StaffRegister] = weakref.WeakKeyDictionary()
_READING = threading.RLock()
"""One thread at a time brings a kept register up to date."""
"""The register of each open ledger connection, as last read (`StaffRegister.read`)."""
def shortened(value: str, most: int = 40) -> str:
    """A value a message quotes, cut short past `most` characters."""
    return repr(value[:most]) + ("…" if len(value) > most else "")


LOCK_SLACK_S = 60.0
"""Clocks of terminals and the server may differ by this much."""


@dataclass(frozen=True)
class Account:
    id: str
    name: str
    role: str
    active: bool
    pin: PinHash
    since: int
    """The ledger-wide number of the event that made the account as it is."""
    vouched: bool = True
    """False: received from a pit before pits signed their registers; it grants nothing here."""
    language: str = ""
    """The language the account reads (`dealer_tui.language`); "": the terminal's."""

    def describe(self) -> Said:
        """`Dana Dealer (D1, dealer)`: a sentence, its role in the reader's language."""
        role = ROLE_NAMES.get(self.role) or Said.literal(self.role)
        if self.active:
            return say("{name} ({account}, {role})", name=self.name, account=self.id, role=role)
        return say("{name} ({account}, {role}, disabled)", name=self.name, account=self.id, role=role)


@dataclass(frozen=True)
class SignInRecord:
    """A sign-in as recorded: who, for what, where, when."""

    seq: int
    ts: str
    event: StaffSignedIn


@dataclass
class Binding:
    """The pit this terminal takes its staff from: its key, and who bound it where."""

    pit_key: str
    server: str
    by: str
    seq: int
    manager_key: str = ""
    """Set while a pit manager's confirmation waits for the pit's account to show that key."""
    confirmed: bool = True


@dataclass
class Lockout:
    failures: int = 0
    """Wrong PINs in a row since the last sign-in or lock-out."""
    until: float = 0.0


class StaffRegister:
    """Accounts and approvals as of the last event folded in; sign-ins and lock-outs looked up in
    the ledger when asked for (a register read from a ledger), or from the events folded in (the
    whole chain, as `history verify` reads it)."""

    def __init__(self, ledger: Ledger | None = None) -> None:
        self._ledger = weakref.ref(ledger) if ledger is not None else None
        self.accounts: dict[str, Account] = {}
        self.history: dict[str, list[Account]] = {}
        self.sign_ins: dict[int, SignInRecord] = {}
        """Sign-ins folded in or looked up so far, by their place in the ledger-wide sequence."""
        self.approved: dict[str, ProfileApproved] = {}
        """Approved casino profiles by the SHA-256 of their text."""
        self.settings: dict[str, int] = defaults()
        """The floor's settings as the managers last set them (`staff.floor_settings`)."""
        self.approved_at: dict[str, int] = {}
        """Where each text's first approval stands in the ledger-wide sequence."""
        self.first_seq: int | None = None
        """Where the register began (its first account): approvals before it name a typed name only."""
        self.problems: list[str] = []
        """Events of the chain that do not stand (an account added twice, a change by no one): sentences
        (`rules.said`), each naming the event."""
        self.seq = 0
        """Every event of the chain up to this number is folded in (or, a sign-in or a refusal, left
        to be looked up when asked for)."""
        self.attached = False
        """Whether the accounts come from a pit server's register (received): they are changed there."""
        self._received: set[tuple[str, int]] = set()
        self._from_pit: set[str] = set()
        """The accounts received from the pit (a local account of the same ID gave way to each)."""
        self._last_account_seq = 0
        self._refused: dict[str, tuple[int, int]] = {}
        """Each account's latest refused sign-in: (chain number, wrong PINs in a row then)."""
        self.local_root = False
        """Whether the register's first manager was made here (not received from a pit)."""
        self.binding: Binding | None = None
        """The pit this terminal is bound to (None: none)."""
        self.unsigned_receipts = 0
        """Account events received from a pit before pits signed their registers (before any binding)."""

    @classmethod
    def read(cls, ledger: Ledger) -> StaffRegister:
        """The register as the ledger holds it now. One register is kept per ledger connection and
        brought up to date with the events written since it was last read (a sign-in reads a
        handful of events, not the register's whole history)."""
        with _READING:  # a screen's worker thread and the screen itself may read one ledger's register at once
            register = _KEPT.get(ledger)
            if register is None:
                register = _KEPT[ledger] = cls(ledger)
            head = ledger.chain_length(STAFF_REGISTER)  # first: what is written after it is read next time
            register.fold(e for e in ledger.table_events(STAFF_REGISTER, STAFF_ACCOUNT_KINDS, after=register.seq)
                          if e.seq <= head)
            register.seq = max(register.seq, head)
            return register

    def fold(self, events: Iterable[StoredEvent]) -> None:
        """Fold in the register's events that follow the last one folded (in chain order)."""
        for stored in events:
            if stored.seq <= self.seq:
                continue  # folded already
            self.seq = stored.seq
            try:
                event = typed(stored)
            except EventError as exc:
                self._problem(say("staff register, event {seq}", seq=str(stored.ledger_seq)), said_of(exc))
                continue
            self.apply(event, stored)

    def _problem(self, where: Said, what: str) -> None:
        """An event of the chain that does not stand: where it is, and why (a sentence)."""
        self.problems.append(say("{where}: {what}", where=where, what=what))

    def apply(self, event: Recorded, stored: StoredEvent) -> None:
        seq = stored.ledger_seq if stored.ledger_seq is not None else stored.id
        where = say("{where}, event {seq} ({kind})", where=say("staff register"), seq=str(seq), kind=stored.kind)
        if secret_problems(stored.payload):
            self._problem(where, say("the PIN's hash or sealed key is not the one the event names (changed since it "
                                     "was written): nobody signs in with it"))
        if isinstance(event, StaffReceived):
            self._receive(event, stored, seq, where)
            return
        if isinstance(event, PitBound):
            self._bind(event, stored, seq, where)
            return
        if isinstance(event, Signed) and not self._signed_by_signer(event, stored.seq):
            signer = event.signer()
            self._problem(where, say("its signature is not {signer}'s: written without {signer}'s PIN (it stands for "
                                     "nothing)", signer=signer))
            return
        claim = event.claim() if isinstance(event, Event) else None
        if claim is not None:  # a change of the register: by an account that held the role then, signed in for it
            table, number = event.place() if isinstance(event, FloorDecided) else (None, None)
            problem = claim_problem(self, claim, at=seq, table=table, round=number)
            if problem is not None:
                self._problem(where, say("{problem} (it stands for nothing)", problem=problem))
                return
        if isinstance(event, StaffSignedIn):
            self.sign_ins[seq] = SignInRecord(seq, stored.ts, event)
            return
        if isinstance(event, StaffRefused):
            self._refused[event.account] = (stored.seq, event.failures if event.reason == "pin" else 0)
            return
        if isinstance(event, StaffLocked):
            self._check_lock(event, stored, where)
            return
        self._change(event, where, seq)

    def _check_lock(self, event: StaffLocked, stored: StoredEvent, where: Said) -> None:
        """A lock-out follows, in the same write, the refusal that made the wrong PINs three, and
        lasts as long as a lock-out does."""
        last = self._refused.get(event.account)
        if last is None or last[0] != stored.seq - 1 or last[1] < MAX_TRIES:
            self._problem(where, say("{account} is locked out without {tries} wrong PINs before it",
                                     account=event.account, tries=MAX_TRIES))
        try:
            made = datetime.fromisoformat(stored.ts).timestamp()
        except ValueError:
            made = None
        until = as_number(event.until)
        if event.seconds != LOCK_SECONDS or made is None or not math.isfinite(until) or \
                abs(until - made - LOCK_SECONDS) > LOCK_SLACK_S:
            self._problem(where, say("{account}'s lock-out lasts {seconds} s until {until}: a lock-out lasts "
                                     "{lasts} s from when it is written", account=event.account,
                                     seconds=as_figure(event.seconds), until=repr(until), lasts=LOCK_SECONDS))

    def unseal(self, kept: str, attempt: str) -> tuple[str, str] | None:
        """`Ledger.unseal` of the ledger the register was read from (None: none, or gone)."""
        ledger = self._ledger() if self._ledger is not None else None
        return ledger.unseal(kept, attempt) if ledger is not None else None

    def vouched_managers(self) -> list[Account]:
        return [a for a in self.managers() if a.vouched]

    def _bind(self, event: PitBound, stored: StoredEvent, seq: int, where: Said) -> None:
        """A binding to a pit's key: by a manager of this terminal signed in for it, or, with no such
        manager here, by a pit manager's key, confirmed once the pit's account for them is received."""
        if event.sign_in is not None:
            signer = self.accounts.get(event.by)
            if signer is None or not self._signed_by_signer(event, stored.seq):
                self._problem(where, say("the binding to pit {pit} is not signed by {account}: written without their "
                                         "PIN (it stands for nothing)", pit=key_fingerprint(event.pit_key),
                                         account=event.by))
                return
            problem = claim_problem(self, Claim("manage", event.by, event.sign_in), at=seq)
            if problem is None and not signer.vouched:
                problem = say("{account}'s account came from a pit that did not sign it", account=event.by)
            if problem is not None:
                self._problem(where, say("the binding to pit {pit}: {problem} (it stands for nothing)",
                                         pit=key_fingerprint(event.pit_key), problem=problem))
                return
            binding = Binding(event.pit_key, event.server, event.by, seq)
        else:
            if self.vouched_managers():
                self._problem(where, say("the binding to pit {pit} is confirmed by the pit's {account}, but this "
                                         "terminal has managers of its own: one of them binds it (it stands for "
                                         "nothing)", pit=key_fingerprint(event.pit_key), account=event.by))
                return
            if not key_checks(event.manager_key, signed_text(event, stored.seq), event.signature):
                self._problem(where, say("the binding to pit {pit} is not signed with the key it names for {account} "
                                         "(it stands for nothing)", pit=key_fingerprint(event.pit_key),
                                         account=event.by))
                return
            binding = Binding(event.pit_key, event.server, event.by, seq, event.manager_key, confirmed=False)
        self.binding = binding
        self._received.clear()  # the bound pit's register is received anew, from its first event
        self._from_pit.clear()
        self._last_account_seq = 0

    def notes(self) -> list[str]:
        """What the register lacks without being wrong."""
        readable = sorted(a.id for a in self.accounts.values() if a.active and readable_anywhere(a.pin))
        said: list[str] = [say("staff register: the PINs of {accounts} were set before PINs were kept out of the "
                               "copies of the register others read (the pit's logins): each is asked for a new PIN "
                               "at its next sign-in", accounts=", ".join(readable))] if readable else []
        if not self.unsigned_receipts:
            return said
        return said + [say("staff register: {count} account event(s) received from a pit before pits signed their "
                           "registers: only the pit vouches for them (`history verify --pit URL`), and they grant "
                           "nothing at this terminal until a manager binds it to its pit (`dealer-tui pit bind`)",
                           count=self.unsigned_receipts)]

    def binding_problem(self) -> Said | None:
        """Why the binding does not stand yet (a pit manager's confirmation the pit's account for
        them does not bear out), or None."""
        binding = self.binding
        if binding is None or binding.confirmed:
            return None
        return say("the binding to pit {pit} was confirmed by {account}, whom the pit's register, as received, does "
                   "not hold as a manager with that key", pit=key_fingerprint(binding.pit_key), account=binding.by)

    def _receive(self, received: StaffReceived, stored: StoredEvent, seq: int, where: Said) -> None:
        """An event of the pit's register: its accounts are this terminal's from here on (an account
        of the same ID made here before gives way), checked by its signer's signature at its place
        in the pit's chain; its managers' sign-ins are the pit's (`verify_pit` checks them there).
        Another terminal's lock-out is read by `lockout`."""
        key = (received.origin, received.pit_seq)
        if key in self._received:
            self._problem(where, say("the {kind} at the pit's event {seq} is received a second time (it stands for "
                                     "nothing)", kind=received.event_kind, seq=str(received.pit_seq)))
            return
        self._received.add(key)
        if received.origin:
            return
        legacy = False
        if received.event_kind in ACCOUNT_KINDS:
            payload = received.event if isinstance(received.event, dict) else {}
            binding = self.binding
            if binding is None and received.pit_signature:
                self._problem(where, say("the pit's event {seq} is received, but this terminal is bound to no pit (it "
                                         "stands for nothing)", seq=str(received.pit_seq)))
                return
            if binding is not None and not pit_signature_checks(binding.pit_key, received, payload):
                self._problem(where, say("the pit's event {seq} does not carry the signature of pit {pit}, which this "
                                         "terminal is bound to (it stands for nothing)", seq=str(received.pit_seq),
                                         pit=key_fingerprint(binding.pit_key)))
                return
            legacy = binding is None
            if legacy and self.local_root:
                self._problem(where, say("the pit's event {seq} is received without the pit's signature on a terminal "
                                         "whose staff are its own (it stands for nothing)", seq=str(received.pit_seq)))
                return
            if legacy:
                self.unsigned_receipts += 1
        if received.event_kind in ACCOUNT_KINDS:
            if received.pit_seq <= self._last_account_seq:
                self._problem(where, say("the pit's event {seq} is received after its event {last} (out of order: it "
                                         "stands for nothing)", seq=str(received.pit_seq),
                                         last=str(self._last_account_seq)))
                return
            self._last_account_seq = received.pit_seq
        self.attached = True
        inner = StoredEvent(stored.id, STAFF_REGISTER, None, received.pit_seq, stored.ts, received.event_kind,
                            received.event if isinstance(received.event, dict) else {}, "", received.pit_hash)
        try:
            event = typed(inner)
        except EventError as exc:
            self._problem(where, say("the pit's event {seq} does not read: {problem}", seq=str(received.pit_seq),
                                     problem=said_of(exc)))
            return
        if isinstance(event, FloorDecided):
            return  # the decision is in the round it was made on (this one marks it received)
        if not isinstance(event, (StaffAdded, StaffRoleChanged, StaffPinChanged, StaffLanguageChanged, StaffDisabled,
                                  ProfileApproved,
                                  StaffSignedIn, StaffUnlocked, FloorSettingsChanged)):
            self._problem(where, say("a {kind} event is no account event of the pit's", kind=received.event_kind))
            return
        if not self._signed_by_signer(event, received.pit_seq):
            self._problem(where, say("the pit's event {seq} does not carry {signer}'s signature (it stands for "
                                     "nothing)", seq=str(received.pit_seq), signer=event.signer()))
            return
        if isinstance(event, StaffAdded):
            if event.account in self._from_pit:
                self._problem(where, say("the pit's account {account} received as added again (it stands for "
                                         "nothing)", account=repr(event.account)))
                return
            if event.by is None and self._from_pit:
                self._problem(where, say("account {account} received as added by no one after the pit's first account "
                                         "(it stands for nothing)", account=repr(event.account)))
                return
            self._from_pit.add(event.account)
        if isinstance(event, StaffSignedIn):  # a supervisor's at the pit's floor, for a round of this terminal
            self.sign_ins[seq] = SignInRecord(seq, stored.ts, replace(event, table=received.local_table))
            return
        self._change(event, where, seq, received=True, vouched=not legacy)
        binding = self.binding
        if binding is not None and not binding.confirmed:
            manager = self.accounts.get(binding.by)
            if manager is not None and manager.role == MANAGER and manager.active and \
                    manager.pin.public == binding.manager_key:
                binding.confirmed = True

    def _change(self, event: Recorded, where: Said, seq: int, received: bool = False, vouched: bool = True) -> None:
        """An account made or changed, or a profile approved, at `seq`."""
        match event:
            case StaffAdded(account=account, name=name, role=role, pin=pin, by=by, language=language):
                if account in self.accounts and not received:
                    self._problem(where, say("account {account} added again", account=repr(account)))
                    return
                if by is None and self.accounts and not received:
                    self._problem(where, say("account {account} added by no one on a register with accounts (it stands "
                                             "for nothing)", account=repr(account)))
                    return
                if by is None and role != MANAGER:
                    self._problem(where, say("the first account {account} is a {role}, not a manager",
                                             account=repr(account), role=ROLE_NAMES.get(role) or Said.literal(role)))
                if role not in ROLES:
                    self._problem(where, say("account {account} has no role {role}", account=repr(account),
                                             role=repr(role)))
                if language and language not in LANGUAGES:
                    self._problem(where, say("account {account} reads no language of this program ({language})",
                                             account=repr(account), language=shortened(language)))
                    language = ""
                self._set(Account(account, name, role, True, pin, seq, vouched, language))
                if by is None and not received:
                    self.local_root = True
                if self.first_seq is None:
                    self.first_seq = seq
            case StaffRoleChanged(account=account, role=role) if role not in ROLES:
                self._problem(where, say("account {account} given no role of this program ({role})",
                                         account=repr(account), role=repr(role)))
            case StaffRoleChanged(account=account, role=role) if account in self.accounts:
                self._set(replace(self.accounts[account], role=role, since=seq, vouched=vouched))
            case StaffPinChanged(account=account, pin=pin) if account in self.accounts:
                self._set(replace(self.accounts[account], pin=pin, since=seq, vouched=vouched))
            case StaffLanguageChanged(account=account, language=language) if language and language not in LANGUAGES:
                self._problem(where, say("account {account} given no language of this program ({language})",
                                         account=repr(account), language=shortened(language)))
            case StaffLanguageChanged(account=account, language=language) if account in self.accounts:
                self._set(replace(self.accounts[account], language=language, since=seq, vouched=vouched))
            case StaffDisabled(account=account) if account in self.accounts:
                self._set(replace(self.accounts[account], active=False, since=seq, vouched=vouched))
            case (StaffRoleChanged(account=account) | StaffPinChanged(account=account)
                  | StaffLanguageChanged(account=account) | StaffDisabled(account=account)):
                self._problem(where, say("no account {account}", account=repr(account)))
            case ProfileApproved(sha256=sha256):
                self.approved[sha256] = event
                self.approved_at.setdefault(sha256, seq)
            case FloorSettingsChanged(settings=settings):
                for name, value in settings.items():
                    problem = setting_problem(name, value)
                    if problem is not None:
                        self._problem(where, problem)
                    else:
                        self.settings[name] = value

    def _signed_by_signer(self, event: Signed, chain_seq: int) -> bool:
        """Whether the event carries its signer's signature (the signer's key as it stood then; the
        ledger's first account signs its own creation)."""
        if isinstance(event, StaffAdded) and event.by is None:
            pin = event.pin
        else:
            signer = self.accounts.get(event.signer())
            if signer is None:
                return False
            pin = signer.pin
        return signature_checks(pin, signed_text(event, chain_seq), event.signature)

    def _set(self, account: Account) -> None:
        self.accounts[account.id] = account
        self.history.setdefault(account.id, []).append(account)

    def account_at(self, account: str, seq: int) -> Account | None:
        """The account as it stood just before the register's event `seq` (None: not yet made)."""
        found = None
        for state in self.history.get(account, ()):
            if state.since >= seq:
                break
            found = state
        return found

    def grants_nothing(self, account: Account) -> Said | None:
        """Why the account may not sign in at this terminal though it is on the register, or None."""
        if not account.vouched:
            return say("{account} came from the pit before pits signed their registers: a manager binds this terminal "
                       "to its pit (`dealer-tui pit bind`), and the pit's staff are received anew",
                       account=account.describe())
        problem = self.binding_problem() if account.id in self._from_pit else None
        if problem is not None:
            return say("{where}: {what}", where=account.describe(), what=problem)
        return None

    def has_accounts(self) -> bool:
        return bool(self.accounts)

    def untouched(self) -> bool:
        """Whether the register holds no event at all: only then is a first manager made without
        a manager's sign-in (a register whose accounts do not read is not a new one)."""
        return self.seq == 0

    def managers(self) -> list[Account]:
        return [a for a in self.accounts.values() if a.role == MANAGER and a.active]

    def sign_in_at(self, ledger_seq: int) -> SignInRecord | None:
        """The sign-in at this place in the ledger, signed by its account (None: no such sign-in, or
        one written without the account's PIN)."""
        found = self.sign_ins.get(ledger_seq)
        ledger = self._ledger() if self._ledger is not None else None
        if found is not None or ledger is None:
            return found
        stored = ledger.ledger_event(ledger_seq)
        if stored is None or stored.table_id != STAFF_REGISTER or stored.kind != StaffSignedIn.KIND:
            return None
        try:
            event = typed(stored)
        except EventError:
            return None
        assert isinstance(event, StaffSignedIn)
        account = self.account_at(event.account, ledger_seq)
        if account is None or not signature_checks(account.pin, signed_text(event, stored.seq), event.signature):
            return None
        found = self.sign_ins[ledger_seq] = SignInRecord(ledger_seq, stored.ts, event)
        return found

    def lockout(self, account: str) -> Lockout:
        """The account's wrong PINs in a row and lock-out, from its sign-ins and refusals in the
        ledger since its latest sign-in or lock-out."""
        ledger = self._ledger() if self._ledger is not None else None
        lock = Lockout()
        for stored in ledger.staff_auth(account) if ledger is not None else ():
            match _read(stored):
                case StaffLocked(until=until):
                    lock = Lockout(0, lock_end(until, stored.ts))
                case StaffSignedIn():
                    lock = Lockout()
                case StaffRefused(reason="pin"):
                    lock.failures += 1
                case StaffUnlocked() | StaffReceived(event_kind=StaffUnlocked.KIND):
                    lock = Lockout()  # a manager lifted it
                case StaffReceived(event_kind=StaffLocked.KIND, event={"until": float() | int() as until}):
                    lock = Lockout(lock.failures, max(lock.until, lock_end(until, stored.ts)))  # the pit's
        return lock

    def failures(self, account: str) -> int:
        return self.lockout(account).failures

    def locked_until(self, account: str) -> float:
        return self.lockout(account).until


def pit_signature_checks(pit_key: str, received: StaffReceived, payload: dict[str, object]) -> bool:
    """Whether a received account event carries the pit's signature at its place in the pit's chain."""
    return bool(received.pit_signature) and key_checks(
        pit_key, pit_signed_text(pit_key, received.pit_seq, received.event_kind, payload), received.pit_signature)


def lock_end(until: float, recorded_at: str) -> float:
    """When a lock-out recorded at `recorded_at` ends: at `until`, but never later than a lock-out
    made then lasts (a lock-out written by hand to last for ever, or to no number at all, ends
    when a real one would)."""
    try:
        made = datetime.fromisoformat(recorded_at).timestamp()
    except (ValueError, OverflowError):
        return 0.0
    latest = made + LOCK_SECONDS + LOCK_SLACK_S
    end = as_number(until)
    return min(end, latest) if math.isfinite(end) else latest


def as_number(value: object) -> float:
    """A number as a float (one too big for a float, or no number: infinity)."""
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        return math.inf


def _read(stored: StoredEvent) -> Recorded | None:
    try:
        return typed(stored)
    except EventError:
        return None
