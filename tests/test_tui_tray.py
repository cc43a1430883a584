"""The tray at the table, driven by keys (Pilot): the opener, a fill, a credit and the closer,
each signed by the dealer on duty (PIN) and witnessed by a supervisor (ID and PIN); a buy-in paid
by marker once the tray is counted; a refusal that names why and records nothing."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from dealer_tui.screens.amount_modal import AmountModal
from dealer_tui.screens.choice_modal import ChoiceModal
from dealer_tui.screens.round_screen import RoundScreen
from dealer_tui.screens.sign_in_modal import SignInModal
from dealer_tui.widgets.notice import Notice
from dealer_tui.widgets.table_info import TableInfo
from tests.staff_support import DEALER, DEALER_PIN, SUPERVISOR, SUPERVISOR_PIN
from tests.tui_support import seated_app

SIZE = (120, 36)
CASINO = "high-card-flush-casino"
SIGNATURES = [*DEALER_PIN, "enter", *SUPERVISOR, "enter", *SUPERVISOR_PIN, "enter"]
"""The dealer's PIN (the dialog names the dealer on duty), then the supervisor's ID and PIN."""

# The casino chip set, largest first: 1000 orange, 500 purple, 100 black, 25 green, 5 red, 1 white.
OPENER = ["1", "0", "tab", "1", "0", "tab", "5", "0", "tab", "4", "0"]
"""10 × 1000 + 10 × 500 + 50 × 100 + 40 × 25 = 21,000 chips."""


def tray_events(app: object, kind: str) -> list[dict[str, object]]:
    table = app.table  # type: ignore[attr-defined]
    return [e.payload for e in app.ledger.table_events(table.record.id, [kind])]  # type: ignore[attr-defined]


async def test_the_opener_is_counted_by_colour_and_signed_by_the_dealer_and_a_supervisor(tmp_path: Path) -> None:
    app = seated_app(tmp_path, CASINO, [])
    async with app.run_test(size=SIZE) as pilot:
        assert "Tray: no shift (T: opener)" in str(app.screen.query_one(TableInfo).render())
        await pilot.press("T")
        assert isinstance(app.screen, ChoiceModal)
        await pilot.press("o")
        assert isinstance(app.screen, AmountModal)
        await pilot.press(*OPENER, "enter")
        assert isinstance(app.screen, SignInModal)          # the dealer on duty, named already: the PIN
        assert app.screen.account == DEALER
        await pilot.press(*SIGNATURES)
        assert isinstance(app.screen, RoundScreen)
        shift = app.table.tray.shift  # type: ignore[union-attr]
        assert shift is not None and shift.opener == 21_000 and shift.number == 1
        [opener] = tray_events(app, "tray_counted")
        assert opener["count"] == "opener" and opener["total"] == 21_000
        assert opener["chips"] == {"1000": 10, "500": 10, "100": 50, "25": 40}
        assert opener["dealer"] == DEALER and opener["supervisor"] == SUPERVISOR
        assert "Shift 1 · tray 21,000" in str(app.screen.query_one(TableInfo).render())


async def test_a_supervisor_who_backs_out_of_the_sign_in_leaves_no_opener(tmp_path: Path) -> None:
    app = seated_app(tmp_path, CASINO, [])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("T", "o", *OPENER, "enter", *DEALER_PIN, "enter", "escape")
        assert isinstance(app.screen, RoundScreen)
        assert app.table.tray.shift is None  # type: ignore[union-attr]
        assert tray_events(app, "tray_counted") == []


async def test_the_dealer_cannot_witness_their_own_count(tmp_path: Path) -> None:
    app = seated_app(tmp_path, CASINO, [])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("T", "o", *OPENER, "enter", *DEALER_PIN, "enter", *DEALER, "enter", *DEALER_PIN, "enter")
        # a dealer's account may not sign in to witness the tray: the dialog says so and stays
        assert isinstance(app.screen, SignInModal)
        assert "supervisor" in str(app.screen.query_one("#pin-error", Static).render())
        await pilot.press("escape")
        assert tray_events(app, "tray_counted") == []


async def test_a_fill_a_marker_buy_in_a_credit_and_the_closer(tmp_path: Path) -> None:
    app = seated_app(tmp_path, CASINO, [])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("T", "o", *OPENER, "enter", *SIGNATURES)
        # a fill of 10 × 100 on slip F-7
        await pilot.press("T", "f", *"F-7", "enter", "tab", "tab", "1", "0", "enter", *SIGNATURES)
        [fill] = tray_events(app, "tray_filled")
        assert fill["slip"] == "F-7" and fill["total"] == 1_000 and fill["chips"] == {"100": 10}
        # Ann buys in for 600 by marker, given 1 × 500 and 1 × 100 (the chips suggested)
        await pilot.press("1", "j", *"Ann", "enter", *"600", "enter")
        assert isinstance(app.screen, ChoiceModal)
        await pilot.press("m")
        assert isinstance(app.screen, AmountModal)
        await pilot.press("enter")
        [seated] = tray_events(app, "seat_taken")
        assert seated["method"] == "marker" and seated["chips"] == {"500": 1, "100": 1}
        # Bob pays 300 cash, given 12 × 25 instead of the suggested 3 × 100
        await pilot.press("2", "j", *"Bob", "enter", *"300", "enter", "c", "ctrl+u")
        await pilot.press("tab", "tab", "backspace", "backspace", "tab", *"12", "enter")
        seats = tray_events(app, "seat_taken")
        assert "method" not in seats[1] and seats[1]["chips"] == {"25": 12}        # cash: the default
        # a credit of 2 × 1000 on slip C-1
        await pilot.press("T", "c", *"C-1", "enter", "2", "enter", *SIGNATURES)
        [credit] = tray_events(app, "tray_credited")
        assert credit["total"] == 2_000
        shift = app.table.tray.shift  # type: ignore[union-attr]
        assert shift is not None
        assert shift.expected == 21_000 + 1_000 - 2_000 - 600 - 300      # 19,100
        # the closer: 8 × 1000, 9 × 500, 60 × 100, 28 × 25 = 19,200, 100 over
        await pilot.press("T", "z", "8", "tab", "9", "tab", *"60", "tab", *"28", "enter", *SIGNATURES)
        [_, closer] = tray_events(app, "tray_counted")
        assert closer["count"] == "closer" and closer["total"] == 19_200 and closer["expected"] == 19_100
        assert app.table.tray.shift is None  # type: ignore[union-attr]
        notice = str(app.screen.query_one(Notice).render())
        assert "100 over against the expected 19,100" in notice


async def test_a_slip_number_is_recorded_once(tmp_path: Path) -> None:
    app = seated_app(tmp_path, CASINO, [])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("T", "o", *OPENER, "enter", *SIGNATURES)
        await pilot.press("T", "f", *"F-7", "enter", "tab", "tab", "1", "enter", *SIGNATURES)
        await pilot.press("T", "f", *"F-7", "enter")
        assert isinstance(app.screen, RoundScreen)
        assert "slip F-7 is already recorded at this table" in str(app.screen.query_one(Notice).render())
        assert len(tray_events(app, "tray_filled")) == 1
