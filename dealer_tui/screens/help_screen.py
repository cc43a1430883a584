"""Help: the keys legal now, the profile's paytables, and the game's rules in one screen."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from dealer_tui.language import N_, _, told
from rules.profiles.loader import LoadedProfile


class HelpScreen(ModalScreen[None]):
    CSS_PATH = "modal.tcss"
    BINDINGS = [Binding("escape,question_mark,q", "close", N_("Close"))]

    def __init__(self, keys: Sequence[tuple[str, str]], loaded: LoadedProfile, rules_summary: str) -> None:
        super().__init__()
        self.keys, self.loaded, self.rules_summary = keys, loaded, rules_summary

    def compose(self) -> ComposeResult:
        keys = Table(title=_("Keys now"), show_header=False, box=None)
        for key, description in self.keys:
            keys.add_row(Text(key, style="bold"), description)
        sections = []
        for section in self.loaded.profile.posting():
            t = Table(title=told(section.title), show_header=False, box=None, title_justify="left")
            for label, value in section.rows:
                t.add_row(told(label), told(value))
            sections.append(t)
        with VerticalScroll(classes="dialog help-body"):
            yield Static(_("Help — {title}", title=self.loaded.profile.title), classes="title")
            yield Static(keys)
            yield Static(Text(_(self.rules_summary) if self.rules_summary else ""))  # a game's N_(RULES)
            yield Static(Group(*sections))
            yield Static(_("Esc or ? closes"), classes="hint")

    def action_close(self) -> None:
        self.dismiss(None)
