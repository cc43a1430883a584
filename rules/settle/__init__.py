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

_SETTLER_MODULES = {
    "high-card-flush": "rules.settle.high_card_flush",
    "one-or-five": "rules.settle.one_or_five",
    "chinese-poker": "rules.settle.chinese_poker",
    "palace-poker": "rules.settle.palace_poker",
}
_SETTLERS: dict[str, Settler] = {}


def register_settler(game_id: str) -> Callable[[Settler], Settler]:
    def wrap(fn: Settler) -> Settler:
        _SETTLERS[game_id] = fn
        return fn

    return wrap


def settler(game_id: str) -> Settler | None:
    """The settler of one game, its module imported on first use."""
    if game_id not in _SETTLERS and game_id in _SETTLER_MODULES:
        name = _SETTLER_MODULES[game_id]
        try:
            import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
    return _SETTLERS.get(game_id)


def settlers() -> dict[str, Settler]:
    """Every game's settler (all modules imported)."""
    for game_id in _SETTLER_MODULES:
        settler(game_id)
    return dict(_SETTLERS)


def settle_round(request: Any, library: ProfileLibrary) -> dict[str, Any]:
    """Settle one round given as decoded JSON."""
    if not isinstance(request, dict):
        raise BadInput("round", "must be a JSON object")
    if "game" not in request:
        raise BadInput("game", "is required")
    info = game(request["game"])
    found = settler(info.id)
    if found is None:
        raise BadInput("game", f"{info.id}: this version cannot settle it")
    return found(request, library)
