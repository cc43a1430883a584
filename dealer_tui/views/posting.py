"""A profile as posted at the table: its title and description, then one table per section
(paytables, limits, rake, caps, sign-off), as `paytables show` prints it and the setup shows it, in
the reader's language (the title and the description are the casino's own words, shown as written)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dealer_tui.language import _, told

if TYPE_CHECKING:
    from rich.console import Group

    from rules.profiles.loader import LoadedProfile


def render(loaded: LoadedProfile) -> Group:
    """The profile's posting as Rich tables, one per section."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    tables = []
    for section in loaded.profile.posting():  # sentences the rules said, in the reader's language
        table = Table(title=told(section.title), show_header=False, title_justify="left", width=72)
        table.add_column("", style="bold", ratio=1)
        table.add_column("", justify="right", ratio=1)
        for label, value in section.rows:
            table.add_row(told(label), told(value))
        tables.append(table)
    named = (loaded.name if loaded.name == loaded.game
             else _("{name}, a {game} profile", name=loaded.name, game=loaded.game))
    header = Text.assemble((loaded.profile.title, "bold"), f"  ({named})\n",
                           loaded.profile.description)
    return Group(header, *tables)
