"""`dealer-tui paytables`: list, show and check table profiles."""

from __future__ import annotations

import argparse
from pathlib import Path

from typing import TYPE_CHECKING

from dealer_tui.commands.common import add_profiles_option, fail, library

if TYPE_CHECKING:
    from rich.console import Console, Group

    from rules.profiles.loader import LoadedProfile

NAME = "paytables"
HELP = "list, show and check the table profiles (paytables, limits, house options)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=type(parser))
    lst = sub.add_parser("list", help="every profile, by game, with where it comes from")
    lst.add_argument("--game", help="only this game's profiles")
    show = sub.add_parser("show", help="a profile as it is posted at the table")
    show.add_argument("name", metavar="NAME", help="profile name or path to a YAML file")
    check = sub.add_parser("check", help="validate a profile file (exit 2 with file:line: field: problem)")
    check.add_argument("file", metavar="FILE", type=Path)
    for p in (lst, show, check):
        add_profiles_option(p)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from rules.errors import InvalidProfile
    from rules.profiles.loader import load_profile_file

    console = Console()
    try:
        if args.action == "list":
            return _list(args, console)
        if args.action == "show":
            return _show(args, console)
        loaded = load_profile_file(args.file)
    except InvalidProfile as exc:
        return fail(str(exc))
    console.print(f"ok: {loaded.source}: {loaded.game} profile {loaded.name!r} ({loaded.profile.title})")
    return 0


def _list(args: argparse.Namespace, console: Console) -> int:
    from rich.table import Table

    from rules.errors import InvalidProfile
    from rules.profiles.loader import shipped_dir
    from rules.registry import games

    known = games()
    if args.game is not None and args.game not in known:
        return fail(f"--game: unknown game {args.game!r} (known: {', '.join(known)})")
    table = Table(title="Table profiles")
    for column in ("Profile", "Game", "Title", "File"):
        table.add_column(column)
    broken = 0
    shipped = shipped_dir().resolve()
    for entry in library(args).entries():
        if isinstance(entry, InvalidProfile):
            broken += 1
            table.add_row("[red]—[/]", "", "[red]does not load[/]", str(entry))
        elif args.game in (None, entry.game):
            where = "shipped" if Path(entry.source).resolve().parent == shipped else entry.source
            table.add_row(entry.name, entry.game, entry.profile.title, where)
    console.print(table)
    return 1 if broken else 0


def _show(args: argparse.Namespace, console: Console) -> int:
    loaded = library(args).find(args.name)
    console.print(render(loaded))
    return 0


def render(loaded: LoadedProfile) -> Group:
    """The profile's posting as Rich tables, one per section."""
    from rich.console import Group
    from rich.table import Table

    tables = []
    for section in loaded.profile.posting():
        table = Table(title=section.title, show_header=False, title_justify="left", width=72)
        table.add_column("", style="bold", ratio=1)
        table.add_column("", justify="right", ratio=1)
        for label, value in section.rows:
            table.add_row(label, value)
        tables.append(table)
    header = f"[bold]{loaded.profile.title}[/]  ({loaded.name}, {loaded.game})\n{loaded.profile.description}"
    return Group(header, *tables)
