"""Authority, checked from the records: every sign-off, void, correction, profile change, dealer
sign-in and staff change names a sign-in of the staff register by an account that held a role
allowed it at that moment; every round since the register began names the dealer on duty; the
register's own chain links and reads. Acts from before the register (a typed name only) are a
note, not a problem."""

from __future__ import annotations

from dataclasses import dataclass, field

from dealer_tui.events import EVENT_TYPES, Event, EventError, typed
from dealer_tui.events.staff import STAFF_EVENTS
from dealer_tui.events.table import RoundStarted, TableChanged, TableOpened
from dealer_tui.ledger.base import STAFF_REGISTER, StoredEvent, TableRecord
from dealer_tui.ledger.records import AuditReads, ChainCheck
from dealer_tui.rounds.session import TableSession
from dealer_tui.staff import StaffRegister, claim_problem
from rules.profiles.loader import shipped_digests
from rules.said import say

CLAIM_KINDS = frozenset(kind for (_, kind), cls in EVENT_TYPES.items()
                        if cls.claim is not Event.claim or cls.claims is not Event.claims)
"""The kinds of event that may name someone's authority."""


@dataclass
class AuthorityAudit:
    """The staff register read once; each table's acts checked against it."""

    register: StaffRegister
    problems: list[str]
    legacy: dict[str, int] = field(default_factory=dict)
    """Acts from before the staff register, by table: a typed name, no sign-in."""

    @classmethod
    def read(cls, ledger: AuditReads, problems: list[str]) -> AuthorityAudit:
        chain = ChainCheck()
        events: list[StoredEvent] = []
        for event, ok in ledger.chain_events(STAFF_REGISTER):
            problems.extend(chain.problems(event, ok))
            events.append(event)
        register = StaffRegister()
        register.fold(events)
        problems.extend(register.problems)
        unconfirmed = register.binding_problem()
        if unconfirmed is not None:
            problems.append(say("{where}: {what}", where=say("staff register"),
                                what=say("{problem} (the pit's staff it received stand for nothing)",
                                         problem=unconfirmed)))
        audit = cls(register, problems)
        staff_kinds = {e.KIND for e in STAFF_EVENTS}
        for stored in events:  # each change's signature and authority: checked as the register folds it in
            if stored.kind not in staff_kinds:
                where = say("staff register, event {seq}", seq=str(stored.ledger_seq))
                problems.append(say("{where}: {what}", where=where,
                                    what=say("a {kind} event has no place in it", kind=stored.kind)))
        return audit

    def before_register(self, stored: StoredEvent) -> bool:
        first = self.register.first_seq
        return first is None or (stored.ledger_seq or 0) < first

    def check(self, stored: StoredEvent, where: str, session: TableSession, table: TableRecord | None = None,
              round_number: int | None = None, label: str | None = None) -> None:
        """One event of `table` (None: of the register itself) that may claim authority, before it
        is replayed on the table's seats; `where` names the event's table (and round), `label` the
        table alone (else the part of `where` before its first comma)."""
        game = table.game if table is not None else None
        if stored.kind == RoundStarted.KIND:
            self.check_dealer(stored, where, session, game)
            return
        if stored.kind in (TableOpened.KIND, TableChanged.KIND):
            self.check_profile(stored, where)
        if stored.kind not in CLAIM_KINDS:
            return
        try:
            event = typed(stored, game)
        except EventError:
            return  # the table's audit names an event that does not read
        for claim in event.claims():
            if claim.sign_in is None and self.before_register(stored):
                table_label = label if label is not None else where.split(",")[0]
                self.legacy[table_label] = self.legacy.get(table_label, 0) + 1
                continue
            problem = claim_problem(self.register, claim, table=table.id if table is not None else None,
                                    round=round_number, dealers=frozenset(session.round_dealers),
                                    at=stored.ledger_seq)
            if problem is not None:
                self.problems.append(say("{where}: {what}", where=say("{where}, event {seq} ({kind})", where=where,
                                                                      seq=str(stored.seq), kind=stored.kind),
                                         what=problem))

    def check_dealer(self, stored: StoredEvent, where: str, session: TableSession, game: str | None) -> None:
        """A round since the register began names the dealer on duty when it started."""
        if self.before_register(stored):
            return
        try:
            started = typed(stored, game)
        except EventError:
            return
        if not isinstance(started, RoundStarted):
            return
        on_duty = session.dealer.account if session.dealer is not None else ""
        if not started.dealer:
            self.problems.append(say("{where}: {what}", where=where, what=say("it started with no dealer signed in")))
        elif started.dealer != on_duty:
            self.problems.append(say("{where}: {what}", where=where, what=say(
                "its start names dealer {dealer}, but {on_duty} was signed in to deal at the table",
                dealer=repr(started.dealer), on_duty=repr(on_duty)) if on_duty else say(
                "its start names dealer {dealer}, but 'no one' was signed in to deal at the table",
                dealer=repr(started.dealer))))

    def check_profile(self, stored: StoredEvent, where: str) -> None:
        """A table opened (or changed) since the register began runs a shipped profile's text or
        one a manager approved before."""
        if self.before_register(stored):
            return
        try:
            event = typed(stored)
        except EventError:
            return
        if not isinstance(event, (TableOpened, TableChanged)) or event.profile_sha256 in shipped_digests():
            return
        approved = self.register.approved_at.get(event.profile_sha256)
        if approved is None or approved >= (stored.ledger_seq or 0):
            self.problems.append(say("{where}: {what}", where=say("{where}, event {seq} ({kind})", where=where,
                                                                  seq=str(stored.seq), kind=stored.kind),
                                     what=say("profile {profile} (sha256 {digest}…) is neither shipped nor approved "
                                              "by a manager", profile=repr(event.profile),
                                              digest=event.profile_sha256[:12])))

    def notes(self) -> list[str]:
        return [say("{where}: {what}", where=where,
                    what=say("{count} approval(s) from before staff accounts, by a typed name with no sign-in",
                             count=count))
                for where, count in sorted(self.legacy.items())] + self.register.notes()
