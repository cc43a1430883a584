"""The profile and the table limits, always in view."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import Static

from dealer_tui.language import _, current, told
from rules.errors import BadInput
from rules.profiles.loader import LoadedProfile
from rules.registry import game

SIGN_OFF = "Supervisor sign-off from"
"""The posting's row of the sign-off threshold (its label as the profile posts it, in English)."""


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
        self.border_title = _game_title(loaded)
        self._shown = (loaded, tuple(limits))
        self._language = current().code
        # each row by its label's English (the posting's labels are sentences, `rules.said`, that
        # read as their English): the presenter's `LIMITS` name rows so; shown in the reader's words
        rows = {str(label): (label, value) for section in loaded.profile.posting() for label, value in section.rows}
        lines = [f"{told(rows[name][0])}: {told(rows[name][1])}" for name in limits
                 if name in rows and rows[name][1] != "none"]
        if SIGN_OFF in rows:
            lines.append(_("Sign-off from: {threshold}", threshold=told(rows[SIGN_OFF][1])))
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


def _game_title(loaded: LoadedProfile) -> str:
    """The panel's title: the game's name as a person reads it (`High Card Flush`), not its id."""
    try:
        return game(loaded.game).title
    except BadInput:
        return loaded.name
