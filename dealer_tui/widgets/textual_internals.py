"""What the terminal needs of Textual that Textual does not publish: the one module that names it.

Everything else uses Textual's public API. Each name here is pinned by
`tests/test_textual_internals.py`, so a Textual upgrade that renames or drops one fails there, and
here is the one place to change.
"""

from __future__ import annotations

from textual.message_pump import MessagePump

TOAST_LAYER = "_toastrack"
"""The layer Textual adds to every screen for its toasts, above the screen's own widgets. A line
on it lies over the table (a notice), so showing or hiding it moves nothing else."""


def waiting_for_message(pump: MessagePump) -> bool:
    """Whether a running pump's task is waiting for its next message (not handling one now).

    Textual's message queue says how many messages wait in it, not whether the pump is still
    busy with the one it took: that is whether anything waits on the queue's ready event.
    """
    return bool(pump._message_queue.ready_event._waiters)
