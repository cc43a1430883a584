"""High Card Flush (docs/rules.md HCF-1..HCF-20): `rules` ranks the hands and holds the rules
around them, `settlement` settles a round with its reasons, `cuts` the caps and the Designated
Player's money, `chips` the same settlement in chips only, `settle` and `settle_brief` the
`settle` contract, `simulate` the house edge, `profile` the profile model."""

from __future__ import annotations

from rules.game import RulesGame, imported_when_asked
from rules.games.high_card_flush.bets import BETS
from rules.games.high_card_flush.profile import HighCardFlushProfile

GAME = RulesGame("high-card-flush", "High Card Flush", default_profile="high-card-flush",
                 profile_model=HighCardFlushProfile, bets=BETS,
                 settle=imported_when_asked(__name__, "settle"), simulate=imported_when_asked(__name__, "simulate"),
                 strategies=("mousseau", "never-fold"), simulated_hands=1_000_000)
