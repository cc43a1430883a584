"""`history verify --lang` tells an auditor each problem of a tampered ledger in their language:
where it is (the table, the round, the event) and what is wrong, with its figures as the
language writes them, while the English stays what it always was."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from dealer_tui.games import GAMES
from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.base import Phase
from tests.hcf_support import hcf_table
from tests.insider_support import one, rehash, sql, verify_in
from tests.staff_support import casino_on_shift


def one_round_played(tmp_path: Path) -> Path:
    """A High Card Flush table's ledger with its first round played to the end by the demo players."""
    table = hcf_table(tmp_path)
    rnd = table.start_round()
    rng = random.Random(1)
    while rnd.phase not in (Phase.DONE, Phase.VOID):
        table.act(GAMES.find(table.record.game).demo(rnd, rng))
    table.ledger.close()
    return tmp_path / "ledger.sqlite"


def test_a_tray_count_that_does_not_add_up_is_told_in_the_readers_language(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The opener (30 x 1,000 chips) recorded as 31,000 and the chain hashed again: verify names
    the count's event and both figures, grouped as Polish groups them (a non-breaking space, shown
    as one: not escaped as a control character would be)."""
    path = tmp_path / "ledger.sqlite"
    ledger = SqliteLedger(path)
    casino_on_shift(ledger, "T1")
    ledger.close()
    event_id, seq, payload = one(path, "SELECT id, seq, payload FROM events WHERE kind = 'tray_counted'")
    data = json.loads(str(payload))
    assert data["total"] == 30_000
    data["total"] = 31_000
    sql(path, "UPDATE events SET payload = ? WHERE id = ?", args=(json.dumps(data, sort_keys=True), event_id))
    rehash(path)

    out = verify_in("en", path, capsys)
    assert f"table 1 (T1), event {seq} (tray_counted): it records 31000 chips, but its chips by colour make 30000" in out
    out = verify_in("pl", path, capsys)
    assert (f"stół 1 (T1), zdarzenie {seq} (tray_counted): zapisuje sumę 31\xa0000, ale jego żetony według kolorów "
            "dają 30\xa0000") in out
    assert "it records" not in out


def test_an_edited_rounds_paid_is_told_in_the_readers_language(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """A settled round's stored `paid` raised by 100 behind the terminal's back: verify names the
    table, the round and the figure stored against what the round's events give, in Hungarian and
    in Polish (the column's name and the figures as stored)."""
    path = one_round_played(tmp_path)
    rid, number, paid = one(path, "SELECT id, number, paid FROM rounds WHERE status = 'settled'")
    assert number == 1
    sql(path, f"UPDATE rounds SET paid = paid + 100 WHERE id = {rid}")
    edited = int(str(paid)) + 100

    out = verify_in("en", path, capsys)
    assert f"table 1 (U1), round 1 (id {rid}): stored paid {edited}; its events give {paid}" in out
    out = verify_in("hu", path, capsys)
    assert f"1. asztal (U1), 1. kör (id {rid}): tárolt paid: {edited}; az eseményei szerint: {paid}" in out
    out = verify_in("pl", path, capsys)
    assert f"stół 1 (U1), runda 1 (id {rid}): zapisane paid {edited}; według zdarzeń {paid}" in out
    assert "stored paid" not in out


def test_a_rewritten_reason_is_quoted_in_the_readers_language(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """A settlement row's stored reason with its stake raised by 1,000: verify quotes the stored
    reason and the rules' own, each as a sentence of the auditor's language with its figures (the
    Hungarian quotes „…”), not as the English the record is not."""
    path = one_round_played(tmp_path)
    rid, seat, reason = one(path, "SELECT round_id, seat, reason FROM settlements WHERE bet = 'ante' LIMIT 1")
    said = json.loads(str(reason))
    stake = int(said["values"]["stake"])
    said["values"]["stake"] = stake + 1000
    sql(path, "UPDATE settlements SET reason = ? WHERE round_id = ? AND seat = ? AND bet = 'ante'",
        args=(json.dumps(said), rid, seat))

    out = verify_in("en", path, capsys)
    assert f"seat {seat} ante: stored reason 'Ante: " in out and f"{stake + 1000}" in out
    out = verify_in("hu", path, capsys)
    line = next(x for x in out.splitlines() if "elszámolási sorok" in x)
    assert f"{seat}. hely, ante: tárolt reason: „Ante: " in line
    assert f"{stake + 1000:,}".replace(",", "\xa0") in line and "a szabályok szerint: „Ante: " in line
    assert "stored reason" not in line and " the rules " not in line
