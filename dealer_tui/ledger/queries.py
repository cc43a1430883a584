"""The floor review's read queries over the SQLite ledger: filtered, sorted, keyset-paged rounds;
totals from the hourly aggregate (exact at the edges of a shift); settlement rows for export.

Every list query walks an index in the order shown and stops at the page's end, so a page costs
the same on a ledger of a thousand rounds or a million.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from datetime import datetime, timedelta
from itertools import groupby

from dealer_tui.ledger.base import (
    SORTS,
    TRAINING,
    Cursor,
    HourTotals,
    RoundRecord,
    RowQuery,
    SettlementRow,
    Totals,
)
from dealer_tui.ledger.payouts import seat_payouts

ROUND_COLUMNS = ("id, table_id, number, game, profile, status, flags, started_at, ended_at, seats,"
                 " wagered, paid, house_result, returned, from_stacks, banking, max_payout")
ROUND_WIDTH = len(ROUND_COLUMNS.split(","))
SEARCH_RANGES = 200
"""A player seated more often than this is searched row by row instead of by seat ranges."""
RARE = 2000
"""Fewer matching rounds than this: a filter's own index finds them (flags, minimum payout)."""
DENSE_RANGES = 5000
"""Seat ranges covering more rounds than this are checked along the list's order."""


def round_record(row: tuple[object, ...]) -> RoundRecord:
    flags = frozenset(f for f in str(row[6]).split(",") if f)
    return RoundRecord(row[0], row[1], row[2], row[3], row[4], row[5], flags, row[7], row[8],  # type: ignore[arg-type]
                       row[9], row[10], row[11], row[12], row[13], row[14], row[15], row[16])  # type: ignore[arg-type]


def round_where(db: sqlite3.Connection, query: RowQuery, prefix: str = "") -> tuple[list[str], list[object]]:
    """SQL conditions on `rounds` (aliased by `prefix`) for every filter of the query."""
    p = prefix
    where: list[str] = ["1 = 1"]
    args: list[object] = []
    for clause, value in ((f"{p}game = ?", query.game), (f"{p}table_id = ?", query.table_id),
                          (f"{p}started_at >= ?", query.since), (f"{p}started_at < ?", query.until)):
        if value is not None:
            where.append(clause)
            args.append(value)
    if query.area:
        where.append(f"{p}table_id IN (SELECT id FROM tables WHERE lower(area) = lower(?))")
        args.append(query.area.strip())
    if query.flag is not None:
        if _rare(db, "SELECT 1 FROM round_flags WHERE flag = ?", query.flag):
            where.append(f"{p}id IN (SELECT round_id FROM round_flags WHERE flag = ?)")
            args.append(query.flag)
        else:
            where.append(f"(',' || {p}flags || ',') LIKE ?")
            args.append(f"%,{query.flag},%")
    if query.without_training and any_flagged(db, TRAINING):  # a ledger with none checks no row for it
        where.append(f"(',' || {p}flags || ',') NOT LIKE '%,training,%'")
    if query.seat is not None:
        where.append(f"EXISTS (SELECT 1 FROM settlements s2 WHERE s2.round_id = {p}id AND s2.seat = ?)")
        args.append(query.seat)
    if query.min_payout is not None:
        rare = _rare(db, "SELECT 1 FROM rounds WHERE max_payout >= ?", query.min_payout)
        where.append(f"{p}max_payout >= ?" if rare else f"+{p}max_payout >= ?")
        args.append(query.min_payout)
    if query.search and query.search.strip():
        clause, more = _search(db, query.search.strip(), p)
        where.append(clause)
        args += more
    return where, args


def any_flagged(db: sqlite3.Connection, flag: str) -> bool:
    """Whether any round carries the flag (the flag index's first entry for it)."""
    return db.execute("SELECT 1 FROM round_flags WHERE flag = ? LIMIT 1", (flag,)).fetchone() is not None


def _rare(db: sqlite3.Connection, sql: str, value: object) -> bool:
    """Whether few rounds match (an index probe that stops at `RARE`): few are fetched by the index
    and sorted; many are met soon enough walking the list's own order."""
    return int(db.execute(f"SELECT COUNT(*) FROM ({sql} LIMIT {RARE}) AS probe", (value,)).fetchone()[0]) < RARE


TABLE_AND_ROUND = re.compile(r"^(.*\S)\s+#?(\d{1,9})$")
"""A search for one round of one table: the table's name (or part of it), then the round's number."""


def _like(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _search(db: sqlite3.Connection, text: str, p: str) -> tuple[str, list[object]]:
    """A table's name and a round number together (`Main 1 37`, `1or5-2 #37`); else a round number
    or id; a table's name; the name of a player seated at the table then."""
    both = TABLE_AND_ROUND.match(text)
    whole_name = db.execute("SELECT 1 FROM tables WHERE lower(name) = lower(?)", (text,)).fetchone()
    if both is not None and whole_name is None:  # "Main 1" names a table: that table, not round 1 of "Main"
        named = [r[0] for r in db.execute("SELECT id FROM tables WHERE name LIKE ? ESCAPE '\\'",
                                          (_like(both.group(1)),))]
        if named:
            return (f"({p}table_id IN ({','.join('?' for _ in named)}) AND {p}number = ?)",
                    [*named, int(both.group(2))])
    ors: list[str] = []
    args: list[object] = []
    if text.lstrip("#").isdigit():
        ors.append(f"{p}number = ? OR {p}id = ?")
        args += [int(text.lstrip("#"))] * 2
    like = _like(text)
    tables = [r[0] for r in db.execute("SELECT id FROM tables WHERE name LIKE ? ESCAPE '\\'", (like,))]
    if tables:
        ors.append(f"{p}table_id IN ({','.join('?' for _ in tables)})")
        args += tables
    seated = db.execute("SELECT table_id, first_round, COALESCE(last_round, (SELECT COALESCE(MAX(number), 0)"
                        " FROM rounds r WHERE r.table_id = seatings.table_id)) FROM seatings WHERE player LIKE ?"
                        " ESCAPE '\\'", (like,)).fetchall()
    if len(seated) > SEARCH_RANGES:
        ors.append(f"EXISTS (SELECT 1 FROM seatings sp WHERE sp.table_id = {p}table_id AND sp.player LIKE ?"
                   f" ESCAPE '\\' AND {p}number >= sp.first_round AND {p}number <= COALESCE(sp.last_round, {p}number))")
        args.append(like)
    else:
        # few rounds in the ranges: the (table, number) index finds them; many: the list's own order
        # is walked and each round checked (a `+` keeps SQLite off the index)
        dense = "+" if sum(last - first + 1 for _, first, last in seated) > DENSE_RANGES else ""
        for table_id, first, last in seated:
            ors.append(f"({dense}{p}table_id = ? AND {dense}{p}number BETWEEN ? AND ?)")
            args += [table_id, first, last]
        if dense and not tables and not text.lstrip("#").isdigit():
            bounds, more = _time_bounds(db, seated, p)
            return "(" + " OR ".join(ors) + ")" + bounds, args + more
    if not ors:
        return "0 = 1", []
    return "(" + " OR ".join(ors) + ")", args


def _time_bounds(db: sqlite3.Connection, seated: list[tuple[int, int, int]], p: str) -> tuple[str, list[object]]:
    """The time span of the seat ranges (a round's number and time rise together at a table), so
    the walk along the time index starts where the player's rounds start."""
    times = [db.execute("SELECT started_at FROM rounds WHERE table_id = ? AND number = ?", (t, n)).fetchone()
             for t, first, last in seated for n in (first, last)]
    found = [str(t[0]) for t in times if t is not None]
    if len(found) != len(times):
        return "", []
    return f" AND {p}started_at >= ? AND {p}started_at <= ?", [min(found), max(found)]


def find_rounds(db: sqlite3.Connection, query: RowQuery, limit: int, after: Cursor | None, sort: str,
                descending: bool) -> list[RoundRecord]:
    if sort not in SORTS:
        raise ValueError(f"rounds sort by {', '.join(SORTS)}, not {sort!r}")
    column = SORTS[sort]
    where, args = round_where(db, query)
    order = "DESC" if descending else "ASC"
    if after is not None:
        where.append(f"({column}, id) {'<' if descending else '>'} (?, ?)")
        args += [after[0], after[1]]
    rare = any("round_flags" in w or w.startswith("max_payout") for w in where)
    ordered = f"+{column}" if rare else column  # a rare filter's rows are fetched by its index, then sorted
    sql = (f"SELECT {ROUND_COLUMNS} FROM rounds WHERE {' AND '.join(where)}"
           f" ORDER BY {ordered} {order}, id {order} LIMIT ?")
    return [round_record(r) for r in db.execute(sql, (*args, limit)).fetchall()]


def _hour(t: str) -> str:
    """The aggregate's hour key of a time (`2026-11-29T18`)."""
    return t[:13] if len(t) >= 13 else t[:10] + "T00"


def _next_hour(hour: str) -> str:
    return (datetime.fromisoformat(hour + ":00") + timedelta(hours=1)).strftime("%Y-%m-%dT%H")


def _split(query: RowQuery) -> tuple[tuple[str | None, str | None], list[tuple[str | None, str | None]]]:
    """The whole hours of the query's time range (read from the aggregate, `first` inclusive, `last`
    exclusive) and the parts of an hour at its edges (read from the rounds)."""
    since, until = query.since, query.until
    first = last = None
    edges: list[tuple[str | None, str | None]] = []
    if since is not None:
        on_hour = re.fullmatch(r"(:00(:00(\.0*)?)?)?", since[13:]) is not None
        first = _hour(since) if on_hour else _next_hour(_hour(since))
        if not on_hour:
            edges.append((since, first))
    if until is not None:
        last = _hour(until)
        edges.append((last, until))
    if first is not None and last is not None and first >= last:
        return (None, None), [(since, until)]
    return (first, last), edges


def _direct(db: sqlite3.Connection, query: RowQuery, select: str, group: str) -> list[tuple[object, ...]]:
    where, args = round_where(db, query)
    where.append("status = 'settled'")
    return db.execute(f"SELECT {select} FROM rounds WHERE {' AND '.join(where)} GROUP BY {group}", args).fetchall()


def _aggregate(db: sqlite3.Connection, query: RowQuery, hours: tuple[str | None, str | None], select: str,
               group: str) -> list[tuple[object, ...]]:
    where, args = ["1 = 1"], []
    for clause, value in (("game = ?", query.game), ("table_id = ?", query.table_id),
                          ("hour >= ?", hours[0]), ("hour < ?", hours[1])):
        if value is not None:
            where.append(clause)
            args.append(value)
    return db.execute(f"SELECT {select} FROM hourly_totals WHERE {' AND '.join(where)} GROUP BY {group}",
                      args).fetchall()


def _parts(db: sqlite3.Connection, query: RowQuery, direct: str, aggregate: str,
           group: str) -> list[tuple[object, ...]]:
    """Rows of per-group sums: straight from the rounds when the query filters by more than time,
    else the whole hours from the aggregate plus the partial hours at the edges."""
    if not query.only_time:
        return _direct(db, query, direct, group)
    hours, edges = _split(query)
    same_hour = hours == (None, None) and bool(edges)
    rows = [] if same_hour else _aggregate(db, query, hours, aggregate, group)
    for since, until in edges:
        part = RowQuery(game=query.game, table_id=query.table_id, since=since, until=until)
        rows += _direct(db, part, direct, group)
    return rows


def totals(db: sqlite3.Connection, query: RowQuery) -> list[Totals]:
    rows = _parts(db, query, "table_id, game, banking, COUNT(*), SUM(wagered), SUM(paid), SUM(house_result),"
                  " MAX(max_payout), SUM(fees), SUM(returned), SUM(from_stacks)",
                  "table_id, game, banking, SUM(rounds), SUM(wagered), SUM(paid), SUM(house), MAX(biggest), SUM(fees),"
                  " SUM(returned), SUM(from_stacks)",
                  "table_id, game, banking")
    merged: dict[tuple[int, str, str], list[int]] = {}
    for table_id, game, banking, *sums in rows:
        into = merged.setdefault((int(table_id), str(game), str(banking)), [0] * 8)  # type: ignore[call-overload]
        for i, value in enumerate(sums):
            into[i] = max(into[i], int(value)) if i == 4 else into[i] + int(value)  # type: ignore[call-overload]
    return [Totals(t, g, v[0], v[1], v[2], v[3], v[4], v[5], banking=b, returned=v[6], from_stacks=v[7])
            for (t, g, b), v in sorted(merged.items())]


def hourly(db: sqlite3.Connection, query: RowQuery) -> list[HourTotals]:
    rows = _parts(db, query, "substr(started_at, 1, 13), banking, COUNT(*), SUM(wagered), SUM(house_result)",
                  "hour, banking, SUM(rounds), SUM(wagered), SUM(house)", "1, 2")
    merged: dict[tuple[str, str], list[int]] = {}
    for hour, banking, *sums in rows:
        into = merged.setdefault((str(hour), str(banking)), [0, 0, 0])
        for i, value in enumerate(sums):
            into[i] += int(value)  # type: ignore[call-overload]
    return [HourTotals(h, b, *v) for (h, b), v in sorted(merged.items())]


def table_settlements(db: sqlite3.Connection, table_id: int) -> dict[int, list[SettlementRow]]:
    """A table's settlement rows by round id, in seat and bet order."""
    out: dict[int, list[SettlementRow]] = {}
    for round_id, *row in db.execute(
            "SELECT s.round_id, s.seat, s.bet, s.stake, s.result, s.reason, s.role FROM settlements s"
            " JOIN rounds r ON r.id = s.round_id WHERE r.table_id = ? ORDER BY s.round_id, s.seat, s.bet", (table_id,)):
        out.setdefault(int(round_id), []).append(SettlementRow.read(*row))
    return out


def table_stakes(db: sqlite3.Connection, table_id: int) -> dict[int, dict[str, int]]:
    """A table's chips staked by round id and bet, summed over the seats in SQL."""
    out: dict[int, dict[str, int]] = {}
    for round_id, bet, staked in db.execute(
            "SELECT s.round_id, s.bet, SUM(s.stake) FROM settlements s JOIN rounds r ON r.id = s.round_id"
            " WHERE r.table_id = ? AND s.stake <> 0 GROUP BY s.round_id, s.bet", (table_id,)):
        out.setdefault(int(round_id), {})[str(bet)] = int(staked)
    return out


def settlement_rows(db: sqlite3.Connection, query: RowQuery) -> Iterator[tuple[RoundRecord, SettlementRow]]:
    """The query's rounds' rows; seat and minimum payout pick rows (a minimum payout: every row of
    a seat whose payout in the round reaches it), the other filters pick rounds."""
    round_query = RowQuery(game=query.game, table_id=query.table_id, since=query.since, until=query.until,
                           area=query.area,
                           flag=query.flag, search=query.search, min_payout=query.min_payout,
                           training=query.training)
    where, args = round_where(db, round_query, "r.")
    if query.seat is not None:
        where.append("s.seat = ?")
        args.append(query.seat)
    columns = ", ".join(f"r.{c.strip()}" for c in ROUND_COLUMNS.split(","))
    sql = (f"SELECT {columns}, s.seat, s.bet, s.stake, s.result, s.reason, s.role FROM settlements s"
           f" JOIN rounds r ON r.id = s.round_id WHERE {' AND '.join(where)} ORDER BY r.id, s.seat, s.bet")
    found = ((round_record(row[:ROUND_WIDTH]), SettlementRow.read(*row[ROUND_WIDTH:])) for row in db.execute(sql, args))
    if query.min_payout is None:
        yield from found
        return
    least = query.min_payout
    for _, group in groupby(found, key=lambda pair: (pair[0].id, pair[1].seat)):
        pairs = list(group)
        rows = [row for _, row in pairs]
        if seat_payouts(rows)[rows[0].seat] >= least:
            yield from pairs
