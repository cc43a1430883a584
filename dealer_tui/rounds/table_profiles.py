"""The profiles a table has run under, from the texts its ledger keeps: each by its sha256, and
the one in force now."""

from __future__ import annotations

from dealer_tui.events import EventError, typed
from dealer_tui.events.table import TableChanged, TableOpened
from dealer_tui.ledger.base import Ledger, LedgerError, TableRecord
from rules.profiles.loader import LoadedProfile, parse_profile
from rules.said import say


def table_profiles(ledger: Ledger, table: TableRecord) -> dict[str, LoadedProfile]:
    """Every profile the table has run under, by its sha256, from the texts the ledger keeps."""
    found: dict[str, LoadedProfile] = {}
    for event in ledger.table_events(table.id, [TableOpened.KIND, TableChanged.KIND]):
        try:
            opening = typed(event)
        except EventError:  # verify names an event that does not read
            continue
        if isinstance(opening, (TableOpened, TableChanged)):
            loaded = parse_profile(opening.profile_text, f"ledger table {table.id}", opening.profile)
            found[loaded.sha256] = loaded
    return found


def current_profile(ledger: Ledger, table_id: int) -> LoadedProfile:
    """The profile the table runs under now: the text the ledger holds for its latest change."""
    profiles = table_profiles(ledger, next(t for t in ledger.tables() if t.id == table_id))
    events = ledger.table_events(table_id, [TableOpened.KIND, TableChanged.KIND])
    if not events:
        raise LedgerError(say("table {table} has no opening record: its creation never completed", table=str(table_id)))
    latest = typed(events[-1])
    assert isinstance(latest, (TableOpened, TableChanged))
    return profiles[latest.profile_sha256]
