"""Dialogs that are built once and asked again.

A new screen costs more than anything else a key does: composing it, styling its widgets, and
laying it out over the dimmed table. The round screen keeps one of each dialog it has shown
(installed, so closing it does not take it apart) and puts the next question into it. The
dialogs every round asks for are built ahead, before the dealer's first key. The dialogs are
Textual's modal screens, the table under them dimmed by their translucent background
(`modal.tcss`), drawn as Textual draws them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

from textual.app import App
from textual.screen import ModalScreen
from textual.widget import Widget

from dealer_tui.screens.hold import HOLD_ROUNDS, Hold, drawn_after

ResultT = TypeVar("ResultT")


class Dialog(ModalScreen[ResultT]):
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

    async def build_ahead(self, dialogs: Sequence[Dialog[Any]]) -> None:
        """Build dialogs before their first question, while the dealer has not pressed a key.

        Each is put on the screen stack and taken off again at once, so it is composed, styled
        and laid out without being drawn; the first question it takes is then put into it like
        any later one. Keys pressed meanwhile wait for this (it runs as the app's own message)
        and are handled as soon as it ends. Stops if another screen is showing.
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

    def ask(self, dialog: Dialog[ResultT], then: Callable[[ResultT | None], None] | None = None) -> Dialog[ResultT]:
        """Show `dialog`'s question, in the dialog of its kind already built if there is one."""
        key = (type(dialog), dialog.shape())
        built = self._built.get(key)
        name = f"dialog-{id(dialog)}"
        hold = Hold(self.app)
        if built is not None and built in self.app.screen_stack:  # still open: this one is asked once
            self.app.install_screen(dialog, name)
            self.app.push_screen(dialog, drawn_after(self.via, then, dispose=dialog))
            hold.after_rounds(dialog, HOLD_ROUNDS)
            return dialog
        if built is None:
            built = self._built[key] = dialog
            self.app.install_screen(dialog, name)
        else:
            built.reask(dialog)
        self.app.push_screen(built, drawn_after(self.via, then))
        hold.after_rounds(built, HOLD_ROUNDS)
        return built
