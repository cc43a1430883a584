"""The whole ledger checked: the file, the ledger-wide sequence, every table's chain
(`table_audit`), and what needs every table at once — the hourly totals, the settlement rows,
the flag index, who sat where — and, with a witness, the heads it names."""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from dealer_tui.audit.authority_audit import AuthorityAudit
from dealer_tui.audit.resettle import resettle
from dealer_tui.audit.table_audit import HOUR_FIGURES, Seating, TableAudit
from dealer_tui.ledger.base import ROUND_SETTLED, STAFF_REGISTER, Ledger, TableRecord
from dealer_tui.ledger.records import AuditReads
from dealer_tui.ledger.witness import WitnessRecord, witness_problems
from dealer_tui.rounds.game import Games
from dealer_tui.rounds.table_profiles import table_profiles
from rules.errors import RulesError
from rules.said import Said, as_figure, joined, said_of, say


@dataclass
class Verification:
    """What `history verify` reports: the problems (none when all agree) and plain notes, such as
    the rounds re-settled by an earlier revision of the rules."""

    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    rounds: int = 0
    """Rounds the ledger holds."""


def verify_ledger(ledger: Ledger, games: Games[Any]) -> list[str]:
    """One line per problem, each naming its table and round; empty when all agree."""
    return verify(ledger, games).problems


def verify(ledger: Ledger, games: Games[Any], witness: WitnessRecord | None = None) -> Verification:
    """Every hash, row, total and stack checked against the events, every finished round
    re-settled by the rules it was played under (`games`: the games its tables play); with
    `witness`, the heads it holds."""
    if not isinstance(ledger, AuditReads):
        return _verify_events_only(ledger, games)
    report = Verification()
    try:
        with ledger.snapshot():  # the witness was read before: every head it names is in this snapshot
            _verify_stored(ledger, games, report, witness)
    except sqlite3.DatabaseError as exc:  # a damaged file: pages missing or garbled
        report.problems.append(say("ledger file: cannot be read through ({problem}): the file is damaged or cut short",
                                   problem=str(exc)))
    return report


def _verify_stored(ledger: AuditReads, games: Games[Any], report: Verification, witness: WitnessRecord | None) -> None:
    report.problems += ledger.integrity_problems()
    if not ledger.has_ledger_seq():
        report.notes.append(say("the ledger predates the ledger-wide sequence of events (schema 6) and was read as "
                                "it is: the sequence and the witness were not checked"))
    report.problems += ledger.sequence_problems()
    report.problems += ledger.orphans()
    for what in ("table", "round"):
        gaps = ledger.id_gaps(f"{what}s")
        if gaps:
            ranges = [f"{b + 1}" if a == b + 2 else f"{b + 1}-{a - 1}" for b, a in gaps]
            shown = ", ".join(ranges if len(ranges) <= 6 else [*ranges[:3], "...", *ranges[-2:]])
            count = sum(a - b - 1 for b, a in gaps)
            report.problems.append(
                say("ledger: {count} table id(s) missing (table id {ids}): tables were deleted", count=count,
                    ids=shown) if what == "table" else
                say("ledger: {count} round id(s) missing (round id {ids}): rounds were deleted", count=count,
                    ids=shown))
    audit = LedgerAudit(ledger, games, report)
    tables = ledger.tables()  # type: ignore[attr-defined]
    for table in tables:
        audit.table(table)
    audit.finish()
    if witness is not None and ledger.has_ledger_seq():
        names = {STAFF_REGISTER: "staff register", **{t.id: t.name for t in tables}}
        report.problems += witness_problems(witness, ledger.event_at, names, ledger.last_ledger_seq())


def _verify_events_only(ledger: Ledger, games: Games[Any]) -> Verification:
    """A ledger without stored rows to read as they are: its chain, and every finished round
    re-settled."""
    report = Verification(list(ledger.chain_problems()))
    for table in ledger.tables():
        try:
            profiles = table_profiles(ledger, table)
        except RulesError as exc:
            report.problems.append(say("{where}: {what}", where=say("table {id} ({name})", id=str(table.id),
                                                                    name=table.name),
                                       what=say("its profile does not load: {problem}", problem=said_of(exc))))
            continue
        for record in ledger.table_rounds(table.id):
            report.rounds += 1
            if record.status == ROUND_SETTLED:
                report.problems += resettle(ledger, games, table, record.id, record.number, profiles)
    return report


class LedgerAudit:
    """The checks that need every table: the hourly totals, the settlement rows and flag index of
    every round, who sat where; one table at a time (`table`), then `finish`."""

    def __init__(self, ledger: AuditReads, games: Games[Any], report: Verification) -> None:
        self.games = games
        self.ledger = ledger
        self.report = report
        self.flag_index = ledger.stored_flags()
        self.with_rows = ledger.rounds_with_rows()
        self.hours: dict[tuple[str, int, str, str], list[int]] = {}
        self.seatings: Counter[Seating] = Counter()
        self.round_ids: set[int] = set()
        self.authority = AuthorityAudit.read(ledger, report.problems)
        self.roles_stored = ledger.has_roles()
        if not self.roles_stored:
            report.notes.append(say("the ledger predates settlement rows carrying their bet's role (schema 9) and was "
                                    "read as it is: the roles were not checked"))

    def table(self, table: TableRecord) -> None:
        TableAudit(self, table).run()

    def finish(self) -> None:
        problems = self.report.problems
        self.report.notes += self.authority.notes()
        for round_id in sorted(self.with_rows - self.round_ids):
            problems.append(say("round id {round}: settlement rows of a round the ledger does not have",
                                round=str(round_id)))
        for round_id in sorted(set(self.flag_index) - self.round_ids):
            problems.append(say("round id {round}: flags indexed for a round the ledger does not have",
                                round=str(round_id)))
        stored_hours = self.ledger.stored_hours()
        for key in sorted(set(stored_hours) | set(self.hours)):
            hour, table_id, game, banking = key
            stored, expected = stored_hours.get(key), self.hours.get(key)
            where = say("table {table}, hour {hour}:00 ({game}, {banking})", table=str(table_id),
                        hour=hour.replace("T", " "), game=game, banking=banking)
            if stored is None:
                problems.append(say("{where}: {what}", where=where, what=say(
                    "no hourly totals stored; its settled rounds give {figures}", figures=_figures(expected))))
            elif expected is None:
                problems.append(say("{where}: {what}", where=where, what=say(
                    "hourly totals stored ({figures}) for an hour with no settled round", figures=_figures(stored))))
            elif tuple(stored) != tuple(expected):
                problems.append(say("{where}: {what}", where=where, what=say(
                    "hourly totals stored {stored}; the settled rounds give {expected}",
                    stored=_figures(stored, expected), expected=_figures(expected, stored))))
        stored_seatings = Counter(self.ledger.stored_seatings())
        for row in sorted((stored_seatings - self.seatings).elements(), key=str):
            problems.append(say("table {table}: seating of seat {seat} by {player} (rounds {rounds}) is stored but no "
                                "seat event gives it", table=str(row[0]), seat=as_figure(row[1]), player=repr(row[2]),
                                rounds=_span(row)))
        for row in sorted((self.seatings - stored_seatings).elements(), key=str):
            problems.append(say("table {table}: seating of seat {seat} by {player} (rounds {rounds}) follows from the "
                                "seat events but is not stored", table=str(row[0]), seat=as_figure(row[1]),
                                player=repr(row[2]), rounds=_span(row)))


def _figures(values: Iterable[int] | None, other: Iterable[int] | None = None) -> Said:
    """`rounds 3, paid 120`: every figure, or only those that differ from `other`."""
    values = list(values or ())
    others = list(other) if other is not None else None
    return joined([say("{name} {value}", name=name, value=as_figure(value))
                   for i, (name, value) in enumerate(zip(HOUR_FIGURES, values))
                   if others is None or i >= len(others) or others[i] != value], ", ")


def _span(row: Seating) -> str:
    return f"{row[3]}-{row[4] if row[4] is not None else ''}"
