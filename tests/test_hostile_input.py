"""Hostile input gets one clear line, never a hang or a traceback: `settle` (a number of
thousands of digits, a key given twice, a huge or deep or undecodable line, a profile path that is
a FIFO or a device) and the profiles (aliases, deep nesting, long text, files that are not
regular files), whose library lists the others when one does not load."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dealer_tui.cli import main
from rules.errors import InvalidProfile
from rules.profiles.loader import ProfileLibrary, load_profile_file, parse_profile, shipped_dir

GOOD = {"game": "one-or-five", "dealer": {"cards": "Ah Kd 7c 5s 2h"},
        "boxes": [{"box": 1, "ante": 10, "action": "bet", "exchanged": 1, "insurance": 0,
                   "cards": "Qs Qd 4c 4h 9s"},
                  {"box": 2, "ante": 10, "action": "fold", "cards": "2c 3c 8d 9h Js"}]}
GOOD_LINE = json.dumps(GOOD)
# docs/settle.md's own example: box 1's two pair wins the Bet 2 x 20 = 40, the Ante is returned,
# the exchange fee is one Ante (-10): net 30; box 2 folds its Ante: -10; the house: -20.
GOOD_NETS = {"dealer": -20, "boxes": [30, -10]}
TIMEOUT = 30  # seconds: a refusal takes well under one; a hang would take forever


def run(argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        stdin: bytes | str = b"") -> tuple[int, str, str]:
    """The command in-process; standard input given as bytes, as a terminal or pipe gives it."""
    raw = stdin.encode() if isinstance(stdin, str) else stdin
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))
    try:
        status = main(argv)
    except SystemExit as exc:
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def run_cli(argv: list[str], stdin: str = "",
            cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The installed command in a subprocess that must finish within `TIMEOUT`."""
    env = {**os.environ, "COLUMNS": "250"}
    return subprocess.run(["dealer-tui", *argv], input=stdin, capture_output=True, text=True,
                          timeout=TIMEOUT, check=False, cwd=cwd, env=env)


def nets(result: dict[str, object]) -> dict[str, object]:
    dealer, boxes = result["dealer"], result["boxes"]
    assert isinstance(dealer, dict) and isinstance(boxes, list)
    return {"dealer": dealer["net"], "boxes": [box["net"] for box in boxes]}


def with_ante(text: str) -> str:
    """The good round with box 1's ante written as `text` (JSON)."""
    return GOOD_LINE.replace('"ante": 10', f'"ante": {text}', 1)


# settle: numbers ------------------------------------------------------------------------------


def test_settle_refuses_a_5000_digit_number_naming_the_field(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = run(["settle"], capsys, monkeypatch, with_ante("9" * 5000))
    assert (status, out, err) == (2, "", "error: boxes[0].ante: number too large\n")
    status, out, err = run(["settle"], capsys, monkeypatch, with_ante("-" + "9" * 5000))
    assert (status, out, err) == (2, "", "error: boxes[0].ante: number too large\n")


def test_settle_reads_18_digits_and_refuses_19_as_too_large(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, _, err = run(["settle"], capsys, monkeypatch, with_ante("9" * 18))
    assert (status, err) == (2, "error: boxes[0].ante: must be within the table limits 5–500\n")
    status, _, err = run(["settle"], capsys, monkeypatch, with_ante("1" + "0" * 18))
    assert (status, err) == (2, "error: boxes[0].ante: number too large\n")


@pytest.mark.parametrize(("ante", "error"), [
    ("10.0", "boxes[0].ante: must be a whole number"),
    ("1e1", "boxes[0].ante: must be a whole number"),
    ("1e400", "boxes[0].ante: must be a whole number"),
    ("NaN", "input: not valid JSON: NaN is not a number"),
    ("Infinity", "input: not valid JSON: Infinity is not a number"),
    ("-Infinity", "input: not valid JSON: -Infinity is not a number"),
])
def test_settle_refuses_floats_nan_and_infinity_where_whole_numbers_go(
    ante: str, error: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = run(["settle"], capsys, monkeypatch, with_ante(ante))
    assert (status, out, err) == (2, "", f"error: {error}\n")


def test_settle_refuses_duplicate_keys_naming_the_key(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    other_dealer = '"dealer": {"cards": "2s 3s 4s 5s 6s"}, '
    twice_at_top = GOOD_LINE.replace('"dealer": ', other_dealer + '"dealer": ')
    status, out, err = run(["settle"], capsys, monkeypatch, twice_at_top)
    assert (status, out, err) == (2, "", "error: dealer: key given twice\n")
    twice_in_a_box = GOOD_LINE.replace('"ante": 10,', '"ante": 10, "ante": 500,', 1)
    status, out, err = run(["settle"], capsys, monkeypatch, twice_in_a_box)
    assert (status, out, err) == (2, "", "error: boxes[0].ante: key given twice\n")


def test_settle_refuses_a_round_nested_too_deeply(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for text in ("[" * 100_000, '{"game": "one-or-five", "x": ' + "[" * 40 + "]" * 40 + "}"):
        status, out, err = run(["settle"], capsys, monkeypatch, text)
        assert (status, out) == (2, "")
        assert err == "error: input: nested too deeply (more than 16 levels)\n"


def test_settle_refuses_a_round_over_one_mebibyte(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = run(["settle"], capsys, monkeypatch, " " * (1024 * 1024) + GOOD_LINE)
    assert (status, out) == (2, "")
    assert err == "error: input: too large for one round (more than 1048576 bytes)\n"


def test_settle_error_quoting_a_huge_value_stays_one_short_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = run(["settle"], capsys, monkeypatch, json.dumps({"game": "x\n" * 100_000}))
    assert (status, out) == (2, "")
    assert err.startswith("error: game: unknown game 'x\\nx\\n") and err.count("\n") == 1
    assert len(err) <= 1010 and " … " in err


# settle --jsonl: every line answered ----------------------------------------------------------

HOSTILE_LINES = {
    "5000 digits": (with_ante("9" * 5000).encode(), "boxes[0].ante: number too large"),
    "key twice": (GOOD_LINE.replace('"box": 1,', '"box": 1, "box": 1,').encode(),
                  "boxes[0].box: key given twice"),
    "2 MiB line": (b"[" + b"1, " * (700 * 1024) + b"1]",
                   "input: too large for one round (more than 1048576 bytes)"),
    "deep nesting": (b"[" * 100_000, "input: nested too deeply (more than 16 levels)"),
    "invalid UTF-8": (GOOD_LINE.replace("Ah", "A\xff").encode("latin-1"),
                      f"input: not UTF-8 text (byte {GOOD_LINE.index('Ah') + 2} of the line)"),
    "NUL byte": (b'{"game": "one-or-five",\x00 "boxes": []}',
                 ("input: not valid JSON at line 1, column 24: Expecting property name "
                 "enclosed in double quotes")),
    "NUL in a string": (b'{"game": "one-or-five\x00"}',
                        "input: not valid JSON at line 1, column 22: Invalid control character at"),
    "float ante": (with_ante("10.5").encode(), "boxes[0].ante: must be a whole number"),
    "NaN": (with_ante("NaN").encode(), "input: not valid JSON: NaN is not a number"),
}


@pytest.mark.parametrize("name", HOSTILE_LINES)
def test_settle_jsonl_answers_every_line_after_a_hostile_one(
    name: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    hostile, error = HOSTILE_LINES[name]
    lines = GOOD_LINE.encode() + b"\n" + hostile + b"\n" + GOOD_LINE.encode() + b"\n"
    status, out, err = run(["settle", "--jsonl"], capsys, monkeypatch, lines)
    assert (status, err) == (1, "")
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 3
    assert nets(rows[0]) == GOOD_NETS and nets(rows[2]) == GOOD_NETS
    assert rows[1] == {"line": 2, "error": error}


def test_settle_jsonl_answers_every_hostile_line_in_one_run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = [hostile for hostile, _ in HOSTILE_LINES.values()] + [GOOD_LINE.encode()]
    status, out, err = run(["settle", "--jsonl"], capsys, monkeypatch, b"\n".join(lines))
    assert (status, err) == (1, "")
    rows = [json.loads(line) for line in out.splitlines()]
    expected = [{"line": n, "error": error}
                for n, (_, error) in enumerate(HOSTILE_LINES.values(), start=1)]
    assert rows[:-1] == expected
    assert nets(rows[-1]) == GOOD_NETS


# settle: profile paths that are not regular files ---------------------------------------------


def test_settle_refuses_a_fifo_profile_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    started = time.monotonic()
    done = run_cli(["settle"], json.dumps({**GOOD, "profile": str(fifo)}))
    assert time.monotonic() - started < TIMEOUT
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"error: profile: {fifo}: not a regular file (a FIFO)\n"


@pytest.mark.parametrize(("path", "kind"), [("/dev/zero", "a device"), ("DIR", "a directory")])
def test_settle_refuses_a_device_or_directory_profile_at_once(
    tmp_path: Path, path: str, kind: str
) -> None:
    if path == "DIR":
        path = str(tmp_path / "dir.yaml")
        os.mkdir(path)
    lines = json.dumps({**GOOD, "profile": path}) + "\n" + GOOD_LINE + "\n"
    done = run_cli(["settle", "--jsonl"], lines)
    assert (done.returncode, done.stderr) == (1, "")
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert rows[0] == {"line": 1, "error": f"profile: {path}: not a regular file ({kind})"}
    assert nets(rows[1]) == GOOD_NETS


def test_settle_refuses_a_profile_file_over_256_kib(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    big = tmp_path / "big.yaml"
    big.write_text((shipped_dir() / "one-or-five.yaml").read_text() + "#" * (256 * 1024) + "\n")
    size = big.stat().st_size
    round_text = json.dumps({**GOOD, "profile": str(big)})
    status, out, err = run(["settle"], capsys, monkeypatch, round_text)
    assert (status, out) == (2, "")
    assert err == f"error: profile: {big}: too large for a profile ({size} bytes; at most 262144)\n"


# profiles --------------------------------------------------------------------------------------

PALACE = (shipped_dir() / "palace-poker.yaml").read_text(encoding="utf-8")
LAUGHS = "game: palace-poker\na: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"{b}: &{b} [{', '.join([f'*{a}'] * 9)}]\n" for a, b in zip("abcdefgh", "bcdefghi"))
RECURSIVE = "game: palace-poker\ntitle: Loop\nrows: &rows\n  - 1\n  - *rows\n"


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_profile_billion_laughs_refused_quickly(tmp_path: Path) -> None:
    path = write(tmp_path, "laughs.yaml", LAUGHS)  # 9 ** 9 lols, were it expanded
    started = time.monotonic()
    done = run_cli(["paytables", "check", str(path)])
    assert time.monotonic() - started < TIMEOUT
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (f"error: {path}:3: b[0]: alias *a: a profile may not use aliases; "
                           "write the value out\n")


def test_profile_recursive_alias_refused_with_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, "loop.yaml", RECURSIVE)
    with pytest.raises(InvalidProfile) as caught:
        load_profile_file(path)
    assert str(caught.value) == (f"{path}:5: rows[1]: alias *rows: a profile may not use aliases; "
                                 "write the value out")


def test_profile_deep_nesting_refused(tmp_path: Path) -> None:
    flow = write(tmp_path, "flow.yaml", PALACE + "x: " + "[" * 50_000 + "\n")
    line = PALACE.count("\n") + 1
    with pytest.raises(InvalidProfile) as caught:
        load_profile_file(flow)
    assert str(caught.value) == f"{flow}:{line}: x{'[0]' * 15}: nested more than 16 levels deep"
    block = write(tmp_path, "block.yaml", "game: palace-poker\n"
                  + "".join(f"{'  ' * i}k{i}:\n" for i in range(30)))
    with pytest.raises(InvalidProfile) as caught:
        load_profile_file(block)
    path = ".".join(f"k{i}" for i in range(15))
    assert str(caught.value) == f"{block}:17: {path}: nested more than 16 levels deep"


def test_profile_long_texts_refused_naming_the_field(tmp_path: Path) -> None:
    huge = write(tmp_path, "huge.yaml", PALACE.replace(
        "description: ", "description: " + "x" * (10 * 1024 * 1024)))
    too_large = r"huge\.yaml: too large for a profile \(\d+ bytes; at most 262144\)$"
    with pytest.raises(InvalidProfile, match=too_large):
        load_profile_file(huge)
    line = next(n for n, x in enumerate(PALACE.splitlines(), 1) if x.startswith("description"))
    long_text = PALACE.replace("description: ", "description: " + "x" * 2000)
    long = write(tmp_path, "long.yaml", long_text)
    with pytest.raises(InvalidProfile) as caught:
        load_profile_file(long)
    too_long = "text too long (at most 1000 characters)"
    assert str(caught.value) == f"{long}:{line}: description: {too_long}"
    long_title = PALACE.replace("title: Palace Poker", "title: " + "T" * 101)
    title = write(tmp_path, "title.yaml", long_title)
    with pytest.raises(InvalidProfile) as caught:
        load_profile_file(title)
    assert str(caught.value) == f"{title}:3: title: must be at most 100 characters"
    assert parse_profile(PALACE.replace("title: Palace Poker", "title: " + "T" * 100), "ok", "ok")


def test_profile_5000_digit_number_and_impossible_date_refused_naming_the_field(
    tmp_path: Path,
) -> None:
    line = PALACE.splitlines().index("small_bet: 10") + 1
    for value, problem in (("9" * 5000, "number too large"),
                           ("2024-13-45", "cannot be read (month must be in 1..12)")):
        path = write(tmp_path, "n.yaml", PALACE.replace("small_bet: 10", f"small_bet: {value}"))
        with pytest.raises(InvalidProfile) as caught:
            load_profile_file(path)
        assert str(caught.value) == f"{path}:{line}: small_bet: {problem}"


def test_profile_key_that_is_no_name_refused(tmp_path: Path) -> None:
    for key in ("1.5", "2024-01-01"):
        path = write(tmp_path, "k.yaml", f"game: palace-poker\n{key}: 5\n")
        with pytest.raises(InvalidProfile) as caught:
            load_profile_file(path)
        name = repr(key) if key == "1.5" else key
        assert str(caught.value) == f"{path}:2: {name}: a key must be a name or a whole number"


@pytest.mark.parametrize("kind", ["FIFO", "directory", "device"])
def test_profile_that_is_not_a_regular_file_refused_at_once(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "odd.yaml"
    if kind == "FIFO":
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir()
    else:
        path = Path("/dev/zero")
    done = run_cli(["paytables", "check", str(path)])
    assert (done.returncode, done.stdout) == (2, "")
    name = "a device" if kind == "device" else f"a {kind}"
    assert done.stderr == f"error: {path}: not a regular file ({name})\n"


def hostile_casino_dir(tmp_path: Path) -> Path:
    """A casino's profiles: one good, the others broken or hostile each in its own way."""
    own = tmp_path / "profiles"
    own.mkdir()
    write(own, "house-palace.yaml", PALACE.replace("title: Palace Poker", "title: House Palace"))
    write(own, "laughs.yaml", LAUGHS)
    write(own, "loop.yaml", RECURSIVE.replace("palace-poker", "high-card-flush"))
    write(own, "deep.yaml", "game: palace-poker\nx: " + "[" * 5000 + "\n")
    write(own, "markup.yaml", PALACE.replace("title: Palace Poker", 'title: "[/x] [bold]loud"'))
    write(own, "[b]name.yaml", PALACE)
    os.mkfifo(own / "fifo.yaml")
    (own / "dir.yaml").mkdir()
    return own


def test_broken_casino_profile_does_not_stop_paytables_list(tmp_path: Path) -> None:
    own = hostile_casino_dir(tmp_path)
    done = run_cli(["paytables", "list", "--profiles", str(own)], cwd=tmp_path)
    assert (done.returncode, done.stderr) == (1, "")
    rows = [line for line in done.stdout.splitlines() if line.startswith("│")]
    cells = [[cell.strip() for cell in row.split("│")[1:-1]] for row in rows]
    broken = {cell[3] for cell in cells if cell[2] == "does not load"}
    no_alias = "a profile may not use aliases; write the value out"
    assert broken == {
        f"profiles/deep.yaml:2: x{'[0]' * 15}: nested more than 16 levels deep",
        "profiles/dir.yaml: not a regular file (a directory)",
        "profiles/fifo.yaml: not a regular file (a FIFO)",
        f"profiles/laughs.yaml:3: b[0]: alias *a: {no_alias}",
        f"profiles/loop.yaml:5: rows[1]: alias *rows: {no_alias}",
        ("'profiles/[b]name.yaml': a profile's file name may not hold brackets or control "
        "characters"),
    }
    listed = {cell[0]: cell[2] for cell in cells if cell[2] != "does not load"}
    assert listed == {"house-palace": "House Palace", "markup": "[/x] [bold]loud",
                      "chinese-poker": "Chinese Poker",
                      "high-card-flush": "High Card Flush (card room)",
                      "high-card-flush-casino": "High Card Flush (casino)",
                      "one-or-five": 'Poker "1 or 5"', "palace-poker": "Palace Poker"}


def test_profile_library_skips_and_reports_a_file_that_does_not_load(tmp_path: Path) -> None:
    own = hostile_casino_dir(tmp_path)
    library = ProfileLibrary([own])
    assert library.names("palace-poker") == ["house-palace", "markup", "palace-poker"]
    assert library.names("high-card-flush") == ["high-card-flush-casino", "high-card-flush"]
    problems = sorted(str(p).split(":")[0].split("/")[-1] for p in library.problems())
    assert problems == ["[b]name.yaml'", "deep.yaml", "dir.yaml", "fifo.yaml", "laughs.yaml",
                        "loop.yaml"]
    with pytest.raises(InvalidProfile, match=r"loop\.yaml:5: rows\[1\]: alias \*rows"):
        library.find("loop")
