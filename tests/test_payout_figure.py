"""The payout screen's big figure: the chips the dealer pushes out, worked out by hand."""

from __future__ import annotations

from dealer_tui.ledger.base import SettlementRow
from dealer_tui.rounds.base import RoundOutcome
from dealer_tui.screens.payout_screen import chips_out


def test_hcf_9_dp_wins_figure_is_what_goes_to_the_dp_after_rake() -> None:
    # Seat 2 antes 10 and raises 10, seat 3 antes 10 and folds: both lose to the qualified DP (HCF-9).
    # The DP (seat 1) wins 20 + 10 = 30 and pays 1 chip of rake (HCF-17): 29 chips go to seat 1.
    rows = (SettlementRow(2, "ante", 10, -10, "loses"), SettlementRow(2, "raise", 10, -10, "loses"),
            SettlementRow(3, "ante", 10, -10, "folded"),
            SettlementRow(1, "bank", 0, 30, "DP wins"), SettlementRow(1, "rake", 1, -1, "rake"))
    outcome = RoundOutcome(rows, {1: 29, 2: -20, 3: -10}, 1)
    assert outcome.paid == 0  # no player bet won: the floor's "paid" is unchanged
    assert chips_out(outcome) == 29


def test_hcf_8_dp_loses_figure_is_the_winning_stakes_and_winnings() -> None:
    # The DP does not qualify (HCF-8): seat 2's Ante 10 pays 1:1 (20 back), the Raise 10 pushes (10 back).
    rows = (SettlementRow(2, "ante", 10, 10, "DP not qualified"), SettlementRow(2, "raise", 10, 0, "push"),
            SettlementRow(1, "bank", 0, -10, "DP pays"))
    outcome = RoundOutcome(rows, {1: -10, 2: 10}, 0)
    assert chips_out(outcome) == 20


def test_house_banked_round_figure_is_paid() -> None:
    # No DP: seat 4 wins 15 on a 15 stake, seat 5 loses 15: 30 chips go out.
    rows = (SettlementRow(4, "ante", 15, 15, "wins"), SettlementRow(5, "ante", 15, -15, "loses"))
    assert chips_out(RoundOutcome(rows, {4: 15, 5: -15}, 0)) == 30
