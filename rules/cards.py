"""Cards (docs/rules.md C-1, C-3, C-7): value types, the one parser, the formatter, the shoe."""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum

from rules.errors import BadCards


class Rank(IntEnum):
    """Card ranks; the value orders them (deuce lowest, ace highest)."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def char(self) -> str:
        return RANK_CHARS[self]


class Suit(IntEnum):
    """Suits in the display order s h d c (C-7); suits never rank (C-1)."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def char(self) -> str:
        return SUIT_CHARS[self]

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]


RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "shdc"
SUIT_SYMBOLS = "♠♥♦♣"

_RANK_INPUT = {c: Rank(i) for i, c in enumerate(RANK_CHARS)} | {"10": Rank.TEN}
_SUIT_INPUT = {c: Suit(i) for i, c in enumerate(SUIT_CHARS)} | {
    s: Suit(i) for i, s in enumerate(SUIT_SYMBOLS)
} | {"\u2664": Suit.SPADES, "\u2661": Suit.HEARTS, "\u2662": Suit.DIAMONDS, "\u2667": Suit.CLUBS}


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card of the 52-card deck."""

    rank: Rank
    suit: Suit
    index: int = field(init=False, repr=False)
    """0..51, rank-major: `rank * 4 + suit` (kept, since cards are hashed and compared often)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", int(self.rank) * 4 + int(self.suit))

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Card) and self.index == other.index)

    def __hash__(self) -> int:
        return self.index

    @property
    def text(self) -> str:
        """ASCII text as in C-1: `Ah`, `Td`, `2c`."""
        return RANK_CHARS[self.rank] + SUIT_CHARS[self.suit]

    @property
    def pretty(self) -> str:
        """Display text with the suit symbol: `A♥`."""
        return RANK_CHARS[self.rank] + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card({self.text})"

    @staticmethod
    def from_index(index: int) -> Card:
        return DECK[index]


DECK: tuple[Card, ...] = tuple(Card(Rank(i // 4), Suit(i % 4)) for i in range(52))


def parse_card(token: str) -> Card:
    """Parse one card: rank then suit, any case, `10` for T, suit letters or symbols (C-1)."""
    raw = token.strip()
    if len(raw) < 2:
        raise BadCards(f"bad card {token!r}: expected a rank and a suit, like Ah or 10h")
    rank_part, suit_part = raw[:-1].upper(), raw[-1].lower()
    if len(rank_part) > 2 or (len(rank_part) == 2 and rank_part != "10"):
        raise BadCards(f"bad card {token!r}: too long for a card (a rank and a suit, like Ah or 10h)")
    rank = _RANK_INPUT.get(rank_part)
    suit = _SUIT_INPUT.get(suit_part)
    if rank is None:
        raise BadCards(f"bad card {token!r}: unknown rank {raw[:-1]!r} (use 2-9, T or 10, J, Q, K, A)")
    if suit is None:
        raise BadCards(f"bad card {token!r}: unknown suit {raw[-1]!r} (use s, h, d, c or ♠ ♥ ♦ ♣)")
    return DECK[rank * 4 + suit]


def split_tokens(text: str) -> list[str]:
    """Split card text on white space and commas."""
    return text.replace(",", " ").split()


def parse_cards(text: str, *, distinct: bool = True) -> tuple[Card, ...]:
    """Parse a space-separated card list; with `distinct`, a repeated card is an error."""
    if not isinstance(text, str):
        raise BadCards(f"expected card text like 'Ah Kd 7c', got {type(text).__name__}")
    cards = tuple(parse_card(tok) for tok in split_tokens(text))
    if distinct:
        ensure_distinct(cards)
    return cards


def ensure_distinct(cards: Iterable[Card]) -> None:
    """Raise `BadCards` naming the first card that appears twice."""
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise BadCards(f"duplicate card {card.text}")
        seen.add(card)


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """C-7 order: descending rank, equal ranks in suit order s h d c."""
    return sorted(cards, key=lambda c: (-c.rank, c.suit))


def format_cards(cards: Iterable[Card], *, symbols: bool = False, sort: bool = True) -> str:
    """Cards as one string; sorted by C-7 unless `sort` is False (already in playing order)."""
    seq = sort_cards(cards) if sort else list(cards)
    return " ".join(c.pretty if symbols else c.text for c in seq)


def card_texts(cards: Sequence[Card]) -> list[str]:
    """Cards as a list of ASCII strings, in the given order."""
    return [c.text for c in cards]


class Shoe:
    """A single deck, shuffled with an unbiased Fisher-Yates shuffle (C-3).

    Live play uses `secrets.SystemRandom`; `Shoe.seeded(seed)` exists only for tests,
    simulation and replay, and says so through `seeded`.
    """

    def __init__(self, rng: random.Random | None = None, *, seeded: bool = False) -> None:
        self._rng = rng if rng is not None else secrets.SystemRandom()
        self.seeded = seeded
        self._cards: list[Card] = []
        self.shuffle()

    @classmethod
    def seeded_with(cls, seed: int | str) -> Shoe:
        return cls(random.Random(seed), seeded=True)

    def shuffle(self) -> None:
        """Put all 52 cards back and shuffle them."""
        self._cards = list(DECK)
        fisher_yates(self._cards, self._rng)
        self._next = 0

    @property
    def remaining(self) -> int:
        return len(self._cards) - self._next

    def deal(self, count: int) -> tuple[Card, ...]:
        """Take `count` cards from the top."""
        if count < 0 or count > self.remaining:
            raise BadCards(f"cannot deal {count} cards: {self.remaining} left in the shoe")
        out = tuple(self._cards[self._next : self._next + count])
        self._next += count
        return out

    def deal_one(self) -> Card:
        return self.deal(1)[0]

    def peek_rest(self) -> tuple[Card, ...]:
        """The undealt cards, top first (the stub)."""
        return tuple(self._cards[self._next :])


def fisher_yates(items: list[Card], rng: random.Random) -> None:
    """Shuffle in place: every permutation equally likely (uses `randrange`, never `random()*n`)."""
    for i in range(len(items) - 1, 0, -1):
        j = rng.randrange(i + 1)
        items[i], items[j] = items[j], items[i]
