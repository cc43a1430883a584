"""The events of a table's money, beside its rounds: the tray counted when a shift opens and
closes, chips filled from the cage and credited back to it, colour-ups at a seat, and the count
team's count of the drop box. Chips by denomination are `{"100": 40, "25": 80}`: a denomination's
value, as text, to the number of chips."""

from __future__ import annotations

from dealer_tui.events.codec import Event, optional
from dealer_tui.events.staff import Claim, figures_of

OPENER, CLOSER = "opener", "closer"
CASH, MARKER = "cash", "marker"
TRAY_ACT, COUNT_DROP_ACT = "tray", "count_drop"
"""The acts a supervisor signs in for to witness the tray, and the count team for the drop box
(as `staff.authority` names them)."""


def chips_total(chips: dict[str, int]) -> int:
    """What chips by denomination are worth."""
    return sum(int(value) * count for value, count in chips.items())


def tray_figures(kind: str, chips: dict[str, int], detail: str) -> str:
    """What the dealer's and the witness's sign-ins for a tray step sign: the step, its chips by
    denomination (none of a denomination left out) and its opener or closer, or its slip."""
    return figures_of(kind, {"chips": {v: n for v, n in sorted(chips.items()) if n}, "detail": detail})


def drop_figures(shift: int, cash: int, markers: int, collection: int) -> str:
    """What the count team's sign-in for a drop count signs: the shift and each figure counted."""
    return figures_of("drop_counted", {"shift": shift, "cash": cash, "markers": markers, "collection": collection})


class TrayEvent(Event):
    """A movement of the tray both the dealer and a supervisor signed in for, at this table."""

    shift: int
    chips: dict[str, int]
    total: int
    dealer: str
    dealer_sign_in: int
    supervisor: str
    sign_in: int

    def claims(self) -> tuple[Claim, ...]:
        figures = self.figures()
        return (Claim("deal", self.dealer, self.dealer_sign_in, figures=figures),
                Claim(TRAY_ACT, self.supervisor, self.sign_in, figures=figures))

    def figures(self) -> str:
        """What both sign-ins signed (`tray_figures`)."""
        return tray_figures(self.KIND, self.chips, self.detail())

    def detail(self) -> str:
        return ""


class TrayCounted(TrayEvent, kind="tray_counted"):
    """The tray counted by denomination: the opener starts a shift, the closer ends it."""

    count: str
    """`opener` or `closer`."""
    expected: int | None = optional(default=None)
    """A closer: what the tray should have held by the shift's own records."""

    def detail(self) -> str:
        return self.count


class TrayFilled(TrayEvent, kind="tray_filled"):
    """Chips brought from the cage to the tray, on the cage's slip."""

    slip: str

    def detail(self) -> str:
        return self.slip


class TrayCredited(TrayEvent, kind="tray_credited"):
    """Chips sent from the tray back to the cage, on the cage's slip."""

    slip: str

    def detail(self) -> str:
        return self.slip


class ChipsColouredUp(Event, kind="chips_coloured_up"):
    """A player's chips changed for others of the same worth at the seat: `given` went into the
    tray, `taken` came out of it."""

    seat: int
    given: dict[str, int]
    taken: dict[str, int]
    total: int


class DropCounted(Event, kind="drop_counted"):
    """The count team's count of a table's drop box after a shift closed: the cash and the
    markers in it, and (a card room) the chips of the collection box, the rake and fees."""

    shift: int
    cash: int
    markers: int
    by: str
    sign_in: int
    collection: int = optional(default=0)
    note: str = optional(default="")
    recount: str = optional(default="")
    """Why the box was counted again (a count that replaces the one before it; empty: the first)."""

    @property
    def drop(self) -> int:
        return self.cash + self.markers

    def claim(self) -> Claim:
        return Claim(COUNT_DROP_ACT, self.by, self.sign_in,
                     figures=drop_figures(self.shift, self.cash, self.markers, self.collection))
