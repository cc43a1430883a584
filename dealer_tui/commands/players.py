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

from dealer_tui.commands.common import add_ledger_option, fail, reading_ledger, whole
from dealer_tui.games import GAMES
from dealer_tui.printable import csv_cell

if TYPE_CHECKING:
    from dealer_tui.accounting.ratings import PlayerRating
    from dealer_tui.ledger import Ledger

NAME = "players"
HELP = "player ratings: hands, time, wagered, average bet, actual and theoretical win per player"
CSV_COLUMNS = ("player", "card", "anonymous", "sessions", "tables", "hands", "minutes", "away_minutes", "wagered",
               "average_bet", "actual_win", "theoretical_win", "player_result")
MAX_HANDS = 10_000_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=type(parser))
    report = sub.add_parser("report", help="per player: sessions, hands, minutes, wagered, average bet, the house's "
                            "actual win and theoretical win")
    report.add_argument("--day", metavar="YYYY-MM-DD", help="one gaming day (it begins at 06:00 UTC)")
    form = report.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="one JSON object: `players` and their `sessions`")
    form.add_argument("--csv", metavar="FILE", help="one CSV row per player ('-': standard output)")
    report.add_argument("--hands", type=whole(), default=None,
                        help="hands simulated per profile for its house edge (default 400,000; cached)")
    add_ledger_option(report, server=True)
    log = sub.add_parser("cash-log", help="the cash-transaction logs: each cash buy-in or cash-out at or over the "
                         "multiple-transaction-log threshold, and each player's cash in or out over a gaming day "
                         "reaching the currency-transaction threshold (the floor's settings: 3,000 and 10,000 unless "
                         "a manager set others)")
    log.add_argument("--day", metavar="YYYY-MM-DD", help="one gaming day (it begins at the floor's hour, 06:00 UTC "
                     "unless a manager set another)")
    log.add_argument("--json", action="store_true", help="one JSON object: `mtl` and `ctr`")
    log.add_argument("--mtl", metavar="FILE", help="the multiple-transaction log as CSV")
    log.add_argument("--ctr", metavar="FILE", help="the currency-transaction entries as CSV (one row per transaction)")
    add_ledger_option(log, server=True)
    for command in (report, log):
        command.add_argument("--training", action="store_true",
                             help="the training tables' play too (left out unless asked for: it is no real money)")


def run(args: argparse.Namespace) -> int:
    if args.day is not None:
        try:
            args.day = date.fromisoformat(args.day.strip()).isoformat()
        except ValueError:
            return fail(f"--day: {args.day!r} is not a day (YYYY-MM-DD)")
    if getattr(args, "hands", None) is not None and not 1_000 <= args.hands <= MAX_HANDS:
        return fail(f"--hands: 1,000 to {MAX_HANDS:,}, not {args.hands}")
    for option in ("csv", "mtl", "ctr"):
        given = getattr(args, option, None)
        if given is not None and not given.strip():
            return fail(f"--{option}: a file name is needed")
    return reading_ledger(args, lambda ledger: _report(ledger, args) if args.action == "report"
                          else _cash_log(ledger, args))


def _rows(ratings: list[PlayerRating]) -> list[dict[str, object]]:
    return [r.to_dict() for r in ratings]


def _write_csv(ratings: list[PlayerRating], out: TextIO) -> None:
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for row in _rows(ratings):
        cells = [";".join(v) if isinstance(v := row.get(c), list) else v for c in CSV_COLUMNS]
        writer.writerow([csv_cell(c) for c in cells])


def _report(ledger: Ledger, args: argparse.Namespace) -> int:
    from dealer_tui.accounting.ratings import player_ratings, rating_sessions
    from dealer_tui.accounting.report import write_file
    from dealer_tui.accounting.theoretical import THEORY_HANDS, Theory
    from dealer_tui.paths import theory_cache_path

    theory = Theory(GAMES, theory_cache_path(), hands=args.hands or THEORY_HANDS)
    sessions = rating_sessions(ledger, theory, training=args.training)
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
                hands = f"{d['hands']} hand{'' if d['hands'] == 1 else 's'}"
                away = f" ({d['away_minutes']} sat out)" if d["away_minutes"] else ""
                print(f"{who}: {d['sessions']} session(s), {hands}, {d['minutes']} min{away}, wagered "
                      f"{d['wagered']:,}, average bet {avg}, actual win {d['actual_win']:+,}, theoretical win {theo}")
            for note in theory.problems:
                print(f"note: {note}")
    except OSError as exc:
        return fail(f"{args.csv}: cannot be written ({exc.strerror or exc}); nothing was written")
    return 0


MTL_COLUMNS = ("at", "day", "table", "seat", "player", "card", "id_document", "direction", "amount")
"""`card`: the loyalty card; `id_document`: the ID document shown (kind and number)."""


def _cash_log(ledger: Ledger, args: argparse.Namespace) -> int:
    from dealer_tui.accounting.cash_log import currency_entries, multiple_transaction_log
    from dealer_tui.accounting.report import shown, write_file
    from dealer_tui.rounds.cash import cash_transactions, settings

    floor = settings(ledger)
    mtl_at, ctr_at = floor["mtl_threshold"], floor["ctr_threshold"]
    moves = cash_transactions(ledger, training=args.training)
    mtl = multiple_transaction_log(moves, mtl_at, day=args.day)
    ctr = currency_entries(moves, ctr_at, day=args.day)

    def cells(row: dict[str, object]) -> list[object]:
        return [csv_cell(row.get(k)) for k in MTL_COLUMNS]

    def mtl_csv(part: Path) -> None:
        with open(part, "w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out)
            writer.writerow(MTL_COLUMNS)
            writer.writerows(cells(t.to_dict()) for t in mtl)

    def ctr_csv(part: Path) -> None:
        with open(part, "w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out)
            writer.writerow(("entry", "total", "identified", *MTL_COLUMNS))
            for n, entry in enumerate(ctr, start=1):
                writer.writerows([n, entry.total, "yes" if entry.document else "no", *cells(t.to_dict())]
                                 for t in entry.transactions)

    try:
        if args.json:
            sys.stdout.write(json.dumps({"day": args.day, "mtl_threshold": mtl_at, "ctr_threshold": ctr_at,
                                         "mtl": [t.to_dict() for t in mtl], "ctr": [e.to_dict() for e in ctr]},
                                        ensure_ascii=False) + "\n")
            return 0
        for target, write, what in ((args.mtl, mtl_csv, f"{len(mtl)} MTL entr{'y' if len(mtl) == 1 else 'ies'}"),
                                    (args.ctr, ctr_csv, f"{len(ctr)} CTR entr{'y' if len(ctr) == 1 else 'ies'}")):
            if target is not None:
                write_file(Path(target), write)
                print(f"wrote {what} to {target}")
        if args.mtl is None and args.ctr is None:
            print(f"multiple-transaction log (cash at or over {mtl_at:,}): {len(mtl)} entr"
                  f"{'y' if len(mtl) == 1 else 'ies'}")
            for t in mtl:
                print(f"  {t.at[:19].replace('T', ' ')} {shown(t.table)} seat {t.seat} {shown(t.player)}"
                      f" ({'ID ' + shown(t.document) if t.document else 'not identified'}"
                      f"{', card ' + shown(t.card) if t.card else ''}): cash {t.direction} {t.amount:,}")
            print(f"currency transactions (a day's cash in or out reaching {ctr_at:,}): {len(ctr)} entr"
                  f"{'y' if len(ctr) == 1 else 'ies'}")
            for e in ctr:
                print(f"  {e.day} {shown(e.player)} ({'ID ' + shown(e.document) if e.document else 'NOT IDENTIFIED'}): "
                      f"cash {e.direction} {e.total:,} in "
                      f"{len(e.transactions)} transaction(s), the threshold reached {e.reached_at[11:19]}")
    except OSError as exc:
        return fail(f"the log cannot be written ({exc.strerror or exc}); nothing was written")
    return 0
