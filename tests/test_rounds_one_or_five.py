"""Poker "1 or 5" rounds through the real table runner and ledger (RULES.md R-1..R-12)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.base import Action, Phase
from dealer_tui.rounds.cards import ScriptedDeck
from dealer_tui.rounds.one_or_five import OneOrFiveRound
from dealer_tui.rounds.table import Table
from rules.cards import parse_cards
from rules.errors import IllegalAction
from rules.profiles.loader import ProfileLibrary

PROFILE = ProfileLibrary().find("one-or-five")
# Deal order: box 1, box 2, then the dealer; the stub follows.
BOX1 = "Ah Kh Qh Jh 2c"      # four to a royal: exchange the 2c
BOX2 = "9s 9d 5c 4d 3s"      # a pair of nines
DEALER = "Ad Kd 7c 6s 2h"    # ace-king: the dealer has a game
STUB = "Th 8c 8d"            # the 2c is exchanged for the Th: a royal flush


def deck() -> ScriptedDeck:
    return ScriptedDeck([parse_cards(f"{BOX1} {BOX2} {DEALER} {STUB}")])


def new_table(tmp_path: Path, source: ScriptedDeck | None = None) -> Table:
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    table = Table.create(ledger, "R1", PROFILE, source or deck(), seats=6)
    table.seat_player(1, "Ann", 1000)
    table.seat_player(2, "Bob", 1000)
    return table


def antes_and_deal(table: Table) -> OneOrFiveRound:
    rnd = table.start_round()
    assert isinstance(rnd, OneOrFiveRound)
    table.act(Action("ante", 1, 10))   # box 1
    table.act(Action("ante", 2, 10))   # box 2
    table.act(Action("deal", data={"cut": "player"}))
    return rnd


def test_r_1_five_cards_each_and_the_dealers_last_card_known(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    rnd = antes_and_deal(table)
    assert [c.text for c in rnd.boxes[1].cards] == BOX1.split()
    assert [c.text for c in rnd.dealer] == DEALER.split()
    assert rnd.dealer[-1].text == "2h"  # the up card
    assert rnd.cut_by == "player" and rnd.phase is Phase.ACT


def test_r_2_boxes_act_strictly_in_order(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    antes_and_deal(table)
    with pytest.raises(IllegalAction, match="Seat 2 may not close the box: it is box 1's turn"):
        table.act(Action("bet", 2))
    table.act(Action("fold", 1))
    with pytest.raises(IllegalAction, match="Seat 1 may not close the box: it is box 2.s turn"):
        table.act(Action("bet", 1))  # no going back to box 1


def test_r_3_exchange_charges_the_fee_and_draws_from_the_stub(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    rnd = antes_and_deal(table)
    table.act(Action("exchange", 1, 1, data={"discard": "2c"}))
    assert sorted(c.text for c in rnd.boxes[1].cards) == sorted("Ah Kh Qh Jh Th".split())
    assert rnd.committed(1) == 10 + 10  # ante 10 + fee 1 x 10
    with pytest.raises(IllegalAction, match="already exchanged"):
        table.act(Action("exchange", 1, 1, data={"discard": "Th"}))


def test_r_3_exchange_counts_come_from_the_profile(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    antes_and_deal(table)
    with pytest.raises(IllegalAction, match=r"2 cards may not be exchanged \(allowed: 1 or 5\)"):
        table.act(Action("exchange", 1, 2, data={"discard": "2c Jh"}))


def test_r_4_only_the_open_box_may_exchange(tmp_path: Path) -> None:
    table = new_table(tmp_path, ScriptedDeck([parse_cards(f"{BOX1} {BOX2} 4c 4h 5s 6d 7h {DEALER} {STUB}")]))
    rnd = table.start_round()
    table.act(Action("ante", 1, 10))   # box 1: Ann's open box
    table.act(Action("ante", 2, 10))   # box 2
    table.act(Action("ante", 1, 10))   # box 3: Ann's second box, played closed
    table.act(Action("deal"))
    table.act(Action("bet", 1))
    table.act(Action("no_insurance", 1)) if rnd.current_box() and rnd.current_box().number == 1 else None
    table.act(Action("fold", 2))
    kinds = {s.kind for s in rnd.legal_actions()}
    assert "exchange" not in kinds  # box 3 is not Ann's open box
    with pytest.raises(IllegalAction, match="not the player's open box"):
        table.act(Action("exchange", 1, 1, data={"discard": "4c"}))


def test_r_7_r_8_royal_flush_after_exchange_is_paid_by_the_paytable(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    rnd = antes_and_deal(table)
    table.act(Action("exchange", 1, 1, data={"discard": "2c"}))
    table.act(Action("bet", 1))              # close with 2 x 10 = 20
    table.act(Action("no_insurance", 1))     # a royal flush may be insured; declined
    table.act(Action("bet", 2))              # pair of nines, closed: no insurance offered
    assert rnd.phase is Phase.REVEAL
    table.act(Action("reveal"))
    outcome = rnd.outcome()
    assert outcome is not None
    rows = {(r.seat, r.bet): r.result for r in outcome.rows}
    # box 1: royal flush beats ace-king: Bet 20 x 100 = 2000, Ante 1:1 = 10, fee -10
    assert rows[(1, "bet")] == 2000 and rows[(1, "ante")] == 10 and rows[(1, "exchange")] == -10
    # box 2: pair of nines beats ace-king: Bet 20 x 1 = 20, Ante 10
    assert rows[(2, "bet")] == 20 and rows[(2, "ante")] == 10
    assert outcome.stack_changes == {1: 2000, 2: 30}
    assert outcome.house == -2030


def test_payout_over_the_sign_off_threshold_needs_a_supervisor(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    rnd = antes_and_deal(table)
    for action in (Action("exchange", 1, 1, data={"discard": "2c"}), Action("bet", 1),
                   Action("no_insurance", 1), Action("bet", 2), Action("reveal")):
        table.act(action)
    # box 1 wins 2000 - 10 = 1990 chips... below 5000: use a lower threshold profile
    assert rnd.sign_off_needed() == []
    table.act(Action("confirm_payout"))
    assert table.session.stacks() == {1: 1000 + 2000, 2: 1000 + 30}
    assert table.session.chips_balance() == 0


def test_r_9_insurance_only_on_a_closed_straight_or_better_within_its_bounds(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    rnd = antes_and_deal(table)
    table.act(Action("exchange", 1, 1, data={"discard": "2c"}))
    table.act(Action("bet", 1))
    spec = next(s for s in rnd.legal_actions() if s.kind == "insure")
    # premium from 1x Ante = 10 to half the Bet's win: 20 x 100 / 2 = 1000, but Ann has only
    # 1000 - (ante 10 + fee 10 + bet 20) = 960 chips free
    assert (spec.min_amount, spec.max_amount) == (10, 960)
    with pytest.raises(IllegalAction, match="outside 10–1000"):
        table.act(Action("insure", 1, 1001))
    table.act(Action("insure", 1, 50))
    table.act(Action("bet", 2))
    assert not any(s.kind == "insure" for s in rnd.legal_actions())  # a pair is not insurable
    table.act(Action("reveal"))
    rows = {(r.seat, r.bet): r.result for r in rnd.outcome().rows}  # type: ignore[union-attr]
    assert rows[(1, "insurance")] == -50  # the dealer qualified: insurance lost


def test_r_12_misdeal_voids_the_round_and_returns_everything(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    rnd = antes_and_deal(table)
    table.act(Action("exchange", 1, 1, data={"discard": "2c"}))
    with pytest.raises(IllegalAction, match="needs a reason"):
        table.act(Action("void", data={"reason": "  "}))
    table.act(Action("void", data={"reason": "dealer's hole card exposed"}))
    assert rnd.phase is Phase.VOID
    assert table.session.stacks() == {1: 1000, 2: 1000}
    record = table.ledger.round(table.round_id or 0)
    assert record.status == "voided" and "voided" in record.flags


def test_no_chip_moves_on_an_illegal_key_in_the_wrong_phase(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    rnd = table.start_round()
    before = len(table.ledger.round_events(table.round_id or 0))
    with pytest.raises(IllegalAction, match="The table may not reveal: not allowed in the ante phase"):
        table.act(Action("reveal"))
    with pytest.raises(IllegalAction, match="ante 1"):
        table.act(Action("ante", 1, 1))  # below the table minimum of 5
    assert len(table.ledger.round_events(table.round_id or 0)) == before
    assert rnd.committed(1) == 0


def test_recovery_reopens_the_round_where_it_stopped(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    antes_and_deal(table)
    table.act(Action("exchange", 1, 1, data={"discard": "2c"}))
    ledger_path = table.ledger.path
    table.ledger.close()
    # a new process: open the ledger again
    ledger = SqliteLedger(ledger_path)
    again = Table.open(ledger, ledger.tables()[0], PROFILE, deck())
    rnd = again.round
    assert isinstance(rnd, OneOrFiveRound)
    assert rnd.phase is Phase.ACT and rnd.current_box().number == 1  # type: ignore[union-attr]
    assert sorted(c.text for c in rnd.boxes[1].cards) == sorted("Ah Kh Qh Jh Th".split())
    assert "recovered" in ledger.round(again.round_id or 0).flags
    for action in (Action("bet", 1), Action("no_insurance", 1), Action("bet", 2), Action("reveal"),
                   Action("confirm_payout")):
        again.act(action)
    assert again.session.stacks() == {1: 3000, 2: 1030}
    from dealer_tui.audit import verify_ledger

    assert verify_ledger(ledger) == []
