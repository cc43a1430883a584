"""Chinese Poker (docs/rules.md CP-1..CP-15): `rules` the rows, fouls, royalties and points,
`naturals` the naturals, `setting` the settings of 13 cards, `payments` points into chips,
`settle` the `settle` contract, `simulate` the points' spread, `profile` the profile model."""

from __future__ import annotations

from rules.game import RulesGame, imported_when_asked
from rules.games.chinese_poker.bets import BETS
from rules.games.chinese_poker.profile import ChinesePokerProfile

GAME = RulesGame("chinese-poker", "Chinese Poker", default_profile="chinese-poker",
                 profile_model=ChinesePokerProfile, bets=BETS,
                 settle=imported_when_asked(__name__, "settle"), simulate=imported_when_asked(__name__, "simulate"),
                 strategies=("suggest",), simulated_hands=200)
