"""Cards drawn as text: rank and suit symbol, red suits in red, face-down cards as ▒▒."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from rules.cards import Card, Suit

RED = (Suit.HEARTS, Suit.DIAMONDS)


def cards_text(cards: Sequence[Card], hidden: int = 0, *, dim: Sequence[Card] = ()) -> Text:
    """`A♥ K♥ 9♠` with colours; `hidden` face-down cards after them; `dim` cards greyed."""
    text = Text()
    for i, card in enumerate(cards):
        if i:
            text.append(" ")
        style = "bold red" if card.suit in RED else "bold"
        if card in dim:
            style = "dim strike"
        text.append(card.pretty, style=style)
    for i in range(hidden):
        if cards or i:
            text.append(" ")
        text.append("▒▒", style="blue")
    return text
