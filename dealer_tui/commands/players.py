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

from dealer_tui.commands.common import add_ledger_option, fail, figure, reading_ledger, whole
from dealer_tui.games import GAMES
from dealer_tui.language import N_, _, n_, number, os_problem, told
from dealer_tui.printable import csv_cell

if TYPE_CHECKING:
    from dealer_tui.accounting.ratings import PlayerRating
    from dealer_tui.ledger import Ledger

NAME = "players"
HELP = N_("player ratings: hands, time, wagered, average bet, actual and theoretical win per player")
CSV_COLUMNS = ("player", "card", "anonymous", "sessions", "tables", "hands", "minutes", "away_minutes", "wagered",
               "average_bet", "actual_win", "theoretical_win", "player_result")
MAX_HANDS = 10_000_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=type(parser))
    report = sub.add_parser("report", help=_("per player: sessions, hands, minutes, wagered, average bet, the "
                                             "house's actual win and theoretical win"))
    report.add_argument("--day", metavar="YYYY-MM-DD", help=_("one gaming day (it begins at 06:00 UTC)"))
    form = report.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help=_("one JSON object: `players` and their `sessions`"))
    form.add_argument("--csv", metavar="FILE", help=_("one CSV row per player ('-': standard output)"))
    report.add_argument("--hands", type=whole(), default=None,
                        help=_("hands simulated per profile for its house edge (default {hands}; cached)",
                               hands=number(400_000)))
    add_ledger_option(report, server=True)
    log = sub.add_parser("cash-log", help=_("the cash-transaction logs: each cash buy-in or cash-out at or over the "
                                            "multiple-transaction-log threshold, and each player's cash in or out "
                                            "over a gaming day reaching the currency-transaction threshold (the "
                                            "floor's settings: {mtl} and {ctr} unless a manager set others)",
                                            mtl=number(3_000), ctr=number(10_000)))
    log.add_argument("--day", metavar="YYYY-MM-DD", help=_("one gaming day (it begins at the floor's hour, 06:00 UTC "
                                                           "unless a manager set another)"))
    log.add_argument("--json", action="store_true", help=_("one JSON object: `mtl` and `ctr`"))
    log.add_argument("--mtl", metavar="FILE", help=_("the multiple-transaction log as CSV"))
    log.add_argument("--ctr", metavar="FILE",
                     help=_("the currency-transaction entries as CSV (one row per transaction)"))
    add_ledger_option(log, server=True)
    for command in (report, log):
        command.add_argument("--training", action="store_true",
                             help=_("the training tables' play too (left out unless asked for: it is no real money)"))


def run(args: argparse.Namespace) -> int:
    if args.day is not None:
        try:
            args.day = date.fromisoformat(args.day.strip()).isoformat()
        except ValueError:
            return fail(_("--day: {given} is not a day (YYYY-MM-DD)", given=repr(args.day)))
    if getattr(args, "hands", None) is not None and not 1_000 <= args.hands <= MAX_HANDS:
        return fail(_("--hands: {least} to {most}, not {given}", least=number(1_000), most=number(MAX_HANDS),
                      given=str(args.hands)))
    for option in ("csv", "mtl", "ctr"):
        given = getattr(args, option, None)
        if given is not None and not given.strip():
            return fail(_("{option}: a file name is needed", option=f"--{option}"))
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
            print(n_("wrote {count} player(s) to {file}", "wrote {count} player(s) to {file}", len(ratings),
                     file=args.csv))
        else:
            if not ratings:
                print(_("no rated play on gaming day {day}", day=args.day) if args.day else _("no rated play"))
            for r in ratings:
                print(_rating_line(r))
            for note in theory.problems:
                print(_("note: {note}", note=told(note)))
    except OSError as exc:
        return fail(_("{file}: cannot be written ({problem}); nothing was written", file=str(args.csv),
                      problem=os_problem(exc)))
    return 0


def _rating_line(r: PlayerRating) -> str:
    """A player's rating as one line: who, how long, what was wagered and won."""
    d = r.to_dict()
    values = {
        "who": (_("{player} (card {card})", player=r.player, card=r.card) if r.card
                else _("{player} (anonymous)", player=r.player)),
        "sessions": n_("{count} session(s)", "{count} session(s)", len(r.sessions)),
        "hands": n_("{count} hand", "{count} hands", int(r.total("hands"))),
        "minutes": figure(f"{d['minutes']}"),
        "wagered": number(int(r.total("wagered"))),
        "average": "—" if d["average_bet"] is None else figure(f"{d['average_bet']:,.2f}"),
        "actual": figure(f"{d['actual_win']:+,}"),
        "theoretical": "—" if d["theoretical_win"] is None else figure(f"{d['theoretical_win']:,.2f}"),
    }
    if d["away_minutes"]:
        return _("{who}: {sessions}, {hands}, {minutes} min ({away} sat out), wagered {wagered}, average bet "
                 "{average}, actual win {actual}, theoretical win {theoretical}", away=figure(f"{d['away_minutes']}"),
                 **values)
    return _("{who}: {sessions}, {hands}, {minutes} min, wagered {wagered}, average bet {average}, actual win "
             "{actual}, theoretical win {theoretical}", **values)


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
        if args.mtl is not None:
            write_file(Path(args.mtl), mtl_csv)
            print(n_("wrote {count} MTL entry to {file}", "wrote {count} MTL entries to {file}", len(mtl),
                     file=args.mtl))
        if args.ctr is not None:
            write_file(Path(args.ctr), ctr_csv)
            print(n_("wrote {count} CTR entry to {file}", "wrote {count} CTR entries to {file}", len(ctr),
                     file=args.ctr))
        if args.mtl is None and args.ctr is None:
            print(n_("multiple-transaction log (cash at or over {threshold}): {count} entry",
                     "multiple-transaction log (cash at or over {threshold}): {count} entries", len(mtl),
                     threshold=number(mtl_at)))
            for t in mtl:
                identified = _("ID {document}", document=shown(t.document)) if t.document else _("not identified")
                if t.card:
                    identified = _("{identified}, card {card}", identified=identified, card=shown(t.card))
                values = {"at": t.at[:19].replace("T", " "), "table": shown(t.table), "seat": str(t.seat),
                          "player": shown(t.player), "identified": identified, "amount": number(t.amount)}
                print(_("  {at} {table} seat {seat} {player} ({identified}): cash in {amount}", **values)
                      if t.direction == "in"
                      else _("  {at} {table} seat {seat} {player} ({identified}): cash out {amount}", **values))
            print(n_("currency transactions (a day's cash in or out reaching {threshold}): {count} entry",
                     "currency transactions (a day's cash in or out reaching {threshold}): {count} entries", len(ctr),
                     threshold=number(ctr_at)))
            for e in ctr:
                values = {"day": e.day, "player": shown(e.player), "total": number(e.total),
                          "reached": e.reached_at[11:19],
                          "identified": (_("ID {document}", document=shown(e.document)) if e.document
                                         else _("NOT IDENTIFIED"))}
                print(n_("  {day} {player} ({identified}): cash in {total} in {count} transaction(s), the threshold "
                         "reached {reached}", "  {day} {player} ({identified}): cash in {total} in {count} "
                         "transaction(s), the threshold reached {reached}", len(e.transactions), **values)
                      if e.direction == "in"
                      else n_("  {day} {player} ({identified}): cash out {total} in {count} transaction(s), the "
                              "threshold reached {reached}", "  {day} {player} ({identified}): cash out {total} in "
                              "{count} transaction(s), the threshold reached {reached}", len(e.transactions),
                              **values))
    except OSError as exc:
        return fail(_("the log cannot be written ({problem}); nothing was written", problem=os_problem(exc)))
    return 0
