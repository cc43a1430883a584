"""Built-in players for `dealer-tui demo`: one module per game, each with `choose(round, rng)`."""

from __future__ import annotations

import random
from collections.abc import Callable
from importlib import import_module

from dealer_tui.rounds.base import Action, Round

Chooser = Callable[[Round, random.Random], Action]

_MODULES = {
    "high-card-flush": "dealer_tui.demo.high_card_flush",
    "one-or-five": "dealer_tui.demo.one_or_five",
    "chinese-poker": "dealer_tui.demo.chinese_poker",
    "palace-poker": "dealer_tui.demo.palace_poker",
}


def chooser(game_id: str) -> Chooser:
    module = import_module(_MODULES[game_id])
    choose: Chooser = module.choose
    return choose
