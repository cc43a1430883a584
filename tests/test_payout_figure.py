"""One definition of a payout (`payouts.seat_chips`), worked out by hand for every kind of round,
and the figures adding up: wagered + from stacks = paid + returned + house. The dealer's payout
screen shows the same paid figure the ledger keeps."""

from __future__ import annotations

from textual.app import App
from textual.widgets import Digits

from dealer_tui.ledger.base import SettlementRow
from dealer_tui.ledger.payouts import (
    DP_BANKED,
    HOUSE_BANKED,
    POOL,
    RoundChips,
    round_chips,
    seat_payouts,
)
from dealer_tui.rounds.base import RoundOutcome
from dealer_tui.screens.dialog import DialogScreen
from dealer_tui.screens.payout_dialog import PayoutDialog
from tests.tui_support import on_top

Row = SettlementRow

HCF_9_DP_WINS = (Row(2, "ante", 10, -10, "loses"), Row(2, "raise", 10, -10, "loses"), Row(3, "ante", 10, -10, "folded"),
                 Row(1, "bank", 0, 30, "DP wins"), Row(1, "rake", 1, -1, "rake"))


def test_hcf_9_dp_wins_its_payout_is_its_take_after_the_rake() -> None:
    # Seat 2 antes 10 and raises 10, seat 3 antes 10 and folds: both lose to the qualified DP (HCF-9).
    # The DP (seat 1) takes 20 + 10 = 30 and pays 1 chip of rake (HCF-17): the dealer hands it 29.
    assert seat_payouts(HCF_9_DP_WINS) == {1: 29, 2: 0, 3: 0}
    # wagered 10 + 10 + 10 = 30 = paid 29 + returned 0 + house 1 (the rake); nothing from the stacks
    assert round_chips(HCF_9_DP_WINS) == RoundChips(30, 29, 0, 0, 29, DP_BANKED)
    assert round_chips(HCF_9_DP_WINS).house == 1


def test_hcf_8_dp_loses_it_covers_the_winners_from_its_stack() -> None:
    # The DP does not qualify (HCF-8): seat 2's Ante 10 pays 1:1 (10 + 10 = 20 handed), its Raise 10
    # pushes (10 returned); the DP pays the 10 from its stack.
    rows = (Row(2, "ante", 10, 10, "DP not qualified"), Row(2, "raise", 10, 0, "push"), Row(1, "bank", 0, -10, "DP pays"))
    assert seat_payouts(rows) == {1: 0, 2: 20}
    # wagered 20 + from stacks 10 = paid 20 + returned 10 + house 0
    assert round_chips(rows) == RoundChips(20, 20, 10, 10, 20, DP_BANKED)
    assert round_chips(rows).house == 0


def test_house_banked_one_or_five_push_and_fee() -> None:
    # "1 or 5", the dealer has no game: boxes 1-3 each win their Ante 5 (5 + 5 = 10 handed) and
    # get their Bet 10 back; box 4 passed (Ante 5 lost) after an exchange (fee 5, R-3).
    rows = tuple(r for box in (1, 2, 3) for r in (Row(box, "ante", 5, 5, "R-6"), Row(box, "bet", 10, 0, "R-6"))) + (
        Row(4, "ante", 5, -5, "passed"), Row(4, "exchange", 5, -5, "fee"))
    assert seat_payouts(rows) == {1: 10, 2: 10, 3: 10, 4: 0}
    # wagered 3 x 15 + 5 + 5 = 55 = paid 3 x 10 = 30 + returned 3 x 10 = 30 + house -5
    # (the house pays 3 x 5 = 15 on the Antes and keeps box 4's 5 + 5 = 10)
    assert round_chips(rows) == RoundChips(55, 30, 30, 0, 10, HOUSE_BANKED)
    assert round_chips(rows).house == -5


def test_a_seat_that_wins_one_bet_and_loses_another_is_paid_the_winning_bet() -> None:
    # Casino High Card Flush: seat 3's Ante 5 and Raise 5 lose, its Flush bet 1 pays 100 to 1: the
    # dealer takes the 10 and hands 1 + 100 = 101 (its net is +91); seat 4 wins Ante and Raise 5 each.
    rows = (Row(3, "ante", 5, -5, "loses"), Row(3, "raise", 5, -5, "loses"), Row(3, "flush", 1, 100, "6-card flush"),
            Row(4, "ante", 5, 5, "wins"), Row(4, "raise", 5, 5, "wins"))
    assert seat_payouts(rows) == {3: 101, 4: 20}
    # wagered 11 + 10 = 21 = paid 121 + returned 0 + house -100
    assert round_chips(rows) == RoundChips(21, 121, 0, 0, 101, HOUSE_BANKED)


def test_chinese_poker_points_collected_and_fees() -> None:
    # Seat 3 collects 30 + 20 + 40 = 90 on the nets (CP-13); every seat pays a fee of 5.
    rows = (Row(1, "points", 0, -30, ""), Row(1, "fee", 0, -5, ""), Row(2, "points", 0, -20, ""), Row(2, "fee", 0, -5, ""),
            Row(3, "points", 0, 90, ""), Row(3, "fee", 0, -5, ""), Row(4, "points", 0, -40, ""), Row(4, "fee", 0, -5, ""))
    assert seat_payouts(rows) == {1: 0, 2: 0, 3: 90, 4: 0}
    # wagered 0 + from stacks 30 + 20 + 40 + 4 x 5 = 110 = paid 90 + returned 0 + house 20 (the fees)
    assert round_chips(rows) == RoundChips(0, 90, 0, 110, 90, POOL)
    assert round_chips(rows).house == 20


def test_palace_poker_the_pot_goes_to_its_winner() -> None:
    # Antes 5 each, seat 1 puts 40 in battles, seat 3 90 and buys 20: a pot of 5 x 2 + 5 + 40 + 90 + 20 = 165.
    rows = (Row(1, "ante", 5, -5, ""), Row(1, "battle", 40, -40, ""), Row(2, "ante", 5, -5, ""),
            Row(3, "ante", 5, -5, ""), Row(3, "battle", 90, -90, ""), Row(3, "buy", 20, -20, ""),
            Row(3, "pot", 0, 165, "last player standing"))
    assert seat_payouts(rows) == {1: 0, 2: 0, 3: 165}
    # wagered 45 + 5 + 115 = 165 = paid 165 + returned 0 + house 0
    assert round_chips(rows) == RoundChips(165, 165, 0, 0, 165, POOL)


def test_the_rounds_paid_is_the_payout_definition() -> None:
    outcome = RoundOutcome(HCF_9_DP_WINS, {1: 29, 2: -20, 3: -10}, 1)
    assert outcome.paid == 29   # what the ledger records as the round's paid, and the payout screen shows
    assert outcome.wagered == 30


class _Host(App[None]):
    def __init__(self, outcome: RoundOutcome) -> None:
        super().__init__()
        self.outcome = outcome

    def on_mount(self) -> None:
        self.push_screen(DialogScreen(PayoutDialog(self.outcome, "House", [], 5000)))


async def test_the_payout_screen_shows_the_dp_take_as_chips_paid_out() -> None:
    # The DP's take 30 - 1 rake = 29 is the "Chips paid out" figure, as the floor's paid.
    app = _Host(RoundOutcome(HCF_9_DP_WINS, {1: 29, 2: -20, 3: -10}, 1))
    async with app.run_test() as pilot:
        await pilot.pause()
        assert isinstance(on_top(app), PayoutDialog)
        assert on_top(app).query_one("#payout-digits", Digits).value == "29"


async def test_the_payout_screen_names_the_stakes_returned_beside_the_chips_paid_out() -> None:
    # The house-banked "1 or 5" round above: 30 paid out (three Antes 5 + 5), and three Bets of 10
    # returned (30), which the "Chips paid out" figure does not hold: the summary says so.
    from textual.widgets import Static

    rows = tuple(r for box in (1, 2, 3) for r in (Row(box, "ante", 5, 5, "R-6"), Row(box, "bet", 10, 0, "R-6"))) + (
        Row(4, "ante", 5, -5, "passed"), Row(4, "exchange", 5, -5, "fee"))
    app = _Host(RoundOutcome(rows, {1: 5, 2: 5, 3: 5, 4: -10}, -5))
    async with app.run_test() as pilot:
        await pilot.pause()
        assert on_top(app).query_one("#payout-digits", Digits).value == "30"
        summary = str(on_top(app).query_one("#payout-summary", Static).render())
        assert summary.endswith("House -5 · stakes returned (not in the chips paid out): 30")


async def test_the_chips_paid_out_are_named_in_words_when_the_terminal_has_no_room_for_the_big_figure() -> None:
    # The DP's take of 29 (above) on a terminal 14 lines high: the rows take the big figure's three
    # lines, and its label says the figure instead.
    from textual.widgets import Static

    app = _Host(RoundOutcome(HCF_9_DP_WINS, {1: 29, 2: -20, 3: -10}, 1))
    async with app.run_test(size=(80, 14)) as pilot:
        await pilot.pause()
        dialog = on_top(app)
        assert not dialog.query_one("#payout-digits", Digits).display
        assert str(dialog.query_one("#payout-total-label", Static).render()).endswith("included): 29")
