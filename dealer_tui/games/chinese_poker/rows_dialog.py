"""Set a Chinese Poker hand's rows: ←/→ pick a card, 1/2/3 put it in the front/middle/back;
the rows' hands and a live foul warning follow every move. When the 13 cards hold a natural the
dialog says so: it is declared on the cards (n at the table), whatever the rows (CP-9)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.types import CSSPathType
from textual.widgets import Static

from dealer_tui import screens
from dealer_tui.games.chinese_poker.rows import hand_named, row_labels
from dealer_tui.language import N_, _, told
from dealer_tui.widgets.cards_text import cards_text
from rules.cards import Card, sort_cards
from rules.games.chinese_poker import rules as cp

ROW_NAMES = ("front", "middle", "back")


class RowsModal(ModalScreen[dict[str, str] | None]):
    CSS_PATH: ClassVar[CSSPathType] = [Path(screens.__file__).parent / "modal.tcss"]
    BINDINGS = [
        Binding("left", "move(-1)", N_("Previous card")),
        Binding("right", "move(1)", N_("Next card")),
        Binding("1", "put(0)", N_("Front row")),
        Binding("2", "put(1)", N_("Middle row")),
        Binding("3", "put(2)", N_("Back row")),
        Binding("g", "suggested", N_("Suggestion")),
        Binding("enter", "confirm", N_("Set the rows"), priority=True),
        Binding("escape", "cancel", N_("Back")),
    ]

    def __init__(self, seat: int, rows: Sequence[Sequence[Card]], suggestion: Callable[[], Sequence[Sequence[Card]]],
                 terms: cp.ScoringTerms, natural: str | None = None) -> None:
        super().__init__()
        self.seat, self.suggestion, self.terms, self.natural = seat, suggestion, terms, natural
        self.cards = sort_cards(c for row in rows for c in row)
        self.row_of = {c: i for i, row in enumerate(rows) for c in row}
        self.cursor = 0

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(_("Seat {seat}: set the rows (3 / 5 / 5)", seat=self.seat), classes="title")
            yield Static(id="rows-cards")
            yield Static(id="rows-rows")
            yield Static(id="rows-status")
            if self.natural:
                yield Static(_("The cards hold {natural}: Esc, then n declares it; the rows need not show it (CP-9)",
                               natural=self.natural), classes="hint")
            yield Static(_("←/→ card · 1 front · 2 middle · 3 back · g suggestion · Enter sets · Esc backs out"),
                         classes="hint")

    def on_mount(self) -> None:
        self._draw()

    def rows(self) -> list[list[Card]]:
        out: list[list[Card]] = [[], [], []]
        for card in self.cards:
            out[self.row_of[card]].append(card)
        return out

    def _draw(self) -> None:
        strip = Text()
        for i, card in enumerate(self.cards):
            if i:
                strip.append(" ")
            piece = cards_text([card])
            if i == self.cursor:
                piece.stylize("reverse")
            strip.append_text(piece)
            strip.append("¹²³"[self.row_of[card]], style="dim")
        self.query_one("#rows-cards", Static).update(strip)
        rows = self.rows()
        hand = cp.SetHand(*(tuple(r) for r in rows))
        names: tuple[str | None, str | None, str | None]
        try:
            judged = cp.judge(self.seat, hand, self.terms)
            names = judged.row_names
            foul = told(judged.foul) if judged.foul is not None else None
        except Exception:
            names, foul = (None, None, None), _("rows incomplete")
        lines = Text()
        for i, (label, row) in enumerate(zip(row_labels(), rows, strict=True)):
            name = names[i]
            made = hand_named(name) if name else _("{count} cards", count=len(row))
            lines.append(f"{i + 1} {label} ", style="bold")
            lines.append_text(cards_text(sort_cards(row)))
            lines.append(f"  {made}\n", style="italic")
        self.query_one("#rows-rows", Static).update(lines)
        status = (Text(_("FOUL: {foul}", foul=foul), style="bold red") if foul else
                  Text(_("rows in order"), style="green"))
        self.query_one("#rows-status", Static).update(status)

    def action_move(self, step: int) -> None:
        self.cursor = (self.cursor + step) % len(self.cards)
        self._draw()

    def action_put(self, row: int) -> None:
        self.row_of[self.cards[self.cursor]] = row
        self.cursor = (self.cursor + 1) % len(self.cards)
        self._draw()

    def action_suggested(self) -> None:
        for i, row in enumerate(self.suggestion()):
            for card in row:
                self.row_of[card] = i
        self._draw()

    def action_confirm(self) -> None:
        rows = self.rows()
        if [len(r) for r in rows] != [3, 5, 5]:
            self.query_one("#rows-status", Static).update(
                Text(_("The rows need 3 / 5 / 5 cards, not {sizes}.", sizes=" / ".join(str(len(r)) for r in rows)),
                     style="bold red"))
            return
        self.dismiss({name: " ".join(c.text for c in row) for name, row in zip(ROW_NAMES, rows, strict=True)})

    def action_cancel(self) -> None:
        self.dismiss(None)
