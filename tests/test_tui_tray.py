"""The tray at the table, driven by keys (Pilot): the opener, a fill, a credit and the closer,
each signed by the dealer on duty (PIN) and witnessed by a supervisor (ID and PIN); a buy-in paid
by marker once the tray is counted; a refusal that names why and records nothing."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, Static

from dealer_tui.ledger.base import STAFF_REGISTER
from dealer_tui.screens.amount_dialog import AmountDialog
from dealer_tui.screens.choice_dialog import ChoiceDialog
from dealer_tui.screens.reason_dialog import ReasonDialog
from dealer_tui.screens.round_screen import RoundScreen
from dealer_tui.screens.sign_in_modal import SignInModal
from dealer_tui.widgets.notice import Notice
from dealer_tui.widgets.table_info import TableInfo
from tests.staff_support import DEALER, DEALER_PIN, SUPERVISOR, SUPERVISOR_PIN
from tests.tui_support import on_top, seated_app

SIZE = (120, 36)
CASINO = "high-card-flush-casino"
SIGNATURES = [*DEALER_PIN, "enter", *SUPERVISOR, "enter", *SUPERVISOR_PIN, "enter"]
"""The dealer's PIN (the dialog names the dealer on duty), then the supervisor's ID and PIN."""



def count(*chips: str) -> list[str]:
    """A count typed colour by colour, largest first (1000 orange, 500 purple, 100 black, 25 green,
    5 red, 1 white): each field's chips then Enter (on to the next; in the last, it confirms)."""
    return [key for n in (*chips, *[""] * (6 - len(chips))) for key in (*n, "enter")]


OPENER = count("10", "10", "50", "40")
"""10 × 1000 + 10 × 500 + 50 × 100 + 40 × 25 = 21,000 chips."""


def tray_events(app: object, kind: str) -> list[dict[str, object]]:
    table = app.table  # type: ignore[attr-defined]
    return [e.payload for e in app.ledger.table_events(table.record.id, [kind])]  # type: ignore[attr-defined]


async def test_the_opener_is_counted_by_colour_and_signed_by_the_dealer_and_a_supervisor(tmp_path: Path) -> None:
    app = seated_app(tmp_path, CASINO, [])
    async with app.run_test(size=SIZE) as pilot:
        assert "Tray: no shift (T: opener)" in str(on_top(app).query_one(TableInfo).render())
        await pilot.press("T")
        assert isinstance(on_top(app), ChoiceDialog)
        await pilot.press("o")
        assert isinstance(on_top(app), AmountDialog)
        await pilot.press(*OPENER[:3])                       # 10, Enter: on to the next colour
        assert isinstance(on_top(app), AmountDialog)
        await pilot.press(*OPENER[3:])
        assert isinstance(on_top(app), SignInModal)          # the dealer on duty, named already: the PIN
        assert on_top(app).account == DEALER
        await pilot.press(*SIGNATURES)
        assert isinstance(on_top(app), RoundScreen)
        shift = app.table.tray.shift  # type: ignore[union-attr]
        assert shift is not None and shift.opener == 21_000 and shift.number == 1
        [opener] = tray_events(app, "tray_counted")
        assert opener["count"] == "opener" and opener["total"] == 21_000
        assert opener["chips"] == {"1000": 10, "500": 10, "100": 50, "25": 40}
        assert opener["dealer"] == DEALER and opener["supervisor"] == SUPERVISOR
        assert "Shift 1 · tray 21,000" in str(on_top(app).query_one(TableInfo).render())


async def test_a_supervisor_who_backs_out_of_the_sign_in_leaves_no_opener(tmp_path: Path) -> None:
    app = seated_app(tmp_path, CASINO, [])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("T", "o", *OPENER, *DEALER_PIN, "enter", "escape")
        assert isinstance(on_top(app), RoundScreen)
        assert app.table.tray.shift is None  # type: ignore[union-attr]
        assert tray_events(app, "tray_counted") == []


async def test_a_dealer_cannot_witness_the_tray(tmp_path: Path) -> None:
    """Another dealer (not the one on duty) signs in with the right PIN to witness: a dealer's role may
    not; the dialog says so and stays, the ID field ready for the supervisor's (the next keys are not
    typed into the dealer's PIN)."""
    from tests.staff_support import MANAGER, MANAGER_PIN

    app = seated_app(tmp_path, CASINO, [])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("D", "c", *MANAGER, "enter", *MANAGER_PIN, "enter")   # the manager deals now
        await pilot.press("T", "o", *OPENER, *MANAGER_PIN, "enter", *DEALER, "enter", *DEALER_PIN, "enter")
        assert isinstance(on_top(app), SignInModal)
        assert "only a supervisor or a manager may witness" in str(on_top(app).query_one("#pin-error", Static).render())
        assert tray_events(app, "tray_counted") == []
        await pilot.press(*SUPERVISOR, "enter", *SUPERVISOR_PIN, "enter")
        assert isinstance(on_top(app), RoundScreen)
        [opener] = tray_events(app, "tray_counted")
        assert (opener["dealer"], opener["supervisor"]) == (MANAGER, SUPERVISOR)


async def test_a_fill_a_marker_buy_in_a_credit_and_the_closer(tmp_path: Path) -> None:
    app = seated_app(tmp_path, CASINO, [])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("T", "o", *OPENER, *SIGNATURES)
        # a fill of 10 × 100 on slip F-7
        await pilot.press("T", "f", *"F-7", "enter", *count("", "", "10"), *SIGNATURES)
        [fill] = tray_events(app, "tray_filled")
        assert fill["slip"] == "F-7" and fill["total"] == 1_000 and fill["chips"] == {"100": 10}
        # Ann buys in for 600 on marker M-31, signed by the supervisor (ID and PIN), given 1 × 500 and
        # 1 × 100 (the chips suggested)
        await pilot.press("1", "j", *"Ann", "enter", *"600", "enter")
        assert isinstance(on_top(app), ChoiceDialog)
        await pilot.press("m")
        assert isinstance(on_top(app), ReasonDialog)
        await pilot.press("enter")                                              # no number: asked again
        assert isinstance(on_top(app), ReasonDialog)
        await pilot.press(*"M-31", "enter")
        assert isinstance(on_top(app), SignInModal)
        await pilot.press(*DEALER, "enter", *DEALER_PIN, "enter")              # the dealer may not sign it
        assert "deals at this table" in str(on_top(app).query_one("#pin-error", Static).render())
        # the PIN typed ahead went to the hidden field and was refused with the ID: nothing on screen,
        # nothing recorded; the ID field is next, emptied, and the refusal says another account signs
        assert on_top(app).query_one("#account", Input).value == ""
        assert app.focused is on_top(app).query_one("#account", Input)
        assert str(on_top(app).query_one("#pin-error", Static).render()).endswith(
            "Another account signs in here: its ID, then its PIN (Esc: back).")
        assert app.ledger.table_events(STAFF_REGISTER, ["staff_refused"]) == []  # type: ignore[union-attr]
        await pilot.press(*SUPERVISOR, "enter", *SUPERVISOR_PIN, "enter")
        assert isinstance(on_top(app), AmountDialog)
        await pilot.press("enter")
        [seated] = tray_events(app, "seat_taken")
        assert seated["method"] == "marker" and seated["chips"] == {"500": 1, "100": 1}
        assert (seated["marker"], seated["approved_by"]) == ("M-31", SUPERVISOR)
        # Bob pays 300 cash, given 12 × 25 instead of the suggested 3 × 100
        await pilot.press("2", "j", *"Bob", "enter", *"300", "enter", "c", "ctrl+u")
        await pilot.press("tab", "tab", "backspace", "backspace", "tab", *"12", "enter")
        seats = tray_events(app, "seat_taken")
        assert "method" not in seats[1] and seats[1]["chips"] == {"25": 12}        # cash: the default
        # a credit of 2 × 1000 on slip C-1
        await pilot.press("T", "c", *"C-1", "enter", *count("2"), *SIGNATURES)
        [credit] = tray_events(app, "tray_credited")
        assert credit["total"] == 2_000
        shift = app.table.tray.shift  # type: ignore[union-attr]
        assert shift is not None
        assert shift.expected == 21_000 + 1_000 - 2_000 - 600 - 300      # 19,100
        # the closer: 8 × 1000, 9 × 500, 60 × 100, 28 × 25 = 19,200, 100 over
        await pilot.press("T", "z", *count("8", "9", "60", "28"), *SIGNATURES)
        [_, closer] = tray_events(app, "tray_counted")
        assert closer["count"] == "closer" and closer["total"] == 19_200 and closer["expected"] == 19_100
        assert app.table.tray.shift is None  # type: ignore[union-attr]
        notice = str(on_top(app).query_one(Notice).render())
        assert "100 over against the expected 19,100" in notice


async def test_a_slip_number_is_recorded_once(tmp_path: Path) -> None:
    app = seated_app(tmp_path, CASINO, [])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("T", "o", *OPENER, *SIGNATURES)
        await pilot.press("T", "f", *"F-7", "enter", *count("", "", "1"), *SIGNATURES)
        await pilot.press("T", "f", *"f 7", "enter")                           # F-7 again, as typed another way
        dialog = on_top(app)
        assert isinstance(dialog, ReasonDialog)                                   # asked again, in the dialog
        assert "slip F-7 is already recorded at this table (f 7 is the same number)" in str(
            dialog.query_one("#reason-error", Static).render())
        await pilot.press("escape")
        assert len(tray_events(app, "tray_filled")) == 1


async def test_a_credit_the_tray_cannot_give_is_refused_in_the_chip_dialog(tmp_path: Path) -> None:
    app = seated_app(tmp_path, CASINO, [])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("T", "o", *OPENER, *SIGNATURES)
        await pilot.press("T", "c", *"C-9", "enter", *count("30"))           # 30 × 1000 of a 21,000 tray
        dialog = on_top(app)
        assert isinstance(dialog, AmountDialog)                              # nobody asked to sign for it
        assert str(dialog.query_one("#amount-error", Static).render()) == (
            "A credit of 30,000 is more than the tray holds by the shift's records (21,000)")
        await pilot.press("shift+tab", "shift+tab", "shift+tab", "shift+tab", "shift+tab",   # back to the 1000s
                          "backspace", "backspace", *count("2"), *SIGNATURES)          # 2 × 1000
        [credit] = tray_events(app, "tray_credited")
        assert credit["total"] == 2_000


async def test_chips_that_do_not_make_the_buy_in_keep_the_dialog(tmp_path: Path) -> None:
    app = seated_app(tmp_path, CASINO, [])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("T", "o", *OPENER, *SIGNATURES)
        await pilot.press("1", "j", *"Cy", "enter", *"1535", "enter", "c", "backspace", "0", "enter")
        dialog = on_top(app)
        assert isinstance(dialog, AmountDialog)
        assert "make 535, not the buy-in of 1,535" in str(dialog.query_one("#amount-error", Static).render())
        await pilot.press("ctrl+u", "enter")                                # the suggestion again
        [seated] = tray_events(app, "seat_taken")
        assert seated["buy_in"] == 1535 and seated["chips"] == {"1000": 1, "500": 1, "25": 1, "5": 2}


async def test_i_records_the_picked_players_id_document(tmp_path: Path) -> None:
    """A loyalty-card-like number alone is refused in the dialog, which stays; kind and number go through."""
    app = seated_app(tmp_path, CASINO, [(1, "Ann", 1000)])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1", "I", *"ID-77", "enter")
        assert isinstance(on_top(app), ReasonDialog)                       # no kind: not an ID document
        await pilot.press("ctrl+u", *"Passport  X1234567", "enter")
        assert isinstance(on_top(app), RoundScreen)
        assert app.table.session.players[1].document == "passport X1234567"  # type: ignore[union-attr]
        [identified] = tray_events(app, "player_identified")
        assert identified == {"seat": 1, "card": "", "document": "passport X1234567"}


async def test_a_buy_in_the_tray_cannot_give_is_refused_in_its_dialog(tmp_path: Path) -> None:
    app = seated_app(tmp_path, CASINO, [])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("T", "o", *OPENER, *SIGNATURES)                        # 21,000 in the tray
        await pilot.press("j", *"Ann", "enter", *"19000", "enter", "c")
        dialog = on_top(app)                                                      # 19,000 cash: her ID first
        assert isinstance(dialog, ReasonDialog) and "Identification needed" in dialog.title_text
        await pilot.press(*"passport ID-10101", "enter", "enter")
        [ann] = tray_events(app, "seat_taken")
        assert (ann["player"], ann.get("card"), ann["document"], ann["buy_in"]) == ("Ann", None, "passport ID-10101",
                                                                                   19000)
        await pilot.press("j", *"Bob", "enter", *"3000", "enter")
        dialog = on_top(app)
        assert isinstance(dialog, AmountDialog)                                   # the name and amount kept
        assert str(dialog.query_one("#amount-error", Static).render()) == (
            "The tray holds 2,000 by the shift's records, less than 3,000: a fill from the cage first")


async def test_the_dealer_is_refused_as_a_witness_before_any_pin(tmp_path: Path) -> None:
    from dealer_tui.staff import StaffDesk

    app = seated_app(tmp_path, CASINO, [])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("T", "o", *OPENER, *DEALER_PIN, "enter", *DEALER, "enter")
        assert isinstance(on_top(app), SignInModal)
        assert "deals at this table" in str(on_top(app).query_one("#pin-error", Static).render())
        assert StaffDesk(app.ledger).tries_left(DEALER) == 3                    # no PIN typed, no try spent


async def test_after_the_closer_the_next_opener_comes_first(tmp_path: Path) -> None:
    from textual.widgets import Static as Prompt

    app = seated_app(tmp_path, CASINO, [])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("T", "o", *OPENER, *SIGNATURES, "T", "z", *OPENER, *SIGNATURES)
        prompt = str(on_top(app).query_one("#prompt", Prompt).render())
        assert prompt == "The shift is closed: T counts the next opener before the next round."
        shown = {b.action for b in on_top(app).active_keys()}                    # type: ignore[attr-defined]
        assert not shown & {"start", "join", "more_chips"} and "tray" in shown   # the key bar offers the tray
        await pilot.press("j")
        assert isinstance(on_top(app), RoundScreen)                               # refused on the key
        assert str(on_top(app).query_one(Notice).render()) == (
            "No player sits down between shifts: the table keeps its tray from its first opener on; count the "
            "next opener first (T).")
        await pilot.press("s")
        assert app.table is not None and app.table.round is None
        assert str(on_top(app).query_one(Notice).render()).startswith("No round starts between shifts")


async def test_a_cash_buy_in_at_the_threshold_asks_for_the_id_before_any_shift(tmp_path: Path) -> None:
    """A house-banked table sells its chips with or without a counted opener: 12,000 in cash is over
    the 10,000 threshold, so the join dialog asks for the ID document and seats the player with it."""
    app = seated_app(tmp_path, CASINO, [])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("j", *"Ann", "enter", *"12000", "enter")
        dialog = on_top(app)
        assert isinstance(dialog, ReasonDialog) and "Identification needed" in dialog.title_text
        assert "12,000" in dialog.title_text and "(10,000)" in dialog.title_text
        await pilot.press(*"passport X1234567", "enter")
        assert isinstance(on_top(app), RoundScreen)
        [ann] = tray_events(app, "seat_taken")
        assert (ann["player"], ann["document"], ann["buy_in"]) == ("Ann", "passport X1234567", 12000)
