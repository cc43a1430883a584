"""A pit server with staff of its own, terminals bound to it, and the logins and ledgers its tests
deliver from."""

from __future__ import annotations

import random
from pathlib import Path

import psycopg

from dealer_tui.demo import play, seat_players
from dealer_tui.ledger import SqliteLedger
from dealer_tui.ledger.postgres import PgLedger, init_schema
from dealer_tui.pit.delivery import Delivery
from dealer_tui.rounds.cards import VirtualShoe
from dealer_tui.staff import MANAGE, Purpose, StaffDesk
from rules.profiles.loader import ProfileLibrary
from tests.pg_support import bind_to_pit
from tests.staff_support import staffed_table

PIT_MANAGER, PIT_MANAGER_PIN = "PM", "424242424"
DEALER, DEALER_PIN = "D7", "77712345"
SUPER, SUPER_PIN = "S7", "717171717"
HCF = ProfileLibrary([]).find("high-card-flush")


def pit_with_staff(url: str) -> PgLedger:
    init_schema(url)
    pit = PgLedger(url)
    desk = StaffDesk(pit)
    desk.add_first_manager(PIT_MANAGER, "Pat Pitboss", PIT_MANAGER_PIN)
    by = desk.sign_in(PIT_MANAGER, PIT_MANAGER_PIN, Purpose(MANAGE, "the pit's staff"))
    desk.add(DEALER, "Dot Dealer", "dealer", DEALER_PIN, by)
    desk.add(SUPER, "Sid Super", "supervisor", SUPER_PIN, by)
    return pit


def terminal(path: Path, url: str) -> tuple[SqliteLedger, Delivery]:
    bind_to_pit(path, url)
    ledger = SqliteLedger(path)
    delivery = Delivery(path, url, path.stem)
    delivery.once()
    return ledger, delivery


def played(path: Path, rounds: int = 5, name: str = "Main 1") -> SqliteLedger:
    ledger = SqliteLedger(path)
    table = staffed_table(ledger, name, HCF, VirtualShoe.seeded_with(3), seats=7)
    seat_players(table, 3)
    play(table, rounds, random.Random(3))
    return ledger


def terminal_login(pit: str, number: int) -> str:
    """The conninfo of a login of the terminal role of its own (roles are the cluster's: named after
    the test's database)."""
    name = f"{pit.split('dbname=')[1].split()[0]}_table_{number}"
    with psycopg.connect(pit, autocommit=True) as db:
        db.execute(f"CREATE ROLE {name} LOGIN IN ROLE pit_terminal")
    return pit.replace("user=pit", f"user={name}")


def server_count(pit: str, sql: str) -> int:
    with psycopg.connect(pit) as db:
        row = db.execute(sql).fetchone()
    return int(row[0])
