"""High Card Flush simulator: many hands at once with NumPy, settled exactly as the rules do.

Each simulated round is one player against the banker: 14 cards from a fresh, uniformly
shuffled deck (`common.deal`), the player's 7 then the banker's 7. Hands are ranked from the
four suits' rank masks through the rules' own key tables (`FLUSH_KEYS`, `RUN_KEYS` of
`rules.games.high_card_flush.rules`), so a vectorised key is the scalar `flush_key` / `straight_flush_key`
by construction. The player follows the strategy, then every bet is settled by HCF-6..HCF-17 or
HCF-20, per profile, on the same cards.

The player makes the Ante and both bonus bets every hand (stakes: `Stakes`).

Card room (`banker: designated_player`): the Designated Player's bank is taken as always
large enough for the hand (HCF-15 and HCF-16 never cut a win or kill a hand); the player pays
the player's rake and the DP the DP's, every round (HCF-17). With more players at the table
each player's expectation against the DP is the same, since every player's cards and the DP's
are a uniformly random pair of 7-card hands.

Bonus caps (HCF-14): the per-hand cap, then the per-round cap (`round_bonus_cap`). A simulated
round holds one hand, so the round's cap is that hand's alone: its bonus winnings are cut to the
per-hand cap, then to the round's, exactly as `high_card_flush_settlement.settle` cuts a round of
one player (tests/test_simulate.py). At a fuller table the hands share the round's cap, and each
later hand may win less, so with a round cap the player's simulated figures are an upper bound
(the banker's edge on the bonus bets a lower bound).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from rules.cards import Rank
from rules.errors import BadInput
from rules.games.high_card_flush.profile import HighCardFlushProfile
from rules.games.high_card_flush.rules import (
    FLUSH_KEYS,
    MIN_FLUSH_BET_LENGTH,
    MIN_STRAIGHT_FLUSH,
    QUALIFYING_KEY,
    RANK_BITS,
    RUN_KEYS,
)
from rules.games.high_card_flush.settlement import Terms, pay_lines, paying_line
from rules.profiles.base import ProfileBase
from rules.simulate import GameSimulator, Options, register_simulator
from rules.simulate.common import (
    BoolArray,
    CardArray,
    Estimate,
    IntArray,
    Job,
    Tally,
    deal,
    handle_spread,
    mean_estimate,
    proportion_estimate,
    ratio_estimate,
)
from rules.simulate.report import Figure, LineSpec, ProfileReport, bet_report

GAME_ID = "high-card-flush"
CHUNK = 1 << 16
"""Hands per chunk (one random stream each)."""

_FLUSH_TABLE = np.array(FLUSH_KEYS, dtype=np.int64)
_RUN_TABLE = np.array(RUN_KEYS, dtype=np.int64)
_SUIT_BIT = np.array([1 << (16 * (i & 3) + (i >> 2)) for i in range(52)], dtype=np.uint64)
_MASK13 = np.uint64((1 << RANK_BITS) - 1)


def suit_masks(cards: CardArray) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """Each hand's rank mask per suit (s h d c); `cards` holds card indices, one hand a row."""
    packed = _SUIT_BIT[cards.astype(np.intp)].sum(axis=1)  # distinct cards: the sum is an OR
    s, h, d, c = (((packed >> np.uint64(16 * suit)) & _MASK13).astype(np.intp) for suit in range(4))
    return s, h, d, c


def hand_keys(cards: CardArray) -> tuple[IntArray, IntArray]:
    """Each hand's flush key (HCF-1..3) and straight-flush key (HCF-12), as the rules define them."""
    s, h, d, c = suit_masks(cards)
    f, r = _FLUSH_TABLE, _RUN_TABLE
    flush = np.maximum(np.maximum(f[s], f[h]), np.maximum(f[d], f[c]))
    run = np.maximum(np.maximum(r[s], r[h]), np.maximum(r[d], r[c]))
    return flush, run


# Strategies ----------------------------------------------------------------------------------

T86_KEY = 3 << RANK_BITS | 1 << Rank.TEN | 1 << Rank.EIGHT | 1 << Rank.SIX
"""The weakest 3-card flush `mousseau` raises: T-8-6."""


def raise_cap(flush: IntArray) -> IntArray:
    """HCF-6: the largest raise in Antes by flush length: 1 (4 cards or fewer), 2 (5), 3 (6-7)."""
    length = flush >> RANK_BITS
    return np.where(length <= 4, 1, np.where(length == 5, 2, 3))


def _mousseau(flush: IntArray) -> IntArray:
    length = flush >> RANK_BITS
    return np.where(length >= 4, raise_cap(flush), np.where((length == 3) & (flush >= T86_KEY), 1, 0))


STRATEGIES: dict[str, tuple[str, Callable[[IntArray], IntArray]]] = {
    "mousseau": (("raise the cap with a 4+ card flush; raise 1x with a 3-card flush of T-8-6 or "
                 "better; otherwise fold"), _mousseau),
    "never-fold": (("raise the cap with every hand (1x with 4 cards or fewer, 2x with 5, 3x with "
                   "6 or 7)"), raise_cap),
}
"""Strategy name -> (description, raise in Antes per hand from its flush key; 0 = fold)."""


# Settling many hands -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Stakes:
    """Chips the player puts on each bet every hand; the Raise follows the strategy."""

    ante: int
    flush: int
    straight_flush: int


FOLD, NO_GAME, WIN, TIE, LOSE = range(5)
OUTCOMES = ("folded", "banker does not qualify", "player wins", "tie", "banker wins")


@dataclass(frozen=True, slots=True)
class HandResults:
    """Per-hand signed results in chips (docs/settle.md), one entry per hand, and how they came."""

    ante: IntArray
    raise_bet: IntArray
    flush: IntArray
    straight_flush: IntArray
    raised: IntArray
    """The Raise staked (0: folded)."""
    outcome: IntArray
    """Main game: FOLD, NO_GAME, WIN, TIE or LOSE."""
    flush_line: IntArray
    """The card count of the Flush paytable line that paid; 0 when none did."""
    straight_flush_line: IntArray
    player_rake: int
    banker_rake: int

    @property
    def main(self) -> IntArray:
        return self.ante + self.raise_bet

    @property
    def bets(self) -> IntArray:
        return self.ante + self.raise_bet + self.flush + self.straight_flush

    @property
    def banker_net(self) -> IntArray:
        """The banker takes the other side of every bet and pays its own rake (HCF-17)."""
        return -self.bets - self.banker_rake


def _lines(table: dict[int, int]) -> tuple[IntArray, IntArray]:
    """By length 0..7: the paying line's card count (0 = none) and its odds (0 = none), as the
    rules' settlement pays them (`paying_line`, `pay_lines`)."""
    odds = pay_lines(table)
    line = [paying_line(table, n) or 0 for n in range(len(odds))]
    return np.array(line, dtype=np.int64), np.array([o or 0 for o in odds], dtype=np.int64)


def _main(stake: int, raised: IntArray, mine: IntArray, banker: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """HCF-8, HCF-9 (and HCF-6: a fold loses the Ante): ante, raise results and the outcome."""
    qualifies = banker >= QUALIFYING_KEY
    outcome = np.select([raised == 0, ~qualifies, mine > banker, mine == banker], [FOLD, NO_GAME, WIN, TIE], LOSE)
    ante = np.select([outcome == FOLD, outcome == LOSE, outcome == TIE], [-stake, -stake, 0], stake)
    raise_bet = np.select([outcome == WIN, outcome == LOSE], [raised, -raised], 0)
    return ante, raise_bet, outcome


def _paid(stake: int, won: BoolArray, length: IntArray, table: dict[int, int]) -> tuple[IntArray, IntArray]:
    """Results and paying line of a bonus bet that wins where `won` (paytable by `length`)."""
    line, odds = _lines(table)
    pays = won & (odds[length] > 0)
    return np.where(pays, stake * odds[length], -stake), np.where(pays, line[length], 0)


def _house_bonus(profile: HighCardFlushProfile, stakes: Stakes, raised: IntArray, mine: tuple[IntArray, IntArray],
                 banker: tuple[IntArray, IntArray]) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """HCF-20: the bonus bets pay by paytable on the player's own hand, folded or not."""
    length, run = mine[0] >> RANK_BITS, mine[1] >> 4
    always = np.ones(len(raised), dtype=bool)
    flush, flush_line = _paid(stakes.flush, always, length, profile.paytables.flush)
    sf, sf_line = _paid(stakes.straight_flush, run >= MIN_STRAIGHT_FLUSH, run, profile.paytables.straight_flush)
    return flush, flush_line, sf, sf_line


def _contest_bonus(profile: HighCardFlushProfile, stakes: Stakes, raised: IntArray, mine: tuple[IntArray, IntArray],
                   banker: tuple[IntArray, IntArray]) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """HCF-11..13: contests against the DP, live only on a raised hand."""
    live = raised > 0
    length, run = mine[0] >> RANK_BITS, mine[1] >> 4
    beats = live & (length >= MIN_FLUSH_BET_LENGTH) & (mine[0] > banker[0])
    flush, flush_line = _paid(stakes.flush, beats, length, profile.paytables.flush)
    flush = np.where(live & (length >= MIN_FLUSH_BET_LENGTH) & (mine[0] == banker[0]), 0, flush)
    sf_wins = live & (run >= MIN_STRAIGHT_FLUSH) & (mine[1] >= banker[1])  # ties go to the player
    sf, sf_line = _paid(stakes.straight_flush, sf_wins, run, profile.paytables.straight_flush)
    return flush, flush_line, sf, sf_line


_BONUS_RULES = {"house": _house_bonus, "designated_player": _contest_bonus}
"""How the bonus bets are judged, by who banks the game."""


def _cap(flush: IntArray, sf: IntArray, cap: int | None) -> tuple[IntArray, IntArray]:
    """HCF-14: each hand's bonus winnings cut to the cap, the Straight Flush winnings first."""
    if cap is None:
        return flush, sf
    excess = np.maximum(np.maximum(flush, 0) + np.maximum(sf, 0) - cap, 0)
    cut = np.minimum(excess, np.maximum(sf, 0))
    return flush - (excess - cut), sf - cut


def settle_hands(profile: HighCardFlushProfile, stakes: Stakes, raised: IntArray,
                 mine: tuple[IntArray, IntArray], banker: tuple[IntArray, IntArray]) -> HandResults:
    """Settle every hand: `raised` in chips (0 = fold, legal by HCF-6), `mine` and `banker`
    the (flush keys, straight-flush keys) of the player's and the banker's hands."""
    ante, raise_bet, outcome = _main(stakes.ante, raised, mine[0], banker[0])
    flush, flush_line, sf, sf_line = _BONUS_RULES[profile.banker](profile, stakes, raised, mine, banker)
    if not stakes.flush:
        flush, flush_line = np.zeros_like(flush), np.zeros_like(flush_line)
    if not stakes.straight_flush:
        sf, sf_line = np.zeros_like(sf), np.zeros_like(sf_line)
    flush, sf = _cap(flush, sf, profile.bonus_cap)
    flush, sf = _cap(flush, sf, profile.round_bonus_cap)  # one hand a round: the cap is its own
    terms = Terms.of(profile)
    return HandResults(ante, raise_bet, flush, sf, raised, outcome, flush_line, sf_line,
                       terms.player_rake, terms.banker_rake)


# The job: one chunk of hands under every profile -------------------------------------------


@dataclass(frozen=True)
class HcfJob:
    """A simulation's fixed inputs: the profiles side by side, the strategy and the stakes."""

    profiles: tuple[HighCardFlushProfile, ...]
    strategy: str
    stakes: Stakes

    def play(self, rng: np.random.Generator, hands: int) -> Tally:
        cards = deal(rng, hands, 14)
        mine, banker = hand_keys(cards[:, :7]), hand_keys(cards[:, 7:])
        multiple = STRATEGIES[self.strategy][1](mine[0])
        raised = multiple * self.stakes.ante
        tally = Tally()
        length = mine[0] >> RANK_BITS
        for n in range(8):
            tally.add(f"deal.flush_length.{n}", np.count_nonzero(length == n))
        for m in range(4):
            tally.add(f"deal.raise.{m}", np.count_nonzero(multiple == m))
        tally.add("deal.banker_qualifies", np.count_nonzero(banker[0] >= QUALIFYING_KEY))
        antes = np.full(hands, self.stakes.ante, dtype=np.int64)
        tally.add_bet("deal.wager", raised + antes, antes)
        first: HandResults | None = None
        for i, profile in enumerate(self.profiles):
            results = settle_hands(profile, self.stakes, raised, mine, banker)
            self._tally(tally, str(i), results, first)
            if first is None:
                first = results
        return tally

    def _tally(self, tally: Tally, p: str, r: HandResults, first: HandResults | None) -> None:
        antes = np.full(len(r.ante), self.stakes.ante, dtype=np.int64)
        for o in range(len(OUTCOMES)):
            tally.add_line(f"{p}.ante_raise.line.{o}", r.outcome == o, r.main)
        bonus = (("flush", r.flush, r.flush_line, self.stakes.flush),
                 ("straight_flush", r.straight_flush, r.straight_flush_line, self.stakes.straight_flush))
        tally.add_bet(f"{p}.ante_raise", r.main, antes)
        for name, results, line, stake in bonus:
            stakes = np.full(len(results), stake, dtype=np.int64)
            tally.add_bet(f"{p}.{name}", results, stakes)
            for n in range(1, 8):
                tally.add_line(f"{p}.{name}.line.{n}", line == n, results)
            tally.add_line(f"{p}.{name}.line.push", (results == 0) & (stakes > 0), results)
            tally.add_line(f"{p}.{name}.line.lose", results < 0, results)
        tally.add_bet(f"{p}.player", r.bets, antes)
        tally.add_bet(f"{p}.handle", -r.bets, antes + r.raised + self.stakes.flush + self.stakes.straight_flush)
        if first is not None:
            tally.add_bet(f"{p}.ante_raise.diff", r.main - first.main, antes)
            for name, results, _, stake in bonus:
                old = first.flush if name == "flush" else first.straight_flush
                tally.add_bet(f"{p}.{name}.diff", results - old, np.full(len(results), stake, dtype=np.int64))


# Reading the tally -----------------------------------------------------------------------------


def _bonus_lines(table: dict[int, int], what: str, pushes: bool) -> list[LineSpec]:
    push: list[LineSpec] = [("push", "push (ties the DP)", None)] if pushes else []
    return [(str(n), f"{n}-card {what}", odds) for n, odds in table.items()] + push + [("lose", "loses", None)]


def profile_report(job: HcfJob, i: int, name: str, tally: Tally, hands: int) -> ProfileReport:
    """Profile number i's figures from the run's tally."""
    profile, p, ante = job.profiles[i], str(i), job.stakes.ante
    paired = i > 0
    main_lines: list[LineSpec] = [(str(o), text, None) for o, text in enumerate(OUTCOMES)]
    bets = [bet_report(tally, f"{p}.ante_raise", "Ante + Raise", "Ante", hands, ante, main_lines, paired=paired)]
    contest = profile.banker == "designated_player"
    bonus = (("flush", "Flush bet", profile.paytables.flush, "flush", contest),
             ("straight_flush", "Straight Flush bet", profile.paytables.straight_flush, "straight flush", False))
    for key, label, table, what, pushes in bonus:
        stake = getattr(job.stakes, key)
        if stake:
            lines = _bonus_lines(table, what, pushes)
            bets.append(bet_report(tally, f"{p}.{key}", label, f"{label} stake", hands, stake, lines, paired=paired))
    figures = [
        Figure("banker_qualifies", "banker qualifies (HCF-7)",
               proportion_estimate(tally["deal.banker_qualifies"], hands)),
        *(Figure(f"flush_length_{n}", f"player's longest flush: {n} cards",
                 proportion_estimate(tally[f"deal.flush_length.{n}"], hands)) for n in range(2, 8)),
        *(Figure(f"raise_{m}x" if m else "fold", f"raises {m}x the Ante" if m else "folds",
                 proportion_estimate(tally[f"deal.raise.{m}"], hands)) for m in range(4)),
        Figure("wager_per_hand", "Ante + Raise staked per hand, in Antes",
               ratio_estimate(tally, "deal.wager", hands), "antes"),
    ]
    if contest:
        terms = Terms.of(profile)
        player = mean_estimate(tally[f"{p}.player.sum"], tally[f"{p}.player.sumsq"], hands).scaled(1 / ante)
        figures += [
            Figure("player_edge_vs_dp", "player against the DP per hand, all bets, in Antes (-: DP's edge)",
                   player, "antes"),
            Figure("player_after_rake", "player per hand after the rake, in Antes",
                   player.shifted(-terms.player_rake / ante), "antes"),
            Figure("rake_player", "rake per player hand (HCF-17)", Estimate.exact(terms.player_rake), "chips"),
            Figure("rake_dp", "rake the DP pays per round (HCF-17)", Estimate.exact(terms.banker_rake), "chips"),
        ]
    return ProfileReport(name, profile.title, bets[0].edge, "Ante + Raise, per Ante (the banker's edge)",
                         tuple(bets), tuple(figures),
                         handle=handle_spread(tally, f"{p}.handle", hands) if profile.house_banked() else None)


# Registration ------------------------------------------------------------------------------------


MAX_RESULT = 10**15
"""The largest one bet may win in a simulated hand (int64 sums stay exact)."""


def make_job(profiles: tuple[ProfileBase, ...], strategy: str, options: Options) -> HcfJob:
    """The job; the Ante defaults to the first profile's table minimum, each bonus stake to the
    Ante (kept within the first profile's Flush bet limits)."""
    hcf = tuple(p for p in profiles if isinstance(p, HighCardFlushProfile))
    assert len(hcf) == len(profiles), "High Card Flush profiles only"
    if options.players is not None:
        raise BadInput("players", "only Chinese Poker takes a number of players")
    ante = options.ante if options.ante is not None else hcf[0].limits.ante.min
    limits = hcf[0].limits.flush
    bonus = options.bonus if options.bonus is not None else min(max(ante, limits.min), limits.max)
    if bonus < 0:
        raise BadInput("bonus", f"must be 0 or more, not {bonus}")
    for profile in hcf:
        if not profile.limits.ante.contains(ante):
            raise BadInput("ante", f"{ante} is outside the table limits {profile.limits.ante} of {profile.title}")
        for label, limits in (("flush", profile.limits.flush), ("straight_flush", profile.limits.straight_flush)):
            if bonus and not limits.contains(bonus):
                raise BadInput("bonus", f"{bonus} is outside the {label} limits {limits} of {profile.title} "
                               "(0: no bonus bets)")
        biggest = max(bonus * max(profile.paytables.flush.values()), bonus * max(profile.paytables.straight_flush.values()))
        if biggest > MAX_RESULT:
            raise BadInput("bonus", f"a bonus bet of {bonus} could win {biggest}, too much to simulate exactly")
    return HcfJob(hcf, strategy, Stakes(ante, bonus, bonus))


def read(job: Job, names: Sequence[str], tally: Tally, hands: int) -> tuple[ProfileReport, ...]:
    assert isinstance(job, HcfJob)
    return tuple(profile_report(job, i, name, tally, hands) for i, name in enumerate(names))


def notes(job: Job) -> tuple[str, ...]:
    assert isinstance(job, HcfJob)
    s = job.stakes
    out = [(f"one player against the banker each hand; Ante {s.ante}, Flush bet {s.flush}, "
           f"Straight Flush bet {s.straight_flush} chips every hand")]
    if any(p.banker == "designated_player" for p in job.profiles):
        out.append("card room: the Designated Player's bank always covers the hand (HCF-15, HCF-16 never "
                   "cut a win); the player's edge against the DP is the same at a full table")
    if any(p.round_bonus_cap is not None for p in job.profiles):
        out.append("round bonus cap (HCF-14): a simulated round has one hand, which has the cap to "
                   "itself; at a fuller table the hands share it, so the player's bonus figures are an "
                   "upper bound")
    return tuple(out)


RATED = {"ante": "ante_raise", "raise": None, "flush": "flush", "straight_flush": "straight_flush"}
"""The round's bets (HCF settlement rows) -> the reported bet whose edge is theirs: the Raise is
the strategy's from the Ante's cards, in the Ante's edge per Ante."""

SIMULATOR = register_simulator(GameSimulator(
    GAME_ID, CHUNK, {name: text for name, (text, _) in STRATEGIES.items()}, make_job, read, notes, rated=RATED))
