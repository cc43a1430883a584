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
    one_line,
    reading_ledger,
    server_url,
    whole,
)
from dealer_tui.games import GAMES

if TYPE_CHECKING:
    from dealer_tui.ledger import Ledger

NAME = "shift"
HELP = "table accounting: the shift report (drop, tray, fills, credits, win, hold) and the drop box count"
MAX_HANDS = 10_000_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=type(parser))
    report = sub.add_parser("report", help="per table and shift: rounds, handle, drop, opener, closer, fills, "
                            "credits, win, hold, the rounds' result and the theoretical win, each difference flagged")
    report.add_argument("--from", dest="since", metavar="TIME", help="shifts opened at or after this time (ISO, "
                        "e.g. 2026-12-01 or 2026-12-01T18:00; UTC)")
    report.add_argument("--to", dest="until", metavar="TIME", help="shifts opened before this time (ISO; UTC)")
    report.add_argument("--table", action="append", default=[], metavar="NAME", help="only this table (repeatable)")
    form = report.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="one JSON object: `tables` (one entry per table and "
                      "shift) and `totals`")
    form.add_argument("--csv", metavar="FILE", help="one CSV row per table and shift ('-': standard output)")
    form.add_argument("--pdf", metavar="FILE", help="a printable report with the signature lines")
    report.add_argument("--hands", type=whole(), default=None,
                        help="hands simulated per profile for its house edge (default 400,000; cached per profile "
                        "text)")
    add_ledger_option(report, server=True)
    count = sub.add_parser("count", help="the count team records a table's drop box count (cash, markers, the "
                           "collection box) for its last closed shift; asks the PIN")
    count.add_argument("--table", required=True, metavar="NAME", help="the table's name")
    count.add_argument("--cash", type=whole(), required=True, help="cash in the drop box")
    count.add_argument("--markers", type=whole(), default=0, help="markers in the drop box (their amount)")
    count.add_argument("--collection", type=whole(), default=0,
                       help="a card room's collection box: the rake and fees counted")
    count.add_argument("--shift", type=whole(), default=None, help="the shift counted (default: the last closed one)")
    count.add_argument("--by", required=True, metavar="ACCOUNT", help="the count team's account (a manager or an "
                       "auditor)")
    count.add_argument("--note", default="", help="what the count team notes")
    count.add_argument("--recount", metavar="REASON", default="",
                       help="count a box already counted again, saying why: the new count replaces the one before, "
                       "which stays on record")
    add_ledger_option(count)


def _when(text: str | None, option: str) -> str | None:
    if text is None:
        return None
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"{option}: {text!r} is not a time (ISO: 2026-12-01 or 2026-12-01T18:00)") from None
    if moment.tzinfo is not None:
        try:
            moment = moment.astimezone(UTC).replace(tzinfo=None)
        except OverflowError:
            raise ValueError(f"{option}: {text!r} is out of the calendar's range") from None
    return moment.isoformat()


def run(args: argparse.Namespace) -> int:
    if args.action == "count":
        return _count(args)
    try:
        since, until = _when(args.since, "--from"), _when(args.until, "--to")
    except ValueError as exc:
        return fail(str(exc))
    if since is not None and until is not None and until <= since:
        return fail(f"--to: {args.until!r} is not after --from {args.since!r}")
    if args.hands is not None and not 1_000 <= args.hands <= MAX_HANDS:
        return fail(f"--hands: 1,000 to {MAX_HANDS:,}, not {args.hands}")
    for option, given in (("--csv", args.csv), ("--pdf", args.pdf)):
        if given is not None and not given.strip():
            return fail(f"{option}: a file name is needed")
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
            return fail(f"--table: no table named {', '.join(map(repr, missing))} in this ledger")
    notes = [*outside, *theory.problems]
    period = _period(since, until)
    try:
        if args.json:
            sys.stdout.write(json.dumps(report_dict(shifts, since, until, notes), ensure_ascii=False) + "\n")
        elif args.csv == "-":
            write_csv(shifts, sys.stdout)
        elif args.csv is not None:
            csv_file(shifts, Path(args.csv))
            print(f"wrote {len(shifts)} shift(s) to {args.csv}")
        elif args.pdf is not None:
            from dealer_tui.accounting.pdf import pdf_file
            from dealer_tui.staff import StaffRegister

            names = {a.id: a.name for a in StaffRegister.read(ledger).accounts.values()}
            pages = pdf_file(shifts, Path(args.pdf), "Master game report", period, notes, names)
            print(f"wrote {len(shifts)} shift(s) on {pages} page(s) to {args.pdf}")
        else:
            sys.stdout.write("\n".join(text_lines(shifts, notes)) + "\n")
    except OSError as exc:
        target = args.csv if args.csv is not None else args.pdf
        return fail(f"{target}: cannot be written ({exc.strerror or exc}); nothing was written")
    return 0


def _period(since: str | None, until: str | None) -> str:
    start, end = (t.replace("T", " ") if t else None for t in (since, until))
    if start and end:
        return f"shifts opened from {start} to {end} (UTC)"
    if start:
        return f"shifts opened from {start} on (UTC)"
    return f"shifts opened before {end} (UTC)" if end else "every shift"


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
        return fail("--ledger: the drop box is counted on the table's own ledger file (the pit server has its "
                    "count through the table's delivery)")
    problem = drop_input_problem(args.cash, args.markers, args.collection, args.note, args.recount)
    if problem is None and not str(args.by).isprintable():
        problem = "--by: an account ID is letters, digits, '-', '_' or '.'"
    problem = problem or (None if (why := id_problem(args.by)) is None else f"--by: {why}")
    if problem is not None:
        return fail(problem)
    path = ledger_path(args)
    if not path.is_file():
        return fail(f"--ledger: no ledger at {path}")
    try:
        ledger = SqliteLedger(path)
    except (NotALedger, LedgerError) as exc:
        return fail(str(exc))
    try:
        found = [t for t in ledger.tables() if t.name == args.table]
        if not found:
            return fail(f"--table: no table named {args.table!r} in {ledger.path}")
        table = found[-1]
        target = drop_shift(ledger, table, args.shift)
        figures = drop_figures(target, args.cash, args.markers, args.collection) if target is not None else ""
        by = sign_in(StaffDesk(ledger), args.by, Purpose(COUNT_DROP, f"count the drop box of table {table.name}",
                                                          table.id, signs=figures))
        event = record_drop(ledger, table, args.cash, args.markers, args.collection, by, args.shift, args.note,
                            args.recount)
    except (RulesError, LedgerError, SignInRefused, EOFError) as exc:
        return fail(one_line(str(exc)))
    finally:
        ledger.close()
    what = "recount of the drop box" if event.recount else "drop box"
    print(f"recorded the {what} of table {table.name}, shift {event.shift}: {event.cash:,} cash, "
          f"{event.markers:,} in markers, {event.collection:,} in the collection box, counted by {event.by}")
    return 0
