"""High Card Flush at a live table: the dealer keys the physical cards at the reveal (docs/rules.md
HCF-6, HCF-19, HCF-20; DESIGN.md "Card entry")."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_tui.audit import verify_ledger
from dealer_tui.games import GAMES
from dealer_tui.games.high_card_flush.live_round import HighCardFlushKeyedRound
from dealer_tui.games.high_card_flush.steps import Ante, Raise
from dealer_tui.ledger.base import RowQuery
from dealer_tui.rounds.base import Phase
from dealer_tui.rounds.cards import KeyedEntry
from dealer_tui.rounds.steps import ConfirmPayout, Deal, Reveal
from dealer_tui.rounds.table import Table
from rules.errors import IllegalAction
from rules.profiles.loader import ProfileLibrary
from tests.hcf_support import BANKER, SEAT2, SEAT3, acted, keyed, live_table

CASINO = ProfileLibrary().find("high-card-flush-casino")


def test_keyed_deal_records_no_cards_and_a_raise_is_taken_as_declared(tmp_path: Path) -> None:
    table = live_table(tmp_path)
    rnd = table.start_round()
    table.act(Ante(seat=2, amount=10))
    table.act(Deal())
    assert rnd.phase is Phase.ACT and rnd.seats[2].cards == () and rnd.banker_cards == ()
    # HCF-6: unseen, the hand may hold a 6- or 7-card flush: up to 3 x 10 = 30 is taken
    spec = next(s for s in rnd.legal_steps() if s.kind == "raise")
    assert (spec.min_amount, spec.max_amount) == (10, 30)
    with pytest.raises(IllegalAction, match=r"Seat 2 may raise at most 30"):
        table.act(Raise(seat=2, amount=31))


def test_keyed_reveal_needs_the_keyed_hands(tmp_path: Path) -> None:
    table = live_table(tmp_path)
    acted(table, 20, 10)
    with pytest.raises(IllegalAction, match=r"key the cards first \(seat 2 7, seat 3 7, banker 7\)"):
        table.act(Reveal())


def test_hcf_6_an_over_cap_raise_has_its_excess_returned_at_the_reveal(tmp_path: Path) -> None:
    table = live_table(tmp_path)
    rnd = acted(table, 30, 10)  # seat 2 declares 30; its keyed 5-card flush caps the raise at 2 x 10 = 20
    table.act(Reveal(cards=keyed({"seat 2": SEAT2, "seat 3": SEAT3, "banker": BANKER})))
    outcome = rnd.outcome()
    assert outcome is not None and "over_cap_raise" in outcome.flags
    rows = {(r.seat, r.bet): r for r in outcome.rows}
    # settled on a raise of 20: Ante +10, Raise +20 (5-card flush beats A-8-3), Flush 5 x 10 = 50,
    # Straight Flush A-K-Q-J (4) vs none: 5 x 60 = 300; seat 3 K-9-4 loses to A-8-3: -10, -10
    assert rows[(2, "raise")].stake == 20 and rows[(2, "raise")].result == 20
    assert "Raise declared 30" in rows[(2, "raise")].reason and "10 returned" in rows[(2, "raise")].reason
    assert (rows[(2, "ante")].result, rows[(2, "flush")].result, rows[(2, "straight_flush")].result) == (10, 50, 300)
    assert (rows[(3, "ante")].result, rows[(3, "raise")].result) == (-10, -10)
    assert outcome.stack_changes == {2: 380, 3: -20, 1: -360}
    table.act(ConfirmPayout())
    assert table.session.stacks() == {1: 5000 - 360, 2: 1000 + 380, 3: 1000 - 20}
    assert table.session.chips_balance() == 0
    assert verify_ledger(table.ledger, GAMES) == []
    flags = table.ledger.find_rounds(RowQuery(), limit=1)[0].flags
    assert "over_cap_raise" in flags


def test_hcf_19_a_keyed_hand_of_six_cards_is_refused(tmp_path: Path) -> None:
    table = live_table(tmp_path)
    rnd = acted(table, 20, 10)
    short = keyed({"seat 2": SEAT2[:-3], "seat 3": SEAT3, "banker": BANKER})
    with pytest.raises(IllegalAction, match=r"seat 2 needs 7 cards, got 6"):
        table.act(Reveal(cards=short))
    assert rnd.phase is Phase.REVEAL and rnd.settlement is None


def test_a_card_keyed_in_two_hands_is_refused(tmp_path: Path) -> None:
    table = live_table(tmp_path)
    acted(table, 20, 10)
    twice = keyed({"seat 2": SEAT2, "seat 3": "Ah 9c 4c 2s 5d 7h Jd", "banker": BANKER})
    with pytest.raises(IllegalAction, match=r"Ah is dealt twice"):
        table.act(Reveal(cards=twice))


def test_hcf_6_a_folded_hand_is_not_keyed_in_the_card_room(tmp_path: Path) -> None:
    table = live_table(tmp_path)
    rnd = acted(table, 0, 10)
    request = rnd.reveal_request()
    assert request is not None and request.hands == (("seat 3", 7), ("banker", 7))
    table.act(Reveal(cards=keyed({"seat 3": SEAT3, "banker": BANKER})))
    outcome = rnd.outcome()
    assert outcome is not None
    # seat 2 folded: Ante 10, Flush 5, Straight Flush 5 lost (HCF-6); seat 3 loses 10 + 10 to A-8-3
    assert outcome.stack_changes == {2: -20, 3: -20, 1: 40}


def test_everyone_folded_needs_no_keyed_cards(tmp_path: Path) -> None:
    table = live_table(tmp_path)
    rnd = acted(table, 0, 0)
    assert rnd.reveal_request() is None
    table.act(Reveal())
    outcome = rnd.outcome()
    assert outcome is not None and outcome.stack_changes == {2: -20, 3: -10, 1: 30}


def test_hcf_20_a_folded_hand_with_bonus_bets_is_keyed_under_the_casino_profile(tmp_path: Path) -> None:
    table = live_table(tmp_path, CASINO)
    rnd = acted(table, 0, 10)
    request = rnd.reveal_request()
    assert request is not None and request.hands == (("seat 2", 7), ("seat 3", 7), ("banker", 7))
    table.act(Reveal(cards=keyed({"seat 2": SEAT2, "seat 3": SEAT3, "banker": BANKER})))
    outcome = rnd.outcome()
    assert outcome is not None
    rows = {(r.seat, r.bet): r.result for r in outcome.rows}
    # seat 2 folded: Ante -10; its bonus bets stay (HCF-20): 5-card flush 5 x 10 = 50,
    # 4-card straight flush 5 x 60 = 300; net 340. Seat 3 loses 10 + 10 to the dealer's A-8-3.
    assert (rows[(2, "ante")], rows[(2, "flush")], rows[(2, "straight_flush")]) == (-10, 50, 300)
    assert outcome.stack_changes == {2: 340, 3: -20} and outcome.house == -320


def test_a_live_table_round_comes_back_after_a_restart(tmp_path: Path) -> None:
    table = live_table(tmp_path)
    acted(table, 30, 10)
    again = Table.open(table.ledger, table.record, GAMES.find(table.profile.game), table.profile, KeyedEntry())
    rnd = again.round
    assert isinstance(rnd, HighCardFlushKeyedRound) and rnd.phase is Phase.REVEAL and rnd.seats[2].raised == 30
    again.act(Reveal(cards=keyed({"seat 2": SEAT2, "seat 3": SEAT3, "banker": BANKER})))
    again.act(ConfirmPayout())
    assert again.session.stacks()[2] == 1380 and verify_ledger(again.ledger, GAMES) == []
