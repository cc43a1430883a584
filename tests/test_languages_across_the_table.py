"""One round, two readers: the dealer deals it in Russian, the supervisor reviews and signs it off
on the floor in Hungarian. Each reads the payout's reasons in their own language, and the record
holds the same codes and figures whoever read it: no sentence in either language is stored."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

from rich.console import Console
from textual.widgets import Static

from dealer_tui.audit import verify_ledger
from dealer_tui.games import GAMES
from dealer_tui.games.high_card_flush.round import HighCardFlushRound
from dealer_tui.language import use_terminal
from dealer_tui.ledger import SqliteLedger
from dealer_tui.screens.floor_signoff import SignOffScreen
from dealer_tui.screens.floor_story import StoryScreen
from dealer_tui.screens.payout_dialog import PayoutDialog
from dealer_tui.staff import SET_LANGUAGE, Purpose, StaffDesk
from tests.hcf_support import low_threshold_profiles
from tests.staff_support import (
    DEALER,
    DEALER_PIN,
    SUPERVISOR,
    SUPERVISOR_PIN,
    SUPERVISOR_PIN_KEYS,
    floor_review,
)
from tests.tui_support import on_top, seated_app

SIZE = (120, 36)
CYRILLIC = re.compile("[А-Яа-яЁё]")
HUNGARIAN = re.compile("[őűŐŰáéíóöúü]")


def languages(path: Path, dealer: str, supervisor: str) -> None:
    desk = StaffDesk(SqliteLedger(path))
    desk.set_language(DEALER, dealer, desk.sign_in(DEALER, DEALER_PIN, Purpose(SET_LANGUAGE, "own language")))
    desk.set_language(SUPERVISOR, supervisor, desk.sign_in(SUPERVISOR, SUPERVISOR_PIN, Purpose(SET_LANGUAGE, "own")))
    desk.ledger.close()


def story_text(story: StoryScreen) -> str:
    """The round's story as the floor's screen draws it, as plain text."""
    console = Console(width=120, record=True, file=io.StringIO())
    console.print(story.query_one("#story-text", Static).content)
    return console.export_text()


def text(widget: Static) -> str:
    return str(widget.render())


async def at_big_payout_read_in(tmp_path: Path, dealer: str, supervisor: str):  # type: ignore[no-untyped-def]
    """A dealer app whose round waits on the payout screen with a win that needs sign-off, the
    dealer and the supervisor each reading their own language."""
    own = low_threshold_profiles(tmp_path)
    for seed in range(1, 40):
        where = tmp_path / str(seed)
        where.mkdir()
        app = seated_app(where, "casino-low", [(1, "Ann", 5000)], seed=seed, profiles=own)
        languages(where / "ledger.sqlite", dealer, supervisor)
        cm = app.run_test(size=SIZE)
        pilot = await cm.__aenter__()
        await pilot.press("s", "1", "a", "enter", "d", "r", "enter", "v")
        rnd = app.table.round
        if isinstance(rnd, HighCardFlushRound) and rnd.sign_off_needed():
            return app, pilot, cm, where
        await cm.__aexit__(None, None, None)
    raise AssertionError("no seed gave a winning casino hand")


async def test_a_round_dealt_in_russian_is_signed_off_in_hungarian_and_recorded_in_neither(tmp_path: Path) -> None:
    app, pilot, cm, where = await at_big_payout_read_in(tmp_path, "ru", "hu")
    try:
        payout = on_top(app)
        assert isinstance(payout, PayoutDialog)
        why = text(payout.query_one("#payout-why", Static))
        assert CYRILLIC.search(why) and "beats" not in why and "loses" not in why, why
        await pilot.press("r")                                 # sent to the floor
        floor = floor_review(where / "ledger.sqlite")
        async with floor.run_test(size=SIZE) as fp:
            await fp.press("s")
            queue = floor.screen
            assert isinstance(queue, SignOffScreen)
            await fp.press("enter")                            # the round's story, to decide on
            story = floor.screen
            assert isinstance(story, StoryScreen)
            told = story_text(story)
            assert "Elszámolás" in told or HUNGARIAN.search(told), told[:400]
            assert not CYRILLIC.search(told) and " beats the " not in told
            await fp.press("escape", "a", *SUPERVISOR_PIN_KEYS)  # approved, with the supervisor's PIN
        payout._poll()
        await pilot.pause()
        await pilot.press("enter")
        events = [e.payload for e in app.ledger.round_events(app.table.round_id)]
    finally:
        await cm.__aexit__(None, None, None)
        use_terminal("en")
    stored = json.dumps(events, ensure_ascii=False)
    assert not CYRILLIC.search(stored) and not HUNGARIAN.search(stored), stored[:300]
    payout_rows = next(e for e in events if "rows" in e and "stack_changes" in e)["rows"]
    assert all(set(row["reason"]) >= {"said", "values"} for row in payout_rows)
    assert verify_ledger(SqliteLedger(where / "ledger.sqlite", readonly=True), GAMES) == []
