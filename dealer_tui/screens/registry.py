"""Round screens by game id (the screens' part of the game registry)."""

from __future__ import annotations

from importlib import import_module

from dealer_tui.screens.round_screen import RoundScreen

_SCREENS = {
    "high-card-flush": ("dealer_tui.screens.round_high_card_flush", "HighCardFlushScreen"),
    "one-or-five": ("dealer_tui.screens.round_one_or_five", "OneOrFiveScreen"),
    "chinese-poker": ("dealer_tui.screens.round_chinese_poker", "ChinesePokerScreen"),
    "palace-poker": ("dealer_tui.screens.round_palace_poker", "PalacePokerScreen"),
}


def round_screen(game_id: str) -> type[RoundScreen]:
    module, name = _SCREENS[game_id]
    cls: type[RoundScreen] = getattr(import_module(module), name)
    return cls


def screen_games() -> list[str]:
    """Games with a round screen in this build."""
    out = []
    for game_id, (module, _) in _SCREENS.items():
        try:
            import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            continue
        out.append(game_id)
    return out
