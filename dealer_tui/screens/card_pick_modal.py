"""Pick cards from a hand by number (1-9 toggles); Enter confirms a count the rules allow."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from dealer_tui.language import N_, _, n_
from dealer_tui.widgets.cards_text import cards_text
from rules.cards import Card


class CardPickModal(ModalScreen[list[Card] | None]):
    CSS_PATH = "modal.tcss"
    KEYS = "1234567890-="
    BINDINGS = [
        *(Binding(key, f"toggle_card({n})", show=False) for n, key in enumerate("1234567890-=", start=1)),
        Binding("a", "all", N_("All")),
        Binding("u", "clear", N_("Clear")),
        Binding("enter", "confirm", N_("Confirm"), priority=True),
        Binding("escape", "cancel", N_("Back")),
    ]

    def __init__(self, title: str, cards: Sequence[Card], counts: Sequence[int]) -> None:
        super().__init__()
        self.title_text, self.cards, self.counts = title, list(cards), list(counts)
        self.chosen: set[int] = set()

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.title_text, classes="title")
            yield Static(id="pick-cards")
            yield Static("", id="pick-error", classes="error")
            keys = self.KEYS[: len(self.cards)]
            if len(keys) == 1:
                hint = _("{key} toggles the card · a all · u clear · Enter confirms ({allowed}) · Esc backs out",
                         key=keys[0], allowed=self.allowed())
            else:
                hint = _("{first}…{last} toggle a card · a all · u clear · Enter confirms ({allowed}) · Esc backs out",
                         first=keys[0], last=keys[-1], allowed=self.allowed())
            yield Static(hint, classes="hint")

    def allowed(self) -> str:
        """The counts the rules allow, in words: `1 card`, `1 or 5 cards`, `0 or 1 cards` (a language
        with plural forms says the noun as the last count asks)."""
        if self.counts == [1]:
            return n_("{count} card", "{count} cards", 1)
        counts = str(self.counts[0]) if self.counts else ""
        for more in self.counts[1:]:
            counts = _("{counts} or {count}", counts=counts, count=more)
        return n_("{counts} cards", "{counts} cards", self.counts[-1] if self.counts else 0, counts=counts)

    def on_mount(self) -> None:
        self._draw()

    def _draw(self) -> None:
        text = Text()
        for i, card in enumerate(self.cards, start=1):
            mark = "▲" if i - 1 in self.chosen else " "
            text.append(f" {self.KEYS[i - 1] if i <= len(self.KEYS) else '?'}:")
            text.append_text(cards_text([card]))
            text.append(f"{mark} ", style="bold yellow")
        self.query_one("#pick-cards", Static).update(text)

    def action_toggle_card(self, n: int) -> None:
        if 1 <= n <= len(self.cards):
            self.chosen ^= {n - 1}
            self._draw()

    def action_all(self) -> None:
        self.chosen = set(range(len(self.cards)))
        self._draw()

    def action_clear(self) -> None:
        self.chosen.clear()
        self._draw()

    def action_confirm(self) -> None:
        if len(self.chosen) not in self.counts:
            self.query_one("#pick-error", Static).update(_("{chosen} chosen: choose {allowed}.", chosen=len(self.chosen),
                                                           allowed=self.allowed()))
            return
        self.dismiss([self.cards[i] for i in sorted(self.chosen)])

    def action_cancel(self) -> None:
        self.dismiss(None)
