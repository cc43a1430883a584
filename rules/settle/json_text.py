"""A settle request as JSON text to data (docs/settle.md): whatever the text, the data or one
`BadInput` naming the field.

Refused, besides text that is not JSON: NaN and Infinity; a number written with more than
`MAX_DIGITS` digits (no amount has that many, and Python will not read 4300); a key given twice
in one object (JSON readers differ on which value wins); nesting deeper than `MAX_DEPTH`.

The fast reader only notices a long number or a repeated key; the text is then read again,
slowly, to name the field where it is.
"""

from __future__ import annotations

import json
from typing import Any

from rules.errors import BadInput
from rules.profiles.base import MAX_DIGITS
from rules.profiles.messages import field_path

MAX_DEPTH = 16
"""Levels of objects and lists a request may nest (the rounds of docs/settle.md use at most 4)."""
NESTED = f"nested too deeply (more than {MAX_DEPTH} levels)"
TOO_LARGE = "number too large"
GIVEN_TWICE = "key given twice"


class _Refused(Exception):
    """A long number or a repeated key, found by the fast reader."""


def _constant(name: str) -> Any:
    raise BadInput("input", f"not valid JSON: {name} is not a number")


def _int(text: str) -> int:
    if len(text) > MAX_DIGITS and len(text.lstrip("-")) > MAX_DIGITS:
        raise _Refused
    return int(text)


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        raise _Refused
    return obj


_FAST = json.JSONDecoder(parse_constant=_constant, parse_int=_int, object_pairs_hook=_object)


class _TooLarge:
    """Where the slow reader found a number with too many digits."""


_TOO_LARGE = _TooLarge()


class _Repeated(dict[str, Any]):
    """An object with a key given twice (`key`, the first one repeated)."""

    key = ""


def _marked_int(text: str) -> int | _TooLarge:
    return _TOO_LARGE if len(text.lstrip("-")) > MAX_DIGITS else int(text)


def _marked_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) == len(pairs):
        return obj
    repeated = _Repeated(obj)
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            repeated.key = key
            break
        seen.add(key)
    return repeated


_SLOW = json.JSONDecoder(parse_constant=_constant, parse_int=_marked_int,
                         object_pairs_hook=_marked_object)


def decode(text: str) -> Any:
    """JSON text to data, as `json.loads`, or `BadInput` (module docstring)."""
    try:
        data = _read(_FAST, text)
    except _Refused:
        raise _named(_read(_SLOW, text)) from None
    # a line can only nest as deep as it has brackets: most lines are not looked at again
    if text.count("[") + text.count("{") > MAX_DEPTH and _too_deep(data):
        raise BadInput("input", NESTED)
    return data


def _read(decoder: json.JSONDecoder, text: str) -> Any:
    try:
        if text.startswith("\ufeff"):
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
        return decoder.decode(text)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        raise BadInput("input", f"not valid JSON at {where}: {exc.msg}") from None
    except RecursionError:
        raise BadInput("input", NESTED) from None


def _named(data: Any) -> BadInput:
    """The first long number or repeated key in the slow reader's data, by its field."""
    stack: list[tuple[tuple[str | int, ...], Any]] = [((), data)]
    while stack:
        path, value = stack.pop()
        if value is _TOO_LARGE:
            return BadInput(field_path(path) or "input", TOO_LARGE)
        if isinstance(value, _Repeated):
            return BadInput(field_path((*path, value.key)), GIVEN_TWICE)
        if isinstance(value, dict):
            stack.extend(((*path, key), item) for key, item in reversed(value.items()))
        elif isinstance(value, list):
            stack.extend(((*path, i), value[i]) for i in range(len(value) - 1, -1, -1))
    return BadInput("input", TOO_LARGE)  # not reached: the fast reader found one


def _too_deep(data: Any) -> bool:
    stack: list[tuple[Any, int]] = [(data, 1)] if isinstance(data, (dict, list)) else []
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            return True
        items = value.values() if isinstance(value, dict) else value
        stack.extend((item, depth + 1) for item in items if isinstance(item, (dict, list)))
    return False
