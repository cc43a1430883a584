"""Chinese Poker's typed events (docs/rules.md CP-1..CP-14): each reads the form the ledger stores and
writes it back unchanged; a round records its rows in C-7 playing order, as it always has."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dealer_tui.events import EventError, decode
from dealer_tui.games.chinese_poker.events import (
    CardsDealt,
    NaturalDeclared,
    NaturalWithdrawn,
    OpenedRows,
    RowsLocked,
    RowsOpened,
    RowsSet,
    RowsUnlocked,
)
from dealer_tui.games.chinese_poker.steps import Lock
from dealer_tui.rounds.steps import Reveal
from rules.cards import parse_cards
from rules.games.chinese_poker.naturals import Natural
from tests.cp_support import set_rows, two_player_round

CP = "chinese-poker"
SEAT_1 = {"front": "Ah Ad 2c", "middle": "Ks Kh Kd 4d 3c", "back": "Qs Qh Qd Qc 5c"}


@pytest.mark.parametrize(("kind", "stored", "expected"), [
    ("cards_dealt", {"cards": {"seat 1": "Ah Ad 2c", "dead 1": "9s 9d"}},
     CardsDealt(hands={"seat 1": parse_cards("Ah Ad 2c"), "dead 1": parse_cards("9s 9d")})),
    ("cards_dealt", {"cards": {}, "keyed": True}, CardsDealt(hands={}, keyed=True)),
    ("rows_set", {"seat": 1, **SEAT_1, "suggested": False},
     RowsSet(seat=1, front=parse_cards("Ah Ad 2c"), middle=parse_cards("Ks Kh Kd 4d 3c"),
             back=parse_cards("Qs Qh Qd Qc 5c"), suggested=False)),
    ("rows_set", {"seat": 1, **SEAT_1, "suggested": True, "reason": "best of 72 settings"},
     RowsSet(seat=1, front=parse_cards("Ah Ad 2c"), middle=parse_cards("Ks Kh Kd 4d 3c"),
             back=parse_cards("Qs Qh Qd Qc 5c"), suggested=True, reason="best of 72 settings")),
    ("natural_declared", {"seat": 2, "natural": "six pairs", "front": "Ad Jh Jd", "middle": "Th Td 9h 9d 8s",
                          "back": "8d 7s 7h 6s 6h"},
     NaturalDeclared(seat=2, natural="six pairs", front=parse_cards("Ad Jh Jd"),
                     middle=parse_cards("Th Td 9h 9d 8s"), back=parse_cards("8d 7s 7h 6s 6h"))),
    ("natural_withdrawn", {"seat": 2}, NaturalWithdrawn(seat=2)),
    ("rows_locked", {"seat": 1, "fouled": False, "foul": None, "natural": None},
     RowsLocked(seat=1, fouled=False, foul=None, natural=None)),
    ("rows_locked", {"seat": 2, "fouled": True, "foul": "middle high card does not beat front one pair",
                     "natural": None},
     RowsLocked(seat=2, fouled=True, foul="middle high card does not beat front one pair", natural=None)),
    ("rows_unlocked", {"seat": 2}, RowsUnlocked(seat=2)),
    ("rows_opened", {"hands": {"1": {**SEAT_1, "natural": None, "foul": None}},
                     "verified": ["seat 2: six pairs verified (CP-14)"]},
     RowsOpened(hands={"1": OpenedRows(front=parse_cards("Ah Ad 2c"), middle=parse_cards("Ks Kh Kd 4d 3c"),
                                       back=parse_cards("Qs Qh Qd Qc 5c"), natural=None, foul=None)},
                verified=("seat 2: six pairs verified (CP-14)",))),
])
def test_each_event_reads_its_stored_form_and_writes_it_back(kind: str, stored: dict[str, Any],
                                                              expected: object) -> None:
    event = decode(kind, stored, CP)
    assert event == expected
    assert event.record().payload == stored


def test_a_declared_natural_reads_as_its_natural_and_its_rows() -> None:
    event = decode("natural_declared", {"seat": 2, "natural": "three flushes", "front": "9c 7c 2c",
                                        "middle": "Jh Th 6h 5h 4h", "back": "Qd Jd 8d 6d 3d"}, CP)
    assert isinstance(event, NaturalDeclared) and event.declared is Natural.THREE_FLUSHES
    assert event.hand.cards == parse_cards("9c 7c 2c Jh Th 6h 5h 4h Qd Jd 8d 6d 3d")


def test_an_event_that_does_not_read_names_its_field() -> None:
    with pytest.raises(EventError, match="rows_set: .*front"):
        decode("rows_set", {"seat": 1, "front": "Ah 1x 2c", "middle": "", "back": "", "suggested": False}, CP)
    with pytest.raises(EventError, match="rows_locked: .*no 'fouled'"):
        decode("rows_locked", {"seat": 1, "foul": None, "natural": None}, CP)


def test_every_card_of_the_rows_is_named_by_its_row() -> None:
    event = decode("rows_set", {"seat": 1, **SEAT_1, "suggested": False}, CP)
    assert [(label, " ".join(c.text for c in cards)) for label, cards in event.named_cards()] == [
        ("front", "Ah Ad 2c"), ("middle", "Ks Kh Kd 4d 3c"), ("back", "Qs Qh Qd Qc 5c")]


def test_c_7_a_round_stores_its_rows_in_playing_order_as_before(tmp_path: Path) -> None:
    table, rnd = two_player_round(tmp_path)
    round_id = table.round_id
    assert round_id is not None
    set_rows(table, 1, "Ah Ad 2c", "Kh Ks Kd 3c 4d", "Qh Qs Qd Qc 5c")
    set_rows(table, 2, "Jh 8c 3s", "9s 9d 7c 6s 2d", "Th Ts Td 7d 6d")
    table.act(Lock(seat=1))
    table.act(Lock(seat=2))
    table.act(Reveal())
    stored = [(e.kind, e.payload) for e in table.ledger.round_events(round_id)]
    # C-7: each row by rank, high first, suits s h d c
    seat_2 = {"front": "Jh 8c 3s", "middle": "9s 9d 7c 6s 2d", "back": "Ts Th Td 7d 6d"}
    assert stored[2:] == [
        ("rows_set", {"seat": 1, **SEAT_1, "suggested": False}),
        ("rows_set", {"seat": 2, **seat_2, "suggested": False}),
        ("rows_locked", {"seat": 1, "fouled": False, "foul": None, "natural": None}),
        ("rows_locked", {"seat": 2, "fouled": False, "foul": None, "natural": None}),
        ("rows_opened", {"hands": {"2": {**seat_2, "natural": None, "foul": None},
                                   "1": {**SEAT_1, "natural": None, "foul": None}}, "verified": []}),
    ]
    assert [kind for kind, _ in stored[:2]] == ["round_started", "cards_dealt"]
    assert rnd.seats[1].rows is not None and rnd.seats[1].rows.back == parse_cards("Qs Qh Qd Qc 5c")


def test_cp_14_opened_rows_name_their_cards_by_seat_and_row() -> None:
    """The rows opened at the reveal, as the story and a duplicate card name them: seat 1's front,
    middle and back, and seat 2's (the stored form keeps its key, `hands`)."""
    front, middle, back = parse_cards("Kh Qh 8d"), parse_cards("9s 9d 7c 6h 2s"), parse_cards("Ac Ad 5h 4s 3c")
    other = (parse_cards("2h 3h 4d"), parse_cards("Ts Td 7d 6c 2c"), parse_cards("Jc Jd Js 8h 5c"))
    opened = RowsOpened(hands={"1": OpenedRows(front, middle, back, None, None),
                               "2": OpenedRows(*other, None, None)}, verified=())
    assert [label for label, _ in opened.named_cards()] == ["seat 1 front", "seat 1 middle", "seat 1 back",
                                                             "seat 2 front", "seat 2 middle", "seat 2 back"]
    assert set(opened.payload) == {"hands", "verified"}
