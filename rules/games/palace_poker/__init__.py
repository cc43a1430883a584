"""Palace Poker (docs/rules.md PP-0..PP-18): `rules` the deal and the cards each player holds,
`battle` the turns, bets and battles, `battle_result` who wins a battle, `hand_end` the end of a
hand and the pot's shares, `settle` the `settle` contract, `profile` the profile model."""

from __future__ import annotations

from rules.game import RulesGame, imported_when_asked
from rules.games.palace_poker.bets import BETS
from rules.games.palace_poker.profile import PalacePokerProfile

GAME = RulesGame("palace-poker", "Palace Poker", default_profile="palace-poker",
                 profile_model=PalacePokerProfile, bets=BETS,
                 settle=imported_when_asked(__name__, "settle"))
