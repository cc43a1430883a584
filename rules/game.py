"""A game as its rules know it: one typed object per game, made in the game's package
(`rules/games/<game>/__init__.py`) and listed once in `rules.games.GAMES`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from importlib import import_module
from types import ModuleType

from rules.profiles.base import ProfileBase


class BetRole(StrEnum):
    """What a settlement row's chips are (the roles are told in `rules.bets`)."""

    WAGER = "wager"
    BANK = "bank"
    RAKE = "rake"
    FEE = "fee"
    POOL = "pool"


@dataclass(frozen=True)
class BetType:
    """One kind of settlement row of a game."""

    kind: str
    label: str
    role: BetRole


@dataclass(frozen=True)
class RulesGame:
    """Every part of one game's rules."""

    id: str
    title: str
    default_profile: str
    """The profile a round of this game is settled by when none is named."""
    profile_model: type[ProfileBase]
    bets: tuple[BetType, ...]
    """The game's bet types, each with its label and role."""
    settle: Callable[[], ModuleType]
    """Imports the game's `settle` contract module (it registers its settlers), on first use."""
    simulate: Callable[[], ModuleType] | None = None
    """Imports the game's simulator module (it registers the simulator; it loads NumPy, so only
    `simulate` asks for it); None: the game is not simulated."""
    strategies: tuple[str, ...] = ()
    """The simulator's strategies, its default first (named here, so that `--help` loads no
    simulator; a test holds them to the simulator's own)."""
    simulated_hands: int = 0
    """Hands (deals) `simulate` plays when `--hands` is not given."""


def imported_when_asked(package: str, module: str) -> Callable[[], ModuleType]:
    """A part of a game's package imported on first use (its `settle` module, its simulator)."""
    return lambda: import_module(f"{package}.{module}")
