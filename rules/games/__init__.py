"""The four games' own rules, one package per game: its rules, its settlement, its profile model,
its `settle` contract and its simulator. What every game uses stays beside this package (cards,
the evaluator, the profile loader, the contract's shared parts); a game imports no other game."""

from __future__ import annotations

from rules.game import RulesGame
from rules.games import chinese_poker, high_card_flush, one_or_five, palace_poker

GAMES: tuple[RulesGame, ...] = (high_card_flush.GAME, one_or_five.GAME, chinese_poker.GAME, palace_poker.GAME)
"""Every game, in the order the terminal offers them: adding a game is one entry here (and one in
`dealer_tui.games.GAMES`)."""
