"""Chinese Poker's events (docs/rules.md CP-1..CP-14): the deal, each seat's rows as set or suggested, a
natural declared or withdrawn, the rows locked and unlocked, and the rows opened at the reveal.

Rows are recorded in C-7 playing order (a wheel from the 5 down, the ace last); a natural by its
name as docs/rules.md spells it (`three flushes`, a `Natural` value), a foul by why the rows foul
(a sentence, `rules.said`: its message and values), as is the setting helper's reason and each
natural verified.
"""

from __future__ import annotations

from dealer_tui.events.codec import Cards, Event, Record, key, optional
from rules.games.chinese_poker import rules as cp
from rules.games.chinese_poker.naturals import Natural
from rules.said import Said

GAME = "chinese-poker"


class CardsDealt(Event, game=GAME, kind="cards_dealt"):
    """Thirteen cards to every playing seat and to each dead hand, by hand (`seat 2`, `dead 1`,
    CP-1); at a live table none are keyed at the deal (`keyed`): the rows bring the cards."""

    hands: dict[str, Cards] = key("cards")
    keyed: bool = optional(default=False)


class RowsSet(Event, game=GAME, kind="rows_set"):
    """The seat's three rows (CP-2), set by hand or keyed, or the setting helper's choice
    (`suggested`, with the helper's `reason`)."""

    seat: int
    front: Cards
    middle: Cards
    back: Cards
    suggested: bool
    reason: Said | None = optional(default=None)

    @property
    def hand(self) -> cp.SetHand:
        return cp.SetHand(self.front, self.middle, self.back)


class NaturalDeclared(Event, game=GAME, kind="natural_declared"):
    """The seat declares the natural its 13 cards hold (CP-9), with rows that display it; the rows
    stay fixed until the natural is withdrawn."""

    seat: int
    natural: str
    front: Cards
    middle: Cards
    back: Cards

    @property
    def hand(self) -> cp.SetHand:
        return cp.SetHand(self.front, self.middle, self.back)

    @property
    def declared(self) -> Natural:
        return Natural(self.natural)


class NaturalWithdrawn(Event, game=GAME, kind="natural_withdrawn"):
    """The seat withdraws its declared natural: its rows may be set again."""

    seat: int


class RowsLocked(Event, game=GAME, kind="rows_locked"):
    """The seat locks its rows: fouled (the foul confirmed, CP-4, CP-8) or not, with the natural
    declared, if any."""

    seat: int
    fouled: bool
    foul: Said | None
    natural: str | None


class RowsUnlocked(Event, game=GAME, kind="rows_unlocked"):
    seat: int


class OpenedRows(Record):
    """A seat's rows as the dealer opened them: the natural declared (verified, CP-14) and why the
    rows foul (None: they do not, or a natural is declared)."""

    front: Cards
    middle: Cards
    back: Cards
    natural: str | None
    foul: Said | None

    @property
    def hand(self) -> cp.SetHand:
        return cp.SetHand(self.front, self.middle, self.back)


class RowsOpened(Event, game=GAME, kind="rows_opened"):
    """The dealer opens every seat's rows (by seat number) and verifies each declared natural
    (`verified`: one line per natural, CP-14)."""

    hands: dict[str, OpenedRows] = key("hands", label="seat")
    verified: tuple[Said, ...]
