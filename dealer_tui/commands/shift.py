"""`dealer-tui shift`: the shift report (text, JSON, CSV, PDF) and the count team's drop count."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from dealer_tui.commands.common import (
    add_ledger_option,
    fail,
    ledger_path,
    reading_ledger,
    server_url,
    whole,
)
from dealer_tui.games import GAMES
from dealer_tui.language import N_, _, n_, number, os_problem, told, told_error
from rules.said import say

if TYPE_CHECKING:
    from dealer_tui.ledger import Ledger

NAME = "shift"
HELP = N_("table accounting: the shift report (drop, tray, fills, credits, win, hold) and the drop box count")
MAX_HANDS = 10_000_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=type(parser))
    report = sub.add_parser("report", help=_("per table and shift: rounds, handle, drop, opener, closer, fills, "
                                             "credits, win, hold, the rounds' result and the theoretical win, each "
                                             "difference flagged"))
    report.add_argument("--from", dest="since", metavar="TIME", help=_("shifts opened at or after this time (ISO, "
                                                                       "e.g. 2026-12-01 or 2026-12-01T18:00; UTC)"))
    report.add_argument("--to", dest="until", metavar="TIME", help=_("shifts opened before this time (ISO; UTC)"))
    report.add_argument("--table", action="append", default=[], metavar="NAME",
                        help=_("only this table (repeatable)"))
    form = report.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help=_("one JSON object: `tables` (one entry per table and "
                                                            "shift) and `totals`"))
    form.add_argument("--csv", metavar="FILE", help=_("one CSV row per table and shift ('-': standard output)"))
    form.add_argument("--pdf", metavar="FILE", help=_("a printable report with the signature lines"))
    report.add_argument("--hands", type=whole(), default=None,
                        help=_("hands simulated per profile for its house edge (default {hands}; cached per profile "
                               "text)", hands=number(400_000)))
    add_ledger_option(report, server=True)
    count = sub.add_parser("count", help=_("the count team records a table's drop box count (cash, markers, the "
                                           "collection box) for its last closed shift; asks the PIN"))
    count.add_argument("--table", required=True, metavar="NAME", help=_("the table's name"))
    count.add_argument("--cash", type=whole(), required=True, help=_("cash in the drop box"))
    count.add_argument("--markers", type=whole(), default=0, help=_("markers in the drop box (their amount)"))
    count.add_argument("--collection", type=whole(), default=0,
                       help=_("a card room's collection box: the rake and fees counted"))
    count.add_argument("--shift", type=whole(), default=None,
                       help=_("the shift counted (default: the last closed one)"))
    count.add_argument("--by", required=True, metavar="ACCOUNT", help=_("the count team's account (a manager or an "
                                                                        "auditor)"))
    count.add_argument("--note", default="", help=_("what the count team notes"))
    count.add_argument("--recount", metavar="REASON", default="",
                       help=_("count a box already counted again, saying why: the new count replaces the one before, "
                              "which stays on record"))
    add_ledger_option(count)


def _when(text: str | None, option: str) -> str | None:
    if text is None:
        return None
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(_("{option}: {given} is not a time (ISO: 2026-12-01 or 2026-12-01T18:00)", option=option,
                           given=repr(text))) from None
    if moment.tzinfo is not None:
        try:
            moment = moment.astimezone(UTC).replace(tzinfo=None)
        except OverflowError:
            raise ValueError(_("{option}: {given} is out of the calendar's range", option=option,
                               given=repr(text))) from None
    return moment.isoformat()


def run(args: argparse.Namespace) -> int:
    if args.action == "count":
        return _count(args)
    try:
        since, until = _when(args.since, "--from"), _when(args.until, "--to")
    except ValueError as exc:
        return fail(str(exc))
    if since is not None and until is not None and until <= since:
        return fail(_("--to: {until} is not after --from {since}", until=repr(args.until), since=repr(args.since)))
    if args.hands is not None and not 1_000 <= args.hands <= MAX_HANDS:
        return fail(_("--hands: {least} to {most}, not {given}", least=number(1_000), most=number(MAX_HANDS),
                      given=str(args.hands)))
    for option, given in (("--csv", args.csv), ("--pdf", args.pdf)):
        if given is not None and not given.strip():
            return fail(_("{option}: a file name is needed", option=option))
    return reading_ledger(args, lambda ledger: _report(ledger, args, since, until))


def _report(ledger: Ledger, args: argparse.Namespace, since: str | None, until: str | None) -> int:
    from dealer_tui.accounting.report import csv_file, report_dict, text_lines, write_csv
    from dealer_tui.accounting.shifts import shift_figures
    from dealer_tui.accounting.theoretical import THEORY_HANDS, Theory
    from dealer_tui.paths import theory_cache_path

    theory = Theory(GAMES, theory_cache_path(), hands=args.hands or THEORY_HANDS)
    outside: list[str] = []
    shifts = shift_figures(ledger, theory, since=since, until=until, tables=args.table, notes=outside)
    if args.table:
        missing = sorted(set(args.table) - {t.name for t in ledger.tables()})
        if missing:
            return fail(_("--table: no table named {tables} in this ledger", tables=", ".join(map(repr, missing))))
    notes = [*outside, *theory.problems]
    period = _period(since, until)
    try:
        if args.json:
            sys.stdout.write(json.dumps(report_dict(shifts, since, until, notes), ensure_ascii=False) + "\n")
        elif args.csv == "-":
            write_csv(shifts, sys.stdout)
        elif args.csv is not None:
            csv_file(shifts, Path(args.csv))
            print(n_("wrote {count} shift(s) to {file}", "wrote {count} shift(s) to {file}", len(shifts),
                     file=args.csv))
        elif args.pdf is not None:
            from dealer_tui.accounting.pdf import pdf_file
            from dealer_tui.staff import StaffRegister

            names = {a.id: a.name for a in StaffRegister.read(ledger).accounts.values()}
            pages = pdf_file(shifts, Path(args.pdf), _("Master game report"), period, notes, names)
            print(n_("wrote {count} shift(s) on {pages} to {file}", "wrote {count} shift(s) on {pages} to {file}",
                     len(shifts), pages=n_("{count} page(s)", "{count} page(s)", pages), file=args.pdf))
        else:
            sys.stdout.write("\n".join(text_lines(shifts, notes)) + "\n")
    except OSError as exc:
        target = args.csv if args.csv is not None else args.pdf
        return fail(_("{file}: cannot be written ({problem}); nothing was written", file=str(target),
                      problem=os_problem(exc)))
    return 0


def _period(since: str | None, until: str | None) -> str:
    start, end = (t.replace("T", " ") if t else None for t in (since, until))
    if start and end:
        return _("shifts opened from {start} to {end} (UTC)", start=start, end=end)
    if start:
        return _("shifts opened from {start} on (UTC)", start=start)
    return _("shifts opened before {end} (UTC)", end=end) if end else _("every shift")


def _count(args: argparse.Namespace) -> int:
    from dealer_tui.accounting.count import drop_input_problem, drop_shift, record_drop
    from dealer_tui.commands.staff import sign_in
    from dealer_tui.events.accounting import drop_figures
    from dealer_tui.ledger import LedgerError, SqliteLedger
    from dealer_tui.ledger.base import NotALedger
    from dealer_tui.staff import COUNT_DROP, Purpose, SignInRefused, StaffDesk
    from dealer_tui.staff.desk import id_problem
    from rules.errors import RulesError

    if server_url(args) is not None:
        return fail(_("--ledger: the drop box is counted on the table's own ledger file (the pit server has its "
                      "count through the table's delivery)"))
    problem = drop_input_problem(args.cash, args.markers, args.collection, args.note, args.recount)
    if problem is None and not str(args.by).isprintable():
        problem = _("--by: {problem}", problem=_("an account ID is letters, digits, '-', '_' or '.'"))
    problem = problem or (None if (why := id_problem(args.by)) is None else _("--by: {problem}", problem=_(why)))
    if problem is not None:
        return fail(told(problem))
    path = ledger_path(args)
    if not path.is_file():
        return fail(_("--ledger: no ledger at {path}", path=str(path)))
    try:
        ledger = SqliteLedger(path)
    except (NotALedger, LedgerError) as exc:
        return fail(told_error(exc))
    try:
        found = [t for t in ledger.tables() if t.name == args.table]
        if not found:
            return fail(_("--table: no table named {table} in {ledger}", table=repr(args.table),
                          ledger=str(ledger.path)))
        table = found[-1]
        target = drop_shift(ledger, table, args.shift)
        figures = drop_figures(target, args.cash, args.markers, args.collection) if target is not None else ""
        by = sign_in(StaffDesk(ledger), args.by, Purpose(COUNT_DROP, say("count the drop box of table {table}",
                                                                         table=table.name), table.id, signs=figures))
        event = record_drop(ledger, table, args.cash, args.markers, args.collection, by, args.shift, args.note,
                            args.recount)
    except (RulesError, LedgerError, SignInRefused, EOFError) as exc:
        return fail(told_error(exc))
    finally:
        ledger.close()
    values = {"table": table.name, "shift": str(event.shift), "cash": number(event.cash),
              "markers": number(event.markers), "collection": number(event.collection), "by": event.by}
    print(_("recorded the recount of the drop box of table {table}, shift {shift}: {cash} cash, {markers} in markers, "
            "{collection} in the collection box, counted by {by}", **values) if event.recount
          else _("recorded the drop box of table {table}, shift {shift}: {cash} cash, {markers} in markers, "
                 "{collection} in the collection box, counted by {by}", **values))
    return 0
