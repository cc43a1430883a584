"""A game's round screen: the one part of a game loaded by name (`Game.screen`), here, where
Textual is already loaded, so that headless commands never import a screen."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from dealer_tui.rounds.game import Game
from dealer_tui.screens.round_screen import RoundScreen


def round_screen(game: Game[Any]) -> type[RoundScreen[Any]]:
    """The game's round screen; `TypeError` when its name is not a round screen."""
    module, _, name = game.screen.partition(":")
    found = getattr(import_module(module), name)
    if not (isinstance(found, type) and issubclass(found, RoundScreen)):
        raise TypeError(f"{game.id}: {game.screen} is not a round screen")
    return found
