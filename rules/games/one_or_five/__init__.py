"""Poker "1 or 5" (docs/rules.md R-1..R-12): `rules` the hands, the exchange, insurance and the
settlement, `settle` the `settle` contract, `simulate` the house edge, `profile` the profile
model."""

from __future__ import annotations

from rules.game import RulesGame, imported_when_asked
from rules.games.one_or_five.bets import BETS
from rules.games.one_or_five.profile import OneOrFiveProfile

GAME = RulesGame("one-or-five", 'Poker "1 or 5"', default_profile="one-or-five",
                 profile_model=OneOrFiveProfile, bets=BETS,
                 settle=imported_when_asked(__name__, "settle"), simulate=imported_when_asked(__name__, "simulate"),
                 strategies=("basic", "never-fold"), simulated_hands=1_000_000)
