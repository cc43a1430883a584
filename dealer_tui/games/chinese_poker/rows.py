"""Chinese Poker rows as the screens and events carry them: in C-7 playing order, as the data of a
`set_rows` action, and a seat's live row status (hands, foul, natural)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dealer_tui.language import N_, _, told
from dealer_tui.rounds.base import cards_from_payload, cards_payload
from rules.cards import Card
from rules.evaluator import encode, hand_value, playing_order
from rules.games.chinese_poker import rules as cp
from rules.games.chinese_poker.naturals import Natural
from rules.said import Said

ROW_LABELS = (N_("Front "), N_("Middle"), N_("Back  "))
"""The rows as a seat's panel and the rows dialog label them, padded to one width (translated
where shown: `row_labels`)."""


def row_labels() -> tuple[str, str, str]:
    """The rows' labels in the reader's language, padded to the longest."""
    front, middle, back = (_(label).strip() for label in ROW_LABELS)
    width = max(len(front), len(middle), len(back))
    return front.ljust(width), middle.ljust(width), back.ljust(width)


def natural_named(natural: str) -> str:
    """A natural recorded by its name (`six pairs`, CP-9) in the reader's language."""
    try:
        return told(Natural(natural).said)
    except ValueError:
        return natural.replace("_", " ")


def hand_named(name: str) -> str:
    """A row's hand recorded by its name (`one pair`) in the reader's language."""
    said: Said | None = cp.HAND_WORDS.get(name)
    return name if said is None else told(said)


@dataclass(frozen=True)
class RowStatus:
    """A seat's rows as a screen shows them now: hand names, the live foul, the natural."""

    seat: int
    rows: tuple[str, str, str] | None  # card text of front, middle, back (C-7 order)
    names: tuple[str | None, str | None, str | None] | None  # hand names (docs/settle.md spelling)
    foul: Said | None  # why the rows foul (CP-3, CP-4); None when they do not (or a natural is declared)
    natural_held: str | None  # the natural the 13 cards can show (CP-9)
    natural_declared: str | None
    suggested: bool
    locked: bool

    @property
    def fouled(self) -> bool:
        return self.foul is not None


def played(cards: Sequence[Card]) -> tuple[Card, ...]:
    """A row in C-7 playing order (a wheel from the 5 down, the ace last)."""
    return playing_order(cards, hand_value(encode(cards)))


def row_text(cards: Sequence[Card]) -> str:
    """A row's card text in C-7 playing order."""
    return cards_payload(played(cards))


def in_playing_order(hand: cp.SetHand) -> cp.SetHand:
    """The rows as the round records them: each in C-7 playing order."""
    return cp.SetHand(played(hand.front), played(hand.middle), played(hand.back))


def rows_data(hand: cp.SetHand) -> dict[str, str]:
    """The rows as a `SetRows` (or `DeclareNatural`) step names them: card text by row."""
    return {name: row_text(row) for name, row in zip(cp.ROWS, hand.rows, strict=True)}


def rows_from_data(data: Mapping[str, Any]) -> cp.SetHand:
    """The rows a legal `SetRows` step's details name (the seat's rows now, or as dealt)."""
    return cp.SetHand(*(cards_from_payload(data[name]) for name in cp.ROWS))


def dealt_rows(cards: tuple[Card, ...]) -> cp.SetHand:
    """The 13 cards as dealt, cut 3/5/5: a starting point for keying the rows."""
    return cp.SetHand(cards[:3], cards[3:8], cards[8:])
