"""YAML read with node positions, so that a bad value is reported as `file:line: field: problem`."""

from __future__ import annotations

from typing import Any

import yaml

from rules.errors import InvalidProfile

Path_ = tuple[str | int, ...]


def load_with_lines(text: str, source: str) -> tuple[Any, dict[Path_, int]]:
    """Parse one YAML document; return the data and the 1-based line of every path in it.

    Duplicate keys, anchors pointing to non-data and multiple documents are refused.
    """
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 1
        problem = exc.problem or exc.context or "not valid YAML"
        raise InvalidProfile(f"{source}:{line}: {problem}") from None
    except yaml.reader.ReaderError as exc:
        line = text[: exc.position].count("\n") + 1
        raise InvalidProfile(f"{source}:{line}: unacceptable character #x{exc.character:04x}") from None
    except yaml.YAMLError as exc:
        first = str(exc).splitlines()[0] if str(exc) else "not valid YAML"
        raise InvalidProfile(f"{source}:1: not valid YAML ({first})") from None
    if node is None:
        raise InvalidProfile(f"{source}:1: the file is empty")
    lines: dict[Path_, int] = {}
    constructor = yaml.SafeLoader("")
    data = _build(node, (), lines, constructor, source)
    return data, lines


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
            key = _scalar(key_node, constructor, source)
            if isinstance(key, (list, dict)) or key is None:
                raise InvalidProfile(f"{source}:{key_node.start_mark.line + 1}: a key must be a name")
            if key in out:
                where = ".".join(str(p) for p in (*path, key))
                raise InvalidProfile(f"{source}:{key_node.start_mark.line + 1}: {where}: key given twice")
            out[key] = _build(value_node, (*path, key), lines, constructor, source)
            lines[(*path, key)] = key_node.start_mark.line + 1
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, (*path, i), lines, constructor, source) for i, item in enumerate(node.value)]
    return _scalar(node, constructor, source)


def _scalar(node: yaml.Node, constructor: yaml.SafeLoader, source: str) -> Any:
    if not isinstance(node, yaml.ScalarNode):
        raise InvalidProfile(f"{source}:{node.start_mark.line + 1}: a key must be a plain value")
    try:
        return constructor.construct_object(node, deep=True)
    except yaml.YAMLError as exc:
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise InvalidProfile(f"{source}:{node.start_mark.line + 1}: {problem}") from None
