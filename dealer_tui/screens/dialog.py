"""Dialogs: a question in a box over the screen that asks it, answered by a key.

A dialog is a widget. The round screen keeps its dialogs on a layer of its own, above the
table: the box is drawn over the table and nothing else changes, so opening or answering one
costs what the box and the answer's changes cost (a screen pushed over the table would draw
the whole table again, under a tint, on opening and on closing). It keeps one of each kind it
has shown and puts the next question into it; the kinds every round asks for are built ahead,
before the dealer's first key. Elsewhere (the app's own questions, the floor, the staff) a
dialog is shown on a modal screen of its own (`DialogScreen`).

While a dialog is open the keys are its own: the screen under it takes none of them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, Generic, TypeVar

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Input

from dealer_tui.language import N_
from dealer_tui.screens.hold import Hold
from dealer_tui.widgets.fitted import FittedColumn

ResultT = TypeVar("ResultT")

OUT_OF_SIGHT = 1000
"""Lines above the screen where a dialog built ahead is laid out once, unseen."""


class Dialog(FittedColumn, Generic[ResultT]):
    """A question in a box. `dismiss(answer)` hands the answer to whoever asked; `shape()` says
    which questions one built dialog can take; `reask()` puts another question of that shape into
    it; `opened()` runs each time it is shown."""


    def __init__(self) -> None:
        super().__init__(classes="dialog")
        self._answer: Callable[[ResultT | None], None] | None = None
        self._below = 0

    def on_mount(self) -> None:
        if self._answer is not None:  # mounted to be shown now
            self.opened()

    def shape(self) -> Hashable:
        return ()

    def reask(self, other: Dialog[ResultT]) -> None:
        """Take `other`'s question (a dialog of the same type and shape that was never shown)."""
        raise NotImplementedError

    def opened(self) -> None:
        """Shown with its question: the focus goes to its first field, else to the dialog."""
        target = next((w for w in self.query("*") if w.focusable), self)
        if self.screen.focused is not target:
            target.focus()

    def place(self, below: int) -> None:
        """Keep the last `below` lines of the screen clear (the key bar under the dialog)."""
        self._below = below
        if self.styles.margin.bottom != below:
            self.styles.margin = (0, 0, below, 0)
        height = self.room().height
        if self.styles.max_height is None or self.styles.max_height.value != height:
            self.styles.max_height = height

    def room(self) -> Size:
        """The screen's width, and the height the dialog may take."""
        width, height = self.screen.size
        return Size(width, max(1, height - self._below))

    def put_away(self) -> None:
        """Answered: hidden until its next question (or taken apart)."""

    def answer_to(self, answer: Callable[[ResultT | None], None] | None) -> None:
        self._answer = answer

    def dismiss(self, result: ResultT | None = None) -> None:
        """The answer (None: backed out), handed on once."""
        answer, self._answer = self._answer, None
        if answer is not None:
            self.put_away()
            answer(result)

    def keys(self) -> list[Binding]:
        """This dialog's keys that act now, for the key bar; Enter first in a dialog of fields
        (the fields' own key, which the dialog's bindings do not list)."""
        enter = [Binding("enter", "submit_field", N_("Confirm"))] if self.query(Input) else []
        return [*enter, *(b for b in self.BINDINGS if isinstance(b, Binding) and b.show
                          and self.check_action(b.action, ()) is not False)]

    async def action_submit_field(self) -> None:
        """Enter in the field that has the focus (a click on the key bar's Enter)."""
        focused = self.screen.focused
        if isinstance(focused, Input) and self in focused.ancestors:
            await focused.action_submit()

    class KeysChanged(Message):
        """The keys that act in this dialog changed (its state did): the key bar shows them again."""

    def keys_changed(self) -> None:
        self.post_message(self.KeysChanged())


class DialogScreen(ModalScreen[ResultT]):
    """A dialog on a modal screen of its own, over whatever screen asks it."""

    CSS_PATH = "modal.tcss"
    DEFAULT_CSS = "DialogScreen { align: center middle; background: $background 60%; }"

    def __init__(self, dialog: Dialog[ResultT]) -> None:
        super().__init__()
        self.dialog = dialog
        dialog.answer_to(self._answered)

    def _answered(self, result: ResultT | None) -> None:
        self.dismiss(result)

    def compose(self) -> ComposeResult:
        yield self.dialog


class DialogLayer:
    """A screen's dialogs on its dialog layer: built once by kind and shape, one open at a time
    (a dialog asked while another is open covers it until answered)."""

    def __init__(self, host: Widget, keys: Callable[[], int]) -> None:
        """`keys` shows the keys of the dialog open now (or the screen's, none open) and says how
        many lines at the foot of the screen they take: a dialog leaves them clear."""
        self.host, self.keys = host, keys
        self._built: dict[tuple[type, Hashable], Dialog[Any]] = {}
        self._open: list[Dialog[Any]] = []

    @property
    def current(self) -> Dialog[Any] | None:
        return self._open[-1] if self._open else None

    async def build_ahead(self, dialogs: Sequence[Dialog[Any]]) -> None:
        """Build dialogs before their first question, while the dealer has not pressed a key: each
        is laid out once out of sight, above the screen (its fields get their size then, not in
        the frame of its first question, which would draw twice), and put away."""
        fresh = []
        for dialog in dialogs:
            key = (type(dialog), dialog.shape())
            if key not in self._built:
                self._built[key] = dialog
                dialog.styles.offset = (0, -OUT_OF_SIGHT)
                fresh.append(dialog)
        if fresh:
            await self.host.mount_all(fresh)
            self.host.call_after_refresh(self._put_away, fresh)

    def _put_away(self, dialogs: Sequence[Dialog[Any]]) -> None:
        for dialog in dialogs:
            if dialog not in self._open:
                dialog.display = False
            dialog.styles.offset = (0, 0)

    def ask(self, dialog: Dialog[ResultT], then: Callable[[ResultT | None], None] | None = None) -> Dialog[ResultT]:
        """Show `dialog`'s question, in the dialog of its kind already built if there is one."""
        key = (type(dialog), dialog.shape())
        built = self._built.get(key)
        hold = Hold(self.host.app)  # drawn once, with the dialog's question and its focus in
        if built is None or built in self._open:  # none yet, or that one is open: this one is shown
            shown: Dialog[Any] = dialog
            if built is None:
                self._built[key] = dialog
            self.host.mount(dialog)
        else:
            built.reask(dialog)
            shown = built
        if self._open:
            self._open[-1].display = False
        self._open.append(shown)
        shown.answer_to(lambda result: self._answered(shown, result, then))
        shown.place(self.keys())
        shown.display = True
        if shown.styles.offset.y.value:  # asked before it was put away after its build
            shown.styles.offset = (0, 0)
        if shown is built:  # a new one is opened once mounted (`Dialog.on_mount`)
            shown.opened()
        hold.after_quiet()
        return shown

    def _answered(self, dialog: Dialog[Any], result: Any, then: Callable[[Any], None] | None) -> None:
        hold = Hold(self.host.app)  # drawn once, with the answer's changes and the focus back
        self._open.remove(dialog)
        dialog.display = False
        if self._built.get((type(dialog), dialog.shape())) is not dialog:
            dialog.remove()  # built for one question
        if self._open:
            self._open[-1].place(self.keys())
            self._open[-1].display = True
            self._open[-1].opened()
        else:  # the screen under the dialogs takes its keys unfocused (it focuses nothing)
            self.host.screen.set_focus(None)
        try:
            if then is not None:
                then(result)
        finally:
            self.keys()
            hold.after_quiet()


def ask_over(app: App[Any], dialog: Dialog[ResultT], then: Callable[[ResultT | None], None] | None = None) -> None:
    """Show `dialog` on a modal screen of its own over the app's current screen."""
    app.push_screen(DialogScreen(dialog), then)
