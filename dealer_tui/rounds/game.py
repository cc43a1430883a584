"""A game at the table: one typed object per game, made in the game's package
(`dealer_tui/games/<game>/__init__.py`) and listed once in `dealer_tui.games.GAMES`. The top of the
terminal (its commands and apps) hands a game, or the catalogue of them, to the table, the screens,
the audit and the accounting; nothing below the top imports a game."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

from dealer_tui.events.codec import load_events_with
from dealer_tui.ledger.base import FLAGS
from dealer_tui.rounds.base import Round, Step
from rules.errors import BadInput, IllegalAction
from rules.game import RulesGame
from rules.said import Said, say

P = TypeVar("P")
"""What the screens show of the game's rounds (`dealer_tui.views.Presenter`, a layer above)."""


@dataclass(frozen=True)
class Game(Generic[P]):
    """Every part of one game above its rules."""

    rules: RulesGame
    round: type[Round]
    """The round's state machine, dealt from the virtual shoe."""
    keyed_round: type[Round] | None
    """The live-table round (the dealer keys the cards); None: none yet."""
    presenter: P
    demo: Callable[[Round, random.Random], Step]
    """The built-in players: a step for the seat whose turn it is."""
    screen: str
    """The round screen, `module:class` in the game's own package: the one part loaded by name,
    and only by the terminal's app, so that headless commands never import Textual."""

    @property
    def id(self) -> str:
        return self.rules.id

    @property
    def title(self) -> str:
        return self.rules.title

    def round_class(self, keyed: bool = False) -> type[Round]:
        """The round (`keyed`: the live-table variant); `IllegalAction` when the game has none."""
        if not keyed:
            return self.round
        if self.keyed_round is None:
            raise IllegalAction(say("{game} cannot be played with keyed cards yet", game=self.title))
        return self.keyed_round


@dataclass(frozen=True)
class Listed(Generic[P]):
    """A game as the catalogue lists it: its rules, known at once, and its parts at the table,
    imported when the game is first asked for (a terminal's start imports the game it opens)."""

    rules: RulesGame
    load: Callable[[], Game[P]]


class Games(Generic[P]):
    """The games this terminal deals, in the order it offers them. Listing them imports none of
    them: `find` imports the one asked for; going through them all imports every one. A game's
    events are read from a ledger once the game is imported, and reading one of them imports it."""

    def __init__(self, listed: tuple[Listed[P], ...]) -> None:
        self.listed = listed
        self._by_id = {entry.rules.id: entry for entry in listed}
        for entry in listed:
            load_events_with(entry.rules.id, entry.load)

    def __iter__(self) -> Iterator[Game[P]]:
        return (entry.load() for entry in self.listed)

    def __len__(self) -> int:
        return len(self.listed)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._by_id

    def ids(self) -> list[str]:
        return list(self._by_id)

    def rules(self, game_id: object, field: str = "game") -> RulesGame:
        """The game's rules (its title, its default profile), importing nothing of it at the table."""
        entry = self._by_id.get(game_id) if isinstance(game_id, str) else None
        if entry is None:
            raise BadInput(field, f"unknown game {game_id!r} (known: {', '.join(self.ids())})")
        return entry.rules

    def title(self, game_id: str) -> str:
        """A game's title as the floor names it (`High Card Flush`); a game this build does not deal,
        by the id the ledger records."""
        entry = self._by_id.get(game_id)
        return entry.rules.title if entry is not None else game_id

    def find(self, game_id: object, field: str = "game") -> Game[P]:
        """The game with this id (a ledger's table, a profile), or `BadInput` naming the known ones."""
        self.rules(game_id, field)
        return self._by_id[str(game_id)].load()

    def flags(self) -> dict[str, str]:
        """Every flag a round may carry, with what it means: every game's, then each game's own."""
        found = dict(FLAGS)
        for g in self:
            found.update(g.round.FLAGS)
        return found

    def flag_words(self) -> dict[str, Said]:
        """Each game's own flags as the floor shows them (`views.record_words` has every game's)."""
        found: dict[str, Said] = {}
        for g in self:
            found.update(g.round.FLAG_WORDS)
        return found
