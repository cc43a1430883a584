"""Who sat where: a seat taken opens a seating from the table's next round on, a seat left closes
it at the table's last round; defined once, for the SQLite ledger and the pit server
(`pit_schema.sql`). `history verify` works the same seatings out of the seat events."""

from __future__ import annotations


def taken(seatings: str, rounds: str, table: str, seat: str, player: str) -> str:
    """The statement that opens a seating (the table, seat and player are placeholders)."""
    return (f"INSERT INTO {seatings}(table_id, seat, player, first_round)"
            f" SELECT {table}, {seat}, {player}, COALESCE(MAX(number), 0) + 1 FROM {rounds} WHERE table_id = {table}")


def left(seatings: str, rounds: str, table: str, seat: str) -> str:
    """The statement that closes the seat's open seating at the table's last round."""
    return (f"UPDATE {seatings} SET last_round = (SELECT COALESCE(MAX(number), 0) FROM {rounds}"
            f" WHERE table_id = {table}) WHERE table_id = {table} AND seat = {seat} AND last_round IS NULL")
