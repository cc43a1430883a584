"""Storage faults never crash and never lose: a full disk, a read-only disk or folder, an I/O error.
A step the storage refuses records nothing, is said in one plain line (the CLI) or a dialog with
retry (the terminal), and the round stays exactly where it was; the ledger still verifies. The
review reads a ledger on read-only media.

The disk tests mount a small tmpfs (root only; they skip where mounting is not permitted) and
fill it, or remount it read-only: as root, file modes do not stop a write."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from dealer_tui.audit import verify_ledger
from dealer_tui.cli import ledger_failure
from dealer_tui.games import GAMES
from dealer_tui.games.high_card_flush.steps import Ante
from dealer_tui.ledger import LedgerError, SqliteLedger
from dealer_tui.ledger.base import StorageError
from dealer_tui.ledger.storage import problem_of, storage_error
from dealer_tui.rounds.base import Phase
from dealer_tui.rounds.cards import VirtualShoe
from dealer_tui.rounds.steps import Deal
from dealer_tui.rounds.table import Table
from rules.profiles.loader import ProfileLibrary
from tests.staff_support import DEMO_PINS, cash_id, demo, staffed_table
from tests.tui_support import on_top

PROFILE = ProfileLibrary([]).find("high-card-flush")
SIZE = (120, 36)
PLAYERS = [(1, "Ann", 20000), (2, "Bob", 5000), (3, "Cy", 5000)]


@contextmanager
def tmpfs(where: Path, size: str = "1m") -> Iterator[Path]:
    """A small filesystem of its own at `where`, taken down afterwards."""
    if os.name != "posix" or os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root")
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"mounting a tmpfs is not permitted here ({done.stderr.strip()})")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True, check=False)


def remount_read_only(where: Path) -> None:
    done = subprocess.run(["mount", "-o", "remount,ro", str(where)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"remounting read-only is not permitted here ({done.stderr.strip()})")


def fill(where: Path) -> Path:
    """Every free byte of the filesystem taken by one file (removed to free the space)."""
    filler = where / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for chunk in (b"\0" * 65536, b"\0" * 512, b"\0"):
            try:
                while True:
                    os.write(fd, chunk)
            except OSError:
                pass
    finally:
        os.close(fd)
    return filler


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    """The command in a process of its own; a `demo` reads the test staff's PINs."""
    return subprocess.run([sys.executable, "-m", "dealer_tui.cli", *args], capture_output=True, text=True,
                          timeout=60, check=False, input=DEMO_PINS)


def ok(verified: subprocess.CompletedProcess[str]) -> bool:
    """`history verify` found nothing wrong (notes, such as a missing witness, aside)."""
    return verified.returncode == 0 and any(line.startswith("ok: ") for line in verified.stdout.splitlines())


def seated(path: Path, seed: int = 5) -> Table:
    table = staffed_table(SqliteLedger(path), "Main 1", PROFILE, VirtualShoe.seeded_with(seed), seats=7)
    for seat, name, stack in PLAYERS:
        table.seat_player(seat, name, stack, document=cash_id(seat, stack))
    return table


def anted(table: Table) -> Table:
    table.start_round()
    table.act(Ante(seat=2, amount=10))
    table.act(Ante(seat=3, amount=10))
    return table


def test_a_full_disk_refuses_the_step_in_one_clear_error_and_the_round_stays_where_it_was(tmp_path: Path) -> None:
    twin = anted(seated(tmp_path / "twin.sqlite"))  # the same table on a disk with room
    twin.act(Deal())
    with tmpfs(tmp_path / "disk") as disk:
        path = disk / "ledger.sqlite"
        table = anted(seated(path))
        rnd = table.round
        assert rnd is not None
        before, stored = list(rnd.events), len(table.ledger.round_events(table.round_id or 0))
        filler = fill(disk)
        with pytest.raises(StorageError) as refused:
            table.act(Deal())
        assert refused.value.problem == "disk full"
        assert str(refused.value).startswith(f"the ledger cannot be written: disk full ({path}: ")
        assert str(refused.value).endswith("nothing was recorded")
        assert rnd.events == before and rnd.phase is Phase.ANTE
        assert len(table.ledger.round_events(table.round_id or 0)) == stored
        verified = cli("history", "verify", "--ledger", str(path))  # on the full disk
        assert ok(verified), verified.stdout + verified.stderr
        filler.unlink()
        table.act(Deal())  # the same step again, once there is room: dealt as if never refused
        assert rnd.phase is not Phase.ANTE
        assert [e.payload for e in rnd.events if e.kind == "cards_dealt"] == \
            [e.payload for e in twin.round.events if e.kind == "cards_dealt"]  # type: ignore[union-attr]
        assert verify_ledger(table.ledger, GAMES) == []
        table.ledger.close()


@pytest.mark.slow
def test_the_command_line_says_disk_full_in_one_line(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "disk") as disk:
        path = disk / "ledger.sqlite"
        assert cli(*demo("--game", "high-card-flush", "--rounds", "1", "--seed", "1", "--ledger",
                         str(path))).returncode == 0
        filler = fill(disk)
        done = cli(*demo("--game", "high-card-flush", "--rounds", "3", "--seed", "2", "--ledger", str(path),
                         staff=False))
        assert done.returncode == 2
        assert done.stderr.count("\n") == 1, done.stderr
        assert done.stderr.startswith("error: the ledger cannot be written: disk full ("), done.stderr
        assert "internal error" not in done.stderr
        filler.unlink()
        verified = cli("history", "verify", "--ledger", str(path))
        assert verified.returncode == 0, verified.stdout + verified.stderr


@pytest.mark.slow
def test_a_ledger_on_a_read_only_disk_is_reviewed_and_refuses_writes_in_one_line(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "disk", "4m") as disk:
        path = disk / "ledger.sqlite"
        assert cli(*demo("--game", "one-or-five", "--rounds", "2", "--seed", "1", "--ledger",
                         str(path))).returncode == 0
        remount_read_only(disk)
        verified = cli("history", "verify", "--ledger", str(path))
        assert ok(verified), verified.stdout + verified.stderr
        listed = cli("history", "list", "--ledger", str(path))
        assert listed.returncode == 0 and "one-or-five" in listed.stdout
        review = SqliteLedger(path, readonly=True)  # what `dealer-tui floor` opens
        assert len(review.recent_rounds()) == 2 and review.table_lease(1) is None
        review.close()
        done = cli(*demo("--game", "one-or-five", "--rounds", "1", "--ledger", str(path), staff=False))
        assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
        assert done.stderr.startswith("error: the ledger cannot be "), done.stderr
        assert ": read-only (" in done.stderr, done.stderr
        with pytest.raises(StorageError, match="read-only"):
            SqliteLedger(path)


@pytest.mark.slow
def test_an_older_ledger_on_a_read_only_disk_verifies_and_says_its_roles_were_not_checked(tmp_path: Path) -> None:
    """A ledger from before settlement rows carried their role (schema 8), on storage that cannot
    be written (so it is not upgraded): it is read as it is, verifies, and verify says the roles
    were not checked rather than calling every row's missing role a problem."""
    with tmpfs(tmp_path / "disk", "4m") as disk:
        path = disk / "ledger.sqlite"
        assert cli(*demo("--game", "one-or-five", "--rounds", "2", "--seed", "1", "--ledger",
                         str(path))).returncode == 0
        older = sqlite3.connect(path)
        older.executescript("ALTER TABLE settlements DROP COLUMN role; PRAGMA user_version = 8")
        older.close()
        remount_read_only(disk)
        verified = cli("history", "verify", "--ledger", str(path))
        assert verified.returncode == 0, verified.stdout + verified.stderr
        assert "predates settlement rows carrying their bet's role (schema 9)" in verified.stdout, verified.stdout


CRASHING_WRITER = """
import os, random, signal, sys
from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.cards import VirtualShoe
from dealer_tui.games import GAMES
from dealer_tui.rounds.table import Table
from rules.profiles.loader import ProfileLibrary
table = Table.create(SqliteLedger(sys.argv[1]), "Main 1", GAMES.find("high-card-flush"), ProfileLibrary([]).find("high-card-flush"),
                     VirtualShoe(random.Random(1)), seats=7)
table.seat_player(1, "Ann", 1000)
os.kill(os.getpid(), signal.SIGKILL)
"""


@pytest.mark.crash
def test_a_crashed_terminals_ledger_on_a_read_only_disk_is_reviewed_with_its_last_writes(tmp_path: Path) -> None:
    """The writes still in the -wal file (no clean close) are read too."""
    with tmpfs(tmp_path / "disk") as disk:
        path = disk / "ledger.sqlite"
        killed = subprocess.run([sys.executable, "-c", CRASHING_WRITER, str(path)], capture_output=True, text=True,
                                timeout=60, check=False)
        assert killed.returncode == -signal.SIGKILL, killed.stderr
        assert (disk / "ledger.sqlite-wal").stat().st_size > 0
        remount_read_only(disk)
        verified = cli("history", "verify", "--ledger", str(path))
        assert verified.returncode == 0, verified.stdout + verified.stderr
        review = SqliteLedger(path, readonly=True)
        assert [t.name for t in review.tables()] == ["Main 1"]
        assert [e.kind for e in review.table_events(1)] == ["table_opened", "seat_taken"]
        review.close()


def test_a_read_only_folder_and_file_for_a_user(tmp_path: Path) -> None:
    if os.name != "posix" or os.geteuid() == 0:
        pytest.skip("file modes do not stop root from writing (the read-only mount tests cover it)")
    folder = tmp_path / "ro"
    folder.mkdir()
    path = folder / "ledger.sqlite"
    seated(path).ledger.close()
    path.chmod(0o444)
    folder.chmod(0o555)
    try:
        verified = cli("history", "verify", "--ledger", str(path))
        assert verified.returncode == 0, verified.stderr
        with pytest.raises(StorageError, match="read-only|permission"):
            SqliteLedger(path)
    finally:
        folder.chmod(0o755)
        path.chmod(0o644)


def fault(code: int, message: str) -> sqlite3.OperationalError:
    exc = sqlite3.OperationalError(message)
    exc.sqlite_errorcode = code  # type: ignore[attr-defined]
    return exc


def test_storage_faults_are_named() -> None:
    assert problem_of(fault(13, "database or disk is full")) == "disk full"
    assert problem_of(fault(8, "attempt to write a readonly database")) == "read-only"
    assert problem_of(fault(10, "disk I/O error")) == "I/O error"
    assert problem_of(fault(266, "disk I/O error")) == "I/O error"  # SQLITE_IOERR_READ
    assert problem_of(fault(1, "no such table: x")) is None
    assert problem_of(OSError(28, "No space left on device")) == "disk full"
    error = storage_error("/data/ledger.sqlite", fault(10, "disk I/O error"))
    assert isinstance(error, StorageError)
    assert str(error) == ("the ledger cannot be written: I/O error (/data/ledger.sqlite: disk I/O error); "
                          "nothing was recorded")
    assert ledger_failure(fault(13, "database or disk is full")) == (
        "the ledger cannot be written: disk full (database or disk is full); nothing was recorded")
    assert ledger_failure(LedgerError("no table 9")) == "no table 9"
    assert ledger_failure(ValueError("x")) is None


def test_a_full_disk_in_the_readers_language() -> None:
    """A full disk told to a Hungarian dealer: the fault and the dialog in Hungarian words, the
    ledger's path and the database's own words as they are; the fault stays the code `disk full`."""
    from dealer_tui.language import told_error, use
    from dealer_tui.screens.ledger_fault import StorageFault

    error = storage_error("/data/ledger.sqlite", fault(13, "database or disk is full"))
    assert isinstance(error, StorageError) and error.problem == "disk full"
    use("hu")
    assert told_error(error) == ("a napló nem írható: a lemez megtelt (/data/ledger.sqlite: database or disk is full); "
                                 "semmi sem rögzült")
    assert StorageFault(error).question.startswith(
        "Semmi sem rögzült. A napló nem írható: a lemez megtelt (/data/ledger.sqlite: database or disk is full).\n")
    use("pl")
    assert told_error(error) == ("nie można zapisać rejestru: dysk pełny (/data/ledger.sqlite: database or disk is "
                                 "full); nic nie zapisano")


class FailingCommit:
    """A connection whose COMMIT fails as on a full disk, after SQLite rolled the transaction back."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db, self.failures = db, 1

    def execute(self, sql: str, *args: Any) -> Any:
        if sql == "COMMIT" and self.failures:
            self.failures -= 1
            self.db.execute("ROLLBACK")
            raise fault(13, "database or disk is full")
        return self.db.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)


def test_a_commit_refused_after_sqlite_rolled_back_is_one_clear_error_not_cannot_rollback(tmp_path: Path) -> None:
    table = anted(seated(tmp_path / "ledger.sqlite"))
    ledger = table.ledger
    real = ledger._db  # type: ignore[attr-defined]
    ledger._db = FailingCommit(real)  # type: ignore[attr-defined]
    rnd = table.round
    assert rnd is not None
    before = list(rnd.events)
    with pytest.raises(StorageError, match="disk full") as refused:
        table.act(Deal())
    assert "rollback" not in str(refused.value)
    assert rnd.events == before
    table.act(Deal())
    assert rnd.phase is not Phase.ANTE and verify_ledger(ledger, GAMES) == []


def test_a_round_start_refused_by_the_storage_leaves_no_round(tmp_path: Path) -> None:
    table = seated(tmp_path / "ledger.sqlite")
    ledger = table.ledger
    ledger._db = FailingCommit(ledger._db)  # type: ignore[attr-defined]
    with pytest.raises(StorageError):
        table.start_round()
    assert table.round is None and ledger.table_rounds(table.record.id) == []
    assert table.start_round().phase is Phase.ANTE
    assert [r.number for r in ledger.table_rounds(table.record.id)] == [1]
    assert "seeded" in ledger.table_rounds(table.record.id)[0].flags  # in the round's own transaction


async def test_the_terminal_says_nothing_was_recorded_and_the_step_is_tried_again(tmp_path: Path) -> None:
    from dealer_tui.screens.ledger_fault import StorageFault
    from dealer_tui.screens.round_screen import RoundScreen
    from tests.tui_support import seated_app

    app = seated_app(tmp_path, "high-card-flush", PLAYERS)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "y")
        table = app.table
        assert table is not None and table.round is not None
        rnd, real = table.round, app.ledger.append
        failures = [StorageError(f"the ledger cannot be written: disk full ({app.ledger.path}: database or disk "
                                 "is full); nothing was recorded", "disk full")] * 2

        def append(*args: Any, **kwargs: Any) -> Any:
            if failures:
                raise failures.pop()
            return real(*args, **kwargs)

        app.ledger.append = append  # type: ignore[method-assign]
        before = list(rnd.events)
        stored = len(app.ledger.round_events(table.round_id or 0))
        await pilot.press("2", "a", *"50", "enter")
        dialog = on_top(app)
        assert isinstance(dialog, StorageFault)
        assert dialog.question.startswith("Nothing was recorded. The ledger cannot be written: disk full (")
        assert "free space on the ledger's disk" in dialog.question
        assert rnd.events == before and rnd.seats[2].ante == 0  # nothing shown that is not recorded
        await pilot.press("b")                                  # back: the round as it was, and said so
        assert isinstance(on_top(app), RoundScreen) and rnd.seats[2].ante == 0
        await pilot.press("2", "a", *"50", "enter")
        assert isinstance(on_top(app), StorageFault)
        await pilot.press("r")                                  # the storage is back: the retry lands
        assert isinstance(on_top(app), RoundScreen)
        assert rnd.seats[2].ante == 50
        assert len(app.ledger.round_events(table.round_id or 0)) == stored + 1
        assert verify_ledger(app.ledger, GAMES) == []



def test_a_tray_step_refused_by_a_full_disk_records_nothing_and_stands_once_there_is_room(tmp_path: Path) -> None:
    """A fill signed by the dealer and the supervisor, refused by a full disk: the tray's figures
    are as before, verify is clean on the full disk, and the same signatures carry the fill once
    there is room (they stood for nothing that was recorded)."""
    from tests.accounting_support import both, casino_table

    with tmpfs(tmp_path / "disk", size="2m") as disk:
        table, crew = casino_table(disk)
        table.money.open_shift({"1000": 10}, *both(crew, table))
        shift = table.tray.shift
        assert shift is not None and shift.expected == 10_000
        signatures = both(crew, table)
        filler = fill(disk)
        with pytest.raises(StorageError) as refused:
            table.money.fill("F-1", {"1000": 5}, *signatures)
        assert refused.value.problem == "disk full" and str(refused.value).endswith("nothing was recorded")
        assert (table.tray.shift.fills, table.tray.shift.expected, table.tray.slips) == (0, 10_000, {})
        verified = cli("history", "verify", "--ledger", str(disk / "ledger.sqlite"))
        assert ok(verified), verified.stdout + verified.stderr
        filler.unlink()
        table.money.fill("F-1", {"1000": 5}, *signatures)
        assert (table.tray.shift.fills, table.tray.shift.expected) == (5_000, 15_000)
        assert verify_ledger(table.ledger, GAMES) == []
        table.ledger.close()
