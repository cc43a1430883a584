"""Helpers for the floor review's tests: live tables filled by the demo's built-in players under a
fixed clock, and sums taken straight from the stored rows with plain SQL (never through the code
under test)."""

from __future__ import annotations

import hashlib
import io
import json
import random
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path

from rich.console import Console

from dealer_tui.demo import play, seat_players
from dealer_tui.games import GAMES
from dealer_tui.ledger import SqliteLedger
from dealer_tui.ledger.base import GENESIS, event_hash
from dealer_tui.rounds.cards import VirtualShoe
from dealer_tui.rounds.table import Table
from rules.profiles.loader import ProfileLibrary
from rules.registry import game as rules_game
from tests.staff_support import staffed


class FixedClock:
    """Distinct times `step` seconds apart from `start`: the same ledger every run."""

    def __init__(self, start: str = "2026-03-06T17:40:00", step: int = 53) -> None:
        self.now, self.step = datetime.fromisoformat(start), timedelta(seconds=step)

    def __call__(self) -> str:
        self.now += self.step
        return self.now.isoformat(timespec="microseconds") + "+00:00"


@contextmanager
def fixed_clock(clock: FixedClock) -> Iterator[None]:
    """Every ledger opened inside writes with `clock` (the demo command opens its own)."""
    defaults = SqliteLedger.__init__.__kwdefaults__
    assert defaults is not None
    saved = defaults["clock"]
    defaults["clock"] = clock
    try:
        yield
    finally:
        defaults["clock"] = saved


DEMOS = (("high-card-flush", "high-card-flush-casino", 14, "3"), ("one-or-five", "one-or-five", 12, "3"),
         ("palace-poker", "palace-poker", 6, "1"))


def live_table(path: Path, game: str, rounds: int, seed: int, profile: str | None = None, players: int = 4) -> None:
    """A live table ("Demo <game>", the floor's totals count it) played for `rounds` rounds by the
    demo's built-in players from `seed`, as `demo` plays its training tables."""
    ledger = SqliteLedger(path)
    try:
        loaded = ProfileLibrary([]).find(profile or rules_game(game).default_profile, game=game)
        crew = staffed(ledger)
        table = crew.deal(Table.create(ledger, f"Demo {game}", GAMES.find(loaded.game), loaded, VirtualShoe.seeded_with(seed),
                                       seats=loaded.profile.max_seats()))
        seat_players(table, players)
        assert play(table, rounds, random.Random(seed), approve=crew.approver()) == rounds
    finally:
        ledger.close()


def demo_ledger(path: Path, clock: FixedClock | None = None) -> Path:
    """Three live tables played by the demo's built-in players with fixed seeds and a fixed clock:
    rounds over several hours."""
    with fixed_clock(clock or FixedClock()):
        for game, profile, rounds, seed in DEMOS:
            live_table(path, game, rounds, int(seed), profile)
    return path


def sql_rows(path: Path, query: str, args: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """Rows straight from the file with plain SQL (never through the code under test)."""
    db = sqlite3.connect(path)
    try:
        return db.execute(query, args).fetchall()
    finally:
        db.close()


def digest(path: Path) -> str:
    """Every event hash and every round's state: equal digests, nothing recorded or changed."""
    db = sqlite3.connect(path)
    rows = db.execute("SELECT hash FROM events ORDER BY id").fetchall() + db.execute(
        "SELECT id, status, flags, seats, wagered, paid, house_result FROM rounds ORDER BY id").fetchall() + \
        db.execute("SELECT * FROM settlements ORDER BY round_id, seat, bet").fetchall()
    db.close()
    return hashlib.sha256(repr(rows).encode()).hexdigest()


SEAT_PAYOUTS = (
    "SELECT round_id, seat,"
    " SUM(CASE WHEN bet IN ('bank', 'rake') THEN 0 WHEN result > 0 THEN stake + result ELSE 0 END)"
    " + MAX(SUM(CASE WHEN bet IN ('bank', 'rake') THEN result ELSE 0 END), 0) AS payout"
    " FROM settlements GROUP BY round_id, seat")
"""Each seat's payout in each round, in plain SQL: its winning bets' stakes and wins, and its bank's
take after its rake when positive (a DP); a pot's share or points collected are winning rows."""


def settled_sums(path: Path, where: str = "1 = 1", args: tuple[object, ...] = ()) -> dict[tuple[int, str], tuple[int, ...]]:
    """(table, game) -> (rounds, drop, house win, biggest one seat's payout), from settlement rows:
    the drop is every stake but the bank's and the rake; the house wins what the seats lose (C-2)."""
    db = sqlite3.connect(path)
    per_round = db.execute(
        "SELECT r.table_id, r.game, r.id,"
        " SUM(CASE WHEN s.bet IN ('bank', 'rake') THEN 0 ELSE s.stake END), -SUM(s.result),"
        f" (SELECT MAX(payout) FROM ({SEAT_PAYOUTS}) p WHERE p.round_id = r.id)"
        f" FROM settlements s JOIN rounds r ON r.id = s.round_id WHERE r.status = 'settled' AND {where}"
        " GROUP BY r.id", args).fetchall()
    db.close()
    out: dict[tuple[int, str], list[int]] = {}
    for table_id, game, _, drop, win, paid in per_round:
        into = out.setdefault((table_id, game), [0, 0, 0, 0])
        into[0] += 1
        into[1] += drop
        into[2] += win
        into[3] = max(into[3], paid)
    return {k: tuple(v) for k, v in out.items()}


def fees_summed(path: Path, where: str = "1 = 1") -> dict[tuple[int, str], int]:
    """(table, game) -> the house's take: rake, Chinese Poker fees and "1 or 5" exchange fees, as the
    settlement rows record them (each such row's result is what the seat paid, negative)."""
    db = sqlite3.connect(path)
    rows = db.execute("SELECT r.table_id, r.game, -SUM(CASE WHEN s.bet IN ('rake', 'fee', 'exchange') THEN s.result"
                     " ELSE 0 END) FROM settlements s JOIN rounds r ON r.id = s.round_id"
                     f" WHERE r.status = 'settled' AND {where} GROUP BY 1, 2").fetchall()
    db.close()
    return {(t, g): fees for t, g, fees in rows}


OLD_PAID = ("SUM(CASE WHEN s.result > 0 AND s.bet NOT IN ('bank', 'rake') THEN s.stake + s.result ELSE 0 END)")
"""A round's paid as schema 3 and before recorded it: winning player bets only, no DP's take."""


def legacy_chain(db: sqlite3.Connection) -> None:
    """The events as schema 5 and before held them: no staff register (its events, the dealers'
    sign-ins and the sign-ins named gone, each chain numbered again), no ledger-wide sequence, each
    hash over the event's table chain and content only (every table's chain hashed again from its
    start)."""
    db.executescript("DELETE FROM events WHERE table_id = 0 OR kind IN ('dealer_signed_in', 'dealer_signed_out');"
                     " DELETE FROM tables WHERE id = 0; DROP INDEX IF EXISTS events_by_kind;"
                     " DROP INDEX IF EXISTS staff_by_account;")
    rows = db.execute("SELECT id, table_id, round_id, seq, ts, kind, payload FROM events ORDER BY table_id, seq")
    prev: dict[int, str] = {}
    numbered: dict[int, int] = {}
    updates = []
    for event_id, table_id, round_id, _, ts, kind, payload in rows.fetchall():
        data = {k: v for k, v in json.loads(payload).items()
                if k != "sign_in" and not (kind == "round_started" and k == "dealer")}
        seq = numbered[table_id] = numbered.get(table_id, 0) + 1
        before = prev.get(table_id, GENESIS)
        digest = event_hash(before, table_id, round_id, seq, ts, kind, data)
        updates.append((seq, json.dumps(data, sort_keys=True, ensure_ascii=False), before, digest, event_id))
        prev[table_id] = digest
    db.executemany("UPDATE events SET seq = -?, payload = ?, prev_hash = ?, hash = ? WHERE id = ?", updates)
    db.execute("UPDATE events SET seq = -seq")
    db.execute("UPDATE events SET id = -(SELECT COUNT(*) FROM events e WHERE e.id <= events.id)")  # no gaps
    db.execute("UPDATE events SET id = -id")
    db.executescript("DROP INDEX events_by_ledger_seq; ALTER TABLE events DROP COLUMN ledger_seq;")


def rewind(path: Path, version: int) -> None:
    """Give a ledger of this program's schema the shape (and the paid figures) of an older one."""
    db = sqlite3.connect(path)
    legacy_chain(db)
    db.executescript(f"""
        DROP TABLE IF EXISTS table_leases; DROP TABLE IF EXISTS ledger_meta; ALTER TABLE tables DROP COLUMN area;
        ALTER TABLE settlements DROP COLUMN role;
        DROP INDEX rounds_by_max_payout;
        ALTER TABLE rounds DROP COLUMN returned; ALTER TABLE rounds DROP COLUMN from_stacks;
        ALTER TABLE rounds DROP COLUMN max_payout; ALTER TABLE rounds DROP COLUMN banking;
        UPDATE rounds SET paid = COALESCE((SELECT {OLD_PAID} FROM settlements s WHERE s.round_id = rounds.id), 0);
        DROP TABLE hourly_totals;
        CREATE TABLE hourly_totals(hour TEXT NOT NULL, table_id INTEGER NOT NULL REFERENCES tables(id),
            game TEXT NOT NULL, rounds INTEGER NOT NULL, wagered INTEGER NOT NULL, paid INTEGER NOT NULL,
            house INTEGER NOT NULL, biggest INTEGER NOT NULL, fees INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY(hour, table_id, game)) WITHOUT ROWID;
        INSERT INTO hourly_totals SELECT substr(started_at, 1, 13), table_id, game, COUNT(*), SUM(wagered),
            SUM(paid), SUM(house_result), MAX(paid), SUM(fees) FROM rounds WHERE status = 'settled' GROUP BY 1, 2, 3;
        CREATE INDEX rounds_by_max_result ON rounds(max_result, id);
        PRAGMA user_version = 3;
    """)
    if version <= 2:
        db.executescript("ALTER TABLE rounds DROP COLUMN fees; ALTER TABLE hourly_totals DROP COLUMN fees;"
                         " PRAGMA user_version = 2;")
    if version <= 1:
        for index in ("rounds_by_time", "rounds_by_game", "rounds_by_paid", "rounds_by_wagered", "rounds_by_house",
                      "rounds_by_max_result"):
            db.execute(f"DROP INDEX {index}")
        db.executescript("DROP TABLE hourly_totals; DROP TABLE seatings; DROP TABLE round_flags;"
                         " ALTER TABLE rounds DROP COLUMN max_result; PRAGMA user_version = 1;")
    db.close()


def plain(renderable: object, width: int = 200) -> str:
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


async def counted(pilot) -> None:  # type: ignore[no-untyped-def]
    """The header's counts of waiting payouts and open alerts in (read in a worker at sign-in)."""
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
