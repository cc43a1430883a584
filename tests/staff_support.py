"""Staff for the tests: a manager, a dealer, two supervisors and an auditor in a ledger's staff
register, and the sign-ins a table's steps need (each a real, recorded sign-in with the PIN)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from dealer_tui.games import GAMES
from dealer_tui.ledger import Ledger
from dealer_tui.rounds.cards import CardSource
from dealer_tui.rounds.steps import ConfirmPayout, Step, Void
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

QUICK_SCRYPT = {"SCRYPT_N": 2**4, "SCRYPT_R": 1}
"""The small scrypt cost PINs are hashed with in the tests' own processes (the tests sign in
thousands of times); a hash keeps its parameters, so checking works the same."""


def quick_pins() -> None:
    """New PINs hashed at `QUICK_SCRYPT` in this process (a test driver run as a script)."""
    from dealer_tui.staff import pins

    for name, value in QUICK_SCRYPT.items():
        setattr(pins, name, value)


def cash_id(seat: int, stack: int) -> str:
    """The ID document a test player shows when their cash buy-in reaches the currency-transaction
    threshold (10,000: the table refuses it without one); "" below it."""
    return f"passport X{seat:07}" if stack >= 10_000 else ""


MANAGER, MANAGER_PIN = "M1", "246813579"
DEALER, DEALER_PIN = "D1", "13579246"
SUPERVISOR, SUPERVISOR_PIN = "S1", "975318642"
SUPERVISOR2, SUPERVISOR2_PIN = "S2", "864209753"
AUDITOR, AUDITOR_PIN = "A1", "314159265"

SUPERVISOR_KEYS = [*SUPERVISOR, "enter", *SUPERVISOR_PIN, "enter"]
"""What a supervisor types into the sign-in dialog: the ID, Enter, the PIN, Enter."""
SUPERVISOR_PIN_KEYS = [*SUPERVISOR_PIN, "enter"]
"""The PIN alone, where the dialog has the ID filled in (the floor's own user)."""
DEALER_KEYS = [*DEALER, "enter", *DEALER_PIN, "enter"]


@dataclass
class Crew:
    desk: StaffDesk

    def sign_in(self, account: str, pin: str, act: str, table: Table | None = None,
                round_number: int | None = None, text: str | None = None) -> Approval:
        """`text`: the sign-in's words (default: the act's, for a test); a payout's sign-off signs
        the payout's figures, as the terminal's does."""
        where = table.record.id if table is not None else None
        from dealer_tui.staff import OVERRIDE, VOID

        rnd = table.round if table is not None else None
        signs = "" if rnd is None else rnd.payout_figures() if act in (SIGN_OFF, OVERRIDE) \
            else rnd.void_figures() if act == VOID else ""
        return self.desk.sign_in(account, pin, Purpose(act, text or f"{act} (test)", where, round_number, signs=signs))

    def deal(self, table: Table, account: str = DEALER, pin: str = DEALER_PIN) -> Table:
        """`account` signs in to deal at the table; the table, for chaining."""
        table.sign_in_dealer(self.sign_in(account, pin, DEAL, table))
        return table

    def approval(self, table: Table, act: str = SIGN_OFF, account: str = SUPERVISOR,
                 pin: str = SUPERVISOR_PIN, *, for_round: bool = True) -> dict[str, object]:
        """A step's approval fields (`supervisor`, `sign_in`) naming a supervisor who signed in for
        `act` at the table's round."""
        number = table.session.rounds_started if for_round else None
        who = self.sign_in(account, pin, act, table, number)
        return {"supervisor": who.account, "sign_in": who.sign_in}

    def signed(self, table: Table, act: str, account: str = SUPERVISOR, pin: str = SUPERVISOR_PIN, *,
               for_round: bool = True) -> Approval:
        number = table.session.rounds_started if for_round else None
        return self.sign_in(account, pin, act, table, number)

    def approver(self, account: str = SUPERVISOR, pin: str = SUPERVISOR_PIN):  # type: ignore[no-untyped-def]
        """What `demo.play` takes: the payout confirmed with the supervisor's sign-off, for each
        round that needs one."""
        return lambda table, step: replace(step, **self.approval(table, SIGN_OFF, account, pin))


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


def floor_review(path: Path, account: str = SUPERVISOR, pin: str = SUPERVISOR_PIN,  # type: ignore[no-untyped-def]
                 first: str = "rounds"):
    """The floor review over the ledger at `path`, with `account` signed in to it (a real,
    recorded sign-in): what `dealer-tui floor --first rounds` shows once its sign-in went through
    (`first="map"`: the pit map, as `dealer-tui floor` opens)."""
    from dealer_tui.floor_app import FloorApp
    from dealer_tui.ledger import SqliteLedger
    from dealer_tui.staff import FLOOR

    writer = SqliteLedger(path)
    crew = staffed(writer)
    user = crew.desk.sign_in(account, pin, Purpose(FLOOR, "open the floor review (test)"))
    return FloorApp(SqliteLedger(path, readonly=True), GAMES, crew.desk, user, first=first)


DEMO_PINS = f"{DEALER_PIN}\n{SUPERVISOR_PIN}\n"
"""What `demo` reads from standard input: the dealer's PIN, then the supervisor's."""


@contextmanager
def pins_on_stdin() -> Iterator[None]:
    """Standard input holds the test dealer's and supervisor's PINs, for `demo` runs in this process."""
    import io
    import sys

    saved = sys.stdin
    sys.stdin = io.StringIO(DEMO_PINS * 50)
    try:
        yield
    finally:
        sys.stdin = saved


def demo(*argv: str, staff: bool = True) -> list[str]:
    """`dealer-tui demo` arguments with the test dealer and supervisor; with `staff`, the ledger
    (`--ledger`, or the training ledger) is given the test staff first."""
    from dealer_tui.ledger.sqlite import default_training_ledger_path

    args = list(argv)
    if staff:
        staffed_path(Path(args[args.index("--ledger") + 1]) if "--ledger" in args else default_training_ledger_path())
    return ["demo", *args, "--dealer", DEALER, "--supervisor", SUPERVISOR]


def void(table: Table, reason: str) -> list[object]:
    """The round voided with the test supervisor's sign-in for it."""
    from dealer_tui.staff import VOID

    return list(table.act(Void(reason=reason, **staffed(table.ledger).approval(table, VOID))))


def staffed_table(ledger: Ledger, name: str, profile: LoadedProfile, source: CardSource, **options: Any) -> Table:
    """`Table.create` as a casino does it: the profile approved by the manager (a test's own
    profile is a casino's), the table created, the test dealer signed in."""
    return on_duty(Table.create(ledger, name, GAMES.find(profile.game), approved(ledger, profile), source, **options))


def casino_on_shift(ledger: Ledger, name: str = "T1", opener: dict[str, int] | None = None, seed: int = 1,
                    seats: int = 6) -> tuple[Crew, Table]:
    """A house-banked High Card Flush table (the casino profile) with its shift opened: the
    opener (default 30 x 1,000) counted by the test dealer and supervisor."""
    from dealer_tui.rounds.cards import VirtualShoe
    from dealer_tui.staff import DEAL, TRAY
    from rules.profiles.loader import ProfileLibrary

    crew = staffed(ledger)
    table = staffed_table(ledger, name, ProfileLibrary().find("high-card-flush-casino"), VirtualShoe.seeded_with(seed),
                          seats=seats)
    table.money.open_shift(opener or {"1000": 30}, crew.sign_in(DEALER, DEALER_PIN, DEAL, table),
                     crew.sign_in(SUPERVISOR, SUPERVISOR_PIN, TRAY, table))
    return crew, table


async def until(pilot: Any, ready: Any, seconds: float = 5.0) -> bool:
    """Let the app run until `ready()` is true (a worker's result shown) or `seconds` pass; whether
    it became true."""
    for _ in range(int(seconds / 0.05)):
        if ready():
            return True
        await pilot.pause(0.05)
    return bool(ready())


def approval(table: Table, act: str = SIGN_OFF) -> dict[str, object]:
    """The approval fields of a step naming the test supervisor, signed in for `act` at the table's round."""
    return staffed(table.ledger).approval(table, act)


def signed(table: Table, action: Step) -> Step:
    """A void or a payout confirmation with the test supervisor's sign-in for it added; any
    other step as it is."""
    from dealer_tui.staff import VOID

    act = {Void: VOID, ConfirmPayout: SIGN_OFF}.get(type(action))
    if act is None:
        return action
    return replace(action, **approval(table, act))

