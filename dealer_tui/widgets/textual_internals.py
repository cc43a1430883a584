"""What the terminal needs of Textual that Textual does not publish: the one module that names it.

Everything else uses Textual's public API. Each name here is pinned by
`tests/test_textual_internals.py`, so a Textual upgrade that renames or drops one fails there, and
here is the one place to change.
"""

from __future__ import annotations

from typing import Any

from textual.message_pump import MessagePump
from textual.screen import Screen

TOAST_LAYER = "_toastrack"
"""The layer Textual adds to every screen for its toasts, above the screen's own widgets. A line
on it lies over the table (a notice), so showing or hiding it moves nothing else."""


def waiting_for_message(pump: MessagePump) -> bool:
    """Whether a running pump's task is waiting for its next message (not handling one now).

    Textual's message queue says how many messages wait in it, not whether the pump is still
    busy with the one it took: that is whether anything waits on the queue's ready event.
    """
    return bool(pump._message_queue.ready_event._waiters)


class OneFrameScreen(Screen[Any]):
    """A screen whose layout and repaint, asked for before the same frame, make one frame.

    Textual draws a screen that needs both a new layout and a repaint (a dialog shown, a screen
    shown again) twice in one update: the layout's frame, then the repaint's frame of the whole
    screen, the same picture. Marking the whole screen for the layout's frame instead draws it
    once; `bench/tui.py` shows a dialog's key at two frames without this and one with it.
    """

    def _on_timer_update(self) -> None:
        if self._layout_required and self._repaint_required:
            self._dirty_widgets.add(self)  # the layout's frame repaints the whole screen
            self._repaint_required = False
        super()._on_timer_update()
