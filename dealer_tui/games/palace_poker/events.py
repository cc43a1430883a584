"""Palace Poker's events (docs/rules.md PP-0..PP-18): the draw for the first dealer, antes, the banner
and palace deals, each turn (buy and the soldiers kept, discard, stay, fold), each battle (opened,
answered, decided), the end of the hand, and at a live table the palaces keyed when shown.

Hands are labelled as the events have always stored them: `seat 2` in the draw and a battle's
shown cards, the seat's number (`2`) elsewhere. An event's cards are listed in the order of their
stored keys, the order the floor's story of a round names them in.
"""

from __future__ import annotations

from dealer_tui.events.codec import Cards, Event, key, optional
from rules.cards import Card
from rules.games.palace_poker.battle import Answer
from rules.said import Said

GAME = "palace-poker"


class DealerDrawn(Event, game=GAME, kind="dealer_drawn"):
    """PP-0: one card to each seat drawing for the first deal (`seat 2`); the highest rank deals
    (`dealer`), else the seats `tied` for it draw again (`dealer` None)."""

    drawn: dict[str, Cards] = key("cards")
    dealer: int | None
    tied: tuple[int, ...]
    reason: Said


class AntePlaced(Event, game=GAME, kind="ante_placed"):
    """PP-1: the seat antes for a banner."""

    seat: int
    ante: int = key("amount")


class AnteWithdrawn(Event, game=GAME, kind="ante_withdrawn"):
    """The seat took its ante back before the banners were dealt."""

    seat: int


class BannersDealt(Event, game=GAME, kind="banners_dealt"):
    """PP-1: a banner to each player in the hand (`order`, clockwise from the dealer's left), suits
    differing within each group of seats. A dealt round records the whole deck as it came, every
    card turned up on the way, the ones refused, how often the banner discards were reshuffled and
    each banner's reason; at a live table (`keyed`) only the banners keyed as dealt."""

    order: tuple[int, ...]
    banners: dict[str, Cards] = key("banner_cards")
    """One card a seat, by seat number (`"2"`)."""
    deck: Cards = key("deck_cards")
    refused: Cards = key("refused_cards")
    turned: Cards = key("turned_cards")
    reshuffles: int
    reasons: tuple[Said, ...]
    keyed: bool = optional(default=False)

    @property
    def banner_by_seat(self) -> dict[int, Card]:
        return {int(seat): banner[0] for seat, banner in self.banners.items()}


class PalacesDealt(Event, game=GAME, kind="palaces_dealt"):
    """PP-2: three palace cards face down to each player (by seat number) and the rest as the draw
    pile, top card first; at a live table (`keyed`) the cards are physical and none is recorded."""

    draw_pile: Cards = key("draw_cards")
    palaces: dict[str, Cards] = key("palace_cards")
    keyed: bool = optional(default=False)


class SoldierBought(Event, game=GAME, kind="soldier_bought"):
    """PP-3: the seat pays `cost` for the draw pile's top card; when the draw pile was empty
    (`refilled`, PP-12) the discard pile shuffled into the new `draw_pile` it came from."""

    seat: int
    cost: int
    soldier: Cards = key("cards")
    """The one card bought."""
    refilled: bool
    draw_pile: Cards = key("draw_cards")
    reason: Said

    @property
    def card(self) -> Card:
        return self.soldier[0]


class SoldiersKept(Event, game=GAME, kind="soldiers_kept"):
    """PP-3, PP-8: after a buy or a capture, the soldiers the seat `gained`, those it `discarded`
    and the `soldiers` it holds now."""

    seat: int
    discarded: Cards = key("discarded_cards")
    gained: Cards = key("gained_cards")
    soldiers: Cards = key("soldier_cards")
    reason: Said


class SoldiersDiscarded(Event, game=GAME, kind="soldiers_discarded"):
    """PP-4: the seat pays `cost` to discard soldiers, drawing none."""

    seat: int
    cost: int
    discarded: Cards = key("discarded_cards")
    soldiers: Cards = key("soldier_cards")
    reason: Said


class Stayed(Event, game=GAME, kind="stayed"):
    """PP-5: the seat stays."""

    seat: int


class Folded(Event, game=GAME, kind="folded"):
    """PP-6: the seat folds on its turn; every card it holds goes to the discard pile."""

    seat: int
    discarded: Cards = key("discarded_cards")
    reason: Said


class BattleOpened(Event, game=GAME, kind="battle_opened"):
    """PP-7: `attacker` bets `amount` against `defender`; `forced` when two banner suits are left
    and the player to act must battle (PP-15)."""

    attacker: int
    defender: int
    amount: int
    forced: bool
    reason: Said


class BattleAnswered(Event, game=GAME, kind="battle_answered"):
    """PP-8, PP-9, PP-11: the seat facing the last bet folds, calls or raises (`raise_by` on top of
    the call, None unless it raised), paying `paid` in all; `all_in` when that is all it holds
    (PP-18)."""

    seat: int
    answer: str
    """`fold`, `call` or `raise`."""
    raise_by: int | None
    paid: int
    all_in: bool
    reason: Said

    @property
    def choice(self) -> Answer:
        return Answer(self.answer)


class BattleDecided(Event, game=GAME, kind="battle_decided"):
    """PP-8..PP-10: the battle's result (`outcome` won, split or both out; `decided_by` fold, hand
    or banner suit count); a called battle records both hands as turned over (`seat 2`)."""

    attacker: int
    defender: int
    winner: int | None
    loser: int | None
    outcome: str
    decided_by: str
    reason: Said
    shown: dict[str, Cards] = key("shown_cards")


class HandEnded(Event, game=GAME, kind="hand_ended"):
    """PP-13..PP-17: the hand's end under `rule`, the winners and each one's share of the pot (by
    seat number), and every hand shown at a showdown."""

    rule: str
    winners: tuple[int, ...]
    shares: dict[str, int]
    reason: Said
    shown: dict[str, Cards] = key("shown_cards")


class PalacesShown(Event, game=GAME, kind="palaces_shown"):
    """A live table's palace cards keyed as they are turned over (by seat number): both battlers'
    at a call (PP-9), every unseen one at the showdown (PP-16)."""

    palaces: dict[str, Cards] = key("palace_cards")
    reason: Said
