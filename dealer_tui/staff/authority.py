"""Who may do what, and the one check that an event's claim of authority stands: the sign-in
it names is in the register, by that account, for that act, table and round, and the account
held a role allowed the act at that moment, active. The rounds layer asks it before recording
an act; `history verify` asks it of every act recorded."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dealer_tui.events.staff import AUDITOR, DEALER, MANAGER, ROLES, SUPERVISOR, Claim
from rules.said import Said, say, say_in

if TYPE_CHECKING:
    from dealer_tui.staff.register import StaffRegister

SIGN_OFF, VOID, CORRECT_CARDS, CHANGE_PROFILE = "sign_off", "void", "correct_cards", "change_profile"
DEAL, FLOOR, MANAGE, SET_PIN, SET_LANGUAGE = "deal", "floor", "manage", "set_pin", "set_language"
TRAY, COUNT_DROP, ACKNOWLEDGE = "tray", "count_drop", "acknowledge"
OVERRIDE = "override"
"""A manager pays a payout the floor refused, saying why (the refusal stands until then)."""

MAY: dict[str, frozenset[str]] = {
    DEAL: frozenset({DEALER, SUPERVISOR, MANAGER}),
    SIGN_OFF: frozenset({SUPERVISOR, MANAGER}),
    VOID: frozenset({SUPERVISOR, MANAGER}),
    CORRECT_CARDS: frozenset({SUPERVISOR, MANAGER}),
    CHANGE_PROFILE: frozenset({SUPERVISOR, MANAGER}),
    FLOOR: frozenset({SUPERVISOR, MANAGER, AUDITOR}),
    MANAGE: frozenset({MANAGER}),
    SET_PIN: frozenset(ROLES),
    SET_LANGUAGE: frozenset(ROLES),
    TRAY: frozenset({SUPERVISOR, MANAGER}),
    COUNT_DROP: frozenset({MANAGER, AUDITOR}),
    ACKNOWLEDGE: frozenset({SUPERVISOR, MANAGER}),
    OVERRIDE: frozenset({MANAGER}),
}
"""The roles that may sign in for each act."""

WHAT: dict[str, Said] = {
    DEAL: say("deal"), SIGN_OFF: say("sign off a payout"), VOID: say("void a round"),
    CORRECT_CARDS: say("correct keyed cards"), CHANGE_PROFILE: say("change a table's profile"),
    FLOOR: say("open the floor review"), MANAGE: say("manage staff and profiles"), SET_PIN: say("change their own PIN"),
    SET_LANGUAGE: say("choose the language they read"), TRAY: say("witness a tray count, a fill, a credit or a marker"),
    COUNT_DROP: say("count a drop box"), ACKNOWLEDGE: say("acknowledge an alert"),
    OVERRIDE: say("override a payout the floor refused"),
}
ACT_NAMES: dict[str, Said] = {
    DEAL: say_in("act", "deal"), SIGN_OFF: say_in("act", "sign off"), VOID: say_in("act", "void"),
    CORRECT_CARDS: say_in("act", "correct cards"), CHANGE_PROFILE: say_in("act", "change profile"),
    FLOOR: say_in("act", "floor"), MANAGE: say_in("act", "manage"), SET_PIN: say_in("act", "set pin"),
    SET_LANGUAGE: say_in("act", "set language"), TRAY: say_in("act", "tray"), COUNT_DROP: say_in("act", "count drop"),
    ACKNOWLEDGE: say_in("act", "acknowledge"), OVERRIDE: say_in("act", "override"), "marker": say_in("act", "marker"),
}
"""Each act as an authority problem names it at its start (`sign off by 'S1' names no sign-in`)."""
TABLE_ACTS = frozenset({DEAL, SIGN_OFF, VOID, CORRECT_CARDS, CHANGE_PROFILE, TRAY, COUNT_DROP, OVERRIDE})
"""Acts signed in for at one table: the sign-in names it."""
ROUND_ACTS = frozenset({SIGN_OFF, VOID, CORRECT_CARDS, OVERRIDE})
"""Acts on one round: the sign-in names the round's number too."""


ROLE_WORDS: dict[str, Said] = {DEALER: say("a dealer"), SUPERVISOR: say("a supervisor"), MANAGER: say("a manager"),
                              AUDITOR: say("an auditor")}


def article(role: str) -> Said:
    """`a supervisor`, `an auditor`."""
    return ROLE_WORDS.get(role) or Said.literal(f"an {role}" if role[:1] in "aeiou" else f"a {role}")


def roles_text(act: str) -> Said:
    """Who may sign in for `act`: `a supervisor or a manager`."""
    roles = [article(r) for r in sorted(MAY[act], key=ROLES.index)]
    if len(roles) == 1:
        return roles[0]
    if len(roles) == 2:
        return say("{one} or {other}", one=roles[0], other=roles[1])
    if len(roles) == 3:
        return say("{one}, {two} or {three}", one=roles[0], two=roles[1], three=roles[2])
    return say("{one}, {two}, {three} or {four}", one=roles[0], two=roles[1], three=roles[2], four=roles[3])


@dataclass(frozen=True)
class Approval:
    """A sign-in that went through: the account, its role, and the sign-in's place in the
    ledger (what the act it allows records); and the account's signing key, which its PIN
    unsealed, for the register's events the act writes (kept in memory only)."""

    account: str
    name: str
    role: str
    sign_in: int
    act: str
    key: Ed25519PrivateKey | None = field(default=None, repr=False, compare=False)
    renew_pin: str = ""
    """Why the account is asked for a new PIN before going on ("": it is not): its PIN is shorter
    than its role asks for now, or was set before PINs were kept out of what others read."""

    def describe(self) -> str:
        return f"{self.name} ({self.account})"


def _as_signed_in(register: StaffRegister, claim: Claim) -> Claim:
    """The claim with the act its sign-in was for, when that is the other act the claim allows
    (`Claim.either`): its checks are that act's (a manager's own PIN changed under a sign-in to manage)."""
    if claim.either is None or claim.sign_in is None:
        return claim
    record = register.sign_in_at(claim.sign_in)
    if record is not None and record.event.act == claim.either:
        return replace(claim, act=claim.either, either=None)
    return claim


def claim_problem(register: StaffRegister, claim: Claim, *, table: int | None = None, round: int | None = None,
                  dealers: frozenset[str] = frozenset(), at: int | None = None) -> Said | None:
    """Why the claim does not stand, or None. `table` and `round` are where the act was made;
    `dealers` the accounts that dealt the round (none of them may sign off its payout); `at` the
    act's own place in the ledger (the sign-in comes before it)."""
    name = ACT_NAMES.get(claim.label or claim.act) or Said.literal((claim.label or claim.act).replace("_", " "))
    claim = _as_signed_in(register, claim)
    who: str = repr(claim.account) if claim.account or claim.sign_in is not None else say("'no one'")
    if claim.sign_in is None:
        return say("{act} by {account} names no sign-in", act=name, account=who)
    record = register.sign_in_at(claim.sign_in)
    if record is None:
        return say("{act} by {account} names sign-in {sign_in}, which the staff register does not hold", act=name,
                   account=who, sign_in=str(claim.sign_in))
    signed = record.event
    seq = str(record.seq)
    if at is not None and record.seq >= at:
        return say("{act} by {account} comes before the sign-in it names ({sign_in})", act=name, account=who,
                   sign_in=seq)
    if signed.account != claim.account:
        return say("{act} names {account}, but sign-in {sign_in} belongs to {other}", act=name, account=who,
                   sign_in=seq, other=repr(signed.account))
    if signed.act != claim.act:
        return say("{act} by {account} names sign-in {sign_in}, which was to {what}", act=name, account=who,
                   sign_in=seq, what=WHAT.get(signed.act) or signed.act)
    if claim.purpose is not None and signed.purpose != claim.purpose:
        return say("{act} by {account} names sign-in {sign_in}, which was to {signed}, not to {claimed}", act=name,
                   account=who, sign_in=seq, signed=repr(signed.purpose), claimed=repr(claim.purpose))
    if claim.figures is not None and signed.signs and signed.signs != claim.figures:
        return say("{act} by {account} names sign-in {sign_in}, which signed other figures ({signed}) than the act "
                   "records ({claimed}): they were changed since", act=name, account=who, sign_in=seq,
                   signed=str(signed.signs), claimed=str(claim.figures))
    if claim.act in TABLE_ACTS and signed.table != table:
        return say("{act} by {account}: sign-in {sign_in} was for table {table}, not this one", act=name, account=who,
                   sign_in=seq, table=str(signed.table))
    if claim.act in ROUND_ACTS and round is not None and signed.round != round:
        if signed.round is None:
            return say("{act} by {account}: sign-in {sign_in} was for the table, no round, not round {round}",
                       act=name, account=who, sign_in=seq, round=round)
        return say("{act} by {account}: sign-in {sign_in} was for round {signed}, not round {round}", act=name,
                   account=who, sign_in=seq, signed=signed.round, round=round)
    account = register.account_at(claim.account, record.seq)
    if account is None:
        return say("{act} by {account}: no such account when it signed in", act=name, account=who)
    if not account.active:
        return say("{act} by {account}: the account was disabled when it signed in", act=name, account=who)
    if account.role not in MAY[claim.act]:
        return say("{act} by {account}, {role} when it signed in: only {roles} may {what}", act=name, account=who,
                   role=article(account.role), roles=roles_text(claim.act), what=WHAT[claim.act])
    if claim.act in ROUND_ACTS and claim.account in dealers:
        return say("{act} by {account}, who dealt the round: nobody approves an act on a round they dealt", act=name,
                   account=who)
    return None
