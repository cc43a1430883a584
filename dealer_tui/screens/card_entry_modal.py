"""Key physical cards: one line per hand (`ah kh 9h 2c …`, any case, `10` or `T`, suit letters or
symbols). Each line is parsed as it is typed and drawn as cards; an unknown card, a card keyed
twice (in this round or on another line) and a wrong count are shown on the spot, the offending
card highlighted. Enter moves on to the next line still to key (below this one first), and once
every line reads confirms; the round then checks the whole entry and nothing is recorded until it
is complete and valid. Up and Down move between the lines, ctrl+u clears the line; Esc backs out."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from dealer_tui.language import N_, _, n_, told, told_error
from dealer_tui.views.card_words import place
from dealer_tui.widgets.cards_text import cards_text
from rules.cards import Card, parse_card
from rules.errors import BadCards
from rules.said import Said

TOKENS = re.compile(r"[^\s,;]+")
Keyed = dict[str, tuple[Card, ...]]


@dataclass(frozen=True)
class LineReading:
    """One keyed line as parsed so far: its cards, and the first problem (None: complete and valid)."""

    cards: tuple[Card, ...]
    preview: Text
    problem: str | None
    wrong: bool = False
    """The problem is a card (not a card, or keyed already), not the count still to key."""


def read_line(text: str, count: int, taken: Mapping[Card, str]) -> LineReading:
    """Parse `text` for a hand of `count` cards; `taken` names where each card already is."""
    cards: list[Card] = []
    preview = Text()
    problem: str | None = None
    wrong = False
    for token in TOKENS.findall(text):
        if preview:
            preview.append(" ")
        try:
            card = parse_card(token)
        except BadCards as exc:
            preview.append(token, style="bold white on red")
            if problem is None:
                problem, wrong = told_error(exc), True
            continue
        where = taken.get(card) or (_("this line") if card in cards else None)
        if where is not None:
            preview.append(card.pretty, style="bold white on red")
            if problem is None:
                shown = told(where) if isinstance(where, Said) else place(where)  # a sentence, or a place's code
                problem, wrong = _("{card} is already keyed ({where})", card=card.text, where=shown), True
            continue
        preview.append_text(cards_text([card]))
        cards.append(card)
    if problem is None and len(cards) < count:
        problem = n_("{keyed} of {count} card", "{keyed} of {count} cards", count, keyed=len(cards))
    elif problem is None and len(cards) > count:
        problem = n_("{count} cards: {needed} needed", "{count} cards: {needed} needed", len(cards), needed=count)
    return LineReading(tuple(cards), preview, problem, wrong)


class CardEntryModal(ModalScreen[Keyed | None]):
    CSS_PATH = "modal.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Back")),
                                             Binding("up", "line(-1)", N_("Line above"), show=False),
                                             Binding("down", "line(1)", N_("Line below"), show=False)]

    def __init__(self, title: str, fields: Sequence[tuple[str, int]], taken: Mapping[Card, str],
                 check: Callable[[Keyed], str | None] | None = None,
                 status: Callable[[Keyed], Text | None] | None = None,
                 values: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self.title_text, self.fields, self.taken = title, list(fields), dict(taken)
        self.check, self.status, self.values = check, status, dict(values or {})

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.title_text, classes="title")
            with VerticalScroll(classes="entry-lines"):
                for i, (label, count) in enumerate(self.fields):
                    with Horizontal(classes="row"):
                        shown = place(label)
                        yield Label(f"{shown[:1].upper()}{shown[1:]} ({count})")
                        # a line gone back to keeps its text: Backspace corrects the last card
                        yield Input(self.values.get(label, ""), id=f"entry-{i}", placeholder="ah kh 10h …",
                                    select_on_focus=False)
                    yield Static("", id=f"entry-preview-{i}", classes="entry-preview")
            yield Static("", id="entry-status")
            yield Static("", id="entry-error", classes="error")
            yield Static(_("Cards like ah 10h q♠ · Enter: the next line to key, then confirm · ↑↓: lines · "
                           "ctrl+u: clears the line · Esc: back"), classes="hint")

    def on_mount(self) -> None:
        self.query_one("#entry-0", Input).focus()
        self._redraw()

    def readings(self) -> list[LineReading]:
        """Every line read against the round's cards and the lines above and below it."""
        texts = [self.query_one(f"#entry-{i}", Input).value for i in range(len(self.fields))]
        out = []
        for i, (label, count) in enumerate(self.fields):
            taken = dict(self.taken)
            for j, (other, _count) in enumerate(self.fields):
                if j != i:
                    for token in TOKENS.findall(texts[j]):
                        try:
                            taken.setdefault(parse_card(token), other)
                        except BadCards:
                            continue
            out.append(read_line(texts[i], count, taken))
        return out

    def _redraw(self) -> list[LineReading]:
        readings = self.readings()
        for i, reading in enumerate(readings):
            line = reading.preview.copy()
            if reading.problem:
                line.append(f"   {reading.problem}", style="bold red" if reading.wrong else "yellow")
            else:
                line.append("   ✓", style="bold green")
            self.query_one(f"#entry-preview-{i}", Static).update(line)
        if self.status is not None and all(r.problem is None for r in readings):
            shown = self.status(self._keyed(readings))
            self.query_one("#entry-status", Static).update(shown or "")
        else:
            self.query_one("#entry-status", Static).update("")
        return readings

    def _keyed(self, readings: Sequence[LineReading]) -> Keyed:
        return {label: r.cards for (label, _count), r in zip(self.fields, readings, strict=True)}

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.query_one("#entry-error", Static).update("")
        self._redraw()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        readings = self._redraw()
        index = int((event.input.id or "entry-0").rsplit("-", 1)[1])
        if readings[index].problem is not None:
            return self._error(_("{line}: {problem}", line=self.fields[index][0], problem=readings[index].problem))
        after = [*range(index + 1, len(readings)), *range(index)]  # the lines below first, then from the top
        pending = next((i for i in after if readings[i].problem is not None), None)
        if pending is not None:
            self.query_one(f"#entry-{pending}", Input).focus()
            return None
        keyed = self._keyed(readings)
        problem = self.check(keyed) if self.check is not None else None
        if problem:
            return self._error(problem)
        self.dismiss(keyed)
        return None

    def action_line(self, by: int) -> None:
        """The line above or below the one being keyed (the first and last stay where they are)."""
        focused = self.focused
        index = int((focused.id or "entry-0").rsplit("-", 1)[1]) if isinstance(focused, Input) else 0
        self.query_one(f"#entry-{min(max(index + by, 0), len(self.fields) - 1)}", Input).focus()

    def _error(self, message: str) -> None:
        self.query_one("#entry-error", Static).update(message)

    def action_cancel(self) -> None:
        self.dismiss(None)
