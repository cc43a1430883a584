"""The profile and the table limits, always in view."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import Static

from dealer_tui.language import _, current, told
from rules.profiles.loader import LoadedProfile

SIGN_OFF = "Supervisor sign-off from"
"""The posting's row of the sign-off threshold (its label as the profile posts it)."""


class TableInfo(Static):
    DEFAULT_CSS = """
    TableInfo { border: round $primary; height: auto; padding: 0 1; }
    """

    _lines: tuple[str, ...] = ()
    _tray: str = ""
    _shown: tuple[LoadedProfile, tuple[str, ...]] | None = None
    _language = ""
    """The language the rows were written in: another reader's has them written again."""

    def show(self, loaded: LoadedProfile, limits: Sequence[str]) -> None:
        """The profile's rows labelled `limits` (in that order, leaving out those it sets to
        "none"), and the sign-off threshold."""
        self.border_title = loaded.name
        self._shown = (loaded, tuple(limits))
        self._language = current().code
        rows = {label: value for section in loaded.profile.posting() for label, value in section.rows}
        # a label as the presenter names it, in the catalogs where it is marked (`N_`, `say`); a
        # value the rules wrote, told (a sentence in the reader's language, a plain text as it is)
        lines = [f"{_(label)}: {told(rows[label])}" for label in limits if rows.get(label, "none") != "none"]
        if SIGN_OFF in rows:
            lines.append(_("Sign-off from: {threshold}", threshold=told(rows[SIGN_OFF])))
        self._lines = tuple(lines) if lines else (loaded.profile.title,)
        self._draw()

    def show_tray(self, line: str) -> None:
        """What the tray should hold, under the profile's rows (drawn again only when it changes,
        or when the reader's language has: the rows too)."""
        if self._shown is not None and current().code != self._language:
            self._tray = line
            self.show(*self._shown)
        elif line != self._tray:
            self._tray = line
            self._draw()

    def _draw(self) -> None:
        self.update(Text("\n".join([*self._lines, self._tray] if self._tray else self._lines)))
