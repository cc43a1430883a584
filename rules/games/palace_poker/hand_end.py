"""Palace Poker, the end of a hand: the last player standing (PP-13), one banner suit left (PP-14),
the showdown after a quiet orbit (PP-16), and the pot's shares with odd chips clockwise (PP-17).
PP-15's forced battle is decided here too, as it is the other way two players' hand goes on."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rules.cards import format_cards
from rules.errors import IllegalAction
from rules.evaluator import HandRank, evaluate
from rules.games.palace_poker.rules import (
    Action,
    PalaceHand,
    clockwise_from,
    hand_name,
    seats_text,
    suit_word,
)
from rules.said import Said, joined, say


@dataclass(frozen=True, slots=True)
class PotShare:
    seat: int
    amount: int
    reason: Said


@dataclass(frozen=True, slots=True)
class SeatHand:
    seat: int
    hand: HandRank


@dataclass(frozen=True, slots=True)
class HandEnd:
    """How the hand ended (`rule`), the winners by seat, their shares of the pot."""

    rule: str
    winners: tuple[int, ...]
    shares: tuple[PotShare, ...]
    reason: Said
    hands: tuple[SeatHand, ...] = ()

    def share_of(self, seat: int) -> int:
        return next((share.amount for share in self.shares if share.seat == seat), 0)


def split_pot(pot: int, winners: Iterable[int], dealer: int) -> tuple[PotShare, ...]:
    """PP-17: equal shares; odd chips one at a time clockwise from the dealer (C-5). By seat."""
    order = clockwise_from(dealer, winners)
    if not order:
        raise IllegalAction(say("a pot needs at least one winner"))
    if pot < 0:
        raise IllegalAction(say("a pot cannot be negative ({pot})", pot=pot))
    each, odd = divmod(pot, len(order))
    shares: list[PotShare] = []
    for place, seat in enumerate(order):
        if len(order) == 1:
            reason = say("seat {seat} takes the pot of {pot}", seat=seat, pot=pot)
        elif place < odd:
            reason = say("seat {seat}: {pot} ÷ {winners} = {each} + 1 odd chip (clockwise from the dealer on seat "
                         "{dealer}) = {share}", seat=seat, pot=pot, winners=len(order), each=each, dealer=dealer,
                         share=each + 1)
        else:
            reason = say("seat {seat}: {pot} ÷ {winners} = {each}", seat=seat, pot=pot, winners=len(order), each=each)
        shares.append(PotShare(seat, each + (place < odd), reason))
    return tuple(sorted(shares, key=lambda share: share.seat))


def must_battle(remaining: Sequence[PalaceHand]) -> bool:
    """PP-15: two players of different banner suits remain."""
    return len(remaining) == 2 and remaining[0].banner_suit != remaining[1].banner_suit


def hand_over(remaining: Sequence[PalaceHand], pot: int, dealer: int) -> HandEnd | None:
    """PP-13 (one player left) and PP-14 (2 or 3 left, one banner suit): the end, or None."""
    seats = sorted(hand.seat for hand in remaining)
    if not seats:
        raise IllegalAction(say("no player is left in the hand"))
    if len(seats) == 1:
        return HandEnd("PP-13", (seats[0],), split_pot(pot, seats, dealer),
                       say("seat {seat} is the last player standing and wins the pot of {pot} (PP-13)",
                           seat=seats[0], pot=pot))
    suits = {hand.banner_suit for hand in remaining}
    if 2 <= len(seats) <= 3 and len(suits) == 1:
        shares = split_pot(pot, seats, dealer)
        return HandEnd("PP-14", tuple(seats), shares,
                       say("{seats} all fly {suit} banners: the hand ends and the pot of {pot} is split (PP-14)",
                           seats=seats_text(seats), suit=suit_word(suits.pop()), pot=pot))
    return None


def quiet_orbit(recent: Sequence[Action], remaining: int) -> bool:
    """PP-16: the last `remaining` turns were all Stay or Discard (one full orbit)."""
    last = recent[-remaining:] if remaining else ()
    return len(last) == remaining > 0 and all(a in (Action.STAY, Action.DISCARD) for a in last)


def showdown(remaining: Sequence[PalaceHand], pot: int, dealer: int) -> HandEnd:
    """PP-16: each player's best hand from all own cards (no suit ignored); ties split (PP-17).
    The reason names every remaining player's hand, then who takes the pot."""
    if not remaining:
        raise IllegalAction(say("a showdown needs at least one player"))
    unseen = [h.seat for h in remaining if not h.seen]
    if unseen:
        raise IllegalAction(say("{seats}: the palace cards must be shown for the showdown", seats=seats_text(unseen)))
    hands = tuple(sorted((SeatHand(h.seat, evaluate(h.cards)) for h in remaining),
                         key=lambda sh: sh.seat))
    best = max(sh.hand.value for sh in hands)
    winners = tuple(sh.seat for sh in hands if sh.hand.value == best)
    top = next(sh.hand for sh in hands if sh.hand.value == best)
    shown = joined([say("seat {seat} {hand}", seat=sh.seat, hand=hand_words(sh.hand)) for sh in hands], "; ")
    if len(winners) == 1:
        verdict = say("seat {seat} wins the pot of {pot} with {hand} (PP-16)", seat=winners[0], pot=pot,
                      hand=hand_name(top.name))
    else:
        verdict = say("{seats} tie with {hand} and split the pot of {pot} (PP-16, PP-17)", seats=seats_text(winners),
                      hand=hand_name(top.name), pot=pot)
    return HandEnd("PP-16", winners, split_pot(pot, winners, dealer),
                   say("showdown: {hands}: {verdict}", hands=shown, verdict=verdict), hands)


def hand_words(hand: HandRank) -> Said:
    """`one pair A♠ A♥ 9♦ 7♠`: the hand's name and the cards that make it."""
    return say("{hand} {cards}", hand=hand_name(hand.name), cards=format_cards(hand.cards, symbols=True, sort=False))
