"""High Card Flush settlement (docs/rules.md HCF-8..HCF-17, HCF-20): a finished round in, chips out.

Card room (`banker: designated_player`): folded hands are collected first, then raised hands
are settled one by one in the HCF-10 order against the Designated Player's available money
(HCF-15, HCF-16). Casino (`banker: house`, HCF-20): the house banks without limit and the
bonus bets pay on the player's own hand.

Rake (HCF-17) is a fee per hand that the player pays from their own chips on top of their
bets, whatever the bets did: a hand's net is the sum of its bet results minus its rake, the
DP receives every lost bet in full, and the house's rake is the sum of every hand's rake and
the DP's. So chips are conserved: players' nets + banker's net + house rake = 0 (C-2).

Bonus caps (HCF-14, `high_card_flush_cuts`): a hand's bonus winnings are cut to the per-hand
cap, then to what the hands settled before it left of the round's cap (Straight Flush winnings
first, then Flush), and only then meet the DP's money (HCF-16). What the bonus bets are then
actually paid comes off the round's cap: a hand cut by HCF-16 gives up only what it is paid, and
a dead hand, a folded hand (card room) or a losing bonus bet takes nothing. In the card room an
HCF-16 cut leaves the DP with nothing, so every later raised hand is dead; what the cap has
left then shows in the banker's reason. Under the casino profile the hands (folded ones with
bonus bets too) take from the round's cap in seat order.

Preconditions (the `settle` request checks them): 7 distinct cards for every hand whose result
depends on its cards, legal raises (HCF-6), positive Ante, non-negative amounts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rules.cards import Card
from rules.games.high_card_flush.cuts import (
    BetResult,
    bonus_won,
    cap_bonus,
    cap_round_bonus,
    limit_to_bank,
)
from rules.games.high_card_flush.profile import HighCardFlushProfile
from rules.games.high_card_flush.rules import (
    CARDS_PER_HAND,
    MIN_FLUSH_BET_LENGTH,
    HandReading,
    read_hand,
    settlement_order,
    straight_flush_wins,
)
from rules.said import Said, say, say_in

RakeMode = Literal["all", "players", "dp_only"]
BET_NAMES = ("ante", "raise", "flush", "straight_flush")


@dataclass(frozen=True, slots=True)
class Terms:
    """The house options a settlement depends on: rake (HCF-17) and the bonus caps per hand and
    per round (HCF-14); None: no cap."""

    rake_mode: RakeMode = "all"
    rake_amount: int = 0
    bonus_cap: int | None = None
    round_bonus_cap: int | None = None

    @classmethod
    def of(cls, profile: HighCardFlushProfile) -> Terms:
        rake = profile.rake
        return cls(rake.mode, rake.amount, profile.bonus_cap, profile.round_bonus_cap)

    @property
    def player_rake(self) -> int:
        return self.rake_amount if self.rake_mode in ("all", "players") else 0

    @property
    def banker_rake(self) -> int:
        return self.rake_amount if self.rake_mode in ("all", "dp_only") else 0


@dataclass(frozen=True, slots=True)
class PlayerHand:
    """One player's finished hand: bets in chips (`raised` 0 = folded) and the 7 cards if known."""

    seat: int
    ante: int
    raised: int
    flush: int = 0
    straight_flush: int = 0
    cards: tuple[Card, ...] | None = None

    @property
    def folded(self) -> bool:
        return self.raised == 0

    @property
    def wager(self) -> int:
        """Every chip the hand has in play (HCF-16)."""
        return self.ante + self.raised + self.flush + self.straight_flush


@dataclass(frozen=True, slots=True)
class BankerHand:
    """The DP (seat and stack) or the house (no seat, no stack: unlimited money, HCF-20)."""

    cards: tuple[Card, ...] | None
    seat: int | None = None
    stack: int | None = None


@dataclass(frozen=True, slots=True)
class PlayerResult:
    seat: int
    folded: bool
    dead: bool
    reading: HandReading | None
    ante: BetResult
    raise_bet: BetResult
    flush: BetResult
    straight_flush: BetResult
    rake: int

    @property
    def bets(self) -> tuple[BetResult, BetResult, BetResult, BetResult]:
        """The four bets in the order of `BET_NAMES`."""
        return (self.ante, self.raise_bet, self.flush, self.straight_flush)

    @property
    def net(self) -> int:
        return self.ante.result + self.raise_bet.result + self.flush.result + self.straight_flush.result - self.rake


@dataclass(frozen=True, slots=True)
class BankerResult:
    seat: int | None
    reading: HandReading | None
    qualified: bool | None
    """HCF-7; None when the banker's cards were not needed and not given."""
    rake: int
    net: int
    reason: Said


@dataclass(frozen=True, slots=True)
class Settlement:
    banker: BankerResult
    players: tuple[PlayerResult, ...]
    """In the order the hands were given."""
    order: tuple[int, ...]
    """Seats in the order they were settled (HCF-10; by seat under the casino profile)."""
    house_rake: int
    round_bonus_left: int | None = None
    """What the hands left of the round's bonus cap (HCF-14); None without one."""


# One bet at a time -------------------------------------------------------------------------


ANTE, RAISE = say_in("bet", "Ante"), say_in("bet", "Raise")
FLUSH_BET, STRAIGHT_FLUSH_BET = say_in("bet", "Flush bet"), say_in("bet", "Straight Flush bet")
DP, DEALER = say("DP"), say("dealer")
_NOT_MADE = {label: BetResult(0, 0, say("{bet}: not made", bet=label)) for label in (FLUSH_BET, STRAIGHT_FLUSH_BET)}


def _not_made(label: Said) -> BetResult:
    return _NOT_MADE[label]


def _won(label: Said, stake: int, odds: int, why: Said) -> BetResult:
    if odds == 1:
        return BetResult(stake, stake, say("{bet}: {why} — wins {stake} (1 to 1)", bet=label, why=why, stake=stake))
    return BetResult(stake, stake * odds, say("{bet}: {why} — {stake} × {odds} = {paid}", bet=label, why=why, stake=stake,
                                              odds=odds, paid=stake * odds))


def _lost(label: Said, stake: int, why: Said) -> BetResult:
    return BetResult(stake, -stake, say("{bet}: {why} — loses {stake}", bet=label, why=why, stake=stake))


def _pushed(label: Said, stake: int, why: Said) -> BetResult:
    return BetResult(stake, 0, say("{bet}: {why} — pushes, {stake} returned", bet=label, why=why, stake=stake))


def paying_line(table: dict[int, int], length: int) -> int | None:
    """The card count of the highest paytable line the length reaches ("only the highest line
    pays"; a profile lists its lines longest first); None when it reaches none."""
    return next((cards for cards in table if cards <= length), None)


def pay_line(table: dict[int, int], length: int) -> int | None:
    """Odds of the line that pays for the length (`paying_line`); None when none does."""
    line = paying_line(table, length)
    return None if line is None else table[line]


def pay_lines(table: dict[int, int]) -> tuple[int | None, ...]:
    """`pay_line` by length, 0 to 7 cards: the table the chips and vectorised forms index."""
    return tuple(pay_line(table, length) for length in range(CARDS_PER_HAND + 1))


_NO_RAISE = BetResult(0, 0, say("Raise: folded, no raise"))


def _fold_bets(hand: PlayerHand) -> tuple[BetResult, BetResult]:
    return _lost(ANTE, hand.ante, say("folded")), _NO_RAISE


def _main_bets(hand: PlayerHand, mine: HandReading, dp: HandReading, dealer: Said) -> tuple[BetResult, BetResult]:
    """HCF-8, HCF-9: Ante and Raise of a raised hand against the banker's hand."""
    ante, raised = hand.ante, hand.raised
    if not dp.qualifies:
        why = say("the {dealer} does not qualify ({hand}; needs a 3-card flush 9-high)", dealer=dealer,
                  hand=dp.describe_flush())
        return _won(ANTE, ante, 1, why), _pushed(RAISE, raised, say("the {dealer} does not qualify", dealer=dealer))
    if mine.flush_key > dp.flush_key:
        why = say("{hand} beats the {dealer}'s {theirs}", hand=mine.describe_flush(), dealer=dealer,
                  theirs=dp.describe_flush())
        return _won(ANTE, ante, 1, why), _won(RAISE, raised, 1, why)
    if mine.flush_key == dp.flush_key:
        why = say("{hand} ties the {dealer}'s", hand=mine.describe_flush(), dealer=dealer)
        return _pushed(ANTE, ante, why), _pushed(RAISE, raised, why)
    why = say("{hand} loses to the {dealer}'s {theirs}", hand=mine.describe_flush(), dealer=dealer,
              theirs=dp.describe_flush())
    return _lost(ANTE, ante, why), _lost(RAISE, raised, why)


def _flush_contest(stake: int, mine: HandReading, dp: HandReading, table: dict[int, int]) -> BetResult:
    """HCF-13: needs 4+ cards; beats the DP's flush by HCF-1 to win, a tie pushes."""
    label, length = FLUSH_BET, mine.flush_length
    if not stake:
        return _not_made(label)
    if length < MIN_FLUSH_BET_LENGTH:
        return _lost(label, stake, say("a {length}-card flush cannot win (needs {least} cards)", length=length,
                                       least=MIN_FLUSH_BET_LENGTH))
    if mine.flush_key == dp.flush_key:
        return _pushed(label, stake, say("{hand} ties the DP's", hand=mine.describe_flush()))
    if mine.flush_key < dp.flush_key:
        return _lost(label, stake, say("{length}-card flush loses to the DP's {theirs}", length=length,
                                       theirs=dp.describe_flush()))
    odds = pay_line(table, length)
    if odds is None:
        return _lost(label, stake, say("no paytable line for a {length}-card flush", length=length))
    return _won(label, stake, odds, say("{length}-card flush beats the DP's {theirs}", length=length,
                                        theirs=dp.describe_flush()))


def _straight_flush_contest(stake: int, mine: HandReading, dp: HandReading, table: dict[int, int]) -> BetResult:
    """HCF-12: 3+ cards, longer than the DP's run or as long with a higher or equal top card."""
    label, length = STRAIGHT_FLUSH_BET, mine.straight_flush_length
    if not stake:
        return _not_made(label)
    if not length:
        return _lost(label, stake, say("no 3-card straight flush"))
    theirs = (say("the DP's {length}-card", length=dp.straight_flush_length) if dp.straight_flush
              else say("the DP's (none)"))
    if not straight_flush_wins(mine.straight_flush_key, dp.straight_flush_key):
        return _lost(label, stake, say("{hand} loses to {theirs}", hand=mine.describe_straight_flush(), theirs=theirs))
    odds = pay_line(table, length)
    if odds is None:
        return _lost(label, stake, say("no paytable line for a {length}-card straight flush", length=length))
    if mine.straight_flush_key == dp.straight_flush_key:
        why = say("{length}-card straight flush ties (ties go to the player) {theirs}", length=length, theirs=theirs)
    else:
        why = say("{length}-card straight flush beats {theirs}", length=length, theirs=theirs)
    return _won(label, stake, odds, why)


def _paytable_bet(label: Said, stake: int, length: int, what: Said, table: dict[int, int]) -> BetResult:
    """HCF-20: a bonus bet paid by the paytable on the player's own hand (`what` describes it)."""
    if not stake:
        return _not_made(label)
    odds = pay_line(table, length)
    if odds is None:
        return _lost(label, stake, what if what.startswith("no ") else say("{hand} is not on the paytable", hand=what))
    return _won(label, stake, odds, say("{hand} pays {odds} to 1", hand=what, odds=odds))


def _returned(label: Said, stake: int, note: Said) -> BetResult:
    return BetResult(stake, 0, say("{bet}: {note}", bet=label, note=note)) if stake else _not_made_bet(label)


def _not_made_bet(label: Said) -> BetResult:
    return BetResult(0, 0, say("{bet}: not made", bet=label))


def _all_returned(hand: PlayerHand, note: Said) -> tuple[BetResult, BetResult, BetResult, BetResult]:
    return (
        _returned(ANTE, hand.ante, note),
        _returned(RAISE, hand.raised, note),
        _returned(FLUSH_BET, hand.flush, note),
        _returned(STRAIGHT_FLUSH_BET, hand.straight_flush, note),
    )


def _dead(hand: PlayerHand, reading: HandReading | None, available: int) -> PlayerResult:
    note = say("dead hand: the DP had {available} left, less than the {wager} in play (HCF-16); returned",
               available=available, wager=hand.wager)
    return PlayerResult(hand.seat, False, True, reading, *_all_returned(hand, note), 0)


# Whole rounds ------------------------------------------------------------------------------


def settle(
    profile: HighCardFlushProfile,
    seats: int,
    banker: BankerHand,
    players: Sequence[PlayerHand],
    terms: Terms | None = None,
) -> Settlement:
    """Settle a finished round; `terms` default to the profile's rake and bonus cap."""
    terms = terms if terms is not None else Terms.of(profile)
    if profile.banker == "house":
        return _settle_house(profile, banker, players, terms)
    return _settle_designated_player(profile, seats, banker, players, terms)


def _reading(cards: tuple[Card, ...] | None) -> HandReading | None:
    return read_hand(cards) if cards is not None else None


def _settle_designated_player(
    profile: HighCardFlushProfile, seats: int, banker: BankerHand, players: Sequence[PlayerHand], terms: Terms
) -> Settlement:
    assert banker.seat is not None and banker.stack is not None, "a Designated Player has a seat and a stack"
    tables = profile.paytables
    dp = _reading(banker.cards)
    by_seat = {hand.seat: hand for hand in players}
    ring = settlement_order(seats, banker.seat, by_seat)
    order = tuple(s for s in ring if by_seat[s].folded) + tuple(s for s in ring if not by_seat[s].folded)
    available = banker.stack
    left = terms.round_bonus_cap  # HCF-14: what is left of the round's bonus cap (None: no cap)
    results: dict[int, PlayerResult] = {}
    for seat in order:
        hand = by_seat[seat]
        mine = _reading(hand.cards)
        if hand.folded:
            ante, raised = _fold_bets(hand)
            flush = _lost(FLUSH_BET, hand.flush, _WITH_THE_FOLD) if hand.flush else _not_made(FLUSH_BET)
            sf = (_lost(STRAIGHT_FLUSH_BET, hand.straight_flush, _WITH_THE_FOLD)
                  if hand.straight_flush else _not_made(STRAIGHT_FLUSH_BET))
            available += hand.wager
            results[seat] = PlayerResult(seat, True, False, mine, ante, raised, flush, sf, terms.player_rake)
            continue
        assert mine is not None and dp is not None, "a raised hand and the DP need their cards"
        if available < hand.wager:
            results[seat] = _dead(hand, mine, available)
            continue
        ante, raised = _main_bets(hand, mine, dp, DP)
        flush = _flush_contest(hand.flush, mine, dp, tables.flush)
        sf = _straight_flush_contest(hand.straight_flush, mine, dp, tables.straight_flush)
        flush, sf = cap_bonus(flush, sf, terms.bonus_cap)
        flush, sf = cap_round_bonus(flush, sf, left, terms.round_bonus_cap)
        won = ante.result + raised.result + flush.result + sf.result
        if won > available:
            ante, raised, flush, sf = limit_to_bank([ante, raised, flush, sf], available)
            won = available
        available -= won
        if left is not None:  # HCF-14: the round's cap gives up what is paid, after HCF-16
            left -= bonus_won(flush, sf)
        results[seat] = PlayerResult(seat, False, False, mine, ante, raised, flush, sf, terms.player_rake)
    dp_rake = min(terms.banker_rake, available)
    net = available - banker.stack - dp_rake
    if dp is None:
        said = say("every player folded; the DP's cards were not needed")
    elif dp.qualifies:
        said = say("the DP qualifies with {hand}", hand=dp.describe_flush())
    else:
        said = say("the DP does not qualify with {hand}", hand=dp.describe_flush())
    reason = say("{said}; holds {available} after the hands, pays {rake} rake: net {net}{cap}", said=said,
                 available=available, rake=dp_rake, net=net, cap=_round_cap_note(terms.round_bonus_cap, left))
    house_rake = dp_rake + sum(r.rake for r in results.values())
    return Settlement(
        BankerResult(banker.seat, dp, dp.qualifies if dp else None, dp_rake, net, reason),
        tuple(results[hand.seat] for hand in players), order, house_rake, left,
    )


def _round_cap_note(cap: int | None, left: int | None) -> Said:
    """What the round's bonus cap paid out and kept (HCF-14), for the banker's reason."""
    if cap is None or left is None:
        return _NOTHING
    return say("; the round's {cap} bonus cap paid {paid}, {left} left (HCF-14)", cap=cap, paid=cap - left, left=left)


_NOTHING = Said("", {})
_WITH_THE_FOLD = say("lost with the fold (HCF-11)")


def _settle_house(
    profile: HighCardFlushProfile, banker: BankerHand, players: Sequence[PlayerHand], terms: Terms
) -> Settlement:
    """HCF-20: unlimited house money, no rake, bonus bets on the player's own hand."""
    tables = profile.paytables
    house = _reading(banker.cards)
    left = terms.round_bonus_cap  # HCF-14: the hands take from the round's cap in seat order
    results: dict[int, PlayerResult] = {}
    for hand in sorted(players, key=lambda hand: hand.seat):
        mine = _reading(hand.cards)
        if hand.folded:
            ante, raised = _fold_bets(hand)
        else:
            assert mine is not None and house is not None, "a raised hand and the house need their cards"
            ante, raised = _main_bets(hand, mine, house, DEALER)
        flush, sf = _NOT_MADE[FLUSH_BET], _NOT_MADE[STRAIGHT_FLUSH_BET]
        if hand.flush or hand.straight_flush:
            assert mine is not None, "a hand with bonus bets under the casino profile needs its cards"
            flush = _paytable_bet(FLUSH_BET, hand.flush, mine.flush_length, mine.describe_flush(), tables.flush)
            sf = _paytable_bet(STRAIGHT_FLUSH_BET, hand.straight_flush, mine.straight_flush_length,
                               mine.describe_straight_flush(), tables.straight_flush)
            flush, sf = cap_bonus(flush, sf, terms.bonus_cap)
            flush, sf = cap_round_bonus(flush, sf, left, terms.round_bonus_cap)
            if left is not None:
                left -= bonus_won(flush, sf)
        results[hand.seat] = PlayerResult(
            hand.seat, hand.folded, False, mine, ante, raised, flush, sf, 0
        )
    net = -sum(r.net for r in results.values())
    if house is None:
        said = say("every player folded; the dealer's cards were not needed")
    elif house.qualifies:
        said = say("the dealer qualifies with {hand}", hand=house.describe_flush())
    else:
        said = say("the dealer does not qualify with {hand}", hand=house.describe_flush())
    reason = say("{said}: house net {net}{cap}", said=said, net=net, cap=_round_cap_note(terms.round_bonus_cap, left))
    banker_result = BankerResult(None, house, house.qualifies if house else None, 0, net, reason)
    order = tuple(sorted(hand.seat for hand in players))
    return Settlement(banker_result, tuple(results[hand.seat] for hand in players), order, 0, left)

