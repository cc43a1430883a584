"""Who sat where is one definition (`ledger.seatings`), written into both stores' statements: a seat
taken opens a seating from the table's next round, a seat left closes it at the table's last."""

from __future__ import annotations

import sqlite3

from dealer_tui.ledger.sqlite import SEAT_LEFT, SEAT_TAKEN


def test_a_seating_runs_from_the_round_after_the_seat_is_taken_to_the_last_round_before_it_is_left() -> None:
    db = sqlite3.connect(":memory:")
    db.executescript("CREATE TABLE rounds(table_id INTEGER, number INTEGER);"
                     "CREATE TABLE seatings(table_id INTEGER, seat INTEGER, player TEXT, first_round INTEGER,"
                     " last_round INTEGER)")
    db.execute(SEAT_TAKEN, {"table": 1, "seat": 2, "player": "Ann"})          # before the table's first round
    db.executemany("INSERT INTO rounds VALUES (?, ?)", [(1, 1), (1, 2), (1, 3), (9, 7)])  # table 9's rounds count not
    db.execute(SEAT_TAKEN, {"table": 1, "seat": 4, "player": "Bob"})          # after round 3
    db.execute(SEAT_LEFT, {"table": 1, "seat": 2})
    db.execute("INSERT INTO rounds VALUES (1, 4)")
    db.execute(SEAT_LEFT, {"table": 1, "seat": 4})
    db.execute(SEAT_LEFT, {"table": 1, "seat": 4})                            # no open seating: nothing changes
    assert db.execute("SELECT seat, player, first_round, last_round FROM seatings ORDER BY seat").fetchall() == [
        (2, "Ann", 1, 3), (4, "Bob", 4, 4)]
