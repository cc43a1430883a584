"""A live table's keyed cards corrected before the payout is confirmed: the supervisor approves
with a reason, the old and the new cards are recorded, the settlement follows the new cards, and
the ledger still verifies (DESIGN.md "Card entry")."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_tui.audit import verify_ledger
from dealer_tui.games import GAMES
from dealer_tui.games.high_card_flush.round import BANKER as BANKER_LABEL
from dealer_tui.rounds.base import Phase
from dealer_tui.rounds.steps import ConfirmPayout, CorrectCards, Reveal, SendToFloor
from dealer_tui.staff import CORRECT_CARDS
from rules.cards import parse_cards
from rules.errors import IllegalAction
from tests.hcf_support import BANKER, SEAT2, SEAT3, acted, keyed, live_table
from tests.staff_support import SUPERVISOR, approval

SEAT3_REAL = "Ac Kc Qc 2s 5d 7h Jd"   # what seat 3 really holds: a 3-card club flush A-K-Q


def revealed(tmp_path: Path):  # type: ignore[no-untyped-def]
    table = live_table(tmp_path)
    rnd = acted(table, 20, 10, flush=0, sf=0)
    table.act(Reveal(cards=keyed({"seat 2": SEAT2, "seat 3": SEAT3, BANKER_LABEL: BANKER})))
    assert rnd.phase is Phase.PAYOUT
    return table, rnd


def results(rnd, seat: int) -> dict[str, int]:  # type: ignore[no-untyped-def]
    outcome = rnd.outcome()
    return {r.bet: r.result for r in outcome.rows if r.seat == seat}


def test_keyed_hand_corrected_with_the_supervisor_settles_on_the_new_cards(tmp_path: Path) -> None:
    table, rnd = revealed(tmp_path)
    # As keyed: seat 3's club flush K-9-4 loses to the DP's spade flush A-8-3 (HCF-9): -10, -10
    assert results(rnd, 3) == {"ante": -10, "raise": -10}
    table.act(CorrectCards(reason="seat 3's cards mis-keyed, checked on camera", **approval(table, CORRECT_CARDS), cards=keyed({"seat 3": SEAT3_REAL})))
    # Corrected: A-K-Q beats A-8-3 (the ace ties, K beats 8; HCF-1, HCF-9): +10, +10
    assert results(rnd, 3) == {"ante": 10, "raise": 10}
    assert rnd.seats[3].cards == parse_cards(SEAT3_REAL)
    assert rnd.phase is Phase.PAYOUT
    corrected = [e for e in table.ledger.round_events(table.round_id or 0) if e.kind == "cards_corrected"]
    assert len(corrected) == 1
    p = corrected[0].payload
    assert p["previous"] == {"seat 3": "Kc 9c 4c 2s 5d 7h Jd"} and p["cards"] == {"seat 3": "Ac Kc Qc 2s 5d 7h Jd"}
    assert (p["reason"], p["supervisor"]) == ("seat 3's cards mis-keyed, checked on camera", SUPERVISOR)
    table.act(ConfirmPayout())
    rows = {(r.seat, r.bet): r.result for r in table.ledger.settlement(table.round_id or 0)}
    assert rows[(3, "ante")] == 10 and rows[(3, "raise")] == 10
    assert verify_ledger(table.ledger, GAMES) == []


def test_a_correction_needs_a_reason_and_the_supervisor(tmp_path: Path) -> None:
    table, rnd = revealed(tmp_path)
    signed = approval(table, CORRECT_CARDS)
    for data in ({"reason": "typo"}, signed, {"reason": " ", **signed}):
        with pytest.raises(IllegalAction, match="needs a reason and the supervisor's approval"):
            table.act(CorrectCards(**data, cards=keyed({"seat 3": SEAT3_REAL})))
    assert results(rnd, 3) == {"ante": -10, "raise": -10}


def test_corrected_cards_are_checked_like_keyed_ones(tmp_path: Path) -> None:
    table, _ = revealed(tmp_path)
    signed = {"reason": "typo", **approval(table, CORRECT_CARDS)}
    with pytest.raises(IllegalAction, match="As"):                      # the banker's card, keyed again
        table.act(CorrectCards(**signed, cards=keyed({"seat 3": "As Kc Qc 2s 5d 7h Jd"})))
    with pytest.raises(IllegalAction, match="needs 7 cards"):
        table.act(CorrectCards(**signed, cards=keyed({"seat 3": "Ac Kc Qc"})))
    with pytest.raises(IllegalAction, match="already recorded"):
        table.act(CorrectCards(**signed, cards=keyed({"seat 3": SEAT3})))
    with pytest.raises(IllegalAction, match="no hand 'seat 5'"):
        table.act(CorrectCards(**signed, cards=keyed({"seat 5": SEAT3_REAL})))


def test_cards_are_corrected_only_before_the_payout_is_confirmed(tmp_path: Path) -> None:
    table, rnd = revealed(tmp_path)
    table.act(ConfirmPayout())
    with pytest.raises(IllegalAction, match="before the payout is confirmed"):
        table.act(CorrectCards(reason="late", **approval(table, CORRECT_CARDS), cards=keyed({"seat 3": SEAT3_REAL})))
    assert rnd.phase is Phase.DONE


def test_a_corrected_round_reopens_with_the_corrected_cards(tmp_path: Path) -> None:
    from dealer_tui.ledger import SqliteLedger
    from dealer_tui.rounds.cards import KeyedEntry
    from dealer_tui.rounds.table import Table
    from tests.hcf_support import PROFILE as ROOM

    table, _ = revealed(tmp_path)
    table.act(CorrectCards(reason="typo", **approval(table, CORRECT_CARDS), cards=keyed({"seat 3": SEAT3_REAL})))
    table.ledger.close()
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    again = Table.open(ledger, ledger.tables()[0], GAMES.find(ROOM.game), ROOM, KeyedEntry())
    assert again.round is not None and again.round.phase is Phase.PAYOUT
    assert results(again.round, 3) == {"ante": 10, "raise": 10}


def test_an_approval_does_not_outlive_a_correction_of_the_cards(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The floor approved the payout as keyed; the cards are then corrected and the payout changes:
    the approval no longer stands and the payout goes to the floor again."""
    from dealer_tui.events.table import SignOffApproved, SignOffRequested
    from dealer_tui.games.high_card_flush.live_round import HighCardFlushKeyedRound

    monkeypatch.setattr(HighCardFlushKeyedRound, "sign_off_needed", lambda self: [3])  # seat 3 is "big"
    table, rnd = revealed(tmp_path)
    table.act(SendToFloor())
    table.ledger.decide_sign_off(table.round_id or 0, True, SUPERVISOR,
                                 sign_in=int(str(approval(table)["sign_in"])))
    rnd.apply(table.ledger.round_events(table.round_id or 0)[-1])
    assert isinstance(rnd.sign_off_state(), SignOffApproved)
    table.act(CorrectCards(reason="seat 3 mis-keyed", **approval(table, CORRECT_CARDS), cards=keyed({"seat 3": SEAT3_REAL})))
    assert rnd.sign_off_state() is None
    with pytest.raises(IllegalAction, match="a supervisor must sign off"):
        table.act(ConfirmPayout())
    table.act(SendToFloor())
    assert isinstance(rnd.sign_off_state(), SignOffRequested)


def test_a_request_waiting_when_the_cards_are_corrected_leaves_the_floors_queue(tmp_path: Path,
                                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from dealer_tui.games.high_card_flush.live_round import HighCardFlushKeyedRound
    from dealer_tui.ledger import LedgerError

    monkeypatch.setattr(HighCardFlushKeyedRound, "sign_off_needed", lambda self: [3])
    table, rnd = revealed(tmp_path)
    table.act(SendToFloor())
    assert [w.round.id for w in table.ledger.sign_off_queue()] == [table.round_id]
    table.act(CorrectCards(reason="seat 3 mis-keyed", **approval(table, CORRECT_CARDS), cards=keyed({"seat 3": SEAT3_REAL})))
    assert table.ledger.sign_off_queue() == []
    with pytest.raises(LedgerError, match="its cards were corrected since"):
        table.ledger.decide_sign_off(table.round_id or 0, True, "Sam")
