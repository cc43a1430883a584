"""Signing in and managing staff, against the ledger: every attempt, success or not, is an event
of the staff register, and three wrong PINs in a row lock the account for five minutes on every
terminal and the floor at once (the count is read inside the write, from the ledger).

A PIN is checked before anything else is said about the account: that it is disabled, or holds
a role the act does not allow, is told only to someone who knows its PIN."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dealer_tui.events.codec import Event
from dealer_tui.events.staff import (
    MANAGER,
    ROLES,
    FloorSettingsChanged,
    PitBound,
    ProfileApproved,
    Signed,
    StaffAdded,
    StaffDisabled,
    StaffLanguageChanged,
    StaffLocked,
    StaffPinChanged,
    StaffRefused,
    StaffRoleChanged,
    StaffSignedIn,
    StaffUnlocked,
    signed_text,
)
from dealer_tui.language import LANGUAGES
from dealer_tui.ledger.base import (
    LOCK_SECONDS,
    MAX_TRIES,
    STAFF_REGISTER,
    Ledger,
    NewEvent,
    StoredEvent,
    key_fingerprint,
)
from dealer_tui.staff.authority import MANAGE, MAY, SET_PIN, WHAT, Approval, article, roles_text
from dealer_tui.staff.floor_settings import setting_problem
from dealer_tui.staff.pins import (
    PinRefused,
    Unseal,
    hash_pin,
    held,
    pin_problem,
    public_hex,
    renewal,
    seal_pin,
    sign,
    unlock,
)
from dealer_tui.staff.register import LOCK_SLACK_S, StaffRegister
from rules.said import Said, as_said, say

MAX_ID = 32
MAX_NAME = 80


def signed(event: Signed, key: Ed25519PrivateKey, chain_seq: int) -> Signed:
    """The event with its signer's signature, for its place `chain_seq` in the register's chain."""
    return dataclasses.replace(event, signature=sign(key, signed_text(event, chain_seq)))


class SignInRefused(Exception):
    """A sign-in that did not go through; the message says why (and what was recorded)."""


class StaffError(ValueError):
    """An account change that may not be made; nothing was recorded."""


@dataclass(frozen=True)
class Purpose:
    """What a sign-in is for: the act, where, and the words the record keeps."""

    act: str
    text: str
    table: int | None = None
    round: int | None = None
    signs: str = ""
    """The figures the act approves (`events.staff.figures_of`), signed with the sign-in."""


def id_problem(account: str) -> str | None:
    if not account:
        return "an account ID is needed"
    if len(account) > MAX_ID:
        return f"an account ID is at most {MAX_ID} characters"
    if not all(c.isascii() and (c.isalnum() or c in "-_.") for c in account):
        return "an account ID is letters, digits, '-', '_' or '.'"
    return None


class StaffDesk:
    """Sign-ins and account changes on one ledger."""

    def __init__(self, ledger: Ledger, clock: Callable[[], float] = time.time) -> None:
        self.ledger, self.clock = ledger, clock

    def register(self) -> StaffRegister:
        return StaffRegister.read(self.ledger)

    # -- signing in ---------------------------------------------------------------------

    def locked_for(self, account: str, register: StaffRegister | None = None) -> int:
        """Seconds left in the account's lock-out (0: not locked)."""
        until = (register or self.register()).locked_until(account.strip())
        left = min(until - self.clock(), LOCK_SECONDS + LOCK_SLACK_S)  # never more than a lock-out lasts
        return max(0, int(left + 0.999))

    def tries_left(self, account: str) -> int:
        return MAX_TRIES - self.register().failures(account.strip())

    def sign_in(self, account: str, pin: str, purpose: Purpose) -> Approval:
        """The account signs in for `purpose` with its PIN: an `Approval`, or `SignInRefused`
        saying why. Every attempt that names an account and a PIN is recorded."""
        account = account.strip()
        if not account:
            raise SignInRefused(say("type the account ID first"))
        if not pin:
            raise SignInRefused(say("type the PIN, then Enter"))  # nothing typed is not a guess
        register = self.register()
        checked = register.accounts[account].pin if account in register.accounts else None
        if checked is not None and not held(checked) and not self.ledger.checks_pins_elsewhere:
            raise SignInRefused(say("{account}'s PIN has not reached this terminal: it signs in here once the pit "
                                    "hands it over (nothing was recorded)", account=account))
        key = unlock(pin, checked, self.ledger.unseal)  # the slow hash, outside the write
        outcome: list[Approval | Said] = []

        def decide(events: list[StoredEvent]) -> Sequence[NewEvent]:
            register.fold(events)  # what other terminals wrote meanwhile
            found = register.accounts.get(account)
            def refused(reason: str, failures: int) -> StaffRefused:
                return StaffRefused(account=account, act=purpose.act, purpose=purpose.text, reason=reason,
                                    failures=failures, table=purpose.table, round=purpose.round)
            locked = self.locked_for(account, register)
            if locked:
                outcome.append(say("{account} is locked for {seconds} more seconds after {tries} wrong PINs",
                                   account=account, seconds=locked, tries=MAX_TRIES))
                return [refused("locked", 0).record()]
            if key is None or found is None or found.pin != checked:
                failures = register.failures(account) + 1
                out: list[Event] = [refused("pin", failures)]
                if failures >= MAX_TRIES:
                    out.append(StaffLocked(account=account, until=self.clock() + LOCK_SECONDS, seconds=LOCK_SECONDS))
                    outcome.append(say("wrong ID or PIN: {account} is locked for {minutes} minutes after {tries} "
                                       "wrong PINs", account=account, minutes=LOCK_SECONDS // 60, tries=MAX_TRIES))
                else:
                    left = MAX_TRIES - failures
                    outcome.append(say("wrong ID or PIN: 1 try left before {account} is locked for {minutes} minutes",
                                       account=account, minutes=LOCK_SECONDS // 60) if left == 1 else
                                   say("wrong ID or PIN: {left} tries left before {account} is locked for {minutes} "
                                       "minutes", left=left, account=account, minutes=LOCK_SECONDS // 60))
                return [e.record() for e in out]
            assert found is not None
            if not found.active:
                outcome.append(say("{account} is disabled: a manager adds it again or another account signs in",
                                   account=found.describe()))
                return [refused("disabled", 0).record()]
            unvouched = register.grants_nothing(found)
            if unvouched is not None:
                outcome.append(as_said(unvouched))
                return [refused("unvouched", register.failures(account)).record()]
            if found.role not in MAY[purpose.act]:
                outcome.append(say("{name} ({account}) is {role}: only {who} may {act}", name=found.name, account=account,
                                   role=article(found.role), who=roles_text(purpose.act), act=WHAT[purpose.act]))
                return [refused("role", register.failures(account)).record()]
            outcome.append(Approval(account, found.name, found.role, 0, purpose.act, key,
                                    renew_pin=renewal(pin, found.role, found.pin)))
            signed_in = StaffSignedIn(account=account, act=purpose.act, purpose=purpose.text, table=purpose.table,
                                      round=purpose.round, signs=purpose.signs)
            return [signed(signed_in, key, register.seq + 1).record()]

        stored = self.ledger.append_checked(STAFF_REGISTER, decide, after=register.seq)
        result = outcome[0]
        if isinstance(result, Said):
            raise SignInRefused(result)
        seq = next(e.ledger_seq for e in stored if e.kind == StaffSignedIn.KIND)
        return Approval(result.account, result.name, result.role, int(seq or 0), result.act, result.key,
                        renew_pin=result.renew_pin)

    # -- accounts -------------------------------------------------------------------------

    def _write(self, make: Callable[[StaffRegister], Sequence[Signed]], key: Ed25519PrivateKey | None
               ) -> list[StoredEvent]:
        """Record the change `make` works out from the register as it is inside the write, each
        event signed with `key` (the authorising account's, its PIN unsealed it) at its place."""
        if key is None:
            raise StaffError(say("the change needs the signing key of a sign-in with a PIN"))
        register = self.register()
        if register.attached:
            raise StaffError(say("this terminal's staff accounts and approved profiles come from its pit server: a "
                             "manager changes them there (`dealer-tui staff ... --ledger postgresql://...`, "
                             "`paytables approve ... --ledger postgresql://...`)"))

        def decide(events: list[StoredEvent]) -> Sequence[NewEvent]:
            register.fold(events)
            return [signed(e, key, register.seq + 1 + i).record() for i, e in enumerate(make(register))]
        return self.ledger.append_checked(STAFF_REGISTER, decide, after=register.seq)

    @staticmethod
    def _manager(register: StaffRegister, by: Approval) -> None:
        if by.act != MANAGE or register.sign_in_at(by.sign_in) is None:
            raise StaffError(say("a manager signs in to manage staff"))

    def add_first_manager(self, account: str, name: str, pin: str, language: str = "") -> None:
        """The ledger's first account, the only one made without a manager's sign-in: a manager (who
        reads `language`; "": the terminal's)."""
        self._check_new(account, name)
        if language and language not in LANGUAGES:
            raise StaffError(say("no language {language} (languages: {languages})", language=repr(language),
                                 languages=", ".join(LANGUAGES)))
        try:
            pin_hash, key = seal_pin(pin, MANAGER)
        except PinRefused as exc:
            raise StaffError(str(exc)) from None

        def make(register: StaffRegister) -> Sequence[Signed]:
            if not register.untouched():
                raise StaffError(say("the ledger has accounts already: a manager adds the next one (--by)")
                                 if register.has_accounts() else
                                 say("the ledger's staff register holds events but no account that reads: "
                                     "`dealer-tui history verify` names why; no first manager is made over it"))
            return [StaffAdded(account=account, name=name.strip(), role=MANAGER, pin=pin_hash, language=language)]
        self._write(make, key)  # the first account signs its own creation

    @staticmethod
    def _check_new(account: str, name: str) -> None:
        problem = id_problem(account)
        if problem is not None:
            raise StaffError(problem)
        if not name.strip() or len(name.strip()) > MAX_NAME or not name.isprintable():
            raise StaffError(say("a name is 1 to {most} printable characters", most=MAX_NAME))

    def add(self, account: str, name: str, role: str, pin: str, by: Approval) -> None:
        self._check_new(account, name)
        if role not in ROLES:
            raise StaffError(say("no role {role} (roles: {roles})", role=repr(role), roles=", ".join(ROLES)))
        try:
            pin_hash = hash_pin(pin, role)
        except PinRefused as exc:
            raise StaffError(str(exc)) from None

        def make(register: StaffRegister) -> Sequence[Signed]:
            self._manager(register, by)
            if account in register.accounts:
                raise StaffError(say("there is an account {account} already: {found}", account=repr(account),
                                      found=register.accounts[account].describe()))
            return [StaffAdded(account=account, name=name.strip(), role=role, pin=pin_hash, by=by.account,
                               sign_in=by.sign_in)]
        self._write(make, by.key)

    def _existing(self, register: StaffRegister, account: str) -> None:
        if account not in register.accounts:
            raise StaffError(say("no account {account}", account=repr(account)))

    def set_role(self, account: str, role: str, by: Approval) -> None:
        if role not in ROLES:
            raise StaffError(say("no role {role} (roles: {roles})", role=repr(role), roles=", ".join(ROLES)))

        def make(register: StaffRegister) -> Sequence[Signed]:
            self._manager(register, by)
            self._existing(register, account)
            if account == by.account and role != MANAGER:
                raise StaffError(say("a manager does not take their own role away: another manager does"))
            self._keeps_a_manager(register, account, role != MANAGER)
            return [StaffRoleChanged(account=account, role=role, by=by.account, sign_in=by.sign_in)]
        self._write(make, by.key)

    def set_pin(self, account: str, pin: str, by: Approval) -> None:
        """A new PIN: the account's own sign-in (with its current PIN), or a manager's."""
        known = self.register().accounts.get(account)
        try:
            pin_hash = hash_pin(pin, known.role if known is not None else MANAGER)
        except PinRefused as exc:
            raise StaffError(str(exc)) from None

        def make(register: StaffRegister) -> Sequence[Signed]:
            self._own_or_managed(register, account, by)
            return [StaffPinChanged(account=account, pin=pin_hash, by=by.account, sign_in=by.sign_in)]
        self._write(make, by.key)

    def set_language(self, account: str, language: str, by: Approval) -> None:
        """The language `account` reads ("": the terminal's): its own sign-in (with its PIN), or a
        manager's."""
        if language and language not in LANGUAGES:
            raise StaffError(say("no language {language} (languages: {languages})", language=repr(language),
                                 languages=", ".join(LANGUAGES)))

        def make(register: StaffRegister) -> Sequence[Signed]:
            self._own_or_managed(register, account, by)
            return [StaffLanguageChanged(account=account, language=language, by=by.account, sign_in=by.sign_in)]
        self._write(make, by.key)

    def _own_or_managed(self, register: StaffRegister, account: str, by: Approval) -> None:
        """A change of `account` the account makes itself, or a manager makes."""
        self._existing(register, account)
        if register.sign_in_at(by.sign_in) is None:
            raise StaffError(say("the change needs a sign-in"))
        if by.account != account:
            self._manager(register, by)

    def renew_pin(self, account: str, pin: str, new: str) -> Approval:
        """An account asked for a new PIN (`Approval.renew_pin`) chooses one: it signs in for that
        with its current PIN, and the change is its own (the sign-in's)."""
        known = self.register().accounts.get(account)
        if known is None:
            raise StaffError(say("no account {account}", account=repr(account)))
        problem = pin_problem(new, known.role)
        if problem is not None:
            raise StaffError(problem)  # before anyone signs in again
        if new == pin:
            raise StaffError(say("the new PIN is the one in use: choose another"))
        approval = self.sign_in(account, pin, Purpose(SET_PIN, say("choose a PIN of {count} digits", count=len(new))))
        self.set_pin(account, new, approval)
        return approval

    def disable(self, account: str, by: Approval, reason: str = "") -> None:
        def make(register: StaffRegister) -> Sequence[Signed]:
            self._manager(register, by)
            self._existing(register, account)
            if not register.accounts[account].active:
                raise StaffError(say("{account} is disabled already", account=register.accounts[account].describe()))
            if account == by.account:
                raise StaffError(say("a manager does not disable their own account: another manager does"))
            self._keeps_a_manager(register, account, True)
            return [StaffDisabled(account=account, by=by.account, sign_in=by.sign_in, reason=reason.strip())]
        self._write(make, by.key)

    def unlock(self, account: str, by: Approval, reason: str) -> None:
        """A manager lifts an account's lock-out before it runs out, saying why (recorded)."""
        if not reason.strip():
            raise StaffError(say("lifting a lock-out says why"))

        def make(register: StaffRegister) -> Sequence[Signed]:
            self._manager(register, by)
            self._existing(register, account)
            return [StaffUnlocked(account=account, reason=reason.strip(), by=by.account, sign_in=by.sign_in)]
        self._write(make, by.key)

    @staticmethod
    def _keeps_a_manager(register: StaffRegister, account: str, losing: bool) -> None:
        if losing and [m.id for m in register.managers()] == [account]:
            raise StaffError(say("{account} is the last active manager: make another manager first", account=account))

    # -- the pit this terminal takes its staff from ---------------------------------------------

    def confirm_pit_manager(self, account: str, pin: str, pit: StaffRegister, what: str,
                            unseal: Unseal | None = None) -> Approval:
        """A manager of the pit (as its register `pit` holds them) confirms `what` at this terminal
        with their PIN: their signing key, unsealed by it (checked by `unseal`, by default the pit's
        the register was read from, while it is open). A wrong PIN counts here as at a sign-in
        (recorded, three lock the account); nothing is recorded when it goes through (the act it
        confirms records who signed it)."""
        account = account.strip()
        if not account or not pin:
            raise SignInRefused(say("type the pit manager's ID and PIN"))
        found = pit.accounts.get(account)
        key = unlock(pin, found.pin if found is not None else None, unseal or pit.unseal)
        register = self.register()
        locked = self.locked_for(account, register)
        refusal: list[Said] = []

        def decide(events: list[StoredEvent]) -> Sequence[NewEvent]:
            register.fold(events)
            if locked:
                refusal.append(say("{account} is locked for {seconds} more seconds after {tries} wrong PINs", account=account,
                                   seconds=locked, tries=MAX_TRIES))
                return []
            if key is not None and found is not None:
                if not found.active or found.role != MANAGER:
                    refusal.append(say("{account}: only an active manager of the pit may {what}", account=found.describe(),
                                       what=as_said(what)))
                return []
            failures = register.failures(account) + 1
            out: list[Event] = [StaffRefused(account=account, act=MANAGE, purpose=what, reason="pin",
                                                  failures=failures)]
            if failures >= MAX_TRIES:
                out.append(StaffLocked(account=account, until=self.clock() + LOCK_SECONDS, seconds=LOCK_SECONDS))
            refusal.append(say("wrong ID or PIN for the pit's manager {account}", account=account))
            return [e.record() for e in out]
        self.ledger.append_checked(STAFF_REGISTER, decide, after=register.seq)
        if refusal:
            raise SignInRefused(refusal[0])
        assert found is not None and key is not None
        return Approval(account, found.name, found.role, 0, MANAGE, key)

    def bind_pit(self, pit_key: str, server: str, by: Approval, *, at_pit: bool = False) -> None:
        """Take staff from the pit whose key is `pit_key` from now on. `by`: a manager of this
        terminal signed in here for it; or, `at_pit`, on a terminal with no manager of its own, a
        manager of that pit signed in there (their key confirms it; the pit's account for them,
        once received, must hold that key)."""
        if by.key is None:
            raise StaffError(say("binding a terminal to a pit needs a manager's sign-in with their PIN"))
        key = by.key
        try:
            fingerprint = key_fingerprint(pit_key)
        except ValueError:
            raise StaffError(say("the pit's key does not read")) from None
        register = self.register()

        def decide(events: list[StoredEvent]) -> Sequence[NewEvent]:
            register.fold(events)
            if at_pit:
                if register.vouched_managers():
                    raise StaffError(say("this terminal has managers of its own: one of them binds it to the pit"))
                event = PitBound(pit_key=pit_key, server=server, by=by.account, manager_key=public_hex(key))
            else:
                self._manager(register, by)
                manager = register.accounts.get(by.account)
                if manager is None or not manager.vouched:
                    raise StaffError(say("{account} is no manager of this terminal's own", account=by.account))
                event = PitBound(pit_key=pit_key, server=server, by=by.account, sign_in=by.sign_in)
            if register.binding is not None and register.binding.pit_key == pit_key and register.binding.confirmed:
                raise StaffError(say("this terminal is bound to pit {key} already", key=fingerprint))
            return [signed(event, key, register.seq + 1).record()]
        self.ledger.append_checked(STAFF_REGISTER, decide, after=register.seq)

    # -- casino profiles --------------------------------------------------------------------

    def change_settings(self, settings: dict[str, int], reason: str, by: Approval) -> None:
        """A manager changes floor settings (`staff.floor_settings`), giving the reason."""
        for name, value in settings.items():
            problem = setting_problem(name, value)
            if problem is not None:
                raise StaffError(problem)
        if not settings:
            raise StaffError(say("no setting is changed: name one (e.g. --ctr 10000)"))
        if not reason.strip():
            raise StaffError(say("a change of the floor's settings gives its reason"))

        def make(register: StaffRegister) -> Sequence[Signed]:
            self._manager(register, by)
            return [FloorSettingsChanged(settings=dict(settings), reason=reason.strip(), by=by.account,
                                         sign_in=by.sign_in)]
        self._write(make, by.key)

    def approve_profile(self, profile: str, game: str, sha256: str, file: str, by: Approval,
                        name_shadows: bool = False) -> bool:
        """Record a manager's approval of a profile's exact text; False when that text was approved
        already (nothing recorded)."""
        recorded: list[bool] = []

        def make(register: StaffRegister) -> Sequence[Signed]:
            self._manager(register, by)
            if sha256 in register.approved:
                recorded.append(False)
                return []
            recorded.append(True)
            return [ProfileApproved(profile=profile, game=game, sha256=sha256, file=file, by=by.account,
                                    sign_in=by.sign_in, name_shadows=name_shadows)]
        self._write(make, by.key)
        return recorded[0]
