"""The pit on one PostgreSQL server (a throwaway cluster of its own, on this machine):

`delivery`: N terminal processes (`tests/pit_terminal.py`), each playing R rounds of High Card
Flush at a table of its own ledger while its delivery thread takes every event to the server.
Reports rounds lost or duplicated (must be 0), delivery lag (the server's receipt time less the
event's time on its terminal, same machine clock) p50/p99/max, the server's appends per second.

`floor`: the floor's reads (the pit-wide views, `PgLedger`) over a server bulk-filled with M rounds
of 40 tables in 4 areas (settlement rows, flags, seatings, hourly totals as deliveries write them):
the first page, the next page, each filter, each sort, a shift's totals and hours; the median of
5 runs of each, against the 300 ms a floor screen may take.

    python bench/pit.py delivery --terminals 20 --rounds 500 [--pause 0.5]
    python bench/pit.py floor --rounds 10000000
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dealer_tui.ledger import RowQuery
from dealer_tui.ledger.base import cursor_of
from dealer_tui.ledger.pit_schema import SCHEMA
from dealer_tui.ledger.postgres import PgLedger, init_schema
from tests.pg_support import Cluster, bindir, paid_twice, tally

LIMIT_MS = 300.0


def cluster() -> Cluster:
    where = bindir()
    if where is None:
        raise SystemExit("PostgreSQL is not installed here (no initdb/pg_ctl)")
    made = Cluster(where, port=5499)
    made.start()
    return made


def delivery(terminals: int, rounds: int, pause: float) -> None:
    server = cluster()
    try:
        url = server.database("pit")
        init_schema(url)
        with tempfile.TemporaryDirectory() as tmp:
            paths = [Path(tmp) / f"t{n}.sqlite" for n in range(1, terminals + 1)]
            start = time.perf_counter()
            processes = [subprocess.Popen([sys.executable, "-m", "tests.pit_terminal", str(p), url, str(rounds),
                                           str(n), str(pause)], cwd=ROOT, stdout=subprocess.DEVNULL,
                                          env={**os.environ, "PYTHONPATH": str(ROOT)})
                         for n, p in enumerate(paths, start=1)]
            failed = sum(1 for p in processes if p.wait() != 0)
            wall = time.perf_counter() - start
            counts = [tally(p, url) for p in paths]
            lost, duplicated = sum(c.lost for c in counts), sum(c.duplicated for c in counts)
            played, twice = sum(c.rounds for c in counts), paid_twice(url)
            with psycopg.connect(url) as db:
                lag = db.execute(
                    "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY s), percentile_cont(0.99) WITHIN GROUP"
                    " (ORDER BY s), MAX(s), COUNT(*), EXTRACT(EPOCH FROM MAX(received_at) - MIN(received_at))"
                    " FROM (SELECT EXTRACT(EPOCH FROM received_at - ts::timestamptz) AS s, received_at FROM pit_events"
                    " WHERE table_id <> 0) AS lags").fetchone()
        assert lag is not None
        p50, p99, worst, events, span = lag
        paced = f", {pause} s between rounds" if pause else ", as fast as they play"
        print(f"{terminals} terminals x {rounds} rounds{paced}: {played} rounds, {events} events in {wall:.1f} s "
              f"({failed} terminal(s) failed)")
        print(f"  lost {lost}, duplicated {duplicated}, paid twice {twice}")
        print(f"  delivery lag p50 {float(p50) * 1000:.0f} ms, p99 {float(p99) * 1000:.0f} ms, "
              f"max {float(worst) * 1000:.0f} ms")
        print(f"  server appends {events / max(float(span), 1e-9):.0f}/s over {float(span):.1f} s")
    finally:
        server.remove()


FILL = """
INSERT INTO pit_tables(origin, origin_id, name, game, profile, profile_sha256, card_source, created_at, area)
    SELECT 'bench', g, 'Table ' || g, (ARRAY['high-card-flush', 'one-or-five', 'chinese-poker', 'palace-poker'])[1 + g % 4],
           'bench', '', 'shoe', '2026-01-01T00:00:00+00:00', 'Pit ' || (1 + g % 4)
    FROM generate_series(1, 40) AS g;
INSERT INTO pit_rounds(table_id, origin_id, number, game, profile, status, flags, started_at, ended_at, seats, wagered,
                       paid, house_result, returned, from_stacks, max_payout, banking, fees)
    SELECT t.id, r.n, r.n, t.game, 'bench', CASE WHEN r.i % 5000 = 0 THEN 'voided' ELSE 'settled' END,
           CASE WHEN r.i % 1000 = 0 THEN 'signed_off' WHEN r.i % 5000 = 0 THEN 'voided' ELSE '' END,
           to_char(timestamp '2026-01-01' + r.i * interval '300 milliseconds', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"'),
           to_char(timestamp '2026-01-01' + r.i * interval '300 milliseconds' + interval '40 seconds',
                   'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"'),
           4, r.w, r.p, r.w - r.p, 0, 0, CASE WHEN r.i % 1000 = 0 THEN 6000 + r.i % 997 ELSE r.p / 2 END, 'house', 0
    FROM (SELECT i, 1 + i / 40 AS n, 1 + i % 40 AS tab, 20 + (i * 7919) % 480 AS w, (i * 104729) % 700 AS p
          FROM generate_series(0::bigint, %(rounds)s - 1) AS i) AS r
    JOIN pit_tables t ON t.origin = 'bench' AND t.origin_id = r.tab;
INSERT INTO pit_settlements(round_id, seat, bet, stake, result, reason)
    SELECT id, s, 'ante', wagered / 2, CASE WHEN s = 1 THEN paid / 2 ELSE -(wagered / 2) END, 'bench'
    FROM pit_rounds, generate_series(1, 2) AS s;
INSERT INTO pit_round_flags(flag, round_id) SELECT flags, id FROM pit_rounds WHERE flags <> '';
INSERT INTO pit_seatings(table_id, seat, player, first_round, last_round)
    SELECT t.id, 1 + k % 6, 'Player ' || (k % 5000), 1 + k * 200, (k + 1) * 200
    FROM pit_tables t, generate_series(0, %(rounds)s / 40 / 200) AS k WHERE t.origin = 'bench';
INSERT INTO pit_hourly_totals(hour, table_id, game, banking, rounds, wagered, paid, returned, from_stacks, house,
                              biggest, fees)
    SELECT substr(started_at, 1, 13), table_id, game, banking, COUNT(*), SUM(wagered), SUM(paid), SUM(returned),
           SUM(from_stacks), SUM(house_result), MAX(max_payout), SUM(fees)
    FROM pit_rounds WHERE status = 'settled' GROUP BY 1, 2, 3, 4;
"""


def floor(rounds: int) -> None:
    server = cluster()
    try:
        url = server.database("pit")
        init_schema(url)
        start = time.perf_counter()
        with psycopg.connect(url, autocommit=True) as db:
            indexes = [n for (n,) in db.execute("SELECT indexname FROM pg_indexes WHERE indexname LIKE 'pit\\_%%\\_by\\_%%'")]
            for name in indexes:  # made again once the rows are in: the fill is faster without them
                db.execute(f"DROP INDEX {name}")
            for statement in FILL.replace("%(rounds)s", str(rounds)).split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(SCHEMA)
            db.execute("VACUUM ANALYZE")
        print(f"filled {rounds} rounds (2 settlement rows each) in {time.perf_counter() - start:.0f} s")
        pit = PgLedger(url)
        first = pit.find_rounds(RowQuery(), 50)
        shift = RowQuery(since="2026-01-10T06:00:00", until="2026-01-10T14:00:00")
        edges = RowQuery(since="2026-01-10T06:17:00", until="2026-01-10T14:43:00")
        checks: dict[str, Callable[[], object]] = {
            "first page (newest)": lambda: pit.find_rounds(RowQuery(), 50),
            "next page": lambda: pit.find_rounds(RowQuery(), 50, cursor_of(first[-1], "time")),
            "game": lambda: pit.find_rounds(RowQuery(game="palace-poker"), 50),
            "table": lambda: pit.find_rounds(RowQuery(table_id=first[0].table_id), 50),
            "pit area": lambda: pit.find_rounds(RowQuery(area="Pit 3"), 50),
            "shift (time range)": lambda: pit.find_rounds(shift, 50),
            "seat": lambda: pit.find_rounds(RowQuery(seat=2), 50),
            "minimum payout (big)": lambda: pit.find_rounds(RowQuery(min_payout=6000), 50),
            "flag (signed off)": lambda: pit.find_rounds(RowQuery(flag="signed_off"), 50),
            "search: player": lambda: pit.find_rounds(RowQuery(search="Player 4321"), 50),
            "search: round number": lambda: pit.find_rounds(RowQuery(search="#12345"), 50),
            "search: table name": lambda: pit.find_rounds(RowQuery(search="Table 17"), 50),
            "sort: paid": lambda: pit.find_rounds(RowQuery(), 50, sort="paid"),
            "sort: house": lambda: pit.find_rounds(RowQuery(), 50, sort="house"),
            "game + shift + sort paid": lambda: pit.find_rounds(RowQuery(game="one-or-five", since=shift.since,
                                                                          until=shift.until), 50, sort="paid"),
            "shift totals (whole hours)": lambda: pit.totals(shift),
            "shift totals (edges)": lambda: pit.totals(edges),
            "all-time totals": lambda: pit.totals(RowQuery()),
            "hourly (a shift)": lambda: pit.hourly(edges),
        }
        worst = 0.0
        for name, run in checks.items():
            run()
            times = []
            for _ in range(5):
                t0 = time.perf_counter()
                run()
                times.append((time.perf_counter() - t0) * 1000)
            median = statistics.median(times)
            worst = max(worst, median)
            print(f"  {name:<28} {median:8.1f} ms {'OK' if median <= LIMIT_MS else 'OVER ' + str(LIMIT_MS)}")
        print(f"slowest {worst:.1f} ms (limit {LIMIT_MS:.0f} ms)")
        pit.close()
    finally:
        server.remove()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="part", required=True)
    d = sub.add_parser("delivery")
    d.add_argument("--terminals", type=int, default=20)
    d.add_argument("--rounds", type=int, default=500)
    d.add_argument("--pause", type=float, default=0.0, help="seconds each terminal waits between rounds")
    f = sub.add_parser("floor")
    f.add_argument("--rounds", type=int, default=10_000_000)
    args = parser.parse_args()
    if args.part == "delivery":
        delivery(args.terminals, args.rounds, args.pause)
    else:
        floor(args.rounds)


if __name__ == "__main__":
    main()
