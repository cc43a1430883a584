"""`dealer-tui alerts`: the floor's alerts not yet acknowledged (or all of them), and a
supervisor's acknowledgement of one, by name and with the supervisor's PIN."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from dealer_tui.accounting.alerts import KINDS
from dealer_tui.commands.common import (
    add_ledger_option,
    fail,
    ledger_path,
    one_line,
    reading_ledger,
    server_url,
)
from dealer_tui.games import GAMES
from dealer_tui.language import N_, _, told, told_error

if TYPE_CHECKING:
    from dealer_tui.ledger import Ledger

NAME = "alerts"
HELP = N_("the floor's alerts: big payouts, over-cap raises, voids, lock-outs, bands, currency transactions")
def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=type(parser))
    lst = sub.add_parser("list", help=_("the alerts nobody has acknowledged yet, oldest first"))
    lst.add_argument("--all", action="store_true", help=_("the acknowledged ones too, with who acknowledged them"))
    lst.add_argument("--json", action="store_true", help=_("one JSON object per line"))
    add_ledger_option(lst, server=True)
    ack = sub.add_parser("acknowledge", help=_("a supervisor or a manager acknowledges an alert (asks the PIN)"))
    ack.add_argument("alert", help=_("the alert's id, as `alerts list` gives it"))
    ack.add_argument("--by", required=True, metavar="ACCOUNT", help=_("the supervisor's or manager's account"))
    ack.add_argument("--note", default="", help=_("what was found"))
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
                print(one_line(_listed(alert.at[:19].replace("T", " "), alert.kind, alert.table, told(alert.text),
                                       alert.id, ack.by if ack else None, ack.note if ack else "",
                                       told(alert.closed))))
        return 0

    return reading_ledger(args, show)


def _listed(at: str, kind: str, table: str, text: str, id: str, by: str | None, note: str, closed: str) -> str:
    """An alert's line: when, what, where, its id; who acknowledged it, or what closed it."""
    named = _(KINDS[kind]) if kind in KINDS else kind
    line = (_("{at} {kind} at {table}: {text} [{id}]", at=at, kind=named, table=table, text=text, id=id) if table
            else _("{at} {kind}: {text} [{id}]", at=at, kind=named, text=text, id=id))
    if by is not None:
        line = (_("{alert} — acknowledged by {account}: {note}", alert=line, account=by, note=note) if note
                else _("{alert} — acknowledged by {account}", alert=line, account=by))
    if closed:
        line = _("{alert} — closed: {closed}", alert=line, closed=closed)
    return line


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
    from rules.said import say

    why = id_problem(args.by) if str(args.by).isprintable() else N_("an account ID is letters, digits, '-', '_' or '.'")
    if why is not None:
        return fail(_("--by: {problem}", problem=_(why)))
    url = server_url(args)
    path = ledger_path(args)
    if url is None and not path.is_file():
        return fail(_("--ledger: no ledger at {path}", path=str(path)))
    try:
        if url is not None:
            from dealer_tui.ledger.postgres import PgLedger

            ledger: Ledger = PgLedger(url)
        else:
            ledger = SqliteLedger(path)
    except (NotALedger, LedgerError) as exc:
        return fail(told_error(exc))
    try:
        by = sign_in(StaffDesk(ledger), args.by, Purpose(ACKNOWLEDGE, say("acknowledge alert {alert}", alert=args.alert)))
        event = acknowledge(ledger, args.alert, by, args.note, Theory(GAMES, theory_cache_path()))
    except (RulesError, LedgerError, SignInRefused, EOFError) as exc:
        return fail(told_error(exc))
    finally:
        ledger.close()
    print(_("alert {alert} acknowledged by {account}", alert=event.alert, account=event.by))
    return 0
