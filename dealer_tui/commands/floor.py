"""`dealer-tui floor`: the supervisor's review of the ledger (rounds, stories, totals, export) and
the sign-off queue, after a supervisor's, manager's or auditor's sign-in. It reads the ledger
beside the dealer's terminal; only sign-ins and sign-off decisions are written."""

from __future__ import annotations

import argparse

from dealer_tui.commands.common import add_ledger_option, fail, ledger_path, server_url

NAME = "floor"
HELP = "the floor supervisor's review of the ledger and sign-off queue (may run beside the dealer's terminal)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_ledger_option(parser, server=True)


def run(args: argparse.Namespace) -> int:
    from dealer_tui.floor_app import FloorApp
    from dealer_tui.ledger import LedgerError, SqliteLedger
    from dealer_tui.ledger.postgres import PgLedger
    from dealer_tui.staff import StaffDesk
    from rules.registry import games

    url = server_url(args)
    path = url or ledger_path(args)
    try:
        ledger = PgLedger(url) if url else SqliteLedger(path, readonly=True)
    except LedgerError as exc:
        return fail(str(exc))
    try:
        writer = PgLedger(url) if url else SqliteLedger(path)  # the sign-ins and decisions, and nothing else
    except LedgerError as exc:
        ledger.close()
        return fail(f"{exc}: the floor signs its users in on the ledger, which must be writable")
    try:
        if not StaffDesk(writer).register().has_accounts():
            return fail(f"{path}: the ledger has no staff accounts yet: the dealer terminal's first start makes the "
                        "first manager, or `dealer-tui staff add` does (for a pit server: `dealer-tui pit init`)")
        FloorApp(ledger, list(games()), StaffDesk(writer)).run()
    finally:
        writer.close()
        ledger.close()
    return 0
