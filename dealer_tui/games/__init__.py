"""The four games above the rules, one package per game: its typed events (`events`), its round
(`round`) and live-table round (`live_round`), what the screens show of it (`presenter`), its
built-in players (`demo`) and its round screen (`screen`, the one module of a game that imports
Textual). A game imports no other game, and the shared layers reach a game's parts through
`rules.registry`, never by importing them."""

from __future__ import annotations

from typing import Any

from dealer_tui.games import chinese_poker, high_card_flush, one_or_five, palace_poker
from dealer_tui.rounds.game import Games
from dealer_tui.views import Presenter

GAMES: Games[Presenter[Any]] = Games((high_card_flush.GAME, one_or_five.GAME, chinese_poker.GAME, palace_poker.GAME))
"""Every game at the table, in the order the terminal offers them (the same as `rules.games.GAMES`):
adding a game is one entry here and one there."""
