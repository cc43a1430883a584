"""Built-in players for `dealer-tui demo`: one module per game, each with `choose(round, rng)`."""

from __future__ import annotations

import random
from collections.abc import Callable

from dealer_tui.rounds.base import Action, Round
from rules.registry import load, record

Chooser = Callable[[Round, random.Random], Action]



def chooser(game_id: str) -> Chooser:
    """The game's built-in players, as its record names them."""
    choose: Chooser = load(record(game_id).demo)
    return choose
