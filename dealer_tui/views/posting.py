"""A profile as posted at the table: its title and description, then one table per section
(paytables, limits, rake, caps, sign-off), as `paytables show` prints it and the setup shows it."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Group

    from rules.profiles.loader import LoadedProfile


def render(loaded: LoadedProfile) -> Group:
    """The profile's posting as Rich tables, one per section."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    tables = []
    for section in loaded.profile.posting():
        table = Table(title=section.title, show_header=False, title_justify="left", width=72)
        table.add_column("", style="bold", ratio=1)
        table.add_column("", justify="right", ratio=1)
        for label, value in section.rows:
            table.add_row(label, value)
        tables.append(table)
    named = loaded.name if loaded.name == loaded.game else f"{loaded.name}, a {loaded.game} profile"
    header = Text.assemble((loaded.profile.title, "bold"), f"  ({named})\n",
                           loaded.profile.description)
    return Group(header, *tables)
