"""Keys handled in the order they were pressed, each by the screen current when it is handled.

Textual hands a key to the focused widget the moment the key arrives, while the keys before it
may still be on their way: a Tab that moves the focus, an Enter that opens a dialog or moves to
the next line, are handled a few messages later. Keys that come faster than that (a paste, a
card reader, a dealer typing ahead, a terminal sending a whole sequence) went to the widget that
had the focus before. Here each key (and each paste) waits until everything the one before it
set off has run — its handlers, the messages they sent, a screen pushed or dismissed and the
focus it takes — and is then handed to whatever has the focus.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from textual import events
from textual.app import App, SystemCommand
from textual.command import CommandPalette
from textual.message_pump import MessagePump
from textual.screen import Screen
from textual.theme import ThemeProvider

from dealer_tui.language import N_, _
from dealer_tui.widgets.textual_internals import waiting_for_message

QUIET_LIMIT_S = 2.0
"""The longest a key waits for the one before it; past this (a handler waiting on something
that never comes) it is handled all the same, still in order."""

Typed = events.Key | events.Paste


class KeyOrder:
    """The keys and pastes an app has received and not yet handed on, oldest first."""

    def __init__(self, app: App[Any]) -> None:
        self.app = app
        self._waiting: deque[Typed] = deque()
        self._released: set[int] = set()
        self._task: asyncio.Task[None] | None = None
        self.enabled = True
        """Off, keys go straight to the focused widget as Textual hands them (for comparing)."""

    def take(self, event: events.Event) -> bool:
        """Whether the app should leave `event` to this queue (it will come back, in its turn)."""
        if not self.enabled or not isinstance(event, (events.Key, events.Paste)) or event.is_forwarded:
            return False
        if id(event) in self._released:
            self._released.discard(id(event))
            return False
        self._waiting.append(event)
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._hand_on())
        return True

    @property
    def pending(self) -> int:
        """Keys received and not yet handed on."""
        return len(self._waiting)

    async def _hand_on(self) -> None:
        try:
            while self._waiting:
                await quiet(self.app)
                event = self._waiting.popleft()
                self._released.add(id(event))
                if not self.app.post_message(event):
                    self._released.discard(id(event))
                    return
                await quiet(self.app)
        finally:
            self._task = None


def _pumps(app: App[Any]) -> Iterator[MessagePump]:
    yield app
    for screen in app.screen_stack:
        yield from screen.walk_children(with_self=True)


def _busy(pump: MessagePump) -> bool:
    """A message waiting in the pump's queue, or one it is handling now (its task is running
    and not waiting for the next message)."""
    if pump.message_queue_size:
        return True
    return pump.is_running and not waiting_for_message(pump)


async def quiet(app: App[Any]) -> None:
    """Return once no message of the app, its screens and their widgets is waiting or running."""
    deadline = time.monotonic() + QUIET_LIMIT_S
    quiet = 0
    while quiet < 2 and time.monotonic() < deadline:
        await asyncio.sleep(0)  # what was scheduled meanwhile gets its turn
        quiet = 0 if any(_busy(pump) for pump in _pumps(app)) else quiet + 1


TEXTUAL_COMMANDS = (
    N_("Theme"), N_("Change the current theme"), N_("Quit"), N_("Quit the application as soon as possible"),
    N_("Minimize"), N_("Minimize the widget and restore to normal size"),
    N_("Maximize"), N_("Maximize the focused widget"),
    N_("Exit the command palette"),
)
"""The command palette's own commands as Textual words them, for the catalogs: the palette shows
each in the reader's language (`OrderedKeysApp.get_system_commands`)."""


LEFT_OUT = frozenset({"Keys", "Screenshot"})
"""Textual's commands a table's terminal does not offer, by the title Textual gives them."""


class OrderedKeysApp(App[None]):
    """An app whose keys and pastes are handled strictly in order (`KeyOrder`). Over a dialog its
    notices sit at the top, clear of the dialog's fields and keys (a dialog is centred, its keys
    at its foot)."""

    CSS = """
    ModalScreen ToastRack { dock: top; align: right top; margin-bottom: 0; }
    ModalScreen Toast { margin-top: 0; padding: 0 1; max-width: 75%; }
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.key_order = KeyOrder(self)
        self.clock = clock
        self.last_key = clock()
        """When the last key or paste arrived (`clock`): how long the terminal has been left alone."""

    def idle_seconds(self) -> float:
        return self.clock() - self.last_key

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """Textual's own commands in the reader's language; less its key panel, which would list
        the keys in English (the key bar and the help, `?`, list them in the reader's), and its
        screenshot, which writes an SVG to a downloads folder a table's terminal has no use for."""
        for command in super().get_system_commands(screen):
            if command.title in LEFT_OUT:
                continue
            yield SystemCommand(_(command.title), _(command.help), command.callback, command.discover)

    def search_themes(self) -> None:
        """Textual's theme picker, its search line in the reader's language."""
        self.push_screen(CommandPalette(providers=[ThemeProvider], placeholder=_("Search for themes…")))

    def action_command_palette(self) -> None:
        """Textual's command palette, its search line in the reader's language."""
        if self.use_command_palette and not isinstance(self.screen, CommandPalette):
            self.push_screen(CommandPalette(id="--command-palette", placeholder=_("Search for commands…")))

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, (events.Key, events.Paste)):
            self.last_key = self.clock()
        if self.key_order.take(event):
            return
        await super().on_event(event)
