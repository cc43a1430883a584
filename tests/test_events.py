"""Typed events: every event the product records reads back as its class and writes the very form
the ledger stores; an event that does not read names its kind and field; `named_cards()` names every
card an event records."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from dealer_tui.events import EVENT_TYPES, EventError, decode
from dealer_tui.events.table import PayoutConfirmed, RoundVoided, StepTakenBack
from dealer_tui.games.high_card_flush.events import (
    AntePlaced,
    BankerRevealed,
    CardsDealt,
    PlayerActed,
)
from rules.cards import parse_cards
from rules.games import GAMES
from tests.floor_support import live_table
from tests.staff_support import demo

HCF = "high-card-flush"


@pytest.fixture(scope="module")
def every_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("events") / "l.sqlite"
    for game in GAMES:
        live_table(path, game.id, 8, 3)
    return path


pytestmark = pytest.mark.usefixtures("staff_pins")


def test_every_recorded_event_reads_back_and_writes_its_stored_form(every_game: Path) -> None:
    db = sqlite3.connect(every_game)
    rows = db.execute("SELECT t.game, e.kind, e.payload FROM events e JOIN tables t ON t.id = e.table_id"
                      " ORDER BY e.id").fetchall()
    db.close()
    kinds = set()
    for game, kind, payload in rows:
        stored = json.loads(payload)
        event = decode(kind, stored, game)
        assert type(event) is (EVENT_TYPES.get((game, kind)) or EVENT_TYPES[None, kind]) and event.kind == kind
        assert event.record().payload == stored, (game, kind)
        kinds.add((game, kind))
    assert {(g.id, "payout_confirmed") for g in GAMES} <= kinds
    assert {("high-card-flush", "ante_placed"), ("one-or-five", "ante_placed"), ("palace-poker", "ante_placed")} <= kinds


def test_an_event_is_stored_under_its_own_keys() -> None:
    assert AntePlaced(seat=2, ante=10, flush=5).record().payload == {"seat": 2, "ante": 10, "flush": 5,
                                                                    "straight_flush": 0}
    assert PlayerActed(seat=3, raised=0).record().payload == {"seat": 3, "raise": 0}
    dealt = CardsDealt(hands={"seat 2": parse_cards("Jh Qh Ks 3h 6s 3d 9s")})
    assert dealt.record().payload == {"cards": {"seat 2": "Jh Qh Ks 3h 6s 3d 9s"}}
    assert BankerRevealed(cards=parse_cards("9h Ts")).record().payload == {"cards": "9h Ts"}
    assert StepTakenBack(taken_back="ante_placed", step={"seat": 2}, what="seat 2's ante").record().payload == {
        "kind": "ante_placed", "payload": {"seat": 2}, "what": "seat 2's ante"}


def test_older_events_without_newer_fields_still_read() -> None:
    voided = decode("round_voided", {"reason": "misdeal"})
    assert isinstance(voided, RoundVoided) and (voided.by, voided.returned) == ("", {})
    kept = decode("seat_left", {"seat": 1, "cash_out": 40, "note": "kept as stored"})
    assert kept.record().payload == {"seat": 1, "cash_out": 40, "note": "kept as stored"}


@pytest.mark.parametrize(("kind", "payload", "message"), [
    ("ante_placed", {"ante": 5}, "ante_placed: no 'seat'"),
    ("ante_placed", {"seat": "2", "ante": 5}, "ante_placed: seat: expected a whole number, got '2'"),
    ("ante_placed", {"seat": True, "ante": 5}, "ante_placed: seat: expected a whole number, got True"),
    ("cards_dealt", {"cards": {"seat 2": "Jh 1x"}}, "cards_dealt: cards.seat 2:"),
    ("payout_confirmed", {"rows": "none"}, "payout_confirmed: rows: expected a list"),
    ("no_such_event", {}, "unknown event kind 'no_such_event' for high-card-flush"),
])
def test_an_event_that_does_not_read_names_its_kind_and_field(kind: str, payload: dict[str, object],
                                                              message: str) -> None:
    with pytest.raises(EventError) as caught:
        decode(kind, payload, HCF)
    assert str(caught.value).startswith(message)


def test_cards_names_every_card_by_where_it_sits() -> None:
    dealt = decode("cards_dealt", {"cards": {"seat 2": "Jh Qh", "banker": "9h Ts"}}, HCF)
    assert [(label, " ".join(c.text for c in cards)) for label, cards in dealt.named_cards()] == [
        ("seat 2", "Jh Qh"), ("banker", "9h Ts")]
    revealed = decode("banker_revealed", {"cards": "9h Ts", "hand_cards": {"seat 3": "Ac Kc"},
                                          "raise_corrections": {}}, HCF)
    assert [(label, len(cards)) for label, cards in revealed.named_cards()] == [("cards", 2), ("hand seat 3", 2)]
    assert decode("ante_placed", {"seat": 2, "ante": 5, "flush": 0, "straight_flush": 0}, HCF).named_cards() == []


def test_payout_rows_read_as_settlement_rows() -> None:
    payout = decode("payout_confirmed", {
        "rows": [{"seat": 2, "bet": "ante", "stake": 5, "result": 5, "reason": "wins"}],
        "stack_changes": {"2": 5}, "house": 0, "seats": 1, "wagered": 5, "paid": 10, "flags": [],
        "signed_off_by": None})
    assert isinstance(payout, PayoutConfirmed)
    assert [(r.row().seat, r.row().result) for r in payout.rows] == [(2, 5)]


def test_a_table_whose_event_does_not_read_is_one_error_line(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """An insider breaks an unfinished round's start in the file: reopening the table is refused
    with one line naming the event and its field, never a traceback (an unreadable stored event is
    a ledger that cannot be read)."""
    from dealer_tui.cli import main

    path = tmp_path / "l.sqlite"
    assert main(demo("--game", "high-card-flush", "--rounds", "1", "--seed", "1", "--ledger", str(path))) == 0
    db = sqlite3.connect(path)
    db.execute("UPDATE rounds SET status = 'open' WHERE id = 1")
    db.execute("UPDATE events SET payload = json_set(payload, '$.number', 'one') WHERE kind = 'round_started'")
    db.commit()
    db.close()
    capsys.readouterr()
    status = main(demo("--game", "high-card-flush", "--rounds", "1", "--table", "Demo high-card-flush",
                   "--ledger", str(path)))
    err = capsys.readouterr().err
    assert status == 2
    assert err == ("error: table 'Demo high-card-flush' (id 1) cannot be replayed: round_started: number: expected a"
                   " whole number, got 'one'\n")


def test_verify_names_an_event_that_does_not_read_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from dealer_tui.cli import main

    path = tmp_path / "l.sqlite"
    assert main(demo("--game", "high-card-flush", "--rounds", "1", "--seed", "1", "--ledger", str(path))) == 0
    db = sqlite3.connect(path)
    db.execute("UPDATE events SET payload = json_set(payload, '$.seats', 'x') WHERE kind = 'table_opened'")
    db.commit()
    db.close()
    capsys.readouterr()
    assert main(["history", "verify", "--ledger", str(path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert ("table 1 (Demo high-card-flush), event 1 (table_opened): does not read: table_opened: seats: expected a"
            " whole number, got 'x'") in lines
