"""The prompts name the keys the round screen binds: a key bound anew is named anew, in the
prompt line, a seat's note and the notice line's reasons."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from textual.binding import Binding, BindingType
from textual.types import CSSPathType
from textual.widgets import Static

from dealer_tui.games.high_card_flush.screen import HighCardFlushScreen
from dealer_tui.screens import round_screen
from dealer_tui.screens.round_screen import RoundScreen
from dealer_tui.views import key, with_keys
from dealer_tui.widgets.notice import Notice
from tests.tui_support import seated_app

SIZE = (120, 36)


class ReboundScreen(HighCardFlushScreen):
    """High Card Flush with the raise on t, the fold on g and a new round on N."""

    CSS_PATH: ClassVar[CSSPathType] = [Path(round_screen.__file__).with_name(name)
                                       for name in ("round_screen.tcss", "modal.tcss")]

    BINDINGS: ClassVar[list[BindingType]] = [Binding("t", "raise_bet", "Raise"), Binding("g", "fold", "Fold"),
                                             Binding("N", "start", "New round")]


def prompt_of(screen: RoundScreen[Any]) -> str:
    return str(screen.query_one("#prompt", Static).render())


def test_a_key_named_in_a_text_is_the_one_given_for_its_action() -> None:
    text = f"Seat 2: {key('raise_bet')} raise or {key('fold')} fold."
    assert with_keys(text, {"raise_bet": "r", "fold": "f"}) == "Seat 2: r raise or f fold."
    assert with_keys(text, {"raise_bet": "t"}) == "Seat 2: t raise or {fold} fold."  # no key: left as written
    assert with_keys("Box 1 {not a key} closes.", {}) == "Box 1 {not a key} closes."


async def test_the_prompt_names_the_keys_as_the_screen_binds_them(tmp_path: Path) -> None:
    app = seated_app(tmp_path, "high-card-flush", [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cy", 5000)])
    async with app.run_test(size=SIZE) as pilot:
        shipped = app.screen
        assert isinstance(shipped, HighCardFlushScreen)
        assert prompt_of(shipped) == "Press s to start a round."
        rebound = ReboundScreen(shipped.table, shipped.desk, shipped.games)
        await app.push_screen(rebound)
        await pilot.pause()
        assert prompt_of(rebound) == "Press N to start a round."
        await pilot.press("v")  # no hand: the reason names the key that starts one
        assert "no hand is in play: N starts one" in str(rebound.query_one(Notice).render())
        await pilot.press("N", "y", "2", "a", "enter", "3", "a", "enter", "d")
        assert prompt_of(rebound).startswith("Seat 2: t raise (5–")
        assert prompt_of(rebound).endswith("or g fold.")
        await pilot.press("t", "enter", "g")  # the keys the prompt names do what it says
        rnd = rebound.round
        assert rnd is not None and rnd.seats[2].raised and rnd.seats[3].raised == 0
