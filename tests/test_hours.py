"""The hourly totals are one definition (`ledger.hours`): what a settled round adds to its hour, as
the SQLite ledger and the pit server store it and `history verify` adds it up."""

from __future__ import annotations

from dealer_tui.ledger.hours import NAMES, add_round, upsert


def test_two_rounds_of_an_hour_add_up_their_figures_and_keep_the_biggest_payout() -> None:
    first = {"wagered": 30, "paid": 50, "returned": 0, "from_stacks": 10, "house_result": -20, "max_payout": 40,
             "fees": 2}
    second = {"wagered": 10, "paid": 0, "returned": 5, "from_stacks": 0, "house_result": 10, "max_payout": 0,
              "fees": 1}
    hour = [0] * len(NAMES)
    add_round(hour, first.__getitem__)
    add_round(hour, second.__getitem__)
    assert dict(zip(NAMES, hour, strict=True)) == {"rounds": 2, "wagered": 40, "paid": 50, "returned": 5,
                                                   "from_stacks": 10, "house": -10, "biggest": 40, "fees": 3}


def test_both_stores_statements_leave_a_training_tables_round_out_and_keep_the_larger_payout() -> None:
    sqlite = upsert("hourly_totals", "rounds", "?", "MAX")
    pit = upsert("pit_hourly_totals", "pit_rounds", "p_round", "GREATEST")
    for statement, largest, totals in ((sqlite, "MAX", "hourly_totals"), (pit, "GREATEST", "pit_hourly_totals")):
        assert "NOT LIKE '%,training,%'" in statement
        assert f"biggest = {largest}({totals}.biggest, EXCLUDED.biggest)" in statement
        assert f"fees = {totals}.fees + EXCLUDED.fees" in statement
