"""What each event writes on the pit server besides itself: the round's row as the terminal's
ledger writes it (`events.round_row`, the reading `history verify` holds the rows against)."""

from __future__ import annotations

from collections.abc import Callable

from dealer_tui.events import EventError, typed, typed_as
from dealer_tui.events.round_row import END_KINDS, round_update, started_flags
from dealer_tui.events.table import RoundRecovered, RoundStarted
from dealer_tui.ledger.base import RoundUpdate, StoredEvent
from dealer_tui.ledger.postgres import Projection

Times = Callable[[int], tuple[str, str | None]]
"""A round's start and end time as the terminal's row records them, by the terminal's round id."""


def projection(event: StoredEvent, times: Times | None = None) -> Projection | None:
    """A round's start (its number, profile and flags), its recovery, or its end, with the time
    the terminal's row records for it (`times`; else the event's); None for the rest, and for an
    event that does not read (delivered as it is: `history verify` names it)."""
    try:
        if event.kind == RoundStarted.KIND:
            started = typed_as(RoundStarted, event)
            flags = started_flags(started)
            at = times(event.round_id)[0] if times is not None and event.round_id is not None else None
            return Projection(start=(started.number, started.profile, flags), at=at)
        if event.kind == RoundRecovered.KIND:
            return Projection(update=RoundUpdate(add_flags=frozenset({"recovered"})))
        if event.kind in END_KINDS:
            at = times(event.round_id)[1] if times is not None and event.round_id is not None else None
            return Projection(update=round_update([typed(event)]), at=at)
    except EventError:
        return None
    return None
