"""One table's chain read once, in order: each event checked and replayed on the table's seats,
each round's stored row held against what its events record, each finished round re-settled."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dealer_tui.audit.resettle import resettle_events, round_words, table_words
from dealer_tui.audit.tray_audit import TrayAudit
from dealer_tui.events import Event, EventError, typed, typed_as
from dealer_tui.events.round_row import END_KINDS, round_update, started_flags
from dealer_tui.events.table import (
    ChipsBought,
    RoundRecovered,
    RoundStarted,
    SeatAway,
    SeatLeft,
    SeatTaken,
    TableOpened,
)
from dealer_tui.ledger import hours
from dealer_tui.ledger.base import (
    ROUND_OPEN,
    ROUND_SETTLED,
    ROUND_VOIDED,
    StoredEvent,
    TableRecord,
    status_said,
)
from dealer_tui.ledger.hours import add_round
from dealer_tui.ledger.payouts import HOUSE_BANKED, house_fees, round_chips
from dealer_tui.ledger.records import ChainCheck, StoredRound
from dealer_tui.rounds.session import TableSession
from dealer_tui.rounds.table import TABLE_KINDS
from dealer_tui.rounds.table_profiles import table_profiles
from rules.bets import role_of
from rules.errors import RulesError
from rules.profiles.loader import LoadedProfile
from rules.said import Said, as_figure, said_of, say

if TYPE_CHECKING:
    from dealer_tui.audit.ledger_audit import LedgerAudit

ROUND_FIGURES = ("seats", "wagered", "paid", "house_result", "returned", "from_stacks", "max_payout", "fees",
                 "banking")
"""The figures of a round's row, in the order a problem names them."""
HOUR_FIGURES = hours.NAMES
Seating = tuple[int, Any, str, int, int | None]
"""(table, seat, player, first round, last round or None while seated): a row of `seatings`."""


class TableAudit:
    """One table's chain read once, in order: each event checked and replayed."""

    def __init__(self, audit: LedgerAudit, table: TableRecord) -> None:
        self.audit = audit
        self.ledger = audit.ledger
        self.table = table
        self.problems = audit.report.problems
        self.label = table_words(table)
        self.session: TableSession | None = None
        self.profiles: dict[str, LoadedProfile] = {}
        self.rounds: dict[int, StoredRound] = {}
        self.current: tuple[StoredRound, list[StoredEvent]] | None = None
        self.finished: set[int] = set()
        self.ended: dict[int, str | None] = {}
        """Round id -> the time of the event after its end (None while none came yet)."""
        self.waiting_end: int | None = None
        self.open_seatings: dict[Any, tuple[int, Any, str, int]] = {}
        """Seat -> (table, seat, player, first round) of who sits there now."""
        self.earlier: dict[int, list[int]] = {}
        self.misnumbered: set[int] = set()
        self.tray = TrayAudit(table.game, self.label, self.problems)
        known = table.game in audit.games
        self.current_revision = audit.games.find(table.game).round.RULES_REVISION if known else None
        """The rules revision this program settles the table's game by (None: its rules never changed)."""

    def problem(self, where: Said, what: Said) -> None:
        self.problems.append(say("{where}: {what}", where=where, what=what))

    def where(self, record: StoredRound) -> Said:
        return round_words(self.label, record.number, record.id)

    def at_event(self, event: StoredEvent) -> Said:
        """`table 1 (Flush 1), event 7 (seat_taken)`: where a table's event between rounds is."""
        return say("{where}, event {seq} ({kind})", where=self.label, seq=str(event.seq), kind=event.kind)

    def run(self) -> None:
        table = self.table
        try:
            self.profiles = table_profiles(self.ledger, table)  # type: ignore[arg-type]
        except RulesError as exc:
            self.problem(self.label, say("its profile does not load: {problem}", problem=said_of(exc)))
        stored = self.ledger.stored_rounds(table.id)
        self.audit.report.rounds += len(stored)
        for place, record in enumerate(stored, start=1):
            self.rounds[record.id] = record
            self.audit.round_ids.add(record.id)
            if record.number != place:
                self.misnumbered.add(record.id)
                self.problem(self.where(record), say("numbered {number}, but it is round {place} of the table "
                                                     "(round numbers run 1, 2, 3, ... without a gap)",
                                                     number=record.number, place=place))
            if record.game != table.game:
                self.problem(self.where(record), say("stored as a {game} round at a {table_game} table",
                                                     game=str(record.game), table_game=table.game))
        chain = ChainCheck()
        last_ledger_seq = 0
        prev_ts: str | None = None
        any_event = False
        for event, ok in self.ledger.chain_events(table.id):
            any_event = True
            self.problems.extend(chain.problems(event, ok))
            if event.ledger_seq is not None:
                if event.ledger_seq <= last_ledger_seq:
                    self.problem(self.at_event(event),
                                 say("its place in the ledger-wide sequence ({place}) is not after the table's event "
                                     "before it ({before})", place=str(event.ledger_seq), before=str(last_ledger_seq)))
                last_ledger_seq = event.ledger_seq
            if self.waiting_end is not None:
                self.ended[self.waiting_end] = event.ts
                self.waiting_end = None
            self.event(event, prev_ts)
            prev_ts = event.ts
        if not any_event:
            self.problem(self.label, say("has no events: its opening (table_opened) is missing"))
        elif self.session is None:
            self.problem(self.label, say("its chain has no table_opened event"))
        if self.current is not None:
            self.finish_round(*self.current)
        for record in self.rounds.values():
            if record.id not in self.finished:
                self.problem(self.where(record), say("has no events (it does not begin with its start)"))
        for table_id, seat, player, first in self.open_seatings.values():
            self.audit.seatings[(table_id, seat, player, first, None)] += 1
        for revision, numbers in sorted(self.earlier.items()):
            self.audit.report.notes.append(say(
                "{where}: {what}", where=self.label,
                what=say("{rounds} settled under rules revision {revision}, re-settled by revision {revision}'s rules, "
                         "not revision {current}'s", rounds=_rounds(numbers), revision=revision,
                         current=as_figure(self.current_revision))))

    # -- one event ----------------------------------------------------------------------------

    def event(self, event: StoredEvent, prev_ts: str | None) -> None:
        on_duty = self.session.dealer if self.session is not None else None
        self.tray.check(event, on_duty.account if on_duty is not None else None)
        if event.round_id is None:  # between rounds, or during one (a supervisor signing in)
            self.audit.authority.check(event, self.label, self.session or TableSession(0), self.table,
                                       label=self.label)
            self.table_event(event)
            return
        record = self.rounds.get(event.round_id)
        if record is None:
            return  # an event of a round the table does not have: `orphans` names it
        if self.session is not None:
            self.audit.authority.check(event, self.where(record), self.session, self.table, record.number,
                                       label=self.label)
        if self.current is None or self.current[0].id != record.id:
            if self.current is not None:
                self.finish_round(*self.current)
            if record.id in self.finished:
                self.problem(self.where(record), say("event {seq} ({kind}) comes after later rounds began",
                                                     seq=str(event.seq), kind=event.kind))
                self.current = None
                return
            self.current = (record, [])
            if event.kind == "round_started":
                self.round_start(record, event, prev_ts)
        self.current[1].append(event)
        if event.kind in TABLE_KINDS and event.kind != "round_started":
            self.replay(event, self.where(record))
        if event.kind in END_KINDS:
            self.ended[record.id] = None
            self.waiting_end = record.id

    def replay(self, event: StoredEvent, where: Said) -> None:
        if self.session is None:
            self.problem(where, say("event {seq} ({kind}) comes before the table was opened", seq=str(event.seq),
                                    kind=event.kind))
            return
        found = self.read(event, where)
        if found is None:
            return
        try:
            self.session.apply(found)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            self.problem(where, say("event {seq} ({kind}) does not replay on the table's seats ({problem})",
                                    seq=str(event.seq), kind=event.kind, problem=repr(exc)))

    def read(self, event: StoredEvent, where: Said) -> Event | None:
        """The event as its typed event; None (and the reason said) when it does not read."""
        try:
            return typed(event, self.table.game)
        except EventError as exc:
            if where == self.at_event(event):  # the place names the event already
                self.problem(where, say("does not read: {problem}", problem=said_of(exc)))
            else:
                self.problem(where, say("event {seq} ({kind}) does not read: {problem}", seq=str(event.seq),
                                        kind=event.kind, problem=said_of(exc)))
            return None

    def table_event(self, event: StoredEvent) -> None:
        where = self.at_event(event)
        if event.kind == TableOpened.KIND:
            if self.session is not None:
                self.problem(where, say("the table is opened a second time"))
                return
            opened = self.read(event, where)
            if isinstance(opened, TableOpened):
                self.check_table_row(where, opened)
                self.session = TableSession(opened.seats)
                self.session.apply(opened)
            return
        session = self.session
        if session is None:
            if event.kind in TABLE_KINDS:
                self.problem(where, say("comes before the table was opened"))
            return
        if event.kind not in TABLE_KINDS:
            return
        found = self.read(event, where)
        if isinstance(found, SeatTaken) and found.seat in session.players:
            self.problem(where, say("seat {seat} is taken while {name} holds it", seat=as_figure(found.seat),
                                    name=str(session.players[found.seat].name)))
        if isinstance(found, (ChipsBought, SeatLeft, SeatAway)) and found.seat not in session.players:
            self.problem(where, say("seat {seat} is empty", seat=as_figure(found.seat)))
            return
        if isinstance(found, SeatLeft) and found.cash_out != session.players[found.seat].stack:
            self.problem(where, say("seat {seat} cashes out {chips} chips; the table's events leave it {stack}",
                                    seat=as_figure(found.seat), chips=as_figure(found.cash_out),
                                    stack=as_figure(session.players[found.seat].stack)))
        if isinstance(found, (SeatTaken, SeatLeft)):
            self.seating(found)
        if found is not None:
            self.replay(event, where)

    def check_table_row(self, where: Said, opened: TableOpened) -> None:
        """The table's row (what the lists show) against its opening event."""
        table = self.table
        for name, value, recorded in (("profile", table.profile, opened.profile),
                                      ("profile_sha256", table.profile_sha256, opened.profile_sha256),
                                      ("card_source", table.card_source, opened.card_source)):
            if recorded != value:
                self.problem(where, say("the table's stored {field} is {stored}; its opening records {recorded}",
                                        field=name, stored=repr(value), recorded=repr(recorded)))
        loaded = self.profiles.get(opened.profile_sha256)
        if loaded is not None and loaded.game != table.game:
            self.problem(where, say("the table is stored as {game}; its opening profile is for {profile_game}",
                                    game=table.game, profile_game=str(loaded.game)))

    def seating(self, event: SeatTaken | SeatLeft) -> None:
        """Who sat where from which round to which, as the ledger's writer records it."""
        played = self.session.rounds_started if self.session is not None else 0
        seat = event.seat
        if isinstance(event, SeatTaken):
            if seat in self.open_seatings:  # an earlier seating of the seat never closed
                self.audit.seatings[(*self.open_seatings.pop(seat), None)] += 1
            self.open_seatings[seat] = (self.table.id, seat, event.player, played + 1)
        elif seat in self.open_seatings:
            self.audit.seatings[(*self.open_seatings.pop(seat), played)] += 1

    def round_start(self, record: StoredRound, event: StoredEvent, prev_ts: str | None) -> None:
        """Stack continuity: the round starts from what the table's events leave each seat."""
        where = self.where(record)
        if not (prev_ts is None or prev_ts <= record.started_at <= event.ts):
            self.problem(where, say("stored as started at {at}, outside the time of its first event ({first}) and the "
                                    "event before it ({before})", at=str(record.started_at), first=str(event.ts),
                                    before=str(prev_ts)))
        session = self.session
        if session is None:
            self.problem(where, say("starts before the table was opened"))
            return
        started = self.read(event, where)
        if not isinstance(started, RoundStarted):
            return
        expected = session.rounds_started + 1
        if started.number != expected:
            self.problem(where, say("its start records number {number}; it is round {expected} of the table's chain",
                                    number=as_figure(started.number), expected=expected))
        elif record.number != expected and record.id not in self.misnumbered:
            self.problem(where, say("stored as round {number}; its start records round {expected}",
                                    number=record.number, expected=expected))
        if record.profile != started.profile:
            self.problem(where, say("stored with profile {stored}; its start records {recorded}",
                                    stored=repr(record.profile), recorded=repr(started.profile)))
        if started.training != session.training:
            self.problem(where, say("its start records a training round at a live table") if started.training
                         else say("its start records a live round at a training table"))
        if not isinstance(started.setup, dict):
            self.problem(where, say("its start has no setup"))
        else:
            self.check_stacks(where, started.setup, session)
        self.replay(event, where)

    def check_stacks(self, where: Said, setup: dict[str, Any], session: TableSession) -> None:
        if "seats" in setup and setup["seats"] != session.seat_count:
            self.problem(where, say("starts with {seats} seats; the table has {count}", seats=as_figure(setup["seats"]),
                                    count=session.seat_count))
        players = setup.get("players")
        for seat_text, player in (players.items() if isinstance(players, dict) else ()):
            try:
                seat = int(seat_text)
                name, stack = player.get("name"), player.get("stack")
            except (TypeError, ValueError, AttributeError):
                self.problem(where, say("its setup's seat {seat} does not read", seat=repr(seat_text)))
                continue
            held = session.players.get(seat)
            if held is None:
                self.problem(where, say("seat {seat} ({name}) starts with {stack} chips, but nobody sits there",
                                        seat=seat, name=str(name), stack=as_figure(stack)))
            elif held.away:
                self.problem(where, say("seat {seat} ({name}) is dealt in while its player sits out", seat=seat,
                                        name=str(name)))
            elif stack != held.stack:
                self.problem(where, say("seat {seat} ({name}) starts with {stack} chips; the table's events leave it "
                                        "{held} (stack continuity)", seat=seat, name=str(name), stack=as_figure(stack),
                                        held=as_figure(held.stack)))
            elif name != held.name:
                self.problem(where, say("seat {seat} starts as {name}; {held} sits there", seat=seat, name=repr(name),
                                        held=repr(held.name)))
        banker = setup.get("banker")
        if banker is not None and "banker_stack" in setup:
            held = session.players.get(banker)
            if held is None or held.stack != setup["banker_stack"]:
                at, chips = as_figure(banker), as_figure(setup["banker_stack"])
                self.problem(where, say("the banker, seat {seat}, starts with {stack} chips; the table's events "
                                        "leave it {held} (stack continuity)", seat=at, stack=chips,
                                        held=as_figure(held.stack)) if held
                             else say("the banker, seat {seat}, starts with {stack} chips; the table's events "
                                      "leave it no seat (stack continuity)", seat=at, stack=chips))

    # -- one round, once its events are in -------------------------------------------------------

    def finish_round(self, record: StoredRound, events: list[StoredEvent]) -> None:
        self.finished.add(record.id)
        where = self.where(record)
        if not events or events[0].kind != "round_started":
            self.problem(where, say("does not begin with its start"))
            return
        ends = [e for e in events if e.kind in END_KINDS]
        if len(ends) > 1:
            self.problem(where, say("ends {count} times ({kinds})", count=len(ends),
                                    kinds=", ".join(e.kind for e in ends)))
        expected = expected_row(events)
        if isinstance(expected, Said):
            self.problem(where, expected)
            return
        status, flags, figures = expected
        if record.status != status:
            self.problem(where, say("stored as {stored}; its events make it {status}",
                                    stored=status_said(str(record.status)), status=status_said(status)))
        stored_flags = {f for f in record.flags.split(",") if f}
        if stored_flags != flags or record.flags != ",".join(sorted(stored_flags)):
            self.problem(where, say("stored flags {stored}; its events give {flags}", stored=repr(record.flags),
                                    flags=repr(",".join(sorted(flags)))))
        indexed = self.audit.flag_index.get(record.id, set())
        if indexed != flags:
            self.problem(where, say("the flag index lists {indexed}; its events give {flags}",
                                    indexed=repr(",".join(sorted(indexed))), flags=repr(",".join(sorted(flags)))))
        for name in ROUND_FIGURES:
            if getattr(record, name) != figures[name]:
                self.problem(where, say("stored {field} {stored}; its events give {expected}", field=name,
                                        stored=repr(getattr(record, name)), expected=repr(figures[name])))
        self.check_times(where, record, ends[-1] if ends else None)
        stored_rows = self.ledger.settlement(record.id) if record.id in self.audit.with_rows else []  # type: ignore[attr-defined]
        if status != ROUND_SETTLED:
            if stored_rows:
                self.problem(where, say("{count} settlement row(s) stored for a round its events leave {status}: "
                                        "only a settled round has them", count=len(stored_rows), status=status_said(status)))
            return
        if "training" not in flags:  # a training table's rounds stay out of the hourly totals
            key = (record.started_at[:13], self.table.id, self.table.game, str(figures["banking"]))
            add_round(self.audit.hours.setdefault(key, [0] * len(HOUR_FIGURES)), lambda column: int(figures[column]))
        if self.audit.roles_stored:
            for row in stored_rows:
                declared = role_of(row.bet)
                if row.role != declared:
                    stored_as = (say("its settlement row is stored as {role}", role=row.role) if row.role
                                 else say("its settlement row is stored as no role"))
                    declares = (say("the game declares the bet {role}", role=declared) if declared
                                else say("the game declares the bet not at all"))
                    self.problem(where, say("seat {seat} {bet}: {stored}; {declared}", seat=as_figure(row.seat),
                                            bet=row.bet, stored=stored_as, declared=declares))
        problems, revision = resettle_events(self.audit.games, self.table, record.id, record.number, list(events),
                                             stored_rows, self.profiles)
        self.problems.extend(problems)
        if revision is not None and self.current_revision is not None and revision < self.current_revision:
            self.earlier.setdefault(revision, []).append(record.number)

    def check_times(self, where: Said, record: StoredRound, end: StoredEvent | None) -> None:
        if end is None:
            if record.ended_at is not None:
                self.problem(where, say("stored as ended at {at}; its events do not end it", at=str(record.ended_at)))
            return
        after = self.ended.get(record.id)
        if record.ended_at is None or record.ended_at < end.ts or (after is not None and record.ended_at > after):
            self.problem(where, say("stored as ended at {at}, outside the time of its last event ({last}) and the "
                                    "event after it ({after})", at=str(record.ended_at), last=str(end.ts),
                                    after=str(after)))


def expected_row(events: list[StoredEvent]) -> tuple[str, set[str], dict[str, Any]] | Said:
    """What the round's row holds when written from these events, as the writer writes it: the
    status, flags and figures (`ROUND_FIGURES`); or why the events do not read."""
    try:
        started = typed_as(RoundStarted, events[0])
    except EventError as exc:
        return say("its start does not read: {problem}", problem=said_of(exc))
    flags = set(started_flags(started))
    if any(e.kind == RoundRecovered.KIND for e in events):
        flags.add("recovered")
    figures: dict[str, Any] = dict.fromkeys(ROUND_FIGURES, 0)
    figures["banking"] = HOUSE_BANKED
    ends = [e for e in events if e.kind in END_KINDS]
    if not ends:
        return ROUND_OPEN, flags, figures
    end = ends[-1]
    try:
        update = round_update([typed(end)])  # the writer's own reading
    except EventError as exc:
        return say("its {kind} event does not read: {problem}", kind=end.kind, problem=said_of(exc))
    assert update is not None
    flags |= set(update.add_flags)
    status = update.status or ROUND_OPEN
    if update.totals is not None:
        figures["seats"], figures["wagered"], figures["paid"], figures["house_result"] = update.totals
        if status == ROUND_VOIDED:
            figures["returned"] = figures["wagered"]
    if update.settlement is not None:
        chips = round_chips(update.settlement)
        figures.update(paid=chips.paid, returned=chips.returned, from_stacks=chips.from_stacks,
                       max_payout=chips.max_payout, banking=chips.kind,
                       fees=house_fees(update.settlement))
    return status, flags, figures


def _rounds(numbers: list[int]) -> Said:
    """`round 3`, `rounds 1-4, 7` (round numbers in order, runs joined)."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    text = ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)
    return say("rounds {rounds}", rounds=text) if len(numbers) > 1 else say("round {rounds}", rounds=text)
