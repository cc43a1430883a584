"""`dealer-tui supervisor`: the shared supervisor PIN is gone; every supervisor signs in with an
account of their own (`dealer-tui staff`). The command stays only to say so."""

from __future__ import annotations

import argparse

from dealer_tui.commands.common import fail
from dealer_tui.language import N_, _

NAME = "supervisor"
HELP = N_("gone: supervisors have accounts of their own now (see `dealer-tui staff`)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", nargs="?", metavar="ACTION", help=_("(set-pin: see `dealer-tui staff set-pin`)"))
    parser.add_argument("--pin-file", help=argparse.SUPPRESS)


def run(args: argparse.Namespace) -> int:
    return fail(_("there is no shared supervisor PIN any more: each supervisor has an account and a PIN of their "
                  "own. A manager adds one with `dealer-tui staff add --id ID --name NAME --role supervisor --by "
                  "MANAGER`; a PIN is changed with `dealer-tui staff set-pin --id ID`"))
