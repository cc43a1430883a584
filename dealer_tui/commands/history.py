"""`dealer-tui history`: list the rounds of a ledger and verify it."""

from __future__ import annotations

import argparse
import json
import sys

from typing import TYPE_CHECKING

from dealer_tui.commands.common import add_ledger_option, fail, ledger_path

if TYPE_CHECKING:
    from dealer_tui.ledger import SqliteLedger

NAME = "history"
HELP = "the ledger's rounds: list them, verify every hash and settlement"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=type(parser))
    lst = sub.add_parser("list", help="the last rounds, newest first")
    lst.add_argument("--limit", type=int, default=20, help="how many rounds (default 20)")
    lst.add_argument("--json", action="store_true", help="one JSON object per round")
    verify = sub.add_parser("verify", help="re-check every hash and re-settle every finished round")
    for p in (lst, verify):
        add_ledger_option(p)


def run(args: argparse.Namespace) -> int:
    from dealer_tui.ledger import LedgerError, SqliteLedger

    path = ledger_path(args)
    try:
        ledger = SqliteLedger(path, readonly=True)
    except LedgerError as exc:
        return fail(str(exc))
    try:
        if args.action == "list":
            return _list(ledger, args)
        return _verify(ledger)
    finally:
        ledger.close()


def _list(ledger: SqliteLedger, args: argparse.Namespace) -> int:
    if args.limit < 1:
        return fail("--limit: must be at least 1")
    rounds = ledger.recent_rounds(limit=args.limit)
    tables = {t.id: t.name for t in ledger.tables()}
    if args.json:
        for r in rounds:
            print(json.dumps({"round_id": r.id, "table": tables.get(r.table_id), "number": r.number,
                              "game": r.game, "profile": r.profile, "status": r.status,
                              "flags": sorted(r.flags), "started_at": r.started_at, "ended_at": r.ended_at,
                              "seats": r.seats, "wagered": r.wagered, "paid": r.paid,
                              "house_result": r.house_result}))
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"Last {len(rounds)} rounds — {ledger.path}")
    for column in ("Id", "Time", "Table", "Round", "Game", "Seats", "Wagered", "Paid", "House", "Status", "Flags"):
        table.add_column(column, justify="right" if column in ("Id", "Round", "Seats", "Wagered", "Paid", "House") else "left")
    for r in rounds:
        table.add_row(str(r.id), r.started_at[:19].replace("T", " "), tables.get(r.table_id, "?"), str(r.number),
                      r.game, str(r.seats), str(r.wagered), str(r.paid), str(r.house_result), r.status,
                      ", ".join(sorted(r.flags)))
    Console().print(table)
    return 0


def _verify(ledger: SqliteLedger) -> int:
    from dealer_tui.audit import verify_ledger

    problems = verify_ledger(ledger)
    for line in problems:
        sys.stdout.write(f"{line}\n")
    if problems:
        sys.stderr.write(f"error: {len(problems)} problem(s) in {ledger.path}\n")
        return 1
    rounds = sum(len(ledger.table_rounds(t.id)) for t in ledger.tables())
    sys.stdout.write(f"ok: {ledger.path}: every hash checks and every finished round re-settles ({rounds} rounds)\n")
    return 0
