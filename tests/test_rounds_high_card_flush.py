"""High Card Flush rounds through the table runner and the ledger (docs/rules.md HCF-4..HCF-19)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_tui.audit import verify_ledger
from dealer_tui.games import GAMES
from dealer_tui.games.high_card_flush.round import HighCardFlushRound
from dealer_tui.games.high_card_flush.steps import Ante, Fold, Raise
from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.base import Phase
from dealer_tui.rounds.cards import ScriptedDeck
from dealer_tui.rounds.steps import ConfirmPayout, Deal, Reveal
from dealer_tui.rounds.table import Table
from rules.errors import IllegalAction
from tests.hcf_support import BANKER, PROFILE, SEAT2, SEAT3, big_win, new_table
from tests.staff_support import approval, staffed_table, void


def dealt(table: Table) -> HighCardFlushRound:
    rnd = table.start_round()
    assert isinstance(rnd, HighCardFlushRound)
    table.act(Ante(seat=2, amount=10, flush=5, straight_flush=5))
    table.act(Ante(seat=3, amount=10))
    table.act(Deal())
    return rnd


def test_hcf_18_the_first_seat_clockwise_with_the_minimum_bank_banks(tmp_path: Path) -> None:
    table = new_table(tmp_path, stacks=(900, 1000, 1000))   # seat 1 holds less than the 1000 minimum
    rnd = table.start_round()
    assert isinstance(rnd, HighCardFlushRound) and rnd.banker == 2 and rnd.button == 2


def test_hcf_18_a_seat_may_decline_the_bank(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    rnd = table.start_round(declined=[1])
    assert isinstance(rnd, HighCardFlushRound) and rnd.banker == 2


def test_hcf_18_no_round_without_a_designated_player(tmp_path: Path) -> None:
    table = new_table(tmp_path, stacks=(500, 500, 500))
    with pytest.raises(IllegalAction, match=r"no seat will bank .*1000 chips.*HCF-18"):
        table.start_round()


def test_hcf_4_an_ante_the_chips_do_not_cover_is_refused(tmp_path: Path) -> None:
    table = new_table(tmp_path, stacks=(5000, 100, 1000))
    table.start_round()
    # Ante 20 + Flush 10 + 3 x 20 = 90 <= 100: accepted; Ante 25 + 3 x 25 = 100 <= 100 too;
    # Ante 25 + Flush 5 + 75 = 105 > 100: refused
    with pytest.raises(IllegalAction, match=r"Seat 2 may not ante 25: the seat holds 100 chips; .* = 105"):
        table.act(Ante(seat=2, amount=25, flush=5))
    table.act(Ante(seat=2, amount=20, flush=10))


def test_hcf_18_the_designated_player_places_no_ante_and_is_told_why(tmp_path: Path) -> None:
    table = new_table(tmp_path, stacks=(5000, 1000, 1000))
    table.start_round()                          # seat 1 (5000) takes the bank
    with pytest.raises(IllegalAction, match=r"^Seat 1 may not ante: the seat banks this round as the Designated "
                                            r"Player: the others ante against it$"):
        table.act(Ante(seat=1, amount=10))


def test_hcf_4_bets_outside_the_table_limits_are_refused(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    table.start_round()
    with pytest.raises(IllegalAction, match=r"within the table limits 5–500"):
        table.act(Ante(seat=2, amount=4))
    with pytest.raises(IllegalAction, match=r"Flush bet must be within 1–100"):
        table.act(Ante(seat=2, amount=10, flush=101))


def test_hcf_5_seven_cards_each_dealt_from_the_buttons_left(tmp_path: Path) -> None:
    rnd = dealt(new_table(tmp_path))
    assert [c.text for c in rnd.seats[2].cards] == SEAT2.split()
    assert [c.text for c in rnd.seats[3].cards] == SEAT3.split()
    assert [c.text for c in rnd.banker_cards] == BANKER.split()
    assert rnd.phase is Phase.ACT and rnd.to_act().seat == 2  # type: ignore[union-attr]


def test_hcf_6_raise_bounds_follow_the_flush_length(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    rnd = dealt(table)
    assert rnd.raise_bounds(2) == (10, 20)   # 5-card flush: up to 2x the ante of 10
    assert rnd.raise_bounds(3) == (10, 10)   # 3-card flush: 1x
    with pytest.raises(IllegalAction, match=r"Seat 2 may raise at most 20 \(2× the ante\) with a 5-card flush"):
        table.act(Raise(seat=2, amount=30))
    with pytest.raises(IllegalAction, match=r"Seat 2 must raise at least 10"):
        table.act(Raise(seat=2, amount=9))


def test_hcf_10_players_act_in_turn(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    dealt(table)
    with pytest.raises(IllegalAction, match=r"Seat 3 may not fold: it is seat 2's turn"):
        table.act(Fold(seat=3))


def test_hcf_9_to_hcf_13_a_whole_round_pays_by_the_rules(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    rnd = dealt(table)
    table.act(Raise(seat=2, amount=20))
    table.act(Raise(seat=3, amount=10))
    assert rnd.phase is Phase.REVEAL
    table.act(Reveal())
    outcome = rnd.outcome()
    assert outcome is not None
    rows = {(r.seat, r.bet): r.result for r in outcome.rows}
    # seat 2: 5-card flush beats the DP's 3-card A-8-3: Ante +10, Raise +20;
    # Flush bet 5 x 10 = 50; its 4-card straight flush A-K-Q-J beats the DP's none: 5 x 60 = 300
    assert (rows[(2, "ante")], rows[(2, "raise")], rows[(2, "flush")], rows[(2, "straight_flush")]) == (10, 20, 50, 300)
    # seat 3: K-9-4 loses to A-8-3 (the highest cards compared): Ante -10, Raise -10
    assert (rows[(3, "ante")], rows[(3, "raise")]) == (-10, -10)
    # the DP: +20 from seat 3, -380 to seat 2
    assert outcome.stack_changes == {2: 380, 3: -20, 1: -360} and outcome.house == 0
    table.act(ConfirmPayout())
    assert table.session.stacks() == {1: 5000 - 360, 2: 1000 + 380, 3: 1000 - 20}
    assert table.session.chips_balance() == 0
    assert verify_ledger(table.ledger, GAMES) == []
    # the next round offers the bank to seat 2, clockwise from seat 1 (HCF-18)
    nxt = table.start_round()
    assert isinstance(nxt, HighCardFlushRound) and nxt.banker == 2


def test_hcf_19_a_misdeal_is_declared_before_anyone_acts(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    rnd = dealt(table)
    table.act(Fold(seat=2))
    assert "void" not in {s.kind for s in rnd.legal_steps()}
    with pytest.raises(IllegalAction, match=r"a misdeal is declared before anyone acts \(HCF-19\)"):
        void(table, "red light")


def test_hcf_19_void_returns_every_bet(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    rnd = dealt(table)
    void(table, "shuffler red light")
    assert rnd.phase is Phase.VOID
    assert table.session.stacks() == {1: 5000, 2: 1000, 3: 1000}
    assert table.ledger.round(table.round_id or 0).status == "voided"


def test_payout_at_the_sign_off_threshold_needs_a_supervisor(tmp_path: Path) -> None:
    table = new_table(tmp_path, stacks=(20000, 5000, 1000))
    rnd = table.start_round()
    big_win(table)
    # seat 2 wins 500 + 1000 + 100 x 10 + 100 x 60 = 8500 >= 5000: sign-off needed
    assert rnd.sign_off_needed() == [2]
    with pytest.raises(IllegalAction, match=r"seat 2 is paid 5000 or more: a supervisor must sign off"):
        table.act(ConfirmPayout())
    table.act(ConfirmPayout(**approval(table)))
    assert "signed_off" in table.ledger.round(table.round_id or 0).flags


def test_hcf_5_cards_are_dealt_clockwise_starting_left_of_the_button(tmp_path: Path) -> None:
    """The round's own deal: the button in front of the DP on seat 4 of 7, so seats 5, 6, 7, 1,
    2, 3 are dealt seven cards each in that order, then the DP."""
    from rules.cards import DECK

    cards = list(DECK)[:49]
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    table = staffed_table(ledger, "H5", PROFILE, ScriptedDeck([cards]), seats=7)
    for seat in range(1, 8):
        table.seat_player(seat, f"P{seat}", 5000)
    rnd = table.start_round(declined=[1, 2, 3])            # HCF-18: seats 1-3 decline the bank
    assert isinstance(rnd, HighCardFlushRound) and rnd.banker == 4
    for seat in (1, 2, 3, 5, 6, 7):
        table.act(Ante(seat=seat, amount=5))
    table.act(Deal())
    for i, seat in enumerate((5, 6, 7, 1, 2, 3)):
        assert rnd.seats[seat].cards == tuple(cards[7 * i: 7 * i + 7]), f"seat {seat}"
    assert rnd.banker_cards == tuple(cards[42:49])


def test_hcf_10_the_payout_lists_folded_hands_first_then_the_raised_ones_counter_clockwise_then_the_dp(
        tmp_path: Path) -> None:
    """Ann (seat 1) banks; Cy (seat 3) folds and is collected as he folds; Bob (seat 2), raised,
    is the only hand settled against the DP; the DP's bank comes last: 3, 2, 1."""
    from tests.hcf_support import big_payout_table, big_win

    table = big_payout_table(SqliteLedger(tmp_path / "l.sqlite"))
    big_win(table)
    rnd = table.round
    assert rnd is not None and rnd.settlement_order() == (3, 2, 1)
