"""Dialogs that are built once and asked again.

A new screen costs more than anything else a key does: composing it, styling its widgets, and
three layouts over the dimmed table before it settles. The round screen keeps one of each dialog
it has shown (installed, so closing it does not take it apart) and puts the next question into
it: showing it again is one repaint. The dialogs every round asks for are built ahead, before the
dealer's first key, and every screen shown is drawn in one frame (`OneFrame`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Self, TypeVar

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.segment import Segment
from rich.style import Style
from textual._context import visible_screen_stack
from textual.app import App
from textual.geometry import Region, Size
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
        tint = self._tint(Style())
        for segment in segments:
            text, style, control = segment
            yield segment if control else Segment(text, tint(style), control)

    def _tint(self, base: Style) -> Callable[[Style | None], Style]:
        """`base` under each style dimmed, worked out once a style."""
        dimmed: dict[Style | None, Style] = {}

        def tint(style: Style | None) -> Style:
            found = dimmed.get(style)
            if found is None:
                found = dimmed[style] = base + next(iter(self.process_segments([Segment(" ", style)], self.color))).style
            return found
        return tint

    def strips(self, size: Size, base: Style) -> list[Strip] | None:
        """The table's lines dimmed and laid on `base`, straight from its last composition: what
        rendering this backdrop as the modal's content gives, without going through Rich."""
        if self.color.a == 0:
            return None
        tint = self._tint(base)
        return [Strip([segment if segment.control else Segment(segment.text, tint(segment.style))
                       for segment in strip], strip.cell_length)
                for strip in self.screen._compositor.render_strips(size)]


class OneFrame(Screen[ResultT]):
    """A screen drawn in one frame when it is shown: Textual lays a shown screen out and draws
    what moved, then draws all of it again (it was covered, or new): two frames, the first a part
    of the second."""

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False,
                recompose: bool = False) -> Self:
        # Textual asks a screen it covers with another to be drawn again; a covered screen is
        # not drawn (a dialog dims what it last showed), so that would only be a frame of the
        # dialog showing nothing new.
        if not (regions or layout or recompose) and self.is_attached and self.app.screen is not self:
            return self
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def _on_timer_update(self) -> None:
        laid_out = self._compositor.size
        if (self._layout_required and self._repaint_required and self.is_current and not self.app._batch_count
                and laid_out and laid_out == self.outer_size):  # a first layout, or a new size: as Textual does
            self._repaint_required = False
            self._compositor._dirty_regions.add(laid_out.region)
        super()._on_timer_update()


class DimmedModal(OneFrame[ResultT], ModalScreen[ResultT]):
    """A modal screen over the dimmed table, the dimmed table drawn once each time it is shown.

    Textual redraws the table under a modal and dims it cell by cell every time the modal is
    laid out or repainted (a new screen is laid out three times before it settles); the table
    does not change while the dealer answers, so what it drew the first time is kept.
    """

    _backdrop_key: tuple[int, Size, Size | None] | None = None
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

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False,
                recompose: bool = False) -> Self:
        # The screen under this one reports its changes as regions of this one. The table under a
        # dialog is drawn once a showing: what changes on it meanwhile (a notice cleared by the
        # key that opened the dialog) would be a frame showing nothing new; only a table laid out
        # at a new size (the terminal resized) is dimmed again.
        if regions and not (layout or recompose) and self._backdrop_key == self._backdrop_now():
            return self
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def _backdrop_now(self) -> tuple[int, Size, Size | None]:
        """What the dimmed table depends on: this showing, the size, and the size the table
        under it is laid out at."""
        stack = self.app.screen_stack
        place = stack.index(self) if self in stack else 0
        under = stack[place - 1] if place > 0 else None
        return self._showings, self.size, under._compositor.size if under is not None else None

    def _dimmed_table(self) -> list[Strip] | None:
        """The lines `render()` would give as this screen's content, worked out directly."""
        stack = visible_screen_stack.get([])
        background = self.styles.background
        if not stack or stack[-1] is self or not 0 < background.a < 1 or self.styles.content_align != ("left", "top"):
            return None
        return Backdrop(stack[-1], background).strips(self.size, self.visual_style.rich_style)

    def render_line(self, y: int) -> Strip:
        key = self._backdrop_now()
        if key != self._backdrop_key:
            self._backdrop = self._dimmed_table() or [super(DimmedModal, self).render_line(line)
                                                      for line in range(self.size.height)]
            self._backdrop_key = key
        if 0 <= y < len(self._backdrop):
            return self._backdrop[y]
        return super().render_line(y)


class Dialog(DimmedModal[ResultT]):
    """A modal question. `shape()` says which questions one built dialog can take; `reask()`
    puts another question of that shape into it."""

    def draw_off_screen(self) -> None:
        """Draw every widget once without showing the dialog (built ahead of its first question)."""
        if self.is_attached and not self.is_current and self._compositor.size:
            self._compositor.render_strips()
            self._backdrop_key = None  # drawn over nothing: the table is dimmed when it is shown

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

    async def build_ahead(self, dialogs: Sequence[Dialog[Any]]) -> None:
        """Build dialogs before their first question, while the dealer has not pressed a key.

        Each is put on the screen stack and taken off again at once, so it is composed, styled
        and laid out without being drawn, then its widgets are drawn once off screen; the first question it takes is then put into
        it like any later one. Keys pressed meanwhile wait for this (it runs as the app's own
        message) and are handled as soon as it ends. Stops if another screen is showing.
        """
        for dialog in dialogs:
            key = (type(dialog), dialog.shape())
            if key in self._built or self.app.screen is not self.via.screen:
                continue
            self._built[key] = dialog
            self.app.install_screen(dialog, f"dialog-{id(dialog)}")
            # taken off before it is composed: it lays itself out, but is never the screen drawn
            mounted = self.app.push_screen(dialog)
            taken_off = self.app.pop_screen()
            await mounted
            await taken_off
            dialog.call_after_refresh(dialog.draw_off_screen)

    def ask(self, dialog: Dialog[ResultT], then: Callable[[ResultT | None], None] | None = None) -> Dialog[ResultT]:
        """Show `dialog`'s question, in the dialog of its kind already built if there is one."""
        key = (type(dialog), dialog.shape())
        built = self._built.get(key)
        name = f"dialog-{id(dialog)}"
        hold = Hold(self.app)
        if built is not None and built in self.app.screen_stack:  # still open: this one is asked once
            self.app.install_screen(dialog, name)
            self.app.push_screen(dialog, settled(self.via, then, dispose=dialog))
            hold.after_rounds(dialog, SETTLE_ROUNDS)
            return dialog
        if built is None:
            built = self._built[key] = dialog
            self.app.install_screen(dialog, name)
        else:
            built.reask(dialog)
        self.app.push_screen(built, settled(self.via, then))
        hold.after_rounds(built, SETTLE_ROUNDS)
        return built
