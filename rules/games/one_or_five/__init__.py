"""Poker "1 or 5" (docs/rules.md R-1..R-12): `rules` the hands, the exchange, insurance and the
settlement, `settle` the `settle` contract, `simulate` the house edge, `profile` the profile
model."""

from __future__ import annotations

from types import ModuleType

from rules.game import RulesGame
from rules.games.one_or_five.bets import BETS
from rules.games.one_or_five.profile import OneOrFiveProfile


def _settle() -> ModuleType:
    from rules.games.one_or_five import settle

    return settle


def _simulate() -> ModuleType:
    from rules.games.one_or_five import simulate

    return simulate


GAME = RulesGame("one-or-five", 'Poker "1 or 5"', default_profile="one-or-five",
                 profile_model=OneOrFiveProfile, bets=BETS, settle=_settle,
                 simulate=_simulate, strategies=("basic", "never-fold"), simulated_hands=1_000_000)
