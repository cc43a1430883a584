"""`dealer-tui supervisor set-pin`: set or change the supervisor's PIN (stored hashed only)."""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path

from dealer_tui.commands.common import fail

NAME = "supervisor"
HELP = "the floor supervisor's PIN (set-pin)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=type(parser))
    pin = sub.add_parser("set-pin", help="set or change the PIN (asked twice, never shown or stored in clear)")
    pin.add_argument("--pin-file", type=Path, default=None, help="where the hash is kept (default: user config)")


def _ask(prompt: str) -> str:
    if sys.stdin.isatty():
        return getpass.getpass(prompt)
    return sys.stdin.readline().rstrip("\n")


def run(args: argparse.Namespace) -> int:
    from dealer_tui.supervisor import PinError, PinStore, default_pin_path

    store = PinStore(args.pin_file or default_pin_path())
    if store.exists() and sys.stdin.isatty():
        current = _ask("Current PIN: ")
        try:
            if not store.check(current):
                return fail("the current PIN is not right; nothing was changed")
        except PinError as exc:
            return fail(str(exc))
    first = _ask("New supervisor PIN (4+ digits): ")
    second = _ask("The same PIN again: ")
    if first != second:
        return fail("the two PINs differ; nothing was changed")
    try:
        store.set(first)
    except PinError as exc:
        return fail(str(exc))
    print(f"ok: the supervisor PIN is set ({store.path})")
    return 0
