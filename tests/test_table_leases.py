"""One terminal per table: the second terminal on a table is refused, naming the first and since
when; a dead terminal's table is taken over (recorded in the chain); a terminal whose table was
taken over writes nothing more; a clean exit frees the table at once."""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from dealer_tui.audit import verify_ledger
from dealer_tui.cli import main
from dealer_tui.games import GAMES
from dealer_tui.games.high_card_flush.steps import Ante
from dealer_tui.ledger import SqliteLedger
from dealer_tui.ledger.base import LEASE_TIMEOUT_S, LeaseLost, TableInUse
from dealer_tui.rounds.base import Phase
from dealer_tui.rounds.cards import VirtualShoe
from dealer_tui.rounds.table import Table
from rules.errors import IllegalAction
from rules.profiles.loader import ProfileLibrary
from tests.staff_support import demo, on_duty, staffed_table
from tests.tui_support import on_top

PROFILE = ProfileLibrary([]).find("high-card-flush")
SIZE = (120, 36)


pytestmark = pytest.mark.usefixtures("staff_pins")


def new_table(path: Path) -> Table:
    table = staffed_table(SqliteLedger(path), "Main 1", PROFILE, VirtualShoe(random.Random(3)), seats=7)
    for seat, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")):
        table.seat_player(seat, name, 5000)
    return table


def open_table(path: Path) -> Table:
    ledger = SqliteLedger(path)
    return Table.open(ledger, ledger.tables()[0], GAMES.find(PROFILE.game), PROFILE, VirtualShoe(random.Random(3)))


def test_a_takeover_notice_in_the_readers_language(tmp_path: Path) -> None:
    """A table open on another terminal, and a table taken over, told to a Hungarian dealer: the
    terminal, its process and host named as they are, in Hungarian words."""
    from dealer_tui.language import told, told_error, use
    from dealer_tui.ledger.base import Lease

    path = tmp_path / "ledger.sqlite"
    first = new_table(path)
    with pytest.raises(TableInUse) as refused:
        open_table(path)
    use("hu")
    told_in_use = told_error(refused.value)
    assert told_in_use.startswith(f"a(z) 'Main 1' asztal egy másik terminálon van nyitva: a(z) {first.ledger.terminal} "
                                  "terminál (folyamat: ")
    assert f"gép: {first.ledger.host}; az asztalt ekkor vette át: " in told_in_use
    assert told_in_use.endswith(" UTC); itt megtekinthető (csak olvasható), de nem játszható")
    lease = Lease(1, "ab12cd34", 4242, "pit-7", "2026-12-07T10:00:00.123456+00:00", 0.0)
    assert told_error(LeaseLost("'Main 1'", lease)) == (
        "a(z) 'Main 1' asztalt átvette: a(z) ab12cd34 terminál (folyamat: 4242, gép: pit-7; az asztalt ekkor vette át: "
        "2026-12-07 10:00:00 UTC); itt semmi sem rögzült; az asztal most azon a terminálon játszik")
    assert told(lease.describe()) == ("a(z) ab12cd34 terminál (folyamat: 4242, gép: pit-7; az asztalt ekkor vette át: "
                                      "2026-12-07 10:00:00 UTC)")
    use("ru")
    assert told_error(LeaseLost("'Main 1'", None)) == (
        "стол 'Main 1' перехвачен, его взял другой терминал (этот терминал больше не удерживал стол): здесь ничего не "
        "записано; теперь за этим столом играют на том терминале")


def test_a_second_terminal_on_the_table_is_refused_naming_the_first(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite"
    first = new_table(path)
    with pytest.raises(TableInUse) as refused:
        open_table(path)
    lease = refused.value.lease
    assert (lease.terminal, lease.host) == (first.ledger.terminal, first.ledger.host)
    assert f"terminal {first.ledger.terminal}" in str(refused.value)
    assert "is open on another terminal" in str(refused.value) and "it took the table at " in str(refused.value)
    first.start_round()  # the first terminal plays on: round 1, nobody else's round 1
    first.act(Ante(seat=2, amount=10))
    assert [r.number for r in first.ledger.table_rounds(first.record.id)] == [1]


def test_a_clean_exit_frees_the_table_at_once(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite"
    first = new_table(path)
    first.ledger.close()
    second = open_table(path)
    assert second.took_over is None
    assert second.ledger.table_lease(second.record.id).terminal == second.ledger.terminal
    assert "terminal_taken_over" not in [e.kind for e in second.ledger.table_events(second.record.id)]


def test_a_terminal_whose_table_was_taken_over_writes_nothing(tmp_path: Path) -> None:
    """A terminal silent past the heartbeat timeout (suspended, cut off) loses its table; its next
    step fails with a clear error, in the same transaction as the append: nothing is recorded and
    its round stays as it was."""
    path = tmp_path / "ledger.sqlite"
    first = new_table(path)
    first.start_round()
    first.act(Ante(seat=2, amount=10))
    db = sqlite3.connect(path)
    db.execute("UPDATE table_leases SET renewed_at = renewed_at - ?", (LEASE_TIMEOUT_S + 5,))
    db.commit()
    db.close()
    second = open_table(path)
    assert second.took_over is not None and second.took_over.terminal == first.ledger.terminal
    taken = [e for e in second.ledger.table_events(second.record.id) if e.kind == "terminal_taken_over"]
    assert len(taken) == 1 and "no heartbeat" in taken[0].payload["reason"]
    assert taken[0].payload["from"]["terminal"] == first.ledger.terminal
    rnd = first.round
    assert rnd is not None
    before = list(rnd.events)
    stored = len(first.ledger.round_events(first.round_id or 0))
    with pytest.raises(LeaseLost, match=f"taken over by terminal {second.ledger.terminal}"):
        first.act(Ante(seat=3, amount=10))
    with pytest.raises(LeaseLost):
        first.renew()
    assert rnd.events == before and rnd.seats[3].ante == 0
    assert len(first.ledger.round_events(first.round_id or 0)) == stored
    # the dealer was signed out with the terminal that stopped: whoever carries on signs in first
    assert second.session.dealer is None
    with pytest.raises(IllegalAction, match="No dealer is signed in for this hand: the dealer signs in with their PIN"):
        second.act(Ante(seat=3, amount=10))
    on_duty(second)
    second.act(Ante(seat=3, amount=10))  # the new terminal plays the recovered round on
    assert second.round is not None and second.round.seats[3].ante == 10
    assert verify_ledger(second.ledger, GAMES) == []


def test_a_live_terminal_on_another_host_keeps_its_table_until_its_heartbeat_stops(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite"
    new_table(path).ledger.close()
    db = sqlite3.connect(path)
    db.execute("INSERT INTO table_leases VALUES (1, 'pit-7', 999999, 'other-host', '2026-01-01T10:00:00+00:00', "
               "strftime('%s', 'now'))")
    db.commit()
    with pytest.raises(TableInUse, match=r"terminal pit-7 \(process 999999 on other-host; it took the table at 2026-01-01 10:00:00 UTC\)"):
        open_table(path)
    db.execute("UPDATE table_leases SET renewed_at = renewed_at - ?", (LEASE_TIMEOUT_S + 1,))
    db.commit()
    db.close()
    taken = open_table(path)
    assert taken.took_over is not None and taken.took_over.host == "other-host"


def test_the_heartbeat_renews_the_lease(tmp_path: Path) -> None:
    table = new_table(tmp_path / "ledger.sqlite")
    ledger = table.ledger
    first = ledger.table_lease(table.record.id)
    assert first is not None
    ledger._now = lambda: first.renewed_at + 40
    table.renew()
    renewed = ledger.table_lease(table.record.id)
    assert renewed is not None and renewed.renewed_at == first.renewed_at + 40 and renewed.since == first.since


HOLDER = """
import random, sys, time
from dealer_tui.games import GAMES
from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.cards import VirtualShoe
from dealer_tui.rounds.table import Table
from rules.profiles.loader import ProfileLibrary
ledger = SqliteLedger(sys.argv[1])
table = Table.open(ledger, ledger.tables()[0], GAMES.find(ledger.tables()[0].game), ProfileLibrary([]).find("high-card-flush"), VirtualShoe())
table.start_round()
print("holding", flush=True)
time.sleep(60)
"""


@pytest.mark.crash
def test_a_crashed_terminals_table_is_taken_over_and_the_takeover_recorded(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite"
    new_table(path).ledger.close()
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        with pytest.raises(TableInUse, match=f"process {holder.pid} on"):
            open_table(path)
        holder.send_signal(signal.SIGKILL)
        holder.wait(10)
    finally:
        holder.kill()
        holder.wait(10)
    table = open_table(path)
    assert table.took_over is not None and table.took_over.pid == holder.pid
    assert table.round is not None and table.round.phase is Phase.ANTE  # its round comes back
    taken = [e for e in table.ledger.table_events(table.record.id) if e.kind == "terminal_taken_over"]
    assert [e.payload["reason"] for e in taken] == [f"process {holder.pid} on {table.ledger.host} has ended"]
    assert taken[0].payload["terminal"] == table.ledger.terminal
    [signed_out] = [e for e in table.ledger.table_events(table.record.id) if e.kind == "dealer_signed_out"]
    assert signed_out.payload["reason"] == {"said": "the terminal that held the table stopped: the dealer signs in again",
                                            "values": {}}
    on_duty(table)                                                 # the dealer's PIN, on the new terminal
    table.act(Ante(seat=2, amount=10))
    assert verify_ledger(table.ledger, GAMES) == []


def test_a_connection_dropped_in_this_process_leaves_its_table_to_be_taken(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite"
    table = new_table(path)
    table.ledger._db.close()  # gone without a clean exit
    del table
    import gc

    gc.collect()
    assert open_table(path).took_over is not None


def test_demo_on_a_table_open_on_another_terminal_is_one_error_line(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ledger.sqlite"
    assert main(demo("--game", "high-card-flush", "--rounds", "1", "--seed", "1", "--table", "Main 1",
                 "--ledger", str(path))) == 0
    capsys.readouterr()
    holder = open_table(path)
    assert main(demo("--game", "high-card-flush", "--rounds", "1", "--table", "Main 1",
                 "--ledger", str(path))) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: table 'Main 1' is open on another terminal: terminal "
                                                   f"{holder.ledger.terminal} (process ")
    holder.ledger.close()
    assert main(demo("--game", "high-card-flush", "--rounds", "2", "--seed", "1", "--table", "Main 1",
                 "--ledger", str(path))) == 0  # freed: the demo plays on at the same table
    ledger = SqliteLedger(path, readonly=True)
    assert [r.number for r in ledger.table_rounds(1)] == [1, 2, 3] and len(ledger.tables()) == 1


async def test_a_second_terminal_shows_who_has_the_table_and_offers_a_read_only_review(tmp_path: Path) -> None:
    from dealer_tui.app import Options, make_app
    from dealer_tui.screens.ledger_fault import ReviewOnly, TableUnavailable
    from dealer_tui.screens.sign_in_modal import SignInModal
    from tests.staff_support import SUPERVISOR_KEYS
    from tests.tui_support import seated_app

    first = seated_app(tmp_path, "high-card-flush", [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cy", 5000)])
    second = make_app(tmp_path / "ledger.sqlite", options=Options(seed=5))
    async with first.run_test(size=SIZE) as pilot:
        await pilot.press("s", "y")
        assert first.table is not None and first.table.round is not None
        async with second.run_test(size=SIZE) as other:
            dialog = on_top(second)
            assert isinstance(dialog, TableUnavailable)
            assert f"terminal {first.ledger.terminal}" in dialog.question
            assert second.table is None
            await other.press("f")
            assert isinstance(second.screen, SignInModal)  # the review is the floor's: a sign-in first
            await other.press(*SUPERVISOR_KEYS)
            assert isinstance(second.screen, ReviewOnly)
            await other.press("escape")
            assert isinstance(on_top(second), TableUnavailable)
            await other.press("q")
        await pilot.press("2", "a", *"10", "enter")  # the first terminal plays on
        assert first.table.round.seats[2].ante == 10



async def test_a_terminal_whose_table_is_taken_over_says_so_and_stops_playing_it(tmp_path: Path) -> None:
    from dealer_tui.screens.ledger_fault import TableUnavailable
    from dealer_tui.screens.round_screen import RoundScreen
    from tests.tui_support import seated_app

    app = seated_app(tmp_path, "high-card-flush", [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cy", 5000)])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "y")
        table = app.table
        assert table is not None and table.round is not None
        db = sqlite3.connect(tmp_path / "ledger.sqlite")
        db.execute("UPDATE table_leases SET renewed_at = renewed_at - ?", (LEASE_TIMEOUT_S + 5,))
        db.commit()
        db.close()
        other = open_table(tmp_path / "ledger.sqlite")  # the terminal looked dead: taken over
        await pilot.press("2", "a", *"10", "enter")
        dialog = on_top(app)
        assert isinstance(dialog, TableUnavailable)
        assert f"taken over by terminal {other.ledger.terminal}" in dialog.question
        assert app.table is None and not isinstance(app.screen_stack[-2], RoundScreen)
        assert table.round.seats[2].ante == 0 and other.round is not None
        await pilot.press("q")
    other.ledger.close()
