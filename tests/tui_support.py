"""Helpers for the Pilot tests: a ledger with a seated table and its dealer signed in, and the
app over it; seven players and the keys that play a whole High Card Flush round for them."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from dealer_tui.app import DealerApp, Options, make_app
from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.cards import KeyedEntry, VirtualShoe
from dealer_tui.screens.hold import drawn
from rules.profiles.loader import ProfileLibrary
from tests.staff_support import SUPERVISOR_KEYS, approved, cash_id, staffed, staffed_table

PIN_KEYS = SUPERVISOR_KEYS
"""What the supervisor types into the sign-in dialog (ID, Enter, PIN, Enter)."""
SEVEN = [(s, n, 5000) for s, n in zip(range(1, 8), ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"), strict=True)]


def seated_app(tmp_path: Path, profile: str, players: list[tuple[int, str, int]], *, seats: int = 7,
               seed: int = 5, profiles: Path | None = None, keyed: bool = False) -> DealerApp:
    ledger_path = tmp_path / "ledger.sqlite"
    library = ProfileLibrary([profiles] if profiles else [])
    ledger = SqliteLedger(ledger_path)
    staffed(ledger)
    loaded = approved(ledger, library.find(profile))
    source = KeyedEntry() if keyed else VirtualShoe(random.Random(seed))
    table = staffed_table(ledger, "Pilot", loaded, source, seats=seats)
    for seat, name, buy_in in players:  # cash at the threshold (10,000) is taken with an ID document
        table.seat_player(seat, name, buy_in, document=cash_id(seat, buy_in))
    ledger.close()
    return make_app(ledger_path, profiles=[profiles] if profiles else [], options=Options(seed=seed))
def _full_hcf_round() -> list[str]:
    """Six players ante with both bonus bets, all raise the suggested amount, reveal, payout."""
    keys = ["s", "y"]
    for seat in range(2, 8):
        keys += [str(seat), "a", "1", "0", "tab", "2", "tab", "1", "enter"]
    return [*keys, "d", *(["r", "enter"] * 6), "v"]


def typed_then_drawn(*keys: str) -> Callable[[Any], Awaitable[None]]:
    """A snapshot's keys, typed, then the screen as the last of them left it: drawing held back
    for a dialog is released, however slow the machine (a snapshot's own keys are not waited for),
    and the fields' cursors held still (hidden), as a slow machine would otherwise catch them mid-blink."""

    async def run(pilot: Any) -> None:
        from textual.widgets import Input

        await pilot.press(*keys)
        await drawn()
        for field in pilot.app.screen.query(Input):  # a blinking cursor would be caught on or off by chance
            field.cursor_blink = False
        await pilot.pause()

    return run


def on_top(app: Any) -> Any:
    """What the terminal shows on top: the round screen's open dialog, a dialog screen's dialog,
    or else the screen itself."""
    from dealer_tui.screens.dialog import DialogScreen

    screen = app.screen
    layer = getattr(screen, "dialogs", None)
    if layer is not None and layer.current is not None:
        return layer.current
    if isinstance(screen, DialogScreen):
        return screen.dialog
    return screen
