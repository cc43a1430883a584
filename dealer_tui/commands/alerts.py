"""`dealer-tui alerts`: the floor's alerts not yet acknowledged (or all of them), and a
supervisor's acknowledgement of one, by name and with the supervisor's PIN."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from dealer_tui.commands.common import (
    add_ledger_option,
    fail,
    ledger_path,
    one_line,
    reading_ledger,
    server_url,
)
from dealer_tui.games import GAMES

if TYPE_CHECKING:
    from dealer_tui.ledger import Ledger

NAME = "alerts"
HELP = "the floor's alerts: big payouts, over-cap raises, voids, lock-outs, bands, currency transactions"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=type(parser))
    lst = sub.add_parser("list", help="the alerts nobody has acknowledged yet, oldest first")
    lst.add_argument("--all", action="store_true", help="the acknowledged ones too, with who acknowledged them")
    lst.add_argument("--json", action="store_true", help="one JSON object per line")
    add_ledger_option(lst, server=True)
    ack = sub.add_parser("acknowledge", help="a supervisor or a manager acknowledges an alert (asks the PIN)")
    ack.add_argument("alert", help="the alert's id, as `alerts list` gives it")
    ack.add_argument("--by", required=True, metavar="ACCOUNT", help="the supervisor's or manager's account")
    ack.add_argument("--note", default="", help="what was found")
    add_ledger_option(ack, server=True)


def run(args: argparse.Namespace) -> int:
    from dealer_tui.accounting.alerts import acknowledgements, raised
    from dealer_tui.accounting.theoretical import Theory
    from dealer_tui.paths import theory_cache_path

    if args.action == "acknowledge":
        return _acknowledge(args)

    def show(ledger: Ledger) -> int:
        done = acknowledgements(ledger)
        for alert in raised(ledger, Theory(GAMES, theory_cache_path())):
            ack = done.get(alert.id)
            if (ack is not None or alert.closed) and not args.all:
                continue  # acknowledged, or closed by what happened (a payout approved or paid)
            if args.json:
                row = {**alert.to_dict(), "acknowledged_by": ack.by if ack else None,
                       "note": ack.note if ack else None}
                sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")
            else:
                state = f" — acknowledged by {ack.by}" + (f": {ack.note}" if ack and ack.note else "") if ack else ""
                state += f" — closed: {alert.closed}" if alert.closed else ""
                where = f" at {alert.table}" if alert.table else ""
                print(one_line(f"{alert.at[:19].replace('T', ' ')} {alert.kind}{where}: {alert.text} [{alert.id}]"
                               f"{state}"))
        return 0

    return reading_ledger(args, show)


def _acknowledge(args: argparse.Namespace) -> int:
    from dealer_tui.accounting.alerts import acknowledge
    from dealer_tui.accounting.theoretical import Theory
    from dealer_tui.commands.staff import sign_in
    from dealer_tui.ledger import LedgerError, SqliteLedger
    from dealer_tui.ledger.base import NotALedger
    from dealer_tui.paths import theory_cache_path
    from dealer_tui.staff import ACKNOWLEDGE, Purpose, SignInRefused, StaffDesk
    from dealer_tui.staff.desk import id_problem
    from rules.errors import RulesError

    why = id_problem(args.by) if str(args.by).isprintable() else "an account ID is letters, digits, '-', '_' or '.'"
    if why is not None:
        return fail(f"--by: {why}")
    url = server_url(args)
    path = ledger_path(args)
    if url is None and not path.is_file():
        return fail(f"--ledger: no ledger at {path}")
    try:
        if url is not None:
            from dealer_tui.ledger.postgres import PgLedger

            ledger: Ledger = PgLedger(url)
        else:
            ledger = SqliteLedger(path)
    except (NotALedger, LedgerError) as exc:
        return fail(str(exc))
    try:
        by = sign_in(StaffDesk(ledger), args.by, Purpose(ACKNOWLEDGE, f"acknowledge alert {args.alert}"))
        event = acknowledge(ledger, args.alert, by, args.note, Theory(GAMES, theory_cache_path()))
    except (RulesError, LedgerError, SignInRefused, EOFError) as exc:
        return fail(one_line(str(exc)))
    finally:
        ledger.close()
    print(f"alert {event.alert} acknowledged by {event.by}")
    return 0
