"""The `settle` contract (docs/settle.md): one finished round in, its settlement out, as plain data
(`settle_round`) or as one line of JSON text (`settle_json`, what `settle --jsonl` writes).

Each game's module registers a settler for its id; `settle_round` finds the game by the request's
id (`rules.registry`) and imports its module on first use. Bad input raises `BadInput(field, problem)`. A game may also register a brief settler:
the JSON line without the explanation keys, straight from the round, or None to leave the round
to the game's settler (which then settles it or names its problem).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rules.errors import BadInput
from rules.profiles.loader import ProfileLibrary
from rules.registry import game, games

Settler = Callable[[dict[str, Any], ProfileLibrary], dict[str, Any]]
BriefSettler = Callable[[dict[str, Any], ProfileLibrary], str | None]

_SETTLERS: dict[str, Settler] = {}
_BRIEF_SETTLERS: dict[str, BriefSettler] = {}
EXPLANATIONS = frozenset({"reason", "reasons", "share_reasons"})
"""The extra output keys that explain a result (docs/settle.md allows extra keys)."""
encode = json.JSONEncoder(check_circular=False, ensure_ascii=False).encode
"""Result to one line of JSON text, as `settle --jsonl` writes it."""


def register_settler(game_id: str) -> Callable[[Settler], Settler]:
    def wrap(fn: Settler) -> Settler:
        _SETTLERS[game_id] = fn
        return fn

    return wrap


def register_brief_settler(game_id: str) -> Callable[[BriefSettler], BriefSettler]:
    """Register the settler whose JSON line equals `encode` of the game settler's result less
    its `EXPLANATIONS` keys, or that returns None for a round it leaves to the game settler."""

    def wrap(fn: BriefSettler) -> BriefSettler:
        _BRIEF_SETTLERS[game_id] = fn
        return fn

    return wrap


def settler(game_id: str) -> Settler | None:
    """The settler of one game, its module (the game names it) imported on first use."""
    if game_id not in _SETTLERS and game_id in games():
        game(game_id).settle()
    return _SETTLERS.get(game_id)


def settlers() -> dict[str, Settler]:
    """Every game's settler (all modules imported)."""
    for game_id in games():
        settler(game_id)
    return dict(_SETTLERS)


def settle_round(request: Any, library: ProfileLibrary, *, explain: bool = True) -> dict[str, Any]:
    """Settle one round given as decoded JSON; `explain=False` leaves out the `EXPLANATIONS` keys."""
    result = _settler_of(request)[1](request, library)
    return result if explain else without_explanations(result)


def settle_json(request: Any, library: ProfileLibrary, *, explain: bool = True) -> str:
    """`settle_round` as one line of JSON text (`encode`); without the explanations, by the
    game's brief settler when it has one."""
    game_id, found = _settler_of(request)
    if explain:
        return encode(found(request, library))
    brief = _BRIEF_SETTLERS.get(game_id)
    text = brief(request, library) if brief is not None else None
    return text if text is not None else encode(without_explanations(found(request, library)))


def _settler_of(request: Any) -> tuple[str, Settler]:
    """The round's game and its settler; `BadInput` when there is none."""
    if not isinstance(request, dict):
        raise BadInput("round", "must be a JSON object")
    if "game" not in request:
        raise BadInput("game", "is required")
    game_id = request["game"]
    found = _SETTLERS.get(game_id) if type(game_id) is str else None  # a game settled before
    if found is None:
        game_id = game(game_id).id
        found = settler(game_id)
        if found is None:
            raise BadInput("game", f"{game_id}: this version cannot settle it")
    return game_id, found


def without_explanations(result: dict[str, Any]) -> dict[str, Any]:
    """The result with its `EXPLANATIONS` keys left out, in place: they sit at the top, in the
    top's objects and in the objects of its lists."""
    for key in EXPLANATIONS & result.keys():
        del result[key]
    for value in result.values():
        items = value if isinstance(value, list) else (value,)
        for item in items:
            if isinstance(item, dict):
                for key in EXPLANATIONS & item.keys():
                    del item[key]
    return result
