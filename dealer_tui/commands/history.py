"""`dealer-tui history`: list the rounds of a ledger and verify it."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from dealer_tui.commands.common import (
    add_ledger_option,
    fail,
    ledger_path,
    one_line,
    server_url,
    whole,
)
from dealer_tui.games import GAMES
from dealer_tui.language import N_, _, n_, os_problem, told, told_error
from dealer_tui.ledger.base import STAFF_REGISTER
from dealer_tui.ledger.export import export_csv, write_rows
from dealer_tui.ledger.witness import default_witness_dir, default_witness_path, ledger_key
from dealer_tui.views.record_words import flags_text, status_word

if TYPE_CHECKING:
    from dealer_tui.ledger import Ledger, SqliteLedger

NAME = "history"
HELP = N_("the ledger's rounds: list them, verify every hash and settlement")
COLUMNS = (N_("Id"), N_("Time"), N_("Table"), N_("Round"), N_("Game"), N_("Seats"), N_("Wagered"), N_("From stacks"),
           N_("Paid"), N_("Returned"), N_("House"), N_("Status"), N_("Flags"))
"""`history list`'s columns, as a person reads them (`--json` has its keys)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=type(parser))
    lst = sub.add_parser("list", help=_("the last rounds, newest first"))
    lst.add_argument("--limit", type=whole(1, 1_000_000), default=20, help=_("how many rounds (default 20)"))
    lst.add_argument("--json", action="store_true", help=_("one JSON object per round"))
    verify = sub.add_parser("verify", help=_("re-check every hash and re-settle every finished round"),
                            description=_("Check that everything the ledger shows follows from its events: every "
                                          "hash, the ledger-wide sequence, each round's totals, status, flags and "
                                          "settlement rows, the hourly totals, the seatings, stack continuity, round "
                                          "numbers, SQLite's integrity check; every finished round re-settled by the "
                                          "rules; and the ledger's heads against its witness. Exit status 1 when "
                                          "anything differs."))
    verify.add_argument("--witness", metavar="FILE", type=Path, default=None,
                        help=_("the witness to compare the ledger with (default: the ledger's own witness in "
                               "{directory}, named after the ledger and a hash of its path, when it exists; for the "
                               "default ledger: {witness})", directory=str(default_witness_dir()),
                               witness=str(_default_witness())))
    verify.add_argument("--pit", metavar="URL", default=None,
                        help=_("the pit server this ledger delivers to, as its witness too: every event the server "
                               "took from it must still be in the ledger, unchanged"))
    export = sub.add_parser("export", help=_("settlement rows as CSV: one row per seat per bet"))
    export.add_argument("--csv", required=True, metavar="FILE", help=_("the CSV file to write ('-': standard output)"))
    export.add_argument("--game", help=_("only this game"))
    export.add_argument("--table", type=whole(), help=_("only this table (id)"))
    export.add_argument("--since", help=_("rounds started at or after this time (ISO, e.g. 2026-11-29T18:00)"))
    export.add_argument("--until", help=_("rounds started before this time (ISO)"))
    export.add_argument("--seat", type=whole(), help=_("only this seat (the box in \"1 or 5\")"))
    export.add_argument("--min-payout", type=whole(), help=_("only the rows of seats paid at least this in a round (a "
                        "seat's payout: its winning bets with their stakes, a DP's take, a pot's share)"))
    export.add_argument("--flag", help=_("only rounds with this flag ({flags})", flags=", ".join(GAMES.flags())))
    export.add_argument("--search", help=_("only rounds matching: a round number or id, a table's or a player's name"))
    export.add_argument("--training", action="store_true",
                        help=_("take in the rounds of training tables (demos), left out otherwise"))
    for p in (lst, verify, export):
        add_ledger_option(p, server=True)


def _default_witness() -> Path:
    from dealer_tui.ledger.sqlite import default_ledger_path

    return default_witness_path(default_ledger_path())


def run(args: argparse.Namespace) -> int:
    from dealer_tui.ledger import LedgerError, SqliteLedger
    from dealer_tui.ledger.base import NotALedger

    url = server_url(args)
    if url is not None:
        return _on_server(url, args)
    path = ledger_path(args)
    try:
        ledger = SqliteLedger(path, readonly=True)
    except NotALedger as exc:
        if args.action != "verify":
            return fail(told_error(exc))
        sys.stdout.write(f"{told_error(exc)}\n")  # a verification that fails: the file is no ledger
        return fail(_("{ledger}: not a dealer-tui ledger", ledger=str(path)), status=1)
    except LedgerError as exc:
        if args.action == "verify" and getattr(exc, "problem", None) == "the file is damaged":
            sys.stdout.write(f"{told_error(exc)}\n")
            return fail(_("{ledger}: the ledger file is damaged", ledger=str(path)), status=1)
        return fail(told_error(exc))
    try:
        if args.action == "list":
            return _list(ledger, args)
        if args.action == "export":
            return _export(ledger, args)
        return _verify(ledger, args.witness, getattr(args, "pit", None))
    finally:
        ledger.close()


def _on_server(url: str, args: argparse.Namespace) -> int:
    """The pit server: every table's rounds listed or exported; verified terminal by terminal."""
    from dealer_tui.ledger import LedgerError
    from dealer_tui.ledger.postgres import PgLedger, shown

    try:
        if args.action == "verify":
            from dealer_tui.audit.pit_audit import verify_pit

            report = verify_pit(url, GAMES)
            for line in report.notes:
                sys.stdout.write(_("note: {note}", note=one_line(told(line))) + "\n")
            for line in report.problems:
                sys.stdout.write(f"{one_line(told(line))}\n")
            if report.problems:
                count = len(report.problems)
                sys.stderr.write(_("error: {problem}", problem=n_("{count} problem(s) on {server}",
                                                                  "{count} problem(s) on {server}", count,
                                                                  server=shown(url))) + "\n")
                return 1
            sys.stdout.write(_("ok: {server}: every terminal's chain checks on the server, every finished round "
                               "re-settles, and every row and total follows from the events ({rounds})",
                               server=shown(url), rounds=_rounds(report.rounds)) + "\n")
            return 0
        ledger = PgLedger(url)
    except LedgerError as exc:
        return fail(told_error(exc))
    try:
        return _list(ledger, args) if args.action == "list" else _export(ledger, args)
    except LedgerError as exc:
        return fail(told_error(exc))
    finally:
        ledger.close()


def _rounds(count: int) -> str:
    return n_("{count} round", "{count} rounds", count)


def _list(ledger: Ledger, args: argparse.Namespace) -> int:
    if args.limit < 1:
        return fail(_("--limit: must be at least 1"))
    rounds = ledger.recent_rounds(limit=args.limit)
    tables = {t.id: t.name for t in ledger.tables()}
    if args.json:
        for r in rounds:
            print(json.dumps({"round_id": r.id, "table": tables.get(r.table_id), "number": r.number,
                              "game": r.game, "profile": r.profile, "status": r.status,
                              "flags": sorted(r.flags), "started_at": r.started_at, "ended_at": r.ended_at,
                              "seats": r.seats, "wagered": r.wagered, "paid": r.paid, "returned": r.returned,
                              "from_stacks": r.from_stacks, "house_result": r.house_result, "banking": r.banking,
                              "max_payout": r.max_payout}))
        return 0
    # plain columns: the list must come up fast over a million rounds (no rendering library)
    header = tuple(_(column) for column in COLUMNS)
    words = GAMES.flag_words()
    rows = [(str(r.id), r.started_at[:19].replace("T", " "), tables.get(r.table_id, "?"), str(r.number), r.game,
             str(r.seats), str(r.wagered), str(r.from_stacks), str(r.paid), str(r.returned), str(r.house_result),
             status_word(r.status), flags_text(r.flags, words, ","))
            for r in rounds]
    widths = [max(len(row[i]) for row in (header, *rows)) for i in range(len(header))]
    right = {0, 3, 5, 6, 7, 8, 9, 10}
    path = getattr(ledger, "path", None)
    print(n_("Last {count} rounds — {ledger}", "Last {count} rounds — {ledger}", len(rounds),
             ledger=_("the ledger") if path is None else str(path)))
    print(_("Wagered + From stacks = Paid + Returned + House (Paid: chips handed to the seats at payout; "
            "From stacks: what seats paid beyond their stakes — a DP, rake, Chinese Poker points and fees)"))
    for row in (header, *rows):
        print("  ".join(cell.rjust(w) if i in right else cell.ljust(w) for i, (cell, w) in enumerate(zip(row, widths))).rstrip())
    return 0


def _verify(ledger: SqliteLedger, witness_path: Path | None, pit: str | None = None) -> int:
    from dealer_tui.audit import verify
    from dealer_tui.ledger.witness import Witness, WitnessError

    witness = Witness.for_ledger(ledger.path, witness_path)
    notes, problems = [], []
    try:
        record = witness.read()
    except WitnessError as exc:
        record = None
        problems.append(_("witness: {problem}", problem=told_error(exc)))
    if record is None and not problems:
        if witness_path is not None:
            return fail(_("--witness: {path}: no such file", path=str(witness_path)))
        notes.append(_("no witness for this ledger at {path}: the ledger was not compared with one "
                       "(the terminal and demo write it)", path=str(witness.path)))
    elif record is not None and record.ledger != ledger_key(ledger.path):
        notes.append(_("the witness {path} was written for {ledger}", path=str(witness.path), ledger=record.ledger))
    report = verify(ledger, GAMES, record)
    problems += [told(p) for p in report.problems]
    if pit is not None:
        from dealer_tui.audit.pit_audit import server_witness
        from dealer_tui.ledger import LedgerError
        from dealer_tui.ledger.postgres import shown

        try:
            found, compared = server_witness(ledger, pit)
        except LedgerError as exc:
            return fail(_("--pit: {problem}", problem=told_error(exc)))
        problems += [_("pit server: {problem}", problem=told(p)) for p in found]
        if not found:
            notes.append(n_("the pit server {server} agrees: the {count} event(s) it took from this ledger are all in "
                            "it, unchanged", "the pit server {server} agrees: the {count} event(s) it took from this "
                            "ledger are all in it, unchanged", compared, server=shown(pit)))
    for line in [*report.notes, *notes]:
        sys.stdout.write(_("note: {note}", note=told(line)) + "\n")
    for line in problems:
        sys.stdout.write(f"{one_line(line)}\n")
    if problems:
        sys.stderr.write(_("error: {problem}", problem=n_("{count} problem(s) in {ledger}", "{count} problem(s) in "
                                                          "{ledger}", len(problems), ledger=str(ledger.path))) + "\n")
        return 1
    against = ""
    if record is not None:
        tables = sum(1 for table_id in record.heads if table_id != STAFF_REGISTER)
        against = (n_("; its witness {witness} agrees ({count} table head(s), and the staff register's)",
                      "; its witness {witness} agrees ({count} table head(s), and the staff register's)", tables,
                      witness=str(witness.path)) if len(record.heads) > tables
                   else n_("; its witness {witness} agrees ({count} table head(s))",
                           "; its witness {witness} agrees ({count} table head(s))", tables, witness=str(witness.path)))
    sys.stdout.write(_("ok: {ledger}: every hash checks, every finished round re-settles, and every row, total and "
                       "stack follows from the events ({rounds}){witness}", ledger=str(ledger.path),
                       rounds=_rounds(report.rounds), witness=against) + "\n")
    return 0


def _export(ledger: Ledger, args: argparse.Namespace) -> int:
    from datetime import datetime

    from dealer_tui.ledger import RowQuery

    for name in ("since", "until"):
        value = getattr(args, name)
        if value is not None:
            try:
                datetime.fromisoformat(value)
            except ValueError:
                return fail(_("--{option}: {value} is not a time like 2026-11-29T18:00", option=name,
                              value=repr(value)))
    if args.flag is not None and args.flag not in GAMES.flags():
        return fail(_("--flag: {flag} is not a flag (one of: {flags})", flag=repr(args.flag),
                      flags=", ".join(GAMES.flags())))
    query = RowQuery(game=args.game, table_id=args.table, since=args.since, until=args.until, seat=args.seat,
                     min_payout=args.min_payout, flag=args.flag, search=args.search, training=args.training)
    if args.csv == "-":
        write_rows(ledger, query, sys.stdout)
        return 0
    try:
        count = export_csv(ledger, query, Path(args.csv))
    except OSError as exc:
        return fail(_("--csv: {file}: {problem}", file=args.csv, problem=os_problem(exc)))
    sys.stderr.write(n_("wrote {count} rows to {file}", "wrote {count} rows to {file}", count, file=args.csv) + "\n")
    return 0
