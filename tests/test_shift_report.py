"""`dealer-tui shift report` and `shift count` as the floor and the count team run them: the
demo's honest shift reports no difference in every form (JSON, CSV, PDF, text), the PDF's pages
read as a printed report with its signature lines, and bad input gets one clear line."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dealer_tui.cli import main
from tests.staff_support import AUDITOR, AUDITOR_PIN, DEMO_PINS, SUPERVISOR, SUPERVISOR_PIN, demo

HANDS = ["--hands", "20000"]


@pytest.fixture(scope="module")
def shifts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A training ledger where the demo played a High Card Flush shift (counted) and a "1 or 5"
    shift whose drop box is still to count."""
    path = tmp_path_factory.mktemp("shifts") / "demo.sqlite"
    saved = sys.stdin
    try:
        sys.stdin = io.StringIO(DEMO_PINS + f"{AUDITOR_PIN}\n")
        assert main(demo("--game", "high-card-flush", "--profile", "high-card-flush-casino", "--rounds", "20",
                         "--seed", "4", "--ledger", str(path), "--count-team", AUDITOR)) == 0
        sys.stdin = io.StringIO(DEMO_PINS)
        assert main(demo("--game", "one-or-five", "--rounds", "12", "--seed", "5", "--ledger", str(path))) == 0
    finally:
        sys.stdin = saved
    return path


def report(path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    capsys.readouterr()
    assert main(["shift", "report", "--ledger", str(path), "--json", *HANDS, *args]) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


def test_the_json_has_every_figure_per_table_and_an_honest_demo_shift_shows_no_difference(
        shifts: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = report(shifts, capsys)
    tables = data["tables"]
    assert isinstance(tables, list) and [t["table"] for t in tables] == ["Demo high-card-flush", "Demo one-or-five"]
    hcf, r5 = tables
    for key in ("drop", "opener", "closer", "fills", "credits", "win", "hold", "rounds_win", "theoretical_win"):
        assert key in hcf and key in r5, key
    assert hcf["status"] == "counted" and hcf["training"] is True and hcf["rounds"] == 20
    assert hcf["closer_difference"] == 0 and hcf["drop_difference"] == 0 and hcf["win_difference"] == 0
    assert hcf["win"] == hcf["rounds_win"]
    assert hcf["fills"] > 0 and hcf["credits"] > 0                      # the demo's fill and credit
    edge = hcf["house_edges"]["high-card-flush-casino"]
    assert edge["strategy"] == "mousseau" and edge["hands"] == 20_000     # the stated strategy, as simulated
    # each bet type's stakes × its edge; the Raise is counted in the Ante's edge per Ante
    by_bet = hcf["handle_by_bet"]
    assert sum(by_bet.values()) == hcf["handle"] and by_bet["ante"] > 0
    assert edge["bets"]["raise"] is None
    assert hcf["theoretical_win"] == pytest.approx(
        sum(stake * edge["bets"][bet] for bet, stake in by_bet.items() if bet != "raise"), abs=0.01)
    assert hcf["chips_sold"]["marker"] > 0                              # seat 1 bought in by marker
    # win = drop + closer + credits − opener − fills, from the report's own figures
    assert hcf["win"] == hcf["drop"] + hcf["closer"] + hcf["credits"] - hcf["opener"] - hcf["fills"]
    assert hcf["hold"] == pytest.approx(hcf["win"] / hcf["drop"], abs=1e-6)
    assert r5["status"] == "closed, drop box not counted" and r5["win"] is None and r5["hold"] is None
    assert r5["closer_difference"] == 0
    assert data["totals"]["counted"] == 1                               # type: ignore[index]


def test_the_report_keeps_to_its_period_and_tables(shifts: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert report(shifts, capsys, "--to", "2000-01-01")["tables"] == []
    only = report(shifts, capsys, "--table", "Demo one-or-five")["tables"]
    assert [t["table"] for t in only] == ["Demo one-or-five"]           # type: ignore[union-attr, index]


def test_the_csv_has_a_row_per_shift(shifts: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "shifts.csv"
    assert main(["shift", "report", "--ledger", str(shifts), "--csv", str(target), *HANDS]) == 0
    rows = list(csv.DictReader(target.open(encoding="utf-8")))
    assert [r["table"] for r in rows] == ["Demo high-card-flush", "Demo one-or-five"]
    assert rows[0]["closer_difference"] == "0" and rows[0]["win"] == rows[0]["rounds_win"]
    assert not (tmp_path / "shifts.csv.part").exists()


def test_the_csv_reconciles_on_its_own(shifts: Path, tmp_path: Path) -> None:
    """Every term of the win's formula is a column of its row: win = drop + closer + credits −
    opener − fills − chips sold before the opener (+ the collection box at a card room)."""
    target = tmp_path / "shifts.csv"
    assert main(["shift", "report", "--ledger", str(shifts), "--csv", str(target), *HANDS]) == 0
    counted = [r for r in csv.DictReader(target.open(encoding="utf-8")) if r["win"]]
    assert counted
    for r in counted:
        figure = {k: int(r[k] or 0) for k in ("drop", "closer", "credits", "opener", "fills",
                                              "chips_sold_before_opener", "collection", "win")}
        assert figure["win"] == (figure["drop"] + figure["closer"] + figure["credits"] - figure["opener"]
                                 - figure["fills"] - figure["chips_sold_before_opener"] + figure["collection"]), r


def test_the_pdf_is_a_summary_then_a_page_per_shift_with_the_signature_lines(
        shifts: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "shifts.pdf"
    assert main(["shift", "report", "--ledger", str(shifts), "--pdf", str(target), *HANDS]) == 0
    assert "page(s)" in capsys.readouterr().out
    assert target.read_bytes()[:5] == b"%PDF-"
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed: the pages' text is not read")
    text = subprocess.run(["pdftotext", "-layout", str(target), "-"], capture_output=True, text=True,
                          check=True).stdout
    summary, hcf, one_or_five = re.split(r"Demo high-card-flush — shift 1|Demo one-or-five — shift 1", text)
    assert "Master game report" in summary and "Training shifts (demos: in no total above)" in summary
    assert "No live shift in this period." in summary                      # a demo's shifts are training
    for line in ("Dealer: Dana Dealer (D1)", f"Supervisor: Sam Super ({SUPERVISOR})", "Cage:", "Security:",
                 f"Count team: Avi Auditor ({AUDITOR})", "No differences.", "Gaming day", "Opener", "Closer"):
        assert line in hcf, line
    assert re.search(r"Fill DEMO-\S+-F1", hcf) and re.search(r"Credit\s", hcf)   # by denomination, by slip
    assert "Count team:" in one_or_five and "drop box not counted" in one_or_five


def test_bad_input_gets_one_line(shifts: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for args, said in ((["--from", "yesterday"], "--from: 'yesterday' is not a time"),
                       (["--from", "0001-01-01T00:00+01:00"], "out of the calendar's range"),
                       (["--from", "2026-12-02", "--to", "2026-12-01"], "is not after --from"),
                       (["--csv", ""], "a file name is needed"),
                       (["--pdf", str(tmp_path)], "is a folder"),
                       (["--table", "Nope"], "no table named 'Nope'"),
                       (["--hands", "5"], "--hands: 1,000 to")):
        capsys.readouterr()
        assert main(["shift", "report", "--ledger", str(shifts), *HANDS[:0], *args]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and said in err, err


def test_the_count_team_counts_a_drop_box_once_with_its_pin(shifts: Path, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "copy.sqlite"
    shutil.copy(shifts, path)
    args = ["shift", "count", "--ledger", str(path), "--table", "Demo one-or-five", "--cash", "100", "--by"]
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{SUPERVISOR_PIN}\n"))
    assert main([*args, SUPERVISOR]) == 2                                # a supervisor is not the count team
    assert "only a manager or an auditor may count a drop box" in capsys.readouterr().err
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{AUDITOR_PIN}\n"))
    assert main([*args, AUDITOR]) == 0
    assert "shift 1: 100 cash" in capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{AUDITOR_PIN}\n"))
    assert main([*args, AUDITOR]) == 2
    assert "already counted" in capsys.readouterr().err
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{AUDITOR_PIN}\n"))
    assert main([*args[:-1], "--markers", "0", "--recount", "first count missed a bundle", "--by", AUDITOR]) == 0
    assert "recorded the recount of the drop box" in capsys.readouterr().out
    r5 = report(path, capsys, "--table", "Demo one-or-five")["tables"][0]  # type: ignore[index]
    assert r5["drop"] == 100 and r5["drop_difference"] < 0 and any("drop short" in f for f in r5["flags"])


def test_a_bad_drop_count_is_refused_before_anyone_signs_in(shifts: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3

    path = tmp_path / "copy.sqlite"
    shutil.copy(shifts, path)

    def sign_ins() -> int:
        db = sqlite3.connect(path)
        n = int(db.execute("SELECT COUNT(*) FROM events WHERE kind = 'staff_signed_in'").fetchone()[0])
        db.close()
        return n

    before = sign_ins()
    base = ["shift", "count", "--table", "Demo one-or-five"]
    for args, said in (([*base, "--ledger", str(path), "--cash", "-5", "--by", AUDITOR], "the cash counted must be 0"),
                       ([*base, "--ledger", str(path), "--cash", "1", "--by", "A\x1b1"], "--by: an account ID is"),
                       ([*base, "--ledger", str(tmp_path / "none.sqlite"), "--cash", "1", "--by", AUDITOR],
                        "--ledger: no ledger at"),
                       ([*base, "--ledger", "postgresql://nobody@127.0.0.1:1/x", "--cash", "1", "--by", AUDITOR],
                        "counted on the table's own ledger file")):
        monkeypatch.setattr(sys, "stdin", io.StringIO(f"{AUDITOR_PIN}\n"))
        capsys.readouterr()
        assert main(args) == 2, args
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and said in err, err
    assert sign_ins() == before                                          # nobody signed in for them
    assert not (tmp_path / "none.sqlite").exists() and not Path("postgresql:").exists()
