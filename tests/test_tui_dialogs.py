"""The dealer's dialogs over the table (the ante, the round's questions, the payout): while one is
open its keys are the only keys, the key bar shows them, Tab stays in it, a click on the table
under it changes nothing, and keys typed ahead through it are each handled once, in order."""

from __future__ import annotations

from pathlib import Path

from textual.app import App
from textual.widgets import Input

from dealer_tui.rounds.base import Phase
from dealer_tui.screens.amount_dialog import AmountDialog
from dealer_tui.screens.choice_dialog import ChoiceDialog
from dealer_tui.screens.payout_dialog import PayoutDialog
from dealer_tui.screens.round_screen import RoundScreen
from dealer_tui.widgets.fitted import FittedScroll
from dealer_tui.widgets.key_bar import KeyBar
from tests.tui_support import on_top, seated_app

SIZE = (120, 36)
THREE = [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cy", 5000)]


def bar_text(app: App[None]) -> str:
    screen = app.screen
    assert isinstance(screen, RoundScreen)
    return str(screen.query_one(KeyBar).render())


async def test_the_table_keys_do_nothing_while_a_dialog_is_open_over_the_table(tmp_path: Path) -> None:
    """`s` asks seat 1 whether it banks (HCF-18): `d`, `x`, `3` and `T` pressed at the question are
    not the question's keys: nothing is dealt, voided, picked or opened, nothing is recorded, the
    question says the last is not one of its answers, and still waits for its answer."""
    app = seated_app(tmp_path, "high-card-flush", THREE)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        assert isinstance(on_top(app), ChoiceDialog)
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        recorded = len(app.ledger.table_events(app.table.record.id))  # type: ignore[union-attr]
        await pilot.press("d", "x", "3", "T")
        assert isinstance(on_top(app), ChoiceDialog) and app.screen is screen
        assert str(on_top(app).query_one(".hint").render()) == "T is not an answer here: y, n; Esc backs out."
        assert app.table.round is None and screen.selected is None  # type: ignore[union-attr]
        assert len(app.ledger.table_events(app.table.record.id)) == recorded  # type: ignore[union-attr]
        await pilot.press("y")                                  # the question's own key: seat 1 banks
        assert app.table.round is not None and app.table.round.banker == 1  # type: ignore[union-attr]
        assert on_top(app) is screen


async def test_the_key_bar_shows_the_open_dialogs_keys_and_then_the_tables_again(tmp_path: Path) -> None:
    """Over the payout the bar offers its Enter and Esc, not the table's keys (a misdeal, a new
    round); once the payout is confirmed the table's keys are back. A question shows its answers."""
    app = seated_app(tmp_path, "high-card-flush", THREE)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        assert "yes, seat banks" in bar_text(app) and "Back" in bar_text(app) and "New round" not in bar_text(app)
        await pilot.press("y", "2", "a", "enter", "3", "a", "enter", "d", "f", "f", "v")
        assert isinstance(on_top(app), PayoutDialog)
        shown = bar_text(app)
        assert "Confirm payout" in shown and "Back" in shown
        assert "Misdeal" not in shown and "Deal" not in shown and "Floor review" not in shown
        await pilot.press("enter")
        assert app.table.round.phase is Phase.DONE  # type: ignore[union-attr]
        assert "New round" in bar_text(app) and "Confirm payout" not in bar_text(app)


async def test_tab_in_a_dialog_goes_round_its_own_fields_only(tmp_path: Path) -> None:
    """The ante dialog's three fields (ante, Flush bet, Straight Flush bet): Tab goes from one to
    the next and back to the first, never to the table under the dialog."""
    app = seated_app(tmp_path, "high-card-flush", THREE)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "y", "2", "a")
        dialog = on_top(app)
        assert isinstance(dialog, AmountDialog)
        seen = []
        for _ in range(4):
            focused = app.screen.focused
            assert isinstance(focused, Input) and dialog in focused.ancestors
            seen.append(focused.id)
            await pilot.press("tab")
        assert seen == ["amount-0", "amount-1", "amount-2", "amount-0"]


async def test_a_click_on_the_table_under_a_dialog_leaves_the_dialog_its_keys(tmp_path: Path) -> None:
    """A click on seat 1's panel, beside the ante dialog of seat 2: no seat is picked, the focus
    stays in the dialog, and the amount typed next goes into its field."""
    app = seated_app(tmp_path, "high-card-flush", THREE)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "y", "2", "a")
        dialog = on_top(app)
        screen = app.screen
        assert isinstance(dialog, AmountDialog) and isinstance(screen, RoundScreen)
        assert screen.selected == 2
        await pilot.click("#seat-1", offset=(1, 1))  # its left edge, clear of the dialog
        await pilot.pause()
        assert screen.selected == 2 and on_top(app) is dialog
        focused = screen.focused
        assert focused is not None and dialog in focused.ancestors_with_self
        await pilot.press("end", "backspace", "2", "5", "enter")
        assert app.table.round.seats[2].ante == 25  # type: ignore[union-attr]


async def test_keys_typed_ahead_through_the_payout_are_each_handled_once_in_order(tmp_path: Path) -> None:
    """`v`, Enter and `s` sent at once (a fast dealer): the reveal brings the payout, Enter
    confirms it, and `s` starts the next round by asking seat 2 whether it banks (the bank moves
    on after each round, HCF-18)."""
    app = seated_app(tmp_path, "high-card-flush", THREE)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "y", "2", "a", "enter", "3", "a", "enter", "d", "f", "f", "v", "enter", "s")
        question = on_top(app)
        assert isinstance(question, ChoiceDialog) and question.question.startswith("Seat 2 (Bob): bank")
        assert app.table.session.rounds_started == 1  # type: ignore[union-attr]
        assert app.table.round.phase is Phase.DONE  # type: ignore[union-attr]


async def test_the_seats_scroll_by_the_arrow_keys_and_a_picked_seat_comes_into_view(tmp_path: Path) -> None:
    """Ten seats at 80x24 do not fit: picking seat 9 scrolls it into view; Page Up goes back to
    the top and Down scrolls one line."""
    app = seated_app(tmp_path, "palace-poker", [(1, "Ann", 1000), (2, "Bob", 1000), (9, "Ida", 1000)], seats=10,
                     seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        seats = screen.query_one("#seats", FittedScroll)
        assert seats.scroll_y == 0 and seats.max_scroll_y > 0
        await pilot.press("9")
        await pilot.pause()
        assert screen.selected == 9
        assert seats.region.contains_region(screen.query_one("#seat-9").region)
        await pilot.press("pageup")
        await pilot.pause()
        assert seats.scroll_y == 0
        await pilot.press("down")
        await pilot.pause()
        assert seats.scroll_y == 1


async def test_a_question_answered_leaves_no_key_of_its_own_behind(tmp_path: Path) -> None:
    """A question whose answer is `2` is answered; the help screen opens and closes over the table
    (which gives the round screen its focus back): `2` then picks seat 2, as at any other time,
    and is not taken by the question kept hidden for its next use."""
    answers: list[str | None] = []
    app = seated_app(tmp_path, "high-card-flush", THREE)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        screen.ask(ChoiceDialog("Which seat?", [("2", "seat 2"), ("3", "seat 3")]), answers.append)
        await pilot.press("2")
        assert answers == ["2"] and on_top(app) is screen
        await pilot.press("question_mark")
        assert app.screen is not screen
        await pilot.press("escape")
        assert app.screen is screen
        await pilot.press("2")
        assert screen.selected == 2 and answers == ["2"]


async def test_the_key_bar_under_another_screen_shows_that_screens_keys(tmp_path: Path) -> None:
    """The help opens over the table: the bar seen under it offers the help's Close, not the
    table's New round; closed, the table's keys are back."""
    app = seated_app(tmp_path, "high-card-flush", THREE)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        await pilot.press("question_mark")
        await pilot.pause()
        shown = str(screen.query_one(KeyBar).render())
        assert "Close" in shown and "New round" not in shown
        await pilot.press("escape")
        await pilot.pause()
        assert "New round" in bar_text(app) and "Close" not in bar_text(app)


async def test_payout_rows_out_of_sight_are_said_in_the_title(tmp_path: Path) -> None:
    """Seven players at 80x24: the payout shows some of its rows; its title says which ones and
    how many there are, and follows the cursor down."""
    from textual.widgets import Static

    from dealer_tui.widgets.payout_rows import PayoutRows
    from tests.tui_support import SEVEN, _full_hcf_round

    app = seated_app(tmp_path, "high-card-flush", SEVEN, seed=8)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*_full_hcf_round())
        dialog = on_top(app)
        assert isinstance(dialog, PayoutDialog)
        rows = dialog.query_one(PayoutRows)
        total, shown = len(rows.rows), rows.shown_rows
        assert total == 25 and shown < total

        def title() -> str:
            return str(dialog.query_one("#payout-title", Static).render())

        assert title() == f"Payout — rows 1–{shown} of 25 (↑↓ scrolls)"
        await pilot.press(*["down"] * shown)
        assert title() == f"Payout — rows 2–{shown + 1} of 25 (↑↓ scrolls)"
