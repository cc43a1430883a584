"""The pit at a glance: every table with its game, limits and status (open, in play, waiting for
the floor, offline, closed), the dealer on duty, the players seated, the rounds of the last hour
and this shift's drop, win and hold — on one table's ledger or on the pit server alike."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from dealer_tui.accounting.shifts import ShiftFigures, shift_figures
from dealer_tui.accounting.theoretical import Theory
from dealer_tui.audit.resettle import table_profiles
from dealer_tui.ledger.base import ROUND_OPEN, Ledger, TableRecord
from dealer_tui.ledger.pg_status import PitStatus
from dealer_tui.rounds.cash import training_table
from dealer_tui.rounds.session import TABLE_EVENTS, TableSession

OPEN, IN_PLAY, WAITING, OFFLINE, CLOSED = "open", "in play", "WAITING FOR THE FLOOR", "OFFLINE", "closed"
OFFLINE_AFTER_S = 120
"""A pit table whose terminal was silent this long (and did not close) is offline."""


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


def pit_map(ledger: Ledger, theory: Theory, now: datetime) -> list[TableGlance]:
    """Every table of the ledger (the live ones first, then training), by name."""
    shifts: dict[int, ShiftFigures] = {}
    for figures in shift_figures(ledger, theory):
        shifts[figures.table_id] = figures  # the last shift of each table
    waiting = {w.round.table_id for w in ledger.sign_off_queue()}
    links = ledger.table_links() if isinstance(ledger, PitStatus) else {}
    areas = ledger.areas() if isinstance(ledger, PitStatus) else {}
    since = (now - timedelta(hours=1)).isoformat()  # the ledger's times are ISO, UTC: they compare as text
    out = []
    for table in ledger.tables():
        session = TableSession(0)  # the dealer on duty and the seated players, as the table replays them
        session.apply_all(ledger.table_events(table.id, [cls.KIND for cls in TABLE_EVENTS]))
        rounds = ledger.table_rounds(table.id)
        open_round = any(r.status == ROUND_OPEN for r in rounds)
        shift = shifts.get(table.id)
        link = links.get(table.id)
        offline = link is not None and not link[2] and (link[1] or 0) > OFFLINE_AFTER_S
        closed = shift is not None and shift.closed_at is not None and not open_round
        status = (OFFLINE if offline else WAITING if table.id in waiting else IN_PLAY if open_round
                  else CLOSED if closed or (link is not None and link[2]) else OPEN)
        recent = sum(1 for r in rounds if r.started_at >= since)
        drop, counted, win = _money(shift)
        dealer = session.dealer if status != CLOSED else None  # a closed table has nobody on duty or seated
        out.append(TableGlance(table.id, table.name, table.game, _limits(ledger, table), status,
                               f"{dealer.name} ({dealer.account})" if dealer is not None else "",
                               len(session.players) if status != CLOSED else 0,
                               recent, shift.shift if shift is not None else None, drop, counted, win,
                               areas.get(table.id, ""), training_table(ledger, table)))
    return sorted(out, key=lambda g: (g.training, g.name))


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
