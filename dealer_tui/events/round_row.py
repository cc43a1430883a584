"""A round's row read from its events, one reading for every writer and checker: the flags its
start gives it, and what its end (a confirmed payout or a void) writes into it. The terminal's
ledger writes the row so (`Table`), the pit server receives it so (`pit.projection`), and
`history verify` holds the stored rows against it."""

from __future__ import annotations

from collections.abc import Sequence

from dealer_tui.events.codec import Event
from dealer_tui.events.table import PayoutConfirmed, RoundStarted, RoundVoided
from dealer_tui.ledger.base import ROUND_SETTLED, ROUND_VOIDED, RoundUpdate

END_KINDS = (PayoutConfirmed.KIND, RoundVoided.KIND)
"""The events that end a round."""


def start_flags(seeded: bool, training: bool) -> frozenset[str]:
    """The flags a round starts with: dealt from a seed, played at a training table."""
    return frozenset(flag for flag, on in (("seeded", seeded), ("training", training)) if on)


def started_flags(started: RoundStarted) -> frozenset[str]:
    return start_flags(started.seeded, started.training)


def round_update(events: Sequence[Event]) -> RoundUpdate | None:
    """What a round-ending event writes into the round's row: its status, flags, settlement rows
    and totals; None when no event ends the round."""
    for event in events:
        if isinstance(event, PayoutConfirmed):
            return RoundUpdate(status=ROUND_SETTLED, add_flags=frozenset(event.flags),
                               settlement=[r.row() for r in event.rows],
                               totals=(event.seats, event.wagered, event.paid, event.house))
        if isinstance(event, RoundVoided):
            returned = {int(seat): chips for seat, chips in event.returned.items()}
            return RoundUpdate(status=ROUND_VOIDED, add_flags=frozenset({"voided"}),
                               totals=(len(returned), sum(returned.values()), 0, 0))
    return None
