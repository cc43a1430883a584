"""Poker "1 or 5"'s events (docs/rules.md R-1..R-12): antes on boxes and the open box, the cut and deal,
each box's exchange, close or pass and insurance decision, the dealer's reveal (at a live table:
with the boxes keyed then)."""

from __future__ import annotations

from dealer_tui.events.codec import Cards, Event, key, optional

GAME = "one-or-five"


class AntePlaced(Event, game=GAME, kind="ante_placed"):
    """The seat's player antes `ante` chips on box `box` (R-1)."""

    seat: int
    box: int
    ante: int = key("amount")


class AnteWithdrawn(Event, game=GAME, kind="ante_withdrawn"):
    """The box's Ante taken back before the deal: the box is free again."""

    box: int


class OpenBoxMarked(Event, game=GAME, kind="open_box_marked"):
    """The seat's player plays box `box` open, the one of their boxes that may exchange (R-4)."""

    seat: int
    box: int


class CardsDealt(Event, game=GAME, kind="cards_dealt"):
    """The cut (by the `player` or, refused, the `dealer`, R-10) and five cards to every box and the
    dealer, by hand (`box 2`, `dealer`); at a live table only the dealer's up card is keyed
    (`dealer up`, `keyed`)."""

    cut_by: str
    hands: dict[str, Cards] = key("cards")
    keyed: bool = optional(default=False)


class BoxExchanged(Event, game=GAME, kind="box_exchanged"):
    """The box threw in cards and drew as many for a fee of `fee` chips (R-3). At a live table the
    cards thrown in stay unseen: `discarded` is empty and `count` says how many."""

    box: int
    discarded: Cards = key("discarded_cards")
    drawn: Cards = key("drawn_cards")
    fee: int
    count: int | None = optional(default=None)
    """The cards exchanged, at a live table (None: a dealt round, where `discarded` says)."""

    @property
    def exchanged(self) -> int:
        """How many cards the box exchanged."""
        return self.count if self.count is not None else len(self.discarded)


class BoxClosed(Event, game=GAME, kind="box_closed"):
    """The box closes with a Bet of `bet` chips, 2x its Ante (R-2)."""

    box: int
    bet: int


class BoxFolded(Event, game=GAME, kind="box_folded"):
    """The box passes and loses its Ante (R-2)."""

    box: int


class InsuranceTaken(Event, game=GAME, kind="insurance_taken"):
    """The closed box's insurance decision (R-9): a premium of `premium` chips, 0 when declined. At a
    live table the box's hand keyed for it (`hand`; empty when the box was seen before; None: a
    dealt round)."""

    box: int
    premium: int = key("amount")
    hand: Cards | None = key("box_cards", default=None, omit=True)


class DealerRevealed(Event, game=GAME, kind="dealer_revealed"):
    """The dealer's hand shown, its name and whether it has a game (R-5); at a live table also every
    closed box keyed at the reveal, by label (`box 1`; None: a dealt round, where the deal recorded
    the boxes)."""

    cards: Cards
    hand: str
    qualified: bool
    box_hands: dict[str, Cards] | None = key("box_cards", default=None, omit=True)
