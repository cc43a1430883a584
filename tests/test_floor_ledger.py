"""The floor review's ledger queries: filters and search pick the right rounds, keyset pages add up
to the whole sorted list, totals from the hourly aggregate equal sums of the settlement rows for
any shift, the schema upgrade back-fills an older ledger, and two writers keep the chain whole."""

from __future__ import annotations

import multiprocessing
import shutil
from pathlib import Path

import pytest

from dealer_tui.cli import main
from dealer_tui.ledger import LedgerError, NewEvent, RowQuery, SqliteLedger, queries
from dealer_tui.ledger.base import RoundUpdate, SettlementRow, cursor_of
from dealer_tui.ledger.schema import SCHEMA_VERSION
from tests.floor_support import (
    SEAT_PAYOUTS,
    FixedClock,
    demo_ledger,
    fees_summed,
    rewind,
    settled_sums,
    sql_rows,
)


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return demo_ledger(tmp_path_factory.mktemp("floorledger") / "l.sqlite")


def ids(path: Path, query: RowQuery) -> list[int]:
    ledger = SqliteLedger(path, readonly=True)
    found = [r.id for r in ledger.find_rounds(query, 10_000)]
    ledger.close()
    return found


@pytest.mark.parametrize("rare", [0, 2000])
def test_each_filter_picks_the_rounds_plain_sql_picks(filled: Path, rare: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(queries, "RARE", rare)   # 0: every filter checked along the list; else by its index
    hour = "2026-03-06T21:00:00"
    cases = [
        (RowQuery(game="one-or-five"), "game = 'one-or-five'"),
        (RowQuery(since=hour), f"started_at >= '{hour}'"),
        (RowQuery(until=hour), f"started_at < '{hour}'"),
        (RowQuery(seat=2), "id IN (SELECT round_id FROM settlements WHERE seat = 2)"),
        (RowQuery(min_payout=60), f"id IN (SELECT round_id FROM ({SEAT_PAYOUTS}) WHERE payout >= 60)"),
        (RowQuery(flag="seeded", table_id=3), "flags LIKE '%seeded%' AND table_id = 3"),
        (RowQuery(game="high-card-flush", seat=2, min_payout=10, since="2026-03-06T18:30:00"),
         ("game = 'high-card-flush' AND started_at >= '2026-03-06T18:30:00' AND id IN "
          f"(SELECT round_id FROM settlements WHERE seat = 2) AND id IN (SELECT round_id FROM ({SEAT_PAYOUTS})"
          " WHERE payout >= 10)")),
    ]
    for query, where in cases:
        expected = [r[0] for r in sql_rows(filled, f"SELECT id FROM rounds WHERE {where} ORDER BY started_at DESC, id DESC")]
        assert expected, where
        assert ids(filled, query) == expected, where


def test_search_finds_a_round_number_a_table_name_or_nothing(filled: Path) -> None:
    assert ids(filled, RowQuery(search="5")) == [r[0] for r in sql_rows(
        filled, "SELECT id FROM rounds WHERE number = 5 OR id = 5 ORDER BY started_at DESC, id DESC")]
    assert ids(filled, RowQuery(search="one-or")) == [r[0] for r in sql_rows(
        filled, "SELECT id FROM rounds WHERE table_id = 2 ORDER BY id DESC")]
    assert ids(filled, RowQuery(search="nobody by that name")) == []
    assert ids(filled, RowQuery(search="100%")) == []   # a % typed is a character, not a wildcard


def test_search_finds_one_round_of_one_table_by_the_tables_name_and_the_rounds_number(filled: Path) -> None:
    """`one-or 3` (part of a table's name, then a number; `#3` too): that table's round 3 only."""
    expected = [r[0] for r in sql_rows(filled, "SELECT id FROM rounds WHERE table_id = 2 AND number = 3")]
    assert len(expected) == 1
    assert ids(filled, RowQuery(search="one-or 3")) == expected
    assert ids(filled, RowQuery(search="one-or  #3")) == expected
    name = str(sql_rows(filled, "SELECT name FROM tables WHERE id = 2")[0][0])
    assert ids(filled, RowQuery(search=f"{name.upper()} 3")) == expected


@pytest.mark.parametrize("dense", [0, 5000])
def test_search_finds_the_rounds_a_player_sat_in(tmp_path: Path, dense: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(queries, "DENSE_RANGES", dense)   # 0: checked along the time index; else by ranges
    ledger = SqliteLedger(tmp_path / "l.sqlite", clock=FixedClock())
    table = ledger.create_table("Main 1", "high-card-flush", "p", "0" * 64, "shoe")
    rounds = []

    def play() -> None:
        rounds.append(ledger.open_round(table.id, "high-card-flush", "p", [NewEvent("round_started", {})]).id)

    ledger.append(table.id, None, [NewEvent("seat_taken", {"seat": 1, "player": "Ann Lee", "buy_in": 100})])
    play()                                                                 # round 1: Ann
    ledger.append(table.id, None, [NewEvent("seat_taken", {"seat": 2, "player": "Zoe", "buy_in": 100})])
    play()                                                                 # round 2: Ann, Zoe
    play()                                                                 # round 3: Ann, Zoe
    ledger.append(table.id, None, [NewEvent("seat_left", {"seat": 2})])
    play()                                                                 # round 4: Ann
    ledger.append(table.id, None, [NewEvent("seat_taken", {"seat": 3, "player": "zoe", "buy_in": 100})])
    play()                                                                 # round 5: Ann, zoe again
    path = ledger.path
    ledger.close()
    assert ids(path, RowQuery(search="Zoe")) == [rounds[4], rounds[2], rounds[1]]
    assert ids(path, RowQuery(search="ann")) == rounds[::-1]
    assert ids(path, RowQuery(search="Main")) == rounds[::-1]


@pytest.mark.parametrize("sort", ["time", "paid", "wagered", "house"])
@pytest.mark.parametrize("descending", [True, False])
def test_keyset_pages_add_up_to_the_whole_sorted_list(filled: Path, sort: str, descending: bool) -> None:
    column = {"time": "started_at", "house": "house_result"}.get(sort, sort)
    order = "DESC" if descending else "ASC"
    expected = [r[0] for r in sql_rows(filled, f"SELECT id FROM rounds ORDER BY {column} {order}, id {order}")]
    ledger = SqliteLedger(filled, readonly=True)
    pages, after = [], None
    while True:
        page = ledger.find_rounds(RowQuery(), 5, after, sort, descending)
        if not page:
            break
        pages += [r.id for r in page]
        after = cursor_of(page[-1], sort)
    ledger.close()
    assert pages == expected


@pytest.mark.parametrize(("since", "until"), [
    (None, None),
    ("2026-03-06T19:00:00", "2026-03-06T23:00:00"),      # whole hours: the aggregate alone
    ("2026-03-06T18:37:00", "2026-03-06T22:11:00"),      # parts of hours at both ends
    ("2026-03-06T20:05:00", "2026-03-06T20:50:00"),      # inside one hour
    ("2026-03-06", None), (None, "2026-03-07T00:30:00"),
])
def test_shift_totals_equal_the_settlement_rows_summed(filled: Path, since: str | None, until: str | None) -> None:
    where, args = ["1 = 1"], []
    if since:
        where.append("r.started_at >= ?")
        args.append(since)
    if until:
        where.append("r.started_at < ?")
        args.append(until)
    expected = settled_sums(filled, " AND ".join(where), tuple(args))
    ledger = SqliteLedger(filled, readonly=True)
    got = {(t.table_id, t.game): (t.rounds, t.wagered, t.house, t.max_payout)
           for t in ledger.totals(RowQuery(since=since, until=until))}
    hours = ledger.hourly(RowQuery(since=since, until=until))
    ledger.close()
    assert got == expected
    assert sum(h.house for h in hours) == sum(v[2] for v in expected.values())
    assert sum(h.wagered for h in hours) == sum(v[1] for v in expected.values())
    assert sum(h.rounds for h in hours) == sum(v[0] for v in expected.values())


def test_totals_filtered_by_more_than_time_still_sum_the_rows(filled: Path) -> None:
    expected = settled_sums(filled, "r.id IN (SELECT round_id FROM settlements WHERE seat = 1)")
    ledger = SqliteLedger(filled, readonly=True)
    got = {(t.table_id, t.game): (t.rounds, t.wagered, t.house, t.max_payout) for t in ledger.totals(RowQuery(seat=1))}
    ledger.close()
    assert got == expected


@pytest.mark.parametrize("version", [1, 2, 3])
def test_upgrade_from_an_older_schema_backfills_what_the_review_reads(filled: Path, tmp_path: Path,
                                                                      version: int) -> None:
    old = tmp_path / "old.sqlite"
    shutil.copy(filled, old)
    rewind(old, version)
    SqliteLedger(old, readonly=True).close()      # the review upgrades an older ledger on opening
    for sql in ("SELECT * FROM hourly_totals ORDER BY 1, 2, 3, 4", "SELECT * FROM seatings ORDER BY 1, 2, 4",
                "SELECT * FROM round_flags ORDER BY 1, 2",
                "SELECT id, paid, returned, from_stacks, max_payout, banking, fees FROM rounds ORDER BY id",
                "SELECT round_id, seat, bet, role FROM settlements ORDER BY 1, 2, 3"):
        assert sql_rows(old, sql) == sql_rows(filled, sql)
    assert sql_rows(old, "PRAGMA user_version") == [(SCHEMA_VERSION,)]
    assert main(["history", "verify", "--ledger", str(old)]) == 0


@pytest.mark.parametrize(("since", "until"), [(None, None), ("2026-03-06T18:37:00", "2026-03-06T22:11:00")])
def test_totals_rake_and_fees_equal_the_settlement_rows_summed(filled: Path, since: str | None,
                                                               until: str | None) -> None:
    where = " AND ".join([f"r.started_at >= '{since}'"] * bool(since) + [f"r.started_at < '{until}'"] * bool(until))
    expected = fees_summed(filled, where or "1 = 1")
    assert any(expected.values())          # the "1 or 5" demo table paid exchange fees
    ledger = SqliteLedger(filled, readonly=True)
    got = {(t.table_id, t.game): t.fees for t in ledger.totals(RowQuery(since=since, until=until))}
    ledger.close()
    assert got == expected


def _append_many(path: str, who: int, n: int) -> None:
    ledger = SqliteLedger(path)
    for i in range(n):
        ledger.append(1, None, [NewEvent("note", {"writer": who, "i": i})])
    ledger.close()


def test_two_processes_appending_to_one_table_keep_its_chain_whole(tmp_path: Path) -> None:
    path = tmp_path / "l.sqlite"
    ledger = SqliteLedger(path)
    ledger.create_table("T", "high-card-flush", "p", "0" * 64, "shoe")
    ledger.close()
    ctx = multiprocessing.get_context("spawn")
    writers = [ctx.Process(target=_append_many, args=(str(path), w, 150)) for w in (1, 2)]
    for p in writers:
        p.start()
    for p in writers:
        p.join(60)
        assert p.exitcode == 0
    ledger = SqliteLedger(path, readonly=True)
    assert len(ledger.table_events(1)) == 300
    assert ledger.chain_problems() == []
    ledger.close()


def test_a_sign_off_is_decided_once_and_only_while_the_round_waits(tmp_path: Path) -> None:
    ledger = SqliteLedger(tmp_path / "l.sqlite", clock=FixedClock())
    table = ledger.create_table("T", "high-card-flush", "p", "0" * 64, "shoe")
    rnd = ledger.open_round(table.id, "high-card-flush", "p", [NewEvent("round_started", {})])
    with pytest.raises(LedgerError, match="no sign-off is waiting"):
        ledger.decide_sign_off(rnd.id, True, "supervisor")
    ledger.append(table.id, rnd.id, [NewEvent("sign_off_requested", {"seats": [1]})])
    assert [p.round.id for p in ledger.sign_off_queue()] == [rnd.id]
    with pytest.raises(LedgerError, match="reason"):
        ledger.decide_sign_off(rnd.id, False, "supervisor", " ")
    ledger.decide_sign_off(rnd.id, False, "supervisor", "recount the stack")
    assert ledger.sign_off_queue() == []
    with pytest.raises(LedgerError, match="already decided"):
        ledger.decide_sign_off(rnd.id, True, "supervisor")
    ledger.append(table.id, rnd.id, [NewEvent("sign_off_requested", {"seats": [1]})])
    ledger.append(table.id, rnd.id, [NewEvent("payout_confirmed", {})],
                  RoundUpdate(status="settled", settlement=[SettlementRow(1, "ante", 5, 5, "wins")], totals=(1, 5, 10, -5)))
    assert ledger.sign_off_queue() == []
    with pytest.raises(LedgerError, match="settled"):
        ledger.decide_sign_off(rnd.id, True, "supervisor")
    assert [e.kind for e in ledger.round_events(rnd.id)][-3:] == ["sign_off_refused", "sign_off_requested",
                                                                  "payout_confirmed"]
    assert ledger.chain_problems() == []
