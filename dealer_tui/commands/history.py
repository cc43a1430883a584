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
from dealer_tui.ledger.base import STAFF_REGISTER
from dealer_tui.ledger.export import export_csv, write_rows
from dealer_tui.ledger.witness import default_witness_dir, default_witness_path, ledger_key

if TYPE_CHECKING:
    from dealer_tui.ledger import Ledger, SqliteLedger

NAME = "history"
HELP = "the ledger's rounds: list them, verify every hash and settlement"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=type(parser))
    lst = sub.add_parser("list", help="the last rounds, newest first")
    lst.add_argument("--limit", type=whole(1, 1_000_000), default=20, help="how many rounds (default 20)")
    lst.add_argument("--json", action="store_true", help="one JSON object per round")
    verify = sub.add_parser("verify", help="re-check every hash and re-settle every finished round",
                            description="Check that everything the ledger shows follows from its events: every "
                            "hash, the ledger-wide sequence, each round's totals, status, flags and settlement "
                            "rows, the hourly totals, the seatings, stack continuity, round numbers, SQLite's "
                            "integrity check; every finished round re-settled by the rules; and the ledger's "
                            "heads against its witness. Exit status 1 when anything differs.")
    verify.add_argument("--witness", metavar="FILE", type=Path, default=None,
                        help="the witness to compare the ledger with (default: the ledger's own witness in "
                        f"{default_witness_dir()}, named after the ledger and a hash of its path, when it "
                        f"exists; for the default ledger: {_default_witness()})")
    verify.add_argument("--pit", metavar="URL", default=None,
                        help="the pit server this ledger delivers to, as its witness too: every event the server "
                        "took from it must still be in the ledger, unchanged")
    export = sub.add_parser("export", help="settlement rows as CSV: one row per seat per bet")
    export.add_argument("--csv", required=True, metavar="FILE", help="the CSV file to write ('-': standard output)")
    export.add_argument("--game", help="only this game")
    export.add_argument("--table", type=whole(), help="only this table (id)")
    export.add_argument("--since", help="rounds started at or after this time (ISO, e.g. 2026-11-29T18:00)")
    export.add_argument("--until", help="rounds started before this time (ISO)")
    export.add_argument("--seat", type=whole(), help="only this seat (the box in \"1 or 5\")")
    export.add_argument("--min-payout", type=whole(), help="only the rows of seats paid at least this in a round (a "
                        "seat's payout: its winning bets with their stakes, a DP's take, a pot's share)")
    export.add_argument("--flag", help=f"only rounds with this flag ({', '.join(GAMES.flags())})")
    export.add_argument("--search", help="only rounds matching: a round number or id, a table's or a player's name")
    export.add_argument("--training", action="store_true",
                        help="take in the rounds of training tables (demos), left out otherwise")
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
            return fail(str(exc))
        sys.stdout.write(f"{exc}\n")  # a verification that fails: the file is no ledger
        return fail(f"{path}: not a dealer-tui ledger", status=1)
    except LedgerError as exc:
        if args.action == "verify" and getattr(exc, "problem", None) == "the file is damaged":
            sys.stdout.write(f"{exc}\n")
            return fail(f"{path}: the ledger file is damaged", status=1)
        return fail(str(exc))
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
                sys.stdout.write(f"note: {one_line(line)}\n")
            for line in report.problems:
                sys.stdout.write(f"{one_line(line)}\n")
            if report.problems:
                sys.stderr.write(f"error: {len(report.problems)} problem(s) on {shown(url)}\n")
                return 1
            rounds = f"{report.rounds} round{'' if report.rounds == 1 else 's'}"
            sys.stdout.write(f"ok: {shown(url)}: every terminal's chain checks on the server, every finished round "
                             f"re-settles, and every row and total follows from the events ({rounds})\n")
            return 0
        ledger = PgLedger(url)
    except LedgerError as exc:
        return fail(str(exc))
    try:
        return _list(ledger, args) if args.action == "list" else _export(ledger, args)
    except LedgerError as exc:
        return fail(str(exc))
    finally:
        ledger.close()


def _list(ledger: Ledger, args: argparse.Namespace) -> int:
    if args.limit < 1:
        return fail("--limit: must be at least 1")
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
    header = ("Id", "Time", "Table", "Round", "Game", "Seats", "Wagered", "From stacks", "Paid", "Returned", "House",
              "Status", "Flags")
    rows = [(str(r.id), r.started_at[:19].replace("T", " "), tables.get(r.table_id, "?"), str(r.number), r.game,
             str(r.seats), str(r.wagered), str(r.from_stacks), str(r.paid), str(r.returned), str(r.house_result),
             r.status, ",".join(sorted(r.flags)))
            for r in rounds]
    widths = [max(len(row[i]) for row in (header, *rows)) for i in range(len(header))]
    right = {0, 3, 5, 6, 7, 8, 9, 10}
    print(f"Last {len(rounds)} rounds — {getattr(ledger, 'path', 'the ledger')}")
    print("Wagered + From stacks = Paid + Returned + House (Paid: chips handed to the seats at payout; "
          "From stacks: what seats paid beyond their stakes — a DP, rake, Chinese Poker points and fees)")
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
        problems.append(f"witness: {exc}")
    if record is None and not problems:
        if witness_path is not None:
            return fail(f"--witness: {witness_path}: no such file")
        notes.append(f"no witness for this ledger at {witness.path}: the ledger was not compared with one "
                     "(the terminal and demo write it)")
    elif record is not None and record.ledger != ledger_key(ledger.path):
        notes.append(f"the witness {witness.path} was written for {record.ledger}")
    report = verify(ledger, GAMES, record)
    problems += report.problems
    if pit is not None:
        from dealer_tui.audit.pit_audit import server_witness
        from dealer_tui.ledger import LedgerError
        from dealer_tui.ledger.postgres import shown

        try:
            found, compared = server_witness(ledger, pit)
        except LedgerError as exc:
            return fail(f"--pit: {exc}")
        problems += [f"pit server: {p}" for p in found]
        if not found:
            notes.append(f"the pit server {shown(pit)} agrees: the {compared} event(s) it took from this ledger are "
                         "all in it, unchanged")
    for line in report.notes + notes:
        sys.stdout.write(f"note: {line}\n")
    for line in problems:
        sys.stdout.write(f"{one_line(line)}\n")
    if problems:
        sys.stderr.write(f"error: {len(problems)} problem(s) in {ledger.path}\n")
        return 1
    against = ""
    if record is not None:
        tables = sum(1 for table_id in record.heads if table_id != STAFF_REGISTER)
        staff = ", and the staff register's" if len(record.heads) > tables else ""
        against = f"; its witness {witness.path} agrees ({tables} table head(s){staff})"
    rounds = f"{report.rounds} round{'' if report.rounds == 1 else 's'}"
    sys.stdout.write(f"ok: {ledger.path}: every hash checks, every finished round re-settles, and every row, total "
                     f"and stack follows from the events ({rounds}){against}\n")
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
                return fail(f"--{name}: {value!r} is not a time like 2026-11-29T18:00")
    if args.flag is not None and args.flag not in GAMES.flags():
        return fail(f"--flag: {args.flag!r} is not a flag (one of: {', '.join(GAMES.flags())})")
    query = RowQuery(game=args.game, table_id=args.table, since=args.since, until=args.until, seat=args.seat,
                     min_payout=args.min_payout, flag=args.flag, search=args.search, training=args.training)
    if args.csv == "-":
        write_rows(ledger, query, sys.stdout)
        return 0
    try:
        count = export_csv(ledger, query, Path(args.csv))
    except OSError as exc:
        return fail(f"--csv: {args.csv}: {exc.strerror}")
    sys.stderr.write(f"wrote {count} rows to {args.csv}\n")
    return 0
