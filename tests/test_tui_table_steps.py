"""The dealer's table steps between and during hands, driven by keys (Pilot): what a mis-key
costs, what the terminal asks before it acts, and the reasons it gives."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, Static

from dealer_tui.games.high_card_flush.steps import Ante
from dealer_tui.screens.amount_dialog import AmountDialog
from dealer_tui.screens.round_screen import RoundScreen
from tests.tui_support import SEVEN, _full_hcf_round, on_top, seated_app

SIZE = (120, 36)
HCF_PLAYERS = [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cy", 5000)]


async def test_buying_chips_has_no_default_amount(tmp_path: Path) -> None:
    app = seated_app(tmp_path, "high-card-flush", HCF_PLAYERS)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "m")
        dialog = on_top(app)
        assert isinstance(dialog, AmountDialog)
        assert dialog.query_one("#amount-0", Input).value == ""
        await pilot.press("enter")                       # Enter alone buys nothing
        assert on_top(app) is dialog
        assert str(dialog.query_one("#amount-error", Static).render()) == "Chips: type an amount (100–20000)"
        await pilot.press(*"25000", "enter")             # the profile's buy-in is 100–20000
        assert on_top(app) is dialog
        assert str(dialog.query_one("#amount-error", Static).render()) == (
            "Chips: 25000 is over the most allowed here, 20000 (100–20000)")
        await pilot.press("ctrl+u", *"700", "enter")
        assert isinstance(on_top(app), RoundScreen)
        assert app.table is not None and app.table.session.players[2].stack == 5000 + 700


async def test_z_takes_back_the_last_step_and_the_log_says_so(tmp_path: Path) -> None:
    from dealer_tui.widgets.event_log import EventLog

    app = seated_app(tmp_path, "high-card-flush", HCF_PLAYERS)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "y", "2", "a", *"50", "enter", "3", "a", *"400", "enter")   # 400: meant 40
        rnd = app.table.round  # type: ignore[union-attr]
        assert rnd is not None and rnd.seats[3].ante == 400
        await pilot.press("z")
        assert rnd.seats[3].ante == 0 and rnd.seats[2].ante == 50
        await pilot.press("z")                                  # nothing more to take back: refused, said why
        assert rnd.seats[2].ante == 50
        await pilot.press("3", "a", *"40", "enter")
        assert rnd.seats[3].ante == 40
        kinds = [e.kind for e in app.ledger.round_events(app.table.round_id or 0)]  # type: ignore[union-attr]
        assert kinds.count("step_taken_back") == 1
        log = on_top(app).query_one(EventLog)
        assert "Taken back: seat 3's ante (the dealer's correction)" in log.lines


async def test_f_on_a_seat_with_bonus_bets_asks_first(tmp_path: Path) -> None:
    from dealer_tui.screens.choice_dialog import ChoiceDialog

    app = seated_app(tmp_path, "high-card-flush", HCF_PLAYERS)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "y", "2", "a", *"10", "tab", *"5", "enter", "3", "a", *"10", "enter", "d")
        rnd = app.table.round  # type: ignore[union-attr]
        assert rnd is not None and rnd.to_act().seat == 2  # type: ignore[attr-defined]
        await pilot.press("f")
        assert isinstance(on_top(app), ChoiceDialog)
        assert on_top(app).question == "Seat 2 folds and loses Ante 10, Flush 5 (HCF-6, HCF-11)?"
        await pilot.press("n")
        assert rnd.seats[2].raised is None                      # nothing happened
        await pilot.press("f", "y")
        assert rnd.seats[2].raised == 0
        await pilot.press("f")                                  # seat 3 has no bonus bet: folds at once
        assert rnd.seats[3].raised == 0 and isinstance(on_top(app), RoundScreen)


async def test_ctrl_q_during_a_round_asks_first(tmp_path: Path) -> None:
    from dealer_tui.screens.choice_dialog import ChoiceDialog

    app = seated_app(tmp_path, "high-card-flush", HCF_PLAYERS)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "y", "ctrl+q")
        assert isinstance(on_top(app), ChoiceDialog) and "quit the terminal?" in on_top(app).question
        await pilot.press("n")
        assert isinstance(on_top(app), RoundScreen) and app.is_running
        await pilot.press("ctrl+q", "y")
        assert not app.is_running


async def test_every_payout_row_and_the_confirming_key_are_reachable_at_80x24(tmp_path: Path) -> None:
    from dealer_tui.screens.payout_dialog import PayoutDialog
    from dealer_tui.widgets.payout_rows import PayoutRows

    app = seated_app(tmp_path, "high-card-flush", SEVEN, seed=8)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*_full_hcf_round())
        payout = on_top(app)
        assert isinstance(payout, PayoutDialog)
        hint = payout.query_one("#payout-hint", Static)
        assert hint.region.bottom <= 23 and "Enter confirms" in str(hint.render())   # above the border
        rows = payout.query_one(PayoutRows)
        # 6 players x 4 bets (ante, raise, flush, straight flush) + the DP's bank row = 25 rows
        assert len(rows.rows) == 25 and rows.region.bottom <= 23
        await pilot.press("end")
        assert rows.cursor == 24
        last = str(rows.render()).splitlines()[-1]
        assert last.split()[0] == rows.rows[24][0] and rows.rows[24][1].split()[0] in last   # drawn, in view
        await pilot.press("enter")
        assert app.table.round.phase.value == "done"  # type: ignore[union-attr]


async def test_a_places_the_seats_bets_of_last_round_in_one_key(tmp_path: Path) -> None:
    players = [*HCF_PLAYERS, (4, "Dee", 5000)]
    app = seated_app(tmp_path, "high-card-flush", players)
    async with app.run_test(size=SIZE) as pilot:
        # round 1: seat 1 banks; seat 3 antes 25 with a Flush bet of 5 and a Straight Flush bet of 2
        await pilot.press("s", "y", "2", "a", "enter", "3", "a", *"25", "tab", "5", "tab", "2", "enter",
                          "4", "a", "enter", "d", "f", "f", "y", "f")   # all fold (seat 3 is asked first)
        rnd = app.table.round  # type: ignore[union-attr]
        assert rnd is not None
        if rnd.phase.value == "reveal":
            await pilot.press("v")
        await pilot.press("p", "enter")
        assert rnd.phase.value == "done"
        # round 2: seat 2 banks (HCF-18); seat 3 picked, A: the same three bets
        await pilot.press("s", "y", "3", "A")
        rnd = app.table.round  # type: ignore[union-attr]
        assert rnd is not None and rnd.banker == 2
        assert (rnd.seats[3].ante, rnd.seats[3].flush, rnd.seats[3].straight_flush) == (25, 5, 2)
        assert str(on_top(app).query_one("#notice").render()).startswith("Seat 3 antes 25, flush 5, straight flush 2")
        await pilot.press("4", "A")                             # seat 4 anted the minimum 5, no bonus bets
        assert (rnd.seats[4].ante, rnd.seats[4].flush) == (5, 0)
        await pilot.press("1", "A")                             # seat 1 banked last round: nothing to repeat
        assert not rnd.seats[1].playing
        assert "Seat 1 placed no bets last round" in str(on_top(app).query_one("#notice").render())


def notice_text(app: object) -> str:
    from dealer_tui.widgets.notice import Notice

    notice = on_top(app).query_one(Notice)  # type: ignore[attr-defined]
    return str(notice.render()) if notice.display else ""


async def test_d_with_no_ante_says_no_ante_is_placed_yet(tmp_path: Path) -> None:
    app = seated_app(tmp_path, "high-card-flush", HCF_PLAYERS)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "y", "d")
        assert notice_text(app) == ("The table may not deal: no ante is placed yet: pick a seat (its number), "
                                    "then a antes it")


async def test_r_a_fourth_box_names_the_box_limit_and_o_before_an_ante_says_why(tmp_path: Path) -> None:
    app = seated_app(tmp_path, "one-or-five", [(1, "Ann", 1000), (2, "Bob", 1000)], seats=6)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "1", "o")
        assert notice_text(app).startswith("Seat 1 may not mark an open box: seat 1 has no box yet: ante a box first")
        await pilot.press("1", "a", "enter", "1", "a", "enter", "1", "a", "enter")   # three boxes: the most
        await pilot.press("1", "a")
        assert notice_text(app) == "Seat 1 may not ante: a player may play at most 3 boxes (seat 2 may)."


async def test_a_notice_that_no_longer_applies_is_cleared(tmp_path: Path) -> None:
    app = seated_app(tmp_path, "high-card-flush", HCF_PLAYERS)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "y", "d")
        assert notice_text(app).startswith("The table may not deal")
        screen = on_top(app)
        assert isinstance(screen, RoundScreen) and app.table is not None

        app.table.act(Ante(seat=2, amount=10, flush=0, straight_flush=0))  # the table moves on
        screen.refresh_view()
        await pilot.pause()
        assert notice_text(app) == ""


async def test_each_games_phase_track_shows_its_own_phases(tmp_path: Path) -> None:
    from dealer_tui.widgets.phase_track import PhaseTrack

    cp = seated_app(tmp_path, "chinese-poker", [(1, "Ann", 100), (2, "Bob", 100)], seats=4)
    async with cp.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert str(cp.screen.query_one(PhaseTrack).render()) == "DEAL ▸ SET ROWS ▸ REVEAL ▸ PAYOUT"
    hcf_dir = tmp_path / "hcf"
    hcf_dir.mkdir()
    hcf = seated_app(hcf_dir, "high-card-flush", HCF_PLAYERS)
    async with hcf.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert str(hcf.screen.query_one(PhaseTrack).render()) == "ANTE ▸ DEAL ▸ ACT ▸ REVEAL ▸ PAYOUT"


async def test_every_payout_row_is_reachable_at_120x36(tmp_path: Path) -> None:
    from dealer_tui.screens.payout_dialog import PayoutDialog
    from dealer_tui.widgets.payout_rows import PayoutRows

    app = seated_app(tmp_path, "high-card-flush", SEVEN, seed=8)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*_full_hcf_round())
        payout = on_top(app)
        assert isinstance(payout, PayoutDialog)
        rows = payout.query_one(PayoutRows)
        # the widget is as tall as the rows it shows and the header: nothing drawn is cut off
        assert rows.region.height == min(len(rows.rows), rows.shown_rows) + 1
        await pilot.press("end")
        last = str(rows.render()).splitlines()[-1]
        assert rows.cursor == 24 and last.split()[0] == rows.rows[24][0] and rows.rows[24][1] in last   # the DP's bank row


async def test_o_sits_the_picked_player_out_and_back_in(tmp_path: Path) -> None:
    """Typed ahead in one burst: pick seat 2, sit Bob out, bring him back, sit him out again and
    start the round: it deals Ann and Cy only, Bob's panel says he sits out; during the hand O is
    refused with the reason."""
    from dealer_tui.widgets.notice import Notice
    from dealer_tui.widgets.seat_panel import SeatPanel

    app = seated_app(tmp_path, "one-or-five", HCF_PLAYERS)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "O", "O", "O", "s")
        assert app.table is not None and app.table.session.players[2].away
        ledger = app.ledger
        assert ledger is not None
        kinds = [e.kind for e in ledger.table_events(app.table.record.id, ["seat_away"])]
        assert len(kinds) == 3                                            # out, back, out: each key once
        rnd = app.table.round
        assert rnd is not None and sorted(rnd.players) == [1, 3]          # type: ignore[attr-defined]
        view = on_top(app).query_one("#seat-2", SeatPanel).view
        assert view is not None and view.out and view.note == "sitting out"             # O waits for the hand's end
        await pilot.press("2", "O")                                       # during the hand: refused
        assert app.table.session.players[2].away
        assert (on_top(app).query_one(Notice).message or "").startswith("Sit out / back waits for the end of the hand")


async def test_a_game_key_on_a_seat_sitting_out_acts_for_no_other_seat(tmp_path: Path) -> None:
    """Chinese Poker: with Bob (seat 2) sitting out and picked, g (suggest) would set the rows of
    the next seat needing them; it is refused, saying he sits out, and no seat's rows are set."""
    from dealer_tui.widgets.notice import Notice

    app = seated_app(tmp_path, "chinese-poker", [(1, "Ann", 100), (2, "Bob", 100), (3, "Cy", 100)])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "O", "s", "d", "2", "g", "k")
        assert app.table is not None and app.table.round is not None
        assert [e.kind for e in app.table.round.events] == ["round_started", "cards_dealt"]
        assert (on_top(app).query_one(Notice).message or "") == (
            "Seat 2 (Bob) sits out this hand: O brings them back between hands.")


async def test_a_seat_that_did_not_ante_is_not_called_sitting_out(tmp_path: Path) -> None:
    """High Card Flush, casino: Bob (seat 2) sits out, Cy (seat 3) places no ante: after the deal
    Bob's panel says he sits out, Cy's only that he has no ante this hand."""
    from dealer_tui.widgets.seat_panel import SeatPanel

    app = seated_app(tmp_path, "high-card-flush-casino", HCF_PLAYERS)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "O", "s", "1", "a", *"10", "enter", "d")
        notes = {n: on_top(app).query_one(f"#seat-{n}", SeatPanel).view.note for n in (2, 3)}  # type: ignore[union-attr]
        assert notes == {2: "sitting out", 3: "no ante this hand"}
