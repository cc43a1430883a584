"""The command line: every command listed, bad input is one `error:` line and exit 2."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dealer_tui.cli import main
from tests.staff_support import demo

pytestmark = pytest.mark.usefixtures("staff_pins")


def run(argv: list[str], capsys: pytest.CaptureFixture[str], stdin: str | None = None,
        monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        assert monkeypatch is not None
        import io

        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    try:
        status = main(argv)
    except SystemExit as exc:
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def test_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["--help"], capsys)
    assert status == 0
    for word in ("settle", "paytables", "history", "demo", "--ledger", "--game"):
        assert word in out


def test_unknown_command_is_one_error_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(["deal-me-in"], capsys)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ")


def test_paytables_show_posts_the_paytable(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["paytables", "show", "high-card-flush"], capsys)
    assert status == 0
    assert "1000 to 1" in out and "200 to 1" in out and "Designated Player" in out


def test_paytables_show_unknown_profile(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(["paytables", "show", "no-such-table"], capsys)
    assert (status, out) == (2, "")
    assert err.startswith("error: unknown profile 'no-such-table'") and err.count("\n") == 1


def test_paytables_check_good_and_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from rules.profiles.loader import shipped_dir

    good = tmp_path / "mine.yaml"
    good.write_text((shipped_dir() / "palace-poker.yaml").read_text())
    status, out, _ = run(["paytables", "check", str(good)], capsys)
    assert status == 0 and "ok:" in out
    bad = tmp_path / "bad.yaml"
    bad.write_text(good.read_text().replace("big_bet: 20", "big_bet: twenty"))
    status, out, err = run(["paytables", "check", str(bad)], capsys)
    line = next(i for i, l in enumerate(bad.read_text().splitlines(), 1) if l.startswith("big_bet"))
    assert (status, out) == (2, "")
    assert err == f"error: {bad}:{line}: big_bet: must be a whole number\n"


def test_paytables_list_with_own_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "broken.yaml").write_text("game: palace-poker\n")
    status, out, _ = run(["paytables", "list", "--profiles", str(tmp_path)], capsys)
    assert status == 1  # a broken file of the casino's own is shown and signalled
    assert "one-or-five" in out and "does not load" in out


@pytest.mark.parametrize(
    ("stdin", "expected"),
    [
        ("", "error: input: not valid JSON at line 1, column 1: Expecting value\n"),
        ("[1, 2]", "error: round: must be a JSON object\n"),
        ('{"seats": 7}', "error: game: is required\n"),
        ('{"game": "baccarat"}', "error: game: unknown game 'baccarat' (known: high-card-flush, "
         "one-or-five, chinese-poker, palace-poker)\n"),
        ('{"game": "one-or-five", "x": NaN}', "error: input: not valid JSON: NaN is not a number\n"),
    ],
)
def test_settle_bad_input_is_one_error_line_and_exit_2(
    stdin: str, expected: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = run(["settle"], capsys, stdin=stdin, monkeypatch=monkeypatch)
    assert (status, out, err) == (2, "", expected)


def test_settle_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, err = run(["settle", str(tmp_path / "none.json")], capsys)
    assert (status, out) == (2, "")
    assert err == f"error: {tmp_path / 'none.json'}: no such file or directory\n"


def test_settle_jsonl_reports_bad_lines_and_goes_on(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = '{"game": "baccarat"}\n\nnot json\n'
    status, out, err = run(["settle", "--jsonl"], capsys, stdin=lines, monkeypatch=monkeypatch)
    assert status == 1 and err == ""
    rows = [json.loads(line) for line in out.splitlines()]
    assert [row["line"] for row in rows] == [1, 3]
    assert rows[0]["error"].startswith("game: unknown game 'baccarat'")
    assert rows[1]["error"].startswith("input: not valid JSON")


def test_installed_console_script_runs() -> None:
    exe = shutil.which("dealer-tui")
    assert exe is not None, "the dealer-tui console script is installed"
    done = subprocess.run([exe, "settle"], input="{", capture_output=True, text=True, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error: input: not valid JSON") and "Traceback" not in done.stderr


def test_demo_refuses_an_unknown_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, err = run(demo("--game", "baccarat", "--ledger", str(tmp_path / "l.sqlite")), capsys)
    assert (status, out) == (2, "")
    assert err.startswith("error: --game: unknown game 'baccarat' (known: high-card-flush, one-or-five")


def test_demo_then_history_verify_and_list(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    ledger = str(tmp_path / "l.sqlite")
    status, _, _ = run(demo("--game", "one-or-five", "--rounds", "5", "--seed", "1", "--ledger", ledger), capsys)
    assert status == 0
    status, out, _ = run(["history", "verify", "--ledger", ledger], capsys)
    assert status == 0 and "ok:" in out and "(5 rounds)" in out
    status, out, _ = run(["history", "list", "--ledger", ledger, "--json", "--limit", "2"], capsys)
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["number"] for r in rows] == [5, 4] and all(r["status"] == "settled" for r in rows)


def test_history_verify_reports_a_changed_digit(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    import sqlite3

    ledger = str(tmp_path / "l.sqlite")
    run(demo("--game", "high-card-flush", "--rounds", "3", "--seed", "2", "--ledger", ledger), capsys)
    db = sqlite3.connect(ledger)
    db.execute("UPDATE events SET payload = replace(payload, '\"raise\": 5', '\"raise\": 6') "
               "WHERE kind = 'player_acted' AND payload LIKE '%\"raise\": 5%'")
    changed = db.total_changes
    db.commit()
    db.close()
    assert changed >= 1
    status, out, err = run(["history", "verify", "--ledger", ledger], capsys)
    assert status == 1 and "round" in out and "content does not match its hash" in out
    assert err.startswith("error: ")


def test_settle_gives_the_contract_keys_and_explains_on_request(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    example = ('{"game": "one-or-five", "dealer": {"cards": "Ah Kd 7c 5s 2h"}, "boxes": [{"box": 1, "ante": 10, '
               '"action": "bet", "exchanged": 1, "insurance": 0, "cards": "Qs Qd 4c 4h 9s"}]}')
    status, out, _ = run(["settle"], capsys, stdin=example, monkeypatch=monkeypatch)
    box = json.loads(out)["boxes"][0]
    assert status == 0 and "reasons" not in box
    assert box["bets"] == {"ante": 0, "bet": 40, "exchange": -10, "insurance": 0}  # docs/settle.md's example
    status, out, _ = run(["settle", "--explain"], capsys, stdin=example, monkeypatch=monkeypatch)
    reasons = json.loads(out)["boxes"][0]["reasons"]
    assert "two pair" in reasons["ante"] and "R-7" in reasons["ante"]


def test_demo_without_a_ledger_plays_into_its_own_training_ledger(capsys: pytest.CaptureFixture[str],
                                                                   tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """`demo` never writes into the live ledger by accident: without --ledger it uses
    training.sqlite beside it, and the live ledger is not even created."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    status, _, _ = run(demo("--game", "one-or-five", "--rounds", "2", "--seed", "1"), capsys)
    assert status == 0
    assert (tmp_path / "data" / "dealer-tui" / "training.sqlite").exists()
    assert not (tmp_path / "data" / "dealer-tui" / "ledger.sqlite").exists()
    status, out, _ = run(demo("--help"), capsys)
    assert "training.sqlite, the training ledger," in " ".join(out.split())


def test_history_verify_counts_one_round_in_the_singular(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    ledger = str(tmp_path / "l.sqlite")
    assert run(demo("--game", "high-card-flush", "--rounds", "1", "--seed", "1", "--ledger", ledger), capsys)[0] == 0
    status, out, _ = run(["history", "verify", "--ledger", ledger], capsys)
    assert status == 0 and "(1 round)" in out


def test_r_1_a_one_or_five_table_seats_one_player_per_box(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The shipped "1 or 5" profile has 6 boxes: its tables have 6 seats, so a seventh player is
    refused at the door rather than seated without a box."""
    status, _, err = run(demo("--game", "one-or-five", "--players", "7", "--ledger", str(tmp_path / "l.sqlite")),
                         capsys)
    assert status == 2 and err == "error: --players: 1 to 6 at a one-or-five table\n"
