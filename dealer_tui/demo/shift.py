"""A demo's shift accounting, as a table keeps it: the opener counted before anyone buys in, a
fill when the tray runs low (and one on the way, whatever it holds), a credit back to the cage,
and the closer counted honestly — every count and slip signed by the dealer and the supervisor, each
marker by the supervisor."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from dealer_tui.events.table import marker_purpose
from dealer_tui.rounds.table import Table
from dealer_tui.rounds.table_money import Marker
from dealer_tui.rounds.tray import make_up
from dealer_tui.staff import Approval

Signatures = Callable[[], tuple[Approval, Approval]]
"""A fresh sign-in of the dealer (to deal) and of the supervisor (to witness the tray)."""
Witness = Callable[[str], Approval]
"""A fresh sign-in of the supervisor to witness the tray, for the words given (a marker's)."""


@dataclass
class DemoShift:
    table: Table
    sign: Signatures
    witness: Witness
    slip_prefix: str = "DEMO"
    fills: int = 0
    credits: int = 0
    markers: int = 0

    def _slip(self, kind: str) -> str:
        shift = self.table.tray.shift
        number = shift.number if shift is not None else 0
        done = self.fills if kind == "F" else self.credits
        return f"{self.slip_prefix}-{self.table.record.id}-{number}-{kind}{done + 1}"

    def _chips(self, amount: int) -> dict[str, int]:
        return make_up(self.table.profile.profile.chip_set(), amount)

    def open(self, players: int) -> bool:
        """The opener, when no shift is open: the tray the last closer counted, or (a new table)
        chips for every seat's largest buy-in twice over. Whether this demo opened the shift."""
        tray = self.table.tray
        if tray.shift is not None:
            return False
        last = tray.shifts[-1].closer_chips if tray.shifts else None
        amount = 2 * max(players, 1) * self.table.profile.profile.buy_in.max
        self.table.money.open_shift(last or self._chips(amount), *self.sign())
        return True

    def ensure(self, amount: int) -> None:
        """A fill before a buy-in the tray could not give."""
        shift = self.table.tray.shift
        if shift is not None and shift.expected < amount:
            self.fill(2 * amount)

    def cover(self, house: int) -> None:
        """A fill at a payout the tray could not cover (a round whose house result is `house`)."""
        short = self.table.money.payout_short(house)
        if short:
            self.fill(short + self.table.profile.profile.buy_in.max)

    def fill(self, amount: int) -> None:
        self.table.money.fill(self._slip("F"), self._chips(amount), *self.sign())
        self.fills += 1

    def credit(self) -> None:
        """A tenth of what the tray holds back to the cage."""
        shift = self.table.tray.shift
        if shift is not None and shift.expected >= 10:
            self.table.money.credit(self._slip("C"), self._chips(shift.expected // 10), *self.sign())
            self.credits += 1

    def marker(self, amount: int) -> Marker:
        """A marker for a buy-in of `amount` on credit: its number, signed by the supervisor."""
        self.markers += 1
        shift = self.table.tray.shift
        number = f"{self.slip_prefix}-{self.table.record.id}-{shift.number if shift is not None else 0}-M{self.markers}"
        return Marker(number, self.witness(marker_purpose(number, amount)))

    def close(self) -> None:
        """The closer, counted as the tray stands (the demo's count is honest)."""
        shift = self.table.tray.shift
        if shift is not None:
            self.table.money.close_shift(self._chips(shift.expected), *self.sign())
