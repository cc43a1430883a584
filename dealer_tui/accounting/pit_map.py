"""The pit at a glance: every table with its game, limits and status (open, in play, waiting for
the floor, offline, closed), the dealer on duty, the players seated, the rounds of the last hour
and this shift's drop, win and hold — on one table's ledger or on the pit server alike."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from dealer_tui.accounting.shifts import ENDED, ShiftFigures, TableShifts
from dealer_tui.accounting.theoretical import Theory
from dealer_tui.events.table import RoundStarted, TableChanged
from dealer_tui.ledger.base import Ledger, TableRecord
from dealer_tui.ledger.pg_status import PitStatus
from dealer_tui.rounds.cash import training_table
from dealer_tui.rounds.session import TABLE_EVENTS, TableSession
from dealer_tui.rounds.table_profiles import table_profiles

OPEN, IN_PLAY, WAITING, OFFLINE, CLOSED = "open", "in play", "WAITING FOR THE FLOOR", "OFFLINE", "closed"
OFFLINE_AFTER_S = 120
"""A pit table whose terminal was silent this long (and did not close) is offline."""
SESSION_KINDS = frozenset(cls.KIND for cls in TABLE_EVENTS)
WATCHED = (RoundStarted.KIND, *ENDED, TableChanged.KIND)
"""Besides the shifts' and the seats' events, what the map follows: rounds starting and ending,
the table's profile changing."""


@dataclass(frozen=True)
class TableGlance:
    """One table as the pit map shows it."""

    id: int
    name: str
    game: str
    limits: str
    status: str
    dealer: str
    """The dealer on duty ("": nobody)."""
    players: int
    rounds_last_hour: int
    shift: int | None
    """The table's current (or last) shift's number; None: its tray is not kept."""
    drop: int | None
    """The shift's drop: as counted, or, before the count, what its buy-ins put in the box."""
    drop_counted: bool
    win: int | None
    """The shift's win: as counted, or, before the count, its rounds' result so far."""
    area: str = ""
    training: bool = False

    @property
    def hold(self) -> float | None:
        return None if self.win is None or not self.drop else self.win / self.drop


class _TableWatch:
    """One table as the pit map follows it: its shifts, its seats and dealer, its rounds in play and
    those started in the last hour, each brought up to date from the events since the last look."""

    def __init__(self, ledger: Ledger, table: TableRecord, theory: Theory) -> None:
        self.ledger, self.table = ledger, table
        self.shifts = TableShifts(ledger, table, theory, also=[cls.KIND for cls in TABLE_EVENTS] + list(WATCHED))
        self.session = TableSession(0)
        self.in_play: set[int] = set()
        self.started: list[str] = []
        """When the rounds of the last hour (as of the last look) started, oldest first."""
        self.training = training_table(ledger, table)
        self.limits = _limits(ledger, table)

    def look(self, since: str) -> None:
        """Fold what the table recorded since the last look; forget round starts before `since`."""
        events = self.shifts.update()
        self.session.apply_all(e for e in events if e.kind in SESSION_KINDS)
        for e in events:
            if e.kind == RoundStarted.KIND and e.round_id is not None:
                self.in_play.add(e.round_id)
                self.started.append(e.ts)
            elif e.kind in ENDED and e.round_id is not None:
                self.in_play.discard(e.round_id)
            elif e.kind == TableChanged.KIND:
                self.limits = _limits(self.ledger, self.table)
        self.started = [ts for ts in self.started if ts >= since]


class PitWatch:
    """The pit map kept up to date: every table of the ledger followed from the events it records
    (a ledger of months is read once; each later look reads what came since)."""

    def __init__(self, ledger: Ledger, theory: Theory) -> None:
        self.ledger, self.theory = ledger, theory
        self.tables: dict[int, _TableWatch] = {}

    def glances(self, now: datetime) -> list[TableGlance]:
        """Every table of the ledger (the live ones first, then training), by name."""
        waiting = {w.round.table_id for w in self.ledger.sign_off_queue()}
        links = self.ledger.table_links() if isinstance(self.ledger, PitStatus) else {}
        areas = self.ledger.areas() if isinstance(self.ledger, PitStatus) else {}
        since = (now - timedelta(hours=1)).isoformat()  # the ledger's times are ISO, UTC: they compare as text
        out = []
        for table in self.ledger.tables():
            watch = self.tables.get(table.id)
            if watch is None:
                watch = self.tables[table.id] = _TableWatch(self.ledger, table, self.theory)
            watch.look(since)
            shift = watch.shifts.shifts[-1] if watch.shifts.shifts else None
            link = links.get(table.id)
            offline = link is not None and not link[2] and (link[1] or 0) > OFFLINE_AFTER_S
            closed = shift is not None and shift.closed_at is not None and not watch.in_play
            status = (OFFLINE if offline else WAITING if table.id in waiting else IN_PLAY if watch.in_play
                      else CLOSED if closed or (link is not None and link[2]) else OPEN)
            drop, counted, win = _money(shift)
            dealer = watch.session.dealer if status != CLOSED else None  # a closed table: nobody on duty or seated
            out.append(TableGlance(table.id, table.name, table.game, watch.limits, status,
                                   f"{dealer.name} ({dealer.account})" if dealer is not None else "",
                                   len(watch.session.players) if status != CLOSED else 0,
                                   len(watch.started), shift.shift if shift is not None else None, drop, counted, win,
                                   areas.get(table.id, ""), watch.training))
        return sorted(out, key=lambda g: (g.training, g.name))


def pit_map(ledger: Ledger, theory: Theory, now: datetime) -> list[TableGlance]:
    """Every table of the ledger (the live ones first, then training), by name, read once."""
    return PitWatch(ledger, theory).glances(now)


def _money(shift: ShiftFigures | None) -> tuple[int | None, bool, int | None]:
    """The shift's drop (counted or expected), whether it was counted, and its win (counted, or
    the rounds' result so far)."""
    if shift is None:
        return None, False, None
    if shift.drop is not None:
        return shift.drop, True, shift.win
    return shift.expected_drop, False, shift.rounds_win


def _limits(ledger: Ledger, table: TableRecord) -> str:
    """The table's limits under the profile it runs now (its last change)."""
    profiles = list(table_profiles(ledger, table).values())
    return profiles[-1].profile.posted_limits() if profiles else ""
