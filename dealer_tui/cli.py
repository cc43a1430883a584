"""`dealer-tui` command line: one parser, subcommands found in `dealer_tui.commands`.

Headless commands never import Textual; bad input ends in one `error: ...` line and exit 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import import_module
from pathlib import Path
from typing import NoReturn, Protocol

from dealer_tui import __version__
from dealer_tui.commands.common import add_pit_option, add_witness_option, whole
from dealer_tui.language import UnknownLanguage, chosen, use_terminal

COMMAND_MODULES = (
    "dealer_tui.commands.settle",
    "dealer_tui.commands.paytables",
    "dealer_tui.commands.history",
    "dealer_tui.commands.demo",
    "dealer_tui.commands.staff",
    "dealer_tui.commands.supervisor",
    "dealer_tui.commands.simulate",
    "dealer_tui.commands.floor",
    "dealer_tui.commands.pit",
    "dealer_tui.commands.shift",
    "dealer_tui.commands.players",
    "dealer_tui.commands.alerts",
)


class Command(Protocol):
    NAME: str
    HELP: str

    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...
    def run(self, args: argparse.Namespace) -> int: ...


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on standard error, exit status 2."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"error: {message} (see `{self.prog} --help`)\n")
        raise SystemExit(2)


def build_parser() -> tuple[Parser, dict[str, Command]]:
    parser = Parser(
        prog="dealer-tui",
        description="Dealer terminal for High Card Flush, Poker \"1 or 5\", Chinese Poker and Palace Poker.",
    )
    parser.add_argument("--version", action="version", version=f"dealer-tui {__version__}")
    parser.add_argument("--lang", metavar="CODE",
                        help="the language shown: en (English), hu (Magyar), pl (Polski) or ru (Русский); "
                             "default: the locale's (LC_ALL, LC_MESSAGES, LANG), else English")
    terminal = parser.add_argument_group("the dealer's terminal (no command)")
    terminal.add_argument("--game", help="the game of a new table (skips that question)")
    terminal.add_argument("--profile", help="the profile of a new table")
    terminal.add_argument("--seats", type=whole(), help="seats at a new table")
    terminal.add_argument("--new-table", action="store_true", help="set up a new table instead of resuming")
    terminal.add_argument("--seed", type=whole(), help="seed the virtual shoe (training; marked as seeded)")
    terminal.add_argument("--cards", choices=("shoe", "entry"),
                          help="a new table's cards: the virtual shoe, or physical cards the dealer keys")
    terminal.add_argument("--ledger", type=Path, help="the ledger file")
    add_pit_option(terminal)
    add_witness_option(terminal)
    terminal.add_argument("--profiles", type=Path, action="append", default=[], metavar="DIR",
                          help="a directory of the casino's own profiles (searched first)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    commands: dict[str, Command] = {}
    for name in COMMAND_MODULES:
        module = import_module(name)
        command: Command = module
        p = sub.add_parser(command.NAME, help=command.HELP, description=command.HELP)
        command.add_arguments(p)
        commands[command.NAME] = command
    return parser, commands


def main(argv: Sequence[str] | None = None) -> int:
    parser, commands = build_parser()
    args = parser.parse_args(argv)
    try:
        use_terminal(chosen(args.lang))
    except UnknownLanguage as exc:
        parser.error(str(exc))
    if args.command is None:
        return terminal(args)
    from dealer_tui.commands.common import EscapingStream

    plain = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = EscapingStream(sys.stdout), EscapingStream(sys.stderr)
    try:
        return commands[args.command].run(args)
    except KeyboardInterrupt:
        sys.stderr.write("error: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:
        storage = ledger_failure(exc)
        if storage is not None:
            sys.stderr.write(f"error: {storage}\n")
            return 2
        sys.stderr.write(f"error: internal error ({type(exc).__name__}: {exc}); nothing was changed\n")
        return 70
    finally:
        sys.stdout, sys.stderr = plain


def ledger_failure(exc: Exception) -> str | None:
    """A ledger refusal or a storage fault a command did not catch, as its one line (a database
    error that escaped is named by its fault: disk full, read-only, I/O error)."""
    import sqlite3

    from dealer_tui.commands.common import one_line
    from dealer_tui.ledger.base import LedgerError

    if isinstance(exc, LedgerError):
        return one_line(str(exc))
    if isinstance(exc, (sqlite3.Error, OSError)):
        from dealer_tui.ledger.storage import problem_of, storage_error

        problem = problem_of(exc)
        if problem is not None:
            doing = "written" if problem in ("disk full", "disk quota exceeded", "read-only") else "read"
            return one_line(str(storage_error(getattr(exc, "filename", None) or "", exc, doing)))
    return None


def terminal(args: argparse.Namespace) -> int:
    """`dealer-tui` alone: the dealer's terminal (Textual is loaded only here)."""
    from dealer_tui.app import Options, make_app
    from dealer_tui.ledger import LedgerError
    from dealer_tui.ledger.postgres import is_server
    from rules.registry import games

    if args.game is not None and args.game not in games():
        sys.stderr.write(f"error: --game: unknown game {args.game!r} (known: {', '.join(games())})\n")
        return 2
    if args.cards == "entry" and args.seed is not None:
        sys.stderr.write("error: --seed seeds the virtual shoe; a table with keyed cards has none\n")
        return 2
    try:
        if args.pit is not None and not is_server(args.pit):
            sys.stderr.write(f"error: --pit: {args.pit!r} is not a postgresql:// URL\n")
            return 2
        from dealer_tui.paths import saved_pit

        app = make_app(args.ledger, profiles=args.profiles, witness=args.witness, pit=args.pit or saved_pit(),
                       options=Options(args.game, args.profile, args.seats, args.seed, args.new_table, args.cards))
    except LedgerError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    try:
        app.run()
    finally:
        app.release()
        app.ledger.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
