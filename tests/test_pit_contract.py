"""One contract, two stores: the floor's reads of the pit server (PostgreSQL) answer what the
terminal's own ledger (SQLite) answers for the same events — every filter, sort, page, total and
export row — the rounds named by table and number (the server's ids are its own). And on the
server too, each round's chips add up: wagered + from stacks = paid + returned + house."""

from __future__ import annotations

import os
from collections.abc import Iterator

import psycopg
import pytest

from dealer_tui.ledger import RowQuery, SqliteLedger
from dealer_tui.ledger.base import RoundRecord, cursor_of
from dealer_tui.ledger.postgres import PgLedger, init_schema
from dealer_tui.pit.delivery import Delivery
from tests.floor_support import demo_ledger


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory, pg_cluster: str) -> Iterator[tuple[SqliteLedger, PgLedger]]:
    path = demo_ledger(tmp_path_factory.mktemp("contract") / "l.sqlite")
    name = f"pit_contract_{os.getpid()}"                # the cluster may be shared: a name of this run's own
    with psycopg.connect(pg_cluster, autocommit=True) as db:
        db.execute(f"CREATE DATABASE {name}")
    url = pg_cluster.replace("dbname=postgres", f"dbname={name}")
    init_schema(url)
    assert Delivery(path, url).once().refused == []
    local, server = SqliteLedger(path, readonly=True), PgLedger(url)
    yield local, server
    local.close()
    server.close()
    with psycopg.connect(pg_cluster, autocommit=True) as db:
        db.execute(f"DROP DATABASE {name} WITH (FORCE)")


def named(ledger: SqliteLedger | PgLedger, rounds: list[RoundRecord]) -> list[tuple[object, ...]]:
    tables = {t.id: t.name for t in ledger.tables()}
    return [(tables[r.table_id], r.number, r.status, sorted(r.flags - {"late_delivery"}), r.started_at, r.wagered, r.paid, r.returned,
             r.from_stacks, r.house_result, r.banking, r.max_payout) for r in rounds]


def table_id(ledger: SqliteLedger | PgLedger, name: str) -> int:
    return next(t.id for t in ledger.tables() if t.name == name)


def test_late_delivery_is_the_pits_own_flag(stores: tuple[SqliteLedger, PgLedger]) -> None:
    """The demo's rounds ended in March and reach the server now: late on the pit's floor, while
    the terminal's own ledger (and the server's copy of it, by origin) keeps the flags it sent."""
    local, server = stores
    assert all("late_delivery" in r.flags for t in server.tables() for r in server.table_rounds(t.id))
    assert not any("late_delivery" in r.flags for t in local.tables() for r in local.table_rounds(t.id))


QUERIES = {
    "everything": {},
    "one game": {"game": "one-or-five"},
    "since and until": {"since": "2026-03-06T19:30:00", "until": "2026-03-06T22:10:00"},
    "one seat": {"seat": 2},
    "a minimum payout": {"min_payout": 40},
    "a flag": {"flag": "seeded"},
    "a player's name": {"search": "player 3"},
    "a round number": {"search": "#5"},
    "a table's name": {"search": "palace"},
}


@pytest.mark.parametrize("name", QUERIES)
@pytest.mark.parametrize("sort", ["time", "paid", "house"])
def test_the_rounds_list_pages_alike_on_both_stores(stores: tuple[SqliteLedger, PgLedger], name: str,
                                                     sort: str) -> None:
    local, server = stores
    query = RowQuery(**QUERIES[name])  # type: ignore[arg-type]
    pages: dict[str, list[tuple[object, ...]]] = {}
    for label, ledger in (("sqlite", local), ("postgresql", server)):
        shown: list[RoundRecord] = []
        after = None
        while page := ledger.find_rounds(query, 4, after, sort):
            shown += page
            after = cursor_of(page[-1], sort)
        pages[label] = named(ledger, shown)
    assert pages["postgresql"] == pages["sqlite"] and pages["sqlite"]


def test_a_table_filter_names_the_same_table_on_both_stores(stores: tuple[SqliteLedger, PgLedger]) -> None:
    local, server = stores
    for game in ("high-card-flush", "palace-poker"):
        mine = local.find_rounds(RowQuery(table_id=table_id(local, f"Demo {game}")), 100)
        theirs = server.find_rounds(RowQuery(table_id=table_id(server, f"Demo {game}")), 100)
        assert named(server, theirs) == named(local, mine) and mine


@pytest.mark.parametrize(("since", "until"), [(None, None), ("2026-03-06T19:00:00", "2026-03-06T23:00:00"),
                                              ("2026-03-06T18:37:00", "2026-03-06T22:11:00")])
def test_shift_totals_and_hours_are_the_same_on_both_stores(stores: tuple[SqliteLedger, PgLedger], since: str | None,
                                                           until: str | None) -> None:
    local, server = stores
    query = RowQuery(since=since, until=until)
    names = {"sqlite": {t.id: t.name for t in local.tables()}, "postgresql": {t.id: t.name for t in server.tables()}}
    totals = {label: sorted((names[label][t.table_id], t.game, t.banking, t.rounds, t.wagered, t.paid, t.house,
                             t.max_payout, t.fees, t.returned, t.from_stacks) for t in ledger.totals(query))
              for label, ledger in (("sqlite", local), ("postgresql", server))}
    assert totals["postgresql"] == totals["sqlite"] and totals["sqlite"]
    assert server.hourly(query) == local.hourly(query)
    for t in server.totals(query):
        assert t.wagered + t.from_stacks == t.paid + t.returned + t.house


def test_export_rows_are_the_same_on_both_stores(stores: tuple[SqliteLedger, PgLedger]) -> None:
    local, server = stores
    for query in (RowQuery(), RowQuery(seat=1), RowQuery(min_payout=40)):
        rows = {label: [(n[0], n[1], row) for n, row in ((named(ledger, [r])[0], row) for r, row in
                                                          ledger.settlement_rows(query))]
                for label, ledger in (("sqlite", local), ("postgresql", server))}
        assert rows["postgresql"] == rows["sqlite"] and rows["sqlite"]


def test_a_rounds_story_reads_the_same_events_on_both_stores(stores: tuple[SqliteLedger, PgLedger]) -> None:
    local, server = stores
    mine = local.find_rounds(RowQuery(game="palace-poker"), 1)[0]
    theirs = next(r for r in server.find_rounds(RowQuery(game="palace-poker"), 100)
                  if named(server, [r])[0][:2] == named(local, [mine])[0][:2])
    assert [(e.seq, e.kind, e.payload, e.hash) for e in server.round_events(theirs.id)] == \
        [(e.seq, e.kind, e.payload, e.hash) for e in local.round_events(mine.id)]
    assert server.settlement(theirs.id) == local.settlement(mine.id)
    assert server.any_flagged("seeded") and not server.any_flagged("voided") and not local.any_flagged("voided")
