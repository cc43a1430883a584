"""The house edge a shift's theoretical win is taken from: simulated once per profile text, for a
stated strategy, and kept in a cache file beside the user's others.

A house-banked game's edge is its hold on handle (the house's result per chip wagered, all bets
together) with the spread of one round's result per chip of its wager. A card room's revenue is
the rake and fees the rounds take, which chance does not move: its theoretical win is what the
rounds took.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from pathlib import Path

from dealer_tui import __version__
from rules.errors import RulesError
from rules.profiles.loader import LoadedProfile
from rules.simulate import simulate, simulator

THEORY_HANDS = 400_000
THEORY_SEED = 2026


@dataclass(frozen=True)
class Edge:
    """A profile's hold on handle by the simulator, with how it was made."""

    edge: float
    spread: float
    strategy: str
    hands: int
    seed: int
    assumes: str = ""
    """The bets the simulated player makes (the simulator's notes): what the hold on handle is for."""

    def to_dict(self) -> dict[str, object]:
        return {"edge": self.edge, "spread": self.spread, "strategy": self.strategy, "hands": self.hands,
                "seed": self.seed, "assumes": self.assumes}


def _sound(edge: Edge) -> bool:
    """An edge a simulation could give: a hold between −100% and +100%, a spread of zero or more."""
    return (math.isfinite(edge.edge) and math.isfinite(edge.spread) and -1.0 <= edge.edge <= 1.0
            and edge.spread >= 0 and edge.strategy.isidentifier())


class Theory:
    """House edges by profile text (sha256), simulated when first asked for and cached."""

    def __init__(self, cache: Path | None, hands: int = THEORY_HANDS, seed: int = THEORY_SEED) -> None:
        self.cache, self.hands, self.seed = cache, hands, seed
        self._known: dict[str, Edge | None] = {}
        self._all: dict[str, object] = {}
        """Every entry the cache file holds (other terms' too: they are kept as they were)."""
        self.problems: list[str] = []
        self._read()

    def _key(self, sha: str) -> str:
        return f"{sha}:{self.hands}:{self.seed}:{__version__}"

    def _read(self) -> None:
        """The cached edges of this run's terms (hands, seed, version); an entry that does not read
        as an edge a simulation could give is passed over (simulated again)."""
        if self.cache is None:
            return
        try:
            data = json.loads(self.cache.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return  # no cache, or one that does not read: the edges are simulated again
        if not isinstance(data, dict):
            return
        for key, entry in data.items():
            try:
                sha, hands, seed, version = str(key).split(":")
                edge = Edge(float(entry["edge"]), float(entry["spread"]), str(entry["strategy"]), int(hands),
                            int(seed), str(entry.get("assumes", "")))
            except (ValueError, KeyError, TypeError, AttributeError):
                continue
            if (int(hands), int(seed), version) == (self.hands, self.seed, __version__) and _sound(edge):
                self._known[sha] = edge
        self._all = {k: v for k, v in data.items() if isinstance(k, str)}

    def _write(self) -> None:
        if self.cache is None:
            return
        data = {**self._all, **{self._key(sha): e.to_dict() for sha, e in self._known.items() if e is not None}}
        try:
            self.cache.parent.mkdir(parents=True, exist_ok=True)
            part = self.cache.with_name(self.cache.name + ".part")
            part.write_text(json.dumps(data, sort_keys=True), encoding="utf-8")
            os.replace(part, self.cache)
        except OSError as exc:
            self.problems.append(f"the house edges were not cached ({self.cache}: {exc.strerror or exc})")

    def edge(self, loaded: LoadedProfile) -> Edge | None:
        """The profile's hold on handle (None: the house does not bank the game)."""
        if not loaded.profile.house_banked():
            return None
        try:
            sim = simulator(loaded.game)
        except RulesError as exc:
            self.problems.append(f"profile {loaded.name!r}: no house edge ({exc})")
            return None
        known = self._known.get(loaded.sha256)
        if loaded.sha256 in self._known and (known is None or known.strategy in sim.strategies):
            return known
        try:
            report = simulate(loaded.game, [loaded], sim.default_strategy, self.hands, self.seed)
        except RulesError as exc:
            self.problems.append(f"profile {loaded.name!r}: no house edge ({exc})")
            self._known[loaded.sha256] = None
            return None
        handle = report.profiles[0].handle
        found = None if handle is None else Edge(handle.edge, handle.spread, report.strategy, self.hands, self.seed,
                                                 "; ".join(report.notes))
        self._known[loaded.sha256] = found
        self._write()
        return found
