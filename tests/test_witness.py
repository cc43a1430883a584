"""The witness outside the ledger: where it lives, when it is written, how it is written, and
what `history verify` makes of it."""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import stat
from pathlib import Path

import pytest

from dealer_tui.cli import build_parser, main
from dealer_tui.games import GAMES
from dealer_tui.ledger import SqliteLedger
from dealer_tui.ledger.base import STAFF_REGISTER
from dealer_tui.ledger.witness import Witness, default_witness_dir, default_witness_path
from dealer_tui.rounds.base import Phase
from dealer_tui.rounds.cards import VirtualShoe
from dealer_tui.rounds.table import Table
from rules.profiles.loader import ProfileLibrary
from tests.staff_support import demo, staffed_table

HCF = ProfileLibrary().find("high-card-flush-casino")


pytestmark = pytest.mark.usefixtures("staff_pins")


def heads(path: Path, staff: bool = False) -> dict[int, int]:
    """The tables' heads the witness holds (with `staff`, the staff register's too)."""
    data = json.loads(path.read_text())
    return {h["table"]: h["ledger_seq"] for h in data["tables"] if staff or h["table"] != STAFF_REGISTER}


def last_seq(ledger: Path, table: str = "table_id <> 0") -> int:
    """The last event's place in the ledger-wide sequence (of the tables, not the staff register)."""
    db = sqlite3.connect(ledger)
    try:
        return int(db.execute(f"SELECT MAX(ledger_seq) FROM events WHERE {table}").fetchone()[0])
    finally:
        db.close()


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out + err


def new_table(ledger: SqliteLedger) -> Table:
    table = staffed_table(ledger, "W1", HCF, VirtualShoe.seeded_with(2), seats=7)
    for seat in (1, 2):
        table.seat_player(seat, f"P{seat}", HCF.profile.buy_in.max, document=f"passport X{seat:07}")
    return table


def play(table: Table, rng: random.Random, actions: int | None = None) -> None:
    rnd = table.round if table.round is not None and table.round.phase not in (Phase.DONE, Phase.VOID) \
        else table.start_round()
    choose = GAMES.find(table.record.game).demo
    while rnd.phase not in (Phase.DONE, Phase.VOID) and actions != 0:
        table.act(choose(rnd, rng))
        actions = None if actions is None else actions - 1


def test_the_default_witness_is_in_the_state_directory_one_per_ledger(tmp_path: Path) -> None:
    ledger = tmp_path / "a" / "ledger.sqlite"
    path = default_witness_path(ledger)
    assert path.parent == default_witness_dir()
    assert default_witness_dir().is_relative_to(Path(os.environ["XDG_STATE_HOME"]))
    assert "witness" in path.name and path.parent != ledger.parent
    assert default_witness_path(tmp_path / "b" / "ledger.sqlite") != path   # same name, another ledger
    os.chdir(tmp_path)
    assert default_witness_path(Path("a/ledger.sqlite")) == path            # the resolved path names it


def test_verify_help_names_the_default_witness(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["history", "verify", "--help"])
    out = "".join(capsys.readouterr().out.split())   # the help wraps lines wherever it likes
    assert "--witnessFILE" in out and str(default_witness_dir()) in out


def test_demo_writes_the_default_witness_and_verify_compares_with_it(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    ledger = tmp_path / "ledger.sqlite"
    assert run(demo("--game", "high-card-flush", "--rounds", "3", "--seed", "1", "--ledger", str(ledger)),
               capsys)[0] == 0
    witness = default_witness_path(ledger)
    data = json.loads(witness.read_text())
    assert data["ledger"] == str(ledger.resolve()) and heads(witness) == {1: last_seq(ledger)}
    assert heads(witness, staff=True)[STAFF_REGISTER] == last_seq(ledger, "table_id = 0")  # the sign-ins too
    status, out = run(["history", "verify", "--ledger", str(ledger)], capsys)
    assert status == 0 and f"its witness {witness} agrees" in out
    db = sqlite3.connect(ledger)   # the last round taken out, its events and the table's after it (the closer)
    db.execute("DELETE FROM events WHERE table_id = 1 AND seq >= (SELECT MIN(seq) FROM events WHERE round_id = 3)")
    db.execute("DELETE FROM settlements WHERE round_id = 3")
    db.execute("DELETE FROM round_flags WHERE round_id = 3")
    db.execute("DELETE FROM rounds WHERE id = 3")
    db.commit()
    db.close()
    status, out = run(["history", "verify", "--ledger", str(ledger)], capsys)
    assert status == 1 and "the ledger is behind its witness" in out


def test_demo_and_the_terminal_take_witness_to_move_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ledger, witness = tmp_path / "l.sqlite", tmp_path / "elsewhere" / "w.json"
    assert run(demo("--game", "one-or-five", "--rounds", "2", "--ledger", str(ledger), "--witness",
                str(witness)), capsys)[0] == 0
    assert heads(witness) == {1: last_seq(ledger)} and not default_witness_path(ledger).exists()
    assert run(["history", "verify", "--ledger", str(ledger), "--witness", str(witness)], capsys)[0] == 0
    args = build_parser()[0].parse_args(["--ledger", str(ledger), "--witness", str(witness)])
    assert args.witness == witness

    from dealer_tui.app import make_app

    app = make_app(ledger, witness=witness)
    assert isinstance(app.ledger, SqliteLedger) and app.ledger.witness is not None
    assert app.ledger.witness.path == witness
    app.ledger.close()


def test_the_witness_is_written_after_each_table_event_and_each_finished_round(tmp_path: Path) -> None:
    path, witness = tmp_path / "l.sqlite", tmp_path / "w" / "w.json"
    ledger = SqliteLedger(path, witness=Witness(witness))
    table = new_table(ledger)
    assert heads(witness) == {1: last_seq(path)}             # the seatings
    rng = random.Random(1)
    play(table, rng, actions=2)                              # a round under way: no rewrite
    before = heads(witness)
    assert before[1] < last_seq(path)
    play(table, rng)                                         # settled
    assert heads(witness) == {1: last_seq(path)}
    table.buy_chips(1, HCF.profile.buy_in.min)
    assert heads(witness) == {1: last_seq(path)}
    leftovers = sorted(p.name for p in witness.parent.iterdir())
    assert leftovers == ["w.json", "w.json.lock"]            # no temporary file left behind
    assert stat.S_IMODE(witness.stat().st_mode) == 0o600
    ledger.close()


def test_a_witness_that_cannot_be_written_does_not_stop_the_table(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path, witness = tmp_path / "l.sqlite", tmp_path / "w.json"
    ledger = SqliteLedger(path, witness=Witness(witness))
    table = new_table(ledger)
    written = witness.read_text()

    def refuse(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    play(table, random.Random(2))
    assert ledger.witness is not None and "No space left on device" in (ledger.witness.error or "")
    assert witness.read_text() == written                   # the old witness, whole
    assert [r.status for r in ledger.table_rounds(1)] == ["settled"]
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    ledger.close()


def test_a_head_the_ledger_lost_stays_in_the_witness_after_new_rounds(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Rolled back to an older copy and played on past the old head: the witness still says so."""
    path, witness = tmp_path / "l.sqlite", tmp_path / "w" / "w.json"
    ledger = SqliteLedger(path, witness=Witness(witness))
    table = new_table(ledger)
    play(table, random.Random(3))
    ledger.close()
    older = tmp_path / "older.sqlite"
    shutil.copy(path, older)
    ledger = SqliteLedger(path, witness=Witness(witness))
    table = Table.open(ledger, ledger.tables()[0], GAMES.find(HCF.game), HCF, VirtualShoe.seeded_with(3))
    play(table, random.Random(4))
    ledger.close()
    lost_head = heads(witness)[1]
    shutil.copy(older, path)
    for name in ("l.sqlite-wal", "l.sqlite-shm"):
        (tmp_path / name).unlink(missing_ok=True)
    ledger = SqliteLedger(path, witness=Witness(witness))
    table = Table.open(ledger, ledger.tables()[0], GAMES.find(HCF.game), HCF, VirtualShoe.seeded_with(5))
    for seed in (5, 6):
        play(table, random.Random(seed))
    ledger.close()
    assert last_seq(path) > lost_head
    data = json.loads(witness.read_text())
    assert [(h["table"], h["ledger_seq"]) for h in data["lost"]] == [(1, lost_head)]
    status, out = run(["history", "verify", "--ledger", str(path), "--witness", str(witness)], capsys)
    assert status == 1 and f"the witness held event {lost_head} as this table's last" in out


def test_the_witness_of_another_ledger_is_left_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    witness = tmp_path / "w.json"
    assert run(demo("--game", "one-or-five", "--rounds", "1", "--ledger", str(tmp_path / "a.sqlite"),
                "--witness", str(witness)), capsys)[0] == 0
    written = witness.read_text()
    status, out = run(demo("--game", "one-or-five", "--rounds", "1", "--ledger", str(tmp_path / "b.sqlite"),
                       "--witness", str(witness)), capsys)
    assert status == 0 and "warning: the witness" in out and "is the witness of another ledger" in out
    assert witness.read_text() == written


def test_verify_names_a_missing_or_damaged_witness(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ledger = tmp_path / "l.sqlite"
    assert run(demo("--game", "one-or-five", "--rounds", "1", "--ledger", str(ledger)), capsys)[0] == 0
    status, out = run(["history", "verify", "--ledger", str(ledger), "--witness", str(tmp_path / "none.json")], capsys)
    assert status == 2 and "no such file" in out
    damaged = tmp_path / "damaged.json"
    damaged.write_text("{\"format\": \"dealer-tui witness 1\", \"tables\": [{\"table\": 1}]}")
    status, out = run(["history", "verify", "--ledger", str(ledger), "--witness", str(damaged)], capsys)
    assert status == 1 and "witness: a head is incomplete" in out
