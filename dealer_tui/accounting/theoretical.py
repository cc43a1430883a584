"""The house edge a shift's theoretical win is taken from: simulated once per profile text, for a
stated strategy, and kept in a cache file beside the user's others.

A house-banked game's edge is its hold on handle (the house's result per chip wagered, all bets
together) with the spread of one round's result per chip of its wager. A card room's revenue is
the rake and fees the rounds take, which chance does not move: its theoretical win is what the
rounds took.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

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

    def to_dict(self) -> dict[str, object]:
        return {"edge": self.edge, "spread": self.spread, "strategy": self.strategy, "hands": self.hands,
                "seed": self.seed}


class Theory:
    """House edges by profile text (sha256), simulated when first asked for and cached."""

    def __init__(self, cache: Path | None, hands: int = THEORY_HANDS, seed: int = THEORY_SEED) -> None:
        self.cache, self.hands, self.seed = cache, hands, seed
        self._known: dict[str, Edge | None] = {}
        self.problems: list[str] = []
        self._read()

    def _read(self) -> None:
        if self.cache is None:
            return
        try:
            data = json.loads(self.cache.read_text(encoding="utf-8"))
            for sha, entry in data.items():
                if isinstance(entry, dict) and entry.get("hands") == self.hands and entry.get("seed") == self.seed:
                    self._known[str(sha)] = Edge(float(entry["edge"]), float(entry["spread"]),
                                                 str(entry["strategy"]), self.hands, self.seed)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return  # no cache, or one that does not read: the edges are simulated again

    def _write(self) -> None:
        if self.cache is None:
            return
        data = {sha: e.to_dict() for sha, e in self._known.items() if e is not None}
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
        if loaded.sha256 in self._known:
            return self._known[loaded.sha256]
        try:
            sim = simulator(loaded.game)
            report = simulate(loaded.game, [loaded], sim.default_strategy, self.hands, self.seed)
        except RulesError as exc:
            self.problems.append(f"profile {loaded.name!r}: no house edge ({exc})")
            self._known[loaded.sha256] = None
            return None
        handle = report.profiles[0].handle
        found = None if handle is None else Edge(handle.edge, handle.spread, report.strategy, self.hands, self.seed)
        self._known[loaded.sha256] = found
        self._write()
        return found
