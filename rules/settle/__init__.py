"""The `settle` contract (SETTLE.md): one finished round in, its settlement out, as plain data.

Each game's module registers a settler for its id; `settle_round` dispatches through the game
registry. Bad input raises `BadInput(field, problem)`.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any

from rules.errors import BadInput
from rules.profiles.loader import ProfileLibrary
from rules.registry import game

Settler = Callable[[dict[str, Any], ProfileLibrary], dict[str, Any]]

_SETTLER_MODULES = (
    "rules.settle.high_card_flush",
    "rules.settle.one_or_five",
    "rules.settle.chinese_poker",
    "rules.settle.palace_poker",
)
_SETTLERS: dict[str, Settler] = {}
_loaded = False


def register_settler(game_id: str) -> Callable[[Settler], Settler]:
    def wrap(fn: Settler) -> Settler:
        _SETTLERS[game_id] = fn
        return fn

    return wrap


def settlers() -> dict[str, Settler]:
    global _loaded
    if not _loaded:
        for name in _SETTLER_MODULES:
            try:
                import_module(name)
            except ModuleNotFoundError as exc:
                if exc.name != name:
                    raise
        _loaded = True
    return _SETTLERS


def settle_round(request: Any, library: ProfileLibrary) -> dict[str, Any]:
    """Settle one round given as decoded JSON."""
    if not isinstance(request, dict):
        raise BadInput("round", "must be a JSON object")
    if "game" not in request:
        raise BadInput("game", "is required")
    info = game(request["game"])
    settler = settlers().get(info.id)
    if settler is None:
        raise BadInput("game", f"{info.id}: this version cannot settle it")
    return settler(request, library)
