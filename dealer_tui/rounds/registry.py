"""Round classes by game id: the rounds layer's reading of the games' records (`rules.registry`)."""

from __future__ import annotations

from dealer_tui.rounds.base import Round
from rules.errors import IllegalAction
from rules.registry import GAMES, game, installed, load, record


def round_class(game_id: str, keyed: bool = False) -> type[Round]:
    """The round class of a game (`keyed`: the live-table variant where the dealer keys the cards);
    `IllegalAction`/`BadInput` for an unknown game or a game with no live-table variant."""
    found = record(game_id)
    ref = found.keyed_round if keyed else found.round
    if keyed and not installed(ref):
        raise IllegalAction(f"{game(game_id).title} cannot be played with keyed cards yet")
    assert ref is not None
    cls: type[Round] = load(ref)
    return cls


def keyed_games() -> list[str]:
    """Games whose cards the dealer may key at a live table."""
    return [r.id for r in GAMES if installed(r.keyed_round)]


def playable_games() -> list[str]:
    """Games whose rounds this build can run."""
    return [r.id for r in GAMES if installed(r.round)]
