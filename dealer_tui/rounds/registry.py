"""Round classes by game id (the rounds layer's part of the game registry)."""

from __future__ import annotations

from importlib import import_module

from dealer_tui.rounds.base import Round
from rules.errors import IllegalAction
from rules.registry import game

_ROUND_MODULES = {
    "high-card-flush": "dealer_tui.rounds.high_card_flush",
    "one-or-five": "dealer_tui.rounds.one_or_five",
    "chinese-poker": "dealer_tui.rounds.chinese_poker",
    "palace-poker": "dealer_tui.rounds.palace_poker",
}
_KEYED_MODULES = {
    "high-card-flush": "dealer_tui.rounds.high_card_flush_keyed",
    "one-or-five": "dealer_tui.rounds.one_or_five_keyed",
    "chinese-poker": "dealer_tui.rounds.chinese_poker_keyed",
    "palace-poker": "dealer_tui.rounds.palace_poker_keyed",
}
_ROUNDS: dict[tuple[str, bool], type[Round]] = {}


def register_round(cls: type[Round]) -> type[Round]:
    _ROUNDS[cls.game_id, cls.keyed] = cls
    return cls


def round_class(game_id: str, keyed: bool = False) -> type[Round]:
    """The round class of a game (`keyed`: the live-table variant where the dealer keys the cards);
    `IllegalAction`/`BadInput` for an unknown game or a game with no live-table variant."""
    info = game(game_id)
    if (info.id, keyed) not in _ROUNDS:
        modules = _KEYED_MODULES if keyed else _ROUND_MODULES
        try:
            import_module(modules[info.id])
        except ModuleNotFoundError as exc:
            if not keyed or exc.name != modules[info.id]:
                raise
            raise IllegalAction(f"{info.title} cannot be played with keyed cards yet") from None
    return _ROUNDS[info.id, keyed]


def keyed_games() -> list[str]:
    """Games whose cards the dealer may key at a live table."""
    out = []
    for game_id in _KEYED_MODULES:
        try:
            round_class(game_id, keyed=True)
        except IllegalAction:
            continue
        out.append(game_id)
    return out


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
