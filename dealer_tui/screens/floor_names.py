"""Table names for the floor's screens: read from the ledger, and read again when a table that
opened since the floor started shows up (its rounds, its payouts sent for sign-off)."""

from __future__ import annotations

from dealer_tui.language import _
from dealer_tui.ledger import Ledger


class TableNames:
    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self._names: dict[int, str] = {}
        self.refresh()

    def refresh(self) -> None:
        self._names = {t.id: t.name for t in self.ledger.tables()}

    def name(self, table_id: int) -> str:
        """The table's name; a table not known yet is looked up again in the ledger."""
        if table_id not in self._names:
            self.refresh()
        return self._names[table_id] if table_id in self._names else _("table {id}", id=table_id)
