"""Each dealer's figures in a shift, and over a report's shifts: the tables dealt, rounds, rounds
per hour on duty, the average round time, voids, corrections, payouts refused, and whether the
game's rotation was followed (the shift report folds them from the table's events)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dealer_tui.accounting.shifts import ShiftFigures


@dataclass
class DealerFigures:
    """One dealer's rounds within a shift (or, summed, across shifts: `tables` says where)."""

    account: str
    rounds: int = 0
    handle: int = 0
    rounds_win: int = 0
    first: str = ""
    last: str = ""
    tables: set[str] = field(default_factory=set)
    on_duty: float = 0.0
    """Seconds signed in to deal (from the sign-in, or the opener, to the sign-out, or the closer;
    for the dealer still on duty in an open shift, to the table's last record)."""
    on_duty_since: str = ""
    """When the dealer still on duty in an open shift signed in (or the shift opened, if later);
    "" for a dealer who signed out or whose shift closed."""
    round_seconds: float = 0.0
    timed: int = 0
    """Rounds whose start and end are both on record (what the average round time is over)."""
    voids: int = 0
    corrections: int = 0
    """Steps the dealer took back and cards the supervisor corrected, in the dealer's rounds."""
    refused: int = 0
    """Payouts the floor (or the supervisor at the table) refused to sign off."""
    overridden: int = 0
    """Of those, the ones paid all the same on a manager's override."""
    rotation_missed: int = 0
    """Rounds whose bank or button did not pass as the game's rotation says (HCF-18)."""
    passed_over: int = 0
    """Seats that declined the bank in the dealer's rounds."""

    @property
    def rounds_per_hour(self) -> float | None:
        return None if self.on_duty <= 0 else self.rounds / (self.on_duty / 3600)

    @property
    def average_round_seconds(self) -> float | None:
        return None if not self.timed else self.round_seconds / self.timed

    def add(self, other: DealerFigures) -> None:
        for name in ("rounds", "handle", "rounds_win", "on_duty", "round_seconds", "timed", "voids", "corrections",
                     "refused", "overridden", "rotation_missed", "passed_over"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.tables |= other.tables
        self.first = min(filter(None, (self.first, other.first)), default="")
        self.last = max(self.last, other.last)
        self.on_duty_since = max(self.on_duty_since, other.on_duty_since)

    def to_dict(self) -> dict[str, object]:
        rph, avg = self.rounds_per_hour, self.average_round_seconds
        return {"dealer": self.account, "tables": sorted(self.tables), "rounds": self.rounds,
                "rounds_per_hour": None if rph is None else round(rph, 2),
                "average_round_seconds": None if avg is None else round(avg, 1),
                "hours_on_duty": round(self.on_duty / 3600, 4), "handle": self.handle, "rounds_win": self.rounds_win,
                "voids": self.voids, "corrections": self.corrections, "payouts_refused": self.refused,
                "payouts_overridden": self.overridden,
                "rotation_followed": self.rotation_missed == 0, "rotation_missed": self.rotation_missed,
                "bank_declined": self.passed_over, "first_round_at": self.first, "last_round_at": self.last,
                "on_duty_since": self.on_duty_since or None}


def dealer_totals(shifts: Sequence[ShiftFigures]) -> list[DealerFigures]:
    """Each dealer's figures summed over the shifts (the tables they dealt, their time on duty):
    over the live tables' shifts, as the report's totals are (a training table's only when the
    report has no other)."""
    live = [s for s in shifts if not s.training]
    out: dict[str, DealerFigures] = {}
    for shift in live or shifts:
        for d in shift.dealers.values():
            out.setdefault(d.account, DealerFigures(d.account)).add(d)
    return [out[k] for k in sorted(out)]
