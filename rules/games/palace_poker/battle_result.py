"""Palace Poker, who wins a battle: each side's hand ignoring the opponent's banner suit (PP-9),
the tie-break by banner-suit cards (PP-10), and the winner's capture of the loser's soldiers (PP-8)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules.cards import Card, format_cards, sort_cards
from rules.errors import IllegalAction
from rules.evaluator import HandRank, evaluate
from rules.games.palace_poker.rules import (
    PalaceHand,
    SoldierChange,
    hand_name,
    regroup,
    suit_word,
    with_soldiers,
)
from rules.said import Said, say

WON = "won"
BOTH_OUT = "both out"
SPLIT = "split"


@dataclass(frozen=True, slots=True)
class BattleSide:
    """One side's battle hand: its best hand ignoring the opponent's banner suit (PP-9)."""

    seat: int
    hand: HandRank
    ignored: tuple[Card, ...]
    banner_suit_count: int

    def said(self) -> Said:
        cards = format_cards(self.hand.cards, symbols=True, sort=False)
        if self.ignored:
            return say("seat {seat} {hand} {cards} (ignoring {ignored})", seat=self.seat,
                       hand=hand_name(self.hand.name), cards=cards,
                       ignored=format_cards(self.ignored, symbols=True))
        return say("seat {seat} {hand} {cards}", seat=self.seat, hand=hand_name(self.hand.name), cards=cards)


@dataclass(frozen=True, slots=True)
class BattleResult:
    """PP-9, PP-10: winner and loser by seat, or none on a full tie (`outcome` both out / split)."""

    attacker: BattleSide
    defender: BattleSide
    winner: int | None
    loser: int | None
    outcome: str
    decided_by: str
    reason: Said


def battle_side(hand: PalaceHand, opponent: PalaceHand) -> BattleSide:
    """PP-9: the best hand of own banner, palace and soldiers without the opponent's banner suit."""
    usable = tuple(c for c in hand.cards if c.suit != opponent.banner_suit)
    ignored = tuple(sort_cards(c for c in hand.cards if c.suit == opponent.banner_suit))
    own = sum(c.suit == hand.banner_suit for c in hand.cards)
    return BattleSide(hand.seat, evaluate(usable), ignored, own)


def compare_battle(attacker: PalaceHand, defender: PalaceHand, *, last_two: bool) -> BattleResult:
    """PP-9 and PP-10: compare the battle hands; ties go to more cards of one's own banner suit."""
    if attacker.banner_suit == defender.banner_suit:
        raise IllegalAction(say("seats {attacker} and {defender} both fly {suit}: they cannot battle (PP-7)",
                                attacker=attacker.seat, defender=defender.seat, suit=suit_word(attacker.banner_suit)))
    unseen = [h.seat for h in (attacker, defender) if not h.seen]
    if unseen:
        raise IllegalAction(say("seat {seat}: the palace cards must be shown to compare the hands (PP-9)",
                                seat=unseen[0]))
    a, d = battle_side(attacker, defender), battle_side(defender, attacker)
    said = say("{attacker} against {defender}", attacker=a.said(), defender=d.said())
    if a.hand.value != d.hand.value:
        win, lose = (a, d) if a.hand.value > d.hand.value else (d, a)
        return BattleResult(a, d, win.seat, lose.seat, WON, "hand",
                            say("{hands}: seat {winner} wins, seat {loser} is out (PP-9)", hands=said,
                                winner=win.seat, loser=lose.seat))
    counts = say("{count} {suit} for seat {seat}, {other_count} {other_suit} for seat {other}",
                 count=a.banner_suit_count, suit=suit_word(attacker.banner_suit), seat=a.seat,
                 other_count=d.banner_suit_count, other_suit=suit_word(defender.banner_suit), other=d.seat)
    if a.banner_suit_count != d.banner_suit_count:
        win, lose = (a, d) if a.banner_suit_count > d.banner_suit_count else (d, a)
        return BattleResult(a, d, win.seat, lose.seat, WON, "banner suit count",
                            say("{hands}: the hands tie; own banner suit {counts}: seat {winner} wins (PP-10)",
                                hands=said, counts=counts, winner=win.seat))
    if last_two:
        reason = say("{hands}: the hands tie and so do the banner suits ({counts}): the last two split the pot "
                     "(PP-10)", hands=said, counts=counts)
    else:
        reason = say("{hands}: the hands tie and so do the banner suits ({counts}): both are out (PP-10)",
                     hands=said, counts=counts)
    return BattleResult(a, d, None, None, SPLIT if last_two else BOTH_OUT, "tie", reason)


@dataclass(frozen=True, slots=True)
class Capture:
    """PP-8, PP-9: the winner with the loser's banner and soldiers; cards for the discard pile."""

    winner: PalaceHand
    change: SoldierChange
    to_discard: tuple[Card, ...]


def capture(winner: PalaceHand, loser: PalaceHand, discard: Iterable[Card] = ()) -> Capture:
    """The winner takes the loser's banner and soldiers as soldiers and discards exactly the
    excess over 5, the ones of their choice (`discard`, PP-8); the loser's palace and those
    discards go to the discard pile."""
    change = regroup(winner, (loser.banner, *loser.soldiers), discard, cost=0,
                     what=say("beats seat {loser}", loser=loser.seat), excess_only=True)
    return Capture(with_soldiers(winner, change), change, (*loser.palace, *change.discarded))
