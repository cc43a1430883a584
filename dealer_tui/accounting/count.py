"""The count team's count of a table's drop box, recorded on the table's chain once its shift is
closed: the cash, the markers and (a card room) the collection box, by a manager or an auditor
signed in to count that table's box. What is refused is said as a sentence (`rules.said`), told
in the reader's language where it is shown."""

from __future__ import annotations

from dealer_tui.events import EventError, typed
from dealer_tui.events.accounting import DropCounted
from dealer_tui.events.staff import Claim
from dealer_tui.ledger.base import Ledger, StoredEvent, TableRecord
from dealer_tui.rounds.tray import TRAY_EVENTS, Tray
from dealer_tui.staff import COUNT_DROP, Approval, StaffRegister, claim_problem
from rules.errors import IllegalAction
from rules.profiles.base import MAX_CHIPS, MAX_TEXT
from rules.said import as_said, say

TRAY_KINDS = [e.KIND for e in TRAY_EVENTS]


def tray_of(events: list[StoredEvent], game: str) -> Tray:
    tray = Tray()
    for stored in events:
        try:
            tray.apply(typed(stored, game), stored.ledger_seq)
        except EventError:
            continue  # verify names an event that does not read
    return tray


def drop_input_problem(cash: int, markers: int, collection: int, note: str = "", recount: str = "") -> str | None:
    """What is wrong with a drop count's figures, before anyone signs in for it (None: nothing), as
    a sentence (a `rules.said.Said`: `told` says it in the reader's language)."""
    if not 0 <= cash <= MAX_CHIPS:
        return say("the cash counted must be 0 to {most:,}, not {amount}", most=MAX_CHIPS, amount=str(cash))
    if not 0 <= markers <= MAX_CHIPS:
        return say("the markers counted must be 0 to {most:,}, not {amount}", most=MAX_CHIPS, amount=str(markers))
    if not 0 <= collection <= MAX_CHIPS:
        return say("the collection box counted must be 0 to {most:,}, not {amount}", most=MAX_CHIPS,
                   amount=str(collection))
    if len(note) > MAX_TEXT or len(recount) > MAX_TEXT:
        return say("a note or a recount's reason is at most {most} characters", most=MAX_TEXT)
    for text in (note, recount):
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return say("a note or a recount's reason must be text (UTF-8)")
    return None


def drop_shift(ledger: Ledger, table: TableRecord, shift: int | None = None) -> int | None:
    """The shift a drop count is for: `shift`, or the table's last closed one (None: none closed)."""
    tray = tray_of(ledger.table_events(table.id, TRAY_KINDS), table.game)
    closed = [s.number for s in tray.shifts if not s.open]
    return shift if shift is not None else (closed[-1] if closed else None)


def record_drop(ledger: Ledger, table: TableRecord, cash: int, markers: int, collection: int, by: Approval,
                shift: int | None = None, note: str = "", recount: str = "") -> DropCounted:
    """Record the drop box count of the table's last closed shift (or `shift`); `IllegalAction`
    says why not (no closed shift, already counted without a `recount` reason, a bad amount, a
    sign-in that does not stand). A recount replaces the count before it, which stays on record."""
    problem = drop_input_problem(cash, markers, collection, note, recount)
    if problem is not None:
        raise IllegalAction(problem)
    if by.act != COUNT_DROP:
        raise IllegalAction(say("a drop count is made by the count team signed in to count the drop box"))
    register = StaffRegister.read(ledger)
    refused = claim_problem(register, Claim(COUNT_DROP, by.account, by.sign_in), table=table.id)
    if refused is not None:
        raise IllegalAction(say("The drop box of table {table} may not be counted: {problem}", table=table.name,
                                problem=as_said(refused)))
    made: list[DropCounted] = []

    def decide(events: list[StoredEvent]) -> list[DropCounted]:
        tray = tray_of([e for e in events if e.kind in TRAY_KINDS], table.game)
        closed = [s for s in tray.shifts if not s.open]
        if not closed:
            raise IllegalAction(say("table {table} has no closed shift: its closer is counted first", table=table.name))
        target = closed[-1] if shift is None else next((s for s in tray.shifts if s.number == shift), None)
        if target is None:
            raise IllegalAction(say("table {table} has no shift {shift} (shifts: 1-{last})", table=table.name,
                                    shift=str(shift), last=str(len(tray.shifts))))
        if target.open:
            raise IllegalAction(say("shift {shift} of table {table} is open: its closer is counted first",
                                    shift=str(target.number), table=table.name))
        if target.drop is not None and not recount.strip():
            raise IllegalAction(say("the drop box of shift {shift} of table {table} is already counted ({cash:,} "
                                    "cash, {markers:,} in markers, by {by}): a recount gives its reason (--recount)",
                                    shift=str(target.number), table=table.name, cash=target.drop.cash,
                                    markers=target.drop.markers, by=target.drop.by))
        reused = tray.sign_in_problem(by.sign_in)
        if reused is not None:
            raise IllegalAction(say("the drop box of table {table} may not be counted on that sign-in: {problem}",
                                    table=table.name, problem=as_said(reused)))
        if by.account in target.staff:
            raise IllegalAction(say("{account} dealt or signed the tray in shift {shift} of table {table}: its drop "
                                    "box is counted by someone who did neither", account=by.account,
                                    shift=str(target.number), table=table.name))
        if target.drop is None and recount.strip():
            raise IllegalAction(say("the drop box of shift {shift} of table {table} has not been counted: nothing "
                                    "to recount", shift=str(target.number), table=table.name))
        event = DropCounted(shift=target.number, cash=cash, markers=markers, collection=collection, by=by.account,
                            sign_in=by.sign_in, note=note.strip(), recount=recount.strip())
        signed = claim_problem(register, event.claim(), table=table.id)
        if signed is not None:
            raise IllegalAction(say("The drop box of table {table} may not be counted: {problem}", table=table.name,
                                    problem=as_said(signed)))
        made.append(event)
        return [event]

    ledger.append_checked(table.id, lambda events: [e.record() for e in decide(events)])
    return made[0]
