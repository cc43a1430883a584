"""Palace Poker (docs/rules.md PP-0..PP-2, PP-6, PP-12..PP-17): the deal, the cards each player
holds, the end of the hand. Turns, bets and battles are in `rules.games.palace_poker.battle`.

Rulings made here:
- PP-0: the draw deals to the players in the order given; tied players draw again, in that
  order, until one rank is alone on top.
- PP-1: when the deck runs out, the banner discard pile is shuffled and dealt from; cards it
  refuses start a new banner discard pile, shuffled in its turn if needed.
- PP-6: a player who folds on their turn puts every card they hold (palace, banner and
  soldiers) on the discard pile; only a battle captures cards (PP-8, PP-9).
- PP-3: after a buy the player may discard any soldiers, the new one included, and must come
  down to 5. PP-8: after a capture the winner discards exactly the excess over 5 (none when 5
  or fewer), choosing which among all their soldiers, old or captured.
- PP-16: the orbit of quiet turns counts the players still in the hand; any other action
  (Buy, Battle, Fold) starts the count again.
- PP-17: the dealer's seat orders the odd chips even when the dealer is no longer in the hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from rules.cards import DECK, Card, Suit, ensure_distinct, fisher_yates, format_cards
from rules.errors import BadCards, IllegalAction
from rules.said import Said, joined, say

MIN_PLAYERS = 2
MAX_PLAYERS = 10
PALACE_CARDS = 3
MAX_SOLDIERS = 5
GROUP_SIZE = 4
GROUP_LABELS = ("1-4", "5-8", "9-10")
"""Banner groups by position from the dealer's left (PP-1)."""

CardSource = Iterable[Card] | Callable[[], Card | None]
"""Cards in the order they come: a sequence or iterator, or a callable giving None when out."""

_SUIT_WORDS = (say("spades"), say("hearts"), say("diamonds"), say("clubs"))
_HAND_NAMES = {"high card": say("high card"), "one pair": say("one pair"), "two pair": say("two pair"),
               "three of a kind": say("three of a kind"), "straight": say("straight"), "flush": say("flush"),
               "full house": say("full house"), "four of a kind": say("four of a kind"),
               "straight flush": say("straight flush"), "royal flush": say("royal flush")}
"""A hand's name (`HandRank.name`, as docs/settle.md spells it) as a sentence says it."""


class Action(StrEnum):
    """What a player may do on their turn (PP-3..PP-7)."""

    BUY = "buy"
    DISCARD = "discard"
    STAY = "stay"
    FOLD = "fold"
    BATTLE = "battle"


def suit_word(suit: Suit) -> Said:
    return _SUIT_WORDS[suit]


def hand_name(name: str) -> Said:
    """A hand's name (`one pair`) in a sentence; a name the table does not know, as written."""
    return _HAND_NAMES.get(name) or Said.literal(name)


def seats_text(seats: Sequence[int]) -> Said:
    """`seat 3`, `seats 2 and 4`, `seats 1, 2 and 5`."""
    if len(seats) == 1:
        return say("seat {seat}", seat=seats[0])
    return say("seats {seats} and {last}", seats=", ".join(map(str, seats[:-1])), last=seats[-1])


def seat_says(seat: int, predicate: Said) -> Said:
    """What a seat does or may not do: `seat 3 cannot buy: ...` (`predicate`: `cannot buy: ...`)."""
    return say("seat {seat} {predicate}", seat=seat, predicate=predicate)


def clockwise_from(dealer: int, seats: Iterable[int]) -> tuple[int, ...]:
    """C-5: the seats in order starting with the first seat after `dealer`, wrapping, it last."""
    return tuple(sorted(set(seats), key=lambda seat: (seat <= dealer, seat)))


def _check_seats(seats: Sequence[int]) -> None:
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise IllegalAction(say("Palace Poker needs {least}-{most} players, got {count}", least=MIN_PLAYERS,
                                most=MAX_PLAYERS, count=len(seats)))
    if len(set(seats)) != len(seats):
        raise IllegalAction(say("a seat is listed twice: {seats}", seats=str(list(seats))))


class _Cards:
    """Takes cards from a `CardSource`, refusing one it has already given."""

    def __init__(self, source: CardSource) -> None:
        if callable(source):
            self._next: Callable[[], Card | None] = source
        else:
            iterator = iter(source)
            self._next = lambda: next(iterator, None)
        self._seen: set[Card] = set()

    def take(self) -> Card | None:
        card = self._next()
        if card is not None:
            if card in self._seen:
                raise BadCards(say("the card source gave {card} twice", card=card.text))
            self._seen.add(card)
        return card

    def take_or_fail(self, what: Said) -> Card:
        card = self.take()
        if card is None:
            raise BadCards(say("the cards ran out during {what}", what=what))
        return card


# -------------------------------------------------------------------------------- the hand's cards

@dataclass(frozen=True, slots=True)
class PalaceHand:
    """One player's cards: the face-up banner, 3 palace cards face down, 0-5 soldiers face up."""

    seat: int
    banner: Card
    palace: tuple[Card, ...]
    soldiers: tuple[Card, ...] = ()
    seen: bool = True
    """False at a live table until the palace cards are keyed (then `palace` is empty)."""

    def __post_init__(self) -> None:
        if not self.seen and not self.palace:
            pass
        elif len(self.palace) != PALACE_CARDS:
            raise BadCards(say("seat {seat}: a palace holds {count} cards, got {got}", seat=self.seat,
                               count=PALACE_CARDS, got=len(self.palace)))
        if len(self.soldiers) > MAX_SOLDIERS:
            raise BadCards(say("seat {seat}: at most {most} soldiers, got {got}", seat=self.seat, most=MAX_SOLDIERS,
                               got=len(self.soldiers)))
        try:
            ensure_distinct(self.cards)
        except BadCards as exc:
            raise BadCards(say("seat {seat}: {problem}", seat=self.seat, problem=exc.said)) from None

    @property
    def banner_suit(self) -> Suit:
        return self.banner.suit

    @property
    def cards(self) -> tuple[Card, ...]:
        """Banner, palace and soldiers."""
        return (self.banner, *self.palace, *self.soldiers)


# ------------------------------------------------------------------------------- PP-0 first dealer

@dataclass(frozen=True, slots=True)
class DealerDraw:
    """PP-0: who deals first, with every round of the draw as (seat, card) pairs."""

    dealer: int
    rounds: tuple[tuple[tuple[int, Card], ...], ...]
    reason: Said


def draw_for_dealer(seats: Sequence[int], source: CardSource) -> DealerDraw:
    """PP-0: one card each; the highest rank deals; tied players draw again (suits never rank)."""
    _check_seats(seats)
    cards = _Cards(source)
    drawing = list(seats)
    rounds: list[tuple[tuple[int, Card], ...]] = []
    notes: list[Said] = []
    while True:
        dealt = tuple((seat, cards.take_or_fail(_THE_DRAW)) for seat in drawing)
        rounds.append(dealt)
        top = max(card.rank for _, card in dealt)
        tied = [(seat, card) for seat, card in dealt if card.rank == top]
        if len(tied) == 1:
            break
        drawing = [seat for seat, _ in tied]
        shown = " ".join(card.pretty for _, card in tied)
        notes.append(say("{seats} tie with {cards} and draw again", seats=seats_text(drawing), cards=shown))
    dealer, card = tied[0]
    reason = say("seat {seat} deals first with {card}, the highest card", seat=dealer, card=card.pretty)
    return DealerDraw(dealer, tuple(rounds), joined([*notes, reason]) if notes else reason)


_THE_DRAW = say("the draw for the first dealer")


# ------------------------------------------------------------------------------------ PP-1 banners

def banner_group(position: int) -> int:
    """0, 1 or 2 for positions 1-4, 5-8, 9-10 from the dealer's left (`position` counts from 0)."""
    return position // GROUP_SIZE


@dataclass(frozen=True, slots=True)
class BannerDeal:
    """PP-1: one banner per seat (in dealing order); every refused card that is not a banner, in
    the order first refused; every card turned face up, in order."""

    order: tuple[int, ...]
    banners: dict[int, Card] = field(hash=False)
    refused: tuple[Card, ...]
    turned: tuple[Card, ...]
    reshuffles: int
    reasons: tuple[Said, ...]


def deal_banners(order: Sequence[int], source: CardSource, rng: random.Random) -> BannerDeal:
    """PP-1: deal banners face up to `order` (seats from the dealer's left), one at a time.

    Within a group every banner is a different suit: a refused card goes to the banner discard
    pile; when the source runs out that pile is shuffled with `rng` and dealt from.
    """
    _check_seats(order)
    cards = _Cards(source)
    stock: list[Card] = []
    pile: list[Card] = []
    taken: dict[int, dict[Suit, int]] = {}
    banners: dict[int, Card] = {}
    turned: list[Card] = []
    refusals: list[Card] = []
    reasons: list[Said] = []
    reshuffles = 0
    for position, seat in enumerate(order):
        group = banner_group(position)
        used = taken.setdefault(group, {})
        refused: list[Card] = []
        while True:
            card = stock.pop() if stock else cards.take()
            if card is None:
                if not any(c.suit not in used for c in pile):
                    raise BadCards(say("no card of a free suit is left for seat {seat}'s banner", seat=seat))
                stock, pile = pile, []
                fisher_yates(stock, rng)  # dealt from the end of the list
                reshuffles += 1
                reasons.append(say("the deck ran out: the banner discard pile ({count} cards) is shuffled and dealt "
                                   "from", count=len(stock)))
                continue
            turned.append(card)
            if card.suit in used:
                pile.append(card)
                refused.append(card)
                refusals.append(card)
                continue
            used[card.suit] = seat
            banners[seat] = card
            break
        if refused:
            owners = sorted({c.suit for c in refused})
            why = joined([say("{suit} is seat {seat}'s", suit=suit_word(s), seat=used[s]) for s in owners], ", ")
            reasons.append(say("seat {seat} (group {group}): banner {card} after refusing {refused} ({why})",
                               seat=seat, group=GROUP_LABELS[group], card=card.pretty,
                               refused=format_cards(refused, symbols=True, sort=False), why=why))
        else:
            reasons.append(say("seat {seat} (group {group}): banner {card}", seat=seat, group=GROUP_LABELS[group],
                               card=card.pretty))
    kept = set(banners.values())
    out = tuple(dict.fromkeys(card for card in refusals if card not in kept))
    return BannerDeal(tuple(order), banners, out, tuple(turned), reshuffles, tuple(reasons))


# ------------------------------------------------------------------------------------ PP-2 palaces

@dataclass(frozen=True, slots=True)
class PalaceDeal:
    """PP-2: three palace cards per seat, and the draw pile (top card first)."""

    palaces: dict[int, tuple[Card, ...]] = field(hash=False)
    draw_pile: tuple[Card, ...]


def deal_palaces_from(order: Sequence[int], cards: Sequence[Card]) -> PalaceDeal:
    """PP-2 from cards already shuffled: one at a time to `order`, three rounds; the rest is
    the draw pile."""
    _check_seats(order)
    ensure_distinct(cards)
    n = len(order)
    if len(cards) < PALACE_CARDS * n:
        raise BadCards(say("{needed} palace cards needed, {given} given", needed=PALACE_CARDS * n, given=len(cards)))
    palaces = {seat: tuple(cards[i + k * n] for k in range(PALACE_CARDS))
               for i, seat in enumerate(order)}
    return PalaceDeal(palaces, tuple(cards[PALACE_CARDS * n:]))


def deal_palaces(order: Sequence[int], banners: Iterable[Card], rng: random.Random) -> PalaceDeal:
    """PP-2: every card but the banners (refused ones included) shuffled again, then dealt."""
    out = set(banners)
    rest = [card for card in DECK if card not in out]
    fisher_yates(rest, rng)
    return deal_palaces_from(order, rest)


# ---------------------------------------------------- soldiers and piles (PP-3, PP-6, PP-8, PP-12)

@dataclass(frozen=True, slots=True)
class SoldierChange:
    """A change to one player's soldiers: what came in, what went to the discard pile, the cost."""

    seat: int
    soldiers: tuple[Card, ...]
    gained: tuple[Card, ...]
    discarded: tuple[Card, ...]
    cost: int
    reason: Said


def regroup(hand: PalaceHand, gained: Sequence[Card], discard: Iterable[Card], *, cost: int,
            what: Said, excess_only: bool = False) -> SoldierChange:
    """Add `gained` to the soldiers and discard some of them. A buy (PP-3) may discard any and
    must leave at most 5; a capture (`excess_only`, PP-8) discards exactly the excess over 5."""
    pool = (*hand.soldiers, *gained)
    dropped = tuple(discard)
    try:
        ensure_distinct((*hand.cards, *gained))
        ensure_distinct(dropped)
    except BadCards as exc:
        raise IllegalAction(seat_says(hand.seat, say("{what}: {problem}", what=what, problem=exc.said))) from None
    for card in dropped:
        if card not in pool:
            raise IllegalAction(seat_says(hand.seat, say("cannot discard {card}: not one of their soldiers",
                                                         card=card.text)))
    kept = tuple(card for card in pool if card not in dropped)
    excess = max(0, len(pool) - MAX_SOLDIERS)
    if excess_only and len(dropped) != excess:
        raise IllegalAction(seat_says(hand.seat, say(
            "must discard exactly the excess over {most} soldiers: {held} held, so {excess} to discard, not "
            "{discarded} (PP-8)", most=MAX_SOLDIERS, held=len(pool), excess=excess, discarded=len(dropped))))
    if len(kept) > MAX_SOLDIERS:
        raise IllegalAction(seat_says(hand.seat, say(
            "must discard down to {most} soldiers: {held} held, {discarded} discarded (PP-3)", most=MAX_SOLDIERS,
            held=len(pool), discarded=len(dropped))))
    parts = [seat_says(hand.seat, what)]
    if gained:
        parts.append(say("takes {cards}", cards=format_cards(gained, symbols=True)))
    if dropped:
        parts.append(say("discards {cards}", cards=format_cards(dropped, symbols=True)))
    if len(kept) == 1:
        parts.append(say("keeps {count} soldier", count=len(kept)))
    else:
        parts.append(say("keeps {count} soldiers", count=len(kept)))
    return SoldierChange(hand.seat, kept, tuple(gained), dropped, cost, joined(parts, ", "))


def with_soldiers(hand: PalaceHand, change: SoldierChange) -> PalaceHand:
    return replace(hand, soldiers=change.soldiers)


def refill_draw_pile(draw_pile: Sequence[Card], discard_pile: Sequence[Card],
                     rng: random.Random) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """PP-12: an empty draw pile becomes the shuffled discard pile; returns (draw, discard)."""
    if draw_pile:
        return tuple(draw_pile), tuple(discard_pile)
    cards = list(discard_pile)
    fisher_yates(cards, rng)
    return tuple(cards), ()


def fold_cards(hand: PalaceHand) -> tuple[Card, ...]:
    """PP-6: the cards a player folding on their turn puts on the discard pile (all they hold)."""
    return hand.cards
