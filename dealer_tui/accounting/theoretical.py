"""The house edge a shift's theoretical win is taken from: simulated once per profile text, for a
stated strategy, and kept in a cache file beside the user's others.

A house-banked game's theoretical win is each bet's stake times the house's edge per chip staked
on that bet type (the Ante's, which counts the Raise or the Bet the strategy makes on it; a bonus
bet's own), as the game's simulator reports them (`GameSimulator.rated`); a bet the simulator
does not rate takes the hold on handle (the house's result per chip wagered, all bets together).
The spread of one round's result per chip of its wager gives the band chance allows. A card
room's revenue is the rake and fees the rounds take, which chance does not move: its theoretical
win is what the rounds took.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dealer_tui import __version__
from dealer_tui.language import _, current
from dealer_tui.rounds.game import Games
from rules.bets import banker_kinds
from rules.errors import RulesError
from rules.profiles.loader import LoadedProfile
from rules.said import say
from rules.simulate import simulate, simulator

THEORY_HANDS = 400_000
THEORY_SEED = 2026


@dataclass(frozen=True)
class Edge:
    """A profile's house edges by the simulator (per bet type, and its hold on handle), with how
    they were made."""

    edge: float
    spread: float
    strategy: str
    hands: int
    seed: int
    assumes: str = ""
    """The bets the simulated player makes (the simulator's notes): what the edges are for."""
    bets: Mapping[str, float | None] = field(default_factory=dict)
    """Per bet type, as a round's settlement rows name it: the house's edge per chip staked on it.
    None: a bet the strategy makes on another's cards (the Raise on the Ante's), whose result that
    bet's edge already counts."""

    def on(self, bet: str, stake: int) -> float:
        """The theoretical win on `stake` chips of `bet`: its bet type's edge; the hold on handle
        for a bet type the simulator does not rate."""
        if bet not in self.bets:
            return self.edge * stake
        per = self.bets[bet]
        return 0.0 if per is None else per * stake

    def theoretical(self, stakes: Mapping[str, int]) -> float:
        """The theoretical win on a round's (or one seat's) chips staked, by bet (a bank or a
        rake is no wager)."""
        return sum(self.on(bet, stake) for bet, stake in stakes.items() if bet not in banker_kinds())

    def basis(self) -> str:
        """The edges in words, in the reader's language (the bets by their codes): "ante × 3.25%,
        flush × 4.10% per chip staked (the raise counted in the ante's); any other bet × 3.90% hold
        on handle"."""
        percent = current().percent
        rated = [(bet, per) for bet, per in self.bets.items() if per is not None]
        if not rated:
            return _("every bet × {edge} hold on handle", edge=percent(self.edge, 2))
        within = [bet for bet, per in self.bets.items() if per is None]
        each = ", ".join(f"{bet} × {percent(per, 2)}" for bet, per in rated)
        if within:
            inside = within[0]
            for bet in within[1:]:
                inside = _("{bets} and {bet}", bets=inside, bet=bet)
            return _("{edges} per chip staked (the {within} counted in the {bet}'s); any other bet × {edge} hold on "
                     "handle", edges=each, within=inside, bet=rated[0][0], edge=percent(self.edge, 2))
        return _("{edges} per chip staked; any other bet × {edge} hold on handle", edges=each,
                 edge=percent(self.edge, 2))

    def to_dict(self) -> dict[str, object]:
        return {"edge": self.edge, "spread": self.spread, "strategy": self.strategy, "hands": self.hands,
                "seed": self.seed, "assumes": self.assumes, "bets": dict(self.bets)}


def _fraction(x: object) -> bool:
    return isinstance(x, float) and math.isfinite(x) and -1.0 <= x <= 1.0


def _sound(edge: Edge) -> bool:
    """Edges a simulation could give: between −100% and +100% (a bet's, or none), a spread of zero
    or more, a strategy's name."""
    return (_fraction(edge.edge) and math.isfinite(edge.spread) and edge.spread >= 0
            and edge.strategy.replace("-", "_").isidentifier()
            and all(isinstance(bet, str) and (per is None or _fraction(per)) for bet, per in edge.bets.items()))


def _bets(entry: object) -> dict[str, float | None]:
    """A cached entry's edges per bet type (`ValueError` if it has none that read)."""
    found = entry.get("bets") if isinstance(entry, dict) else None
    if not isinstance(found, dict):
        raise ValueError("no edges per bet type")
    return {str(bet): None if per is None else float(per) for bet, per in found.items()}


class Theory:
    """House edges by profile text (sha256), simulated when first asked for and cached."""

    def __init__(self, games: Games[Any], cache: Path | None, hands: int = THEORY_HANDS, seed: int = THEORY_SEED) -> None:
        self.games = games
        """The games the ledger's tables play: their rounds say what a round of each game did."""
        self.cache, self.hands, self.seed = cache, hands, seed
        self._known: dict[str, Edge | None] = {}
        self._all: dict[str, object] = {}
        """Every entry the cache file holds (other terms' too: they are kept as they were)."""
        self.problems: list[str] = []
        """What kept a house edge from being known or cached: sentences (`rules.said`), told in
        the reader's language where they are shown."""
        self._read()

    def cache_key(self, sha: str) -> str:
        """What a profile text's edges are cached under: its sha256 and this run's terms."""
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
                            int(seed), str(entry.get("assumes", "")), _bets(entry))
            except (ValueError, KeyError, TypeError, AttributeError):
                continue
            if (int(hands), int(seed), version) == (self.hands, self.seed, __version__) and _sound(edge):
                self._known[sha] = edge
        self._all = {k: v for k, v in data.items() if isinstance(k, str)}

    def _write(self) -> None:
        if self.cache is None:
            return
        data = {**self._all, **{self.cache_key(sha): e.to_dict() for sha, e in self._known.items() if e is not None}}
        try:
            self.cache.parent.mkdir(parents=True, exist_ok=True)
            part = self.cache.with_name(self.cache.name + ".part")
            part.write_text(json.dumps(data, sort_keys=True), encoding="utf-8")
            os.replace(part, self.cache)
        except OSError as exc:
            self.problems.append(say("the house edges were not cached ({file}: {problem})", file=str(self.cache),
                                     problem=exc.strerror or str(exc)))

    def edge(self, loaded: LoadedProfile) -> Edge | None:
        """The profile's house edges (None: the house does not bank the game)."""
        if not loaded.profile.house_banked():
            return None
        try:
            sim = simulator(loaded.game)
        except RulesError as exc:
            self.problems.append(say("profile {profile}: no house edge ({problem})", profile=repr(loaded.name),
                                     problem=exc.said))
            return None
        known = self._known.get(loaded.sha256)
        if loaded.sha256 in self._known and (known is None or known.strategy in sim.strategies):
            return known
        try:
            report = simulate(loaded.game, [loaded], sim.default_strategy, self.hands, self.seed)
        except RulesError as exc:
            self.problems.append(say("profile {profile}: no house edge ({problem})", profile=repr(loaded.name),
                                     problem=exc.said))
            self._known[loaded.sha256] = None
            return None
        profile = report.profiles[0]
        reported = {b.key: b.edge.value for b in profile.bets}
        bets = {bet: None if key is None else reported[key] for bet, key in sim.rated.items()
                if key is None or key in reported}
        handle = profile.handle
        found = None if handle is None else Edge(handle.edge, handle.spread, report.strategy, self.hands, self.seed,
                                                 "; ".join(report.notes), bets)
        self._known[loaded.sha256] = found
        self._write()
        return found
