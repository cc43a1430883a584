"""House-edge simulation: play many seeded hands of a game under one or more profiles.

Each game's simulator module (`rules/games/<game>/simulate.py`) registers a `GameSimulator` for its id; games
are found by id (`rules.registry`), never by name checks. `simulate` checks the request, plays the
hands in fixed-size chunks with one random stream per chunk (`common.run`) and returns a
`SimulationReport`. Bad input raises `BadInput(field, problem)` naming the option
(`strategy`, `profile`, `hands`, `seed`, `workers`, `ante`, `bonus`, `players`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from rules.errors import BadInput
from rules.profiles.base import ProfileBase
from rules.profiles.loader import LoadedProfile
from rules.registry import game, games
from rules.simulate.common import Job, Progress, Tally, run
from rules.simulate.report import ProfileReport, SimulationReport

MAX_HANDS = 10**10


@dataclass(frozen=True, slots=True)
class Options:
    """Stakes and table size; None: the game's default (each game says which it takes)."""

    ante: int | None = None
    bonus: int | None = None
    players: int | None = None


@dataclass(frozen=True)
class GameSimulator:
    """How one game is simulated."""

    game: str
    chunk: int
    """Hands per chunk, fixed: it decides which random stream deals which hand."""
    strategies: dict[str, str]
    """Strategy name -> what the player does; the first is the default."""
    make_job: Callable[[tuple[ProfileBase, ...], str, Options], Job]
    """The job for these profiles, strategy and options (`BadInput` for a bad option)."""
    read: Callable[[Job, Sequence[str], Tally, int], tuple[ProfileReport, ...]]
    """Every profile's report from the run's tally and the number of hands."""
    notes: Callable[[Job], tuple[str, ...]]
    """Assumptions of the simulation worth printing under its figures."""
    unit: str = "hands"
    """What one simulated item is (`hands`, `deals`)."""
    rated: Mapping[str, str | None] = field(default_factory=dict)
    """A round's bets, as its settlement rows name them -> the reported bet whose house edge per
    chip staked is theirs. None: a bet the strategy makes on another's cards (a Raise on the
    Ante's), whose result that bet's edge (per its own stake) already counts."""

    @property
    def default_strategy(self) -> str:
        return next(iter(self.strategies))


_SIMULATORS: dict[str, GameSimulator] = {}


def register_simulator(sim: GameSimulator) -> GameSimulator:
    _SIMULATORS[sim.game] = sim
    return sim


def simulator(game_id: str, field: str = "game") -> GameSimulator:
    """The simulator of a game, or `BadInput` naming the games that have one."""
    info = game(game_id, field)
    if info.simulate is not None and info.id not in _SIMULATORS:
        info.simulate()
    found = _SIMULATORS.get(info.id)
    if found is None:
        raise BadInput(field, f"{info.id} cannot be simulated (games: {', '.join(simulated_games())})")
    return found


def simulated_games() -> tuple[str, ...]:
    return tuple(g.id for g in games().values() if g.simulate is not None)


def check_request(sim: GameSimulator, profiles: Sequence[LoadedProfile], strategy: str, hands: int,
                  seed: int, workers: int) -> None:
    """Every problem with a simulation request, before anything is played."""
    if strategy not in sim.strategies:
        raise BadInput("strategy", f"unknown strategy {strategy!r} for {sim.game} (known: {', '.join(sim.strategies)})")
    if not profiles:
        raise BadInput("profile", "at least one profile is needed")
    for loaded in profiles:
        if loaded.game != sim.game:
            raise BadInput("profile", f"{loaded.name!r} is a {loaded.game} profile, not {sim.game}")
    if not 1 <= hands <= MAX_HANDS:
        raise BadInput("hands", f"must be 1 to {MAX_HANDS:,}, not {hands}")
    if seed < 0:
        raise BadInput("seed", f"must be 0 or more, not {seed}")
    if workers < 1:
        raise BadInput("workers", f"must be 1 or more, not {workers}")


@dataclass(frozen=True)
class Plan:
    """A checked simulation request, ready to run."""

    sim: GameSimulator
    names: tuple[str, ...]
    strategy: str
    hands: int
    seed: int
    workers: int
    job: Job


def plan(game_id: str, profiles: Sequence[LoadedProfile], strategy: str | None, hands: int, seed: int, *,
         workers: int = 1, options: Options = Options()) -> Plan:
    """Check a request (`BadInput` for the first problem) and build its job; nothing is played."""
    sim = simulator(game_id)
    chosen = strategy if strategy is not None else sim.default_strategy
    check_request(sim, profiles, chosen, hands, seed, workers)
    job = sim.make_job(tuple(p.profile for p in profiles), chosen, options)
    return Plan(sim, tuple(p.name for p in profiles), chosen, hands, seed, workers, job)


def execute(p: Plan, progress: Progress | None = None) -> SimulationReport:
    """Play a plan's hands (`progress` hears of each finished chunk) and report."""
    tally = run(p.job, p.hands, p.seed, p.sim.chunk, p.workers, progress)
    reports = p.sim.read(p.job, p.names, tally, p.hands)
    return SimulationReport(p.sim.game, p.strategy, p.sim.strategies[p.strategy], p.hands, p.seed, reports,
                            p.sim.notes(p.job))


def simulate(game_id: str, profiles: Sequence[LoadedProfile], strategy: str | None, hands: int, seed: int, *,
             workers: int = 1, options: Options = Options(), progress: Progress | None = None) -> SimulationReport:
    """Play `hands` seeded hands (deals for Chinese Poker) under each profile, side by side."""
    return execute(plan(game_id, profiles, strategy, hands, seed, workers=workers, options=options), progress)
