"""Pydantic validation errors turned into one plain line a floor manager can act on."""

from __future__ import annotations

import re
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

_PLAIN = {
    "missing": "is required",
    "extra_forbidden": "is not a known field",
    "int_type": "must be a whole number",
    "int_parsing": "must be a whole number",
    "int_from_float": "must be a whole number",
    "bool_type": "must be true or false",
    "bool_parsing": "must be true or false",
    "string_type": "must be text",
    "dict_type": "must be a mapping of names to values",
    "model_type": "must be a mapping of names to values",
    "model_attributes_type": "must be a mapping of names to values",
    "list_type": "must be a list",
    "none_required": "must be empty",
}


_PLAIN_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$")


def field_path(loc: tuple[str | int, ...]) -> str:
    """`('players', 1, 'cards')` -> `players[1].cards`; odd names are quoted."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            name = part if _PLAIN_NAME.fullmatch(part) else repr(part)
            out += f".{name}" if out else name
    return out


def plain_message(err: ErrorDetails) -> str:
    kind = err["type"]
    ctx: dict[str, Any] = dict(err.get("ctx") or {})
    if kind == "greater_than" and ctx.get("gt") == 0:
        return "must be a positive integer"
    if kind == "greater_than":
        return f"must be greater than {ctx.get('gt')}"
    if kind == "greater_than_equal":
        return "must be zero or more" if ctx.get("ge") == 0 else f"must be at least {ctx.get('ge')}"
    if kind == "less_than_equal":
        return f"must be at most {ctx.get('le')}"
    if kind == "less_than":
        return f"must be less than {ctx.get('lt')}"
    if kind == "string_too_long":
        return f"must be at most {ctx.get('max_length')} characters"
    if kind in ("literal_error", "enum"):
        return f"must be one of {ctx.get('expected')}"
    if kind == "value_error":
        return str(err["msg"]).removeprefix("Value error, ")
    return _PLAIN.get(kind, str(err["msg"]))


def meaningful_loc(loc: tuple[str | int, ...]) -> tuple[str | int, ...]:
    """Drop pydantic's union/tag markers (e.g. `int`, `function-after[...]`) from a location."""
    return tuple(p for p in loc if isinstance(p, int) or ("[" not in p and p not in _TYPE_TAGS))


_TYPE_TAGS = {"int", "str", "bool", "float", "none", "list", "dict"}


def first_error(exc: ValidationError) -> tuple[tuple[str | int, ...], str]:
    """The first error's location and its plain message."""
    errors = exc.errors()
    # A misspelt key shows up as "unknown" and as "required": name the misspelling first.
    err = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
    return meaningful_loc(tuple(err["loc"])), plain_message(err)
