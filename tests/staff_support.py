"""Staff for the tests: a manager, a dealer, two supervisors and an auditor in a ledger's staff
register, and the sign-ins a table's steps need (each a real, recorded sign-in with the PIN)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from dealer_tui.ledger import Ledger
from dealer_tui.rounds.table import Table
from dealer_tui.staff import (
    DEAL,
    MANAGE,
    SIGN_OFF,
    Approval,
    Purpose,
    StaffDesk,
)
from rules.profiles.loader import LoadedProfile, is_shipped

MANAGER, MANAGER_PIN = "M1", "246813"
DEALER, DEALER_PIN = "D1", "135792"
SUPERVISOR, SUPERVISOR_PIN = "S1", "975318"
SUPERVISOR2, SUPERVISOR2_PIN = "S2", "864209"
AUDITOR, AUDITOR_PIN = "A1", "314159"

SUPERVISOR_KEYS = [*SUPERVISOR, "enter", *SUPERVISOR_PIN, "enter"]
"""What a supervisor types into the sign-in dialog: the ID, Enter, the PIN, Enter."""
SUPERVISOR_PIN_KEYS = [*SUPERVISOR_PIN, "enter"]
"""The PIN alone, where the dialog has the ID filled in (the floor's own user)."""
DEALER_KEYS = [*DEALER, "enter", *DEALER_PIN, "enter"]


@dataclass
class Crew:
    desk: StaffDesk

    def sign_in(self, account: str, pin: str, act: str, table: Table | None = None,
                round_number: int | None = None) -> Approval:
        where = table.record.id if table is not None else None
        return self.desk.sign_in(account, pin, Purpose(act, f"{act} (test)", where, round_number))

    def deal(self, table: Table, account: str = DEALER, pin: str = DEALER_PIN) -> Table:
        """`account` signs in to deal at the table; the table, for chaining."""
        table.sign_in_dealer(self.sign_in(account, pin, DEAL, table))
        return table

    def approval(self, table: Table, act: str = SIGN_OFF, account: str = SUPERVISOR,
                 pin: str = SUPERVISOR_PIN, *, for_round: bool = True) -> dict[str, object]:
        """An action's data naming a supervisor who signed in for `act` at the table's round."""
        number = table.session.rounds_started if for_round else None
        who = self.sign_in(account, pin, act, table, number)
        return {"supervisor": who.account, "by": who.account, "sign_in": who.sign_in}

    def signed(self, table: Table, act: str, account: str = SUPERVISOR, pin: str = SUPERVISOR_PIN, *,
               for_round: bool = True) -> Approval:
        number = table.session.rounds_started if for_round else None
        return self.sign_in(account, pin, act, table, number)

    def approver(self, account: str = SUPERVISOR, pin: str = SUPERVISOR_PIN):  # type: ignore[no-untyped-def]
        """What `demo.play` takes: the supervisor's sign-off of each round that needs one."""
        return lambda table: self.approval(table, SIGN_OFF, account, pin)


def approved(ledger: Ledger, loaded: LoadedProfile) -> LoadedProfile:
    """A casino profile approved by the test manager for tables of this ledger (a shipped one
    needs none)."""
    if is_shipped(loaded):
        return loaded
    crew = staffed(ledger)
    by = crew.desk.sign_in(MANAGER, MANAGER_PIN, Purpose(MANAGE, f"approve {loaded.name} (test)"))
    crew.desk.approve_profile(loaded.name, loaded.game, loaded.sha256, loaded.source, by)
    return loaded


def staffed(ledger: Ledger) -> Crew:
    """The ledger's staff (made once: a ledger that has them already keeps them)."""
    desk = StaffDesk(ledger)
    if not desk.register().has_accounts():
        desk.add_first_manager(MANAGER, "Mona Manager", MANAGER_PIN)
        by = desk.sign_in(MANAGER, MANAGER_PIN, Purpose(MANAGE, "add the staff (test)"))
        for account, name, role, pin in ((DEALER, "Dana Dealer", "dealer", DEALER_PIN),
                                         (SUPERVISOR, "Sam Super", "supervisor", SUPERVISOR_PIN),
                                         (SUPERVISOR2, "Sue Second", "supervisor", SUPERVISOR2_PIN),
                                         (AUDITOR, "Avi Auditor", "auditor", AUDITOR_PIN)):
            desk.add(account, name, role, pin, by)
    return Crew(desk)


def on_duty(table: Table) -> Table:
    """The table with the test dealer signed in (the staff made if the ledger has none)."""
    return staffed(table.ledger).deal(table)


def staffed_path(path: Path) -> Path:
    """A ledger file with the test staff in it (made when missing): what `make_app` opens."""
    from dealer_tui.ledger import SqliteLedger

    ledger = SqliteLedger(path)
    staffed(ledger)
    ledger.close()
    return path


def floor_review(path: Path, games: list[str], account: str = SUPERVISOR, pin: str = SUPERVISOR_PIN):  # type: ignore[no-untyped-def]
    """The floor review over the ledger at `path`, with `account` signed in to it (a real,
    recorded sign-in): what `dealer-tui floor` shows once its sign-in went through."""
    from dealer_tui.floor_app import FloorApp
    from dealer_tui.ledger import SqliteLedger
    from dealer_tui.staff import FLOOR

    writer = SqliteLedger(path)
    crew = staffed(writer)
    user = crew.desk.sign_in(account, pin, Purpose(FLOOR, "open the floor review (test)"))
    return FloorApp(SqliteLedger(path, readonly=True), games, crew.desk, user)
