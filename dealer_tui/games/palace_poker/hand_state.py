"""A Palace Poker hand as it lies on the table (docs/rules.md PP-1..PP-18): each player's chips and
cards, the draw and discard piles, whose turn it is, the battle on, the soldiers waiting to be
kept, and how the hand ended. The state says what is, not what may happen next: the turns
(`palace_battle_flow`) decide that and change the state as the round folds its events in.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.cards import Card
from rules.games.palace_poker import rules as pp
from rules.games.palace_poker.battle import Battle
from rules.games.palace_poker.hand_end import HandEnd
from rules.games.palace_poker.rules import PalaceHand
from rules.said import Said

_IN_THE_HAND = Said.literal("")
"""A player still in the hand: no reason it left."""


@dataclass
class Player:
    """One seat in the hand: chips at the start, what it has put in the pot, the cards it holds."""

    seat: int
    name: str
    stack: int
    anted: bool = False
    banner: Card | None = None
    hand: PalaceHand | None = None  # None before the palace deal and once out of the hand
    out: Said = _IN_THE_HAND  # why the player left the hand
    paid: dict[str, int] = field(default_factory=dict)  # bet name -> chips put in the pot
    bets: list[Said] = field(default_factory=list)  # each battle bet, as a sentence

    @property
    def in_hand(self) -> bool:
        return self.hand is not None

    def put_in(self) -> int:
        return sum(self.paid.values())

    def available(self) -> int:
        return self.stack - self.put_in()

    def cards(self) -> tuple[Card, ...]:
        return self.hand.cards if self.hand is not None else ()

    def pay(self, bet: str, amount: int) -> None:
        if amount:
            self.paid[bet] = self.paid.get(bet, 0) + amount


@dataclass(frozen=True)
class Pending:
    """Soldiers `seat` has just gained (a buy, or a beaten `loser`'s): it chooses what to keep."""

    seat: int
    gained: tuple[Card, ...]
    loser: PalaceHand | None = None


@dataclass
class HandState:
    """One hand of Palace Poker: its players, its dealer, and everything on the table."""

    players: dict[int, Player]
    dealer: int | None
    """The hand's dealer; None until the draw for the first dealer chooses one (PP-0)."""
    order: tuple[int, ...] = ()
    """The players in the hand, clockwise from the dealer's left (PP-1)."""
    draw_pile: list[Card] = field(default_factory=list)
    """Top card first; at a live table the pile is physical and the terminal holds none of it."""
    draw_left: int = 0
    """At a live table: the cards left in the physical draw pile (the deck less banners and
    palaces, less each buy, PP-2, PP-3)."""
    discard_pile: list[Card] = field(default_factory=list)
    turn: int | None = None
    recent: list[pp.Action] = field(default_factory=list)
    """Every turn's action, in order, for the quiet orbit (PP-16)."""
    battle: Battle | None = None
    pending: Pending | None = None
    end: HandEnd | None = None
    """How the hand ended (PP-10, PP-13, PP-14, PP-16); None while it goes on."""
    all_ins: int = 0
    """Battle bets made all-in (PP-18)."""

    @property
    def pot(self) -> int:
        return sum(p.put_in() for p in self.players.values())

    def dealer_seat(self) -> int:
        """The hand's dealer, once the draw has chosen one (PP-0)."""
        assert self.dealer is not None
        return self.dealer

    def remaining(self) -> list[PalaceHand]:
        """The hands still in, clockwise from the dealer's left."""
        return [h for h in (self.players[s].hand for s in self.order) if h is not None]

    def hand(self, seat: int | None) -> PalaceHand:
        """The cards of a player still in the hand."""
        hand = self.players[seat or 0].hand
        assert hand is not None
        return hand

    def held(self) -> list[tuple[int, Card]]:
        """Every card a player in the hand holds, with its seat, and the soldiers it has just gained."""
        out = [(h.seat, c) for h in self.remaining() for c in h.cards]
        if self.pending is not None:
            out += [(self.pending.seat, c) for c in self.pending.gained if c not in {c for _, c in out}]
        return out

    def knock_out(self, seat: int, why: Said) -> None:
        """The player leaves the hand; every card it still holds goes to the discard pile."""
        player = self.players[seat]
        self.discard_pile += player.cards()
        player.hand, player.out = None, why
