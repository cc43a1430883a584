"""The count team's count of a table's drop box, recorded on the table's chain once its shift is
closed: the cash, the markers and (a card room) the collection box, by a manager or an auditor
signed in to count that table's box."""

from __future__ import annotations

from dealer_tui.events import EventError, typed
from dealer_tui.events.accounting import DropCounted
from dealer_tui.events.staff import Claim
from dealer_tui.ledger.base import Ledger, StoredEvent, TableRecord
from dealer_tui.rounds.tray import TRAY_EVENTS, Tray
from dealer_tui.staff import COUNT_DROP, Approval, StaffRegister, claim_problem
from rules.errors import IllegalAction
from rules.profiles.base import MAX_CHIPS, MAX_TEXT

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
    """What is wrong with a drop count's figures, before anyone signs in for it (None: nothing)."""
    for label, amount in (("cash", cash), ("markers", markers), ("collection box", collection)):
        if not 0 <= amount <= MAX_CHIPS:
            return f"the {label} counted must be 0 to {MAX_CHIPS:,}, not {amount}"
    if len(note) > MAX_TEXT or len(recount) > MAX_TEXT:
        return f"a note or a recount's reason is at most {MAX_TEXT} characters"
    for text in (note, recount):
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return "a note or a recount's reason must be text (UTF-8)"
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
        raise IllegalAction("a drop count is made by the count team signed in to count the drop box")
    register = StaffRegister.read(ledger)
    problem = claim_problem(register, Claim(COUNT_DROP, by.account, by.sign_in), table=table.id)
    if problem is not None:
        raise IllegalAction(f"The drop box of table {table.name} may not be counted: {problem}")
    made: list[DropCounted] = []

    def decide(events: list[StoredEvent]) -> list[DropCounted]:
        tray = tray_of([e for e in events if e.kind in TRAY_KINDS], table.game)
        closed = [s for s in tray.shifts if not s.open]
        if not closed:
            raise IllegalAction(f"table {table.name} has no closed shift: its closer is counted first")
        target = closed[-1] if shift is None else next((s for s in tray.shifts if s.number == shift), None)
        if target is None:
            raise IllegalAction(f"table {table.name} has no shift {shift} (shifts: 1-{len(tray.shifts)})")
        if target.open:
            raise IllegalAction(f"shift {target.number} of table {table.name} is open: its closer is counted first")
        if target.drop is not None and not recount.strip():
            raise IllegalAction(f"the drop box of shift {target.number} of table {table.name} is already counted "
                                f"({target.drop.cash:,} cash, {target.drop.markers:,} in markers, by "
                                f"{target.drop.by}): a recount gives its reason (--recount)")
        reused = tray.sign_in_problem(by.sign_in)
        if reused is not None:
            raise IllegalAction(f"the drop box of table {table.name} may not be counted on that sign-in: {reused}")
        if by.account in target.staff:
            raise IllegalAction(f"{by.account} dealt or signed the tray in shift {target.number} of table {table.name}: "
                                "its drop box is counted by someone who did neither")
        if target.drop is None and recount.strip():
            raise IllegalAction(f"the drop box of shift {target.number} of table {table.name} has not been counted: "
                                "nothing to recount")
        event = DropCounted(shift=target.number, cash=cash, markers=markers, collection=collection, by=by.account,
                            sign_in=by.sign_in, note=note.strip(), recount=recount.strip())
        signed = claim_problem(register, event.claim(), table=table.id)
        if signed is not None:
            raise IllegalAction(f"The drop box of table {table.name} may not be counted: {signed}")
        made.append(event)
        return [event]

    ledger.append_checked(table.id, lambda events: [e.record() for e in decide(events)])
    return made[0]
