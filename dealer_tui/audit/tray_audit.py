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
        where = f"{self.label}, event {stored.seq} ({stored.kind})"
        if isinstance(event, TrayEvent) and event.dealer != on_duty:
            self.problems.append(f"{where}: signed by {event.dealer} as the dealer, but {on_duty or 'no one'} was "
                                 "on duty")
        if isinstance(event, (SeatTaken, ChipsBought)):
            self.problems += [f"{where}: {problem}" for problem in self.sale_problems(event, on_duty)]
        for problem in self.problems_of(event):
            self.problems.append(f"{where}: {problem}")
        self.tray.apply(event, stored.ledger_seq)

    def sale_problems(self, event: SeatTaken | ChipsBought, on_duty: str | None) -> list[str]:
        """Chips sold from the tray with a dealer on duty; a cash buy-in with no marker; a marker
        buy-in's number (as the terminal takes it, once at the table) and its signature, by someone
        other than the dealer on duty, on a sign-in that stood for nothing else (the signature's
        authority, and its words naming the marker, are the staff register's check)."""
        out: list[str] = []
        if self.tray.shift is not None and on_duty is None:
            out.append("chips sold from the tray with no dealer on duty")
        if event.method != MARKER:
            if event.marker or event.approved_by or event.sign_in is not None:
                out.append(f"a {event.method} buy-in that records a marker ({event.marker or 'no number'}, signed by "
                           f"{event.approved_by or 'no one'})")
            return out
        if (number := self.tray.marker_problem(event.marker)) is not None:
            out.append(number)
        if event.approved_by and event.approved_by == on_duty:
            out.append(f"marker signed by {event.approved_by}, the dealer on duty: a marker needs two people")
        if event.sign_in is not None and (reused := self.tray.sign_in_problem(event.sign_in)) is not None:
            out.append(reused + " (it stands for nothing here)")
        return out

    def problems_of(self, event: Event) -> list[str]:
        out: list[str] = []
        shift = self.tray.shift
        if isinstance(event, (TrayEvent, DropCounted)):
            named = (event.dealer_sign_in, event.sign_in) if isinstance(event, TrayEvent) else (event.sign_in,)
            reused = self.tray.sign_in_problem(*named)
            if reused is not None:
                out.append(reused + " (it stands for nothing here)")
        if isinstance(event, TrayEvent):
            if event.total != chips_total(event.chips):
                out.append(f"it records {event.total} chips, but its chips by colour make {chips_total(event.chips)}")
            if event.dealer == event.supervisor:
                out.append(f"{event.dealer} both counted and witnessed it: a tray count needs two people")
        if isinstance(event, TrayCounted):
            if event.count == OPENER and shift is not None:
                out.append(f"an opener while shift {shift.number} is open")
            elif event.count == OPENER and event.shift != len(self.tray.shifts) + 1:
                out.append(f"it opens shift {event.shift}, but the table's next shift is {len(self.tray.shifts) + 1}")
            elif event.count == CLOSER and shift is None:
                out.append("a closer with no shift open")
            elif event.count == CLOSER and shift is not None:
                if event.shift != shift.number:
                    out.append(f"it closes shift {event.shift}, but shift {shift.number} is open")
                if event.expected is not None and event.expected != shift.expected:
                    out.append(f"it records {event.expected} as expected, but the shift's records give "
                               f"{shift.expected}")
            elif event.count not in (OPENER, CLOSER):
                out.append(f"a count that is neither an opener nor a closer ({event.count!r})")
        if isinstance(event, (TrayFilled, TrayCredited)):
            if shift is None:
                out.append("a fill or a credit with no shift open")
            if slip_key(event.slip) in self.tray.slips:
                out.append(f"slip {event.slip} is recorded a second time")
        if isinstance(event, (SeatTaken, ChipsBought)):
            amount = event.buy_in if isinstance(event, SeatTaken) else event.amount
            if event.method not in (CASH, MARKER):
                out.append(f"a buy-in paid by {event.method!r} (cash or marker)")
            if event.chips and chips_total(event.chips) != amount:
                out.append(f"a buy-in of {amount} given chips worth {chips_total(event.chips)}")
        if isinstance(event, ChipsColouredUp) and not (
                chips_total(event.given) == chips_total(event.taken) == event.total):
            out.append(f"a colour-up of {chips_total(event.given)} in for {chips_total(event.taken)} out")
        if isinstance(event, TimeCollected) and (
                event.total != sum(event.paid.values()) or any(c < 0 for c in event.paid.values())):
            out.append(f"a time collection of {event.total} from seats paying {sum(event.paid.values())}")
        if isinstance(event, DropCounted):
            counted = self.tray.shifts[event.shift - 1] if 1 <= event.shift <= len(self.tray.shifts) else None
            if counted is None:
                out.append(f"it counts the drop box of shift {event.shift}, which the table does not have")
            elif counted.open:
                out.append(f"it counts the drop box of shift {event.shift} before its closer")
            elif counted.drop is not None and not event.recount:
                out.append(f"the drop box of shift {event.shift} is counted a second time with no recount reason")
            if counted is not None and event.by in counted.staff:
                out.append(f"{event.by} counted the drop box of shift {event.shift}, which they dealt or whose tray "
                           "they signed")
        return out
