"""The hourly totals: what a settled round adds to the totals of its hour, table, game and
banking, defined once. The SQLite ledger's upsert and the pit server's (`pit_schema.sql`) are
written from it (`upsert`), and `history verify` adds the rounds' figures up by it (`add_round`).
A training table's round stays out of the totals."""

from __future__ import annotations

from collections.abc import Callable

FIGURES: tuple[tuple[str, str, str], ...] = (
    ("rounds", "1", "sum"),
    ("wagered", "wagered", "sum"),
    ("paid", "paid", "sum"),
    ("returned", "returned", "sum"),
    ("from_stacks", "from_stacks", "sum"),
    ("house", "house_result", "sum"),
    ("biggest", "max_payout", "max"),
    ("fees", "fees", "sum"),
)
"""Each figure of an hour: its column, the round's column it takes (`1`: it counts the round), and
how the rounds of one hour combine (summed, or the largest)."""
NAMES = tuple(name for name, _, _ in FIGURES)


def upsert(totals: str, rounds: str, round_id: str, largest: str) -> str:
    """The statement that adds the round `round_id` (a placeholder) names to `totals`, reading it
    from `rounds`; `largest` is the SQL function of the larger of two values (`MAX`, `GREATEST`)."""
    names = ", ".join(NAMES)
    taken = ", ".join(column for _, column, _ in FIGURES)
    added = ", ".join(f"{name} = {largest}({totals}.{name}, EXCLUDED.{name})" if how == "max"
                      else f"{name} = {totals}.{name} + EXCLUDED.{name}" for name, _, how in FIGURES)
    return (f"INSERT INTO {totals}(hour, table_id, game, banking, {names})"
            f" SELECT substr(started_at, 1, 13), table_id, game, banking, {taken} FROM {rounds} WHERE id = {round_id}"
            f" AND (',' || flags || ',') NOT LIKE '%,training,%'"
            f" ON CONFLICT (hour, table_id, game, banking) DO UPDATE SET {added}")


def add_round(into: list[int], figure: Callable[[str], int]) -> None:
    """`into` (an hour's figures, in `NAMES` order) with one more settled round, whose columns
    `figure` gives."""
    for i, (_, column, how) in enumerate(FIGURES):
        value = 1 if column == "1" else int(figure(column))
        into[i] = max(into[i], value) if how == "max" else into[i] + value
