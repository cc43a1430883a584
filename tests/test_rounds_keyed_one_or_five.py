"""Poker "1 or 5" at a live table: the dealer keys the cards as the table sees them (docs/rules.md
R-1..R-12; DESIGN.md "Card entry")."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_tui.audit import verify_ledger
from dealer_tui.games import GAMES
from dealer_tui.games.one_or_five.live_round import OneOrFiveKeyedRound
from dealer_tui.games.one_or_five.steps import Ante, Bet, CutAndDeal, Exchange, Fold, Insure
from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.base import Phase
from dealer_tui.rounds.cards import KeyedEntry
from dealer_tui.rounds.steps import ConfirmPayout, CorrectCards, Reveal
from dealer_tui.rounds.table import Table
from dealer_tui.staff import CORRECT_CARDS, StaffRegister
from rules.cards import parse_cards
from rules.errors import IllegalAction
from rules.profiles.loader import ProfileLibrary
from tests.staff_support import SUPERVISOR, approval, staffed_table

PROFILE = ProfileLibrary().find("one-or-five")
UP = "Kd"
HOLE = "Ks 4c 3d 2s"          # the dealer: a pair of kings, a game
BOX1 = "9c 9h 9s Qh 2d"       # three nines, holding the 9c drawn at its exchange
BOX2 = "5c 6d 7h 8s 9d"       # a straight: may be insured


def keyed(**hands: str) -> dict[str, tuple]:
    return {label.replace("_", " "): parse_cards(text) for label, text in hands.items()}


def live_table(tmp_path: Path) -> Table:
    table = staffed_table(SqliteLedger(tmp_path / "ledger.sqlite"), "Live R", PROFILE, KeyedEntry(), seats=6)
    table.seat_player(1, "Ann", 1000)
    table.seat_player(2, "Bob", 1000)
    return table


def dealt(table: Table) -> OneOrFiveKeyedRound:
    rnd = table.start_round()
    assert isinstance(rnd, OneOrFiveKeyedRound)
    table.act(Ante(seat=1, amount=10, box=1))
    table.act(Ante(seat=2, amount=10, box=2))
    table.act(CutAndDeal(cut="dealer", cards=keyed(dealer_up=UP)))
    return rnd


def test_r_1_the_deal_keys_only_the_dealers_up_card(tmp_path: Path) -> None:
    table = live_table(tmp_path)
    rnd = table.start_round()
    table.act(Ante(seat=1, amount=10, box=1))
    with pytest.raises(IllegalAction, match=r"key the cards first \(dealer up 1\)"):
        table.act(CutAndDeal(cut="dealer"))
    table.act(CutAndDeal(cut="player", cards=keyed(dealer_up="kd")))
    assert rnd.phase is Phase.ACT and rnd.dealer == parse_cards("Kd") and rnd.boxes[1].cards == ()


def test_r_3_an_exchange_keys_the_cards_drawn(tmp_path: Path) -> None:
    table = live_table(tmp_path)
    rnd = dealt(table)
    with pytest.raises(IllegalAction, match=r"Kd is dealt twice"):
        table.act(Exchange(seat=1, amount=1, cards=keyed(box_1="Kd")))
    table.act(Exchange(seat=1, amount=1, cards=keyed(box_1="9c")))
    assert rnd.boxes[1].exchanged == 1 and rnd.drawn[1] == parse_cards("9c")
    assert rnd.available(1) == 1000 - 10 - 10  # Ante 10 and the fee of 1 x Ante


def test_r_9_insurance_keys_the_boxs_hand_and_r_7_settles_the_round(tmp_path: Path) -> None:
    table = live_table(tmp_path)
    rnd = dealt(table)
    table.act(Exchange(seat=1, amount=1, cards=keyed(box_1="9c")))
    table.act(Bet(seat=1, box=1))
    table.act(Bet(seat=2, box=2))
    assert rnd.phase is Phase.REVEAL
    # a straight may be insured for 10 (1 x Ante) up to half of 4 x 20 = 80, i.e. 40
    with pytest.raises(IllegalAction, match=r"40"):
        table.act(Insure(seat=2, amount=45, box=2, cards=keyed(box_2=BOX2)))
    table.act(Insure(seat=2, amount=30, box=2, cards=keyed(box_2=BOX2)))
    request = rnd.reveal_request()
    assert request.hands == (("dealer hole", 4), ("box 1", 5))   # box 2 was keyed for its insurance
    with pytest.raises(IllegalAction, match=r"box 1 drew 9c at its exchange"):
        table.act(Reveal(cards=keyed(dealer_hole=HOLE, box_1="Qc 9h 9s Qh 2d")))
    table.act(Reveal(cards=keyed(dealer_hole=HOLE, box_1=BOX1)))
    outcome = rnd.outcome()
    assert outcome is not None
    rows = {(r.seat, r.bet): r.result for r in outcome.rows}
    # the dealer's pair of kings qualifies. Box 1, three nines: Bet 3 x 20 = 60, Ante 1:1 = 10,
    # exchange fee -10: net 60. Box 2, a straight: Bet 4 x 20 = 80, Ante +10, insurance -30: net 60.
    assert (rows[(1, "bet")], rows[(1, "ante")], rows[(1, "exchange")]) == (60, 10, -10)
    assert (rows[(2, "bet")], rows[(2, "ante")], rows[(2, "insurance")]) == (80, 10, -30)
    assert outcome.stack_changes == {1: 60, 2: 60} and outcome.house == -120
    table.act(ConfirmPayout())
    assert table.session.stacks() == {1: 1060, 2: 1060} and table.session.chips_balance() == 0
    assert verify_ledger(table.ledger, GAMES) == []


def test_r_9_insurance_on_a_hand_below_a_straight_is_refused(tmp_path: Path) -> None:
    table = live_table(tmp_path)
    rnd = dealt(table)
    table.act(Fold(seat=1, box=1))
    table.act(Bet(seat=2, box=2))
    with pytest.raises(IllegalAction, match=r"Seat 2 may not insure 10"):
        table.act(Insure(seat=2, amount=10, box=2, cards=keyed(box_2="Ah Ad 3c 4s 7h")))
    assert rnd.boxes[2].insurance is None and rnd.boxes[2].cards == ()


def test_r_2_a_passed_box_is_never_keyed_and_loses_its_ante(tmp_path: Path) -> None:
    table = live_table(tmp_path)
    rnd = dealt(table)
    table.act(Fold(seat=1, box=1))
    table.act(Bet(seat=2, box=2))
    assert rnd.reveal_request().hands == (("dealer hole", 4), ("box 2", 5))
    # the dealer Kd 7c 5s 3h 2c: no pair, no ace: no game; box 2 wins its Ante, Bet returned
    table.act(Reveal(cards=keyed(dealer_hole="7c 5s 3h 2c", box_2=BOX2)))
    outcome = rnd.outcome()
    assert outcome is not None
    rows = {(r.seat, r.bet): r.result for r in outcome.rows}
    assert rows[(1, "ante")] == -10 and (rows[(2, "ante")], rows.get((2, "bet"), 0)) == (10, 0)
    assert outcome.stack_changes == {1: -10, 2: 10} and outcome.house == 0


def test_r_3_five_cards_drawn_are_the_boxs_hand(tmp_path: Path) -> None:
    table = live_table(tmp_path)
    rnd = dealt(table)
    table.act(Exchange(seat=1, amount=5, cards=keyed(box_1=BOX1)))
    table.act(Bet(seat=1, box=1))
    table.act(Fold(seat=2, box=2))
    assert rnd.boxes[1].cards == parse_cards(BOX1)
    assert rnd.reveal_request().hands == (("dealer hole", 4),)


def test_a_live_one_or_five_round_comes_back_after_a_restart(tmp_path: Path) -> None:
    table = live_table(tmp_path)
    dealt(table)
    table.act(Exchange(seat=1, amount=1, cards=keyed(box_1="9c")))
    again = Table.open(table.ledger, table.record, GAMES.find(table.profile.game), table.profile, KeyedEntry())
    rnd = again.round
    assert isinstance(rnd, OneOrFiveKeyedRound) and rnd.drawn[1] == parse_cards("9c")
    again.act(Bet(seat=1, box=1))
    again.act(Fold(seat=2, box=2))
    again.act(Reveal(cards=keyed(dealer_hole=HOLE, box_1=BOX1)))
    again.act(ConfirmPayout())
    assert verify_ledger(again.ledger, GAMES) == [] and again.session.chips_balance() == 0


def test_r_4_keyed_exchange_refused_when_box_could_not_close(tmp_path: Path) -> None:
    # Ann holds 150 and antes 50 (3 x 50 = 150). Beyond the Ante she holds 100 < fee 50 + Bet
    # 100 = 150: no exchange is offered or taken; she may close for 100 or pass.
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    table = staffed_table(ledger, "Live R", PROFILE, KeyedEntry(), seats=6)
    table.seat_player(1, "Ann", 150)
    rnd = table.start_round()
    assert isinstance(rnd, OneOrFiveKeyedRound)
    table.act(Ante(seat=1, amount=50, box=1))
    table.act(CutAndDeal(cut="dealer", cards=keyed(dealer_up=UP)))
    assert {s.kind for s in rnd.legal_steps()} >= {"bet", "fold"}
    assert "exchange" not in {s.kind for s in rnd.legal_steps()}
    refused = r"Seat 1 may not exchange: Box 1: the fee 50 .*holds 100 .*\(R-4\)"
    with pytest.raises(IllegalAction, match=refused):
        table.act(Exchange(seat=1, amount=1, cards=keyed(box_1="9c")))
    table.act(Bet(seat=1))
    assert rnd.available(1) == 0


def insured_and_revealed(table: Table) -> OneOrFiveKeyedRound:
    rnd = dealt(table)
    table.act(Exchange(seat=1, amount=1, cards=keyed(box_1="9c")))
    table.act(Bet(seat=1, box=1))
    table.act(Bet(seat=2, box=2))
    table.act(Insure(seat=2, amount=30, box=2, cards=keyed(box_2=BOX2)))
    table.act(Reveal(cards=keyed(dealer_hole=HOLE, box_1=BOX1)))
    return rnd


def test_a_live_rounds_steps_are_stored_as_the_ledger_has_always_held_them(tmp_path: Path) -> None:
    table = live_table(tmp_path)
    insured_and_revealed(table)
    stored = [(e.kind, e.payload) for e in table.ledger.round_events(table.round_id or 0)
              if e.kind not in ("round_started", "ante_placed")]
    assert stored == [
        ("cards_dealt", {"cut_by": "dealer", "cards": {"dealer up": UP}, "keyed": True}),
        # the cards thrown in stay unseen: the count says how many
        ("box_exchanged", {"box": 1, "count": 1, "discarded_cards": "", "drawn_cards": "9c", "fee": 10}),
        ("box_closed", {"box": 1, "bet": 20}),
        ("box_closed", {"box": 2, "bet": 20}),
        ("insurance_taken", {"box": 2, "amount": 30, "box_cards": BOX2}),
        ("dealer_revealed", {"cards": f"{UP} {HOLE}", "hand": "one pair", "qualified": True,
                             "box_cards": {"box 1": BOX1}}),
    ]


def test_a_keyed_box_corrected_before_the_payout_settles_on_the_new_cards(tmp_path: Path) -> None:

    table = live_table(tmp_path)
    rnd = insured_and_revealed(table)
    assert rnd.rekey_hands() == {"dealer hole": parse_cards(HOLE), "box 1": parse_cards(BOX1)}
    with pytest.raises(IllegalAction, match=r"box 1 drew 9c at its exchange"):
        table.act(CorrectCards(reason="mis-keyed", **approval(table, CORRECT_CARDS), cards=keyed(box_1="Qc 9h Qs Qh 2d")))
    # box 1 really holds queens and nines: two pair beats the dealer's pair of kings: the Bet
    # pays 2 x 20 = 40, the Ante is returned unpaid, the fee -10 stays: net 30
    table.act(CorrectCards(reason="box 1 mis-keyed", **approval(table, CORRECT_CARDS), cards=keyed(box_1="9c 9h Qs Qh 2d")))
    corrected = [e.payload for e in table.ledger.round_events(table.round_id or 0) if e.kind == "cards_corrected"]
    assert StaffRegister.read(table.ledger).sign_in_at(corrected[0].pop("sign_in")) is not None
    assert corrected == [{
        "event": "dealer_revealed", "reason": "box 1 mis-keyed", "supervisor": SUPERVISOR,
        "previous": {"box 1": BOX1}, "cards": {"box 1": "9c 9h Qs Qh 2d"},
        "payload": {"cards": f"{UP} {HOLE}", "hand": "one pair", "qualified": True,
                    "box_cards": {"box 1": "9c 9h Qs Qh 2d"}}}]
    assert rnd.boxes[1].cards == parse_cards("9c 9h Qs Qh 2d") and rnd.phase is Phase.PAYOUT
    outcome = rnd.outcome()
    assert outcome is not None
    rows = {(r.seat, r.bet): r.result for r in outcome.rows}
    assert (rows[(1, "bet")], rows.get((1, "ante"), 0), rows[(1, "exchange")]) == (40, 0, -10)
    assert outcome.stack_changes == {1: 30, 2: 60} and outcome.house == -90
    table.act(ConfirmPayout())
    assert table.session.stacks() == {1: 1030, 2: 1060} and verify_ledger(table.ledger, GAMES) == []
