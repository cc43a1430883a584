"""`dealer-tui players report`: player ratings per player (of one gaming day, or every day), with
their rating sessions."""

from __future__ import annotations

import argparse
import csv
import json
import sys
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from dealer_tui.commands.common import add_ledger_option, fail, ledger_path, server_url

if TYPE_CHECKING:
    from dealer_tui.accounting.ratings import PlayerRating
    from dealer_tui.ledger import Ledger

NAME = "players"
HELP = "player ratings: hands, time, wagered, average bet, actual and theoretical win per player"
CSV_COLUMNS = ("player", "card", "anonymous", "sessions", "tables", "hands", "minutes", "wagered", "average_bet",
               "actual_win", "theoretical_win", "player_result")
MAX_HANDS = 10_000_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=type(parser))
    report = sub.add_parser("report", help="per player: sessions, hands, minutes, wagered, average bet, the house's "
                            "actual win and theoretical win")
    report.add_argument("--day", metavar="YYYY-MM-DD", help="one gaming day (it begins at 06:00 UTC)")
    form = report.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="one JSON object: `players` and their `sessions`")
    form.add_argument("--csv", metavar="FILE", help="one CSV row per player ('-': standard output)")
    report.add_argument("--hands", type=int, default=None,
                        help="hands simulated per profile for its house edge (default 400,000; cached)")
    add_ledger_option(report, server=True)


def run(args: argparse.Namespace) -> int:
    from dealer_tui.ledger import LedgerError, SqliteLedger
    from dealer_tui.ledger.base import NotALedger

    if args.day is not None:
        try:
            args.day = date.fromisoformat(args.day.strip()).isoformat()
        except ValueError:
            return fail(f"--day: {args.day!r} is not a day (YYYY-MM-DD)")
    if args.hands is not None and not 1_000 <= args.hands <= MAX_HANDS:
        return fail(f"--hands: 1,000 to {MAX_HANDS:,}, not {args.hands}")
    if args.csv is not None and not args.csv.strip():
        return fail("--csv: a file name is needed")
    url = server_url(args)
    try:
        if url is not None:
            from dealer_tui.ledger.postgres import PgLedger

            ledger: Ledger = PgLedger(url)
        else:
            ledger = SqliteLedger(ledger_path(args), readonly=True)
    except (NotALedger, LedgerError) as exc:
        return fail(str(exc))
    try:
        return _report(ledger, args)
    except LedgerError as exc:
        return fail(str(exc))
    finally:
        ledger.close()


def _rows(ratings: list[PlayerRating]) -> list[dict[str, object]]:
    return [r.to_dict() for r in ratings]


def _write_csv(ratings: list[PlayerRating], out: TextIO) -> None:
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for row in _rows(ratings):
        cells = [";".join(v) if isinstance(v := row.get(c), list) else v for c in CSV_COLUMNS]
        writer.writerow(["'" + c if isinstance(c, str) and c[:1] in "=+-@\t\r" else "" if c is None else c
                         for c in cells])


def _report(ledger: Ledger, args: argparse.Namespace) -> int:
    from dealer_tui.accounting.ratings import player_ratings, rating_sessions
    from dealer_tui.accounting.report import write_file
    from dealer_tui.accounting.theoretical import THEORY_HANDS, Theory
    from dealer_tui.paths import theory_cache_path

    theory = Theory(theory_cache_path(), hands=args.hands or THEORY_HANDS)
    sessions = rating_sessions(ledger, theory)
    ratings = player_ratings(sessions, args.day)
    try:
        if args.json:
            shown = [s for r in ratings for s in r.sessions]
            sys.stdout.write(json.dumps({"day": args.day, "players": _rows(ratings),
                                         "sessions": [s.to_dict() for s in shown], "notes": theory.problems},
                                        ensure_ascii=False) + "\n")
        elif args.csv == "-":
            _write_csv(ratings, sys.stdout)
        elif args.csv is not None:
            def write(part: Path) -> None:
                with open(part, "w", newline="", encoding="utf-8") as out:
                    _write_csv(ratings, out)

            write_file(Path(args.csv), write)
            print(f"wrote {len(ratings)} player(s) to {args.csv}")
        else:
            if not ratings:
                print("no rated play" + (f" on gaming day {args.day}" if args.day else ""))
            for r in ratings:
                d = r.to_dict()
                avg = "—" if d["average_bet"] is None else f"{d['average_bet']:,.2f}"
                theo = "—" if d["theoretical_win"] is None else f"{d['theoretical_win']:,.2f}"
                who = f"{r.player} (card {r.card})" if r.card else f"{r.player} (anonymous)"
                print(f"{who}: {d['sessions']} session(s), {d['hands']} hands, {d['minutes']} min, wagered "
                      f"{d['wagered']:,}, average bet {avg}, actual win {d['actual_win']:+,}, theoretical win {theo}")
            for note in theory.problems:
                print(f"note: {note}")
    except OSError as exc:
        return fail(f"{args.csv}: cannot be written ({exc.strerror or exc}); nothing was written")
    return 0
