"""What a simulation reports, as value objects: per profile the house edge of the main game,
each bet's edge with the hit frequency and return of every paytable line, and named figures
(qualifying rate, flush-length distribution, rake ...), each with its 95% interval.

`SimulationReport.to_dict()` is the `--json` line of `dealer-tui simulate`: the first profile's
figures at the top level (`game`, `profile`, `strategy`, `hands`, `house_edge`, `ci95`, `bets`),
and with several profiles every profile's figures, in order, under `profiles`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.simulate.common import Estimate, HandleSpread, Tally, proportion_estimate, ratio_estimate

ROUND = 8
"""Decimal places of the fractions in the JSON output."""


def _r(x: float) -> float:
    return round(x, ROUND)


def _ci(e: Estimate) -> list[float]:
    return [_r(e.low), _r(e.high)]


@dataclass(frozen=True, slots=True)
class Line:
    """One paytable line (or outcome) of a bet: how often it happened and what it returned."""

    label: str
    odds: int | None
    """The line's odds "to 1"; None for an outcome that is not a paytable line (push, loss)."""
    hits: int
    frequency: Estimate
    """Per hand played."""
    contribution: float
    """Chips the line returned (won, or lost when negative) per chip staked on the bet."""

    def to_dict(self) -> dict[str, Any]:
        return {"line": self.label, "odds": self.odds, "hits": self.hits,
                "frequency": _r(self.frequency.value), "frequency_ci95": _ci(self.frequency),
                "contribution": _r(self.contribution)}


@dataclass(frozen=True, slots=True)
class BetReport:
    """One bet: the house edge per unit staked on it, and its lines."""

    key: str
    label: str
    per: str
    """What the edge is measured per, in words ("Ante", "Flush bet stake")."""
    edge: Estimate
    stake_per_hand: float
    """Average chips staked on the bet per hand, in units of `per` (1.0 for a fixed stake)."""
    lines: tuple[Line, ...]
    difference: Estimate | None = None
    """This edge minus the first profile's, on the same hands (paired), when comparable."""
    unit: str = "fraction"
    """What `edge` and the lines' `contribution` count: a fraction of the stake, or `points`."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "label": self.label, "per": self.per, "edge": _r(self.edge.value), "ci95": _ci(self.edge),
            "stake_per_hand": _r(self.stake_per_hand), "unit": self.unit,
            "lines": [line.to_dict() for line in self.lines],
        }
        if self.difference is not None:
            out["vs_first"] = {"difference": _r(self.difference.value), "ci95": _ci(self.difference)}
        return out


@dataclass(frozen=True, slots=True)
class Figure:
    """A named figure with its interval: a frequency, chips per hand, points per hand."""

    key: str
    label: str
    value: Estimate
    unit: str = "fraction"

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "value": _r(self.value.value), "ci95": _ci(self.value),
                "unit": self.unit}


@dataclass(frozen=True, slots=True)
class ProfileReport:
    """Everything measured for one profile on the simulated hands."""

    profile: str
    title: str
    house_edge: Estimate
    """The house's (or the banker's) edge on the main game per unit of initial wager."""
    main: str
    """What `house_edge` covers, in words."""
    bets: tuple[BetReport, ...]
    figures: tuple[Figure, ...]
    unit: str = "fraction"
    """What `house_edge` counts: a fraction of the initial wager, or `points` per player hand."""
    handle: HandleSpread | None = None
    """A house-banked game's hold on every chip wagered, with its spread per round (None: the
    house does not bank the game)."""

    def bet(self, key: str) -> BetReport:
        return next(b for b in self.bets if b.key == key)

    def figure(self, key: str) -> Figure:
        return next(f for f in self.figures if f.key == key)

    def to_dict(self) -> dict[str, Any]:
        return {
            "profile": self.profile, "title": self.title,
            "house_edge": _r(self.house_edge.value), "ci95": _ci(self.house_edge), "main_game": self.main,
            "unit": self.unit,
            "bets": {b.key: b.to_dict() for b in self.bets},
            "figures": {f.key: f.to_dict() for f in self.figures},
        }


@dataclass(frozen=True, slots=True)
class SimulationReport:
    """One simulation: the same hands played under each profile, side by side."""

    game: str
    strategy: str
    strategy_text: str
    hands: int
    seed: int
    profiles: tuple[ProfileReport, ...]
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        first = self.profiles[0].to_dict()
        out: dict[str, Any] = {"game": self.game, "profile": first.pop("profile"), "strategy": self.strategy,
                               "hands": self.hands, "seed": self.seed, **first}
        if len(self.profiles) > 1:
            out["profiles"] = [p.to_dict() for p in self.profiles]
        out["notes"] = list(self.notes)
        return out


# Building reports from tallies ---------------------------------------------------------------

LineSpec = tuple[str, str, int | None]
"""(tally key of the line, label, odds or None)."""


def bet_report(tally: Tally, key: str, label: str, per: str, hands: int, unit: int,
               lines: Sequence[LineSpec], *, house: bool = True, paired: bool = False) -> BetReport:
    """A bet from its tally under `key` (see `Tally.add_bet`, `Tally.add_line`).

    `unit`: chips of one unit of `per` (the edge is per chip staked, so this only scales
    `stake_per_hand`). `house`: the edge is the house's (minus the player's return).
    `paired`: the tally holds `key.diff`, this profile's results minus the first profile's.
    """
    sign = -1.0 if house else 1.0
    staked = tally[f"{key}.stake"]
    found = tuple(
        Line(text, odds, tally[f"{key}.line.{line}.n"], proportion_estimate(tally[f"{key}.line.{line}.n"], hands),
             tally[f"{key}.line.{line}.won"] / staked if staked else 0.0)
        for line, text, odds in lines
    )
    difference = ratio_estimate(tally, f"{key}.diff", hands).scaled(sign) if paired else None
    per_hand = staked / hands / unit if hands and unit else 0.0
    return BetReport(key.split(".", 1)[-1], label, per, ratio_estimate(tally, key, hands).scaled(sign),
                     per_hand, found, difference)
