"""The staff register's events: accounts (added, role changed, PIN changed, disabled), every
sign-in and refused sign-in, lock-outs, and the casino profiles a manager approved. They are one
hash chain of their own in the ledger (`ledger.base.STAFF_REGISTER`), shared by every terminal
and the floor.

An event elsewhere that needed someone's authority names the account and the sign-in that gave
it (`Claim`): `history verify` and the rounds layer check the one against the other."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from dealer_tui.events.codec import Event, Json, Record, optional
from dealer_tui.ledger.base import canonical
from dealer_tui.ledger.kept import redacted
from rules.said import Said, say

DEALER, SUPERVISOR, MANAGER, AUDITOR = "dealer", "supervisor", "manager", "auditor"
ROLES = (DEALER, SUPERVISOR, MANAGER, AUDITOR)
"""Every role an account may hold; an auditor reads everything and changes nothing."""


@dataclass(frozen=True)
class Claim:
    """What an event says about the authority it was made under: the act, the account that
    signed in for it, and that sign-in (its place in the ledger-wide sequence; None: an event
    written before the staff register existed, with a typed name only)."""

    act: str
    account: str
    sign_in: int | None
    purpose: str | None = None
    """The words the sign-in must have been made for (a marker's number and amount); None: any."""
    label: str = ""
    """What the act is called in a problem found with the claim (empty: the act's name)."""
    figures: str | None = None
    """The figures the act approves, as `figures_of` gives them: the sign-in must have signed these
    (None: the act has none to sign)."""
    either: str | None = None
    """Another act the sign-in may have been for instead: a change of one's own account (its PIN,
    its language) made with one's own sign-in for it, or with a manager's sign-in to manage."""


def figures_of(what: str, data: object) -> str:
    """What an approval signs of the figures it approves: their kind and a digest of them, so that
    a rewrite of an approved figure no longer matches the signature."""
    return f"{what}:{hashlib.sha256(canonical(data).encode()).hexdigest()[:32]}"


def payout_figures(paid: int, rows: Iterable[tuple[int, str, int, int]]) -> str:
    """A payout's figures: what it pays, and each row's seat, bet, stake and result."""
    return figures_of("payout", {"paid": paid, "rows": sorted([list(r) for r in rows])})


class PinHash(Record):
    """A PIN as the register keeps it: a salted scrypt hash with its parameters, and the
    account's signing key (Ed25519) sealed under a key only the PIN gives (`staff.pins`): what
    the account signs — its sign-ins, the changes it authorises — nobody without its PIN can."""

    scheme: str
    salt: str
    n: int
    r: int
    p: int
    hash: str
    public: str
    """The account's public key (hex): every signature of the account checks against it."""
    sealed: str
    """The private key, sealed (AES-GCM) under the second half of the PIN's scrypt output."""
    nonce: str
    kept: str = optional(default="")
    """In the kept form (`ledger.kept`): the digest of `hash`, `sealed` and `nonce`, which a
    copy others read holds blank."""


class StaffAdded(Event, kind="staff_added"):
    account: str
    name: str
    role: str
    pin: PinHash
    by: str | None = None
    """The manager who added the account (None: the ledger's first account, a manager)."""
    sign_in: int | None = None
    signature: str = ""
    """Signed by `by` (the first account: by itself), over the event and its place (`signed_text`)."""
    language: str = optional(default="")
    """The language the account reads (`dealer_tui.language`); "": the terminal's."""

    def signer(self) -> str:
        return self.by if self.by is not None else self.account

    def claim(self) -> Claim | None:
        return Claim("manage", self.by, self.sign_in) if self.by is not None else None


class ManagerSigned(Event):
    """A change of the register a manager authorised: who, the sign-in, and their signature."""

    by: str
    sign_in: int
    signature: str = field(default="", kw_only=True)
    """Signed by `by` over the event and its place (`signed_text`)."""

    def signer(self) -> str:
        return self.by

    def claim(self) -> Claim:
        return Claim("manage", self.by, self.sign_in)


class StaffRoleChanged(ManagerSigned, kind="staff_role_changed"):
    account: str
    role: str


class StaffPinChanged(ManagerSigned, kind="staff_pin_changed"):
    """`by`: the account itself (with its current PIN) or a manager."""

    account: str
    pin: PinHash

    def claim(self) -> Claim:
        if self.by == self.account:
            return Claim("set_pin", self.by, self.sign_in, either="manage")
        return Claim("manage", self.by, self.sign_in)


class StaffLanguageChanged(ManagerSigned, kind="staff_language_changed"):
    """The language an account reads (`dealer_tui.language`; "": the terminal's), chosen by the
    account itself (with its PIN) or by a manager."""

    account: str
    language: str

    def claim(self) -> Claim:
        if self.by == self.account:
            return Claim("set_language", self.by, self.sign_in, either="manage")
        return Claim("manage", self.by, self.sign_in)


class StaffDisabled(ManagerSigned, kind="staff_disabled"):
    account: str
    reason: str = ""


class StaffSignedIn(Event, kind="staff_signed_in"):
    """An account signed in with its PIN for one act (at a table, for a round)."""

    account: str
    act: str
    purpose: str
    table: int | None = None
    round: int | None = None
    signature: str = ""
    """Signed by the account with the key its PIN unsealed: a sign-in nobody could write without it."""
    signs: str = optional(default="")
    """The figures the act signed in for approves (`figures_of`): "" none (or a sign-in from before
    approvals signed their figures)."""

    def signer(self) -> str:
        return self.account


class StaffRefused(Event, kind="staff_refused"):
    """A sign-in refused: `reason` "pin" (wrong PIN or no such account: a guess, counted),
    "locked", "role" or "disabled"; `failures` wrong PINs in a row so far."""

    account: str
    act: str
    purpose: str
    reason: str
    failures: int
    table: int | None = None
    round: int | None = None


class StaffLocked(Event, kind="staff_locked"):
    """Three wrong PINs in a row: the account may not sign in anywhere until `until`."""

    account: str
    until: float
    seconds: int


class StaffUnlocked(ManagerSigned, kind="staff_unlocked"):
    """A manager lifted an account's lock-out before it ran out, saying why."""

    account: str
    reason: str


class ProfileApproved(ManagerSigned, kind="profile_approved"):
    """A manager approved a casino profile's exact text (its SHA-256) for tables."""

    profile: str
    game: str
    sha256: str
    file: str
    name_shadows: bool = optional(default=False)
    """The profile is named like a shipped one (the approval was given knowing it)."""


class FloorSettingsChanged(ManagerSigned, kind="floor_settings_changed"):
    """A manager changed floor settings (thresholds of the cash logs and the alerts): the new
    values, and why."""

    settings: dict[str, int]
    reason: str


def alarm_purpose(alarm: int) -> Said:
    """The words a manager's sign-in to acknowledge an alarm is made for (it stands for that one;
    the record keeps its English)."""
    return say("acknowledge alarm {alarm}", alarm=str(alarm))


def area_purpose(table: int, area: str) -> Said:
    """The words a manager's sign-in to put a table in an area is made for."""
    return say("put table {table} in area {area}", table=str(table), area=repr(area.strip()))


class AlarmAcknowledged(Event, kind="alarm_acknowledged"):
    """A refused delivery the server raised as an alarm, looked into: a manager's word on it, kept
    on the pit's chain (the alarm itself is never deleted)."""

    alarm: int
    reason: str
    by: str
    sign_in: int

    def claim(self) -> Claim:
        return Claim("manage", self.by, self.sign_in, purpose=alarm_purpose(self.alarm))


class AreaChanged(Event, kind="area_changed"):
    """A manager put a table of the pit in a pit area ("" none), signed in for it: kept on the pit's
    chain; the table's area is the last such change."""

    table: int
    """The table's id on the server."""
    area: str
    by: str
    sign_in: int

    def claim(self) -> Claim:
        return Claim("manage", self.by, self.sign_in, purpose=area_purpose(self.table, self.area))


class AlertAcknowledged(Event, kind="alert_acknowledged"):
    """An alert the floor raised, looked into: a supervisor's (or a manager's) word on it, by name,
    kept on the register's chain (the alert itself follows from the records and stays)."""

    alert: str
    by: str
    sign_in: int
    note: str = optional(default="")

    def claim(self) -> Claim:
        return Claim("acknowledge", self.by, self.sign_in)


class FloorDecided(Event, kind="floor_decided"):
    """A payout a dealer sent to the floor, decided by a supervisor at the pit's floor: kept on the
    pit's chain, received by the table's terminal, which records the decision in the round."""

    origin: str
    """The terminal's ledger (its id)."""
    table: int
    """The table's id in the terminal's ledger."""
    round: int
    """The round's id in the terminal's ledger."""
    number: int
    pit_table: int
    """The table's id on the server (what the supervisor's sign-in names)."""
    request: int
    """The chain number of the request decided on, in the table's chain."""
    approved: bool
    by: str
    sign_in: int
    """The supervisor's sign-in for it, on the pit's chain."""
    reason: str = ""

    def claim(self) -> Claim:
        return Claim("sign_off", self.by, self.sign_in)

    def place(self) -> tuple[int, int]:
        """Where the sign-in it names must be for: the server's table, the round's number."""
        return self.pit_table, self.number


class StaffReceived(Event, kind="staff_received"):
    """An event of the pit server's staff register as this terminal received it: the pit's
    accounts (and the profiles its managers approved) are the terminal's, and the lock-outs of
    other terminals lock here too. Kept whole — its place and hash in the pit's chain and its own
    signature — so that it is checked here as there, and `history verify` on the pit holds it
    against the pit's own."""

    pit_seq: int
    """Its place in the pit register's chain (what its signature covers)."""
    pit_hash: str
    event_kind: str
    event: Json
    """Its payload, as the pit holds it."""
    account: str = ""
    """The account it is about (the lock-out count reads a terminal's events by account)."""
    origin: str = ""
    """Where it was written: "" the pit's own register; else a terminal's (a lock-out there)."""
    local_table: int | None = None
    """A supervisor's sign-in at the pit's floor for a round of this terminal: the table's id here."""
    pit_signature: str = optional(default="")
    """The pit's signature of an account event at its place in the pit's chain (`pit_signed_text`),
    checked against the key this terminal is bound to; "": received before pits signed (none taken
    since)."""


class PitBound(Event, kind="pit_bound"):
    """This terminal takes its staff from the pit whose key this is, from here on: bound by a manager
    of this terminal (`sign_in` here), or, on a terminal with no manager of its own, confirmed by a
    manager of that pit with their PIN at this terminal (`sign_in` None: `manager_key` is their
    public key, which the pit's account for them must hold)."""

    pit_key: str
    """The pit's public key (hex); its fingerprint is what the manager compared."""
    server: str
    """The server as it was named (no password), for the record."""
    by: str
    sign_in: int | None = None
    manager_key: str = ""
    signature: str = ""

    def signer(self) -> str:
        return self.by

    def claim(self) -> Claim | None:
        return Claim("manage", self.by, self.sign_in) if self.sign_in is not None else None


Signed = (StaffAdded | StaffRoleChanged | StaffPinChanged | StaffLanguageChanged | StaffDisabled | StaffSignedIn
          | ProfileApproved | FloorSettingsChanged | PitBound | StaffUnlocked)
"""The register's events that carry their signer's signature."""


def signed_text(event: Event, seq: int) -> bytes:
    """What a signature covers: the event's kind and content (less the signature) and its place
    in the register's chain — a signed event copied to another place no longer checks. A PIN in
    the kept form counts by its digest (`ledger.kept`), so a copy without its secret parts checks too."""
    payload = {k: v for k, v in redacted(event.record().payload).items() if k != "signature"}
    return canonical({"kind": event.KIND, "seq": seq, "payload": payload}).encode()


STAFF_EVENTS: tuple[type[Event], ...] = (StaffAdded, StaffRoleChanged, StaffPinChanged, StaffLanguageChanged,
                                              StaffDisabled,
                                              StaffSignedIn, StaffRefused, StaffLocked, StaffUnlocked, ProfileApproved,
                                              FloorSettingsChanged,
                                              StaffReceived, PitBound, FloorDecided, AlarmAcknowledged,
                                              AlertAcknowledged, AreaChanged)
