"""Every key of every game's round screen that does nothing now says why (the notice line), in
every phase of a round: before it starts, the antes, the players' decisions, the reveal, the
payout backed out of, and after it. A refused key changes nothing: no event, no other screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.binding import Binding

from dealer_tui.screens.round_screen import RoundScreen
from dealer_tui.widgets.notice import Notice
from tests.tui_support import seated_app

SIZE = (120, 36)
WALKS: dict[str, tuple[list[tuple[int, str, int]], int, int, list[list[str]]]] = {
    # game: players, seats, seed, and the keys from one stop to the next (each stop is walked)
    "high-card-flush": ([(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cy", 5000)], 7, 5,
                        [[], ["s", "y"], ["2", "a", "enter", "3", "a", "enter", "d"], ["r", "enter", "f"],
                         ["v", "escape"], ["p", "enter"]]),
    "one-or-five": ([(1, "Ann", 1000), (2, "Bob", 1000)], 6, 5,
                    [[], ["s"], ["1", "a", "enter", "2", "a", "enter", "d", "p"], ["b", "b"], ["v", "escape"],
                     ["p", "enter"]]),
    "chinese-poker": ([(1, "Ann", 100), (2, "Bob", 100), (3, "Cy", 100)], 4, 5,
                      [[], ["s", "d"], ["g", "k", "g", "k", "g", "k"], ["v", "escape"], ["p", "enter"]]),
    "palace-poker": ([(1, "Ann", 1000), (2, "Bob", 1000), (4, "Dee", 1000)], 10, 1,
                     [[], ["s", "d"], ["A", "d", "d"], ["w", "w", "w"], ["v", "escape"], ["p", "enter"]]),
}


def screen_keys(screen: RoundScreen[Any]) -> list[tuple[str, list[str]]]:
    """Every key the round screen binds, with its actions (a game may bind one key twice, e.g.
    Palace Poker's `a`: ante, then attack): the table's and the game's."""
    found: dict[str, list[str]] = {}
    for cls in type(screen).__mro__:
        for binding in getattr(cls, "BINDINGS", ()):
            if isinstance(binding, Binding):
                for key in binding.key.split(","):
                    found.setdefault(key.strip(), []).append(binding.action.split("(")[0])
    return sorted(found.items())


@pytest.mark.parametrize("game", list(WALKS))
async def test_every_refused_key_of_every_phase_says_why(game: str, tmp_path: Path) -> None:
    players, seats, seed, stops = WALKS[game]
    app = seated_app(tmp_path, game, players, seats=seats, seed=seed)
    silent: list[str] = []
    walked = 0
    async with app.run_test(size=SIZE) as pilot:
        for keys in stops:
            await pilot.press(*keys)
            screen = app.screen
            assert isinstance(screen, RoundScreen), f"{game} after {keys}: {type(screen).__name__} is showing; {silent}"
            phase = screen.round.phase.value if screen.round is not None else "between rounds"
            for key, actions in screen_keys(screen):
                if any(screen.check_action(action, ()) is not False for action in actions):
                    continue  # the key acts now
                action = "/".join(actions)
                screen.query_one(Notice).clear()
                events = len(app.ledger.table_events(app.table.record.id))  # type: ignore[union-attr]
                await pilot.press(key)
                walked += 1
                said = screen.query_one(Notice).message
                if app.screen is not screen or len(app.ledger.table_events(app.table.record.id)) != events:  # type: ignore[union-attr]
                    silent.append(f"{phase}: {key} ({action}) acted although refused")
                    break
                if not said:
                    silent.append(f"{phase}: {key} ({action}) said nothing")
    assert walked > 20
    assert silent == []


async def test_a_character_no_key_is_bound_to_says_so_and_changes_nothing(tmp_path: Path) -> None:
    """High Card Flush has no exchange (e), no row (k, w) and no call (c): typed in the antes, each says
    it is not a key of the table, and nothing is recorded."""
    app = seated_app(tmp_path, "high-card-flush", [(1, "Ann", 5000), (2, "Bob", 5000)])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "y")
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        events = len(app.ledger.table_events(app.table.record.id))  # type: ignore[union-attr]
        for typed, shown in (("e", "e"), ("q", "q"), ("k", "k"), ("w", "w"), ("c", "c"), ("plus", "+"),
                             ("space", "Space")):
            screen.query_one(Notice).clear()
            await pilot.press(typed)
            assert screen.query_one(Notice).message == (
                f"{shown} is not a key of this game's table: the key bar shows the keys of this step; ? shows "
                "them with the rules."), typed
        assert app.screen is screen
        assert len(app.ledger.table_events(app.table.record.id)) == events  # type: ignore[union-attr]
