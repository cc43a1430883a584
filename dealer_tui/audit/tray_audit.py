"""A table's tray re-checked from its events, in the order the chain holds them: every count's
total is what its chips are worth, an opener opens and a closer closes a shift, a closer's expected
balance is the shift's own records, a fill or credit names a slip used once, a buy-in's chips make
its amount, a marker names its number once and is signed by someone other than the dealer, a
colour-up gives back what it takes, the tray is witnessed by someone other than the dealer, and
each drop box is counted once, after its shift closed."""

from __future__ import annotations

from dealer_tui.events import Event, EventError, typed
from dealer_tui.events.accounting import (
    CASH,
    CLOSER,
    MARKER,
    OPENER,
    ChipsColouredUp,
    DropCounted,
    TrayCounted,
    TrayCredited,
    TrayEvent,
    TrayFilled,
    chips_total,
)
from dealer_tui.events.table import ChipsBought, SeatTaken, TimeCollected
from dealer_tui.ledger.base import StoredEvent
from dealer_tui.rounds.tray import TRAY_EVENTS, Tray, slip_key
from rules.said import Said, say

TRAY_KINDS = frozenset(e.KIND for e in TRAY_EVENTS)


class TrayAudit:
    def __init__(self, game: str, label: str, problems: list[str]) -> None:
        self.game, self.label, self.problems = game, label, problems
        self.tray = Tray()

    def check(self, stored: StoredEvent, on_duty: str | None = None) -> None:
        """One event of the table's chain; `on_duty` is the dealer the table's events leave on duty."""
        if stored.kind not in TRAY_KINDS:
            return
        try:
            event = typed(stored, self.game)
        except EventError:
            return  # the table's audit names an event that does not read
        where = say("{where}, event {seq} ({kind})", where=self.label, seq=str(stored.seq), kind=stored.kind)
        if isinstance(event, TrayEvent) and event.dealer != on_duty:
            self.problems.append(say("{where}: {what}", where=where, what=say(
                "signed by {dealer} as the dealer, but {on_duty} was on duty", dealer=event.dealer, on_duty=on_duty)
                if on_duty else say("signed by {dealer} as the dealer, but no one was on duty", dealer=event.dealer)))
        if isinstance(event, (SeatTaken, ChipsBought)):
            self.problems += [say("{where}: {what}", where=where, what=problem)
                              for problem in self.sale_problems(event, on_duty)]
        for problem in self.problems_of(event):
            self.problems.append(say("{where}: {what}", where=where, what=problem))
        self.tray.apply(event, stored.ledger_seq)

    def sale_problems(self, event: SeatTaken | ChipsBought, on_duty: str | None) -> list[Said]:
        """Chips sold from the tray with a dealer on duty; a cash buy-in with no marker; a marker
        buy-in's number (as the terminal takes it, once at the table) and its signature, by someone
        other than the dealer on duty, on a sign-in that stood for nothing else (the signature's
        authority, and its words naming the marker, are the staff register's check)."""
        out: list[Said] = []
        if self.tray.shift is not None and on_duty is None:
            out.append(say("chips sold from the tray with no dealer on duty"))
        if event.method != MARKER:
            if event.marker or event.approved_by or event.sign_in is not None:
                signed = (say("signed by {account}", account=event.approved_by) if event.approved_by
                          else say("signed by no one"))
                out.append(say("a {method} buy-in that records a marker ({marker}, {signed})", method=str(event.method),
                               marker=event.marker or say("no number"), signed=signed))
            return out
        if (number := self.tray.marker_problem(event.marker)) is not None:
            out.append(number)
        if event.approved_by and event.approved_by == on_duty:
            out.append(say("marker signed by {account}, the dealer on duty: a marker needs two people",
                           account=event.approved_by))
        if event.sign_in is not None and (reused := self.tray.sign_in_problem(event.sign_in)) is not None:
            out.append(say("{problem} (it stands for nothing here)", problem=reused))
        return out

    def problems_of(self, event: Event) -> list[Said]:
        out: list[Said] = []
        shift = self.tray.shift
        if isinstance(event, (TrayEvent, DropCounted)):
            named = (event.dealer_sign_in, event.sign_in) if isinstance(event, TrayEvent) else (event.sign_in,)
            reused = self.tray.sign_in_problem(*named)
            if reused is not None:
                out.append(say("{problem} (it stands for nothing here)", problem=reused))
        if isinstance(event, TrayEvent):
            if event.total != chips_total(event.chips):
                out.append(say("it records {total} chips, but its chips by colour make {made}", total=event.total,
                               made=chips_total(event.chips)))
            if event.dealer == event.supervisor:
                out.append(say("{account} both counted and witnessed it: a tray count needs two people",
                               account=event.dealer))
        if isinstance(event, TrayCounted):
            if event.count == OPENER and shift is not None:
                out.append(say("an opener while shift {shift} is open", shift=shift.number))
            elif event.count == OPENER and event.shift != len(self.tray.shifts) + 1:
                out.append(say("it opens shift {shift}, but the table's next shift is {next}", shift=event.shift,
                               next=len(self.tray.shifts) + 1))
            elif event.count == CLOSER and shift is None:
                out.append(say("a closer with no shift open"))
            elif event.count == CLOSER and shift is not None:
                if event.shift != shift.number:
                    out.append(say("it closes shift {shift}, but shift {open} is open", shift=event.shift,
                                   open=shift.number))
                if event.expected is not None and event.expected != shift.expected:
                    out.append(say("it records {expected} as expected, but the shift's records give {given}",
                                   expected=event.expected, given=shift.expected))
            elif event.count not in (OPENER, CLOSER):
                out.append(say("a count that is neither an opener nor a closer ({count})", count=repr(event.count)))
        if isinstance(event, (TrayFilled, TrayCredited)):
            if shift is None:
                out.append(say("a fill or a credit with no shift open"))
            if slip_key(event.slip) in self.tray.slips:
                out.append(say("slip {slip} is recorded a second time", slip=event.slip))
        if isinstance(event, (SeatTaken, ChipsBought)):
            amount = event.buy_in if isinstance(event, SeatTaken) else event.amount
            if event.method not in (CASH, MARKER):
                out.append(say("a buy-in paid by {method} (cash or marker)", method=repr(event.method)))
            if event.chips and chips_total(event.chips) != amount:
                out.append(say("a buy-in of {amount} given chips worth {worth}", amount=amount,
                               worth=chips_total(event.chips)))
        if isinstance(event, ChipsColouredUp) and not (
                chips_total(event.given) == chips_total(event.taken) == event.total):
            out.append(say("a colour-up of {given} in for {taken} out", given=chips_total(event.given),
                           taken=chips_total(event.taken)))
        if isinstance(event, TimeCollected) and (
                event.total != sum(event.paid.values()) or any(c < 0 for c in event.paid.values())):
            out.append(say("a time collection of {total} from seats paying {paid}", total=event.total,
                           paid=sum(event.paid.values())))
        if isinstance(event, DropCounted):
            counted = self.tray.shifts[event.shift - 1] if 1 <= event.shift <= len(self.tray.shifts) else None
            if counted is None:
                out.append(say("it counts the drop box of shift {shift}, which the table does not have",
                               shift=event.shift))
            elif counted.open:
                out.append(say("it counts the drop box of shift {shift} before its closer", shift=event.shift))
            elif counted.drop is not None and not event.recount:
                out.append(say("the drop box of shift {shift} is counted a second time with no recount reason",
                               shift=event.shift))
            if counted is not None and event.by in counted.staff:
                out.append(say("{account} counted the drop box of shift {shift}, which they dealt or whose tray they "
                               "signed", account=event.by, shift=event.shift))
        return out
