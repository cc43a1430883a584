"""Chinese Poker at a live table: the dealer keys each player's three rows as they are turned over
(docs/rules.md CP-2..CP-9, CP-14; DESIGN.md "Card entry")."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_tui.audit import verify_ledger
from dealer_tui.games import GAMES
from dealer_tui.games.chinese_poker.events import NaturalDeclared
from dealer_tui.games.chinese_poker.live_round import ChinesePokerKeyedRound
from dealer_tui.games.chinese_poker.steps import DeclareNatural, Lock, SetRows
from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.base import Phase
from dealer_tui.rounds.cards import KeyedEntry
from dealer_tui.rounds.steps import ConfirmPayout, Deal, Reveal
from dealer_tui.rounds.table import Table
from rules.errors import IllegalAction
from rules.profiles.loader import ProfileLibrary
from tests.staff_support import staffed_table

PROFILE = ProfileLibrary().find("chinese-poker")   # 5 chips a point, no house fee
SEAT2 = ("Jh Td 8c", "9s 9d 7c 6s 3s", "Th Ts 7d 6d 2d")   # J high, nines, tens
SEAT1 = ("Ah Ad 2c", "Kh Ks Kd 3c 4d", "Qh Qs Qd Qc 5c")   # aces, three kings, four queens


def rows(front: str, middle: str, back: str) -> dict[str, str]:
    return {"front": front, "middle": middle, "back": back}


def dealt(tmp_path: Path) -> tuple[Table, ChinesePokerKeyedRound]:
    table = staffed_table(SqliteLedger(tmp_path / "ledger.sqlite"), "Live C", PROFILE, KeyedEntry(), seats=4)
    table.seat_player(1, "Ann", 100)
    table.seat_player(2, "Bob", 100)
    rnd = table.start_round()
    assert isinstance(rnd, ChinesePokerKeyedRound)
    table.act(Deal())
    return table, rnd


def test_cp_1_the_deal_records_no_cards_and_only_keyed_rows_are_offered(tmp_path: Path) -> None:
    _, rnd = dealt(tmp_path)
    assert rnd.phase is Phase.ACT and rnd.seats[1].cards == () and rnd.dead_hands == {}
    kinds = {s.kind for s in rnd.legal_steps() if s.seat == 1}
    assert kinds == {"set_rows", "declare_natural"}   # nothing to suggest from: the cards are unseen


def test_cp_5_cp_6_cp_7_keyed_rows_settle_a_scoop_with_a_back_royalty(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path)
    table.act(SetRows(seat=2, **rows(*SEAT2)))
    table.act(SetRows(seat=1, **rows(*SEAT1)))
    table.act(Lock(seat=2))
    table.act(Lock(seat=1))
    table.act(Reveal())
    outcome = rnd.outcome()
    # seat 1 wins all three rows: 3 + scoop 3 = 6, + four queens in the back 4 = 10 points x 5 = 50
    assert outcome is not None and outcome.stack_changes == {1: 50, 2: -50} and outcome.house == 0
    table.act(ConfirmPayout())
    assert table.session.stacks() == {1: 150, 2: 50} and verify_ledger(table.ledger, GAMES) == []


def test_cp_2_a_card_keyed_for_two_seats_is_refused(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path)
    table.act(SetRows(seat=2, **rows(*SEAT2)))
    with pytest.raises(IllegalAction, match=r"Seat 1 may not set the rows: Jh is already keyed for seat 2"):
        table.act(SetRows(seat=1, **rows("Jh Ad 2c", *SEAT1[1:])))
    assert rnd.seats[1].rows is None


def test_cp_2_a_row_of_the_wrong_size_is_refused(tmp_path: Path) -> None:
    table, _ = dealt(tmp_path)
    with pytest.raises(IllegalAction, match=r"the middle row needs 5 cards, got 4 \(CP-2\)"):
        table.act(SetRows(seat=1, **rows("Ah Ad 2c", "Kh Ks Kd 3c", "Qh Qs Qd Qc 5c 4d")))


def test_keyed_rows_may_be_corrected_until_the_seat_locks(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path)
    table.act(SetRows(seat=1, **rows("Ah Ad 2c", "Kh Ks Kd 3c 4d", "Qh Qs Qd Qc 5d")))  # 5d: a typo
    table.act(SetRows(seat=1, **rows(*SEAT1)))                                        # corrected
    assert "5d" not in {c.text for c in rnd.seats[1].cards}
    table.act(SetRows(seat=2, **rows("Jh Td 8c", "9s 9d 7c 6s 3s", "Th Ts 7d 6d 5d")))  # 5d is free again
    table.act(Lock(seat=1))
    with pytest.raises(IllegalAction, match=r"seat 1 has locked its rows"):
        table.act(SetRows(seat=1, **rows(*SEAT1)))


def test_cp_9_cp_14_a_declared_natural_must_be_in_the_keyed_cards(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path)
    with pytest.raises(IllegalAction, match=r"seat 1 declares a natural"):
        table.act(DeclareNatural(seat=1, **rows(*SEAT1)))
    # K-K Q-Q 4-4 5-5 A-A J-J and an 8: six pairs (CP-9), 4 points from every other player (CP-10)
    table.act(DeclareNatural(seat=1, **rows("Kh Ks Qh", "Qs 4h 4s 5h 5s", "Ah As Jc Jd 8h")))
    assert rnd.seats[1].natural is not None and rnd.seats[1].natural.value == "six pairs"
    table.act(SetRows(seat=2, **rows(*SEAT2)))
    table.act(Lock(seat=1))
    table.act(Lock(seat=2))
    table.act(Reveal())
    outcome = rnd.outcome()
    assert outcome is not None and outcome.stack_changes == {1: 20, 2: -20}   # 4 points x 5


def test_cp_9_a_natural_keyed_in_any_rows_is_judged_on_the_13_cards(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path)
    # Clubs 2 7 9, diamonds 3 6 8 J Q, hearts 4 5 6 T J keyed in rows that mix the suits: the 13
    # cards hold three flushes (CP-9); the round records rows of one suit each.
    table.act(DeclareNatural(seat=1, **rows("2c 3d 4h", "7c 9c 6d 5h Jh", "8d Jd Qd Th 6h")))
    event = rnd.events[-1]
    assert isinstance(event, NaturalDeclared) and event.natural == "three flushes"
    assert [" ".join(c.text for c in row) for row in event.hand.rows] == [
        "9c 7c 2c", "Jh Th 6h 5h 4h", "Qd Jd 8d 6d 3d"]  # each row one suit; the higher flush at the back
    table.act(SetRows(seat=2, **rows("Kc Kd 2h", "Qs Qh Qc Ts Tc", "Ah Ad As Ac 2s")))
    table.act(Lock(seat=1))
    table.act(Lock(seat=2))
    table.act(Reveal())
    outcome = rnd.outcome()
    # the natural collects its 4 points, seat 2's royalties do not count (CP-10): 4 x 5 = 20
    assert outcome is not None and outcome.stack_changes == {1: 20, 2: -20}
    table.act(ConfirmPayout())
    assert verify_ledger(table.ledger, GAMES) == []


def test_a_live_chinese_poker_round_comes_back_after_a_restart(tmp_path: Path) -> None:
    table, _ = dealt(tmp_path)
    table.act(SetRows(seat=2, **rows(*SEAT2)))
    again = Table.open(table.ledger, table.record, GAMES.find(table.profile.game), table.profile, KeyedEntry())
    rnd = again.round
    assert isinstance(rnd, ChinesePokerKeyedRound) and len(rnd.seats[2].cards) == 13 and rnd.seats[1].cards == ()
    with pytest.raises(IllegalAction, match=r"Jh is already keyed for seat 2"):
        again.act(SetRows(seat=1, **rows("Jh Ad 2c", *SEAT1[1:])))
