"""What every game's simulator shares: random streams per chunk, unbiased dealing, tallies,
confidence intervals, and the runner that spreads chunks over processes.

Reproducibility: the hands are cut into chunks of a fixed size per game, and chunk `i` draws
from its own stream, `SeedSequence(seed, spawn_key=(i,))`. A chunk's hands therefore depend
on the seed and the chunk's number only, never on which process plays it; every count is an
integer, and integer sums do not depend on the order they are added in. So the same seed gives
the same result, to the last digit, with any number of worker processes.
"""

from __future__ import annotations

import math
import signal
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Protocol

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]
CardArray = npt.NDArray[np.int8]
BoolArray = npt.NDArray[np.bool_]

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""
EXACT_SQUARES_BELOW = 11_000_000
"""Per-hand results below this many chips square and sum within int64 over any chunk."""


def chunk_rng(seed: int, chunk: int) -> np.random.Generator:
    """The random stream of one chunk (module docstring)."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(chunk,))))


def chunks(hands: int, size: int) -> list[tuple[int, int]]:
    """(chunk number, hands in it) for `hands` hands cut into chunks of `size` (the last shorter)."""
    return [(i, min(size, hands - start)) for i, start in enumerate(range(0, hands, size))]


def deal(rng: np.random.Generator, hands: int, cards: int) -> CardArray:
    """The first `cards` cards (indices 0..51, `Card.index`) of `hands` independently shuffled
    decks, one row per hand.

    A partial Fisher-Yates shuffle on every row at once: step k swaps position k with a
    position drawn uniformly from k..51. `Generator.integers` draws bounded integers without
    bias (rejection sampling), so every ordered choice of cards is equally likely (C-3).
    """
    deck = np.tile(np.arange(52, dtype=np.int8), (hands, 1))
    rows = np.arange(hands)
    for k in range(cards):
        pick = rng.integers(k, 52, size=hands)
        here = deck[:, k].copy()
        deck[:, k] = deck[rows, pick]
        deck[rows, pick] = here
    return deck[:, :cards].copy()


class Tally:
    """Integer counters by name. Tallies of different chunks add up exactly, in any order."""

    __slots__ = ("counts",)

    def __init__(self, counts: Mapping[str, int] | None = None) -> None:
        self.counts: dict[str, int] = dict(counts or {})

    def add(self, key: str, value: int | np.integer) -> None:
        self.counts[key] = self.counts.get(key, 0) + int(value)

    def add_bet(self, key: str, results: IntArray, stakes: IntArray) -> None:
        """A bet's per-hand results and stakes (chips): the sums `ratio_estimate` needs."""
        self.add(f"{key}.sum", int(results.sum()))
        self.add(f"{key}.sumsq", sum_of_squares(results))
        self.add(f"{key}.stake", int(stakes.sum()))
        self.add(f"{key}.stakesq", sum_of_squares(stakes))
        self.add(f"{key}.cross", cross_sum(results, stakes))

    def add_line(self, key: str, hit: BoolArray, results: IntArray) -> None:
        """One paytable line or outcome: how many hands hit it and their results (`key.n`, `key.won`)."""
        self.add(f"{key}.n", int(np.count_nonzero(hit)))
        self.add(f"{key}.won", int(results[hit].sum()))

    def __getitem__(self, key: str) -> int:
        return self.counts.get(key, 0)

    def __add__(self, other: Tally) -> Tally:
        out = Tally(self.counts)
        for key, value in other.counts.items():
            out.add(key, value)
        return out

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tally) and self.counts == other.counts

    __hash__ = None  # type: ignore[assignment]


def sum_of_squares(results: IntArray) -> int:
    """The exact sum of squares of integer results (Python integers past int64's reach)."""
    if not len(results):
        return 0
    if int(np.abs(results).max()) < EXACT_SQUARES_BELOW:
        return int(np.dot(results, results))
    return sum(int(v) * int(v) for v in results.tolist())


def cross_sum(a: IntArray, b: IntArray) -> int:
    """The exact sum of a * b over hands."""
    if not len(a):
        return 0
    if max(int(np.abs(a).max()), int(np.abs(b).max())) < EXACT_SQUARES_BELOW:
        return int(np.dot(a, b))
    return sum(int(x) * int(y) for x, y in zip(a.tolist(), b.tolist(), strict=True))


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean with its 95% confidence interval."""

    value: float
    low: float
    high: float

    @property
    def ci95(self) -> tuple[float, float]:
        return (self.low, self.high)

    @classmethod
    def exact(cls, x: float) -> Estimate:
        """A figure known exactly (no interval)."""
        return cls(float(x), float(x), float(x))

    def shifted(self, by: float) -> Estimate:
        return Estimate(self.value + by, self.low + by, self.high + by)

    def scaled(self, factor: float) -> Estimate:
        """The estimate times `factor` (a negative factor swaps the bounds)."""
        a, b = self.low * factor, self.high * factor
        return Estimate(self.value * factor, min(a, b), max(a, b))

    def contains(self, x: float) -> bool:
        return self.low <= x <= self.high


def mean_estimate(total: int, sumsq: int, n: int) -> Estimate:
    """Mean of n per-hand results from their sum and sum of squares, normal 95% interval."""
    if n <= 0:
        return Estimate(0.0, 0.0, 0.0)
    mean = total / n
    if n == 1:
        return Estimate(mean, mean, mean)
    spread = (n * sumsq - total * total) / (n * (n - 1))  # exact integers until the division
    half = Z95 * math.sqrt(max(spread, 0.0) / n)
    return Estimate(mean, mean - half, mean + half)


def ratio_estimate(tally: Tally, key: str, n: int) -> Estimate:
    """A bet's return per chip staked, sum(result) / sum(stake), with a 95% interval by the
    delta method (with a constant stake it is the plain mean's interval)."""
    sx, sxx, ss = tally[f"{key}.sum"], tally[f"{key}.sumsq"], tally[f"{key}.stake"]
    sss, sxs = tally[f"{key}.stakesq"], tally[f"{key}.cross"]
    if ss <= 0 or n <= 0:
        return Estimate(0.0, 0.0, 0.0)
    r = sx / ss
    if n == 1:
        return Estimate(r, r, r)
    residual = max(sxx - 2 * r * sxs + r * r * sss, 0.0)
    half = Z95 * math.sqrt(residual * n / (n - 1)) / ss
    return Estimate(r, r - half, r + half)


@dataclass(frozen=True, slots=True)
class HandleSpread:
    """The house's result per chip wagered over all of a round's bets (its hold on handle), and
    the spread of one round's result per chip of its wager: over rounds wagering W1, W2 ... the
    house's result is about `edge` × ΣW, give or take `spread` × √ΣW² (one standard deviation)."""

    edge: float
    spread: float


def handle_spread(tally: Tally, key: str, n: int) -> HandleSpread | None:
    """The house's hold on handle from a bet tallied as the house's result against every chip
    wagered (`Tally.add_bet(key, house_results, wagers)`); None with no hands or nothing wagered."""
    sx, sxx, ss = tally[f"{key}.sum"], tally[f"{key}.sumsq"], tally[f"{key}.stake"]
    sss, sxs = tally[f"{key}.stakesq"], tally[f"{key}.cross"]
    if ss <= 0 or n <= 1:
        return None
    r = sx / ss
    residual = max(sxx - 2 * r * sxs + r * r * sss, 0.0) / (n - 1)
    return HandleSpread(r, math.sqrt(residual) / (ss / n))


def proportion_estimate(hits: int, n: int) -> Estimate:
    """A frequency with its Wilson 95% interval (sound for rare lines too)."""
    if n <= 0:
        return Estimate(0.0, 0.0, 1.0)
    p = hits / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half))


class Job(Protocol):
    """One simulation's fixed inputs; `play` plays one chunk's hands from its stream."""

    def play(self, rng: np.random.Generator, hands: int) -> Tally: ...


Progress = Callable[[int], None]
"""Called with the number of hands just finished."""


def _quiet_worker() -> None:
    """Workers leave Ctrl-C to the parent, which stops the pool (no traceback per worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play_chunk(job: Job, seed: int, chunk: int, hands: int) -> Tally:
    return job.play(chunk_rng(seed, chunk), hands)


def run(job: Job, hands: int, seed: int, chunk_size: int, workers: int = 1,
        progress: Progress | None = None) -> Tally:
    """Play `hands` hands in chunks of `chunk_size`, over `workers` processes, and add up."""
    plan = chunks(hands, chunk_size)
    total = Tally()
    if workers <= 1 or len(plan) <= 1:
        for chunk, count in plan:
            total = total + _play_chunk(job, seed, chunk, count)
            if progress is not None:
                progress(count)
        return total
    # "spawn": a fresh interpreter per worker, safe whatever threads the caller runs.
    with ProcessPoolExecutor(max_workers=min(workers, len(plan)), mp_context=get_context("spawn"),
                             initializer=_quiet_worker) as pool:
        pending: dict[Future[Tally], int] = {}
        queue: Iterable[tuple[int, int]] = iter(plan)
        depth = 2 * workers  # a few chunks in flight per worker keeps them busy and memory low

        def submit(n: int) -> None:
            for chunk, count in queue:
                pending[pool.submit(_play_chunk, job, seed, chunk, count)] = count
                n -= 1
                if n <= 0:
                    return

        submit(depth)
        try:
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    count = pending.pop(future)
                    total = total + future.result()
                    if progress is not None:
                        progress(count)
                submit(len(done))
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    return total
