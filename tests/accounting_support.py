"""A casino table's accounting as the tests drive it: a clock the test sets, a table with its crew,
the dealer and supervisor signed in, a marker signed, a round every seat folds."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from dealer_tui.events.table import marker_purpose
from dealer_tui.games.high_card_flush.steps import Ante, Fold
from dealer_tui.ledger import SqliteLedger
from dealer_tui.ledger.witness import Witness
from dealer_tui.rounds.base import Phase
from dealer_tui.rounds.cards import VirtualShoe
from dealer_tui.rounds.steps import ConfirmPayout, Deal, Reveal
from dealer_tui.rounds.table import Table
from dealer_tui.rounds.table_money import Marker
from dealer_tui.staff import DEAL, TRAY
from rules.profiles.loader import ProfileLibrary
from tests.staff_support import (
    DEALER,
    DEALER_PIN,
    SUPERVISOR,
    SUPERVISOR_PIN,
    Crew,
    staffed,
    staffed_table,
)

OPENER = {"1000": 10, "500": 10, "100": 50, "25": 40}  # 21,000


class Clock:
    """The ledger's clock, set by the test: every event written until the next setting has this time."""

    def __init__(self) -> None:
        self.now = datetime(2026, 12, 1, 17, 55)

    def at(self, hh: int, mm: int) -> None:
        self.now = datetime(2026, 12, 1, hh, mm)

    def __call__(self) -> str:
        return self.now.isoformat(timespec="microseconds") + "+00:00"


def casino_table(tmp_path: Path, name: str = "T1") -> tuple[Table, Crew]:
    path = tmp_path / "ledger.sqlite"
    ledger = SqliteLedger(path, witness=Witness.for_ledger(path))
    crew = staffed(ledger)
    table = staffed_table(ledger, name, ProfileLibrary().find("high-card-flush-casino"), VirtualShoe.seeded_with(7),
                          seats=6)
    return table, crew


def both(crew: Crew, table: Table, dealer: str = DEALER, dealer_pin: str = DEALER_PIN,
         supervisor: str = SUPERVISOR, supervisor_pin: str = SUPERVISOR_PIN):  # type: ignore[no-untyped-def]
    return (crew.sign_in(dealer, dealer_pin, DEAL, table), crew.sign_in(supervisor, supervisor_pin, TRAY, table))


def marker(crew: Crew, table: Table, number: str, amount: int, supervisor: str = SUPERVISOR,
           pin: str = SUPERVISOR_PIN) -> Marker:
    """A marker's number, signed by the supervisor (signed in to witness the tray for it)."""
    return Marker(number, crew.sign_in(supervisor, pin, TRAY, table, text=marker_purpose(number, amount)))


def folded_round(table: Table, antes: dict[int, int]) -> None:
    """Every seat antes and folds: the house takes the antes (HCF-6)."""
    table.start_round()
    for seat, ante in antes.items():
        table.act(Ante(seat=seat, amount=ante))
    table.act(Deal())
    for seat in antes:
        table.act(Fold(seat=seat))
    rnd = table.round
    assert rnd is not None
    if any(s.kind == "reveal" for s in rnd.legal_steps()):
        table.act(Reveal())
    table.act(ConfirmPayout())
    assert rnd.phase is Phase.DONE

