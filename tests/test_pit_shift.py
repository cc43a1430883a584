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
                                      crew.sign_in(SUPERVISOR, SUPERVISOR_PIN, TRAY, table)))
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
    theory = Theory(None, hands=20_000)
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
