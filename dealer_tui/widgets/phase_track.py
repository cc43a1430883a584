"""The game's phases (ANTE ▸ DEAL ▸ ACT ▸ REVEAL ▸ PAYOUT, or the game's own) with the current one lit."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from dealer_tui.language import _
from dealer_tui.rounds.base import Phase, Round, TrackStep


class PhaseTrack(Static):
    DEFAULT_CSS = """
    PhaseTrack { height: 1; padding: 0 1; background: $panel; }
    """

    phase: reactive[Phase | None] = reactive(None)

    def __init__(self, steps: Sequence[TrackStep] = Round.PHASE_TRACK) -> None:
        super().__init__()
        self.steps = tuple(steps)

    def render(self) -> Text:
        text = Text()
        current = self.phase
        for i, (label, lit_in) in enumerate(self.steps):
            if i:
                text.append(" ▸ ", style="dim")
            text.append(_(label), style="bold reverse green" if current in lit_in else "dim")
        if current in (Phase.DONE, Phase.VOID):
            text.append("   " + (_("ROUND OVER") if current is Phase.DONE else _(Phase.VOID.label)), style="bold yellow")
        return text
