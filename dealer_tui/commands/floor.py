"""`dealer-tui floor`: the supervisor's read-only review of the ledger (rounds, stories, totals)."""

from __future__ import annotations

import argparse

from dealer_tui.commands.common import add_ledger_option, fail, ledger_path

NAME = "floor"
HELP = "the floor supervisor's review of the ledger, read-only (may run beside the dealer's terminal)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_ledger_option(parser)


def run(args: argparse.Namespace) -> int:
    from dealer_tui.floor_app import FloorApp
    from dealer_tui.ledger import LedgerError, SqliteLedger
    from rules.registry import games

    try:
        ledger = SqliteLedger(ledger_path(args), readonly=True)
    except LedgerError as exc:
        return fail(str(exc))
    FloorApp(ledger, list(games())).run()
    return 0
