"""Dialogs that are built once and asked again.

A new screen costs more than anything else a key does: composing it, styling its widgets, and
three layouts over the dimmed table before it settles. The round screen keeps one of each dialog
it has shown (installed, so closing it does not take it apart) and puts the next question into
it: showing it again is one repaint.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.segment import Segment
from rich.style import Style
from textual.app import App
from textual.geometry import Size
from textual.renderables.background_screen import BackgroundScreen
from textual.screen import ModalScreen, Screen
from textual.strip import Strip
from textual.widget import Widget

ResultT = TypeVar("ResultT")

SETTLE_ROUNDS = 2
"""Round trips through a widget before a screen is drawn after a dialog's answer: changes that
pass through one more widget on their way (the header's title) are in by the second."""
RELEASE_AT_LATEST_S = 0.5
"""A safety net: whatever happens, the screen is drawn again by then."""


class Hold:
    """Drawing held back until some changes are complete, then one frame for all of them.

    Textual draws a screen as soon as it is idle, but a change reaches it in several steps (a
    widget is refreshed, reports to its screen, is laid out, reports a new size...), each of
    which would be a frame of its own, a sixtieth of a second or more after the one before.
    """

    def __init__(self, app: App[Any], parts: int = 1) -> None:
        self.app, self.parts = app, parts
        self._batch = app.batch_update()
        self._batch.__enter__()
        app.set_timer(RELEASE_AT_LATEST_S, self.release)

    def release(self) -> None:
        if self.parts > 0:
            self.parts = 0
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


def settled(via: Widget, then: Callable[[Any], None] | None,
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
            hold.after_rounds(via, SETTLE_ROUNDS)

    return run


class Backdrop(BackgroundScreen):
    """The table under a modal, dimmed as Textual dims it, each distinct style worked out once
    (a screen has a few dozen styles and a few hundred segments)."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        segments = console.render(self.screen._compositor, options)
        if self.color.a == 0:
            yield from self.process_segments(segments, self.color)
            return
        dimmed: dict[Style | None, Style] = {}
        for segment in segments:
            text, style, control = segment
            if control:
                yield segment
                continue
            tinted = dimmed.get(style)
            if tinted is None:
                tinted = dimmed[style] = next(iter(self.process_segments([Segment(" ", style)], self.color))).style
            yield Segment(text, tinted, control)


class DimmedModal(ModalScreen[ResultT]):
    """A modal screen over the dimmed table, the dimmed table drawn once each time it is shown.

    Textual redraws the table under a modal and dims it cell by cell every time the modal is
    laid out or repainted (a new screen is laid out three times before it settles); the table
    does not change while the dealer answers, so what it drew the first time is kept.
    """

    _backdrop_key: tuple[int, Size] | None = None
    _backdrop: Sequence[Strip] = ()
    _showings = 0

    def render(self) -> RenderableType:
        renderable = super().render()
        if isinstance(renderable, BackgroundScreen):
            return Backdrop(renderable.screen, renderable.color)
        return renderable

    def _screen_resized(self, size: Size) -> None:
        # A new screen is laid out when it is shown, then told its size, which lays it out again
        # at the size it already has; a real change of the terminal's size still lays it out.
        if size != self._compositor.size:
            super()._screen_resized(size)

    def on_screen_suspend(self) -> None:
        self._showings += 1  # shown again, it dims the table as it is then

    def render_line(self, y: int) -> Strip:
        key = (self._showings, self.size)
        if key != self._backdrop_key:
            self._backdrop = [super(DimmedModal, self).render_line(line) for line in range(self.size.height)]
            self._backdrop_key = key
        if 0 <= y < len(self._backdrop):
            return self._backdrop[y]
        return super().render_line(y)


class Dialog(DimmedModal[ResultT]):
    """A modal question. `shape()` says which questions one built dialog can take; `reask()`
    puts another question of that shape into it."""

    def shape(self) -> Hashable:
        return ()

    def reask(self, other: Dialog[ResultT]) -> None:
        """Take `other`'s question (a dialog of the same type and shape that was never shown)."""
        raise NotImplementedError


class DialogShelf:
    """The dialogs one screen has built, by type and shape."""

    def __init__(self, app: App[Any], via: Widget) -> None:
        self.app, self.via = app, via
        self._built: dict[tuple[type, Hashable], Dialog[Any]] = {}

    def ask(self, dialog: Dialog[ResultT], then: Callable[[ResultT | None], None] | None = None) -> Dialog[ResultT]:
        """Show `dialog`'s question, in the dialog of its kind already built if there is one."""
        key = (type(dialog), dialog.shape())
        built = self._built.get(key)
        name = f"dialog-{id(dialog)}"
        if built is not None and built in self.app.screen_stack:  # still open: this one is asked once
            self.app.install_screen(dialog, name)
            self.app.push_screen(dialog, settled(self.via, then, dispose=dialog))
            return dialog
        if built is None:
            built = self._built[key] = dialog
            self.app.install_screen(dialog, name)
        else:
            built.reask(dialog)
        self.app.push_screen(built, settled(self.via, then))
        return built
