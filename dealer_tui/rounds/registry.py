"""Round classes by game id (the rounds layer's part of the game registry)."""

from __future__ import annotations

from importlib import import_module

from dealer_tui.rounds.base import Round
from rules.registry import game

_ROUND_MODULES = {
    "high-card-flush": "dealer_tui.rounds.high_card_flush",
    "one-or-five": "dealer_tui.rounds.one_or_five",
    "chinese-poker": "dealer_tui.rounds.chinese_poker",
    "palace-poker": "dealer_tui.rounds.palace_poker",
}
_ROUNDS: dict[str, type[Round]] = {}


def register_round(cls: type[Round]) -> type[Round]:
    _ROUNDS[cls.game_id] = cls
    return cls


def round_class(game_id: str) -> type[Round]:
    """The round class of a game; `IllegalAction`/`BadInput` for an unknown game."""
    info = game(game_id)
    if info.id not in _ROUNDS:
        import_module(_ROUND_MODULES[info.id])
    return _ROUNDS[info.id]


def playable_games() -> list[str]:
    """Games whose rounds this build can run."""
    out = []
    for game_id, module in _ROUND_MODULES.items():
        try:
            round_class(game_id)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            continue
        out.append(game_id)
    return out
