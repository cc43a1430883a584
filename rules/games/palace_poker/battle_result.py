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
    regroup,
    suit_word,
    with_soldiers,
)

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

    def said(self) -> str:
        cards = format_cards(self.hand.cards, symbols=True, sort=False)
        text = f"seat {self.seat} {self.hand.name} {cards}"
        if self.ignored:
            text += f" (ignoring {format_cards(self.ignored, symbols=True)})"
        return text


@dataclass(frozen=True, slots=True)
class BattleResult:
    """PP-9, PP-10: winner and loser by seat, or none on a full tie (`outcome` both out / split)."""

    attacker: BattleSide
    defender: BattleSide
    winner: int | None
    loser: int | None
    outcome: str
    decided_by: str
    reason: str


def battle_side(hand: PalaceHand, opponent: PalaceHand) -> BattleSide:
    """PP-9: the best hand of own banner, palace and soldiers without the opponent's banner suit."""
    usable = tuple(c for c in hand.cards if c.suit != opponent.banner_suit)
    ignored = tuple(sort_cards(c for c in hand.cards if c.suit == opponent.banner_suit))
    own = sum(c.suit == hand.banner_suit for c in hand.cards)
    return BattleSide(hand.seat, evaluate(usable), ignored, own)


def compare_battle(attacker: PalaceHand, defender: PalaceHand, *, last_two: bool) -> BattleResult:
    """PP-9 and PP-10: compare the battle hands; ties go to more cards of one's own banner suit."""
    if attacker.banner_suit == defender.banner_suit:
        raise IllegalAction(f"seats {attacker.seat} and {defender.seat} both fly "
                            f"{suit_word(attacker.banner_suit)}: they cannot battle (PP-7)")
    unseen = [h.seat for h in (attacker, defender) if not h.seen]
    if unseen:
        raise IllegalAction(f"seat {unseen[0]}: the palace cards must be shown to compare the hands (PP-9)")
    a, d = battle_side(attacker, defender), battle_side(defender, attacker)
    said = f"{a.said()} against {d.said()}"
    if a.hand.value != d.hand.value:
        win, lose = (a, d) if a.hand.value > d.hand.value else (d, a)
        return BattleResult(a, d, win.seat, lose.seat, WON, "hand",
                            f"{said}: seat {win.seat} wins, seat {lose.seat} is out (PP-9)")
    counts = (f"{a.banner_suit_count} {suit_word(attacker.banner_suit)} for seat {a.seat}, "
              f"{d.banner_suit_count} {suit_word(defender.banner_suit)} for seat {d.seat}")
    if a.banner_suit_count != d.banner_suit_count:
        win, lose = (a, d) if a.banner_suit_count > d.banner_suit_count else (d, a)
        return BattleResult(a, d, win.seat, lose.seat, WON, "banner suit count",
                            f"{said}: the hands tie; own banner suit {counts}: "
                            f"seat {win.seat} wins (PP-10)")
    ending = "the last two split the pot" if last_two else "both are out"
    return BattleResult(a, d, None, None, SPLIT if last_two else BOTH_OUT, "tie",
                        f"{said}: the hands tie and so do the banner suits ({counts}): "
                        f"{ending} (PP-10)")


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
                     what=f"beats seat {loser.seat}", excess_only=True)
    return Capture(with_soldiers(winner, change), change, (*loser.palace, *change.discarded))
