"""The time between two of the ledger's ISO timestamps."""

from __future__ import annotations

from datetime import datetime


def seconds_between(start: str, end: str, otherwise: float = 0.0) -> float:
    """Seconds from `start` to `end` (negative when `end` is earlier); `otherwise` when either
    does not read as a time."""
    try:
        return (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()
    except ValueError:
        return otherwise
