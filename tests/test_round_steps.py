"""A round answers "why not now?" for any step without recording it (`Round.why_not`), and sending
a big payout to the floor is a step of its own (`SEND_TO_FLOOR`) with its own reasons to refuse."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_tui.games.high_card_flush.steps import Ante
from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.base import Phase
from dealer_tui.rounds.steps import Reveal, SendToFloor
from rules.errors import IllegalAction
from tests.hcf_support import hcf_table, sent_to_floor


def test_why_not_gives_the_rounds_reason_and_records_nothing(tmp_path: Path) -> None:
    """In the antes nothing is revealed yet; seat 2's ante of 10 is a legal step (HCF-3: 5-500):
    asked about, neither is recorded."""
    table = hcf_table(tmp_path)
    rnd = table.start_round()
    before = len(rnd.events)
    why = rnd.why_not(Reveal())
    assert why is not None and "ante phase" in why
    assert rnd.why_not(Ante(seat=2, amount=10, flush=0, straight_flush=0)) is None
    assert len(rnd.events) == before and rnd.phase is Phase.ANTE and not rnd.seats[2].playing


def test_a_payout_below_the_threshold_is_not_sent_to_the_floor(tmp_path: Path) -> None:
    """Sending is for a payout a supervisor signs off (C-9's threshold); in the antes there is no
    payout at all: the step is refused and says why."""
    table = hcf_table(tmp_path)
    table.start_round()
    with pytest.raises(IllegalAction, match="send the payout to the floor.*ante phase"):
        table.act(SendToFloor())


def test_a_payout_sent_to_the_floor_is_not_sent_twice(tmp_path: Path) -> None:
    """Seat 2's 8,500 is over the profile's 5,000: sent once, it waits for the floor; sent again,
    the round says it is already waiting and records nothing."""
    table = sent_to_floor(SqliteLedger(tmp_path / "ledger.sqlite"))
    rnd = table.round
    assert rnd is not None
    kinds = [e.kind for e in table.ledger.round_events(table.round_id or 0)]
    assert kinds.count("sign_off_requested") == 1
    assert rnd.why_not(SendToFloor()) == (
        "The table may not send the payout to the floor: it is already waiting for the supervisor")
    with pytest.raises(IllegalAction, match="already waiting"):
        table.act(SendToFloor())
    assert [e.kind for e in table.ledger.round_events(table.round_id or 0)] == kinds
