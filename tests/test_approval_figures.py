"""Every approval signs what it approves: a payout's sign-off signs its figures (the amount paid
and every row), at the table and at the floor, and a decision of the pit's floor is held field by
field against the round it names before the terminal records it. Each attack is carried out as
an insider would."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from dealer_tui.audit import verify_ledger
from dealer_tui.games import GAMES
from dealer_tui.games.high_card_flush.steps import Ante
from dealer_tui.ledger import SqliteLedger
from dealer_tui.ledger.base import STAFF_REGISTER, NewEvent
from dealer_tui.ledger.postgres import PgLedger
from dealer_tui.rounds.steps import ConfirmPayout, SendToFloor, Void
from dealer_tui.rounds.table import Table
from dealer_tui.screens.payout_dialog import FloorRequest
from dealer_tui.staff import DEAL, SIGN_OFF, Purpose, StaffDesk
from tests.hcf_support import big_payout_table as seated_table
from tests.hcf_support import big_win
from tests.insider_support import rehash
from tests.pg_support import floor_login
from tests.pit_support import DEALER, DEALER_PIN, SUPER, SUPER_PIN, pit_with_staff, terminal
from tests.staff_support import approval, staffed


def big_payout_table(ledger: SqliteLedger) -> Table:
    """HCF: seat 2 wins 500 + 1000 + 100 x 10 + 100 x 60 = 8500 against the Designated Player at
    seat 1, dealt by the pit's dealer."""
    table = seated_table(ledger, StaffDesk(ledger).sign_in(DEALER, DEALER_PIN, Purpose(DEAL, "deal", 1)))
    big_win(table)
    return table


def test_a_signed_off_payout_rewritten_consistently_is_named_by_its_signature(tmp_path: Path) -> None:
    """Sign-off at the table: the supervisor's sign-in signs the payout's figures. An insider
    rewrites the approved payout (seat 2 paid 8500 becomes 9500, the banker's row and the total
    with it) and re-hashes the chain: the sign-in no longer signs what the round records."""
    path = tmp_path / "t.sqlite"
    ledger = SqliteLedger(path)
    table = seated_table(ledger)
    big_win(table)
    table.act(ConfirmPayout(**approval(table, SIGN_OFF)))
    assert verify_ledger(ledger, GAMES) == []
    ledger.close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE events SET payload = json_set(payload, '$.rows[1].result', 1900, '$.paid', "
                   "json_extract(payload, '$.paid') + 1000) WHERE kind = 'payout_confirmed'")
    rehash(path)
    problems = verify_ledger(SqliteLedger(path), GAMES)
    assert any("which signed other figures" in p and "they were changed since" in p for p in problems)


def test_a_pit_floor_decision_replayed_for_another_tables_round_is_not_recorded(tmp_path: Path,
                                                                                pit_db: str) -> None:
    """Attack 2: a floor login appends a supervisor's real sign-in (made at the pit for another
    table's round 1) as the decision for this table's round 1 — once naming the other table, once
    naming this one: the terminal records neither, the round still waits, and the pit raises the
    alarm."""
    pit = pit_with_staff(pit_db)
    ledger, delivery = terminal(tmp_path / "t.sqlite", pit_db)
    table = big_payout_table(ledger)
    table.act(SendToFloor())
    delivery.once()
    waiting = pit.sign_off_queue()
    assert len(waiting) == 1
    record, request = waiting[0].round, waiting[0].request
    elsewhere = StaffDesk(pit).sign_in(SUPER, SUPER_PIN, Purpose(SIGN_OFF, "another table's payout", 99, 1,
                                                                 signs=request.payload["figures"]))
    floor = PgLedger(floor_login(pit_db))
    origin = ledger.ledger_id()
    for pit_table in (99, record.table_id):
        floor.append(STAFF_REGISTER, None, [NewEvent("floor_decided", {
            "origin": origin, "table": table.record.id, "round": table.round_id, "number": 1, "pit_table": pit_table,
            "request": request.seq, "approved": True, "by": SUPER, "sign_in": elsewhere.sign_in, "reason": ""})])
    delivery.once()
    assert not FloorRequest(table).refresh()                            # still waiting for the floor
    alarms = [a[3] for a in pit.alarms()]
    assert any("not taken: it names the server's table 99, which is not table H1" in a for a in alarms)
    assert any("not taken: the sign-in it names" in a and "is not S7's for a sign-off of round 1 at the server's "
               f"table {record.table_id}" in a for a in alarms)


def test_a_pit_floor_sign_in_that_signed_other_figures_decides_nothing(tmp_path: Path, pit_db: str) -> None:
    """The supervisor's sign-in at the pit names the right table and round but signed other
    figures than the payout waits with: the terminal does not record the decision."""
    pit = pit_with_staff(pit_db)
    ledger, delivery = terminal(tmp_path / "t.sqlite", pit_db)
    table = big_payout_table(ledger)
    table.act(SendToFloor())
    delivery.once()
    record = pit.sign_off_queue()[0].round
    who = StaffDesk(pit).sign_in(SUPER, SUPER_PIN, Purpose(SIGN_OFF, "approve", record.table_id, record.number,
                                                           signs="payout:" + "0" * 32))
    pit.decide_sign_off(record.id, True, SUPER, sign_in=who.sign_in)
    delivery.once()
    assert not FloorRequest(table).refresh()
    assert any("signed other figures than the payout round 1 waits with" in a[3] for a in pit.alarms())


def signed_for(crew, table, figures: str):  # type: ignore[no-untyped-def]
    """The dealer's and a supervisor's sign-ins for a tray step, each signing `figures`."""
    from dealer_tui.staff import TRAY
    from tests.staff_support import DEALER as D1
    from tests.staff_support import DEALER_PIN as D1_PIN
    from tests.staff_support import SUPERVISOR as S1
    from tests.staff_support import SUPERVISOR_PIN as S1_PIN

    return (crew.desk.sign_in(D1, D1_PIN, Purpose(DEAL, "confirm (test)", table.record.id, signs=figures)),
            crew.desk.sign_in(S1, S1_PIN, Purpose(TRAY, "witness (test)", table.record.id, signs=figures)))


def test_a_witnessed_fill_rewritten_consistently_is_named_by_its_signatures(tmp_path: Path) -> None:
    """The dealer and the supervisor sign the fill's chips and slip (10 x 100 on slip F-1). An
    insider makes it 20 x 100 (the total with it) and re-hashes: both sign-ins name other figures.
    Signing one fill and recording another is refused at the table."""
    import pytest

    from rules.errors import IllegalAction
    from tests.accounting_support import OPENER, casino_table

    table, crew = casino_table(tmp_path)
    table.money.open_shift(OPENER, *signed_for(crew, table, table.money.count_figures("opener", OPENER)))
    with pytest.raises(IllegalAction, match="signed other figures"):
        table.money.fill("F-1", {"100": 20}, *signed_for(crew, table, table.money.transfer_figures("fill", "F-1", {"100": 10})))
    table.money.fill("F-1", {"100": 10}, *signed_for(crew, table, table.money.transfer_figures("fill", "F-1", {"100": 10})))
    path = tmp_path / "ledger.sqlite"
    assert verify_ledger(SqliteLedger(path), GAMES) == []
    table.ledger.close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE events SET payload = json_set(payload, '$.chips.\"100\"', 20, '$.total', 2000)"
                   " WHERE kind = 'tray_filled'")
    rehash(path)
    problems = [p for p in verify_ledger(SqliteLedger(path), GAMES) if "signed other figures" in p]
    assert len(problems) == 2                                        # the dealer's and the witness's


def test_a_void_signs_what_each_seat_gets_back(tmp_path: Path) -> None:
    """A void's sign-in signs the chips each seat gets back; a void recorded with other returns
    (a rewrite) no longer matches it."""
    from dealer_tui.staff import VOID
    from tests.staff_support import SUPERVISOR as S1
    from tests.staff_support import SUPERVISOR_PIN as S1_PIN

    path = tmp_path / "t.sqlite"
    ledger = SqliteLedger(path)
    crew = staffed(ledger)
    table = seated_table(ledger)
    table.act(Ante(seat=2, amount=500))
    rnd = table.round
    assert rnd is not None
    who = crew.desk.sign_in(S1, S1_PIN, Purpose(VOID, "void (test)", table.record.id, 1, signs=rnd.void_figures()))
    table.act(Void(reason="misdeal", supervisor=who.account, sign_in=who.sign_in))
    assert verify_ledger(ledger, GAMES) == []
    ledger.close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE events SET payload = json_set(payload, '$.returned.\"2\"', 5000) WHERE kind = 'round_voided'")
    rehash(path)
    assert any("signed other figures" in p for p in verify_ledger(SqliteLedger(path), GAMES))
