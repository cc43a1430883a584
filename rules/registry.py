"""The game registry of the rules layer: games are found here by id, never by `if` chains.

Each game's profile module registers itself; `games()` imports them on first use.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING

from rules.errors import BadInput

if TYPE_CHECKING:
    from rules.profiles.base import ProfileBase

_GAME_MODULES = (
    "rules.profiles.high_card_flush",
    "rules.profiles.one_or_five",
    "rules.profiles.chinese_poker",
    "rules.profiles.palace_poker",
)


@dataclass(frozen=True)
class GameInfo:
    """A game as the rules know it."""

    id: str
    title: str
    profile_model: type[ProfileBase]
    default_profile: str


_GAMES: dict[str, GameInfo] = {}


def register(info: GameInfo) -> None:
    if info.id in _GAMES and _GAMES[info.id] != info:
        raise RuntimeError(f"game {info.id!r} registered twice")
    _GAMES[info.id] = info


def games() -> dict[str, GameInfo]:
    """Every registered game by id, in registration order."""
    if len(_GAMES) < len(_GAME_MODULES):
        for name in _GAME_MODULES:
            import_module(name)
    order = {name: i for i, name in enumerate(_GAME_MODULES)}
    return dict(sorted(_GAMES.items(), key=lambda item: order.get(item[1].profile_model.__module__, 99)))


def game(game_id: object, field: str = "game") -> GameInfo:
    """The game with this id, or `BadInput` naming the known ones."""
    known = games()
    if isinstance(game_id, str) and game_id in known:
        return known[game_id]
    return _unknown(game_id, field, known)


def _unknown(game_id: object, field: str, known: dict[str, GameInfo]) -> GameInfo:
    names = ", ".join(known)
    raise BadInput(field, f"unknown game {game_id!r} (known: {names})")
