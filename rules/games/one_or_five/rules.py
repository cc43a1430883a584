"""Poker "1 or 5" (docs/rules.md R-1..R-11): the hand, the exchange, insurance, settlement
(the R-12 misdeal is the round's void, in `dealer_tui.rounds`).

Rulings made here:
- `ace-king` is a name, not a rank: a high-card hand (C-4) holding an Ace and a King. Hands
  compare by their C-4 value only, so ace-king against ace-king, or against any high card,
  compares rank by rank (A-K-Q-J-9 beats A-K-7-5-2; every ace-king beats A-Q-J-T-8).
- Insurance premium (R-9): from 1x Ante to half of what the Bet would win by the paytable,
  rounded down. With the Bet at exactly 2x Ante (R-2) the half is odds x Ante, a whole number.
- R-11: the cards a box gives up go to the exchanged-out pile after it has drawn, so a box
  never draws back the cards it has just exchanged out.
- R-4 table stakes: what a player "holds beyond their other boxes' bets" is the stack less
  every other box's commitment (`box_commitment`): its Ante, the fee and premium it paid, and
  its Bet, made or still possibly needed while the box has not acted (a passed box needs none).
  An Ante needs three times itself of that; an exchange needs the fee plus the Bet beyond the
  box's own Ante. An exchange the player cannot afford is not offered. Insurance (R-9) keeps
  its own check: the premium must be in the player's free chips.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from rules.cards import Card, Rank, ensure_distinct, fisher_yates, format_cards
from rules.errors import BadCards, IllegalAction
from rules.evaluator import Category, evaluate
from rules.games.one_or_five.profile import OneOrFiveProfile
from rules.said import Said, say

HIGH_CARD, ACE_KING = "high card", "ace-king"
HAND_NAMES: tuple[str, ...] = (
    HIGH_CARD, ACE_KING, "one pair", "two pair", "three of a kind", "straight", "flush",
    "full house", "four of a kind", "straight flush", "royal flush",
)
"""Every "1 or 5" hand name, weakest first."""
HAND_SAID: dict[str, Said] = {
    HIGH_CARD: say("high card"), ACE_KING: say("ace-king"), "one pair": say("one pair"),
    "two pair": say("two pair"), "three of a kind": say("three of a kind"), "straight": say("straight"),
    "flush": say("flush"), "full house": say("full house"), "four of a kind": say("four of a kind"),
    "straight flush": say("straight flush"), "royal flush": say("royal flush"),
}
"""Each hand name (a code: `settle` prints it, profiles name it) as a sentence says it."""
_HIGH: dict[Rank, Said] = {
    Rank.SEVEN: say("seven-high"), Rank.EIGHT: say("eight-high"), Rank.NINE: say("nine-high"),
    Rank.TEN: say("ten-high"), Rank.JACK: say("jack-high"), Rank.QUEEN: say("queen-high"),
    Rank.KING: say("king-high"), Rank.ACE: say("ace-high"),
}
"""A high-card hand by its top card (five ranks, no straight: seven-high at least)."""
BET_MULTIPLE = 2
"""Closing a box takes a Bet of exactly 2x Ante (R-2)."""
BOX_CARDS = 5


class Action(StrEnum):
    """How a box ends its turn (R-2): closed with the Bet, or passed. An exchange comes before."""

    BET = "bet"
    FOLD = "fold"


# --------------------------------------------------------------------- the hand (C-4, R-5)

@dataclass(frozen=True, slots=True)
class Hand:
    """Five cards valued by the shared evaluator (C-4), named with `ace-king` where it applies."""

    value: int
    cards: tuple[Card, ...]
    name: str

    @property
    def qualifies(self) -> bool:
        """R-5: the dealer has a game with ace-king or better."""
        return self.name != HIGH_CARD

    @property
    def strength(self) -> int:
        """Position of the name in `HAND_NAMES`, to test "straight or better"."""
        return HAND_NAMES.index(self.name)

    def said(self) -> Said:
        """The hand in a dealer's words: `queen-high`, `ace-king`, `two pair`."""
        if self.name == HIGH_CARD:
            top = self.cards[0].rank
            return _HIGH.get(top) or Said.literal(f"{top.name.lower()}-high")
        return hand_named(self.name)

    def described(self) -> Said:
        """The hand's words and its cards: `two pair K♠ K♥ 7♦ 7♣ 2♥`."""
        return say("{hand} {cards}", hand=self.said(), cards=format_cards(self.cards, symbols=True, sort=False))

    def __str__(self) -> str:
        return str(self.described())


def hand_named(name: str) -> Said:
    """A hand name (`two pair`) as a sentence says it; a name the game does not know, as written."""
    return HAND_SAID.get(name) or Said.literal(name)


def hand_of(cards: Sequence[Card]) -> Hand:
    """The "1 or 5" hand of exactly five distinct cards."""
    if len(cards) != BOX_CARDS:
        raise BadCards(say("a hand holds {count} cards, got {got}", count=BOX_CARDS, got=len(cards)))
    ensure_distinct(cards)
    rank = evaluate(tuple(cards))
    name = rank.name
    if rank.category is Category.HIGH_CARD and {Rank.ACE, Rank.KING} <= {c.rank for c in cards}:
        name = ACE_KING
    return Hand(rank.value, rank.cards, name)


# ------------------------------------------------------------------ exchange

def exchange_fee(profile: OneOrFiveProfile, ante: int) -> int:
    """The exchange fee, in chips: the profile's fee in antes (R-3)."""
    return profile.exchange.fee * ante


def exchange_problem(profile: OneOrFiveProfile, count: int) -> Said | None:
    """Why `count` exchanged cards is not allowed (0 = no exchange), or None."""
    allowed = profile.exchange.counts
    if count == 0 or count in allowed:
        return None
    return say("{count} cards may not be exchanged (allowed: {allowed})", count=count, allowed=_either(allowed))


def _either(counts: Sequence[int]) -> int | Said:
    """`1 or 5`, `1 or 2 or 3`: one of the counts, each said as a number."""
    if len(counts) == 1:
        return counts[0]
    return say("{first} or {rest}", first=counts[0], rest=_either(counts[1:]))


def verify_exchange(profile: OneOrFiveProfile, box: int, count: int, *, open_box: bool,
                    exchanged_before: bool, ante: int = 0, holds: int | None = None) -> None:
    """Raise `IllegalAction` unless `box` may exchange `count` cards now (R-3, R-4). With
    `holds` (what the player holds beyond the box's `ante` and their other boxes' bets), also
    the table stakes of R-4: the fee and then the Bet must be covered."""
    if not open_box:
        raise IllegalAction(say("Box {box} is not the player's open box: only the open box may "
                                "exchange (R-4)", box=box))
    if exchanged_before:
        raise IllegalAction(say("Box {box} has already exchanged: one exchange per box (R-3)", box=box))
    short = None if holds is None else exchange_stakes_problem(profile, ante, holds)
    if short:
        raise IllegalAction(say("Box {box}: {problem}", box=box, problem=short))
    problem = exchange_problem(profile, count)
    if count == 0 or problem:
        raise IllegalAction(say("Box {box}: {problem} (R-3)", box=box,
                                problem=problem or say("an exchange takes at least one card")))


# --------------------------------------------------------------------- table stakes

def box_needs(ante: int) -> int:
    """Chips an Ante ties up before its box acts: the Ante and the Bet it may need (R-2, R-4)."""
    return (1 + BET_MULTIPLE) * ante


def box_commitment(profile: OneOrFiveProfile, ante: int, action: Action | None, *,
                   exchanged: bool = False, insurance: int = 0) -> int:
    """Chips one box ties up (R-4): its Ante, the exchange fee and insurance premium it paid,
    and its Bet: made (`Action.BET`), or still possibly needed while the box has not acted
    (`None`); a passed box needs no Bet."""
    fee = exchange_fee(profile, ante) if exchanged else 0
    bet = 0 if action is Action.FOLD else BET_MULTIPLE * ante
    return ante + fee + insurance + bet


def held_beyond(stack: int, commitments: Iterable[int]) -> int:
    """What a player holds beyond their boxes' bets: the stack less each box's commitment."""
    return stack - sum(commitments)


def exchange_stakes_problem(profile: OneOrFiveProfile, ante: int, holds: int) -> Said | None:
    """Why a box cannot afford its exchange (R-4), or None: `holds`, what the player holds beyond
    the box's Ante and their other boxes' bets, must cover the fee and then the Bet, so that the
    box can close after the exchange."""
    fee, bet = exchange_fee(profile, ante), BET_MULTIPLE * ante
    if fee + bet <= holds:
        return None
    return say("the fee {fee} and the Bet {bet} it would then need make {total}, and the "
               "player holds {holds} beyond the Ante and their other boxes' bets: the box could "
               "not close after the exchange (R-4)", fee=fee, bet=bet, total=fee + bet, holds=holds)


@dataclass(frozen=True, slots=True)
class CardSource:
    """Where exchanged cards come from (R-11): the stub (top first), then this round's
    exchanged-out cards, shuffled when the stub runs out."""

    stub: tuple[Card, ...]
    exchanged_out: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class ExchangeDrawn:
    """One exchange done: what left the box, what came in, the fee, and the source after it."""

    box: int
    discarded: tuple[Card, ...]
    drawn: tuple[Card, ...]
    cards: tuple[Card, ...]
    fee: int
    source: CardSource
    reshuffled: bool
    reason: Said


def draw_for_exchange(source: CardSource, count: int,
                      rng: random.Random) -> tuple[tuple[Card, ...], CardSource, bool]:
    """R-11: `count` cards from the stub; when it runs out, the exchanged-out cards are shuffled
    (Fisher-Yates, C-3) into a new stub and dealt from. Returns (drawn, source left, reshuffled)."""
    drawn = source.stub[:count]
    if len(drawn) == count:
        return drawn, CardSource(source.stub[count:], source.exchanged_out), False
    need = count - len(drawn)
    if need > len(source.exchanged_out):
        raise IllegalAction(say("Not enough cards for an exchange of {count}: the stub has "
                                "{stub} and {out} were exchanged out (R-11)", count=count, stub=len(drawn),
                                out=len(source.exchanged_out)))
    pile = list(source.exchanged_out)
    fisher_yates(pile, rng)
    return drawn + tuple(pile[:need]), CardSource(tuple(pile[need:])), True


def exchange(profile: OneOrFiveProfile, box: int, ante: int, cards: Sequence[Card],
             discard: Sequence[Card], source: CardSource, rng: random.Random, *,
             open_box: bool, exchanged_before: bool, holds: int | None = None) -> ExchangeDrawn:
    """Exchange `discard` (cards of the box) for as many from `source` (R-3, R-4, R-11);
    `holds` as for `verify_exchange`."""
    verify_exchange(profile, box, len(discard), open_box=open_box,
                    exchanged_before=exchanged_before, ante=ante, holds=holds)
    ensure_distinct(discard)
    stray = [c.text for c in discard if c not in cards]
    if stray:
        raise IllegalAction(say("Box {box} does not hold {cards}", box=box, cards=" ".join(stray)))
    drawn, left, reshuffled = draw_for_exchange(source, len(discard), rng)
    kept = tuple(c for c in cards if c not in discard)
    fee = exchange_fee(profile, ante)
    if reshuffled:
        reason = say("Exchange of {count}: fee {fee} × {ante} = {paid} to the house (stub ran out: "
                     "exchanged-out cards reshuffled)", count=len(discard), fee=profile.exchange.fee, ante=ante,
                     paid=fee)
    else:
        reason = say("Exchange of {count}: fee {fee} × {ante} = {paid} to the house", count=len(discard),
                     fee=profile.exchange.fee, ante=ante, paid=fee)
    return ExchangeDrawn(
        box, tuple(discard), drawn, kept + drawn, fee,
        CardSource(left.stub, left.exchanged_out + tuple(discard)), reshuffled, reason,
    )


# ----------------------------------------------------------------------- insurance

def insurance_bounds(profile: OneOrFiveProfile, ante: int, hand: Hand) -> tuple[int, int]:
    """Smallest and largest premium for a closed box holding a paid hand: 1x Ante to half the
    Bet's paytable win, rounded down."""
    win = BET_MULTIPLE * ante * profile.payouts.odds(hand.name)
    return ante, win // 2


def insurance_problem(profile: OneOrFiveProfile, ante: int, action: Action, hand: Hand,
                      premium: int) -> Said | None:
    """Why `premium` of insurance cannot stand on this box (0 = none taken), or None."""
    if premium == 0:
        return None
    if premium < 0:
        return say("must be zero or more")
    if not profile.insurance.enabled:
        return say("insurance is not offered at this table")
    if action is not Action.BET:
        return say("a folded box cannot be insured (only a closed box can)")
    least = profile.insurance.min_hand
    if hand.strength < HAND_NAMES.index(least):
        return say("{hand} cannot be insured (needs {least} or better)", hand=hand.said(), least=hand_named(least))
    low, high = insurance_bounds(profile, ante, hand)
    if not low <= premium <= high:
        return say("premium {premium} is outside {low}–{high} (1× Ante to half of the Bet's {hand} win)",
                   premium=premium, low=low, high=high, hand=hand_named(hand.name))
    return None


def verify_insurance(profile: OneOrFiveProfile, box: int, ante: int, action: Action,
                     hand: Hand, premium: int) -> None:
    problem = insurance_problem(profile, ante, action, hand, premium)
    if problem:
        raise IllegalAction(say("Box {box} insurance: {problem} (R-9)", box=box, problem=problem))


def can_insure(profile: OneOrFiveProfile, ante: int, action: Action, hand: Hand) -> bool:
    """Whether the box may take insurance at all (the smallest premium is then 1x Ante)."""
    return insurance_problem(profile, ante, action, hand, ante) is None


def ante_problem(profile: OneOrFiveProfile, ante: int, holds: int | None = None) -> Said | None:
    """Why an Ante is refused at this table, or None. With `holds` (what the player holds beyond
    their other boxes' bets), also the table stakes of R-4: three times the Ante."""
    limits = profile.limits.ante
    if not limits.contains(ante):
        return say("must be within the table limits {low}–{high}", low=limits.min, high=limits.max)
    need = box_needs(ante)
    if holds is not None and need > holds:
        return say("of {ante} needs {need} chips beyond the player's other boxes' bets, the Ante and "
                   "the Bet of {times}× Ante it may need (R-4); the player holds {holds}", ante=ante, need=need,
                   times=BET_MULTIPLE, holds=holds)
    return None


# -------------------------------------------------------------------- settlement (R-6..R-9)

@dataclass(frozen=True, slots=True)
class BoxPlay:
    """One box at the reveal: its Ante, how it ended (R-2), its exchange, premium and cards."""

    box: int
    ante: int
    action: Action
    cards: tuple[Card, ...]
    exchanged: int = 0
    insurance: int = 0

    @property
    def bet(self) -> int:
        return BET_MULTIPLE * self.ante if self.action is Action.BET else 0


@dataclass(frozen=True, slots=True)
class BetResult:
    """One bet's signed result (+won, -lost, 0 push/returned/not made) and why."""

    stake: int
    result: int
    reason: Said


@dataclass(frozen=True, slots=True)
class BoxResult:
    box: int
    hand: Hand
    ante: BetResult
    bet: BetResult
    exchange: BetResult
    insurance: BetResult

    @property
    def bets(self) -> dict[str, BetResult]:
        return {"ante": self.ante, "bet": self.bet, "exchange": self.exchange,
                "insurance": self.insurance}

    @property
    def net(self) -> int:
        return sum(bet.result for bet in self.bets.values())


@dataclass(frozen=True, slots=True)
class Settlement:
    """A settled round; the house (dealer) takes the other side of every box."""

    dealer: Hand
    boxes: tuple[BoxResult, ...]

    @property
    def qualified(self) -> bool:
        return self.dealer.qualifies

    @property
    def dealer_net(self) -> int:
        return -sum(box.net for box in self.boxes)


def box_problem(profile: OneOrFiveProfile, play: BoxPlay) -> tuple[str, Said] | None:
    """The first (field, problem) that makes this box unsettleable, or None."""
    boxes = profile.limits.boxes
    checks: tuple[tuple[str, Said | None], ...] = (
        ("box", None if 1 <= play.box <= boxes else say("the table has boxes 1 to {boxes}", boxes=boxes)),
        ("ante", ante_problem(profile, play.ante)),
        ("exchanged", exchange_problem(profile, play.exchanged)),
        ("insurance", insurance_problem(profile, play.ante, play.action, hand_of(play.cards),
                                        play.insurance)),
    )
    return next(((field, problem) for field, problem in checks if problem), None)


def settle(profile: OneOrFiveProfile, dealer_cards: Sequence[Card],
           plays: Sequence[BoxPlay]) -> Settlement:
    """Settle every box against the dealer's hand (R-6..R-9); refuses the round as a whole."""
    dealer = hand_of(dealer_cards)
    ensure_distinct([*dealer_cards, *(c for play in plays for c in play.cards)])
    numbers = [play.box for play in plays]
    for play in plays:
        if numbers.count(play.box) > 1:
            raise IllegalAction(say("Box {box} is listed twice", box=play.box))
        found = box_problem(profile, play)
        if found:
            raise IllegalAction(_box_refused(play.box, *found))
    return Settlement(dealer, tuple(_settle_box(profile, play, dealer) for play in plays))


def _box_refused(box: int, field: str, problem: Said) -> Said:
    """`Box 2 ante: ...`: the box's field that cannot be settled, and why."""
    if field == "box":
        return say("Box {box} box: {problem}", box=box, problem=problem)
    if field == "ante":
        return say("Box {box} ante: {problem}", box=box, problem=problem)
    if field == "exchanged":
        return say("Box {box} exchanged: {problem}", box=box, problem=problem)
    return say("Box {box} insurance: {problem}", box=box, problem=problem)


_NO_EXCHANGE = BetResult(0, 0, say("Exchange: none"))
_NO_INSURANCE = BetResult(0, 0, say("Insurance: none"))
_NO_BET = BetResult(0, 0, say("Bet: not made (box passed)"))


def exchange_result(profile: OneOrFiveProfile, ante: int, exchanged: int) -> BetResult:
    """R-3: the exchange fee, kept by the house whatever the box does next."""
    fee = exchange_fee(profile, ante) if exchanged else 0
    if not exchanged:
        return _NO_EXCHANGE
    return BetResult(fee, -fee, say("Exchange of {count}: fee {fee} × {ante} = {paid}, kept by the house (R-3)",
                                    count=exchanged, fee=profile.exchange.fee, ante=ante, paid=fee))


def passed_bets(profile: OneOrFiveProfile, ante: int, exchanged: int) -> tuple[BetResult, ...]:
    """R-2: a passed box loses its Ante whatever its cards (ante, bet, exchange, insurance)."""
    return (BetResult(ante, -ante, say("Ante: box passed — {stake} lost (R-2)", stake=ante)), _NO_BET,
            exchange_result(profile, ante, exchanged), _NO_INSURANCE)


def _settle_box(profile: OneOrFiveProfile, play: BoxPlay, dealer: Hand) -> BoxResult:
    hand = hand_of(play.cards)
    ante, bet, premium = play.ante, play.bet, play.insurance
    exchanged = exchange_result(profile, ante, play.exchanged)
    no_insurance = _NO_INSURANCE
    if play.action is Action.FOLD:
        return BoxResult(play.box, hand, *passed_bets(profile, ante, play.exchanged))
    if not dealer.qualifies:
        no_game = say("the dealer has no game ({hand})", hand=dealer.said())
        results = (
            BetResult(ante, ante, say("Ante: {why} — pays 1:1, {stake} (R-6)", why=no_game, stake=ante)),
            BetResult(bet, 0, say("Bet: returned — {why} (R-6)", why=no_game)),
            BetResult(premium, premium, say("Insurance: {why} — pays 1:1, {stake} (R-9)", why=no_game, stake=premium))
            if premium else no_insurance,
        )
    else:
        insured = (BetResult(premium, -premium, say("Insurance: lost — the dealer qualifies with {hand} (R-9)",
                                                    hand=dealer.said())) if premium else no_insurance)
        results = (*_showdown(profile, hand, dealer, ante, bet), insured)
    ante_result, bet_result, insurance = _cap(profile.max_box_payout, *results)
    return BoxResult(play.box, hand, ante_result, bet_result, exchanged, insurance)


def _showdown(profile: OneOrFiveProfile, hand: Hand, dealer: Hand, ante: int,
              bet: int) -> tuple[BetResult, BetResult]:
    """R-7: Ante and Bet of a closed box against a qualified dealer."""
    same = hand.name == dealer.name
    mine, theirs = (hand.described(), dealer.described()) if same else (hand.said(), dealer.said())
    if dealer.value > hand.value:
        why = say("the dealer's {theirs} beats {mine} (R-7)", theirs=theirs, mine=mine)
        return (BetResult(ante, -ante, say("Ante: lost — {why}", why=why)),
                BetResult(bet, -bet, say("Bet: lost — {why}", why=why)))
    if dealer.value == hand.value:
        why = say("Stay: {mine} and the dealer's {theirs} have identical ranks (R-7)", mine=mine, theirs=theirs)
        return (BetResult(ante, 0, say("Ante: returned — {why}", why=why)),
                BetResult(bet, 0, say("Bet: returned — {why}", why=why)))
    if not hand.qualifies:  # pragma: no cover - a qualified dealer beats every plain high card
        raise AssertionError("a high-card box cannot beat a qualified dealer")
    beats = say("{mine} beats the dealer's {theirs}", mine=mine, theirs=theirs)
    odds = profile.payouts.odds(hand.name)
    paid = BetResult(bet, bet * odds, say("Bet: {why} — {stake} × {odds} = {paid} (R-7, R-8)", why=beats, stake=bet,
                                          odds=odds, paid=bet * odds))
    if hand.name in profile.ante_unpaid_hands:
        return BetResult(ante, 0, say("Ante: returned unpaid — {hand} is paid without the Ante (R-7)",
                                      hand=hand_named(hand.name))), paid
    return BetResult(ante, ante, say("Ante: {why} — pays 1:1, {stake} (R-7)", why=beats, stake=ante)), paid


def _cap(cap: int | None, ante: BetResult, bet: BetResult,
         insurance: BetResult) -> tuple[BetResult, BetResult, BetResult]:
    """R-8: the box's winnings (Ante, Bet, insurance) cut to `cap`: the Bet first, then the
    insurance, then the Ante."""
    won = sum(max(r.result, 0) for r in (ante, bet, insurance))
    if cap is None or won <= cap:
        return ante, bet, insurance
    excess = won - cap
    cut: list[BetResult] = []
    for r in (bet, insurance, ante):
        less = min(excess, max(r.result, 0))
        excess -= less
        cut.append(BetResult(r.stake, r.result - less, say("{reason}; cut by {less} to the {cap} maximum payout per "
                                                           "box (R-8)", reason=r.reason, less=less, cap=cap))
                   if less else r)
    return cut[2], cut[0], cut[1]
