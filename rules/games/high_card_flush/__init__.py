"""High Card Flush (docs/rules.md HCF-1..HCF-20): `rules` ranks the hands and holds the rules
around them, `settlement` settles a round with its reasons, `cuts` the caps and the Designated
Player's money, `chips` the same settlement in chips only, `settle` and `settle_brief` the
`settle` contract, `simulate` the house edge, `profile` the profile model."""

from __future__ import annotations

from types import ModuleType

from rules.game import RulesGame
from rules.games.high_card_flush.bets import BETS
from rules.games.high_card_flush.profile import HighCardFlushProfile


def _settle() -> ModuleType:
    from rules.games.high_card_flush import settle

    return settle


def _simulate() -> ModuleType:
    from rules.games.high_card_flush import simulate

    return simulate


GAME = RulesGame("high-card-flush", "High Card Flush", default_profile="high-card-flush",
                 profile_model=HighCardFlushProfile, bets=BETS, settle=_settle,
                 simulate=_simulate, strategies=("mousseau", "never-fold"), simulated_hands=1_000_000)
