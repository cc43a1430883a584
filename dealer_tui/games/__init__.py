"""The four games above the rules, one package per game: its typed events (`events`), its round
(`round`) and live-table round (`live_round`), what the screens show of it (`presenter`), its
built-in players (`demo`) and its round screen (`screen`, the one module of a game that imports
Textual); the game itself is its package's `GAME`. A game imports no other game. The commands and
the apps hand `GAMES` down; nothing below them imports a game."""

from __future__ import annotations

from typing import Any

from dealer_tui.rounds.game import Game, Games, Listed
from dealer_tui.views import Presenter
from rules.games import chinese_poker, high_card_flush, one_or_five, palace_poker

TableGame = Game[Presenter[Any]]


def _high_card_flush() -> TableGame:
    from dealer_tui.games.high_card_flush import GAME

    return GAME


def _one_or_five() -> TableGame:
    from dealer_tui.games.one_or_five import GAME

    return GAME


def _chinese_poker() -> TableGame:
    from dealer_tui.games.chinese_poker import GAME

    return GAME


def _palace_poker() -> TableGame:
    from dealer_tui.games.palace_poker import GAME

    return GAME


GAMES: Games[Presenter[Any]] = Games((
    Listed(high_card_flush.GAME, _high_card_flush),
    Listed(one_or_five.GAME, _one_or_five),
    Listed(chinese_poker.GAME, _chinese_poker),
    Listed(palace_poker.GAME, _palace_poker),
))
"""Every game at the table, in the order the terminal offers them (the same as `rules.games.GAMES`):
adding a game is its entry here (a function that imports it) and one there. A game's package is
imported when the game is first asked for: a terminal's start imports only the game it opens."""
