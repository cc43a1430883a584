"""Options and helpers shared by the subcommands."""

from __future__ import annotations

import argparse
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from dealer_tui.language import ENGLISH, _, current, number, told_error
from dealer_tui.paths import user_profiles_dir
from dealer_tui.printable import UNSEEN, shown_text

if TYPE_CHECKING:
    from dealer_tui.ledger import Ledger
    from dealer_tui.ledger.witness import Witness
    from rules.profiles.loader import ProfileLibrary


def add_profiles_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--profiles",
        metavar="DIR",
        action="append",
        type=Path,
        default=[],
        help=_("a directory of the casino's own profiles, searched first (repeatable; default: {directory})",
               directory=str(user_profiles_dir())),
    )


def library(args: argparse.Namespace) -> ProfileLibrary:
    from rules.profiles.loader import ProfileLibrary

    return ProfileLibrary([*args.profiles, user_profiles_dir()])


INT64 = 2**63 - 1

class EscapingStream:
    """A command's standard output or error: what anyone typed (a table's or a player's name, a
    reason) is printed with its control characters escaped, so that no text moves the cursor,
    clears the screen or hides what follows."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(shown_text(text) if UNSEEN.search(text) else text)
        return len(text)

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)


def whole(low: int = -INT64 - 1, high: int = INT64) -> Callable[[str], int]:
    """An option's type: a whole number from `low` to `high` (by default what a ledger's integer
    holds), refused with one line naming the range otherwise."""
    def parse(text: str) -> int:
        try:
            value = int(text.strip()) if len(text) <= 40 else None
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            shown = text if len(text) <= 24 else text[:21] + "..."
            raise argparse.ArgumentTypeError(_("must be a whole number from {low} to {high}, not {given}",
                                               low=number(low), high=number(high), given=repr(shown)))
        return value
    parse.__name__ = "whole number"
    return parse


def figure(text: str) -> str:
    """A figure written the English way (`1,234.5`, `+0.01234`) as the reader's language writes it
    (`1 234,5`, `+0,01234`)."""
    code = current().code
    if code == ENGLISH:
        return text  # Babel's locale data is read only for a language that needs it
    from babel.numbers import get_decimal_symbol, get_group_symbol

    group, point = get_group_symbol(code), get_decimal_symbol(code)
    return "".join(group if c == "," else point if c == "." else c for c in text)


def fail(message: str, status: int = 2) -> int:
    """One `error:` line on standard error (`one_line`), in the reader's language (`message` is
    given in it); the status to exit with."""
    sys.stderr.write(_("error: {problem}", problem=one_line(message)) + "\n")
    return status


MAX_MESSAGE = 1000
"""Characters of an error message shown: a message quoting hostile input stays readable."""


def one_line(message: str, limit: int = MAX_MESSAGE) -> str:
    """The message as one line: control and other unprintable characters escaped (`\\n`,
    `\\x00`), a message longer than `limit` cut in the middle. Spaces stay spaces, the no-break
    space among them: Hungarian, Polish and Russian group a figure's thousands with it (`31 000`)."""
    if not message.isprintable():
        message = "".join(c if c.isprintable() or unicodedata.category(c) == "Zs"
                          else c.encode("unicode_escape").decode("ascii") for c in message)
    if len(message) > limit:
        head = limit * 2 // 3
        tail = max(limit - head - 3, 0)
        message = f"{message[:head]} … {message[len(message) - tail:]}"
    return message


def add_ledger_option(parser: argparse.ArgumentParser, server: bool = False, help: str | None = None) -> None:
    """`--ledger PATH` (with `server`: or a pit server's postgresql:// URL); `help` instead of the
    usual words (the ledger's default named otherwise)."""
    if help is None:
        help = (_("the ledger file (default: ledger.sqlite in the user data directory); or a pit server's "
                  "postgresql://... URL") if server
                else _("the ledger file (default: ledger.sqlite in the user data directory)"))
    parser.add_argument("--ledger", metavar="PATH" if not server else "PATH|URL", default=None, help=help)


def add_pit_option(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    parser.add_argument("--pit", metavar="URL", default=None,
                        help=_("deliver the ledger's events to this pit server (postgresql://...) while the table "
                               "plays; the table plays on while the server cannot be reached"))


def server_url(args: argparse.Namespace) -> str | None:
    """The pit server `--ledger` names, if it names one rather than a file."""
    from dealer_tui.ledger.postgres import is_server

    return str(args.ledger) if args.ledger is not None and is_server(args.ledger) else None


def add_witness_option(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    from dealer_tui.ledger.witness import default_witness_dir

    parser.add_argument("--witness", metavar="PATH", type=Path, default=None,
                        help=_("the witness file this ledger's heads are written to after every round (default: "
                               "one per ledger in {directory})", directory=str(default_witness_dir())))


def witness_for(args: argparse.Namespace) -> Witness:
    """The witness the ledger's writer keeps: `--witness`, or the ledger's default one."""
    from dealer_tui.ledger.witness import Witness

    return Witness.for_ledger(ledger_path(args), getattr(args, "witness", None))


def ledger_path(args: argparse.Namespace) -> Path:
    from dealer_tui.ledger.sqlite import default_ledger_path

    return Path(args.ledger) if args.ledger is not None else default_ledger_path()


def reading_ledger(args: argparse.Namespace, read: Callable[[Ledger], int]) -> int:
    """`read` over the ledger `--ledger` names (a file, read-only, or a pit server's URL), closed
    after; a ledger that does not open, or fails while read, is one `error:` line."""
    from dealer_tui.ledger import LedgerError, SqliteLedger
    from dealer_tui.ledger.base import NotALedger

    url = server_url(args)
    try:
        if url is not None:
            from dealer_tui.ledger.postgres import PgLedger

            ledger: Ledger = PgLedger(url)
        else:
            ledger = SqliteLedger(ledger_path(args), readonly=True)
    except (NotALedger, LedgerError) as exc:
        return fail(told_error(exc))
    try:
        return read(ledger)
    except LedgerError as exc:
        return fail(told_error(exc))
    finally:
        ledger.close()
