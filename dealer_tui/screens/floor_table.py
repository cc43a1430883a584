"""The floor review's tables: Textual's DataTable, as it stands (a page of rounds is drawn well
within the floor's 300 ms with it: `bench/floor.py`)."""

from __future__ import annotations

from textual.widgets import DataTable

FloorTable = DataTable
"""The name the floor's screens compose their tables by."""
