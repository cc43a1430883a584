"""The journal of the table: tables, rounds, hash-chained events and settlement rows.

Rounds and screens talk to the `Ledger` interface only (a table that is played, to a `TableLedger`);
`SqliteLedger` is the embedded store, `PgLedger` the pit server.
The ledger knows no game: it stores a game's id, its events and its settlement rows as data.
"""

from dealer_tui.ledger.base import (
    Ledger,
    LedgerError,
    NewEvent,
    RoundRecord,
    RowQuery,
    SettlementRow,
    StoredEvent,
    TableLedger,
    TableRecord,
    Totals,
)
from dealer_tui.ledger.sqlite import SqliteLedger, default_ledger_path

__all__ = [
    "Ledger",
    "LedgerError",
    "NewEvent",
    "RoundRecord",
    "RowQuery",
    "SettlementRow",
    "SqliteLedger",
    "StoredEvent",
    "TableLedger",
    "TableRecord",
    "Totals",
    "default_ledger_path",
]
