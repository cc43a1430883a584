"""The shift report: per table and shift, what was counted against what the records say.

The counted win is the regulators' (win = drop + closer + credits − opener − fills, and a card
room's collection box besides); the rounds' own result is the statistical win; the expected closer
is opener + fills − credits − chips sold + the house's result at a banked game. Each difference is
flagged. The theoretical win is each stake times the profile's house edge on its bet type
(`theoretical`), with the band chance may take the rounds' result over that many rounds (95%).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from dealer_tui.accounting.dealers import DealerFigures
from dealer_tui.accounting.theoretical import Edge, Theory
from dealer_tui.accounting.times import seconds_between
from dealer_tui.events import EventError, typed
from dealer_tui.events.accounting import (
    MARKER,
    ChipsColouredUp,
    TrayCounted,
    TrayCredited,
    TrayFilled,
)
from dealer_tui.events.table import (
    CardsCorrected,
    ChipsBought,
    DealerSignedIn,
    DealerSignedOut,
    PayoutConfirmed,
    RoundStarted,
    RoundVoided,
    SeatTaken,
    SignOffRefused,
    StepTakenBack,
    TableChanged,
    TableOpened,
    TimeCollected,
)
from dealer_tui.language import N_, _, n_, number, p_
from dealer_tui.ledger.base import Ledger, RoundRecord, SettlementRow, StoredEvent, TableRecord
from dealer_tui.rounds.table_profiles import table_profiles
from dealer_tui.rounds.tray import TRAY_EVENTS, Shift, Tray
from rules.bets import banker_kinds
from rules.profiles.loader import LoadedProfile
from rules.simulate.common import Z95

TRAY_KINDS = frozenset(e.KIND for e in TRAY_EVENTS)
DEALER_MARKS = frozenset({StepTakenBack.KIND, CardsCorrected.KIND, SignOffRefused.KIND})
"""Round events counted against the round's dealer (read by kind: nothing in them is needed)."""
FOLDED = TRAY_KINDS | DEALER_MARKS | {RoundVoided.KIND, DealerSignedIn.KIND, DealerSignedOut.KIND}
ENDED = frozenset({PayoutConfirmed.KIND, RoundVoided.KIND})
"""The events that end a round (after them nothing more is recorded in it)."""
OPEN, CLOSED, COUNTED = "open", "closed, drop box not counted", "counted"
"""A shift's status as the report's JSON and CSV write it (a code a program reads: never translated)."""
SIGNED_OFF, OVERRIDDEN = "signed off", "on a manager's override"
"""How a big payout of `ShiftFigures.big_payouts` was paid (codes, said in words where shown)."""


def status_text(status: str, short: bool = False) -> str:
    """A shift's status (`ShiftFigures.status`) in the reader's language; `short`: "closed" for a
    shift closed with its drop box still to count (a table's narrow column)."""
    if status == OPEN:
        return p_("shift", "open")
    if status == CLOSED:
        return p_("shift", "closed") if short else p_("shift", "closed, drop box not counted")
    if status == COUNTED:
        return p_("shift", "counted")
    return status


N_OVER = {"closer": N_("closer over by {chips}"), "drop": N_("drop over by {chips}"),
          "cash": N_("drop's cash over by {chips}"), "markers": N_("drop's markers over by {chips}"),
          "collection": N_("collection box over by {chips}"), "win": N_("win over by {chips}")}
N_SHORT = {"closer": N_("closer short by {chips}"), "drop": N_("drop short by {chips}"),
           "cash": N_("drop's cash short by {chips}"), "markers": N_("drop's markers short by {chips}"),
           "collection": N_("collection box short by {chips}"), "win": N_("win short by {chips}")}
"""A shift's flag for each figure that differs from the records, over or short (a whole sentence each)."""


@dataclass
class ShiftFigures:
    """One table's shift, counted and recorded."""

    table: str
    table_id: int
    game: str
    profile: str
    shift: int
    training: bool
    banked: bool
    opened_at: str
    closed_at: str | None
    tray: Shift
    rounds: int = 0
    voids: int = 0
    handle: int = 0
    handle_by_bet: dict[str, int] = field(default_factory=dict)
    """The handle by bet type, as the settlement rows name them (what each edge is taken on)."""
    rounds_win: int = 0
    last_at: str = ""
    theoretical: float = 0.0
    variance: float = 0.0
    """The variance of the rounds' result about the theoretical win (chips²)."""
    theory_known: bool = True
    edges: dict[str, Edge] = field(default_factory=dict)
    """The house edges each profile of the shift's rounds was given (by profile name)."""
    dealers: dict[str, DealerFigures] = field(default_factory=dict)
    big_payouts: list[tuple[int, int, str]] = field(default_factory=list)
    """(round number, chips paid out, how) of each payout that needed a sign-off."""
    voided: list[tuple[int, str]] = field(default_factory=list)
    """(round number, reason) of each round voided."""
    movements: list[dict[str, object]] = field(default_factory=list)
    """The tray's record: each count, fill, credit and colour-up, who signed it and when."""
    previous_closer: int | None = None
    """The table's closer before this shift's opener (the same tray, counted again)."""
    opened_by: tuple[str, str] = ("", "")
    closed_by: tuple[str, str] = ("", "")
    """(dealer, supervisor) who signed the opener and the closer."""

    # -- what was counted --------------------------------------------------------------------

    @property
    def opener(self) -> int:
        return self.tray.opener

    @property
    def closer(self) -> int | None:
        return self.tray.closer

    @property
    def counted(self) -> bool:
        """The shift closed and its drop box counted: the counted win stands."""
        return self.tray.closer is not None and self.tray.drop is not None

    @property
    def drop(self) -> int | None:
        return None if self.tray.drop is None else self.tray.drop.drop

    @property
    def collection(self) -> int | None:
        return None if self.tray.drop is None else self.tray.drop.collection

    @property
    def win(self) -> int | None:
        """drop + closer + credits − opener − fills (+ the collection box at a card room); chips
        sold before the opener count with it (they were the tray's when the shift began)."""
        t = self.tray
        if t.closer is None or t.drop is None:
            return None
        return t.drop.drop + t.closer + t.credits - t.opener - t.sold_before - t.fills + t.drop.collection

    @property
    def hold(self) -> float | None:
        drop = self.drop
        win = self.win
        return None if win is None or not drop else win / drop

    # -- what the records say ----------------------------------------------------------------

    @property
    def expected_closer(self) -> int:
        return self.tray.expected

    @property
    def closer_difference(self) -> int | None:
        return None if self.tray.closer is None else self.tray.closer - self.tray.expected

    @property
    def expected_drop(self) -> int:
        """The cash and the markers the buy-ins put into the drop box."""
        return self.tray.sold + self.tray.sold_before

    @property
    def drop_difference(self) -> int | None:
        drop = self.drop
        return None if drop is None else drop - self.expected_drop

    @property
    def cash_difference(self) -> int | None:
        """The cash counted against the cash buy-ins (a marker slipped in for cash taken shows here)."""
        t = self.tray
        return None if t.drop is None else t.drop.cash - (t.sold_cash + t.before_cash)

    @property
    def markers_difference(self) -> int | None:
        t = self.tray
        return None if t.drop is None else t.drop.markers - (t.sold_marker + t.before_marker)

    @property
    def expected_collection(self) -> int:
        return self.tray.collected

    @property
    def collection_difference(self) -> int | None:
        collection = self.collection
        return None if collection is None else collection - self.expected_collection

    @property
    def win_difference(self) -> int | None:
        win = self.win
        return None if win is None else win - self.rounds_win

    @property
    def band(self) -> float:
        """How far the rounds' result may stray from the theoretical win by chance (95%)."""
        return Z95 * math.sqrt(self.variance)

    @property
    def theory_basis(self) -> str:
        """How the theoretical win was worked out, in words (the reader's language: the simulator's
        notes on what the simulated player bets, `Edge.assumes`, as the simulator wrote them)."""
        if not self.theory_known:
            return _("no house edge for the profile")
        parts = [_("{edges} ({profile}: strategy {strategy}, {hands} simulated hands; {assumes})", edges=e.basis(),
                   profile=name, strategy=e.strategy, hands=number(e.hands), assumes=e.assumes) if e.assumes
                 else _("{edges} ({profile}: strategy {strategy}, {hands} simulated hands)", edges=e.basis(),
                        profile=name, strategy=e.strategy, hands=number(e.hands))
                 for name, e in self.edges.items()]
        if not self.edges or self.tray.collected:
            parts.append(_("the rake, fees and time the table took"))
        return "; ".join(parts)

    @property
    def hours(self) -> float:
        end = self.closed_at or self.last_at or self.opened_at
        return max(seconds_between(self.opened_at, end), 0.0) / 3600

    @property
    def rounds_per_hour(self) -> float | None:
        hours = self.hours
        return None if hours <= 0 else self.rounds / hours

    @property
    def status(self) -> str:
        """`OPEN`, `CLOSED` (the drop box still to count) or `COUNTED`: a code (`status_text` says
        it in words)."""
        if self.tray.closer is None:
            return OPEN
        return CLOSED if self.tray.drop is None else COUNTED

    @property
    def outside_band(self) -> bool:
        """The rounds' result strayed from the theoretical win further than chance allows (95%)."""
        return self.theory_known and bool(self.edges) and abs(self.rounds_win - self.theoretical) > self.band

    @property
    def flags(self) -> list[str]:
        """The differences a supervisor looks into, in words (the reader's language: worked out
        each time they are read, never stored)."""
        out: list[str] = []
        if self.previous_closer is not None and self.previous_closer != self.opener:
            out.append(_("opener {opener} differs from the last shift's closer {closer}", opener=number(self.opener),
                         closer=number(self.previous_closer)))
        for diff, over, short in (
                (self.closer_difference, N_OVER["closer"], N_SHORT["closer"]),
                (self.drop_difference, N_OVER["drop"], N_SHORT["drop"]),
                (self.cash_difference if self.markers_difference else None, N_OVER["cash"], N_SHORT["cash"]),
                (self.markers_difference, N_OVER["markers"], N_SHORT["markers"]),
                (self.collection_difference, N_OVER["collection"], N_SHORT["collection"]),
                (self.win_difference, N_OVER["win"], N_SHORT["win"])):
            if diff:
                out.append(_(over if diff > 0 else short, chips=number(abs(diff))))
        if not self.theory_known:
            out.append(_("no house edge for the profile: theoretical win not known"))
        elif self.outside_band:
            out.append(_("rounds' result {result} outside the band {theoretical} ± {band}",
                         result=number(self.rounds_win), theoretical=number(round(self.theoretical)),
                         band=number(round(self.band))))
        for earlier in self.tray.recounts:
            out.append(_("drop box recounted: {chips} by {by} replaced ({reason})",
                         chips=number(earlier.cash + earlier.markers), by=earlier.by,
                         reason=self.tray.drop.recount if self.tray.drop is not None else ""))
        return out

    def to_dict(self) -> dict[str, object]:
        t = self.tray
        hold = self.hold
        rph = self.rounds_per_hour
        return {
            "table": self.table, "table_id": self.table_id, "game": self.game, "profile": self.profile,
            "shift": self.shift, "status": self.status, "training": self.training, "banked": self.banked,
            "opened_at": self.opened_at, "closed_at": self.closed_at,
            "opened_by": {"dealer": self.opened_by[0], "supervisor": self.opened_by[1]},
            "closed_by": {"dealer": self.closed_by[0], "supervisor": self.closed_by[1]} if self.closed_at else None,
            "rounds": self.rounds, "voids": self.voids, "hours": round(self.hours, 4),
            "rounds_per_hour": None if rph is None else round(rph, 2),
            "handle": self.handle, "handle_by_bet": dict(sorted(self.handle_by_bet.items())), "drop": self.drop,
            "drop_cash": None if t.drop is None else t.drop.cash,
            "drop_markers": None if t.drop is None else t.drop.markers,
            "expected_drop": self.expected_drop, "drop_difference": self.drop_difference,
            "collection": self.collection, "expected_collection": self.expected_collection,
            "collection_difference": self.collection_difference,
            "opener": self.opener, "previous_closer": self.previous_closer, "closer": self.closer, "fills": t.fills, "credits": t.credits,
            "chips_sold": {"cash": t.sold_cash, "marker": t.sold_marker},
            "chips_sold_before_opener": {"cash": t.before_cash, "marker": t.before_marker},
            "chips_walked": t.walked, "time_collected": t.time,
            "expected_closer": self.expected_closer, "closer_difference": self.closer_difference,
            "win": self.win, "hold": None if hold is None else round(hold, 6),
            "rounds_win": self.rounds_win, "win_difference": self.win_difference,
            "theoretical_win": round(self.theoretical, 2) if self.theory_known else None,
            "theoretical_band": round(self.band, 2) if self.theory_known else None,
            "house_edges": {name: e.to_dict() for name, e in self.edges.items()},
            "dealers": [d.to_dict() for d in self.dealers.values()],
            "drop_counted_by": None if t.drop is None else t.drop.by,
            "tray_record": self.movements, "colour_ups": t.colour_ups,
            "drop_cash_difference": self.cash_difference, "drop_markers_difference": self.markers_difference,
            "recounts": [{"cash": r.cash, "markers": r.markers, "collection": r.collection, "by": r.by}
                         for r in t.recounts],
            "flags": self.flags,
        }


class _Collector:
    """One table's events, in order, cut into shifts."""

    def __init__(self, table: TableRecord, profiles: dict[str, LoadedProfile], theory: Theory) -> None:
        self.table, self.profiles, self.theory = table, profiles, theory
        self.tray = Tray()
        self.shifts: list[ShiftFigures] = []
        self.training = False
        self.edges: dict[str, Edge | None] = {}
        self.started: dict[int, tuple[RoundStarted, ShiftFigures | None]] = {}
        self.sha = table.profile_sha256
        self.duty: tuple[str, str] | None = None
        """(account, since when) of the dealer on duty, counted into the open shift."""
        self.previous_setup: dict[str, object] | None = None
        self.rows: dict[int, RoundRecord] = {}
        self.stakes: dict[int, dict[str, int]] = {}
        self._so_far: tuple[DealerFigures, float] | None = None
        """The time so far last counted to the dealer still on duty (taken back at the next fold)."""

    def current(self) -> ShiftFigures | None:
        if self.shifts and self.shifts[-1].closed_at is None:
            return self.shifts[-1]
        return None

    def fold(self, events: Iterable[StoredEvent], rows: dict[int, RoundRecord],
             stakes: dict[int, dict[str, int]]) -> list[ShiftFigures]:
        """The shifts of the table's events; a payout is read from its round's row and its stakes
        by bet from the settlement rows (which `history verify` holds against the payout's event),
        not decoded again."""
        self.rows.update(rows)
        self.stakes.update(stakes)
        self._take_back_so_far()
        last = ""
        for stored in events:
            last = max(last, stored.ts)
            if stored.kind not in FOLDED:
                continue
            if stored.kind in DEALER_MARKS:
                self._dealer_mark(stored)
                continue
            if stored.kind == PayoutConfirmed.KIND:
                row = rows.get(stored.round_id or 0)
                if row is not None:
                    self.tray.settled(row.house_result)
                    self._settled(row.wagered, row.house_result, stored)
                    dealer = self._dealer(stored) if "override" in row.flags else None
                    if dealer is not None:
                        dealer.overridden += 1
                    shift = self.started.get(stored.round_id or 0, (None, None))[1]
                    if shift is not None and {"signed_off", "override"} & set(row.flags):
                        how = OVERRIDDEN if "override" in row.flags else SIGNED_OFF
                        shift.big_payouts.append((row.number, row.paid, how))
                continue
            try:
                event = typed(stored, self.table.game)
            except EventError:
                continue  # verify names an event that does not read
            self.tray.apply(event, stored.ledger_seq)
            if isinstance(event, (TableOpened, TableChanged)):
                self.sha = event.profile_sha256
                if isinstance(event, TableOpened):
                    self.training = event.training
            elif isinstance(event, TrayCounted):
                self._counted(event, stored)
                self._moved(event.count, event.total, stored, event.dealer, event.supervisor, chips=event.chips)
            elif isinstance(event, (TrayFilled, TrayCredited)):
                self._moved("fill" if isinstance(event, TrayFilled) else "credit", event.total, stored, event.dealer,
                            event.supervisor, event.slip, chips=event.chips)
            elif isinstance(event, ChipsColouredUp):
                self._moved("colour-up", event.total, stored, seat=event.seat)
            elif isinstance(event, (SeatTaken, ChipsBought)) and event.method == MARKER:
                self._moved("marker", event.buy_in if isinstance(event, SeatTaken) else event.amount, stored,
                            self.duty[0] if self.duty is not None else "", event.approved_by, event.marker, event.seat)
            elif isinstance(event, TimeCollected) and (shift := self.current()) is not None:
                shift.rounds_win += event.total  # the house's revenue the table recorded, as its rake
                shift.theoretical += event.total
            elif isinstance(event, RoundStarted) and stored.round_id is not None:
                self._started(event, stored)
            elif isinstance(event, RoundVoided) and stored.round_id in self.started:
                shift = self.started[stored.round_id][1]
                if shift is not None:
                    shift.voids += 1
                    shift.voided.append((self.started[stored.round_id][0].number, event.reason))
                    dealer = self._dealer(stored)
                    if dealer is not None:
                        dealer.voids += 1
                        self._timed(dealer, stored)
            elif isinstance(event, (DealerSignedIn, DealerSignedOut)):
                self._duty(event.account if isinstance(event, DealerSignedIn) else None, stored.ts)
        self._still_on_duty(last)
        return self.shifts

    def _still_on_duty(self, last: str) -> None:
        """The dealer on duty in the open shift: their sign-in time, and their time so far (to the
        table's last record `last`), so that their rounds per hour read before they sign out. A
        later fold takes that time back first (`_take_back_so_far`) and counts it again to its own
        last record."""
        shift = self.current()
        if self.duty is None or shift is None or not last:
            return
        on, since = self.duty
        dealer = shift.dealers.setdefault(on, DealerFigures(on, tables={self.table.name}))
        dealer.on_duty_since = max(since, shift.opened_at)
        seconds = max(seconds_between(dealer.on_duty_since, last), 0.0)
        dealer.on_duty += seconds
        self._so_far = (dealer, seconds)

    def forget(self, round_ids: Iterable[int]) -> None:
        """Drop what the fold kept of rounds that ended (a table watched for months keeps only its
        rounds in play)."""
        for round_id in round_ids:
            self.rows.pop(round_id, None)
            self.stakes.pop(round_id, None)
            self.started.pop(round_id, None)

    def _take_back_so_far(self) -> None:
        if self._so_far is not None:
            counted, seconds = self._so_far
            counted.on_duty -= seconds
            counted.on_duty_since = ""
            self._so_far = None

    def _moved(self, what: str, total: int, stored: StoredEvent, dealer: str = "", supervisor: str = "",
               slip: str = "", seat: int | None = None, chips: dict[str, int] | None = None) -> None:
        shift = self.current() or (self.shifts[-1] if what == "closer" and self.shifts else None)
        if shift is not None:
            shift.movements.append({"what": what, "total": total, "at": stored.ts, "dealer": dealer or None,
                                    "supervisor": supervisor or None, "slip": slip or None, "seat": seat,
                                    "chips": dict(chips or {})})

    def _started(self, event: RoundStarted, stored: StoredEvent) -> None:
        assert stored.round_id is not None
        shift = self.current()
        self.started[stored.round_id] = (event, shift)
        rounds = self.theory.games.find(self.table.game).round
        loaded = self.profiles.get(event.profile_sha256)
        if shift is not None and loaded is not None:
            dealer = shift.dealers.setdefault(event.dealer, DealerFigures(event.dealer, tables={self.table.name}))
            if rounds.rotation_problem(loaded.profile, self.previous_setup, event.setup) is not None:
                dealer.rotation_missed += 1
            dealer.passed_over += rounds.passed_over(event.setup)
        self.previous_setup = dict(event.setup)

    def _dealer(self, stored: StoredEvent) -> DealerFigures | None:
        """The figures of the dealer who dealt the round `stored` is of, in its shift."""
        found = self.started.get(stored.round_id or 0)
        if found is None:
            return None
        started, shift = found
        if shift is None:
            return None
        return shift.dealers.setdefault(started.dealer, DealerFigures(started.dealer, tables={self.table.name}))

    def _dealer_mark(self, stored: StoredEvent) -> None:
        """A step taken back, cards corrected, a sign-off refused: counted against the round's dealer."""
        dealer = self._dealer(stored)
        if dealer is None:
            return
        if stored.kind == SignOffRefused.KIND:
            dealer.refused += 1
        else:
            dealer.corrections += 1

    def _timed(self, dealer: DealerFigures, stored: StoredEvent) -> None:
        row = self.rows.get(stored.round_id or 0)
        if row is not None and row.ended_at:
            seconds = seconds_between(row.started_at, row.ended_at)
            if seconds >= 0:
                dealer.round_seconds += seconds
                dealer.timed += 1

    def _duty(self, account: str | None, ts: str) -> None:
        """The dealer on duty changes at `ts` (None: nobody deals): the time before is the last one's."""
        shift = self.current()
        if self.duty is not None and shift is not None:
            on, since = self.duty
            dealer = shift.dealers.setdefault(on, DealerFigures(on, tables={self.table.name}))
            dealer.on_duty += max(seconds_between(max(since, shift.opened_at), ts), 0.0)
        self.duty = None if account is None else (account, ts)

    def _counted(self, event: TrayCounted, stored: StoredEvent) -> None:
        if event.count == "closer" and self.duty is not None:
            self._duty(self.duty[0], stored.ts)  # the dealer's time in the shift ends with it
        if event.count == "opener" and self.tray.shift is not None:
            profile = self.profiles.get(self.sha)
            earlier = self.tray.shifts[-2].closer if len(self.tray.shifts) > 1 else None
            self.shifts.append(ShiftFigures(
                self.table.name, self.table.id, self.table.game, profile.name if profile else self.table.profile,
                event.shift, self.training, self.tray.banked, stored.ts, None, self.tray.shift,
                previous_closer=earlier, opened_by=(event.dealer, event.supervisor)))
        elif event.count == "closer":
            shift = self.current()
            if shift is not None:
                shift.closed_at, shift.closed_by = stored.ts, (event.dealer, event.supervisor)

    def _settled(self, wagered: int, house: int, stored: StoredEvent) -> None:
        if stored.round_id not in self.started:
            return
        started, shift = self.started[stored.round_id]
        if shift is None:
            return
        shift.rounds += 1
        shift.handle += wagered
        stakes = self.stakes.get(stored.round_id or 0, {})
        for bet, staked in stakes.items():
            if bet not in banker_kinds():
                shift.handle_by_bet[bet] = shift.handle_by_bet.get(bet, 0) + staked
        shift.rounds_win += house
        shift.last_at = stored.ts
        dealer = shift.dealers.setdefault(started.dealer, DealerFigures(started.dealer, tables={self.table.name}))
        dealer.rounds += 1
        dealer.handle += wagered
        dealer.rounds_win += house
        dealer.first = dealer.first or stored.ts
        dealer.last = stored.ts
        self._timed(dealer, stored)
        if not self.tray.banked:  # the profile in force for this round (a change applies between rounds)
            shift.theoretical += house  # rake and fees: what the rounds took, chance aside
            return
        edge = self._edge(started.profile_sha256)
        if edge is None:
            shift.theory_known = False
            return
        shift.edges[started.profile] = edge
        shift.theoretical += edge.theoretical(stakes)
        shift.variance += (edge.spread * wagered) ** 2

    def _edge(self, sha: str) -> Edge | None:
        if sha not in self.edges:
            loaded = self.profiles.get(sha)
            self.edges[sha] = None if loaded is None else self.theory.edge(loaded)
        return self.edges[sha]


def shift_figures(ledger: Ledger, theory: Theory, *, since: str | None = None, until: str | None = None,
                  tables: Sequence[str] = (), notes: list[str] | None = None) -> list[ShiftFigures]:
    """Every table's shifts opened in [since, until) (ISO times; None: no bound), oldest first per
    table; `tables` keeps those tables only (by name). `notes` hears of the rounds a table dealt
    with no shift open (in no shift's figures), in the reader's language."""
    out: list[ShiftFigures] = []
    for table in ledger.tables():
        if tables and table.name not in tables:
            continue
        profiles = table_profiles(ledger, table)
        events = ledger.table_events(table.id, sorted(FOLDED))
        rows = {r.id: r for r in ledger.table_rounds(table.id)}
        collector = _Collector(table, profiles, theory)
        for shift in collector.fold(events, rows, ledger.table_stakes(table.id)):
            if since is not None and shift.opened_at < since:
                continue
            if until is not None and shift.opened_at >= until:
                continue
            out.append(shift)
        if notes is not None and collector.tray.outside:
            notes.append(n_("table {table}: {count} round dealt with no shift open (no opener counted): in no "
                            "shift's figures",
                            "table {table}: {count} rounds dealt with no shift open (no opener counted): in no "
                            "shift's figures", collector.tray.outside, table=table.name))
    return out


class TableShifts:
    """One table's shifts kept up to date: each `update` reads and folds only the events the table
    recorded since the last one (the pit map's refresh), the same fold `shift_figures` makes of the
    whole chain at once. `also` names more kinds of event the caller wants handed back."""

    def __init__(self, ledger: Ledger, table: TableRecord, theory: Theory, also: Iterable[str] = ()) -> None:
        self.ledger, self.table = ledger, table
        self.collector = _Collector(table, table_profiles(ledger, table), theory)
        self.kinds = sorted(FOLDED | set(also))
        self.after = 0
        """The chain number of the last event folded."""

    def update(self) -> list[StoredEvent]:
        """Fold the events recorded since the last update; they are handed back (those of `also`
        among them)."""
        events = self.ledger.table_events(self.table.id, self.kinds, after=self.after)
        if not events:
            return []
        if any(e.kind == TableChanged.KIND for e in events):
            self.collector.profiles = table_profiles(self.ledger, self.table)
        ended = [e.round_id for e in events if e.kind in ENDED and e.round_id is not None]
        rows = {round_id: self.ledger.round(round_id) for round_id in ended}
        stakes = {round_id: _stakes(self.ledger.settlement(round_id)) for round_id in ended}
        self.collector.fold(events, rows, stakes)
        self.collector.forget(ended)  # nothing more is recorded in a round that ended
        self.after = events[-1].seq
        return events

    @property
    def shifts(self) -> list[ShiftFigures]:
        return self.collector.shifts


def _stakes(rows: Iterable[SettlementRow]) -> dict[str, int]:
    """A round's chips staked by bet, summed over the seats (as `Ledger.table_stakes` gives them)."""
    out: dict[str, int] = {}
    for row in rows:
        if row.stake:
            out[row.bet] = out.get(row.bet, 0) + row.stake
    return out


def totals(shifts: Sequence[ShiftFigures]) -> dict[str, object]:
    """The report's totals: over the live tables' shifts (a training table's are left out, unless
    the report has no other) whose drop box is counted — rounds, handle, drop, win, hold, the rounds'
    result and the theoretical win on one footing; the shifts still open or uncounted are counted
    apart."""
    live = [s for s in shifts if not s.training]
    over = live or list(shifts)
    counted = [s for s in over if s.counted]
    drop = sum(s.drop or 0 for s in counted)
    win = sum(s.win or 0 for s in counted)
    return {
        "training": bool(over) and not live, "shifts": len(over), "counted": len(counted),
        "training_shifts_left_out": len(shifts) - len(over),
        "uncounted": len(over) - len(counted),
        "rounds": sum(s.rounds for s in counted), "handle": sum(s.handle for s in counted), "drop": drop, "win": win,
        "hold": round(win / drop, 6) if drop else None,
        "rounds_win": sum(s.rounds_win for s in counted),
        "theoretical_win": round(sum(s.theoretical for s in counted if s.theory_known), 2),
        "flagged": sum(1 for s in over if s.flags), "flags": sum(len(s.flags) for s in over),
    }
