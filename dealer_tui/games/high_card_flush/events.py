"""High Card Flush's events (docs/rules.md HCF-4..HCF-20): antes and bonus bets, the deal, each raise
or fold, the banker's reveal (at a live table: with the hands keyed then, and any raise cut to
its hand's cap)."""

from __future__ import annotations

from dealer_tui.events.codec import Cards, Event, Record, key, optional

GAME = "high-card-flush"


class AntePlaced(Event, game=GAME, kind="ante_placed"):
    seat: int
    ante: int
    flush: int = 0
    straight_flush: int = 0


class AnteWithdrawn(Event, game=GAME, kind="ante_withdrawn"):
    """The seat took its Ante and bonus bets back before the deal."""

    seat: int


class CardsDealt(Event, game=GAME, kind="cards_dealt"):
    """Seven cards to every playing seat and the banker, by hand (`seat 2`, `banker`); at a live
    table none are keyed at the deal (`keyed`)."""

    hands: dict[str, Cards] = key("cards")
    keyed: bool = optional(default=False)


class PlayerActed(Event, game=GAME, kind="player_acted"):
    """The seat raised `raised` chips; 0 is a fold."""

    seat: int
    raised: int = key("raise")


class RaiseCorrection(Record):
    """A live table's raise above its hand's cap (HCF-6): the excess goes back."""

    declared: int
    cap: int
    returned: int
    flush: int


class BankerRevealed(Event, game=GAME, kind="banker_revealed"):
    """The banker's hand shown; at a live table also every hand keyed at the reveal and the raises
    cut to their cap (None: a dealt round, where the deal recorded the hands)."""

    cards: Cards
    hand_cards: dict[str, Cards] | None = optional(default=None)
    raise_corrections: dict[str, RaiseCorrection] | None = optional(default=None)
