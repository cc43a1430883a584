"""Training tables: `demo` plays only at tables marked as training; every round there carries the
`training` flag; the floor's list, totals and export leave them out unless asked for; verify
catches a round moved into or out of training. Expected figures are plain SQL over the rows."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from dealer_tui.cli import main
from dealer_tui.demo import play, seat_players
from dealer_tui.games import GAMES
from dealer_tui.ledger import RowQuery, SqliteLedger
from dealer_tui.rounds.cards import VirtualShoe
from rules.profiles.loader import ProfileLibrary
from tests.floor_support import FixedClock, sql_rows
from tests.staff_support import demo, floor_review, pins_on_stdin, staffed_table

HCF = ProfileLibrary([]).find("high-card-flush")


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A live table "Main 1" (5 rounds) and a demo's training table (4 rounds) in one ledger."""
    path = tmp_path_factory.mktemp("training") / "ledger.sqlite"
    ledger = SqliteLedger(path, clock=FixedClock())
    table = staffed_table(ledger, "Main 1", HCF, VirtualShoe.seeded_with(2), seats=7)
    seat_players(table, 3)
    assert play(table, 5, random.Random(2)) == 5
    ledger.close()
    with pins_on_stdin():
        assert main(demo("--game", "high-card-flush", "--rounds", "4", "--seed", "3", "--ledger", str(path))) == 0
    return path


pytestmark = pytest.mark.usefixtures("staff_pins")


def table_id(path: Path, name: str) -> int:
    return int(sql_rows(path, "SELECT id FROM tables WHERE name = ?", (name,))[0][0])  # type: ignore[call-overload]


def test_demo_opens_a_training_table_and_flags_every_round_there(mixed: Path) -> None:
    demo = table_id(mixed, "Demo high-card-flush")
    opened = sql_rows(mixed, "SELECT payload FROM events WHERE table_id = ? AND kind = 'table_opened'", (demo,))
    assert json.loads(str(opened[0][0]))["training"] is True
    flags = [str(f) for (f,) in sql_rows(mixed, "SELECT flags FROM rounds WHERE table_id = ? ORDER BY number", (demo,))]
    assert flags == ["seeded,training"] * 4
    live = [str(f) for (f,) in sql_rows(mixed, "SELECT flags FROM rounds WHERE table_id = ?", (table_id(mixed, "Main 1"),))]
    assert len(live) == 5 and not any("training" in f for f in live)
    indexed = sql_rows(mixed, "SELECT COUNT(*) FROM round_flags WHERE flag = 'training'")
    assert indexed == [(4,)]


def test_floor_totals_count_live_tables_only_unless_training_is_asked_for(mixed: Path) -> None:
    live, demo = table_id(mixed, "Main 1"), table_id(mixed, "Demo high-card-flush")
    summed = {int(t): (int(n), int(w), int(h)) for t, n, w, h in sql_rows(  # type: ignore[call-overload]
        mixed, "SELECT table_id, COUNT(*), SUM(wagered), SUM(house_result) FROM rounds WHERE status = 'settled'"
               " GROUP BY table_id")}
    assert summed[live][0] == 5 and summed[demo][0] == 4
    ledger = SqliteLedger(mixed, readonly=True)
    try:
        plain = {t.table_id: (t.rounds, t.wagered, t.house) for t in ledger.totals(RowQuery())}
        assert plain == {live: summed[live]}
        asked = {t.table_id: (t.rounds, t.wagered, t.house) for t in ledger.totals(RowQuery(training=True))}
        assert asked == summed
        assert sum(h.rounds for h in ledger.hourly(RowQuery())) == 5
        assert sum(h.rounds for h in ledger.hourly(RowQuery(training=True))) == 9
        assert {r.table_id for r in ledger.find_rounds(RowQuery(), limit=50)} == {live}
        assert len(ledger.find_rounds(RowQuery(training=True), limit=50)) == 9
        flagged = ledger.find_rounds(RowQuery(flag="training"), limit=50)  # the flag filter shows them
        assert len(flagged) == 4 and {r.table_id for r in flagged} == {demo}
        assert {r.table_id for r, _ in ledger.settlement_rows(RowQuery())} == {live}
    finally:
        ledger.close()
    hours = sql_rows(mixed, "SELECT DISTINCT table_id FROM hourly_totals")
    assert hours == [(live,)]  # the aggregate never held a training round


def test_export_leaves_training_rounds_out_unless_asked(mixed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def exported(*more: str) -> set[str]:
        assert main(["history", "export", "--csv", "-", "--ledger", str(mixed), *more]) == 0
        lines = capsys.readouterr().out.splitlines()
        header = lines[0].split(",")
        return {line.split(",")[header.index("table")] for line in lines[1:]}

    assert exported() == {"Main 1"}
    assert exported("--training") == {"Main 1", "Demo high-card-flush"}


def test_demo_refuses_a_live_table(mixed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = sql_rows(mixed, "SELECT COUNT(*) FROM events")
    status = main(demo("--game", "high-card-flush", "--rounds", "1", "--table", "Main 1", "--ledger", str(mixed)))
    err = capsys.readouterr().err
    assert status == 2
    assert err == "error: --table: 'Main 1' is a live table; demo players play only at training tables\n"
    assert sql_rows(mixed, "SELECT COUNT(*) FROM events") == before


def verify(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(["history", "verify", "--ledger", str(path)])
    return status, capsys.readouterr().out


def test_verify_catches_a_training_round_passed_off_as_live(mixed: Path, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    copy = tmp_path / "l.sqlite"
    copy.write_bytes(mixed.read_bytes())
    assert verify(copy, capsys)[0] == 0
    db = sqlite3.connect(copy)
    demo_round = db.execute("SELECT r.id FROM rounds r JOIN tables t ON t.id = r.table_id"
                            " WHERE t.name = 'Demo high-card-flush' AND r.number = 1").fetchone()[0]
    db.execute("UPDATE rounds SET flags = 'seeded' WHERE id = ?", (demo_round,))
    db.execute("DELETE FROM round_flags WHERE round_id = ? AND flag = 'training'", (demo_round,))
    db.commit()
    db.close()
    status, out = verify(copy, capsys)
    assert status == 1
    assert "stored flags 'seeded'; its events give 'seeded,training'" in out


def test_verify_catches_a_live_round_hidden_as_training(mixed: Path, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """Marking a live round as training (to keep it out of the totals) and taking it out of the
    hourly totals is found: the flag disagrees with the round's events, the hour with the rounds."""
    copy = tmp_path / "l.sqlite"
    copy.write_bytes(mixed.read_bytes())
    db = sqlite3.connect(copy)
    rid, hour, tid, wagered = db.execute(
        "SELECT r.id, substr(r.started_at, 1, 13), r.table_id, r.wagered FROM rounds r JOIN tables t"
        " ON t.id = r.table_id WHERE t.name = 'Main 1' AND r.number = 2").fetchone()
    db.execute("UPDATE rounds SET flags = 'seeded,training' WHERE id = ?", (rid,))
    db.execute("INSERT INTO round_flags(flag, round_id) VALUES ('training', ?)", (rid,))
    db.execute("UPDATE hourly_totals SET rounds = rounds - 1, wagered = wagered - ? WHERE hour = ? AND table_id = ?",
               (wagered, hour, tid))
    db.commit()
    db.close()
    status, out = verify(copy, capsys)
    assert status == 1
    assert "stored flags 'seeded,training'; its events give 'seeded'" in out
    assert "hourly totals stored" in out


async def test_the_floor_leaves_training_out_and_T_takes_it_in(mixed: Path) -> None:
    app = floor_review(mixed)
    async with app.run_test(size=(150, 40)) as pilot:
        screen = app.screen
        assert len(screen.rows) == 5
        line = str(screen.query_one("#floor-filters").render())
        assert "training tables: left out (T)" in line
        await pilot.press("T")
        assert len(screen.rows) == 9
        assert "training tables: taken in (T)" in str(screen.query_one("#floor-filters").render())
        await pilot.press("T")
        assert len(screen.rows) == 5


def test_training_play_stays_out_of_the_cash_logs_alerts_and_ratings_unless_asked_for(mixed: Path) -> None:
    """What a regulator or a host reads — the cash transactions behind the logs and the currency
    alerts, the players' rating sessions — holds the live table only; asked for, the demo's too.
    Expected: the cash buy-ins each table's events record (plain SQL)."""
    from dealer_tui.accounting.ratings import rating_sessions
    from dealer_tui.accounting.theoretical import Theory
    from dealer_tui.rounds.cash import cash_transactions

    live, demo = table_id(mixed, "Main 1"), table_id(mixed, "Demo high-card-flush")
    cash_buys = {int(t): int(n) for t, n in sql_rows(  # type: ignore[call-overload]
        mixed, "SELECT table_id, COUNT(*) FROM events WHERE kind IN ('seat_taken', 'chips_bought')"
               " AND COALESCE(json_extract(payload, '$.method'), 'cash') = 'cash' GROUP BY table_id")}  # cash unless said
    assert cash_buys[live] > 0 and cash_buys[demo] > 0
    ledger = SqliteLedger(mixed, readonly=True)
    try:
        ins = [t for t in cash_transactions(ledger) if t.direction == "in"]
        assert {t.table for t in ins} == {"Main 1"} and len(ins) == cash_buys[live]
        asked = [t for t in cash_transactions(ledger, training=True) if t.direction == "in"]
        assert len(asked) == cash_buys[live] + cash_buys[demo]
        theory = Theory(GAMES, None, hands=2_000)
        assert {s.table for s in rating_sessions(ledger, theory)} == {"Main 1"}
        assert {s.table for s in rating_sessions(ledger, theory, training=True)} == {"Main 1", "Demo high-card-flush"}
    finally:
        ledger.close()
