"""Chinese Poker tables for the round and view tests: the shipped `chinese-poker` profile, a
short-buy-in copy of it to seat the players, scripted decks, and a dealt two-player round."""

from __future__ import annotations

import tempfile
from pathlib import Path

from dealer_tui.games.chinese_poker.round import ChinesePokerRound
from dealer_tui.games.chinese_poker.steps import SetRows
from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.cards import ScriptedDeck
from dealer_tui.rounds.steps import Deal
from dealer_tui.rounds.table import Table
from rules.cards import DECK, Card, parse_cards
from rules.profiles.loader import ProfileLibrary
from tests.staff_support import cash_id, staffed_table

PROFILE = ProfileLibrary().find("chinese-poker")
# The tables here seat players with stacks of 50 to 100 chips to make table stakes bite; a profile
# whose full buy-in is 10 points x 5 = 50 makes each of those a full buy (CP-12).
_SHORT_TABLE = Path(tempfile.mkdtemp()) / "cp-50.yaml"
_SHORT_TABLE.write_text(PROFILE.text.replace("buy_in_points: 20", "buy_in_points: 10"))
SEATING = ProfileLibrary().find(str(_SHORT_TABLE))

# Two players (button on seat 1 on the table's first hand: dealt seat 2, seat 1, two dead hands).
TWO_SEAT2 = "Jh Td 8c 9s 9d 7c 6s 3s Th Ts 7d 6d 2d"
TWO_SEAT1 = "Ah Ad 2c Kh Ks Kd 3c 4d Qh Qs Qd Qc 5c"


def deck(*hands: str) -> list[Card]:
    """The hands in deal order, then the rest of the deck (the dead hands, CP-1)."""
    cards = [c for hand in hands for c in parse_cards(hand)]
    return cards + [c for c in DECK if c not in cards]


def new_table(tmp_path: Path, stacks: dict[int, int], *scripts: list[Card]) -> Table:
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    table = staffed_table(ledger, "C1", SEATING, ScriptedDeck(scripts or [list(DECK)]), seats=4)
    for seat, stack in stacks.items():
        table.seat_player(seat, f"P{seat}", stack, document=cash_id(seat, stack))
    return table


def start(table: Table) -> ChinesePokerRound:
    rnd = table.start_round()
    assert isinstance(rnd, ChinesePokerRound)
    return rnd


def set_rows(table: Table, seat: int, front: str, middle: str, back: str) -> None:
    table.act(SetRows(seat=seat, front=front, middle=middle, back=back))


def two_player_round(tmp_path: Path) -> tuple[Table, ChinesePokerRound]:
    table = new_table(tmp_path, {1: 100, 2: 100}, deck(TWO_SEAT2, TWO_SEAT1))
    rnd = start(table)
    table.act(Deal())
    return table, rnd
