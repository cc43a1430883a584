"""Round screens by game id: the screens' reading of the games' records (`rules.registry`)."""

from __future__ import annotations

from dealer_tui.screens.round_screen import RoundScreen
from rules.registry import GAMES, installed, load, record


def round_screen(game_id: str) -> type[RoundScreen]:
    cls: type[RoundScreen] = load(record(game_id).screen)
    return cls


def screen_games() -> list[str]:
    """Games with a round screen in this build."""
    return [r.id for r in GAMES if installed(r.screen)]
