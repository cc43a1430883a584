"""Typed events: everything a table records, one frozen dataclass per kind (the common ones in
`events.table`, each game's in `events.<game>`), and the one codec to and from the ledger's JSON
(`events.codec`)."""

from dealer_tui.events import accounting, staff, table  # noqa: F401  (every table's and the register's events, registered)
from dealer_tui.events.codec import (
    EVENT_TYPES,
    Cards,
    Event,
    EventError,
    Handlers,
    Json,
    Record,
    decode,
    key,
    on,
    optional,
    typed,
    typed_as,
)

__all__ = ["EVENT_TYPES", "Cards", "EventError", "Handlers", "Json", "Record", "Event", "decode", "key",
           "on", "optional", "typed", "typed_as"]
