"""Where a round's cards come from: a virtual shoe, a scripted deck, or the dealer's keyboard at a
live table. The round says what it needs in a `CardRequest`; the source fills it."""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from typing import Protocol

from dealer_tui.rounds.base import CardRequest
from dealer_tui.rounds.places import place_said, purpose_said
from rules.cards import DECK, Card, fisher_yates
from rules.errors import BadCards, IllegalAction
from rules.said import joined, say


class CardSource(Protocol):
    """Fills card requests; `kind` and `seeded` are recorded in the ledger."""

    kind: str
    seeded: bool

    def new_round(self, number: int, used: Iterable[Card] = ()) -> None:
        """Start round `number`'s deck; `used` are cards already seen in it (after a recovery)."""

    def fill(self, request: CardRequest) -> dict[str, tuple[Card, ...]]:
        """Cards for every hand of the request, in the order the hands are listed."""


class VirtualShoe:
    """The terminal shuffles (cryptographic generator unless seeded) and deals (C-3)."""

    kind = "shoe"

    def __init__(self, rng: random.Random | None = None) -> None:
        self._rng = rng if rng is not None else secrets.SystemRandom()
        self.seeded = rng is not None and not isinstance(rng, secrets.SystemRandom)
        self._seed: int | str | None = None
        self._cards: list[Card] = []
        self.new_round(0)

    @classmethod
    def seeded_with(cls, seed: int | str) -> VirtualShoe:
        """Training and tests: round N is shuffled from (seed, N), so a restart deals it alike."""
        shoe = cls(random.Random(seed))
        shoe._seed = seed
        return shoe

    def new_round(self, number: int, used: Iterable[Card] = ()) -> None:
        if self._seed is not None:
            self._rng = random.Random(f"{self._seed}:{number}")
        seen = set(used)
        self._cards = [c for c in DECK if c not in seen]
        fisher_yates(self._cards, self._rng)

    def take(self, count: int) -> tuple[Card, ...]:
        if count > len(self._cards):
            raise BadCards(say("the shoe has {left} cards left, {count} needed", left=len(self._cards), count=count))
        out, self._cards = tuple(self._cards[:count]), self._cards[count:]
        return out

    def fill(self, request: CardRequest) -> dict[str, tuple[Card, ...]]:
        if request.total > len(self._cards) and request.refill:
            self.return_cards(request.refill)
        if request.total > len(self._cards):
            raise BadCards(say("the shoe has {left} cards left, {count} needed", left=len(self._cards),
                                count=request.total))
        return {label: self.take(count) for label, count in request.hands}

    def remaining(self) -> int:
        return len(self._cards)

    def return_cards(self, cards: Sequence[Card]) -> None:
        """Shuffle cards back in (a stub refilled from discards, R-11, PP-12)."""
        self._cards.extend(cards)
        fisher_yates(self._cards, self._rng)


class ScriptedDeck:
    """Deals a fixed card order, round after round: for tests and replays."""

    kind = "scripted"
    seeded = True

    def __init__(self, rounds: Sequence[Sequence[Card]]) -> None:
        self._rounds = [list(r) for r in rounds]
        self._cards: list[Card] = []

    def new_round(self, number: int, used: Iterable[Card] = ()) -> None:
        """Round `number` (1-based) deals script `number - 1` (cycling), less cards already used."""
        seen = set(used)
        script = self._rounds[(number - 1) % len(self._rounds)] if self._rounds else []
        self._cards = [c for c in script if c not in seen]

    def fill(self, request: CardRequest) -> dict[str, tuple[Card, ...]]:
        if request.total > len(self._cards) and request.refill:
            self.return_cards(request.refill)
        if request.total > len(self._cards):
            raise BadCards(say("the scripted deck has {left} cards left, {count} needed", left=len(self._cards),
                                count=request.total))
        out = {}
        for label, count in request.hands:
            out[label], self._cards = tuple(self._cards[:count]), self._cards[count:]
        return out

    def remaining(self) -> int:
        return len(self._cards)

    def return_cards(self, cards: Sequence[Card]) -> None:
        self._cards.extend(cards)


class KeyedEntry:
    """A live table: the cards are physical and the dealer keys each request as the table sees it.

    Nothing is dealt here; a step that needs cards must bring the keyed cards with it."""

    kind = "entry"
    seeded = False

    def new_round(self, number: int, used: Iterable[Card] = ()) -> None:
        """Physical cards: nothing to shuffle."""

    def fill(self, request: CardRequest) -> dict[str, tuple[Card, ...]]:
        wanted = joined([say("{place} {count}", place=place_said(label), count=count) for label, count in request.hands],
                        ", ")
        raise IllegalAction(say("{purpose}: key the cards first ({wanted})", purpose=purpose_said(request.purpose),
                                wanted=wanted))


def source_for(kind: str, seed: int | None = None) -> CardSource:
    """The card source a table records as `kind` ("shoe", "entry")."""
    if kind == KeyedEntry.kind:
        return KeyedEntry()
    return VirtualShoe.seeded_with(seed) if seed is not None else VirtualShoe()
