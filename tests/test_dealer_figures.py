"""Dealer figures worked out by hand from a scripted shift on a clock the test sets: each
dealer's time on duty, rounds, rounds per hour, average round time, voids and corrections; and the
bank's rotation (HCF-18) checked round by round."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_tui.accounting.dealers import dealer_totals
from dealer_tui.accounting.report import dealer_line
from dealer_tui.accounting.shifts import shift_figures
from dealer_tui.accounting.theoretical import Theory
from dealer_tui.games import GAMES
from dealer_tui.games.high_card_flush.round import HighCardFlushRound
from dealer_tui.games.high_card_flush.steps import Ante, Fold
from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.cards import VirtualShoe
from dealer_tui.rounds.steps import ConfirmPayout, Deal, Reveal, SendToFloor, TakeBack, Void
from dealer_tui.rounds.table import Table
from dealer_tui.staff import DEAL, TRAY, VOID
from rules.profiles.loader import ProfileLibrary
from tests.accounting_support import Clock
from tests.staff_support import (
    DEALER,
    DEALER_PIN,
    SUPERVISOR,
    SUPERVISOR2,
    SUPERVISOR2_PIN,
    SUPERVISOR_PIN,
    staffed,
)


def test_each_dealers_figures_in_a_shift(tmp_path: Path) -> None:
    clock = Clock()
    ledger = SqliteLedger(tmp_path / "l.sqlite", clock=clock)
    crew = staffed(ledger)
    table = Table.create(ledger, "T1", GAMES.find("high-card-flush"), ProfileLibrary().find("high-card-flush-casino"),
                         VirtualShoe.seeded_with(3), seats=6)
    crew.deal(table)                                                    # 17:55 D1 signs in

    def both():  # type: ignore[no-untyped-def]
        return (crew.sign_in(table.session.dealer.account, DEALER_PIN if table.session.dealer.account == DEALER  # type: ignore[union-attr]
                             else SUPERVISOR2_PIN, DEAL, table), crew.sign_in(SUPERVISOR, SUPERVISOR_PIN, TRAY, table))

    clock.at(18, 0)
    table.money.open_shift({"1000": 10}, *both())
    table.seat_player(1, "Ann", 1000)
    table.seat_player(2, "Bob", 1000)

    def folded(start: tuple[int, int], end: tuple[int, int], take_back: bool = False) -> None:
        clock.at(*start)
        table.start_round()
        table.act(Ante(seat=1, amount=10))
        if take_back:
            table.act(Ante(seat=2, amount=100))
            table.act(TakeBack())                                 # the dealer takes the mis-keyed ante back
        table.act(Ante(seat=2, amount=10))
        table.act(Deal())
        table.act(Fold(seat=1))
        table.act(Fold(seat=2))
        clock.at(*end)
        rnd = table.round
        assert rnd is not None
        if any(s.kind == "reveal" for s in rnd.legal_steps()):
            table.act(Reveal())
        table.act(ConfirmPayout())

    folded((18, 5), (18, 7))                                            # round 1: 2 minutes
    clock.at(18, 10)
    table.start_round()                                                 # round 2, voided at 18:11
    table.act(Ante(seat=1, amount=10))
    clock.at(18, 11)
    table.act(Void(reason="red light", **crew.approval(table, VOID, SUPERVISOR, SUPERVISOR_PIN)))
    folded((18, 15), (18, 18), take_back=True)                          # round 3: 3 minutes, one step taken back
    clock.at(18, 20)
    table.sign_in_dealer(crew.sign_in(SUPERVISOR2, SUPERVISOR2_PIN, DEAL, table))   # S2 takes over
    folded((18, 25), (18, 29))                                          # round 4: 4 minutes
    # the shift still open: S2 is on duty since 18:20, 9 minutes to the table's last record (round
    # 4's payout at 18:29), one round in them: 60 / 9 = 6.67 an hour
    [open_shift] = shift_figures(ledger, Theory(GAMES, None, hands=20_000))
    now = open_shift.dealers[SUPERVISOR2]
    assert (now.on_duty_since, now.on_duty) == ("2026-12-01T18:20:00.000000+00:00", 9 * 60)
    assert now.rounds_per_hour == pytest.approx(60 / 9)
    assert "on duty since 18:20 UTC" in dealer_line(now) and open_shift.dealers[DEALER].on_duty_since == ""
    clock.at(18, 30)
    table.money.close_shift({"1000": 10, "25": 1, "5": 3}, *both())
    [shift] = shift_figures(ledger, Theory(GAMES, None, hands=20_000))
    d1, s2 = shift.dealers[DEALER], shift.dealers[SUPERVISOR2]
    # D1: on duty 18:00 (the opener; signed in at 17:55) to 18:20 = 20 minutes; rounds 1 and 3 settled,
    # round 2 voided; rounds per hour 2 / (20/60) = 6; average round (2 + 1 + 3 minutes) / 3 = 120 s
    assert (d1.rounds, d1.voids, d1.corrections, d1.refused) == (2, 1, 1, 0)
    assert d1.on_duty == 20 * 60 and d1.rounds_per_hour == pytest.approx(6.0)
    assert d1.average_round_seconds == pytest.approx(120.0)
    # S2: 18:20 to the closer at 18:30 = 10 minutes, one round of 4 minutes: 6 an hour, 240 s
    assert (s2.rounds, s2.voids, s2.corrections, s2.on_duty, s2.on_duty_since) == (1, 0, 0, 10 * 60, "")
    assert s2.rounds_per_hour == pytest.approx(6.0) and s2.average_round_seconds == pytest.approx(240.0)
    assert d1.rotation_missed == s2.rotation_missed == 0
    [t_d1, t_s2] = dealer_totals([shift])
    assert (t_d1.account, t_d1.tables, t_s2.account) == (DEALER, {"T1"}, SUPERVISOR2)
    assert t_d1.to_dict()["rotation_followed"] is True and t_d1.to_dict()["hours_on_duty"] == pytest.approx(1 / 3,
                                                                                                            abs=1e-4)


def test_hcf_18_the_bank_passes_clockwise_to_the_next_seat_that_accepts() -> None:
    profile = ProfileLibrary().find("high-card-flush").profile               # the DP banks, minimum 1,000
    stacks = {"1": {"stack": 5000}, "3": {"stack": 5000}, "4": {"stack": 500}, "6": {"stack": 2000}}
    previous = {"banker": 2}
    # after seat 2: seat 3 declines, seat 4 holds less than the minimum bank, seat 5 is empty: seat 6
    right = {"seats": 7, "banker": 6, "banker_stack": 2000, "declined": [3],
             "players": {k: v for k, v in stacks.items() if k != "6"}}
    assert HighCardFlushRound.rotation_problem(profile, previous, right) is None
    assert HighCardFlushRound.passed_over(right) == 1
    wrong = {**right, "banker": 1, "banker_stack": 5000, "players": {k: v for k, v in stacks.items() if k != "1"}}
    assert HighCardFlushRound.rotation_problem(profile, previous, wrong) == "seat 1 banked where HCF-18 gives seat 6"
    casino = ProfileLibrary().find("high-card-flush-casino").profile
    assert HighCardFlushRound.rotation_problem(casino, previous, {**right, "banker": None}) is None


def test_a_payout_the_floor_refuses_counts_against_the_rounds_dealer(tmp_path: Path) -> None:
    """The HCF example of the sign-off tests: seat 2 wins 8,500 (past the 5,000 threshold), sent to
    the floor, refused there; then approved and paid."""
    from dealer_tui.rounds.cards import ScriptedDeck
    from dealer_tui.staff import SIGN_OFF
    from rules.cards import parse_cards
    from tests.hcf_support import BANKER, PROFILE, SEAT2, SEAT3, big_win
    from tests.staff_support import staffed_table

    ledger = SqliteLedger(tmp_path / "l.sqlite")
    crew = staffed(ledger)
    table = staffed_table(ledger, "H1", PROFILE, ScriptedDeck([parse_cards(f"{SEAT2} {SEAT3} {BANKER}")]), seats=7)
    table.money.open_shift({"500": 60}, crew.sign_in(DEALER, DEALER_PIN, DEAL, table),
                     crew.sign_in(SUPERVISOR, SUPERVISOR_PIN, TRAY, table))
    for seat, (name, stack) in enumerate((("Ann", 20000), ("Bob", 5000), ("Cy", 1000)), start=1):
        table.seat_player(seat, name, stack, card=f"LC-{seat}",         # 20,000 cash: identified (CTR)
                          document=f"passport X{seat}000")
    table.start_round()
    big_win(table)
    table.act(SendToFloor())
    floor = SqliteLedger(ledger.path)
    floor.decide_sign_off(table.round_id or 0, False, SUPERVISOR, "count again", crew.signed(table, SIGN_OFF).sign_in)
    [shift] = shift_figures(ledger, Theory(GAMES, None, hands=20_000))
    assert shift.dealers[DEALER].refused == 1 and shift.dealers[DEALER].rounds == 0   # not paid yet
