"""An insider with sqlite3 against `history verify`: a ledger played through the table runner is
changed the way someone with the file in hand would change it, and verify must exit 1 naming
what differs. The honest ledgers (as played, and upgraded from an older schema) verify ok."""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import pytest

from dealer_tui.games import GAMES
from dealer_tui.language import language
from dealer_tui.ledger import SqliteLedger
from dealer_tui.ledger.witness import Witness
from dealer_tui.rounds.base import Phase
from dealer_tui.rounds.cards import VirtualShoe
from dealer_tui.rounds.steps import Void
from dealer_tui.rounds.table import Table
from dealer_tui.staff import VOID
from rules.profiles.loader import ProfileLibrary
from rules.said import Said
from tests.floor_support import FixedClock, rewind, sql_rows
from tests.insider_support import fails, one, rehash, sql, verify
from tests.staff_support import staffed, staffed_table

HCF = ProfileLibrary().find("high-card-flush-casino")
RUSSIAN = ProfileLibrary().find("one-or-five")


@dataclass(frozen=True)
class Played:
    ledger: Path
    witness: Path
    older: Path
    """A copy of the ledger taken part way through (the witness was written on after it)."""


def play(table: Table, rng: random.Random) -> None:
    rnd = table.start_round()
    choose = GAMES.find(table.record.game).demo
    while rnd.phase not in (Phase.DONE, Phase.VOID):
        table.act(choose(rnd, rng))


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """Two tables played in turn (their events interleave in the ledger), a player joining, buying
    and leaving, a voided round and a round left open at the end; the witness kept elsewhere."""
    where = tmp_path_factory.mktemp("played")
    path, witness = where / "ledger" / "ledger.sqlite", where / "state" / "ledger.witness.json"
    ledger = SqliteLedger(path, clock=FixedClock(step=97), witness=Witness(witness))
    flush = staffed_table(ledger, "Flush 1", HCF, VirtualShoe.seeded_with(5), seats=7)
    russian = staffed_table(ledger, "Russian 1", RUSSIAN, VirtualShoe.seeded_with(6), seats=5)
    for table in (flush, russian):
        for seat in (1, 2, 3):
            table.seat_player(seat, f"Player {seat}", table.profile.profile.buy_in.max,
                              document=f"passport X{seat:07}")
    rng = random.Random(3)
    for turn in range(8):
        play(flush, rng)
        play(russian, rng)
        if turn == 2:
            flush.seat_player(4, "Late Comer", HCF.profile.buy_in.min)
            flush.buy_chips(2, HCF.profile.buy_in.min)
            russian.leave(3)
        if turn == 4:
            older = where / "older.sqlite"
            copy = sqlite3.connect(older)
            ledger._db.backup(copy)
            copy.close()
    rnd = flush.start_round()
    flush.act(GAMES.find(HCF.game).demo(rnd, rng))
    flush.act(Void(reason="a card turned over", **staffed(ledger).approval(flush, VOID)))
    rnd = russian.start_round()
    russian.act(GAMES.find(RUSSIAN.game).demo(rnd, rng))  # left open
    ledger.close()
    assert witness.exists()
    return Played(path, witness, older)


@pytest.fixture()
def copy(played: Played, tmp_path: Path) -> Path:
    """The played ledger, copied for one attack; the witness stays as the writer left it."""
    target = tmp_path / "ledger" / "ledger.sqlite"
    target.parent.mkdir()
    shutil.copy(played.ledger, target)
    return target


def settled_round(path: Path, table_id: int = 1) -> int:
    """A settled round of the table that paid something."""
    return int(one(path, "SELECT id FROM rounds WHERE table_id = ? AND status = 'settled' AND paid > 0"
                         " ORDER BY id LIMIT 1", (table_id,))[0])


def delete_table(path: Path, table_id: int) -> None:
    sql(path, *(f"DELETE FROM {t} WHERE round_id IN (SELECT id FROM rounds WHERE table_id = {table_id})"
                for t in ("settlements", "round_flags")),
        *(f"DELETE FROM {t} WHERE table_id = {table_id}"
          for t in ("events", "hourly_totals", "seatings", "table_leases", "rounds")),
        f"DELETE FROM tables WHERE id = {table_id}")


# -- the honest ledgers ----------------------------------------------------------------------------


def test_a_played_ledger_verifies_ok_against_its_witness(played: Played, copy: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    status, out = verify(copy, capsys, played.witness)
    assert status == 0, out
    assert "ok:" in out and "(18 rounds)" in out and "its witness" in out and "agrees (2 table head(s), and the staff register's)" in out


def test_a_ledger_upgraded_from_an_older_schema_verifies_ok(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Schema 3 (no returned, from stacks, banking; the old paid; no ledger-wide sequence; each
    hash without it), upgraded on opening; then played on, its new events hashed over their place."""
    rewind(copy, 3)
    assert one(copy, "PRAGMA user_version") == (3,)
    status, out = verify(copy, capsys)
    assert status == 0, out
    witness = copy.parent.parent / "state" / "witness.json"
    ledger = SqliteLedger(copy, witness=Witness(witness))
    record = ledger.tables()[0]
    table = Table.open(ledger, record, GAMES.find(HCF.game), HCF, VirtualShoe.seeded_with(9))
    staffed(ledger).deal(table)  # the upgrade's first start: the first manager, the staff, a dealer signs in
    play(table, random.Random(4))
    ledger.close()
    status, out = verify(copy, capsys, witness)
    assert status == 0, out
    assert "(19 rounds)" in out and "agrees" in out
    assert "table 1 (Flush 1): 1 approval(s) from before staff accounts, by a typed name with no sign-in" in out


def test_a_ledger_played_on_while_it_is_verified_verifies_ok(copy: Path, capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A terminal settles a round in the middle of a verify: the verify reads one snapshot."""
    from dealer_tui.audit import table_audit as audit

    finish = audit.TableAudit.finish_round
    played_on: list[int] = []

    def finish_and_play(self: audit.TableAudit, *args: object) -> None:
        if not played_on:
            writer = SqliteLedger(copy)
            play(Table.open(writer, writer.tables()[0], GAMES.find(HCF.game), HCF, VirtualShoe.seeded_with(8)), random.Random(8))
            played_on.append(len(writer.table_rounds(1)))
            writer.close()
        finish(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(audit.TableAudit, "finish_round", finish_and_play)
    status, out = verify(copy, capsys)
    assert status == 0, out
    assert played_on == [10] and "(18 rounds)" in out


# -- a round's stored row --------------------------------------------------------------------------


def test_editing_a_rounds_paid(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rid = settled_round(copy)
    sql(copy, f"UPDATE rounds SET paid = paid + 100 WHERE id = {rid}")
    fails(copy, capsys, f"(id {rid}): stored paid")


def test_editing_a_rounds_wagered(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rid = settled_round(copy, 2)
    sql(copy, f"UPDATE rounds SET wagered = wagered - 5 WHERE id = {rid}")
    fails(copy, capsys, "table 2 (Russian 1)", f"(id {rid}): stored wagered")


def test_editing_a_rounds_house_result(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rid = settled_round(copy)
    sql(copy, f"UPDATE rounds SET house_result = house_result + 40, paid = paid - 40 WHERE id = {rid}")
    fails(copy, capsys, f"(id {rid}): stored house_result", f"(id {rid}): stored paid")


def test_editing_a_rounds_status(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rid = settled_round(copy)
    sql(copy, f"UPDATE rounds SET status = 'voided' WHERE id = {rid}")
    fails(copy, capsys, f"(id {rid}): stored as voided; its events make it settled")


def test_editing_a_rounds_flags(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rid = settled_round(copy)
    sql(copy, f"UPDATE rounds SET flags = 'seeded,signed_off' WHERE id = {rid}",
        f"INSERT INTO round_flags(flag, round_id) VALUES ('signed_off', {rid})")
    fails(copy, capsys, f"(id {rid}): stored flags 'seeded,signed_off'; its events give 'seeded'",
          f"(id {rid}): the flag index lists 'seeded,signed_off'")


def test_editing_a_rounds_banking_and_biggest_payout(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rid = settled_round(copy)
    sql(copy, f"UPDATE rounds SET banking = 'dp', max_payout = 0, fees = 3 WHERE id = {rid}")
    fails(copy, capsys, f"(id {rid}): stored banking 'dp'", f"(id {rid}): stored max_payout 0",
          f"(id {rid}): stored fees 3")


def test_moving_a_round_to_another_hour(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rid = settled_round(copy)
    sql(copy, f"UPDATE rounds SET started_at = '2026-03-07T03:00:00.000000+00:00' WHERE id = {rid}")
    fails(copy, capsys, f"(id {rid}): stored as started at 2026-03-07T03:00:00")


# -- the hourly totals -----------------------------------------------------------------------------


def test_editing_an_hourly_total(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hour, table_id = one(copy, "SELECT hour, table_id FROM hourly_totals ORDER BY hour, table_id LIMIT 1")
    sql(copy, "UPDATE hourly_totals SET house = house - 25 WHERE hour = ? AND table_id = ?", args=(hour, table_id))
    fails(copy, capsys, f"table {table_id}, hour {str(hour).replace('T', ' ')}:00", "hourly totals stored house")


def test_deleting_an_hourly_total(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hour, table_id = one(copy, "SELECT hour, table_id FROM hourly_totals ORDER BY hour DESC LIMIT 1")
    sql(copy, "DELETE FROM hourly_totals WHERE hour = ? AND table_id = ?", args=(hour, table_id))
    fails(copy, capsys, f"table {table_id}, hour {str(hour).replace('T', ' ')}:00", "no hourly totals stored")


# -- settlement rows -------------------------------------------------------------------------------


def test_editing_a_settlement_row_of_a_settled_round(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rid = settled_round(copy)
    seat, bet = one(copy, f"SELECT seat, bet FROM settlements WHERE round_id = {rid} AND result > 0 LIMIT 1")
    sql(copy, f"UPDATE settlements SET result = result + 10 WHERE round_id = {rid} AND seat = {seat} AND bet = '{bet}'")
    fails(copy, capsys, f"(id {rid}): the settlement rows differ from the rules' settlement", f"seat {seat} {bet}")


def test_the_record_holds_each_reason_as_its_message_and_figures_not_a_sentence(copy: Path) -> None:
    """The record stays language-neutral: a payout's reasons are stored as the message and its
    values, in the payout event as in the settlement rows, and read back as the same sentence."""
    rid = settled_round(copy)
    payload = json.loads(str(one(copy, f"SELECT payload FROM events WHERE round_id = {rid} AND kind = 'payout_confirmed'")[0]))
    for row in payload["rows"]:
        assert set(row["reason"]) == {"said", "values"}, row
    stored = [str(r) for r, in sql_rows(copy, f"SELECT reason FROM settlements WHERE round_id = {rid}")]
    assert stored and all(json.loads(r)["said"] for r in stored), stored
    ante = json.loads(str(one(copy, f"SELECT reason FROM settlements WHERE round_id = {rid} AND bet = 'ante' LIMIT 1")[0]))
    assert ante["values"]["bet"] == {"said": "Ante", "values": {}, "context": "bet"}


def test_a_reasons_figure_changed_in_the_stored_row(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The insider leaves the chips alone and rewrites what a row says of them: verify compares the
    reasons' messages and values, so the row no longer is the rules' settlement."""
    rid = settled_round(copy)
    seat, reason = one(copy, f"SELECT seat, reason FROM settlements WHERE round_id = {rid} AND bet = 'ante' LIMIT 1")
    said = json.loads(str(reason))
    said["values"]["stake"] = int(said["values"]["stake"]) + 1000
    sql(copy, "UPDATE settlements SET reason = ? WHERE round_id = ? AND seat = ? AND bet = 'ante'",
        args=(json.dumps(said), rid, seat))
    fails(copy, capsys, f"(id {rid}): the settlement rows differ from the rules' settlement", f"seat {seat} ante")


def test_a_stored_reason_that_is_not_a_sentence_reads_as_its_text(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A row whose reason is broken JSON is shown as the text it holds, and verify names the row."""
    rid = settled_round(copy)
    seat = one(copy, f"SELECT seat FROM settlements WHERE round_id = {rid} AND bet = 'ante' LIMIT 1")[0]
    sql(copy, "UPDATE settlements SET reason = ? WHERE round_id = ? AND seat = ? AND bet = 'ante'",
        args=('{"said": "{bet}: wins", "values": {}}', rid, seat))
    fails(copy, capsys, f"(id {rid}): the settlement rows differ from the rules' settlement", f"seat {seat} ante")


def _english(value: object) -> object:
    """A payload as a ledger written before sentences held it: every stored sentence as its English."""
    if isinstance(value, dict):
        if {"said", "values"} <= set(value):
            return str(Said.from_record(value))
        return {k: _english(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_english(v) for v in value]
    return value


def test_a_ledger_written_before_sentences_opens_shows_its_english_and_verifies_ok(
        copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A ledger of the terminal before its record held sentences: every reason stored as English
    text, in the events and the settlement rows, its chain hashed over that. It verifies ok (the
    rules' sentences are compared with the stored English), and every reader sees the English as
    recorded."""
    db = sqlite3.connect(copy)
    for event_id, payload in db.execute("SELECT id, payload FROM events").fetchall():
        older = json.dumps(_english(json.loads(payload)), sort_keys=True, separators=(",", ":"))
        db.execute("UPDATE events SET payload = ? WHERE id = ?", (older, event_id))
    for rowid, reason in db.execute("SELECT rowid, reason FROM settlements").fetchall():
        db.execute("UPDATE settlements SET reason = ? WHERE rowid = ?", (str(Said.from_stored(reason)), rowid))
    db.commit()
    db.close()
    rehash(copy)
    status, out = verify(copy, capsys)
    assert status == 0, out
    rid = settled_round(copy)
    rows = SqliteLedger(copy, readonly=True).settlement(rid)
    assert rows and all(isinstance(r.reason, Said) and r.reason.is_literal for r in rows)
    assert [language("hu").said(r.reason) for r in rows] == [str(r.reason) for r in rows]


def test_each_settlement_row_records_its_bets_role(copy: Path) -> None:
    """The roles as the games declare their bets: a High Card Flush ante, raise and bonus bets are
    wagers, the DP's bank its bank, the house's cut rake (HCF-4, HCF-5, HCF-17); a "1 or 5" ante,
    Bet and insurance are wagers, the exchange's fee a fee (R-3, R-4, R-9)."""
    declared = {"ante": "wager", "raise": "wager", "flush": "wager", "straight_flush": "wager", "bank": "bank",
                "rake": "rake", "bet": "wager", "exchange": "fee", "insurance": "wager"}
    stored = sql_rows(copy, "SELECT DISTINCT bet, role FROM settlements ORDER BY bet")
    assert {"ante", "raise", "bet"} <= {bet for bet, _ in stored}
    assert stored == [(bet, declared[bet]) for bet, _ in stored]


def test_changing_a_settlement_rows_role(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rid = settled_round(copy)
    seat = one(copy, f"SELECT seat FROM settlements WHERE round_id = {rid} AND bet = 'ante' LIMIT 1")[0]
    sql(copy, f"UPDATE settlements SET role = 'pool' WHERE round_id = {rid} AND seat = {seat} AND bet = 'ante'")
    fails(copy, capsys, f"(id {rid}): seat {seat} ante: its settlement row is stored as pool; the game declares "
                        "the bet wager")


def test_blanking_a_settlement_rows_role(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rid = settled_round(copy)
    seat = one(copy, f"SELECT seat FROM settlements WHERE round_id = {rid} AND bet = 'ante' LIMIT 1")[0]
    sql(copy, f"UPDATE settlements SET role = '' WHERE round_id = {rid} AND seat = {seat} AND bet = 'ante'")
    fails(copy, capsys, f"(id {rid}): seat {seat} ante: its settlement row is stored as no role")


def test_deleting_a_settlement_row_of_a_settled_round(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rid = settled_round(copy, 2)
    seat, bet = one(copy, f"SELECT seat, bet FROM settlements WHERE round_id = {rid} LIMIT 1")
    sql(copy, f"DELETE FROM settlements WHERE round_id = {rid} AND seat = {seat} AND bet = '{bet}'")
    fails(copy, capsys, f"(id {rid}): the settlement rows differ", f"seat {seat} {bet}: missing")


def test_inserting_a_settlement_row_into_a_settled_round(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rid = settled_round(copy)
    sql(copy, f"INSERT INTO settlements(round_id, seat, bet, stake, result, reason) VALUES ({rid}, 6, 'ante', 10,"
              " 10, 'wins')")
    fails(copy, capsys, f"(id {rid}): the settlement rows differ", "seat 6 ante: a row the rules do not give")


def test_inserting_a_settlement_row_into_a_voided_round(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (rid,) = one(copy, "SELECT id FROM rounds WHERE status = 'voided'")
    sql(copy, f"INSERT INTO settlements(round_id, seat, bet, stake, result, reason) VALUES ({rid}, 1, 'ante', 5, 5,"
              " 'wins')")
    fails(copy, capsys, f"(id {rid}): 1 settlement row(s) stored for a round its events leave voided")


def test_inserting_a_settlement_row_into_an_open_round(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (rid,) = one(copy, "SELECT id FROM rounds WHERE status = 'open'")
    sql(copy, f"INSERT INTO settlements(round_id, seat, bet, stake, result, reason) VALUES ({rid}, 1, 'ante', 5, 5,"
              " 'wins')")
    fails(copy, capsys, f"(id {rid}): 1 settlement row(s) stored for a round its events leave open")


def test_settlement_rows_of_a_round_that_does_not_exist(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sql(copy, "PRAGMA foreign_keys = OFF",
        "INSERT INTO settlements(round_id, seat, bet, stake, result, reason) VALUES (999, 1, 'ante', 5, 5, 'wins')")
    fails(copy, capsys, "round id 999: settlement rows of a round the ledger does not have")


# -- stacks, numbers, sequence ---------------------------------------------------------------------


def test_a_starting_stack_changed_and_the_whole_chain_hashed_again(copy: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    event_id, payload = one(copy, "SELECT e.id, e.payload FROM events e JOIN rounds r ON r.id = e.round_id"
                                  " WHERE e.kind = 'round_started' AND r.table_id = 1 AND r.number = 5")
    data = json.loads(str(payload))
    data["setup"]["players"]["1"]["stack"] += 500
    sql(copy, "UPDATE events SET payload = ? WHERE id = ?", args=(json.dumps(data, sort_keys=True), event_id))
    rehash(copy)
    out = fails(copy, capsys, "table 1 (Flush 1), round 5", "seat 1 (Player 1) starts with",
                "(stack continuity)")
    assert "hash" not in out   # the chain itself checks: only continuity tells


def test_renumbering_rounds(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sql(copy, "UPDATE rounds SET number = number + 1000 WHERE table_id = 1 AND number >= 3",
        "UPDATE rounds SET number = number - 999 WHERE table_id = 1 AND number > 1000")
    fails(copy, capsys, "table 1 (Flush 1), round 4", "numbered 4, but it is round 3 of the table")


def test_deleting_the_last_rounds_cleanly(played: Played, copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The last three rounds of the ledger go with their events, rows and flags, and the hourly
    totals are worked out again without them: nothing inside the file tells; the witness does."""
    (first,) = one(copy, "SELECT MAX(id) - 2 FROM rounds")
    sql(copy, *(f"DELETE FROM {t} WHERE round_id >= {first}" for t in ("events", "settlements", "round_flags")),
        f"DELETE FROM rounds WHERE id >= {first}",
        "DELETE FROM hourly_totals",
        "INSERT INTO hourly_totals SELECT substr(started_at, 1, 13), table_id, game, banking, COUNT(*), SUM(wagered),"
        " SUM(paid), SUM(returned), SUM(from_stacks), SUM(house_result), MAX(max_payout), SUM(fees) FROM rounds"
        " WHERE status = 'settled' GROUP BY 1, 2, 3, 4")
    fails(copy, capsys, "table 1 (Flush 1): the ledger is behind its witness",
          "table 2 (Russian 1): the ledger is behind its witness", witness=played.witness)


def test_deleting_a_whole_table(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    delete_table(copy, 1)
    fails(copy, capsys, "of the ledger-wide sequence are missing", "ledger: 1 table id(s) missing (table id 1)")


def test_deleting_a_whole_table_and_closing_up_the_sequence(played: Played, copy: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Numbered again without the gap and hashed again: only the witness still knows the table."""
    delete_table(copy, 1)
    sql(copy, "UPDATE events SET ledger_seq = -(SELECT COUNT(*) FROM events e WHERE e.ledger_seq <= events.ledger_seq)",
        "UPDATE events SET ledger_seq = -ledger_seq", "UPDATE tables SET id = 1 WHERE id = 2",
        "UPDATE events SET table_id = 1 WHERE table_id = 2", "UPDATE rounds SET table_id = 1",
        "UPDATE hourly_totals SET table_id = 1", "UPDATE seatings SET table_id = 1")
    rehash(copy)
    out = fails(copy, capsys, "table 2 (Russian 1): in the witness", "but not in the ledger: the table was deleted",
                witness=played.witness)
    assert "sequence are missing" not in out


def test_closing_up_the_sequence_without_hashing_again(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    delete_table(copy, 1)
    sql(copy, "UPDATE events SET ledger_seq = -(SELECT COUNT(*) FROM events e WHERE e.ledger_seq <= events.ledger_seq)",
        "UPDATE events SET ledger_seq = -ledger_seq")
    fails(copy, capsys, "table 2, round", "content does not match its hash")


# -- the file --------------------------------------------------------------------------------------


def test_cutting_the_files_tail(played: Played, copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    os.truncate(copy, copy.stat().st_size * 2 // 3)
    fails(copy, capsys, "the file is damaged", witness=played.witness)


def test_rolling_back_to_an_older_copy(played: Played, copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(played.older, copy)
    fails(copy, capsys, "the ledger is behind its witness", witness=played.witness)


def test_an_empty_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ledger.sqlite"
    path.write_bytes(b"")
    fails(path, capsys, "not a dealer-tui ledger (an empty file)")
    assert path.stat().st_size == 0 and sorted(p.name for p in tmp_path.iterdir()) == ["ledger.sqlite"]


def test_a_sqlite_file_that_is_not_a_ledger(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "other.sqlite"
    sql(path, "CREATE TABLE notes(id INTEGER PRIMARY KEY, text TEXT)", "PRAGMA user_version = 3")
    fails(path, capsys, "not a dealer-tui ledger (an SQLite file without the ledger's tables")
    assert one(path, "SELECT group_concat(name) FROM sqlite_master") == ("notes",)


def test_a_text_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ledger.sqlite"
    path.write_text("round 1: paid 100\n")
    fails(path, capsys, "not a dealer-tui ledger (not an SQLite file)")


def test_a_missing_file_is_not_created(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "none.sqlite"
    status, out = verify(path, capsys)
    assert status == 2 and "no such ledger" in out
    assert not path.exists()
