"""The dealer's terminal driven by key presses (Textual Pilot): whole rounds, the honest footer,
supervisor sign-off and its lock-out."""

from __future__ import annotations

from pathlib import Path

from dealer_tui.games.high_card_flush.round import HighCardFlushRound
from dealer_tui.games.one_or_five.round import OneOrFiveRound
from dealer_tui.ledger.base import STAFF_REGISTER
from dealer_tui.rounds.base import Phase
from dealer_tui.screens.payout_dialog import PayoutDialog
from dealer_tui.screens.round_screen import RoundScreen
from dealer_tui.screens.sign_in_modal import SignInModal as PinModal
from dealer_tui.widgets.notice import Notice
from rules.profiles.loader import load_profile_file, shipped_dir
from tests.staff_support import SUPERVISOR, SUPERVISOR_PIN_KEYS, approved
from tests.tui_support import PIN_KEYS, on_top, seated_app

SIZE = (120, 36)


def footer_actions(screen: RoundScreen) -> set[str]:
    """The actions the footer offers now (what check_action lets through)."""
    return {b.action.split("(")[0] for b in screen.active_keys()}


async def test_hcf_full_round_by_keys_settles_as_the_rules_do(tmp_path: Path) -> None:
    app = seated_app(tmp_path, "high-card-flush", [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cy", 5000)])
    async with app.run_test(size=SIZE) as pilot:
        screen = on_top(app)
        assert isinstance(screen, RoundScreen)
        assert footer_actions(screen) >= {"start"} and "reveal" not in footer_actions(screen)
        await pilot.press("s", "y")          # seat 1 accepts the bank (HCF-18)
        rnd = app.table.round  # type: ignore[union-attr]
        assert isinstance(rnd, HighCardFlushRound) and rnd.banker == 1
        assert footer_actions(screen) >= {"ante", "void"} and not footer_actions(screen) & {"reveal", "payout", "raise_bet"}
        await pilot.press("2", "a", "enter")  # seat 2 antes the table minimum, no bonus bets
        await pilot.press("3", "a", "2", "0", "enter")  # seat 3 antes 20
        assert (rnd.seats[2].ante, rnd.seats[3].ante) == (5, 20)
        await pilot.press("d")
        assert rnd.phase is Phase.ACT
        assert "deal" not in footer_actions(screen) and {"raise_bet", "fold"} <= footer_actions(screen)
        await pilot.press("r", "enter")       # seat 2 raises the suggested (largest) amount
        await pilot.press("f")                # seat 3 folds
        assert rnd.phase is Phase.REVEAL and footer_actions(screen) & {"reveal"}
        await pilot.press("v")
        assert rnd.phase is Phase.PAYOUT
        await pilot.press("enter")            # confirm on the payout screen
        assert rnd.phase is Phase.DONE
        # The seeded shoe (seed 5) dealt seat 2 Jh Qh Ks 3h 6s 3d 9s: two 3-card flushes, K-9-6 of
        # spades plays over Q-J-3 of hearts (HCF-2), so its raise is capped at 1x = 5 (HCF-6).
        assert [c.text for c in rnd.seats[2].cards] == "Jh Qh Ks 3h 6s 3d 9s".split()
        # The DP (seat 1) holds 9h Ts Js 6h 4c Td Ac: no suit has three cards, its best is the
        # 2-card flush A-4 of clubs, which does not qualify (HCF-7).
        assert [c.text for c in rnd.banker_cards] == "9h Ts Js 6h 4c Td Ac".split()
        rows = {(r.seat, r.bet): (r.stake, r.result)
                for r in app.ledger.settlement(app.table.round_id or 0)}  # type: ignore[union-attr]
        assert rows == {
            (2, "ante"): (5, +5),    # HCF-8: the DP does not qualify, a raised hand's Ante wins 1:1
            (2, "raise"): (5, 0),    # HCF-8: and its Raise pushes
            (3, "ante"): (20, -20),  # HCF-6: seat 3 folded, its Ante is lost
            (1, "bank"): (0, +15),   # the DP: +20 from seat 3, -5 to seat 2; no rake
        }
        stacks = {s: p.stack for s, p in app.table.session.players.items()}  # type: ignore[union-attr]
        assert stacks == {1: 5000 + 15, 2: 5000 + 5, 3: 5000 - 20}
        assert app.table.session.chips_balance() == 0  # type: ignore[union-attr]


async def test_hcf_a_seat_picked_to_raise_is_let_go_and_the_next_key_acts_for_the_seat_whose_turn_it_is(
        tmp_path: Path) -> None:
    """HCF-6: seats act in turn after the deal. The dealer picks seat 2 and raises for it; `f`
    pressed next, with no seat picked, folds seat 3 (its turn), not refused for seat 2."""
    app = seated_app(tmp_path, "high-card-flush", [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cy", 5000)])
    async with app.run_test(size=SIZE) as pilot:
        screen = on_top(app)
        assert isinstance(screen, RoundScreen)
        await pilot.press("s", "y", "2", "a", "enter", "3", "a", "enter", "d")
        rnd = app.table.round  # type: ignore[union-attr]
        assert isinstance(rnd, HighCardFlushRound) and rnd.phase is Phase.ACT
        await pilot.press("2", "r", "enter")
        assert screen.selected is None                 # seat 2 has nothing left to do: let go
        await pilot.press("f")
        assert rnd.seats[3].raised == 0 and rnd.phase is Phase.REVEAL   # 0: folded


async def test_r_one_or_five_full_round_with_an_exchange_by_keys(tmp_path: Path) -> None:
    app = seated_app(tmp_path, "one-or-five", [(1, "Ann", 1000), (2, "Bob", 1000)], seats=6)
    async with app.run_test(size=SIZE) as pilot:
        screen = on_top(app)
        assert isinstance(screen, RoundScreen)
        await pilot.press("s", "1", "a", "enter", "2", "a", "enter", "d", "p")  # cut by the player
        rnd = app.table.round  # type: ignore[union-attr]
        assert isinstance(rnd, OneOrFiveRound) and rnd.phase is Phase.ACT and rnd.cut_by == "player"
        assert {"exchange", "close_box", "fold"} <= footer_actions(screen)
        box = rnd.current_box()
        assert box is not None and box.number == 1
        await pilot.press("e", "1", "enter")  # exchange the first card
        assert box.exchanged == 1 and rnd.committed(1) == 10  # ante 5 + fee 5
        assert "exchange" not in footer_actions(screen)
        # Box 1 drew Ts for its Ks: Q-J-T-6-3, high card; closed, it may not be insured (R-9 needs
        # a straight or better), so the turn passes straight to box 2.
        assert [c.text for c in box.cards] == "Jh Qh 3h 6s Ts".split()
        await pilot.press("b")
        assert not footer_actions(screen) & {"insure", "no_insurance"}
        assert rnd.current_box() is not None and rnd.current_box().number == 2  # type: ignore[union-attr]
        await pilot.press("f")                 # box 2 passes
        assert rnd.phase is Phase.REVEAL
        await pilot.press("v", "enter")
        assert rnd.phase is Phase.DONE
        # The dealer shows 2s 8h Kc 7s 9h: king-high without an ace, no game.
        assert [c.text for c in rnd.dealer] == "2s 8h Kc 7s 9h".split()
        rows = {(r.seat, r.bet): (r.stake, r.result)
                for r in app.ledger.settlement(app.table.round_id or 0)}  # type: ignore[union-attr]
        assert rows == {
            (1, "ante"): (5, +5),        # no game, a closed box's Ante wins 1:1
            (1, "bet"): (10, 0),         # and its Bet (2 x 5) is returned
            (1, "exchange"): (5, -5),    # the fee, 1 x the Ante, kept by the house
            (2, "ante"): (5, -5),        # box 2 passed and loses its Ante
        }
        stacks = {s: p.stack for s, p in app.table.session.players.items()}  # type: ignore[union-attr]
        assert stacks == {1: 1000 + 5 - 5, 2: 1000 - 5}


def low_threshold_profiles(tmp_path: Path) -> Path:
    own = tmp_path / "profiles"
    own.mkdir()
    text = (shipped_dir() / "high-card-flush-casino.yaml").read_text().replace("sign_off_threshold: 5000",
                                                                               "sign_off_threshold: 1")
    (own / "casino-low.yaml").write_text(text)
    return own


async def play_casino_round_to_payout(pilot, app) -> HighCardFlushRound:  # type: ignore[no-untyped-def]
    await pilot.press("s", "1", "a", "enter", "d", "r", "enter", "v")
    rnd = app.table.round
    assert isinstance(rnd, HighCardFlushRound) and rnd.phase is Phase.PAYOUT
    return rnd


async def test_payout_over_the_threshold_cannot_be_confirmed_without_the_pin(tmp_path: Path) -> None:
    own = low_threshold_profiles(tmp_path)
    for seed in range(1, 40):  # a seed where seat 1 wins something, so sign-off is needed
        app = seated_app(tmp_path / str(seed), "casino-low", [(1, "Ann", 5000)], seed=seed, profiles=own) \
            if (tmp_path / str(seed)).mkdir() is None else None
        assert app is not None
        async with app.run_test(size=SIZE) as pilot:
            rnd = await play_casino_round_to_payout(pilot, app)
            if not rnd.sign_off_needed():
                continue
            await pilot.press("enter")               # confirm on the payout screen
            assert isinstance(on_top(app), PinModal)
            await pilot.press("escape")              # no PIN: nothing is paid, the payout is shown again
            assert rnd.phase is Phase.PAYOUT
            assert isinstance(on_top(app), PayoutDialog)
            await pilot.press("enter", *PIN_KEYS)
            assert rnd.phase is Phase.DONE
            rows = app.ledger.round(app.table.round_id or 0)  # type: ignore[union-attr]
            assert "signed_off" in rows.flags
            return
    raise AssertionError("no seed gave a winning casino hand")


async def test_three_wrong_pins_lock_sign_off(tmp_path: Path) -> None:
    own = low_threshold_profiles(tmp_path)
    app = seated_app(tmp_path, "casino-low", [(1, "Ann", 5000)], profiles=own)
    async with app.run_test(size=SIZE) as pilot:
        screen = on_top(app)
        assert isinstance(screen, RoundScreen)
        await pilot.press("s", "1", "a", "enter")
        await pilot.press("x")                       # a misdeal needs the supervisor
        assert isinstance(on_top(app), PinModal)
        await pilot.press(*SUPERVISOR, "enter", *"000001", "enter", *"000001", "enter", *"000001", "enter")
        assert screen.desk.locked_for(SUPERVISOR) > 0
        await pilot.press(*SUPERVISOR_PIN_KEYS)  # even the right PIN is refused while locked
        assert isinstance(on_top(app), PinModal)
        kinds = [e.kind for e in app.ledger.table_events(STAFF_REGISTER)]
        assert kinds.count("staff_refused") == 4 and "staff_locked" in kinds
        assert app.table.round.phase is Phase.ANTE  # type: ignore[union-attr]


async def test_c_8_profile_change_needs_the_supervisor_and_a_reason(tmp_path: Path) -> None:
    own = tmp_path / "profiles"
    own.mkdir()
    text = (shipped_dir() / "high-card-flush.yaml").read_text().replace("ante: {min: 5, max: 500}",
                                                                        "ante: {min: 25, max: 500}")
    (own / "hcf-high-limit.yaml").write_text(text)
    app = seated_app(tmp_path, "high-card-flush", [(1, "Ann", 5000), (2, "Bob", 5000)], profiles=own)
    approved(app.ledger, load_profile_file(own / "hcf-high-limit.yaml"))  # the manager approved the new limits
    async with app.run_test(size=SIZE) as pilot:
        screen = on_top(app)
        assert isinstance(screen, RoundScreen)
        await pilot.press("s", "y")
        assert "change_profile" not in footer_actions(screen)  # not during a hand
        await pilot.press("x", *PIN_KEYS)
        await pilot.press(*"wrong count", "enter")                  # void the round (misdeal)
        assert "change_profile" in footer_actions(screen)
        await pilot.press("P", "1", *PIN_KEYS, *"new limits posted", "enter")
        assert app.table.profile.name == "hcf-high-limit"  # type: ignore[union-attr]
        changed = [e for e in app.ledger.table_events(app.table.record.id, ["table_changed"])]  # type: ignore[union-attr]
        assert changed[-1].payload["reason"] == "new limits posted"
        await pilot.press("s", "y")
        rnd = app.table.round  # type: ignore[union-attr]
        spec = next(s for s in rnd.legal_steps() if s.kind == "ante")  # type: ignore[union-attr]
        assert spec.min_amount == 25


async def test_pp_palace_hand_by_keys_last_standing_takes_the_pot(tmp_path: Path) -> None:
    from dealer_tui.games.palace_poker.round import PalacePokerRound

    app = seated_app(tmp_path, "palace-poker", [(1, "Ann", 1000), (2, "Bob", 1000), (3, "Cy", 1000)], seats=10)
    async with app.run_test(size=SIZE) as pilot:
        screen = on_top(app)
        assert isinstance(screen, RoundScreen)
        await pilot.press("s", "d")                 # first hand: one card each, the highest deals (PP-0)
        rnd = app.table.round  # type: ignore[union-attr]
        assert isinstance(rnd, PalacePokerRound) and rnd.dealer is not None
        await pilot.press("a", "a", "a", "d", "d")  # three antes, banners, palaces
        assert rnd.phase is Phase.ACT
        assert {"buy", "stay", "fold"} <= footer_actions(screen) and "reveal" not in footer_actions(screen)
        first = rnd.turn
        await pilot.press("f")                      # the first to act folds (PP-6)
        assert rnd.players[first].out               # type: ignore[index]
        await pilot.press("f")                      # so does the next: one player is left (PP-13)
        assert rnd.phase is Phase.REVEAL
        await pilot.press("v", "enter")
        assert rnd.phase is Phase.DONE
        winner = next(s for s, p in rnd.players.items() if not p.out)
        # the pot is the three antes (3 x 5 = 15): the winner's stack gains the other two antes
        assert app.table.session.stacks()[winner] == 1000 + 10  # type: ignore[union-attr]
        assert app.table.session.chips_balance() == 0  # type: ignore[union-attr]


async def test_players_join_buy_and_cash_out_between_hands(tmp_path: Path) -> None:
    app = seated_app(tmp_path, "one-or-five", [(1, "Ann", 1000)], seats=6)
    async with app.run_test(size=SIZE) as pilot:
        screen = on_top(app)
        assert isinstance(screen, RoundScreen)
        assert {"join", "more_chips", "leave"} <= footer_actions(screen)
        await pilot.press("3", "j", *"Zed", "enter", "2", "0", "0", "enter")   # seat 3, buy-in 200
        await pilot.press("1", "m", "5", "0", "0", "enter")                    # Ann buys 500 more
        assert app.table.session.stacks() == {1: 1500, 3: 200}  # type: ignore[union-attr]
        await pilot.press("3", "l", "y")                                      # Zed cashes out
        assert app.table.session.stacks() == {1: 1500}  # type: ignore[union-attr]
        assert app.table.session.cashed_out == 200 and app.table.session.chips_balance() == 0  # type: ignore[union-attr]
        await pilot.press("s")
        assert not footer_actions(screen) & {"join", "more_chips", "leave"}  # not during a hand


async def test_cp_chinese_poker_hand_by_keys_pays_as_settle_does(tmp_path: Path) -> None:
    from dealer_tui.games.chinese_poker.round import ChinesePokerRound
    from rules.profiles.loader import ProfileLibrary
    from rules.settle import settle_round

    app = seated_app(tmp_path, "chinese-poker", [(1, "Ann", 100), (2, "Bob", 100), (3, "Cy", 100)], seats=4)
    async with app.run_test(size=SIZE) as pilot:
        screen = on_top(app)
        assert isinstance(screen, RoundScreen)
        await pilot.press("s", "d")
        rnd = app.table.round  # type: ignore[union-attr]
        assert isinstance(rnd, ChinesePokerRound) and rnd.phase is Phase.ACT
        assert {"edit_rows", "suggest"} <= footer_actions(screen) and "reveal" not in footer_actions(screen)
        for seat in ("1", "2", "3"):
            await pilot.press(seat, "g", "k")       # take the suggestion and lock
        await pilot.press("v", "enter")
        assert rnd.phase is Phase.DONE
        request = {"game": "chinese-poker", "button": rnd.button, "players": [
            {"seat": s, "stack": p.stack, **{name: " ".join(c.text for c in row)
                                             for name, row in zip(("front", "middle", "back"), p.rows.rows)}}  # type: ignore[union-attr]
            for s, p in sorted(rnd.seats.items())]}
        expected = {p["seat"]: p["net"] for p in settle_round(request, ProfileLibrary())["players"]}
        assert app.table.session.stacks() == {s: 100 + expected[s] for s in (1, 2, 3)}  # type: ignore[union-attr]


async def test_the_dealer_opens_the_floor_review_with_the_supervisor_pin(tmp_path: Path) -> None:
    """From the table the floor opens as it does on its own: the pit map, the header's counts
    (nothing waiting, no alert), the rounds one key away; Esc twice is back at the table."""
    from dealer_tui.screens.floor_map import PitMapScreen
    from dealer_tui.screens.floor_rounds import RoundsScreen

    app = seated_app(tmp_path, "one-or-five", [(1, "Ann", 1000)], seats=6)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("F")
        assert isinstance(on_top(app), PinModal)
        await pilot.press(*PIN_KEYS)
        assert isinstance(on_top(app), PitMapScreen)
        for _ in range(40):
            await pilot.pause(0.05)
            if "waiting for sign-off" in app.sub_title:
                break
        assert app.sub_title.startswith("0 waiting for sign-off (s) · 0 alerts (!) · ")
        await pilot.press("escape")
        assert isinstance(on_top(app), RoundsScreen)
        await pilot.press("escape")
        assert isinstance(on_top(app), RoundScreen)


async def test_an_empty_seat_picked_in_a_hand_says_it_is_empty(tmp_path: Path) -> None:
    from dealer_tui.widgets.notice import Notice

    app = seated_app(tmp_path, "high-card-flush", [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cy", 5000)])
    async with app.run_test(size=SIZE) as pilot:
        screen = on_top(app)
        await pilot.press("s", "y", "5")  # seat 1 banks; seat 5 has nobody in it
        assert screen.query_one(Notice).message == "Seat 5 is empty: j seats a player between hands."


async def test_z_in_a_game_that_takes_no_step_back_says_so_and_names_the_void(tmp_path: Path) -> None:
    """Palace Poker takes no step back (an ante is withdrawn with its own key): `z` after an ante
    says the game takes none, not that the ante is no bet."""
    from dealer_tui.widgets.notice import Notice

    app = seated_app(tmp_path, "palace-poker", [(1, "Ann", 1000), (2, "Bob", 1000), (3, "Cy", 1000)], seats=6)
    async with app.run_test(size=SIZE) as pilot:
        screen = on_top(app)
        await pilot.press("s", "d", "1", "a", "z")
        assert screen.query_one(Notice).message == (
            "This game takes no step back: a mis-key is corrected by voiding the round with x and the supervisor.")


async def test_a_game_key_in_the_wrong_phase_says_why_in_the_notice_line_until_the_next_key(tmp_path: Path) -> None:
    from dealer_tui.widgets.notice import Notice

    app = seated_app(tmp_path, "one-or-five", [(1, "Ann", 1000)], seats=6)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "v")          # reveal during the antes
        await pilot.pause()
        notice = on_top(app).query_one(Notice)
        said = str(notice.render())
        assert notice.display and notice.has_class("-warning")
        assert "may not reveal" in said and "ante phase" in said, said
        assert app.table.round.phase is Phase.ANTE  # type: ignore[union-attr]
        assert not app._notifications        # no toast: it would be built again on each dialog
        await pilot.press("1")               # the next key: the reason has been read
        assert not notice.display


async def test_the_payout_screen_is_built_once_and_shows_each_rounds_payout(tmp_path: Path) -> None:
    from textual.widgets import Digits, Static

    from dealer_tui.widgets.payout_rows import PayoutRows

    app = seated_app(tmp_path, "high-card-flush", [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cy", 5000)])
    async with app.run_test(size=SIZE) as pilot:
        shown = []
        # each round both players ante the minimum 5 and fold: each loses 5, the DP takes 10 (HCF-6);
        # no rake on 10 (HCF-17); the bank moves to the next seat (HCF-18)
        for dp, first, second in ((1, "2", "3"), (2, "3", "1")):
            await pilot.press("s", "y", first, "a", "enter", second, "a", "enter", "d", "f", "f", "v")
            payout = on_top(app)
            assert isinstance(payout, PayoutDialog)
            shown.append(payout)
            rows = payout.query_one(PayoutRows)
            # HCF-10: the folded hands in the order they folded, then the DP's bank, numbered
            assert [r[:5] for r in rows.rows] == [("1.", first, "Ante", "5", "-5"), ("2.", second, "Ante", "5", "-5"),
                                                  ("3.", str(dp), "Bank (DP)", "0", "+10")]
            assert rows.styles.height is not None and rows.styles.height.value == 4   # a header and 3 rows
            assert payout.query_one("#payout-digits", Digits).value == "10"  # the 10 the DP takes in
            assert str(payout.query_one("#payout-why", Static).render()) == f"Seat {first}: Ante: folded — loses 5"
            await pilot.press("down")                                # the cursor's row says why
            assert str(payout.query_one("#payout-why", Static).render()) == f"Seat {second}: Ante: folded — loses 5"
            await pilot.press("enter")
            assert app.table.round.phase is Phase.DONE  # type: ignore[union-attr]
        assert shown[0] is shown[1]


async def test_ctrl_u_restores_the_suggested_amounts_in_the_amount_dialog(tmp_path: Path) -> None:
    from textual.widgets import Input

    from dealer_tui.screens.amount_dialog import AmountDialog

    app = seated_app(tmp_path, "high-card-flush", [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cy", 5000)])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "y", "2", "a", "3", "0", "0", "tab", "7")
        dialog = on_top(app)
        assert isinstance(dialog, AmountDialog)
        fields = list(dialog.query(Input))
        assert [f.value for f in fields] == ["300", "7", "0"]
        await pilot.press("ctrl+u")  # the Ante's minimum 5 and no bonus bets, as the dialog first offered
        assert [f.value for f in fields] == ["5", "0", "0"]


async def test_a_notice_never_covers_the_keys_legal_now(tmp_path: Path) -> None:
    """Each key below leaves a notice (a step done, a step refused) while the key bar changes its
    rows: the notice sits above the bar, whose every row stays in sight."""
    from dealer_tui.widgets.key_bar import KeyBar
    from dealer_tui.widgets.notice import Notice

    app = seated_app(tmp_path, "high-card-flush", [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cy", 5000)])
    async with app.run_test(size=(80, 24)) as pilot:
        screen = on_top(app)
        steps = [["d"], ["s", "y"], ["2", "a", "enter"], ["z"], ["z"], ["3", "a", "enter"], ["d"], ["z"],
                 ["r", "enter"], ["f"], ["v"], ["p", "enter"], ["A"], ["x"]]
        shown = 0
        for keys in steps:
            await pilot.press(*keys)
            await pilot.pause()
            notice, bar = screen.query_one(Notice), screen.query_one(KeyBar)
            if notice.display and notice.message:
                shown += 1
                assert not notice.region.overlaps(bar.region), (keys, notice.message)
        assert shown >= 4


async def test_a_refused_z_or_a_says_why(tmp_path: Path) -> None:
    """After the deal nothing the dealer keyed last may be taken back (the deal is not a bet):
    `z` says so and names the void; `A` after the antes says the antes are over; between hands
    `z` says no hand is in play."""
    from dealer_tui.widgets.notice import Notice

    app = seated_app(tmp_path, "high-card-flush", [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cy", 5000)])
    async with app.run_test(size=SIZE) as pilot:
        screen = on_top(app)
        await pilot.press("z")
        assert screen.query_one(Notice).message == ("Nothing to take back: no hand is in play (a finished round is "
                                                    "corrected by the supervisor).")
        await pilot.press("s", "y", "2", "a", "enter", "3", "a", "enter", "d", "z")
        said = screen.query_one(Notice).message
        assert said is not None and said.startswith("Nothing to take back: the last step (") and "x" in said
        await pilot.press("A")
        assert screen.query_one(Notice).message == ("Last round's bets are placed again during the antes only; the "
                                                    "antes are over.")


async def test_cp_12_a_short_first_buy_in_is_refused_in_its_dialog_which_keeps_the_name(tmp_path: Path) -> None:
    """CP-12: a player's first buy is a full buy-in (100); 50 typed for Dee is refused in the
    amount dialog, with the reason, the dialog still open for her; 100 seats her."""
    from textual.widgets import Static

    from dealer_tui.screens.amount_dialog import AmountDialog

    app = seated_app(tmp_path, "chinese-poker", [(1, "Ann", 100), (2, "Bob", 100)], seats=4)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("j", *"Dee", "enter", "ctrl+u", *"50", "enter")
        dialog = on_top(app)
        assert isinstance(dialog, AmountDialog) and "Dee" in dialog.title_text
        said = str(dialog.query_one("#amount-error", Static).render())
        assert "full" in said, said
        assert 3 not in app.table.session.players  # type: ignore[union-attr]
        await pilot.press("ctrl+u", *"100", "enter")
        assert app.table.session.players[3].name == "Dee"  # type: ignore[union-attr]


async def test_cp_9_n_without_a_seat_picked_says_why_for_the_seat_it_would_act_for(tmp_path: Path) -> None:
    """`e` and `g` act for the first seat still setting its rows when none is picked; a refused
    `n` (no natural in those cards, CP-9) gives that seat's reason, not "pick a seat"."""
    from dealer_tui.widgets.notice import Notice

    app = seated_app(tmp_path, "chinese-poker", [(1, "Ann", 100), (2, "Bob", 100), (3, "Cy", 100)], seats=4, seed=4)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "d", "n")
        said = on_top(app).query_one(Notice).message
        assert said is not None and said.endswith("(CP-9)") and "pick the seat" not in said, said


def test_hcf_the_log_keeps_the_dps_take_apart_from_what_the_players_are_paid() -> None:
    """HCF-9: seat 2 beats the DP, Ante 10 and Raise 10 win 1:1 (40 handed back); seat 3 folded
    its Ante of 10: the DP pays 20 and takes in 10, no take of its own: 40 paid out. HCF-6: both
    fold their Antes of 10: the DP takes in 20 and the players are paid nothing."""
    from dealer_tui.events.table import PayoutConfirmed, PayoutRow
    from dealer_tui.views import describe_common

    beaten = PayoutConfirmed(rows=(PayoutRow(2, "ante", 10, 10, ""), PayoutRow(2, "raise", 10, 10, ""),
                                   PayoutRow(3, "ante", 10, -10, ""), PayoutRow(1, "bank", 0, -10, "")),
                             stack_changes={"1": -10, "2": 20, "3": -10}, house=0, seats=2, wagered=30, paid=40)
    assert describe_common(beaten) == "Payout confirmed: 40 paid out"
    folded = PayoutConfirmed(rows=(PayoutRow(2, "ante", 10, -10, ""), PayoutRow(3, "ante", 10, -10, ""),
                                   PayoutRow(1, "bank", 0, 20, "")),
                             stack_changes={"1": 20, "2": -10, "3": -10}, house=0, seats=2, wagered=20, paid=20)
    assert describe_common(folded) == "Payout confirmed: 0 paid to the players, 20 to the DP"


async def test_r_4_e_on_a_players_second_box_says_only_the_open_box_exchanges(tmp_path: Path) -> None:
    """Ann plays boxes 1 and 2; box 1, her first, is the open one (R-4). Box 1 closes; on box 2's
    turn `e` is refused for the rule it breaks, not for whose turn it is."""
    app = seated_app(tmp_path, "one-or-five", [(1, "Ann", 1000), (2, "Bob", 1000)], seats=6)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "1", "a", "enter", "1", "a", "enter", "d", "p", "b", "e")
        screen = on_top(app)
        assert isinstance(screen, RoundScreen)
        assert screen.query_one(Notice).message == ("Seat 1 may not exchange: Box 2 is not the player's open box: "
                                                    "only the open box may exchange (R-4)")
