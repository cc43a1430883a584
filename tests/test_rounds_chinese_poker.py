"""Chinese Poker rounds through the real table runner and ledger (docs/rules.md CP-1..CP-15).

Scoring profile: the shipped `chinese-poker` (mandarin: scoop 6, royalties when the row wins,
foul 6; naturals 13/4/4/4; point value 5 chips; no house fee).
"""

from __future__ import annotations

import random
import tempfile
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer_tui.audit import verify_ledger
from dealer_tui.events.table import RoundStarted
from dealer_tui.games import GAMES
from dealer_tui.games.chinese_poker.events import (
    CardsDealt,
    NaturalDeclared,
    RowsLocked,
    RowsOpened,
    RowsSet,
)
from dealer_tui.games.chinese_poker.round import ChinesePokerRound
from dealer_tui.games.chinese_poker.steps import (
    DeclareNatural,
    Lock,
    SetRows,
    Suggest,
    Unlock,
    WithdrawNatural,
)
from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.base import Phase, Round, RoundOutcome
from dealer_tui.rounds.cards import ScriptedDeck, VirtualShoe
from dealer_tui.rounds.steps import ConfirmPayout, Deal, Reveal
from dealer_tui.rounds.table import Table
from dealer_tui.staff import VOID
from rules.cards import Card, parse_cards
from rules.errors import IllegalAction
from rules.profiles.loader import parse_profile
from tests.cp_support import (
    PROFILE,
    SEATING,
    TWO_SEAT1,
    TWO_SEAT2,
    deck,
    new_table,
    set_rows,
    start,
    two_player_round,
)
from tests.keyed_support import step_from
from tests.staff_support import approval, staffed_table, void


def snapshot(rnd: Round) -> tuple[object, ...]:
    outcome = rnd.outcome()
    assert isinstance(rnd, ChinesePokerRound)
    return (rnd.phase, [(s.kind, s.seat, dict(s.data)) for s in rnd.legal_steps()],
            [rnd.row_status(s) for s in sorted(rnd.seats)] if rnd.phase is not Phase.ANTE else [],
            None if outcome is None else (outcome.rows, dict(outcome.stack_changes), outcome.house))


def finish(table: Table, rnd: ChinesePokerRound) -> RoundOutcome:
    """Open the rows, check the round is the replay of its events, pay, check the books."""
    table.act(Reveal())
    outcome = rnd.outcome()
    assert outcome is not None
    replayed = ChinesePokerRound.replay(PROFILE.profile, rnd.setup, rnd.events)
    assert snapshot(replayed) == snapshot(rnd)
    table.act(ConfirmPayout())
    assert rnd.phase is Phase.DONE
    assert table.session.chips_balance() == 0  # C-2
    assert verify_ledger(table.ledger, GAMES) == []
    return outcome


def payments(rnd: ChinesePokerRound) -> list[tuple[int, int, int]]:
    assert rnd.money is not None
    return [(p.payer, p.receiver, p.amount) for p in rnd.money.payments]


def kinds(rnd: ChinesePokerRound, seat: int | None) -> set[str]:
    return {s.kind for s in rnd.legal_steps() if s.seat == seat}


# -- the deal ---------------------------------------------------------------------------------


def test_cp_1_four_hands_of_13_are_dealt_whatever_the_number_of_players(tmp_path: Path) -> None:
    _table, rnd = two_player_round(tmp_path)
    assert [c.text for c in rnd.seats[2].cards] == TWO_SEAT2.split()
    assert [c.text for c in rnd.seats[1].cards] == TWO_SEAT1.split()
    assert sorted(rnd.dead_hands) == ["dead 1", "dead 2"] and all(len(h) == 13 for h in rnd.dead_hands.values())
    dealt = next(e for e in rnd.events if isinstance(e, CardsDealt))
    every = [c for hand in dealt.hands.values() for c in hand]
    assert len(every) == len(set(every)) == 52  # 4 x 13: the event holds every card dealt
    assert rnd.phase is Phase.ACT


def test_cp_11_a_wrong_card_count_is_a_misdeal_refused_before_anything_is_recorded(tmp_path: Path) -> None:
    table = new_table(tmp_path, {1: 100, 2: 100})
    rnd = start(table)
    cards = deck(TWO_SEAT2, TWO_SEAT1)
    short = {"seat 2": tuple(cards[:12]), "seat 1": tuple(cards[13:26]), "dead 1": tuple(cards[26:39]),
             "dead 2": tuple(cards[39:52])}
    with pytest.raises(IllegalAction, match=r"seat 2 needs 13 cards, got 12 \(misdeal, CP-11\)"):
        table.act(Deal(cards=short))
    twice = {**short, "seat 2": tuple(cards[:12]) + (cards[13],)}  # seat 1's first card again
    with pytest.raises(IllegalAction, match=f"The table may not deal: {cards[13].text} is dealt twice"):
        table.act(Deal(cards=twice))
    assert rnd.phase is Phase.ANTE and [type(e) for e in rnd.events] == [RoundStarted]


def test_the_ante_phase_offers_only_the_deal_and_a_void(tmp_path: Path) -> None:
    table = new_table(tmp_path, {1: 100, 2: 100})
    rnd = start(table)
    assert [(s.kind, s.seat) for s in rnd.legal_steps()] == [("deal", None), ("void", None)]
    deal = rnd.legal_steps()[0].needs_cards
    assert deal is not None and deal.hands == (("seat 2", 13), ("seat 1", 13), ("dead 1", 13), ("dead 2", 13))
    with pytest.raises(IllegalAction, match="Seat 1 may not set the rows: not allowed in the ante phase"):
        set_rows(table, 1, "Ah Ad 2c", "Kh Ks Kd 3c 4d", "Qh Qs Qd Qc 5c")
    with pytest.raises(IllegalAction, match="The table may not open the rows: not allowed in the ante phase"):
        table.act(Reveal())


# -- setting the rows -------------------------------------------------------------------------


@pytest.mark.parametrize(("rows", "reason"), [
    (("Ah Ad 2c", "Kh Ks Kd 3c 4d", "Qh Qs Qd Qc 9h"), "seat 1 does not hold 9h"),
    (("Ah Ad", "2c Kh Ks Kd 3c 4d", "Qh Qs Qd Qc 5c"), r"the front row needs 3 cards, got 2 \(CP-2\)"),
    (("Ah Ad 2c", "Kh Ks Kd 3c", "4d Qh Qs Qd Qc 5c"), r"the middle row needs 5 cards, got 4 \(CP-2\)"),
    (("Ah Ad 2c", "Kh Ks Kd 3c 4d", "Qh Qs Qd Qc Ah"), "Ah is set twice"),
    (("Ah Ad 2c", "Kh Ks Kd 3c 4d", "Qh Qs Qd Qc 5x"), "back: bad card '5x'"),
])
def test_cp_2_rows_must_be_3_5_5_of_the_seats_own_13_cards(
        tmp_path: Path, rows: tuple[str, str, str], reason: str) -> None:
    table, rnd = two_player_round(tmp_path)
    with pytest.raises(IllegalAction, match=f"Seat 1 may not set the rows: {reason}"):
        set_rows(table, 1, *rows)
    with pytest.raises(IllegalAction, match="Seat 1 may not set the rows: the back row is missing"):
        table.act(SetRows(seat=1, front="Ah Ad 2c", middle="Kh Ks Kd 3c 4d"))
    assert rnd.seats[1].rows is None and isinstance(rnd.events[-1], CardsDealt)


def test_cp_2_rows_may_be_set_in_any_order_and_changed_until_locked(tmp_path: Path) -> None:
    table, rnd = two_player_round(tmp_path)
    set_rows(table, 1, "Ah Ad 2c", "Kh Ks Kd 3c 4d", "Qh Qs Qd Qc 5c")   # seat 1 before seat 2
    set_rows(table, 1, "4d 3c 2c", "Kh Ks Kd Ah Ad", "Qh Qs Qd Qc 5c")   # changed
    status = rnd.row_status(1)
    assert status.rows == ("4d 3c 2c", "Ah Ad Ks Kh Kd", "Qs Qh Qd Qc 5c")  # C-7 order
    assert status.names == ("high card", "full house", "four of a kind") and not status.fouled


def test_cp_3_cp_4_row_status_shows_the_live_foul_and_why(tmp_path: Path) -> None:
    table, rnd = two_player_round(tmp_path)
    set_rows(table, 2, "Th Ts 7d", "Jh Td 8c 6s 3s", "9s 9d 7c 6d 2d")
    status = rnd.row_status(2)
    assert status.names == ("one pair", "high card", "one pair")
    assert status.foul == "middle high card does not beat front one pair"
    lock = next(s for s in rnd.legal_steps() if s.kind == "lock" and s.seat == 2)
    assert dict(lock.data) == {"confirm_foul": True} and "FOULED" in lock.label
    set_rows(table, 2, "Jh 8c 3s", "9s 9d 7c 6s 2d", "Th Ts Td 7d 6d")  # J high < nines < tens
    assert rnd.row_status(2).foul is None


def test_cp_4_locking_a_fouled_set_needs_an_explicit_confirmation(tmp_path: Path) -> None:
    table, rnd = two_player_round(tmp_path)
    set_rows(table, 2, "Th Ts 7d", "Jh Td 8c 6s 3s", "9s 9d 7c 6d 2d")
    with pytest.raises(IllegalAction, match=r"Seat 2 may not lock the rows: the rows are fouled: middle high "
                                            r"card does not beat front one pair \(CP-4\)"):
        table.act(Lock(seat=2))
    table.act(Lock(seat=2, confirm_foul=True))
    locked = rnd.events[-1]
    assert rnd.seats[2].locked and isinstance(locked, RowsLocked) and locked.fouled is True


def test_cp_8_a_confirmed_foul_pays_the_penalty_and_the_opponents_royalties(tmp_path: Path) -> None:
    table, rnd = two_player_round(tmp_path)
    set_rows(table, 1, "4d 3c 2c", "Kh Ks Kd Ah Ad", "Qh Qs Qd Qc 5c")
    set_rows(table, 2, "Th Ts 7d", "Jh Td 8c 6s 3s", "9s 9d 7c 6d 2d")  # fouled
    table.act(Lock(seat=1))
    table.act(Lock(seat=2, confirm_foul=True))
    outcome = finish(table, rnd)
    # seat 2 fouled: foul 6 + seat 1's royalties (middle full house 2 + back four of a kind 4) = 12
    # points x 5 chips = 60
    assert rnd.score is not None and rnd.score.points == {1: 12, 2: -12}
    assert outcome.stack_changes == {1: 60, 2: -60} and outcome.house == 0
    assert table.session.stacks() == {1: 160, 2: 40}
    reason = next(r.reason for r in outcome.rows if r.seat == 2)
    assert "seat 2 fouled, pays foul 6 + seat 1's royalties 6 = 12" in reason


def test_suggest_fills_the_rows_with_the_helpers_setting_marked_as_suggested(tmp_path: Path) -> None:
    table, rnd = two_player_round(tmp_path)
    table.act(Suggest(seat=2))
    event = rnd.events[-1]
    assert isinstance(event, RowsSet) and event.suggested is True and event.reason
    status = rnd.row_status(2)
    assert status.suggested and not status.fouled and status.rows is not None
    assert sorted(" ".join(status.rows).split()) == sorted(TWO_SEAT2.split())
    set_rows(table, 2, "Jh 8c 3s", "9s 9d 7c 6s 2d", "Th Ts Td 7d 6d")
    assert not rnd.row_status(2).suggested


def test_acting_after_lock_is_refused_until_unlocked(tmp_path: Path) -> None:
    table, rnd = two_player_round(tmp_path)
    with pytest.raises(IllegalAction, match="Seat 1 may not lock the rows: the rows are not set yet"):
        table.act(Lock(seat=1))
    set_rows(table, 1, "Ah Ad 2c", "Kh Ks Kd 3c 4d", "Qh Qs Qd Qc 5c")
    table.act(Lock(seat=1))
    assert kinds(rnd, 1) == {"unlock"}
    for action in (SetRows(seat=1, front="Ah Ad 2c"), Suggest(seat=1), Lock(seat=1)):
        with pytest.raises(IllegalAction, match="has locked its rows: unlock them first"):
            table.act(action)
    table.act(Unlock(seat=1))
    table.act(Suggest(seat=1))
    assert not rnd.seats[1].locked
    with pytest.raises(IllegalAction, match="Seat 3 may not take the suggested setting: the seat is not playing this hand"):
        table.act(Suggest(seat=3))


def test_reveal_before_every_seat_is_locked_is_refused(tmp_path: Path) -> None:
    table, rnd = two_player_round(tmp_path)
    set_rows(table, 1, "Ah Ad 2c", "Kh Ks Kd 3c 4d", "Qh Qs Qd Qc 5c")
    table.act(Lock(seat=1))
    with pytest.raises(IllegalAction, match="The table may not open the rows: seat 2 has not locked the rows"):
        table.act(Reveal())
    table.act(Suggest(seat=2))
    table.act(Lock(seat=2))
    assert rnd.phase is Phase.REVEAL
    table.act(Unlock(seat=2))  # still allowed before the reveal
    assert rnd.phase is Phase.ACT
    table.act(Lock(seat=2))
    table.act(Reveal())
    assert rnd.phase is Phase.PAYOUT
    with pytest.raises(IllegalAction, match="Seat 2 may not unlock the rows: not allowed in the payout phase"):
        table.act(Unlock(seat=2))


# -- naturals ---------------------------------------------------------------------------------


def test_cp_9_a_natural_the_cards_do_not_hold_is_neither_offered_nor_accepted(tmp_path: Path) -> None:
    table, rnd = two_player_round(tmp_path)
    assert "declare_natural" not in kinds(rnd, 1) and rnd.row_status(1).natural_held is None
    set_rows(table, 1, "Ah Ad 2c", "Kh Ks Kd 3c 4d", "Qh Qs Qd Qc 5c")
    with pytest.raises(IllegalAction, match=r"Seat 1 may not declare a natural: seat 1 declares a natural, but the "
                                            r"cards hold no dragon, six pairs, three flushes or three straights"):
        table.act(DeclareNatural(seat=1))


# Four players; the button is on seat 2 on the second hand: dealt seat 3, seat 4, seat 1, seat 2.
FOUR_SEAT3 = "Ah Kh Qh Ts 9s 8h 7d 6c As Ks Qs Js 5s"   # holds three straights, not declared
FOUR_SEAT4 = "2s 2h 2d 3s 3h 3d Kc Qc 4s 4h 4d Kd Qd"
FOUR_SEAT1 = "Ac Jc Tc 9c 8c 7c 6d 5h 5d 5c 4c 3c 2c"
FOUR_SEAT2 = "Jh Jd Th Td 9h 9d 8s 8d 7s 7h 6s 6h Ad"   # six pairs


def four_player_round(tmp_path: Path) -> tuple[Table, ChinesePokerRound]:
    script = deck(FOUR_SEAT3, FOUR_SEAT4, FOUR_SEAT1, FOUR_SEAT2)
    table = new_table(tmp_path, {1: 100, 2: 100, 3: 100, 4: 100}, script, script)
    start(table)  # the table's first hand (button seat 1) is a misdeal
    void(table, "cards exposed while shuffling")
    rnd = start(table)
    table.act(Deal())
    return table, rnd


RANKS = "23456789TJQKA"


def text(row: Sequence[Card]) -> str:
    """A recorded row as card text, in the order recorded."""
    return " ".join(c.text for c in row)


def is_run(row: str) -> bool:
    """Three or five cards of consecutive ranks, the ace high or low (CP-9), read from the text."""
    ranks = sorted(RANKS.index(card[0]) for card in row.split())
    low_ace = [0, 1, 2, 3][: len(ranks) - 1] + [12]
    return ranks == list(range(ranks[0], ranks[0] + len(ranks))) or ranks == low_ace


def test_cp_9_a_natural_is_declared_without_setting_the_rows(tmp_path: Path) -> None:
    table, rnd = four_player_round(tmp_path)
    # Seat 3's cards A K Q T 9 8 7 6 A K Q J 5 split Q-K-A / 5-6-7-8-9 / T-J-Q-K-A: three straights
    assert rnd.seats[3].rows is None and rnd.row_status(3).natural_held == "three straights"
    table.act(DeclareNatural(seat=3))  # no rows set, none named
    event = rnd.events[-1]
    assert isinstance(event, NaturalDeclared) and event.natural == "three straights"
    shown = [text(row) for row in event.hand.rows]
    assert [len(row.split()) for row in shown] == [3, 5, 5] and all(is_run(row) for row in shown)
    assert sorted(" ".join(shown).split()) == sorted(FOUR_SEAT3.split())
    status = rnd.row_status(3)
    assert status.natural_declared == "three straights" and status.rows == tuple(shown)
    assert "declares three straights (CP-9), shown as front" in GAMES.find("chinese-poker").presenter.describe(event)


def test_cp_9_rows_that_do_not_show_the_natural_are_rearranged_when_it_is_declared(tmp_path: Path) -> None:
    table, rnd = four_player_round(tmp_path)
    # front Q-K-A is a run and middle T-9-8-7-6 a straight, but back A-K-Q-J-5 is not: as set, the
    # rows show no natural; the 13 cards still hold three straights (CP-9)
    set_rows(table, 3, "Ah Kh Qh", "Ts 9s 8h 7d 6c", "As Ks Qs Js 5s")
    table.act(DeclareNatural(seat=3))
    declared = rnd.events[-1]
    assert isinstance(declared, NaturalDeclared) and declared.natural == "three straights"
    assert all(is_run(text(row)) for row in declared.hand.rows)
    assert declared.back != parse_cards("As Ks Qs Js 5s")
    # Named rows that show it are kept as named.
    table.act(WithdrawNatural(seat=3))
    named = {"front": "Ah Kh Qh", "middle": "9s 8h 7d 6c 5s", "back": "As Ks Qs Js Ts"}
    table.act(DeclareNatural(seat=3, **named))
    declared = rnd.events[-1]
    assert isinstance(declared, NaturalDeclared)
    assert (text(declared.front), text(declared.middle), text(declared.back)) == tuple(named.values())


def test_cp_9_a_declared_natural_fixes_its_rows_until_withdrawn(tmp_path: Path) -> None:
    table, rnd = four_player_round(tmp_path)
    table.act(DeclareNatural(seat=2, front="Ad Jh Jd", middle="Th Td 9h 9d 8s", back="8d 7s 7h 6s 6h"))
    assert kinds(rnd, 2) == {"withdraw_natural", "lock"}
    with pytest.raises(IllegalAction, match=r"Seat 2 may not set the rows: seat 2 has declared six pairs: "
                                            r"withdraw it first \(CP-9\)"):
        set_rows(table, 2, "Jh Jd Ad", "Th Td 9h 9d 8s", "8d 7s 7h 6s 6h")
    table.act(WithdrawNatural(seat=2))
    assert rnd.seats[2].natural is None and "declare_natural" in kinds(rnd, 2)
    with pytest.raises(IllegalAction, match="Seat 2 may not withdraw the natural: no natural is declared"):
        table.act(WithdrawNatural(seat=2))


def test_cp_8_cp_10_cp_14_four_players_natural_verified_foul_and_payments_from_the_button(tmp_path: Path) -> None:
    table, rnd = four_player_round(tmp_path)
    assert rnd.button == 2 and rnd.order() == (3, 4, 1, 2)
    # seat 3: front A-K-Q high card, middle straight T-high, back spade flush (no royalties)
    set_rows(table, 3, "Ah Kh Qh", "Ts 9s 8h 7d 6c", "As Ks Qs Js 5s")
    # seat 4: front three 2s (royalty 3), middle three 3s, back three 4s
    set_rows(table, 4, "2s 2h 2d", "3s 3h 3d Kc Qc", "4s 4h 4d Kd Qd")
    # seat 1: front three 5s, middle A-J high card: fouled
    set_rows(table, 1, "5h 5d 5c", "Ac Jc Tc 6d 2c", "9c 8c 7c 4c 3c")
    # seat 2 declares six pairs; the row order of a natural is not checked (CP-9)
    table.act(DeclareNatural(seat=2, front="Ad Jh Jd", middle="Th Td 9h 9d 8s", back="8d 7s 7h 6s 6h"))
    for seat in (3, 4, 2):
        table.act(Lock(seat=seat))
    table.act(Lock(seat=1, confirm_foul=True))
    outcome = finish(table, rnd)
    opened = next(e for e in rnd.events if isinstance(e, RowsOpened))
    assert opened.verified == ("seat 2: six pairs verified (CP-14)",)
    assert rnd.score is not None
    # pairs: (1,2) the fouled seat 1 pays the six pairs foul 6 + 4 = 10 (CP-8): -10; (1,3) foul
    # 6 + 0: -6; (1,4) foul 6 + seat 4's front royalty 3: -9; (2,3) +4; (2,4) +4;
    # (3,4) front -1, middle +1, back +1, seat 4's front three of a kind royalty (row won) -3: -2
    assert {p.seats: p.points for p in rnd.score.pairs} == {
        (1, 2): -10, (1, 3): -6, (1, 4): -9, (2, 3): 4, (2, 4): 4, (3, 4): -2}
    # seat 1: -10 -6 -9 = -25; seat 2: 10 + 4 + 4 = 18; seat 3: 6 - 4 - 2 = 0; seat 4: 9 - 4 + 2 = 7
    assert rnd.score.points == {1: -25, 2: 18, 3: 0, 4: 7}
    # dues (x5): -125, +90, 0, +35. Seat 1 pays min(125, 100) = 100; claims 90 + 35 = 125;
    # M = 100. Clockwise from the button on seat 2: 3, 4, 1, 2: seat 4 takes its 35, seat 2 the
    # other 65; seat 3, at 0 points, moves nothing (CP-13)
    assert payments(rnd) == [(1, 4, 35), (1, 2, 65)]
    assert outcome.stack_changes == {1: -100, 2: 65, 3: 0, 4: 35} and "capped" in outcome.flags
    assert table.session.stacks() == {1: 0, 2: 165, 3: 100, 4: 135}
    assert {r.seat: r.bet for r in outcome.rows} == {1: "points", 2: "points", 3: "points", 4: "points"}
    reasons = {r.seat: r.reason for r in outcome.rows}
    assert reasons[3].endswith("; on the nets (CP-13): a net of 0 moves no chips = +0")
    assert reasons[2].endswith("; on the nets (CP-13): received 65 from seat 1, seat 2 is owed 90: "
                               "receives 65, as the losers hold no more (CP-13) = +65")
    assert reasons[1].endswith("; on the nets (CP-13): paid seat 4 35, paid seat 2 65, seat 1 owes 125 "
                               "and holds 100: pays 100 (CP-13) = -100")


# -- two and three players, table stakes ------------------------------------------------------


def test_cp_5_cp_6_cp_7_two_players_a_scoop_with_a_back_royalty(tmp_path: Path) -> None:
    table, rnd = two_player_round(tmp_path)
    assert rnd.button == 1 and rnd.order() == (2, 1)
    set_rows(table, 2, "Jh Td 8c", "9s 9d 7c 6s 3s", "Th Ts 7d 6d 2d")  # J high, nines, tens
    set_rows(table, 1, "Ah Ad 2c", "Kh Ks Kd 3c 4d", "Qh Qs Qd Qc 5c")  # aces, three kings, four queens
    table.act(Lock(seat=2))
    table.act(Lock(seat=1))
    outcome = finish(table, rnd)
    # seat 1 wins all three rows: scoop 6, + back four of a kind royalty 4 = 10 points x 5 = 50
    assert rnd.score is not None and rnd.score.points == {1: 10, 2: -10}
    assert payments(rnd) == [(2, 1, 50)]
    assert outcome.stack_changes == {1: 50, 2: -50} and outcome.house == 0
    row = next(r for r in outcome.rows if r.seat == 1)
    assert (row.bet, row.stake, row.result) == ("points", 0, 50)
    assert row.reason == ("+10 points × 5 = +50 (+10 against seat 2 — seat 1 v seat 2: front +1, middle +1, back +1, scoop 6, "
                          "back four of a kind royalty +4 = 10); on the nets (CP-13): received 50 from "
                          "seat 2 = +50")
    loser = next(r for r in outcome.rows if r.seat == 2)   # its own side first: -10 against seat 1
    assert loser.reason.startswith("-10 points × 5 = -50 (-10 against seat 1 — seat 1 v seat 2: front +1, ")


def test_the_house_fee_is_taken_by_the_settlement_and_the_stakes_start_after_it(tmp_path: Path) -> None:
    text = PROFILE.text.replace("house_fee: 0", "house_fee: 2")
    assert text != PROFILE.text
    with_fee = parse_profile(text, "fee.yaml", "chinese-poker-fee")
    ledger = SqliteLedger(tmp_path / "fee.sqlite")
    table = staffed_table(ledger, "F", with_fee, ScriptedDeck([deck(TWO_SEAT2, TWO_SEAT1)]), seats=4)
    table.seat_player(1, "P1", 100)
    table.seat_player(2, "P2", 100)
    rnd = start(table)
    table.act(Deal())
    set_rows(table, 2, "Jh Td 8c", "9s 9d 7c 6s 3s", "Th Ts 7d 6d 2d")
    set_rows(table, 1, "Ah Ad 2c", "Kh Ks Kd 3c 4d", "Qh Qs Qd Qc 5c")
    table.act(Lock(seat=2))
    table.act(Lock(seat=1))
    table.act(Reveal())
    outcome = rnd.outcome()
    assert outcome is not None
    # the scoop of the two-player test: seat 2 owes 10 x 5 = 50 and pays it from 100 - fee 2 = 98
    rows = {(r.seat, r.bet): r.result for r in outcome.rows}
    assert rows == {(1, "points"): 50, (1, "fee"): -2, (2, "points"): -50, (2, "fee"): -2}
    # nets include the fee: seat 1 50 - 2 = 48, seat 2 -50 - 2 = -52; the house takes 2 + 2 = 4
    assert outcome.stack_changes == {1: 48, 2: -52} and outcome.house == 4
    assert sum(outcome.stack_changes.values()) == -outcome.house  # C-2
    table.act(ConfirmPayout())
    assert table.session.chips_balance() == 0 and table.session.house == 4
    assert verify_ledger(ledger, GAMES) == []


THREE_SEAT2 = "As Kh Qd Jc Ts 9h 8d 7c 6s 5h 4d 3c 2s"   # a dragon
THREE_SEAT3 = "Ah Ad 3h Qs Qh Js Jh 4s Th Td Tc 9s 9d"
THREE_SEAT1 = "Ks Kd 2h Qc 8s 8h 7s 7h 6h 6d 6c 5s 5d"


def test_cp_13_three_players_pay_clockwise_from_the_button_within_table_stakes(tmp_path: Path) -> None:
    table = new_table(tmp_path, {1: 100, 2: 100, 3: 50}, deck(THREE_SEAT2, THREE_SEAT3, THREE_SEAT1))
    rnd = start(table)
    table.act(Deal())
    assert rnd.button == 1 and rnd.order() == (2, 3, 1)
    assert "declare_natural" in kinds(rnd, 2) and rnd.row_status(2).natural_held == "dragon"
    table.act(Suggest(seat=2))
    table.act(DeclareNatural(seat=2))  # a dragon shows in any 3/5/5 rows
    set_rows(table, 3, "Ah Ad 3h", "Qs Qh Js Jh 4s", "Th Td Tc 9s 9d")  # aces, queens and jacks, tens full
    set_rows(table, 1, "Ks Kd 2h", "Qc 8s 8h 7s 7h", "6h 6d 6c 5s 5d")  # kings, eights and sevens, sixes full
    for seat in (1, 2, 3):
        table.act(Lock(seat=seat))
    outcome = finish(table, rnd)
    # (1,2) dragon collects 13: -13; (1,3) seat 3 wins every row, scoop: -6; (2,3) dragon: +13
    assert rnd.score is not None and rnd.score.points == {1: -19, 2: 26, 3: -7}
    # dues (x5): -95, +130, -35. Pays: seat 1 min(95, 100) = 95, seat 3 min(35, 50) = 35: 130.
    # Seat 2 claims min(130, its stack 100) = 100 = M. Losers from the button (1): 2, 3, 1:
    # seat 3 pays its 35, seat 1 the other 65; both to seat 2.
    assert payments(rnd) == [(3, 2, 35), (1, 2, 65)]
    assert outcome.stack_changes == {1: -65, 2: 100, 3: -35}  # seat 2 won its own stack, no more
    assert "capped" in outcome.flags
    reasons = {r.seat: r.reason for r in outcome.rows}
    assert "seat 2 is owed 130 and can win at most its stack 100: receives 100 (CP-13)" in reasons[2]
    assert "seat 1 owes 95: pays 65, as the winners can collect no more (CP-13)" in reasons[1]
    assert "paid seat 2 35 = -35" in reasons[3]
    assert table.session.stacks() == {1: 35, 2: 200, 3: 15}


# -- rounds recorded under revision 1 -----------------------------------------------------------


def play_dragon_round(table: Table) -> ChinesePokerRound:
    rnd = start(table)
    table.act(Deal())
    table.act(Suggest(seat=2))
    table.act(DeclareNatural(seat=2))
    set_rows(table, 3, "Ah Ad 3h", "Qs Qh Js Jh 4s", "Th Td Tc 9s 9d")
    set_rows(table, 1, "Ks Kd 2h", "Qc 8s 8h 7s 7h", "6h 6d 6c 5s 5d")
    for seat in (1, 2, 3):
        table.act(Lock(seat=seat))
    table.act(Reveal())
    table.act(ConfirmPayout())
    return rnd


def test_revision_1_rounds_in_the_ledger_are_re_settled_by_revision_1(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from dealer_tui.audit import verify
    from dealer_tui.cli import main

    # Button 1 deals seats 2, 3, 1; the next hand's button 2 deals 3, 1, 2: the same hands each time.
    table = new_table(tmp_path, {1: 100, 2: 100, 3: 50}, deck(THREE_SEAT2, THREE_SEAT3, THREE_SEAT1),
                      deck(THREE_SEAT3, THREE_SEAT1, THREE_SEAT2))
    # A round recorded before revision 2: its setup has no `rules_revision`.
    plain = ChinesePokerRound.setup_from.__func__  # type: ignore[attr-defined]

    def revision_1_setup(cls: type, *args: object, **kwargs: object) -> dict[str, object]:
        setup = plain(cls, *args, **kwargs)
        del setup["rules_revision"]
        return setup

    monkeypatch.setattr(ChinesePokerRound, "setup_from", classmethod(revision_1_setup))
    old = play_dragon_round(table)
    assert old.revision == 1 and "rules_revision" not in old.setup
    # Revision 1, pair by pair (the test above under revision 2 moves -65 / +100 / -35). Points
    # 1: -19, 2: +26, 3: -7; owed 1->2 65, 1->3 30, 3->2 65; payers in order 2, 3, 1:
    #   seat 3 pays seat 2 min(65, its 50 chips, seat 2's allowance 100) = 50
    #   seat 1 pays seat 2 min(65, 100, allowance 100 - 50 received = 50) = 50
    #   seat 1 pays seat 3 min(30, 100 - 50 = 50, allowance 50 - (0 - 50) = 100) = 30
    assert payments(old) == [(3, 2, 50), (1, 2, 50), (1, 3, 30)]
    outcome = old.outcome()
    assert outcome is not None and outcome.stack_changes == {1: -80, 2: 100, 3: -20}
    monkeypatch.undo()
    # Stacks now 20, 200, 30; the next round is played under revision 2.
    for seat, chips in ((1, 80), (3, 70)):
        table.buy_chips(seat, chips)
    new = play_dragon_round(table)
    assert new.revision == 2 and new.setup["rules_revision"] == 2
    report = verify(table.ledger, GAMES)
    assert report.problems == []
    assert report.notes == [(f"table {table.record.id} (C1): round 1 settled under rules revision 1, "
                             "re-settled by revision 1's rules, not revision 2's")]
    path = str(table.ledger.path)
    table.ledger.close()
    assert main(["history", "verify", "--ledger", path]) == 0
    out = capsys.readouterr().out
    assert out.startswith("note: table 1 (C1): round 1 settled under rules revision 1")
    assert "ok: " in out and "(2 rounds)" in out


# -- the button, voids, recovery ----------------------------------------------------------------


def test_cp_15_the_button_moves_clockwise_and_skips_a_player_on_their_first_hand(tmp_path: Path) -> None:
    table = new_table(tmp_path, {1: 100, 3: 100})
    buttons = []

    def hand() -> None:
        rnd = start(table)
        buttons.append(rnd.button)
        void(table, "hand delivered to the wrong player")

    hand()                               # everyone is new on the table's first hand: seat 1
    table.seat_player(2, "New", 100)     # joins right after the button
    hand()                               # seat 2 is new: the button passes to seat 3
    hand()                               # clockwise from 3: seat 1
    hand()                               # clockwise from 1: seat 2, no longer new
    assert buttons == [1, 3, 1, 2]


def test_a_round_needs_two_to_four_players_with_chips(tmp_path: Path) -> None:
    table = new_table(tmp_path, {1: 100})
    with pytest.raises(IllegalAction, match="Chinese Poker needs 2 to 4 players with chips; the table has 1"):
        table.start_round()


def test_cp_11_a_misdeal_voids_the_round_and_moves_no_chips(tmp_path: Path) -> None:
    table, rnd = two_player_round(tmp_path)
    table.act(Suggest(seat=1))
    table.act(Lock(seat=1))
    with pytest.raises(IllegalAction, match="needs a reason"):
        void(table, " ")
    void(table, "five cards of seat 2 exposed")
    assert rnd.phase is Phase.VOID and rnd.outcome() is None
    assert table.session.stacks() == {1: 100, 2: 100} and table.session.chips_balance() == 0
    record = table.ledger.round(table.round_id or 0)
    assert record.status == "voided" and "voided" in record.flags
    assert verify_ledger(table.ledger, GAMES) == []


def test_no_void_once_the_rows_are_open(tmp_path: Path) -> None:
    table, _rnd = two_player_round(tmp_path)
    for seat in (1, 2):
        table.act(Suggest(seat=seat))
        table.act(Lock(seat=seat))
    table.act(Reveal())
    with pytest.raises(IllegalAction, match=r"The table may not void the round: the rows are open .*\(CP-11\)"):
        void(table, "late")


def test_recovery_reopens_the_round_with_the_rows_as_set(tmp_path: Path) -> None:
    table, rnd = two_player_round(tmp_path)
    set_rows(table, 1, "Ah Ad 2c", "Kh Ks Kd 3c 4d", "Qh Qs Qd Qc 5c")
    table.act(Lock(seat=1))
    path = table.ledger.path
    table.ledger.close()
    ledger = SqliteLedger(path)
    again = Table.open(ledger, ledger.tables()[0], GAMES.find(PROFILE.game), PROFILE, ScriptedDeck([deck(TWO_SEAT2, TWO_SEAT1)]))
    back = again.round
    assert isinstance(back, ChinesePokerRound)
    assert back.phase is Phase.ACT and back.seats[1].locked and back.row_status(1) == rnd.row_status(1)
    set_rows(again, 2, "Jh Td 8c", "9s 9d 7c 6s 3s", "Th Ts 7d 6d 2d")
    again.act(Lock(seat=2))
    assert finish(again, back).stack_changes == {1: 50, 2: -50}  # as in the two-player test


# -- many rounds --------------------------------------------------------------------------------


def play_demo(table: Table, rounds: int) -> None:
    choose = GAMES.find("chinese-poker").demo
    rng = random.Random(0)
    profile = table.profile.profile
    for _ in range(rounds):
        for seat, player in list(table.session.players.items()):
            if player.stack < profile.buy_in.min:
                table.buy_chips(seat, profile.buy_in.max)
        rnd = start(table)
        while rnd.phase not in (Phase.DONE, Phase.VOID):
            table.act(choose(rnd, rng))
        assert snapshot(ChinesePokerRound.replay(profile, rnd.setup, rnd.events)) == snapshot(rnd)
        assert table.session.chips_balance() == 0


@pytest.mark.slow
def test_fifty_demo_rounds_settle_and_re_settle_from_the_ledger(tmp_path: Path) -> None:
    ledger = SqliteLedger(tmp_path / "demo.sqlite")
    table = staffed_table(ledger, "Demo", PROFILE, VirtualShoe.seeded_with(5), seats=4)
    for seat in range(1, 5):
        table.seat_player(seat, f"P{seat}", 100)
    play_demo(table, 50)
    rounds = ledger.table_rounds(table.record.id)
    assert len(rounds) == 50 and all(r.status == "settled" for r in rounds)
    assert verify_ledger(ledger, GAMES) == []


def random_rows(cards: Sequence[Card], rng: random.Random) -> dict[str, str]:
    shuffled = list(cards)
    rng.shuffle(shuffled)
    return {"front": " ".join(c.text for c in shuffled[:3]), "middle": " ".join(c.text for c in shuffled[3:8]),
            "back": " ".join(c.text for c in shuffled[8:])}


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), stacks=st.lists(st.integers(50, 100), min_size=4,
                                                                               max_size=4))
def test_c_2_random_rounds_conserve_chips_and_replay(seed: int, players: int, stacks: list[int]) -> None:
    """Random rows (often fouled), naturals when the spec offers them, unlocks and re-sets."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        ledger = SqliteLedger(Path(tmp) / "h.sqlite")
        table = staffed_table(ledger, "H", SEATING, VirtualShoe(random.Random(seed)), seats=4)
        for seat in range(1, players + 1):
            table.seat_player(seat, f"P{seat}", stacks[seat - 1])
        for _ in range(2):
            if sum(1 for chips in table.session.stacks().values() if chips) < 2:
                break  # a player lost every chip: no second round (CP needs 2 to 4 players with chips)
            rnd = start(table)
            before = table.session.stacks()
            while rnd.phase not in (Phase.DONE, Phase.VOID):
                specs = [s for s in rnd.legal_steps() if s.kind != "void" or rng.random() < 0.01]
                reveal = [s for s in specs if s.kind == "reveal"]
                spec = reveal[0] if reveal and rng.random() < 0.8 else rng.choice(specs)
                data = dict(spec.data)
                if spec.kind == "set_rows" and spec.seat is not None:
                    data = random_rows(rnd.seats[spec.seat].cards, rng)
                elif spec.kind == "void":
                    data = {"reason": "wrong card count", **approval(table, VOID)}
                elif spec.kind == "confirm_payout":
                    data = approval(table)
                table.act(step_from(spec, **data))
            outcome = rnd.outcome()
            if outcome is not None:
                assert sum(outcome.stack_changes.values()) == -outcome.house == 0  # no fee in this profile
                for seat, change in outcome.stack_changes.items():
                    assert -before[seat] <= change <= before[seat]  # CP-13: at most the starting stack
            assert snapshot(ChinesePokerRound.replay(PROFILE.profile, rnd.setup, rnd.events)) == snapshot(rnd)
            assert table.session.chips_balance() == 0
        assert verify_ledger(ledger, GAMES) == []
        ledger.close()


def test_cp_12_first_buy_full_then_one_short_buy_after_each_full_buy(tmp_path: Path) -> None:
    from dealer_tui.ledger import SqliteLedger as _Ledger
    from dealer_tui.rounds.cards import VirtualShoe
    from rules.profiles.loader import ProfileLibrary as _Library

    profile = _Library().find("chinese-poker")      # full buy-in 20 points x 5 = 100; buys 50-100
    table = staffed_table(_Ledger(tmp_path / "cp12.sqlite"), "CP", profile, VirtualShoe.seeded_with(1), seats=4)
    with pytest.raises(IllegalAction, match=r"Seat 1 may not buy 60: the first buy must be a full buy of 100"):
        table.seat_player(1, "Ann", 60)
    table.seat_player(1, "Ann", 100)                 # full
    table.buy_chips(1, 60)                           # one short buy after the full buy
    with pytest.raises(IllegalAction, match=r"one short buy per full buy"):
        table.buy_chips(1, 50)
    table.buy_chips(1, 100)                          # full again
    table.buy_chips(1, 50)                           # so one more short buy
    assert table.session.players[1].buys == (100, 60, 100, 50)
    assert table.session.stacks() == {1: 310}
    kinds = [(e.kind, e.payload.get("short")) for e in table.ledger.table_events(table.record.id, ["chips_bought"])]
    assert kinds == [("chips_bought", True), ("chips_bought", False), ("chips_bought", True)]
