"""`dealer-tui floor`: the supervisor's review of the ledger (rounds, stories, totals, export) and
the sign-off queue. It reads the ledger beside the dealer's terminal; only the supervisor's
sign-off decisions (after the PIN) are written."""

from __future__ import annotations

import argparse
from pathlib import Path

from dealer_tui.commands.common import add_ledger_option, fail, ledger_path

NAME = "floor"
HELP = "the floor supervisor's review of the ledger and sign-off queue (may run beside the dealer's terminal)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_ledger_option(parser)
    parser.add_argument("--pin-file", type=Path, default=None,
                        help="the supervisor's PIN hash (default: user config, as `supervisor set-pin` wrote it)")


def run(args: argparse.Namespace) -> int:
    from dealer_tui.floor_app import FloorApp
    from dealer_tui.ledger import Ledger, LedgerError, SqliteLedger
    from dealer_tui.screens.floor_signoff import SignOffDesk
    from dealer_tui.supervisor import PinStore, default_pin_path
    from rules.registry import games

    path = ledger_path(args)
    try:
        ledger = SqliteLedger(path, readonly=True)
    except LedgerError as exc:
        return fail(str(exc))
    writer: list[Ledger] = []

    def writable() -> Ledger:
        """Opened on the first sign-off decision only."""
        if not writer:
            writer.append(SqliteLedger(path))
        return writer[0]

    desk = SignOffDesk(PinStore(args.pin_file or default_pin_path()), writable)
    FloorApp(ledger, list(games()), desk).run()
    for opened in writer:
        opened.close()
    ledger.close()
    return 0
