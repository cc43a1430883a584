"""The staff register's events: accounts (added, role changed, PIN changed, disabled), every
sign-in and refused sign-in, lock-outs, and the casino profiles a manager approved. They are one
hash chain of their own in the ledger (`ledger.base.STAFF_REGISTER`), shared by every terminal
and the floor.

An event elsewhere that needed someone's authority names the account and the sign-in that gave
it (`Claim`): `history verify` and the rounds layer check the one against the other."""

from __future__ import annotations

from dataclasses import dataclass

from dealer_tui.events.codec import Record, RoundEvent, optional

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


class PinHash(Record):
    """A PIN as the register keeps it: a salted scrypt hash with its parameters."""

    scheme: str
    salt: str
    n: int
    r: int
    p: int
    hash: str


class StaffAdded(RoundEvent, kind="staff_added"):
    account: str
    name: str
    role: str
    pin: PinHash
    by: str | None = None
    """The manager who added the account (None: the ledger's first account, a manager)."""
    sign_in: int | None = None

    def claim(self) -> Claim | None:
        return Claim("manage", self.by, self.sign_in) if self.by is not None else None


class StaffRoleChanged(RoundEvent, kind="staff_role_changed"):
    account: str
    role: str
    by: str
    sign_in: int

    def claim(self) -> Claim:
        return Claim("manage", self.by, self.sign_in)


class StaffPinChanged(RoundEvent, kind="staff_pin_changed"):
    account: str
    pin: PinHash
    by: str
    """The account itself (with its current PIN) or a manager."""
    sign_in: int

    def claim(self) -> Claim:
        return Claim("set_pin" if self.by == self.account else "manage", self.by, self.sign_in)


class StaffDisabled(RoundEvent, kind="staff_disabled"):
    account: str
    by: str
    sign_in: int
    reason: str = ""

    def claim(self) -> Claim:
        return Claim("manage", self.by, self.sign_in)


class StaffSignedIn(RoundEvent, kind="staff_signed_in"):
    """An account signed in with its PIN for one act (at a table, for a round)."""

    account: str
    act: str
    purpose: str
    table: int | None = None
    round: int | None = None


class StaffRefused(RoundEvent, kind="staff_refused"):
    """A sign-in refused: `reason` "pin" (wrong PIN or no such account: a guess, counted),
    "locked", "role" or "disabled"; `failures` wrong PINs in a row so far."""

    account: str
    act: str
    purpose: str
    reason: str
    failures: int
    table: int | None = None
    round: int | None = None


class StaffLocked(RoundEvent, kind="staff_locked"):
    """Three wrong PINs in a row: the account may not sign in anywhere until `until`."""

    account: str
    until: float
    seconds: int


class ProfileApproved(RoundEvent, kind="profile_approved"):
    """A manager approved a casino profile's exact text (its SHA-256) for tables."""

    profile: str
    game: str
    sha256: str
    file: str
    by: str
    sign_in: int
    name_shadows: bool = optional(default=False)
    """The profile is named like a shipped one (the approval was given knowing it)."""

    def claim(self) -> Claim:
        return Claim("manage", self.by, self.sign_in)


STAFF_EVENTS: tuple[type[RoundEvent], ...] = (StaffAdded, StaffRoleChanged, StaffPinChanged, StaffDisabled,
                                              StaffSignedIn, StaffRefused, StaffLocked, ProfileApproved)
