"""ANTE ▸ DEAL ▸ ACT ▸ REVEAL ▸ PAYOUT with the current phase lit."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from dealer_tui.rounds.base import TRACK, Phase


class PhaseTrack(Static):
    DEFAULT_CSS = """
    PhaseTrack { height: 1; padding: 0 1; background: $panel; }
    """

    phase: reactive[Phase | None] = reactive(None)

    def render(self) -> Text:
        text = Text()
        current = self.phase
        for i, phase in enumerate(TRACK):
            if i:
                text.append(" ▸ ", style="dim")
            lit = phase == current or (current is Phase.DEAL and phase is Phase.DEAL)
            text.append(phase.label, style="bold reverse green" if lit else "dim")
        if current in (Phase.DONE, Phase.VOID):
            text.append("   " + ("ROUND OVER" if current is Phase.DONE else "VOID"), style="bold yellow")
        return text
