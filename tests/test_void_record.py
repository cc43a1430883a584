"""A void's record: every bet handed back, per seat, and who approved it; the round's row in the
ledger shows its seats and wagers, all of them returned (HCF-19, R-12)."""

from __future__ import annotations

from pathlib import Path

from dealer_tui.audit import verify_ledger
from dealer_tui.events import typed
from dealer_tui.games import GAMES
from dealer_tui.games.high_card_flush.steps import Ante
from dealer_tui.staff import StaffRegister
from dealer_tui.views import describe_common
from tests.hcf_support import hcf_table
from tests.staff_support import SUPERVISOR, void


def test_hcf_19_a_void_records_the_bets_it_returns_and_who_approved(tmp_path: Path) -> None:
    table = hcf_table(tmp_path)
    table.start_round()
    table.act(Ante(seat=2, amount=10, flush=5, straight_flush=2))
    table.act(Ante(seat=3, amount=25, flush=0, straight_flush=0))
    void(table, "shuffler red light")
    events = table.ledger.round_events(table.round_id or 0)
    voided = events[-1]
    # seat 2: Ante 10 + Flush 5 + Straight Flush 2 = 17; seat 3: Ante 25
    assert {k: v for k, v in voided.payload.items() if k != "sign_in"} == {
        "reason": "shuffler red light", "by": SUPERVISOR, "returned": {"2": 17, "3": 25}}
    assert StaffRegister.read(table.ledger).sign_in_at(voided.payload["sign_in"]) is not None
    record = table.ledger.round(table.round_id or 0)
    assert (record.status, record.seats, record.wagered, record.paid, record.returned) == ("voided", 2, 42, 0, 42)
    assert record.wagered == record.paid + record.returned + record.house_result   # 42 = 0 + 42 + 0
    assert describe_common(typed(voided)) == ("Round void: shuffler red light; returned seat 2 17, seat 3 25; "
                                     "approved by S1")
    assert {s: p.stack for s, p in table.session.players.items()} == {1: 5000, 2: 5000, 3: 5000}
    assert verify_ledger(table.ledger, GAMES) == []
