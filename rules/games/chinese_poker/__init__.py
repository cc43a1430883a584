"""Chinese Poker (docs/rules.md CP-1..CP-15): `rules` the rows, fouls, royalties and points,
`naturals` the naturals, `setting` the settings of 13 cards, `payments` points into chips,
`settle` the `settle` contract, `simulate` the points' spread, `profile` the profile model."""

from __future__ import annotations

from types import ModuleType

from rules.game import RulesGame
from rules.games.chinese_poker.bets import BETS
from rules.games.chinese_poker.profile import ChinesePokerProfile


def _settle() -> ModuleType:
    from rules.games.chinese_poker import settle

    return settle


def _simulate() -> ModuleType:
    from rules.games.chinese_poker import simulate

    return simulate


GAME = RulesGame("chinese-poker", "Chinese Poker", default_profile="chinese-poker",
                 profile_model=ChinesePokerProfile, bets=BETS, settle=_settle,
                 simulate=_simulate, strategies=("suggest",), simulated_hands=200)
