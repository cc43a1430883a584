"""Robustness: mutated profiles, card text and settle input never end in a traceback — either
the input is accepted or one plain error names what and where."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer_tui.commands.settle import _run_lines
from rules.cards import Card, parse_cards
from rules.errors import BadCards, BadInput, InvalidProfile, RulesError
from rules.profiles.loader import LoadedProfile, ProfileLibrary, parse_profile, shipped_dir
from rules.settle import settle_round

PROFILE_NAMES = ["high-card-flush", "high-card-flush-casino", "one-or-five", "chinese-poker", "palace-poker"]
TEXTS = {name: (shipped_dir() / f"{name}.yaml").read_text(encoding="utf-8") for name in PROFILE_NAMES}
WHERE = re.compile(r"^fuzz\.yaml(:\d+)?: \S")

junk = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["-1", "0", "1e400", "99999999999999999999999", "null", "[", "{", "}", ":", "- x",
                     "&a", "*a", "!!binary x", "'", '"', "\t", "~", "yes", "1.5", "[1, 2]", "{a: 1}"]),
)
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _check_profile_text(text: str) -> None:
    try:
        parse_profile(text, "fuzz.yaml", "fuzz")
    except InvalidProfile as exc:
        message = str(exc)
        assert WHERE.match(message), message
        assert "\n" not in message, message


@FUZZ
@given(name=st.sampled_from(PROFILE_NAMES), data=st.data())
def test_fuzz_profile_text_mutations_fail_with_file_line_field(name: str, data: st.DataObject) -> None:
    lines = TEXTS[name].splitlines()
    index = data.draw(st.integers(0, len(lines) - 1))
    action = data.draw(st.sampled_from(["replace_value", "delete", "duplicate", "insert", "truncate"]))
    if action == "replace_value" and ":" in lines[index]:
        key = lines[index].split(":", 1)[0]
        lines[index] = f"{key}: {data.draw(junk)}"
    elif action == "delete":
        del lines[index]
    elif action == "duplicate":
        lines.insert(index, lines[index])
    elif action == "insert":
        lines.insert(index, data.draw(junk))
    else:
        lines = lines[:index]
    _check_profile_text("\n".join(lines) + "\n")


leaf = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**30), 10**30), st.floats(allow_nan=False),
    st.text(max_size=12), st.lists(st.integers(-5, 10), max_size=3),
)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for key, value in node.items():
            out += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += _paths(value, (*prefix, i))
    return out


def _set(node: Any, path: tuple[Any, ...], value: Any) -> None:
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value


@pytest.mark.slow
@FUZZ
@given(name=st.sampled_from(PROFILE_NAMES), data=st.data())
def test_fuzz_profile_wrong_types_missing_and_extra_keys(name: str, data: st.DataObject) -> None:
    tree = yaml.safe_load(TEXTS[name])
    paths = _paths(tree)
    path = data.draw(st.sampled_from(paths))
    action = data.draw(st.sampled_from(["set", "drop", "extra"]))
    if action == "set":
        _set(tree, path, data.draw(leaf))
    elif action == "drop":
        parent = tree
        for part in path[:-1]:
            parent = parent[part]
        del parent[path[-1]]
    else:
        parent = tree
        for part in path[:-1]:
            parent = parent[part]
        if isinstance(parent, dict):
            parent[data.draw(st.text(min_size=1, max_size=8))] = data.draw(leaf)
    _check_profile_text(yaml.safe_dump(tree, allow_unicode=True))


@FUZZ
@given(st.text(max_size=40))
def test_fuzz_card_parser_returns_cards_or_names_the_token(text: str) -> None:
    try:
        cards = parse_cards(text)
    except BadCards as exc:
        assert str(exc).startswith(("bad card ", "duplicate card ", "expected card text"))
    else:
        assert all(isinstance(c, Card) for c in cards)


@FUZZ
@given(st.lists(st.sampled_from(["A", "k", "10", "T", "1", "h", "♠", "x", "s", "D", " ", ",", "9"]), max_size=12))
def test_fuzz_card_parser_on_near_miss_tokens(parts: list[str]) -> None:
    test_fuzz_card_parser_returns_cards_or_names_the_token.hypothesis.inner_test("".join(parts))  # type: ignore[attr-defined]


SETTLE_EXAMPLES: list[dict[str, Any]] = [
    {"game": "high-card-flush", "seats": 7,
     "banker": {"seat": 4, "stack": 1000, "cards": "As Ks 9s 2h 3h 4d 5c"},
     "players": [{"seat": 1, "ante": 10, "raise": 20, "flush": 5, "straight_flush": 5,
                  "cards": "Ah Kh Qh Jh Th 3c 4s"}, {"seat": 2, "ante": 10, "raise": 0}]},
    {"game": "one-or-five", "dealer": {"cards": "Ah Kd 7c 5s 2h"},
     "boxes": [{"box": 1, "ante": 10, "action": "bet", "exchanged": 1, "insurance": 0,
                "cards": "Qs Qd 4c 4h 9s"},
               {"box": 2, "ante": 10, "action": "fold", "cards": "2c 3c 8d 9h Js"}]},
    {"game": "chinese-poker", "scoring": "mandarin", "point_value": 5, "button": 2,
     "players": [{"seat": 1, "stack": 500, "front": "Ah Ad 2s", "middle": "Kh Ks Qc Qs 9h",
                  "back": "Tc Td Ts 3c 3h"},
                 {"seat": 2, "stack": 500, "front": "2c 7c 9c", "middle": "3d 6d 8d Jd Qd",
                  "back": "4h 5h Jh Th 6h", "natural": True},
                 {"seat": 3, "stack": 500, "front": "5c 5d 4c", "middle": "7d 7s 8c 8s 2d",
                  "back": "Ac Kc Kd 9s Js"}]},
    {"game": "palace-poker", "battle": {
        "attacker": {"seat": 1, "banner": "Ah", "palace": "Kd Qd 2c", "soldiers": "Ts 9s"},
        "defender": {"seat": 3, "banner": "5c", "palace": "Jh Js 4d", "soldiers": ""},
        "last_two": False}},
    {"game": "palace-poker", "showdown": {"dealer": 5, "pot": 125, "players": [
        {"seat": 1, "banner": "Ah", "palace": "Kd 7c 2h", "soldiers": ""},
        {"seat": 2, "banner": "As", "palace": "Kc 7d 2s", "soldiers": ""},
        {"seat": 5, "banner": "2d", "palace": "3c 4c 5h", "soldiers": "9h"}]}},
]
LIBRARY = ProfileLibrary()
card_text = st.lists(st.sampled_from(["Ah", "Kd", "2c", "Ts", "9s", "zz", "10h", "As", "Qd"]), max_size=8).map(" ".join)
settle_leaf = st.one_of(leaf, card_text, st.sampled_from(["bet", "fold", "mandarin", "basic", "all", "nope"]))


def _settle_once(request: Any) -> None:
    try:
        result = settle_round(request, LIBRARY)
    except BadInput as exc:
        assert exc.field and "\n" not in str(exc), str(exc)
    except RulesError:
        pass
    else:
        json.dumps(result)  # the output is plain JSON data


@FUZZ
@given(index=st.integers(0, len(SETTLE_EXAMPLES) - 1), data=st.data())
def test_fuzz_settle_input_is_settled_or_one_bad_input(index: int, data: st.DataObject) -> None:
    request = json.loads(json.dumps(SETTLE_EXAMPLES[index]))
    paths = [p for p in _paths(request) if p != ("game",)]
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths))
        try:
            _set(request, path, data.draw(settle_leaf))
        except (TypeError, KeyError, IndexError):
            continue
    _settle_once(request)


@FUZZ
@given(st.recursive(leaf, lambda kids: st.one_of(st.lists(kids, max_size=3),
                                                  st.dictionaries(st.text(max_size=6), kids, max_size=4)),
                    max_leaves=12),
       st.sampled_from(["high-card-flush", "one-or-five", "chinese-poker", "palace-poker", "x", 7]))
def test_fuzz_settle_arbitrary_json_under_each_game(body: Any, game: Any) -> None:
    request = {"game": game, **body} if isinstance(body, dict) else body
    _settle_once(request)


def test_fuzz_settle_examples_themselves_settle() -> None:
    from rules.settle import settlers

    for example in SETTLE_EXAMPLES:
        if example["game"] in settlers():
            assert isinstance(settle_round(example, LIBRARY), dict)


def test_shipped_profile_texts_exist() -> None:
    assert all(Path(shipped_dir() / f"{n}.yaml").is_file() for n in PROFILE_NAMES)


# Hostile text: every line of `settle --jsonl` answered, every profile text loaded or refused ---

JSON_BITS = ['{', '}', '[', ']', ',', ':', ' ', '\n', '"game"', '"one-or-five"',
             '"high-card-flush"', '"palace-poker"', '"boxes"', '"players"', '"ante"', '"profile"',
             '"cards"', '"Ah Kd"',
             "9" * 25, "9" * 5000, "-0", "0.5", "1e999", "NaN", "-Infinity", "null", "true",
             '"\\u0000"', '"\\ud800"', "\x00", "\ufeff", "\u2028", "\xff", '"a"', "[" * 40,
             '"/dev/zero"', '"high-card-flush-casino"']
EXAMPLE_LINES = [json.dumps(example) for example in SETTLE_EXAMPLES]


@st.composite
def hostile_line(draw: st.DrawFn) -> bytes:
    kind = draw(st.sampled_from(["bytes", "bits", "mutated"]))
    if kind == "bytes":
        return draw(st.binary(max_size=120))
    if kind == "bits":
        bits = draw(st.lists(st.sampled_from(JSON_BITS), max_size=25))
        return "".join(bits).encode("utf-8", "surrogatepass")
    line = draw(st.sampled_from(EXAMPLE_LINES))
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(line)))
        line = line[:at] + draw(st.sampled_from(JSON_BITS)) + line[at:]
    return line.encode("utf-8", "surrogatepass")


def _answered(data: bytes) -> list[int]:
    """The numbers of the lines `settle --jsonl` answers: every line but a blank one."""
    pieces = data.split(b"\n")
    if pieces and pieces[-1] == b"":
        pieces.pop()
    numbers = []
    for number, piece in enumerate(pieces, start=1):
        try:
            blank = not piece.decode("utf-8").strip()
        except UnicodeDecodeError:
            blank = False
        if not blank:
            numbers.append(number)
    return numbers


@FUZZ
@given(st.lists(hostile_line(), max_size=6), st.booleans())
def test_fuzz_settle_jsonl_answers_every_line_of_random_text_with_one_line(
    lines: list[bytes], explain: bool
) -> None:
    data = b"\n".join(lines)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = _run_lines(io.BytesIO(data), LIBRARY, explain)
    rows = [json.loads(text) for text in out.getvalue().split("\n")[:-1]]
    numbers = _answered(data)
    assert len(rows) == len(numbers)
    errors = 0
    for number, row in zip(numbers, rows, strict=True):
        assert isinstance(row, dict)
        if "error" in row:
            errors += 1
            assert row.keys() == {"line", "error"} and row["line"] == number
            assert not row["error"].startswith("internal error"), row["error"]
            assert row["error"].isprintable() and len(row["error"]) <= 1000
        else:
            assert row["game"] in PROFILE_NAMES
    assert status == (1 if errors else 0)


YAML_BITS = ["\n", "  ", "- ", ": ", "game: palace-poker", "game: high-card-flush", "&a ", "*a",
             "*b", "<<: *a", "[", "]", "{", "}", ",", "? ", "|", ">", "'", '"', "%YAML 1.1", "---",
             "...",
             "\t", "# x", "~", "1.5: x", "2024-13-45", "2024-01-01: 1", "9" * 5000, "0x" + "f" * 40,
             "!!int x", "!!binary =", "!!python/object:os.system", "!!set", "!!timestamp x",
             "x" * 1200, "\x00", "\ufeff", "\u2028", "é", "yes", "on: 1", "title: [/x]",
             'description: "\\u0000"']


@st.composite
def hostile_profile_text(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        return "".join(draw(st.lists(st.sampled_from(YAML_BITS), max_size=30)))
    text = TEXTS[draw(st.sampled_from(PROFILE_NAMES))]
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(YAML_BITS)) + text[at:]
    return text


@pytest.mark.parametrize("text", ["!!python/object:os.system" + "9" * 5000, "key: !!" + "x" * 5000 + " value",
                                  "[" + "a" * 5000])
def test_a_hostile_tag_or_token_is_quoted_short_in_the_one_line_refusal(text: str) -> None:
    with pytest.raises(InvalidProfile) as refused:
        parse_profile(text, "fuzz.yaml", "fuzz")
    message = str(refused.value)
    assert WHERE.match(message) and "\n" not in message and len(message) < 400, message


@FUZZ
@given(hostile_profile_text())
def test_fuzz_profile_loader_gives_a_profile_or_one_invalid_profile_line(text: str) -> None:
    try:
        loaded = parse_profile(text, "fuzz.yaml", "fuzz")
    except InvalidProfile as exc:
        message = str(exc)
        assert WHERE.match(message), message
        assert "\n" not in message and len(message) < 2000, message
    else:
        assert isinstance(loaded, LoadedProfile)
