"""Drawing held back until a change is complete, then one frame for all of it.

Textual draws a screen as soon as it is idle, but a change reaches it in several steps (a widget
is refreshed, reports to its screen, is laid out, reports a new size...), each of which would be
a frame of its own. A dialog's answer is the longest of them: the dialog closes, the answer runs,
a dialog built for one question is taken apart.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.screen import Screen
from textual.widget import Widget

HOLD_ROUNDS = 2
"""Round trips through a widget before a screen is drawn after a dialog's answer: changes that
pass through one more widget on their way (the header's title) are in by the second."""
RELEASE_AT_LATEST_S = 0.5
"""A safety net: whatever happens, the screen is drawn again by then."""


async def drawn() -> None:
    """Return once no drawing is held back and nothing is being taken apart: the screen shows all
    of the last change (what a screenshot or a measure of the frame waits for)."""
    while _holding or _dismantling:
        await asyncio.sleep(0.005)


class Hold:
    """Drawing held back (Textual's `batch_update`) until `parts` changes are complete."""

    def __init__(self, app: App[Any], parts: int = 1) -> None:
        self.app, self.parts = app, parts
        _holding.add(self)
        self._batch = app.batch_update()
        self._batch.__enter__()
        app.set_timer(RELEASE_AT_LATEST_S, self.release)

    def release(self) -> None:
        if self.parts > 0:
            self.parts = 0
            _holding.discard(self)
            self._batch.__exit__(None, None, None)
            self.app.screen.check_idle()

    def part_done(self) -> None:
        """One of the parts is complete; the last one releases drawing."""
        if self.parts == 1:
            self.release()
        elif self.parts > 1:
            self.parts -= 1

    def after_rounds(self, via: Widget, rounds: int) -> None:
        """A part complete once `via` has seen `rounds` round trips through its message queue."""
        if not (rounds and via.call_after_refresh(self.after_rounds, via, rounds - 1)):
            self.part_done()

    def after_quiet(self) -> None:
        """A part complete once the app is quiet: every message the change set off has been handled
        (a field's focus let go restyles it a few messages later, and asks for one more layout)."""
        from dealer_tui.screens.key_order import quiet

        async def settle() -> None:
            try:
                await quiet(self.app)
            finally:
                self.part_done()

        _dismantling.add(task := asyncio.get_running_loop().create_task(settle()))
        task.add_done_callback(_dismantling.discard)

    def after_removal(self, screen: Screen[Any]) -> None:
        """A part complete once `screen` (installed, not shown) is taken apart."""
        async def take_apart() -> None:
            try:
                self.app.uninstall_screen(screen)
                await screen.remove()
            finally:
                self.part_done()

        _dismantling.add(task := asyncio.get_running_loop().create_task(take_apart()))
        task.add_done_callback(_dismantling.discard)


_dismantling: set[asyncio.Task[None]] = set()
_holding: set[Hold] = set()
"""The holds not yet released."""


def drawn_after(via: Widget, then: Callable[[Any], None] | None,
            dispose: Screen[Any] | None = None) -> Callable[[Any], None] | None:
    """`then` for a dialog's answer, with the screen under the dialog drawn once, after it.

    Left alone, that screen is drawn the moment the dialog closes (as it was), and again a frame
    later with the answer's changes; a dialog built for one question is then taken apart, and the
    screen drawn a third time. Here drawing waits until the answer has run, `via` (a widget of
    that screen, refreshed last) has reported back and `dispose` (the dialog, if it is not kept)
    is taken apart.
    """
    if then is None and dispose is None:
        return None
    app = via.app

    def run(result: Any) -> None:
        hold = Hold(app, parts=2 if dispose is not None else 1)
        try:
            if then is not None:
                then(result)
        finally:
            if dispose is not None:
                hold.after_removal(dispose)
            hold.after_rounds(via, HOLD_ROUNDS)

    return run
