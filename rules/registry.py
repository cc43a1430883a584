"""The games by id: what a request, a profile or a ledger names a game by, found among
`rules.games.GAMES` (one typed object per game; `dealer_tui.games.GAMES` holds the same games
at the table)."""

from __future__ import annotations

from rules.errors import BadInput
from rules.game import RulesGame
from rules.games import GAMES

_BY_ID = {game.id: game for game in GAMES}


def games() -> dict[str, RulesGame]:
    """Every game by id, in `GAMES`' order."""
    return dict(_BY_ID)


def game(game_id: object, field: str = "game") -> RulesGame:
    """The game with this id, or `BadInput` naming the known ones."""
    if isinstance(game_id, str) and game_id in _BY_ID:
        return _BY_ID[game_id]
    raise BadInput(field, f"unknown game {game_id!r} (known: {', '.join(_BY_ID)})")
