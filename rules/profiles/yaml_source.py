"""YAML read with node positions, so that a bad value is reported as `file:line: field: problem`.

A profile is plain data: aliases (`*name`) are refused, so no file can make the reader expand
one value into millions or into itself; nesting stops at `MAX_DEPTH` levels and text at
`MAX_TEXT` characters.
"""

from __future__ import annotations

from typing import Any

import yaml

from rules.errors import InvalidProfile
from rules.profiles.base import MAX_TEXT
from rules.profiles.messages import field_path

Path_ = tuple[str | int, ...]

MAX_DEPTH = 16
"""Levels of mappings and lists a profile may nest (the shipped ones use 3)."""
MAX_KEY = 100
"""Characters a key may have."""
_NUMBER_TAGS = frozenset({"tag:yaml.org,2002:int", "tag:yaml.org,2002:float"})


def load_with_lines(text: str, source: str) -> tuple[Any, dict[Path_, int]]:
    """Parse one YAML document; return the data and the 1-based line of every path in it.

    Duplicate keys, aliases, nesting deeper than `MAX_DEPTH`, text longer than `MAX_TEXT`,
    anchors pointing to non-data and multiple documents are refused.
    """
    loader: _Loader | None = None
    try:
        loader = _Loader(text, source)
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 1
        problem = exc.problem or exc.context or "not valid YAML"
        raise InvalidProfile(f"{source}:{line}: {_said(problem)}") from None
    except yaml.reader.ReaderError as exc:
        line = text[: exc.position].count("\n") + 1
        character = f"#x{exc.character:04x}"
        raise InvalidProfile(f"{source}:{line}: unacceptable character {character}") from None
    except yaml.YAMLError as exc:
        first = str(exc).splitlines()[0] if str(exc) else "not valid YAML"
        raise InvalidProfile(f"{source}:1: not valid YAML ({_said(first)})") from None
    finally:
        if loader is not None:
            loader.dispose()
    if node is None:
        raise InvalidProfile(f"{source}:1: the file is empty")
    lines: dict[Path_, int] = {}
    constructor = yaml.SafeLoader("")
    data = _build(node, (), lines, constructor, source)
    return data, lines


class _Loader(yaml.SafeLoader):  # type: ignore[misc]  # PyYAML has no type hints
    """The safe loader, composing no alias and no node deeper than `MAX_DEPTH`.

    PyYAML's composer calls `compose_node(parent, index)` for every node: `index` is the key
    node of a mapping's value, the position of a list's item, None for a key or the document.
    """

    def __init__(self, text: str, source: str) -> None:
        super().__init__(text)
        self.source = source
        self.path: list[str | int] = []
        self.depth = 0

    def compose_node(self, parent: yaml.Node | None, index: Any) -> Any:
        step = _step(index) if parent is not None else None
        if step is not None:
            self.path.append(step)
        self.depth += 1
        try:
            if self.check_event(yaml.AliasEvent):
                event = self.peek_event()
                self._refuse(event, f"alias *{_clipped(str(event.anchor))}: a profile may not use aliases; "
                             "write the value out")
            if self.depth > MAX_DEPTH:
                self._refuse(self.peek_event(), f"nested more than {MAX_DEPTH} levels deep")
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1
            if step is not None:
                self.path.pop()

    def _refuse(self, event: Any, problem: str) -> None:
        where = _clipped(field_path(tuple(self.path)), 120)
        line = event.start_mark.line + 1
        raise InvalidProfile(f"{self.source}:{line}: {where + ': ' if where else ''}{problem}")


def _clipped(text: str, most: int = 40) -> str:
    """A name from the file as a message shows it: at most `most` characters, the rest cut ("…")."""
    return text if len(text) <= most else text[:most - 1] + "…"


def _step(index: Any) -> str | int | None:
    """The path step of a node composed at `index` (None for a key: it adds no step)."""
    if isinstance(index, int):
        return index
    if isinstance(index, yaml.ScalarNode):
        return str(index.value)[:MAX_KEY]
    if isinstance(index, yaml.Node):
        return "?"
    return None


def _build(
    node: yaml.Node,
    path: Path_,
    lines: dict[Path_, int],
    constructor: yaml.SafeLoader,
    source: str,
) -> Any:
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = _scalar(key_node, path, constructor, source)
            at = f"{source}:{key_node.start_mark.line + 1}: "
            if isinstance(key, (list, dict)) or key is None:
                raise InvalidProfile(f"{at}a key must be a name")
            if not isinstance(key, (str, int)):
                raise InvalidProfile(f"{at}{_where(path, key_node)}a key must be a name "
                                     "or a whole number")
            if isinstance(key, str) and len(key) > MAX_KEY:
                raise InvalidProfile(f"{at}{_where(path, key_node)}a key may have at most "
                                     f"{MAX_KEY} characters")
            if key in out:
                raise InvalidProfile(f"{at}{field_path((*path, key))}: key given twice")
            out[key] = _build(value_node, (*path, key), lines, constructor, source)
            lines[(*path, key)] = key_node.start_mark.line + 1
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, (*path, i), lines, constructor, source)
                for i, item in enumerate(node.value)]
    return _scalar(node, path, constructor, source)


SAID = 200
"""The most of a reader's problem a message quotes (a tag or a value a hostile file made huge)."""


def _said(problem: str) -> str:
    """`problem` as a message says it: cut short past `SAID` characters."""
    return problem if len(problem) <= SAID else problem[:SAID] + "…"


def _where(path: Path_, node: yaml.Node | None = None) -> str:
    """`field: ` for messages, the path of the node (and of a key node) when there is one."""
    parts = path if node is None else (*path, str(node.value)[:MAX_KEY])
    where = field_path(parts)
    return f"{where}: " if where else ""


def _scalar(node: yaml.Node, path: Path_, constructor: yaml.SafeLoader, source: str) -> Any:
    line = node.start_mark.line + 1
    if not isinstance(node, yaml.ScalarNode):
        raise InvalidProfile(f"{source}:{line}: a key must be a plain value")
    if len(node.value) > MAX_TEXT:
        too_long = f"text too long (at most {MAX_TEXT} characters)"
        problem = "number too large" if node.tag in _NUMBER_TAGS else too_long
        raise InvalidProfile(f"{source}:{line}: {_where(path)}{problem}")
    try:
        return constructor.construct_object(node, deep=True)
    except yaml.YAMLError as exc:
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise InvalidProfile(f"{source}:{line}: {_where(path)}{_said(problem)}") from None
    except (ValueError, OverflowError) as exc:  # e.g. a date that is no date: 2024-13-45
        problem = "number too large" if node.tag in _NUMBER_TAGS else f"cannot be read ({exc})"
        raise InvalidProfile(f"{source}:{line}: {_where(path)}{_said(problem)}") from None
    except Exception:  # noqa: BLE001 - PyYAML's readers of tagged text assume it fits the tag
        tag = str(node.tag).rsplit(":", 1)[-1]
        raise InvalidProfile(f"{source}:{line}: {_where(path)}{_said(f'cannot be read as {tag}')}") from None
