"""What a voided round had on the table, and who approved the void.

A void returns every bet and fee (HCF-19, R-12, CP-11) and records no settlement, so the bets are
found by replaying the round's events up to the void through its game's rules and reading what
each seat had put up (the dealer's own view of the seats). The approval is the supervisor's PIN
sign-in the table recorded for the void, just before it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dealer_tui.events import EventError, typed_as
from dealer_tui.events.table import RoundStarted, RoundVoided, SupervisorSignedIn
from dealer_tui.language import told
from dealer_tui.ledger import Ledger, RoundRecord, StoredEvent
from dealer_tui.rounds.game import Games
from dealer_tui.staff import StaffRegister
from dealer_tui.views import Presenter
from rules.said import Said, as_said, say

VOID_EVENT = RoundVoided.KIND


@dataclass(frozen=True)
class Returned:
    """One seat's chips a void handed back."""

    seat: int
    name: str
    bets: tuple[tuple[str, int], ...]
    total: int


@dataclass(frozen=True)
class Void:
    """A voided round as the floor tells it: its reason and approval kept as sentences, told in
    the language of the reader when shown."""

    why: Said
    at: str
    returned: tuple[Returned, ...] | None
    """None when the round's bets cannot be worked out here (a game or profile this program lacks)."""
    approved: Said

    @property
    def reason(self) -> str:
        """Why the round was voided, as the void recorded it (or why it cannot be read)."""
        return told(self.why)

    @property
    def approval(self) -> str:
        """Who approved the void, in the reader's language."""
        return told(self.approved)

    @property
    def seats(self) -> int:
        return len(self.returned or ())

    @property
    def wagered(self) -> int:
        return sum(r.total for r in self.returned or ())


class Voids:
    """Voided rounds, each replayed once (a voided round never changes)."""

    def __init__(self, ledger: Ledger, games: Games[Presenter[Any]]) -> None:
        self.ledger, self.games = ledger, games
        self._voids: dict[int, Void] = {}
        self._profiles: dict[int, dict[str, Any]] = {}

    def of(self, record: RoundRecord) -> Void | None:
        if record.status != "voided":
            return None
        if record.id not in self._voids:
            self._voids[record.id] = self._read(record)
        return self._voids[record.id]

    def _read(self, record: RoundRecord) -> Void:
        events = self.ledger.round_events(record.id)
        at = next((i for i, e in enumerate(events) if e.kind == VOID_EVENT), None)
        if at is None:
            return Void(say("(no void recorded)"), "", None, say("no void event in the round"))
        void = events[at]
        try:
            reason = as_said(typed_as(RoundVoided, void).reason)
        except EventError:
            reason = say("(the void's record does not read)")
        return Void(reason, void.ts, self._returned(record, events[:at]), self._approval(record, void))

    def _returned(self, record: RoundRecord, before: list[StoredEvent]) -> tuple[Returned, ...] | None:
        from rules.errors import RulesError

        if not before or before[0].kind != RoundStarted.KIND:
            return None
        try:
            start = typed_as(RoundStarted, before[0])
            loaded = self._table_profiles(record.table_id).get(start.profile_sha256)
            if loaded is None:
                return None
            setup = start.setup
            game = self.games.find(record.game)
            rnd = game.round_class(keyed=start.card_source == "entry")(loaded.profile, setup)
            rnd.apply_all(before)
            stacks = {int(seat): (str(p["name"]), int(p["stack"])) for seat, p in setup["players"].items()}
            views = game.presenter.seats(rnd, stacks)
        except (RulesError, KeyError, ValueError, TypeError, IndexError, ImportError, StopIteration):
            return None
        out = []
        for view in views:
            name, stack = stacks.get(view.seat, (view.name, view.stack))
            total = stack - view.stack
            bets = tuple((label, amount) for label, amount in view.bets if amount)
            if total > sum(a for _, a in bets):
                bets += ((say("fees"), total - sum(a for _, a in bets)),)
            if total > 0:
                out.append(Returned(view.seat, name, bets, total))
        return tuple(out)

    def _table_profiles(self, table_id: int) -> dict[str, Any]:
        if table_id not in self._profiles:
            from dealer_tui.rounds.table_profiles import table_profiles

            table = next(t for t in self.ledger.tables() if t.id == table_id)
            self._profiles[table_id] = dict(table_profiles(self.ledger, table))
        return self._profiles[table_id]

    def _approval(self, record: RoundRecord, void: StoredEvent) -> Said:
        """Who approved the void: the account and the sign-in it names (the staff register's
        record), or, for a void from before staff accounts, the shared PIN's last sign-in."""
        try:
            voided = typed_as(RoundVoided, void)
        except EventError:
            return say("the void does not read (verify names why)")
        if voided.sign_in is not None:
            register = StaffRegister.read(self.ledger)
            signed = register.sign_in_at(voided.sign_in)
            account = register.accounts.get(voided.by)
            who = account.describe() if account is not None else repr(voided.by)
            if signed is None or signed.event.account != voided.by:
                return say("by {who}: the sign-in it names ({sign_in}) is not in the staff register", who=who,
                           sign_in=str(voided.sign_in))
            return say("by {who}, signed in with their PIN at {at} (for “{purpose}”)", who=who, at=signed.ts[11:19],
                       purpose=signed.event.purpose)
        signed_before: list[tuple[str, SupervisorSignedIn]] = []
        for stored in self.ledger.table_events(record.table_id, [SupervisorSignedIn.KIND]):
            try:
                if stored.seq < void.seq:
                    signed_before.append((stored.ts, typed_as(SupervisorSignedIn, stored)))
            except EventError:  # a sign-in that does not read approves nothing (verify names it)
                continue
        for_void = [(ts, sign_in) for ts, sign_in in signed_before if sign_in.purpose.startswith("void")]
        if not for_void:
            return say("no supervisor sign-in for a void is recorded before it")
        ts, sign_in = for_void[-1]
        return say("approved with the shared supervisor PIN at {at} (for “{purpose}”), before staff accounts",
                   at=ts[11:19], purpose=sign_in.purpose)
