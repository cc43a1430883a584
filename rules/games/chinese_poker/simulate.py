"""Chinese Poker simulator: point distributions of 2-4 players setting their hands by `suggest`.

Each deal shuffles one deck uniformly (`common.deal`) and deals the four 13-card hands of CP-1;
players 1..N take the first N, the rest are dead. Under each profile, every player sets the
hand `rules.games.chinese_poker.setting.suggest` proposes for that profile (declaring a natural when the
cards hold one, CP-9), the hands are judged and scored pair by pair (CP-5..CP-10; docs/rules.md
revision 2: a fouled hand pays a declared natural the foul penalty plus its points). Reported:
the points a player wins per hand (their distribution, spread and mean), foul, natural and
scoop rates. Points are counted before table stakes (CP-13) and before chips (CP-12); the
house's fee per player per hand (profile `house_fee`, in chips) is the only house edge. One
figure settles the chips too: how often table stakes, settled on the nets (CP-13) with every
player starting the hand at the full buy-in, cut what a player's points are due.

`suggest` takes about 10-15 ms a hand, so this simulator runs about 20 four-player deals a
second per process; use `--workers` for long runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from rules.cards import DECK
from rules.errors import BadInput
from rules.games.chinese_poker.payments import dues_of, pay_table_stakes
from rules.games.chinese_poker.profile import ChinesePokerProfile
from rules.games.chinese_poker.rules import JudgedHand, ScoringTerms, judge, score_table
from rules.games.chinese_poker.setting import suggest
from rules.profiles.base import ProfileBase
from rules.simulate import GameSimulator, Options, register_simulator
from rules.simulate.common import Estimate, Job, Tally, deal, mean_estimate, proportion_estimate
from rules.simulate.report import BetReport, Figure, Line, ProfileReport

GAME_ID = "chinese-poker"
CHUNK = 16
"""Deals per chunk."""
NATURALS = ("dragon", "six pairs", "three flushes", "three straights")
STRATEGIES = {
    "suggest": "every player sets the hand the setting helper suggests for the profile "
               "(rules.games.chinese_poker.setting.suggest) and declares any natural it names",
}


def set_and_judge(seat: int, cards: tuple[int, ...], profile: ChinesePokerProfile, terms: ScoringTerms) -> JudgedHand:
    """One player's hand set by `suggest` (a natural declared when the cards hold one), judged."""
    suggestion = suggest(tuple(DECK[i] for i in cards), profile)
    if suggestion.natural_hand is not None:
        return judge(seat, suggestion.natural_hand, terms, declares_natural=True)
    return judge(seat, suggestion.hand, terms)


def _scoop(a: JudgedHand, b: JudgedHand) -> bool:
    """One of the two won all three rows (CP-6), both hands played row by row."""
    if a.fouled or b.fouled or a.natural is not None or b.natural is not None:
        return False
    signs = {(x > y) - (x < y) for x, y in zip(a.values, b.values, strict=True) if x is not None and y is not None}
    return signs in ({1}, {-1})


@dataclass(frozen=True)
class ChinesePokerJob:
    profiles: tuple[ChinesePokerProfile, ...]
    strategy: str
    players: int

    def play(self, rng: np.random.Generator, hands: int) -> Tally:
        decks = deal(rng, hands, 52).astype(np.int64)
        tally = Tally()
        for row in decks.tolist():
            hands_dealt = [tuple(row[13 * k: 13 * k + 13]) for k in range(self.players)]
            for i, profile in enumerate(self.profiles):
                self._score(tally, str(i), profile, hands_dealt)
        return tally

    @staticmethod
    def _score(tally: Tally, p: str, profile: ChinesePokerProfile, dealt: list[tuple[int, ...]]) -> None:
        terms = ScoringTerms.of(profile)
        judged = [set_and_judge(seat, cards, profile, terms) for seat, cards in enumerate(dealt, start=1)]
        points = score_table(judged, terms).points
        stacks = dict.fromkeys(points, profile.full_buy_in)
        dues = dues_of(points, profile.point_value)
        money = pay_table_stakes(stacks, dues, len(points), profile.house_fee)
        tally.add(f"{p}.stakes_cut", bool(money.unpaid))
        for hand in judged:
            value = points[hand.seat]
            tally.add(f"{p}.points.line.{value}.n", 1)
            tally.add(f"{p}.points.line.{value}.won", value)
            tally.add(f"{p}.abs.sum", abs(value))
            tally.add(f"{p}.abs.sumsq", value * value)
            tally.add(f"{p}.fouls", hand.fouled)
            if hand.natural is not None:
                tally.add(f"{p}.natural.{hand.natural.value}", 1)
        tally.add(f"{p}.seat1.sum", points[1])
        tally.add(f"{p}.seat1.sumsq", points[1] * points[1])
        tally.add(f"{p}.scoops", sum(_scoop(a, b) for a, b in combinations(judged, 2)))


def profile_report(job: ChinesePokerJob, i: int, name: str, tally: Tally, deals: int) -> ProfileReport:
    profile, p = job.profiles[i], str(i)
    seat_hands = deals * job.players
    pairs = deals * job.players * (job.players - 1) // 2
    values = sorted({int(k.split(".")[3]) for k in tally.counts if k.startswith(f"{p}.points.line.") and k.endswith(".n")})
    lines = tuple(
        Line(f"{v:+d} points" if v else "0 points", None, tally[f"{p}.points.line.{v}.n"],
             proportion_estimate(tally[f"{p}.points.line.{v}.n"], seat_hands), v * tally[f"{p}.points.line.{v}.n"] / seat_hands)
        for v in values
    )
    seat1 = mean_estimate(tally[f"{p}.seat1.sum"], tally[f"{p}.seat1.sumsq"], deals)
    spread = mean_estimate(tally[f"{p}.abs.sum"], tally[f"{p}.abs.sumsq"], seat_hands)
    total = sum(v * tally[f"{p}.points.line.{v}.n"] for v in values)  # 0: every point one player wins another pays
    points = BetReport("points", "points a player wins per hand", "player hand",
                       Estimate.exact(total / seat_hands if seat_hands else 0.0), 1.0, lines, unit="points")
    mean_square = tally[f"{p}.abs.sumsq"] / seat_hands if seat_hands else 0.0
    figures = [
        Figure("seat_1_points", "seat 1's points per hand (0 by symmetry)", seat1, "points"),
        Figure("points_won_or_lost", "points changing hands per player hand, |points|", spread, "points"),
        Figure("points_sd", "standard deviation of a player's points per hand", Estimate.exact(mean_square ** 0.5), "points"),
        Figure("foul_rate", "hands fouled (CP-4)", proportion_estimate(tally[f"{p}.fouls"], seat_hands)),
        Figure("scoop_rate", "pairs of players where one wins all three rows (CP-6)",
               proportion_estimate(tally[f"{p}.scoops"], pairs)),
        Figure("stakes_cut_rate",
               "deals where table stakes cut a due, every stack at the full buy-in (CP-13)",
               proportion_estimate(tally[f"{p}.stakes_cut"], deals)),
        *(Figure(f"natural_{n.replace(' ', '_')}", f"natural declared: {n} (CP-9)",
                 proportion_estimate(tally[f"{p}.natural.{n}"], seat_hands)) for n in NATURALS),
    ]
    fee = Estimate.exact(profile.house_fee / profile.point_value)
    main = "the house's fee per player per hand, in points (players play each other)"
    return ProfileReport(name, profile.title, fee, main, (points,), tuple(figures), unit="points")


def make_job(profiles: tuple[ProfileBase, ...], strategy: str, options: Options) -> ChinesePokerJob:
    """The job; four players by default (CP-1 always deals four hands)."""
    ours = tuple(p for p in profiles if isinstance(p, ChinesePokerProfile))
    assert len(ours) == len(profiles), "Chinese Poker profiles only"
    for field, given in (("ante", options.ante), ("bonus", options.bonus)):
        if given is not None:
            raise BadInput(field, "Chinese Poker has no Ante or bonus bets (players score points)")
    players = options.players if options.players is not None else 4
    for profile in ours:
        if not profile.min_players <= players <= profile.max_players:
            raise BadInput("players", f"{players} players: {profile.title} seats "
                           f"{profile.min_players} to {profile.max_players}")
    return ChinesePokerJob(ours, strategy, players)


def read(job: Job, names: Sequence[str], tally: Tally, deals: int) -> tuple[ProfileReport, ...]:
    assert isinstance(job, ChinesePokerJob)
    return tuple(profile_report(job, i, name, tally, deals) for i, name in enumerate(names))


def notes(job: Job) -> tuple[str, ...]:
    assert isinstance(job, ChinesePokerJob)
    return ((f"{job.players} players per deal; points before table stakes (CP-13); every count is per "
            "player hand unless it says pairs"),)


SIMULATOR = register_simulator(GameSimulator(GAME_ID, CHUNK, dict(STRATEGIES), make_job, read, notes, unit="deals"))
