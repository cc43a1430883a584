"""The profile and the table limits, always in view."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from rules.profiles.loader import LoadedProfile


class TableInfo(Static):
    DEFAULT_CSS = """
    TableInfo { border: round $primary; height: auto; padding: 0 1; }
    """

    def show(self, loaded: LoadedProfile) -> None:
        self.border_title = loaded.name
        rules = loaded.profile.posting()
        lines = []
        for section in rules:
            if section.title in ("Rules", "Betting", "Scoring"):
                lines += [f"{label}: {value}" for label, value in section.rows[:3]]
        self.update(Text("\n".join(lines) if lines else loaded.profile.title))
