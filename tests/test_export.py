"""`history export`: one CSV row per seat per bet, filters, nothing half-written."""

from __future__ import annotations

import csv
import sqlite3
from pathlib import Path

import pytest

from dealer_tui.cli import main
from tests.floor_support import live_table


@pytest.fixture(scope="module")
def ledger(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("export") / "l.sqlite"
    live_table(path, "high-card-flush", 8, 4)
    live_table(path, "one-or-five", 6, 4)
    return path


def export(ledger: Path, tmp_path: Path, *extra: str) -> list[dict[str, str]]:
    out = tmp_path / "x.csv"
    assert main(["history", "export", "--ledger", str(ledger), "--csv", str(out), *extra]) == 0
    with out.open(newline="") as f:
        return list(csv.DictReader(f))


def test_export_has_every_settlement_row_of_the_ledger(ledger: Path, tmp_path: Path) -> None:
    rows = export(ledger, tmp_path)
    db = sqlite3.connect(ledger)
    expected = db.execute("SELECT round_id, seat, bet, stake, result FROM settlements ORDER BY round_id, seat, bet").fetchall()
    assert [(int(r["round_id"]), int(r["seat"]), r["bet"], int(r["stake"]), int(r["result"])) for r in rows] == expected
    assert set(rows[0]) >= {"round_id", "time", "game", "profile", "seat", "bet", "stake", "result", "reason"}


def test_export_filters_by_game_seat_and_payout(ledger: Path, tmp_path: Path) -> None:
    db = sqlite3.connect(ledger)
    o5 = db.execute("SELECT COUNT(*) FROM settlements s JOIN rounds r ON r.id = s.round_id "
                    "WHERE r.game = 'one-or-five'").fetchone()[0]
    assert len(export(ledger, tmp_path, "--game", "one-or-five")) == o5
    seat2 = export(ledger, tmp_path, "--seat", "2")
    assert seat2 and all(r["seat"] == "2" for r in seat2)
    big = export(ledger, tmp_path, "--min-payout", "10")
    db = sqlite3.connect(ledger)
    # every row of each seat paid 10 or more in a round: its winning rows' stakes and wins summed
    expected = db.execute(
        "SELECT s.round_id, s.seat, s.bet FROM settlements s WHERE (SELECT SUM(CASE WHEN t.result > 0 THEN t.stake"
        " + t.result ELSE 0 END) FROM settlements t WHERE t.round_id = s.round_id AND t.seat = s.seat) >= 10"
        " ORDER BY 1, 2, 3").fetchall()
    assert [(int(r["round_id"]), int(r["seat"]), r["bet"]) for r in big] == expected and expected


def test_export_bad_time_is_one_error_and_writes_nothing(ledger: Path, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "none.csv"
    assert main(["history", "export", "--ledger", str(ledger), "--csv", str(out), "--since", "yesterday"]) == 2
    assert not out.exists()
    assert capsys.readouterr().err.startswith("error: --since: 'yesterday' is not a time")


def test_export_refuses_an_unknown_flag_naming_every_flag(ledger: Path, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "none.csv"
    assert main(["history", "export", "--ledger", str(ledger), "--csv", str(out), "--flag", "bogus"]) == 2
    assert not out.exists()
    err = capsys.readouterr().err
    assert err == ("error: --flag: 'bogus' is not a flag (one of: signed_off, override, voided, capped, recovered, "
                   "seeded, training, late_delivery, dead_hands, over_cap_raise, split_pot, all_in)\n")


def test_export_takes_every_flag_the_floor_filter_offers(ledger: Path, tmp_path: Path) -> None:
    from dealer_tui.games import GAMES

    flags = GAMES.flags()
    assert {"over_cap_raise", "dead_hands", "split_pot", "all_in", "voided"} <= flags.keys()
    for flag in flags:
        export(ledger, tmp_path, "--flag", flag)
