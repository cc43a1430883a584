"""The profile and the table limits, always in view."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import Static

from rules.profiles.loader import LoadedProfile

SIGN_OFF = "Supervisor sign-off from"


class TableInfo(Static):
    DEFAULT_CSS = """
    TableInfo { border: round $primary; height: auto; padding: 0 1; }
    """

    _lines: tuple[str, ...] = ()
    _tray: str = ""

    def show(self, loaded: LoadedProfile, limits: Sequence[str]) -> None:
        """The profile's rows labelled `limits` (in that order, leaving out those it sets to
        "none"), and the sign-off threshold."""
        self.border_title = loaded.name
        rows = {label: value for section in loaded.profile.posting() for label, value in section.rows}
        lines = [f"{label}: {rows[label]}" for label in limits if rows.get(label, "none") != "none"]
        if SIGN_OFF in rows:
            lines.append(f"Sign-off from: {rows[SIGN_OFF]}")
        self._lines = tuple(lines) if lines else (loaded.profile.title,)
        self._draw()

    def show_tray(self, line: str) -> None:
        """What the tray should hold, under the profile's rows (drawn again only when it changes)."""
        if line != self._tray:
            self._tray = line
            self._draw()

    def _draw(self) -> None:
        self.update(Text("\n".join([*self._lines, self._tray] if self._tray else self._lines)))
