"""Poker "1 or 5" simulator: one box against the dealer, many hands at once with NumPy.

Each simulated round deals 15 cards from a fresh, uniformly shuffled deck (`common.deal`):
the box's 5, the dealer's 5 (the last one face up, R-1) and the top of the stub, which the
box's exchange draws from (R-3, R-11). Five-card hands are valued by `hand_values`, a
vectorised copy of the shared evaluator (the same ints as `rules.evaluator.hand_value`; the
tests check them against each other). The box follows the strategy and is settled by
R-5..R-9 per profile, on the same cards.

`basic` strategy, by hand class, the first that applies; each class takes the action with the
best expected result under the shipped profile (exchange fee 1 Ante; about, in Antes):
1. one pair or better: close (one pair +0.39, exchanging one of its kickers -0.19);
2. four cards to a flush: exchange the odd card (-0.13, passing -1);
3. four cards to an open-ended straight (2-3-4-5 up to T-J-Q-K): exchange the odd card (-0.57);
4. ace-king with a queen or a jack: close (-0.93 and -0.98; with a ten or less -1.04 or worse: pass);
5. the dealer's upcard is a 2 or a 3: exchange all five (-0.89 and -0.93; against higher
   upcards -1.01 to -1.22, so pass);
6. otherwise: pass (-1).
After an exchange, close with one pair or better or with ace-king-queen/jack, else pass. An
exchange the profile does not allow is skipped (the next class applies). `never-fold` closes
every box as dealt. Both insure a closed box for 1x the Ante whenever the profile allows it
(R-9); insurance is reported as its own bet, outside the main game's edge.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from rules.errors import BadInput
from rules.evaluator import CATEGORY_SHIFT, Category
from rules.games.one_or_five.profile import OneOrFiveProfile
from rules.games.one_or_five.rules import BET_MULTIPLE, HAND_NAMES
from rules.profiles.base import ProfileBase
from rules.simulate import GameSimulator, Options, register_simulator
from rules.simulate.common import (
    BoolArray,
    CardArray,
    IntArray,
    Job,
    Tally,
    deal,
    handle_spread,
    proportion_estimate,
)
from rules.simulate.report import BetReport, Figure, LineSpec, ProfileReport, bet_report

GAME_ID = "one-or-five"
CHUNK = 1 << 16

# Five-card values (C-4), vectorised ------------------------------------------------------------

_WHEEL = 0b1_0000_0000_1111
_ACE, _KING, _JACK = 12, 11, 9


def hand_values(cards: CardArray) -> IntArray:
    """The shared evaluator's value of each 5-card row: `category << 20 | five 4-bit rank slots`."""
    ranks = (cards >> 2).astype(np.int64)
    suits = cards & 3
    count = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2)
    key = np.sort(count * 16 + ranks, axis=1)[:, ::-1]  # larger groups first, then higher ranks
    rank = key & 15
    first = np.ones(key.shape, dtype=bool)
    first[:, 1:] = key[:, 1:] != key[:, :-1]
    slot = np.cumsum(first, axis=1) - 1
    slots = np.where(first, (rank + 1) << (4 * (4 - slot)), 0).sum(axis=1)
    distinct = first.sum(axis=1)
    most = key[:, 0] >> 4
    flush = (suits == suits[:, :1]).all(axis=1)
    mask = (1 << ranks).sum(axis=1)
    run = rank[:, 0] - rank[:, 4] == 4
    straight = (distinct == 5) & (run | (mask == _WHEEL))
    top = np.where(run, rank[:, 0], 3)  # the wheel's top card is the 5
    category = np.select(
        [straight & flush, most == 4, (most == 3) & (distinct == 2), flush, straight, most == 3,
         distinct == 3, distinct == 4],
        [Category.STRAIGHT_FLUSH, Category.FOUR_OF_A_KIND, Category.FULL_HOUSE, Category.FLUSH,
         Category.STRAIGHT, Category.THREE_OF_A_KIND, Category.TWO_PAIR, Category.ONE_PAIR],
        Category.HIGH_CARD,
    )
    return np.asarray((category << CATEGORY_SHIFT) | np.where(straight, (top + 1) << 16, slots), dtype=np.int64)


def _slot(values: IntArray, i: int) -> IntArray:
    """Rank + 1 in slot i (0 = the first tie-break rank)."""
    return (values >> (16 - 4 * i)) & 15


def name_indices(values: IntArray) -> IntArray:
    """Each value's position in `HAND_NAMES` (high card, ace-king, one pair ... royal flush)."""
    category = values >> CATEGORY_SHIFT
    ace_king = (category == 0) & (_slot(values, 0) == _ACE + 1) & (_slot(values, 1) == _KING + 1)
    royal = (category == Category.STRAIGHT_FLUSH) & (_slot(values, 0) == _ACE + 1)
    return np.asarray(np.where(category == 0, ace_king, category + 1 + royal), dtype=np.int64)


# The basic strategy ---------------------------------------------------------------------------

CLOSE, EXCHANGE_ONE, EXCHANGE_FIVE, PASS = range(4)
ACTIONS = ("closes as dealt", "exchanges one", "exchanges five", "passes")


def _strong(values: IntArray) -> BoolArray:
    """Worth closing: one pair or better, or ace-king with a queen or a jack."""
    high = (values >> CATEGORY_SHIFT) == 0
    akqj = (_slot(values, 0) == _ACE + 1) & (_slot(values, 1) == _KING + 1) & (_slot(values, 2) >= _JACK + 1)
    return np.asarray(~high | akqj, dtype=bool)


def _open_ended(mask: IntArray) -> BoolArray:
    wide = (mask << 1) | ((mask >> _ACE) & 1)  # bit 0: the ace played low
    hit = np.zeros(len(mask), dtype=bool)
    for low in range(1, 10):  # 2-3-4-5 .. T-J-Q-K: one card completes it at either end
        run = 0b1111 << low
        hit |= (wide & run) == run
    return hit


def draws(cards: CardArray) -> tuple[BoolArray, BoolArray, IntArray]:
    """Four to a flush, four to an open-ended straight, and the position of the odd card."""
    suits, ranks = cards & 3, (cards >> 2).astype(np.int64)
    same_suit = (suits[:, :, None] == suits[:, None, :]).sum(axis=2)
    four_flush = same_suit.max(axis=1) == 4
    odd = np.where(four_flush, np.argmin(same_suit, axis=1), -1)
    mask = (1 << ranks).sum(axis=1)
    straight_odd = np.full(len(cards), -1)
    for k in range(5):
        found = _open_ended(mask & ~(1 << ranks[:, k]))
        straight_odd = np.where((straight_odd < 0) & found, k, straight_odd)
    return four_flush, straight_odd >= 0, np.where(four_flush, odd, straight_odd)


def _basic(values: IntArray, cards: CardArray, upcard: CardArray, counts: Sequence[int]) -> tuple[IntArray, IntArray]:
    flush_draw, straight_draw, odd = draws(cards)
    one, five = 1 in counts, 5 in counts
    made = (values >> CATEGORY_SHIFT) > 0
    low_upcard = (upcard >> 2) <= 1
    action = np.select(
        [made, (flush_draw | straight_draw) & one, _strong(values), low_upcard & five],
        [CLOSE, EXCHANGE_ONE, CLOSE, EXCHANGE_FIVE], PASS)
    return action, np.maximum(odd, 0)


def _never_fold(values: IntArray, cards: CardArray, upcard: CardArray, counts: Sequence[int]) -> tuple[IntArray, IntArray]:
    return np.full(len(values), CLOSE), np.zeros(len(values), dtype=np.int64)


Rule = Callable[[IntArray, CardArray, CardArray, Sequence[int]], tuple[IntArray, IntArray]]
STRATEGIES: dict[str, tuple[str, Rule]] = {
    "basic": (("by hand class: close one pair or better; exchange one to four to a flush or an "
              "open-ended straight; close ace-king-queen/jack; exchange five against a 2 or 3 up; "
              "otherwise pass"), _basic),
    "never-fold": ("close every box as dealt, never exchange", _never_fold),
}


@dataclass(frozen=True, slots=True)
class Plays:
    """What the box does on each hand: its final cards, whether it closed, its exchange."""

    cards: CardArray
    values: IntArray
    closed: BoolArray
    exchanged: IntArray
    """Cards exchanged: 0, 1 or 5."""
    first_action: IntArray


def play_boxes(strategy: str, profile: OneOrFiveProfile, box: CardArray, dealer: CardArray,
               stub: CardArray) -> Plays:
    """The strategy on every hand: the exchange drawn from the stub's top (R-3, R-11), then close or pass."""
    values = hand_values(box)
    action, odd = STRATEGIES[strategy][1](values, box, dealer[:, 4], profile.exchange.counts)
    rows = np.arange(len(box))
    one = box.copy()
    one[rows, odd] = stub[:, 0]
    final = np.where((action == EXCHANGE_ONE)[:, None], one, np.where((action == EXCHANGE_FIVE)[:, None], stub, box))
    final_values = np.where(action == CLOSE, values, hand_values(final))
    exchanged = np.select([action == EXCHANGE_ONE, action == EXCHANGE_FIVE], [1, 5], 0)
    closed = (action == CLOSE) | ((exchanged > 0) & _strong(final_values))
    return Plays(final, final_values, closed, exchanged, action)


# Settling many boxes (R-5..R-9) -----------------------------------------------------------------

PASSED, NO_GAME, WIN, STAY, LOSE = range(5)
OUTCOMES = ("passed", "dealer has no game", "box wins", "stay (identical ranks)", "dealer wins")


@dataclass(frozen=True, slots=True)
class BoxResults:
    """Per-box signed results in chips (docs/settle.md), one entry per hand."""

    ante: IntArray
    bet: IntArray
    exchange: IntArray
    insurance: IntArray
    bet_stake: IntArray
    premium: IntArray
    outcome: IntArray
    name: IntArray
    """The box's final hand, as a position in `HAND_NAMES`."""

    @property
    def main(self) -> IntArray:
        return self.ante + self.bet + self.exchange


def settle_boxes(profile: OneOrFiveProfile, ante: int, plays: Plays, dealer_values: IntArray) -> BoxResults:
    """R-6..R-9 for every box against the dealer's hand; insurance 1x Ante where allowed."""
    name = name_indices(plays.values)
    dealer_name = name_indices(dealer_values)
    odds = np.array([0] + [profile.payouts.odds(n) for n in HAND_NAMES[1:]], dtype=np.int64)
    unpaid = np.isin(name, [HAND_NAMES.index(n) for n in profile.ante_unpaid_hands])
    closed, mine, theirs = plays.closed, plays.values, dealer_values
    outcome = np.select([~closed, dealer_name == 0, mine > theirs, mine == theirs], [PASSED, NO_GAME, WIN, STAY], LOSE)
    bet_stake = np.where(closed, BET_MULTIPLE * ante, 0)
    ante_result = np.select([outcome == PASSED, outcome == LOSE, outcome == STAY, (outcome == WIN) & unpaid],
                            [-ante, -ante, 0, 0], ante)
    bet = np.select([outcome == WIN, outcome == LOSE], [bet_stake * odds[name], -bet_stake], 0)
    insured = closed & profile.insurance.enabled & (name >= HAND_NAMES.index(profile.insurance.min_hand))
    premium = np.where(insured, ante, 0)
    insurance = np.where(outcome == NO_GAME, premium, -premium)
    fee = np.where(plays.exchanged > 0, profile.exchange.fee * ante, 0)
    if profile.max_box_payout is not None:
        ante_result, bet, insurance = _cap(profile.max_box_payout, ante_result, bet, insurance)
    return BoxResults(ante_result, bet, -fee, insurance, bet_stake, premium, outcome, name)


def _cap(cap: int, ante: IntArray, bet: IntArray, insurance: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """R-8: a box's winnings cut to the cap, the Bet first, then the insurance, then the Ante."""
    excess = np.maximum(np.maximum(ante, 0) + np.maximum(bet, 0) + np.maximum(insurance, 0) - cap, 0)
    out = []
    for result in (bet, insurance, ante):
        cut = np.minimum(excess, np.maximum(result, 0))
        excess = excess - cut
        out.append(result - cut)
    return out[2], out[0], out[1]


# The job -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OneOrFiveJob:
    profiles: tuple[OneOrFiveProfile, ...]
    strategy: str
    ante: int

    def play(self, rng: np.random.Generator, hands: int) -> Tally:
        cards = deal(rng, hands, 15)
        box, dealer, stub = cards[:, :5], cards[:, 5:10], cards[:, 10:]
        dealer_values = hand_values(dealer)
        tally = Tally()
        tally.add("deal.dealer_qualifies", np.count_nonzero(name_indices(dealer_values) > 0))
        antes = np.full(hands, self.ante, dtype=np.int64)
        first: BoxResults | None = None
        for i, profile in enumerate(self.profiles):
            p = str(i)
            plays = play_boxes(self.strategy, profile, box, dealer, stub)
            r = settle_boxes(profile, self.ante, plays, dealer_values)
            for a in range(len(ACTIONS)):
                tally.add(f"{p}.action.{a}", np.count_nonzero(plays.first_action == a))
            tally.add(f"{p}.closed", np.count_nonzero(plays.closed))
            tally.add_bet(f"{p}.ante_bet", r.main, antes)
            for o in range(len(OUTCOMES)):
                tally.add_line(f"{p}.ante_bet.line.{o}", r.outcome == o, r.ante + r.bet)
            tally.add_line(f"{p}.ante_bet.line.fee", plays.exchanged > 0, r.exchange)
            tally.add_bet(f"{p}.bet", r.bet, r.bet_stake)
            for n in range(1, len(HAND_NAMES)):
                tally.add_line(f"{p}.bet.line.{n}", (r.bet > 0) & (r.name == n), r.bet)
            tally.add_line(f"{p}.bet.line.push", (r.bet_stake > 0) & (r.bet == 0), r.bet)
            tally.add_line(f"{p}.bet.line.lose", r.bet < 0, r.bet)
            tally.add_bet(f"{p}.insurance", r.insurance, r.premium)
            tally.add_bet(f"{p}.handle", -(r.main + r.insurance), antes + r.bet_stake + r.premium)
            tally.add_line(f"{p}.insurance.line.win", r.insurance > 0, r.insurance)
            tally.add_line(f"{p}.insurance.line.lose", r.insurance < 0, r.insurance)
            if first is not None:
                tally.add_bet(f"{p}.ante_bet.diff", r.main - first.main, antes)
            if first is None:
                first = r
        return tally


def profile_report(job: OneOrFiveJob, i: int, name: str, tally: Tally, hands: int) -> ProfileReport:
    profile, p, ante = job.profiles[i], str(i), job.ante
    main_lines: list[LineSpec] = [(str(o), text, None) for o, text in enumerate(OUTCOMES)]
    main_lines.append(("fee", "exchange fees (R-3)", None))
    bet_lines: list[LineSpec] = [(str(n), HAND_NAMES[n], profile.payouts.odds(HAND_NAMES[n]))
                                 for n in range(len(HAND_NAMES) - 1, 0, -1)]
    bet_lines += [("push", "returned (no game or stay)", None), ("lose", "loses", None)]
    bets: list[BetReport] = [
        bet_report(tally, f"{p}.ante_bet", "Ante + Bet + exchange fee", "Ante", hands, ante, main_lines, paired=i > 0),
        bet_report(tally, f"{p}.bet", "Bet (closed boxes)", "Bet stake", hands, BET_MULTIPLE * ante, bet_lines),
    ]
    if tally[f"{p}.insurance.stake"]:
        bets.append(bet_report(tally, f"{p}.insurance", "Insurance (1x Ante, straight or better)", "premium",
                               hands, ante, [("win", "dealer has no game: pays 1:1", 1), ("lose", "loses", None)]))
    figures = [
        Figure("dealer_qualifies", "dealer qualifies, ace-king or better (R-5)",
               proportion_estimate(tally["deal.dealer_qualifies"], hands)),
        *(Figure(f"action_{k}", f"box {text}", proportion_estimate(tally[f"{p}.action.{k}"], hands))
          for k, text in enumerate(ACTIONS)),
        Figure("closed", "box closed (Bet made)", proportion_estimate(tally[f"{p}.closed"], hands)),
    ]
    return ProfileReport(name, profile.title, bets[0].edge, "Ante + Bet and exchange fees, per Ante",
                         tuple(bets), tuple(figures), handle=handle_spread(tally, f"{p}.handle", hands))


def make_job(profiles: tuple[ProfileBase, ...], strategy: str, options: Options) -> OneOrFiveJob:
    """The job; the Ante defaults to the first profile's table minimum."""
    ours = tuple(p for p in profiles if isinstance(p, OneOrFiveProfile))
    assert len(ours) == len(profiles), '"1 or 5" profiles only'
    if options.players is not None:
        raise BadInput("players", "only Chinese Poker takes a number of players")
    if options.bonus is not None:
        raise BadInput("bonus", 'Poker "1 or 5" has no bonus bets')
    ante = options.ante if options.ante is not None else ours[0].limits.ante.min
    for profile in ours:
        if not profile.limits.ante.contains(ante):
            raise BadInput("ante", f"{ante} is outside the table limits {profile.limits.ante} of {profile.title}")
        if BET_MULTIPLE * ante * profile.payouts.royal_flush > 10**15:
            raise BadInput("ante", f"{ante} could win too much to simulate exactly")
    return OneOrFiveJob(ours, strategy, ante)


def read(job: Job, names: Sequence[str], tally: Tally, hands: int) -> tuple[ProfileReport, ...]:
    assert isinstance(job, OneOrFiveJob)
    return tuple(profile_report(job, i, name, tally, hands) for i, name in enumerate(names))


def notes(job: Job) -> tuple[str, ...]:
    assert isinstance(job, OneOrFiveJob)
    return (f"one box against the dealer each hand, Ante {job.ante} chips; exchanges come from the stub",)


RATED = {"ante": "ante_bet", "bet": None, "exchange": None, "insurance": "insurance"}
"""The box's bets (its settlement rows) -> the reported bet whose edge is theirs: the Bet and the
exchange fee are the strategy's from the box's cards, in the Ante's edge per Ante."""

SIMULATOR = register_simulator(GameSimulator(
    GAME_ID, CHUNK, {name: text for name, (text, _) in STRATEGIES.items()}, make_job, read, notes, rated=RATED))
