"""A table's shift delivered to the pit server: the floor's shift report over the server gives
the same figures as the terminal's own ledger."""

from __future__ import annotations

import random
from pathlib import Path

from dealer_tui.accounting.count import record_drop
from dealer_tui.accounting.shifts import shift_figures
from dealer_tui.accounting.theoretical import Theory
from dealer_tui.demo import play, seat_players
from dealer_tui.demo.shift import DemoShift
from dealer_tui.games import GAMES
from dealer_tui.ledger import SqliteLedger
from dealer_tui.ledger.postgres import PgLedger, init_schema
from dealer_tui.pit.delivery import Delivery
from dealer_tui.rounds.cards import VirtualShoe
from dealer_tui.staff import COUNT_DROP, DEAL, TRAY
from rules.profiles.loader import ProfileLibrary
from tests.staff_support import (
    AUDITOR,
    AUDITOR_PIN,
    DEALER,
    DEALER_PIN,
    SUPERVISOR,
    SUPERVISOR_PIN,
    staffed,
    staffed_table,
)


def test_the_pit_reports_a_delivered_shift_as_the_terminal_does(tmp_path: Path, pit_db: str) -> None:
    init_schema(pit_db)
    path = tmp_path / "t.sqlite"
    ledger = SqliteLedger(path)
    crew = staffed(ledger)
    table = staffed_table(ledger, "Pit 1", ProfileLibrary().find("one-or-five"), VirtualShoe.seeded_with(2), seats=6)
    shift = DemoShift(table, lambda: (crew.sign_in(DEALER, DEALER_PIN, DEAL, table),
                                      crew.sign_in(SUPERVISOR, SUPERVISOR_PIN, TRAY, table)),
                      lambda text: crew.sign_in(SUPERVISOR, SUPERVISOR_PIN, TRAY, table, text=text))
    shift.open(3)
    seat_players(table, 3, shift)
    play(table, 6, random.Random(2), approve=crew.approver(), shift=shift)
    shift.credit()
    shift.close()
    closed = table.tray.shifts[-1]
    record_drop(ledger, table.record, closed.sold_cash, closed.sold_marker, 0,
                crew.sign_in(AUDITOR, AUDITOR_PIN, COUNT_DROP, table))
    delivery = Delivery(path, pit_db, "T1")
    assert delivery.once().refused == []
    delivery.close()
    theory = Theory(GAMES, None, hands=20_000)
    [mine] = shift_figures(ledger, theory)
    pit = PgLedger(pit_db)
    try:
        [theirs] = shift_figures(pit, theory)
    finally:
        pit.close()
    ours, server = mine.to_dict(), theirs.to_dict()
    ours.pop("table_id"), server.pop("table_id")         # the server numbers the pit's tables its own way
    assert server == ours
    assert (theirs.win, theirs.closer_difference, theirs.drop_difference) == (mine.rounds_win, 0, 0)


def test_the_pit_rates_players_as_the_terminal_does_time_sat_out_and_all(tmp_path: Path, pit_db: str) -> None:
    """Ann plays, sits out, comes back and cashes out at a table whose chain is delivered to the
    pit: the server's ratings (hands, minutes, time away, wagered, theoretical win) are the
    terminal's."""
    from dealer_tui.accounting.ratings import player_ratings, rating_sessions
    from tests.accounting_support import Clock, folded_round

    init_schema(pit_db)
    path = tmp_path / "t.sqlite"
    clock = Clock()
    ledger = SqliteLedger(path, clock=clock)
    table = staffed_table(ledger, "Pit 2", ProfileLibrary().find("high-card-flush-casino"), VirtualShoe.seeded_with(4),
                          seats=6)
    clock.at(18, 0)
    table.seat_player(1, "Ann", 1000, card="LC-7")
    table.seat_player(2, "Bob", 1000)
    clock.at(18, 5)
    folded_round(table, {1: 10, 2: 10})
    clock.at(18, 10)
    table.sit_out(1)
    clock.at(18, 30)
    table.sit_out(1, away=False)
    clock.at(18, 35)
    folded_round(table, {1: 20, 2: 10})
    clock.at(18, 40)
    table.leave(1)
    delivery = Delivery(path, pit_db, "T2")
    assert delivery.once().refused == []
    delivery.close()
    theory = Theory(GAMES, None, hands=20_000)
    mine = [r.to_dict() for r in player_ratings(rating_sessions(ledger, theory))]
    pit = PgLedger(pit_db)
    try:
        theirs = [r.to_dict() for r in player_ratings(rating_sessions(pit, theory))]
    finally:
        pit.close()
    assert theirs == mine
    ann = next(r for r in theirs if r["card"] == "LC-7")
    # seated 18:00-18:40, away 18:10-18:30: 20 minutes played, 20 away; antes 10 + 20
    assert (ann["hands"], ann["minutes"], ann["away_minutes"], ann["wagered"]) == (2, 20.0, 20.0, 30)


def test_the_pits_floor_is_alerted_to_a_refused_delivery_and_a_silent_terminal(tmp_path: Path, pit_db: str) -> None:
    """A terminal's rewritten history, refused by the server, and a terminal silent for ten minutes
    without closing: both are alerts on the pit's floor, kept until a supervisor there acknowledges
    each (recorded on the pit's own chain)."""
    import sqlite3

    import psycopg

    from dealer_tui.accounting.alerts import acknowledge, open_alerts
    from dealer_tui.staff import ACKNOWLEDGE, Purpose, StaffDesk
    from tests.insider_support import rehash
    from tests.pit_support import SUPER, SUPER_PIN, pit_with_staff, played

    pit = pit_with_staff(pit_db)
    played(tmp_path / "t.sqlite", rounds=2).close()
    Delivery(tmp_path / "t.sqlite", pit_db, "T").once()
    with sqlite3.connect(tmp_path / "t.sqlite") as db:
        db.execute("UPDATE events SET payload = json_set(payload, '$.house', 999) WHERE kind = 'payout_confirmed'")
    rehash(tmp_path / "t.sqlite")
    assert Delivery(tmp_path / "t.sqlite", pit_db, "T").once().refused
    with psycopg.connect(pit_db, autocommit=True) as db:
        db.execute("UPDATE pit_links SET last_contact = clock_timestamp() - interval '10 minutes', closed = false")
    kinds = {a.kind: a for a in open_alerts(pit)}
    assert {"refused delivery", "table offline"} <= set(kinds)
    assert "has not been heard from since" in kinds["table offline"].text
    by = StaffDesk(pit).sign_in(SUPER, SUPER_PIN, Purpose(ACKNOWLEDGE, "acknowledge at the pit's floor (test)"))
    acknowledge(pit, kinds["refused delivery"].id, by, "the terminal's file restored from a backup")
    assert "refused delivery" not in {a.kind for a in open_alerts(pit)}
    pit.close()
