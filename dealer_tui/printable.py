"""Text as it may be shown: anything a person typed (a table's or a player's name, a reason) is
written with the characters a terminal would act on or hide escaped, so that no text moves the
cursor, clears a screen or hides what follows it."""

from __future__ import annotations

import re

UNSEEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")
"""Control characters (but a line's end and a tab), invisible and direction-changing format
characters."""
UNSEEN_IN_A_CELL = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")
"""The same, and a line's end and a tab too: what a cell of a table or a CSV row may not hold."""


def _escaped(match: re.Match[str]) -> str:
    return match.group().encode("unicode_escape").decode("ascii")


def shown_text(text: str) -> str:
    """`text` with each character in `UNSEEN` written as its escape (`\\x1b`)."""
    return UNSEEN.sub(_escaped, text) if UNSEEN.search(text) else text


def shown_cell(text: str) -> str:
    """`text` for one cell: line ends and tabs escaped as well."""
    return UNSEEN_IN_A_CELL.sub(_escaped, text) if UNSEEN_IN_A_CELL.search(text) else text


def csv_cell(value: object) -> object:
    """A value as one CSV cell a spreadsheet shows as text: nothing for None; a text's control
    characters escaped, and one starting with = + - @ not run as a formula (a quote before it)."""
    if value is None:
        return ""
    if not isinstance(value, str):
        return value
    text = shown_cell(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text
