"""The floor's settings: the thresholds of the cash-transaction logs and of the alerts, and the hour
a gaming day begins. A manager changes them (a signed change on the staff register, like an account
change); everything that uses them reads them from the register as it stands."""

from __future__ import annotations

from dataclasses import dataclass

from rules.profiles.base import MAX_CHIPS
from rules.said import Said, say


@dataclass(frozen=True)
class Setting:
    label: str
    default: int
    low: int
    high: int
    unit: str


SETTINGS: dict[str, Setting] = {
    "mtl_threshold": Setting("multiple-transaction log: one cash transaction from", 3_000, 1, MAX_CHIPS, "chips"),
    "ctr_threshold": Setting("currency transaction: a player's cash in or out over a gaming day from", 10_000, 1,
                             MAX_CHIPS, "chips"),
    "void_alert_minutes": Setting("alert: two voids at one table within", 60, 1, 24 * 60, "minutes"),
    "gaming_day_starts": Setting("the gaming day begins at (UTC)", 6, 0, 23, "o'clock"),
    "late_delivery_minutes": Setting("pit: a round reaching the server this long after it ended is late", 10, 1,
                                     7 * 24 * 60, "minutes"),
}
"""Each setting the floor has: what it is, its default and the values it may take."""


def defaults() -> dict[str, int]:
    return {name: s.default for name, s in SETTINGS.items()}


def setting_problem(name: str, value: object) -> Said | None:
    """Why `name` may not be set to `value` (None: it may)."""
    if name not in SETTINGS:
        return say("no floor setting {name} (settings: {settings})", name=repr(name), settings=", ".join(SETTINGS))
    s = SETTINGS[name]
    if not isinstance(value, int) or isinstance(value, bool) or not s.low <= value <= s.high:
        given = repr(value)
        if s.unit == "minutes":
            return say("{name}: {value} is not {low} to {high:,} minutes", name=name, value=given, low=s.low, high=s.high)
        if s.unit == "o'clock":
            return say("{name}: {value} is not {low} to {high:,} o'clock", name=name, value=given, low=s.low, high=s.high)
        return say("{name}: {value} is not {low} to {high:,} chips", name=name, value=given, low=s.low, high=s.high)
    return None
