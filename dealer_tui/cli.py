"""`dealer-tui` command line: one parser, subcommands found in `dealer_tui.commands`.

Headless commands never import Textual; bad input ends in one `error: ...` line and exit 2.
What the command line says to a person (its help, its errors, its lines) is in the terminal's
language (`--lang`, else the locale), which is read before the parser is built so that `--help`
speaks it; what a program reads (JSON, CSV, codes, exit statuses) is the same in every language.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable, Sequence
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import Any, NoReturn, Protocol

from dealer_tui import __version__
from dealer_tui.commands.common import add_pit_option, add_witness_option, whole
from dealer_tui.language import LANGUAGES, N_, UnknownLanguage, _, chosen, told_error, use_terminal

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
TOP_LEVEL_FLAGS = frozenset(("-h", "--help", "--version", "--new-table"))
"""The top level's options that take no value (every other one takes the word after it)."""

ARGPARSE_TITLES = {"positional arguments": N_("positional arguments"), "options": N_("options")}
"""The titles of argparse's own argument groups, in the reader's language."""
ARGPARSE_ERRORS = (
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("ignored explicit argument %r"),
)
"""argparse's own error messages (its English templates, as argparse fills them in), translated
in `Parser.error`: a message none of them matches is shown as it came."""
_PLACEHOLDER = re.compile(r"%\((\w+)\)[sr]|%[sr]")


class Command(Protocol):
    NAME: str
    HELP: str

    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...
    def run(self, args: argparse.Namespace) -> int: ...


class Formatter(argparse.HelpFormatter):
    """argparse's help, its `usage:` in the reader's language."""

    def add_usage(self, usage: str | None, actions: Iterable[argparse.Action],
                  groups: Iterable[argparse._MutuallyExclusiveGroup], prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups, _("usage: ") if prefix is None else prefix)


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on standard error, exit status 2, and whose
    help (its groups' titles, `-h`, `usage:`) and errors are in the reader's language."""

    def __init__(self, *args: Any, add_help: bool = True, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", Formatter)
        kwargs["add_help"] = False  # its own -h, its help in the reader's language
        super().__init__(*args, **kwargs)
        if add_help:
            self.add_argument("-h", "--help", action="help", default=argparse.SUPPRESS,
                              help=_("show this help message and exit"))

    def add_argument_group(self, title: str | None = None, description: str | None = None,
                           **kwargs: Any) -> argparse._ArgumentGroup:
        if title in ARGPARSE_TITLES:
            title = _(ARGPARSE_TITLES[title])
        return super().add_argument_group(title, description, **kwargs)

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(_("error: {problem} (see `{command} --help`)", problem=argparse_said(message),
                           command=self.prog) + "\n")
        raise SystemExit(2)


def argparse_said(message: str) -> str:
    """One of argparse's error messages (`ARGPARSE_ERRORS`, as argparse filled it in) in the
    reader's language; any other message as it is."""
    for template in ARGPARSE_ERRORS:
        found = _pattern(template).fullmatch(message)
        if found is None:
            continue
        values = found.groupdict()
        if "message" in values:
            values["message"] = argparse_said(values["message"])
        positional = iter(name for name in values if name.startswith("_"))

        def put(placeholder: re.Match[str]) -> str:
            name = placeholder.group(1) or next(positional, "")
            return values.get(name, placeholder.group(0))

        return _PLACEHOLDER.sub(put, _(template))
    return message


@cache
def _pattern(template: str) -> re.Pattern[str]:
    """A pattern matching `template` as argparse fills it in, each placeholder a named group
    (`%s`: `_0`, `_1`…)."""
    parts, count, at = [], 0, 0
    for placeholder in _PLACEHOLDER.finditer(template):
        name = placeholder.group(1)
        if name is None:
            name, count = f"_{count}", count + 1
        parts += [re.escape(template[at:placeholder.start()]), f"(?P<{name}>.+?)"]
        at = placeholder.end()
    parts.append(re.escape(template[at:]))
    return re.compile("".join(parts), re.DOTALL)


def asked_language(argv: Sequence[str]) -> str | None:
    """The language the top level's `--lang` asks for, read before the command's name (`settle
    --lang` is settle's own: the language of its reasons) and before the parser is built."""
    asked = None
    tokens = iter(argv)
    for token in tokens:
        if token == "--" or not token.startswith("-"):
            break
        if token == "--lang":
            asked = next(tokens, None)
        elif token.startswith("--lang="):
            asked = token.partition("=")[2]
        elif token not in TOP_LEVEL_FLAGS and "=" not in token:
            next(tokens, None)  # the option's value
    return asked


def unknown_language(asked: str) -> str:
    spoken = ", ".join(f"{code} ({name})" for code, name in LANGUAGES.items())
    return _("--lang {asked}: the terminal speaks {languages}", asked=repr(asked), languages=spoken)


def build_parser() -> tuple[Parser, dict[str, Command]]:
    parser = Parser(
        prog="dealer-tui",
        description=_("Dealer terminal for High Card Flush, Poker \"1 or 5\", Chinese Poker and Palace Poker."),
    )
    parser.add_argument("--version", action="version", version=f"dealer-tui {__version__}",
                        help=_("show program's version number and exit"))
    parser.add_argument("--lang", metavar="CODE",
                        help=_("the language shown: en (English), hu (Magyar), pl (Polski) or ru (Русский); "
                               "default: the locale's (LC_ALL, LC_MESSAGES, LANG), else English"))
    terminal = parser.add_argument_group(_("the dealer's terminal (no command)"))
    terminal.add_argument("--game", help=_("the game of a new table (skips that question)"))
    terminal.add_argument("--profile", help=_("the profile of a new table"))
    terminal.add_argument("--seats", type=whole(), help=_("seats at a new table"))
    terminal.add_argument("--new-table", action="store_true", help=_("set up a new table instead of resuming"))
    terminal.add_argument("--seed", type=whole(), help=_("seed the virtual shoe (training; marked as seeded)"))
    terminal.add_argument("--cards", choices=("shoe", "entry"),
                          help=_("a new table's cards: the virtual shoe, or physical cards the dealer keys"))
    terminal.add_argument("--ledger", type=Path, help=_("the ledger file"))
    add_pit_option(terminal)
    add_witness_option(terminal)
    terminal.add_argument("--profiles", type=Path, action="append", default=[], metavar="DIR",
                          help=_("a directory of the casino's own profiles (searched first)"))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    commands: dict[str, Command] = {}
    for name in COMMAND_MODULES:
        module = import_module(name)
        command: Command = module
        shown = _(command.HELP)
        p = sub.add_parser(command.NAME, help=shown, description=shown)
        command.add_arguments(p)
        commands[command.NAME] = command
    return parser, commands


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        use_terminal(chosen(asked_language(argv)))
    except UnknownLanguage:
        use_terminal(chosen())  # refused once parsed, in the locale's language
    parser, commands = build_parser()
    args = parser.parse_args(argv)
    try:
        use_terminal(chosen(args.lang))
    except UnknownLanguage:
        parser.error(unknown_language(args.lang))
    if args.command is None:
        return terminal(args)
    from dealer_tui.commands.common import EscapingStream

    plain = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = EscapingStream(sys.stdout), EscapingStream(sys.stderr)
    try:
        return commands[args.command].run(args)
    except KeyboardInterrupt:
        _error(_("interrupted"))
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:
        storage = ledger_failure(exc)
        if storage is not None:
            _error(storage)
            return 2
        _error(_("internal error ({kind}: {problem}); nothing was changed", kind=type(exc).__name__,
                 problem=str(exc)))
        return 70
    finally:
        sys.stdout, sys.stderr = plain


def _error(problem: str) -> None:
    """One `error:` line on standard error, as written (`commands.common.fail` makes it one line)."""
    sys.stderr.write(_("error: {problem}", problem=problem) + "\n")


def ledger_failure(exc: Exception) -> str | None:
    """A ledger refusal or a storage fault a command did not catch, as its one line (a database
    error that escaped is named by its fault: disk full, read-only, I/O error)."""
    import sqlite3

    from dealer_tui.commands.common import one_line
    from dealer_tui.ledger.base import LedgerError

    if isinstance(exc, LedgerError):
        return one_line(told_error(exc))
    if isinstance(exc, (sqlite3.Error, OSError)):
        from dealer_tui.ledger.storage import problem_of, storage_error

        problem = problem_of(exc)
        if problem is not None:
            doing = "written" if problem in ("disk full", "disk quota exceeded", "read-only") else "read"
            return one_line(told_error(storage_error(getattr(exc, "filename", None) or "", exc, doing)))
    return None


def terminal(args: argparse.Namespace) -> int:
    """`dealer-tui` alone: the dealer's terminal (Textual is loaded only here)."""
    from dealer_tui.app import Options, make_app
    from dealer_tui.ledger import LedgerError
    from dealer_tui.ledger.postgres import is_server
    from rules.registry import games

    if args.game is not None and args.game not in games():
        _error(_("--game: unknown game {game} (known: {games})", game=repr(args.game), games=", ".join(games())))
        return 2
    if args.cards == "entry" and args.seed is not None:
        _error(_("--seed seeds the virtual shoe; a table with keyed cards has none"))
        return 2
    try:
        if args.pit is not None and not is_server(args.pit):
            _error(_("--pit: {url} is not a postgresql:// URL", url=repr(args.pit)))
            return 2
        from dealer_tui.paths import saved_pit

        app = make_app(args.ledger, profiles=args.profiles, witness=args.witness, pit=args.pit or saved_pit(),
                       options=Options(args.game, args.profile, args.seats, args.seed, args.new_table, args.cards))
    except LedgerError as exc:
        _error(told_error(exc))
        return 2
    try:
        app.run()
    finally:
        app.release()
        app.ledger.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
