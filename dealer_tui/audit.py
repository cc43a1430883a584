"""Re-checking a ledger: every row it shows follows from its hash-chained events.

`verify` reads each table's chain once, in order, and holds against it everything the floor,
`history list` and the exports read:
- the chain itself (every hash and link), the ledger-wide sequence of events across tables (a
  deleted table or deleted events leave a gap), SQLite's integrity check of the file;
- each round's stored row (seats, wagered, paid, returned, from stacks, house result, biggest
  payout, fees, banking, status, flags, profile, times) against what its events record, and its
  number against its place in the table; each finished round re-settled through the rules;
- the settlement rows of every round (a voided or open round has none), the flag index, the
  hourly totals, who sat where;
- stack continuity: each round's starting stacks are what the table's earlier events (seatings,
  buy-ins, cash-outs, payouts) leave each seat, replayed as the terminal replays them;
- with a witness (`dealer_tui.ledger.witness`), that the ledger still holds the last event of
  each table the witness names.

A round is re-settled by the rules it was played under. Chinese Poker rounds record the RULES.md
revision in their setup (`rules_revision`); one recorded without it was played under revision 1
and is re-settled by revision 1's rules, which are kept for that, and the report says which
rounds those are. Nothing in the ledger is rewritten. The other games' revision 2 changes settle
an existing round alike (a per-round bonus cap a profile did not have is none; table stakes for
an Ante or an exchange only refuse actions), so their rounds carry no revision.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from dealer_tui.events import EventError, RoundEvent, typed, typed_as
from dealer_tui.events.codec import Recorded
from dealer_tui.events.table import (
    ChipsBought,
    PayoutConfirmed,
    RoundRecovered,
    RoundStarted,
    SeatLeft,
    SeatTaken,
    TableChanged,
    TableOpened,
)
from dealer_tui.ledger.base import (
    ROUND_OPEN,
    ROUND_SETTLED,
    ROUND_VOIDED,
    Ledger,
    NewEvent,
    SettlementRow,
    StoredEvent,
    TableRecord,
)
from dealer_tui.ledger.payouts import HOUSE_BANKED, round_chips
from dealer_tui.ledger.records import AuditReads, ChainCheck, StoredRound
from dealer_tui.ledger.schema import FEE_BETS
from dealer_tui.ledger.witness import WitnessRecord, witness_problems
from dealer_tui.rounds.base import Round
from dealer_tui.rounds.chinese_poker import ChinesePokerRound
from dealer_tui.rounds.registry import round_class
from dealer_tui.rounds.session import TableSession
from dealer_tui.rounds.table import TABLE_KINDS, Table
from rules.chinese_poker import RULES_REVISION
from rules.errors import RulesError
from rules.profiles.loader import LoadedProfile, parse_profile

END_KINDS = ("payout_confirmed", "round_voided")
ROUND_FIGURES = ("seats", "wagered", "paid", "house_result", "returned", "from_stacks", "max_payout", "fees",
                 "banking")
"""The figures of a round's row, in the order a problem names them."""
HOUR_FIGURES = ("rounds", "wagered", "paid", "returned", "from_stacks", "house", "biggest", "fees")
Seating = tuple[int, Any, str, int, int | None]
"""(table, seat, player, first round, last round or None while seated): a row of `seatings`."""


@dataclass
class Verification:
    """What `history verify` reports: the problems (none when all agree) and plain notes, such as
    the rounds re-settled by an earlier revision of the rules."""

    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    rounds: int = 0
    """Rounds the ledger holds."""


def verify_ledger(ledger: Ledger) -> list[str]:
    """One line per problem, each naming its table and round; empty when all agree."""
    return verify(ledger).problems


def verify(ledger: Ledger, witness: WitnessRecord | None = None) -> Verification:
    """Every hash, row, total and stack checked against the events, every finished round
    re-settled by the rules it was played under; with `witness`, the heads it holds."""
    if not isinstance(ledger, AuditReads):
        return _verify_events_only(ledger)
    report = Verification()
    try:
        with ledger.snapshot():  # the witness was read before: every head it names is in this snapshot
            _verify_stored(ledger, report, witness)
    except sqlite3.DatabaseError as exc:  # a damaged file: pages missing or garbled
        report.problems.append(f"ledger file: cannot be read through ({exc}): the file is damaged or cut short")
    return report


def _verify_stored(ledger: AuditReads, report: Verification, witness: WitnessRecord | None) -> None:
    report.problems += ledger.integrity_problems()
    if not ledger.has_ledger_seq():
        report.notes.append("the ledger predates the ledger-wide sequence of events (schema 6) and was read as it "
                            "is: the sequence and the witness were not checked")
    report.problems += ledger.sequence_problems()
    report.problems += ledger.orphans()
    for what in ("table", "round"):
        gaps = ledger.id_gaps(f"{what}s")
        if gaps:
            ranges = [f"{b + 1}" if a == b + 2 else f"{b + 1}-{a - 1}" for b, a in gaps]
            shown = ", ".join(ranges if len(ranges) <= 6 else [*ranges[:3], "...", *ranges[-2:]])
            count = sum(a - b - 1 for b, a in gaps)
            report.problems.append(f"ledger: {count} {what} id(s) missing ({what} id {shown}): "
                                   f"{what}s were deleted")
    audit = LedgerAudit(ledger, report)
    tables = ledger.tables()  # type: ignore[attr-defined]
    for table in tables:
        audit.table(table)
    audit.finish()
    if witness is not None and ledger.has_ledger_seq():
        report.problems += witness_problems(witness, ledger.event_at, {t.id: t.name for t in tables},
                                            ledger.last_ledger_seq())


def _verify_events_only(ledger: Ledger) -> Verification:
    """A ledger without stored rows to read as they are: its chain, and every finished round
    re-settled."""
    report = Verification(list(ledger.chain_problems()))
    for table in ledger.tables():
        try:
            profiles = table_profiles(ledger, table)
        except RulesError as exc:
            report.problems.append(f"table {table.id} ({table.name}): its profile does not load: {exc}")
            continue
        for record in ledger.table_rounds(table.id):
            report.rounds += 1
            if record.status == ROUND_SETTLED:
                report.problems += resettle(ledger, table, record.id, record.number, profiles)
    return report


class LedgerAudit:
    """The checks that need every table: the hourly totals, the settlement rows and flag index of
    every round, who sat where; one table at a time (`table`), then `finish`."""

    def __init__(self, ledger: AuditReads, report: Verification) -> None:
        self.ledger = ledger
        self.report = report
        self.flag_index = ledger.stored_flags()
        self.with_rows = ledger.rounds_with_rows()
        self.hours: dict[tuple[str, int, str, str], list[int]] = {}
        self.seatings: Counter[Seating] = Counter()
        self.round_ids: set[int] = set()

    def table(self, table: TableRecord) -> None:
        TableAudit(self, table).run()

    def finish(self) -> None:
        problems = self.report.problems
        for round_id in sorted(self.with_rows - self.round_ids):
            problems.append(f"round id {round_id}: settlement rows of a round the ledger does not have")
        for round_id in sorted(set(self.flag_index) - self.round_ids):
            problems.append(f"round id {round_id}: flags indexed for a round the ledger does not have")
        stored_hours = self.ledger.stored_hours()
        for key in sorted(set(stored_hours) | set(self.hours)):
            hour, table_id, game, banking = key
            stored, expected = stored_hours.get(key), self.hours.get(key)
            where = f"table {table_id}, hour {hour.replace('T', ' ')}:00 ({game}, {banking})"
            if stored is None:
                problems.append(f"{where}: no hourly totals stored; its settled rounds give {_figures(expected)}")
            elif expected is None:
                problems.append(f"{where}: hourly totals stored ({_figures(stored)}) for an hour with no settled round")
            elif tuple(stored) != tuple(expected):
                problems.append(f"{where}: hourly totals stored {_figures(stored, expected)}; the settled rounds give "
                                f"{_figures(expected, stored)}")
        stored_seatings = Counter(self.ledger.stored_seatings())
        for row in sorted((stored_seatings - self.seatings).elements(), key=str):
            problems.append(f"table {row[0]}: seating of seat {row[1]} by {row[2]!r} (rounds {_span(row)}) is stored "
                            "but no seat event gives it")
        for row in sorted((self.seatings - stored_seatings).elements(), key=str):
            problems.append(f"table {row[0]}: seating of seat {row[1]} by {row[2]!r} (rounds {_span(row)}) follows "
                            "from the seat events but is not stored")


def _figures(values: Iterable[int] | None, other: Iterable[int] | None = None) -> str:
    """`rounds 3, paid 120`: every figure, or only those that differ from `other`."""
    values = list(values or ())
    others = list(other) if other is not None else None
    return ", ".join(f"{name} {value}" for i, (name, value) in enumerate(zip(HOUR_FIGURES, values))
                     if others is None or i >= len(others) or others[i] != value)


def _span(row: Seating) -> str:
    return f"{row[3]}-{row[4] if row[4] is not None else ''}"


class TableAudit:
    """One table's chain read once, in order: each event checked and replayed."""

    def __init__(self, audit: LedgerAudit, table: TableRecord) -> None:
        self.audit = audit
        self.ledger = audit.ledger
        self.table = table
        self.problems = audit.report.problems
        self.label = f"table {table.id} ({table.name})"
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

    def say(self, where: str, what: str) -> None:
        self.problems.append(f"{where}: {what}")

    def where(self, record: StoredRound) -> str:
        return f"{self.label}, round {record.number} (id {record.id})"

    def run(self) -> None:
        table = self.table
        try:
            self.profiles = table_profiles(self.ledger, table)  # type: ignore[arg-type]
        except RulesError as exc:
            self.say(self.label, f"its profile does not load: {exc}")
        stored = self.ledger.stored_rounds(table.id)
        self.audit.report.rounds += len(stored)
        for place, record in enumerate(stored, start=1):
            self.rounds[record.id] = record
            self.audit.round_ids.add(record.id)
            if record.number != place:
                self.misnumbered.add(record.id)
                self.say(self.where(record), f"numbered {record.number}, but it is round {place} of the table "
                                             "(round numbers run 1, 2, 3, ... without a gap)")
            if record.game != table.game:
                self.say(self.where(record), f"stored as a {record.game} round at a {table.game} table")
        chain = ChainCheck()
        last_ledger_seq = 0
        prev_ts: str | None = None
        any_event = False
        for event, ok in self.ledger.chain_events(table.id):
            any_event = True
            self.problems.extend(chain.problems(event, ok))
            if event.ledger_seq is not None:
                if event.ledger_seq <= last_ledger_seq:
                    self.say(f"{self.label}, event {event.seq} ({event.kind})",
                             f"its place in the ledger-wide sequence ({event.ledger_seq}) is not after the "
                             f"table's event before it ({last_ledger_seq})")
                last_ledger_seq = event.ledger_seq
            if self.waiting_end is not None:
                self.ended[self.waiting_end] = event.ts
                self.waiting_end = None
            self.event(event, prev_ts)
            prev_ts = event.ts
        if not any_event:
            self.say(self.label, "has no events: its opening (table_opened) is missing")
        elif self.session is None:
            self.say(self.label, "its chain has no table_opened event")
        if self.current is not None:
            self.finish_round(*self.current)
        for record in self.rounds.values():
            if record.id not in self.finished:
                self.say(self.where(record), "has no events (it does not begin with its start)")
        for table_id, seat, player, first in self.open_seatings.values():
            self.audit.seatings[(table_id, seat, player, first, None)] += 1
        for revision, numbers in sorted(self.earlier.items()):
            self.audit.report.notes.append(
                f"{self.label}: {_rounds(numbers)} settled under rules revision {revision}, re-settled by revision "
                f"{revision}'s rules, not revision {RULES_REVISION}'s")

    # -- one event ----------------------------------------------------------------------------

    def event(self, event: StoredEvent, prev_ts: str | None) -> None:
        if event.round_id is None:  # between rounds, or during one (a supervisor signing in)
            self.table_event(event)
            return
        record = self.rounds.get(event.round_id)
        if record is None:
            return  # an event of a round the table does not have: `orphans` names it
        if self.current is None or self.current[0].id != record.id:
            if self.current is not None:
                self.finish_round(*self.current)
            if record.id in self.finished:
                self.say(self.where(record), f"event {event.seq} ({event.kind}) comes after later rounds began")
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

    def replay(self, event: StoredEvent, where: str) -> None:
        if self.session is None:
            self.say(where, f"event {event.seq} ({event.kind}) comes before the table was opened")
            return
        found = self.read(event, where)
        if found is None:
            return
        try:
            self.session.apply(found)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            self.say(where, f"event {event.seq} ({event.kind}) does not replay on the table's seats ({exc!r})")

    def read(self, event: StoredEvent, where: str) -> RoundEvent | None:
        """The event as its typed event; None (and the reason said) when it does not read."""
        try:
            return typed(event, self.table.game)
        except EventError as exc:
            self.say(where, f"event {event.seq} ({event.kind}) does not read: {exc}")
            return None

    def table_event(self, event: StoredEvent) -> None:
        where = f"{self.label}, event {event.seq} ({event.kind})"
        if event.kind == TableOpened.KIND:
            if self.session is not None:
                self.say(where, "the table is opened a second time")
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
                self.say(where, "comes before the table was opened")
            return
        if event.kind not in TABLE_KINDS:
            return
        found = self.read(event, where)
        if isinstance(found, SeatTaken) and found.seat in session.players:
            self.say(where, f"seat {found.seat} is taken while {session.players[found.seat].name} holds it")
        if isinstance(found, (ChipsBought, SeatLeft)) and found.seat not in session.players:
            self.say(where, f"seat {found.seat} is empty")
            return
        if isinstance(found, SeatLeft) and found.cash_out != session.players[found.seat].stack:
            self.say(where, f"seat {found.seat} cashes out {found.cash_out} chips; the table's events leave it "
                            f"{session.players[found.seat].stack}")
        if isinstance(found, (SeatTaken, SeatLeft)):
            self.seating(found)
        if found is not None:
            self.replay(event, where)

    def check_table_row(self, where: str, opened: TableOpened) -> None:
        """The table's row (what the lists show) against its opening event."""
        table = self.table
        for name, value, recorded in (("profile", table.profile, opened.profile),
                                      ("profile_sha256", table.profile_sha256, opened.profile_sha256),
                                      ("card_source", table.card_source, opened.card_source)):
            if recorded != value:
                self.say(where, f"the table's stored {name} is {value!r}; its opening records {recorded!r}")
        loaded = self.profiles.get(opened.profile_sha256)
        if loaded is not None and loaded.game != table.game:
            self.say(where, f"the table is stored as {table.game}; its opening profile is for {loaded.game}")

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
            self.say(where, f"stored as started at {record.started_at}, outside the time of its first event "
                            f"({event.ts}) and the event before it ({prev_ts})")
        session = self.session
        if session is None:
            self.say(where, "starts before the table was opened")
            return
        started = self.read(event, where)
        if not isinstance(started, RoundStarted):
            return
        expected = session.rounds_started + 1
        if started.number != expected:
            self.say(where, f"its start records number {started.number}; it is round {expected} of the table's chain")
        elif record.number != expected and record.id not in self.misnumbered:
            self.say(where, f"stored as round {record.number}; its start records round {expected}")
        if record.profile != started.profile:
            self.say(where, f"stored with profile {record.profile!r}; its start records {started.profile!r}")
        if started.training != session.training:
            self.say(where, "its start records a training round at a live table" if started.training
                     else "its start records a live round at a training table")
        if not isinstance(started.setup, dict):
            self.say(where, "its start has no setup")
        else:
            self.check_stacks(where, started.setup, session)
        self.replay(event, where)

    def check_stacks(self, where: str, setup: dict[str, Any], session: TableSession) -> None:
        if "seats" in setup and setup["seats"] != session.seat_count:
            self.say(where, f"starts with {setup['seats']} seats; the table has {session.seat_count}")
        players = setup.get("players")
        for seat_text, player in (players.items() if isinstance(players, dict) else ()):
            try:
                seat = int(seat_text)
                name, stack = player.get("name"), player.get("stack")
            except (TypeError, ValueError, AttributeError):
                self.say(where, f"its setup's seat {seat_text!r} does not read")
                continue
            held = session.players.get(seat)
            if held is None:
                self.say(where, f"seat {seat} ({name}) starts with {stack} chips, but nobody sits there")
            elif stack != held.stack:
                self.say(where, f"seat {seat} ({name}) starts with {stack} chips; the table's events leave it "
                                f"{held.stack} (stack continuity)")
            elif name != held.name:
                self.say(where, f"seat {seat} starts as {name!r}; {held.name!r} sits there")
        banker = setup.get("banker")
        if banker is not None and "banker_stack" in setup:
            held = session.players.get(banker)
            if held is None or held.stack != setup["banker_stack"]:
                self.say(where, f"the banker, seat {banker}, starts with {setup['banker_stack']} chips; the table's "
                                f"events leave it {held.stack if held else 'no seat'} (stack continuity)")

    # -- one round, once its events are in -------------------------------------------------------

    def finish_round(self, record: StoredRound, events: list[StoredEvent]) -> None:
        self.finished.add(record.id)
        where = self.where(record)
        if not events or events[0].kind != "round_started":
            self.say(where, "does not begin with its start")
            return
        ends = [e for e in events if e.kind in END_KINDS]
        if len(ends) > 1:
            self.say(where, f"ends {len(ends)} times ({', '.join(e.kind for e in ends)})")
        expected = expected_row(events)
        if isinstance(expected, str):
            self.say(where, expected)
            return
        status, flags, figures = expected
        if record.status != status:
            self.say(where, f"stored as {record.status}; its events make it {status}")
        stored_flags = {f for f in record.flags.split(",") if f}
        if stored_flags != flags or record.flags != ",".join(sorted(stored_flags)):
            self.say(where, f"stored flags {record.flags!r}; its events give {','.join(sorted(flags))!r}")
        indexed = self.audit.flag_index.get(record.id, set())
        if indexed != flags:
            self.say(where, f"the flag index lists {','.join(sorted(indexed))!r}; its events give "
                            f"{','.join(sorted(flags))!r}")
        for name in ROUND_FIGURES:
            if getattr(record, name) != figures[name]:
                self.say(where, f"stored {name} {getattr(record, name)!r}; its events give {figures[name]!r}")
        self.check_times(where, record, ends[-1] if ends else None)
        stored_rows = self.ledger.settlement(record.id) if record.id in self.audit.with_rows else []  # type: ignore[attr-defined]
        if status != ROUND_SETTLED:
            if stored_rows:
                self.say(where, f"{len(stored_rows)} settlement row(s) stored for a round its events leave {status}: "
                                "only a settled round has them")
            return
        if "training" in flags:  # a training table's rounds stay out of the hourly totals
            return
        key = (record.started_at[:13], self.table.id, self.table.game, str(figures["banking"]))
        into = self.audit.hours.setdefault(key, [0] * len(HOUR_FIGURES))
        for i, value in enumerate((1, figures["wagered"], figures["paid"], figures["returned"],
                                   figures["from_stacks"], figures["house_result"])):
            into[i] += int(value)
        into[6] = max(into[6], int(figures["max_payout"]))
        into[7] += int(figures["fees"])
        problems, revision = resettle_events(self.table, record.id, record.number, list(events), stored_rows,
                                             self.profiles)
        self.problems.extend(problems)
        if revision is not None and revision < RULES_REVISION:
            self.earlier.setdefault(revision, []).append(record.number)

    def check_times(self, where: str, record: StoredRound, end: StoredEvent | None) -> None:
        if end is None:
            if record.ended_at is not None:
                self.say(where, f"stored as ended at {record.ended_at}; its events do not end it")
            return
        after = self.ended.get(record.id)
        if record.ended_at is None or record.ended_at < end.ts or (after is not None and record.ended_at > after):
            self.say(where, f"stored as ended at {record.ended_at}, outside the time of its last event ({end.ts}) "
                            f"and the event after it ({after})")


def expected_row(events: list[StoredEvent]) -> tuple[str, set[str], dict[str, Any]] | str:
    """What the round's row holds when written from these events, as the writer writes it: the
    status, flags and figures (`ROUND_FIGURES`); or why the events do not read."""
    try:
        started = typed_as(RoundStarted, events[0])
    except EventError as exc:
        return f"its start does not read: {exc}"
    flags = {flag for flag, on in (("seeded", started.seeded), ("training", started.training)) if on}
    if any(e.kind == RoundRecovered.KIND for e in events):
        flags.add("recovered")
    figures: dict[str, Any] = dict.fromkeys(ROUND_FIGURES, 0)
    figures["banking"] = HOUSE_BANKED
    ends = [e for e in events if e.kind in END_KINDS]
    if not ends:
        return ROUND_OPEN, flags, figures
    end = ends[-1]
    try:
        update = Table.round_update([typed(end)])  # the writer's own reading
    except EventError as exc:
        return f"its {end.kind} event does not read: {exc}"
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
                       max_payout=chips.biggest, banking=chips.kind,
                       fees=-sum(r.result for r in update.settlement if r.bet in FEE_BETS))
    return status, flags, figures


def _rounds(numbers: list[int]) -> str:
    """`round 3`, `rounds 1-4, 7` (round numbers in order, runs joined)."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    text = ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)
    return f"round{'s' if len(numbers) > 1 else ''} {text}"


def rules_revision(rnd: Round) -> int | None:
    """The RULES.md revision a round is settled by, for a game whose rules changed between
    revisions (Chinese Poker); None for the others."""
    return rnd.revision if isinstance(rnd, ChinesePokerRound) else None


def table_profiles(ledger: Ledger, table: TableRecord) -> dict[str, LoadedProfile]:
    """Every profile the table has run under, by its sha256, from the texts the ledger keeps."""
    found: dict[str, LoadedProfile] = {}
    for event in ledger.table_events(table.id, [TableOpened.KIND, TableChanged.KIND]):
        try:
            opening = typed(event)
        except EventError:  # verify names an event that does not read
            continue
        if isinstance(opening, (TableOpened, TableChanged)):
            loaded = parse_profile(opening.profile_text, f"ledger table {table.id}", opening.profile)
            found[loaded.sha256] = loaded
    return found


def resettle(ledger: Ledger, table: TableRecord, round_id: int, number: int,
             profiles: dict[str, LoadedProfile]) -> list[str]:
    return resettle_round(ledger, table, round_id, number, profiles)[0]


def resettle_round(ledger: Ledger, table: TableRecord, round_id: int, number: int,
                   profiles: dict[str, LoadedProfile]) -> tuple[list[str], int | None]:
    """The round's problems, and the rules revision it was re-settled by (None: not a game whose
    rules changed, or the round did not replay)."""
    events = ledger.round_events(round_id)
    return resettle_events(table, round_id, number, list(events), ledger.settlement(round_id), profiles)


def resettle_events(table: TableRecord, round_id: int, number: int, events: list[Recorded],
                    stored_rows: list[SettlementRow], profiles: dict[str, LoadedProfile]) -> tuple[list[str], int | None]:
    """A settled round replayed through the rules from its events: the recorded payout, the
    stored settlement rows and the chips moved against the rules' settlement."""
    where = f"table {table.id} ({table.name}), round {number} (id {round_id})"
    if not events or events[0].kind != RoundStarted.KIND:
        return [f"{where}: does not begin with its start"], None
    try:
        started = typed_as(RoundStarted, events[0])
        payouts = [(i, typed_as(PayoutConfirmed, e)) for i, e in enumerate(events) if e.kind == PayoutConfirmed.KIND]
    except EventError as exc:
        return [f"{where}: does not read ({exc})"], None
    loaded = profiles.get(started.profile_sha256)
    if loaded is None:
        return [f"{where}: its profile ({started.profile}) is not in the ledger"], None
    if len(payouts) != 1:
        return [f"{where}: settled {len(payouts)} times"], None
    at, recorded = payouts[0]
    cls = round_class(table.game, keyed=started.card_source == "entry")
    try:
        rnd = cls(loaded.profile, started.setup)
        rnd.apply_all(events[:at])
        outcome = rnd.outcome()
    except (RulesError, KeyError, ValueError, TypeError) as exc:
        return [f"{where}: does not replay ({exc})"], None
    revision = rules_revision(rnd)
    if outcome is None:
        return [f"{where}: paid without a settlement"], revision
    problems = []
    expected_rows = [_row(r) for r in outcome.rows]
    if [_row(r.row()) for r in recorded.rows] != expected_rows:
        problems.append(f"{where}: the recorded payout differs from the rules' settlement")
    stored = [_row(r) for r in stored_rows]
    key = lambda r: (r["seat"], r["bet"])
    if sorted(stored, key=key) != sorted(expected_rows, key=key):
        problems.append(f"{where}: the settlement rows differ from the rules' settlement"
                        f"{_rows_differ(stored, expected_rows)}")
    changes = {str(s): c for s, c in sorted(outcome.stack_changes.items())}
    if recorded.stack_changes != changes or recorded.house != outcome.house:
        problems.append(f"{where}: the chips moved differ from the rules' settlement")
    return problems, revision


def _row(row: SettlementRow) -> dict[str, Any]:
    """A settlement row as its payout event records it (`asdict`, without its cost per row)."""
    return {"seat": row.seat, "bet": row.bet, "stake": row.stake, "result": row.result, "reason": row.reason}


def _rows_differ(stored: list[dict[str, Any]], expected: list[dict[str, Any]]) -> str:
    """` (seat 2 ante: stored result 20, the rules 10; ...)`: which rows differ and how."""
    def by_key(rows: list[dict[str, Any]]) -> dict[tuple[Any, Any], dict[str, Any]]:
        return {(r["seat"], r["bet"]): r for r in rows}

    have, want = by_key(stored), by_key(expected)
    parts = []
    for seat, bet in sorted(set(have) | set(want), key=str):
        a, b = have.get((seat, bet)), want.get((seat, bet))
        if a == b:
            continue
        if a is None:
            parts.append(f"seat {seat} {bet}: missing")
        elif b is None:
            parts.append(f"seat {seat} {bet}: a row the rules do not give")
        else:
            parts.append(f"seat {seat} {bet}: " + ", ".join(f"stored {k} {a[k]!r}, the rules {b[k]!r}"
                                                            for k in a if a[k] != b.get(k)))
    return f" ({'; '.join(parts)})" if parts else ""
