"""`dealer-tui settle`: settle finished rounds given as JSON (docs/settle.md)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, Any

from dealer_tui.commands.common import add_profiles_option, fail, library, one_line
from dealer_tui.language import ENGLISH, LANGUAGES, N_, _, language
from rules.said import Said

if TYPE_CHECKING:
    from rules.profiles.loader import ProfileLibrary

NAME = "settle"
HELP = N_("settle a finished round given as JSON (one round, or JSON Lines with --jsonl)")
MAX_ROUND_BYTES = 1024 * 1024
"""The largest round read, alone or as one line of --jsonl (a real round is under 4 KiB)."""
TOO_LARGE = f"too large for one round (more than {MAX_ROUND_BYTES} bytes)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", default="-", metavar="FILE",
                        help=_("input file (default: standard input)"))
    parser.add_argument("--jsonl", action="store_true",
                        help=_("one round per line in, one result per line out"))
    parser.add_argument("--pretty", action="store_true", help=_("indent the JSON output"))
    parser.add_argument("--explain", action="store_true",
                        help=_("add the reason for every result (keys `reason`, `reasons`; off: the contract's keys "
                               "only)"))
    parser.add_argument("--lang", choices=sorted(LANGUAGES), default=ENGLISH, metavar="CODE",
                        help=_("the language of --explain's reasons: en (default), hu, pl or ru; the contract's keys "
                               "and figures are the same in every language"))
    add_profiles_option(parser)


def run(args: argparse.Namespace) -> int:
    from rules.errors import RulesError
    from rules.settle import settle_round

    try:
        stream = _open(args.file)
    except OSError as exc:
        return fail(f"{args.file}: {exc.strerror.lower() if exc.strerror else 'cannot open'}")
    lib = library(args)
    with stream:
        if args.jsonl:
            return _run_lines(stream, lib, args.explain, args.lang)
        raw = stream.read(MAX_ROUND_BYTES + 1)
    if len(raw) > MAX_ROUND_BYTES:
        return fail(f"input: {TOO_LARGE}")
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        return fail(f"{args.file}: not UTF-8 text")
    try:
        result = in_language(settle_round(decode(text), lib, explain=args.explain), args.lang)
    except RulesError as exc:
        return fail(str(exc))
    sys.stdout.write(json.dumps(result, indent=2 if args.pretty else None) + "\n")
    return 0


def _open(file: str) -> IO[bytes] | IO[str]:
    """The input: bytes from a file or standard input (text where standard input has no
    bytes, as under a test's replacement)."""
    if file == "-":
        return getattr(sys.stdin, "buffer", sys.stdin)
    return open(file, "rb")  # closed by the caller's `with`


def in_language(result: Any, code: str) -> Any:
    """A result with its reasons (`rules.said` sentences) in the language `code`; English: as it
    is, byte for byte."""
    if code == ENGLISH:
        return result
    reader = language(code)
    if isinstance(result, Said):
        return reader.said(result)
    if isinstance(result, dict):
        return {key: in_language(value, code) for key, value in result.items()}
    if isinstance(result, list):
        return [in_language(value, code) for value in result]
    return result


def _run_lines(stream: IO[bytes] | IO[str], lib: ProfileLibrary, explain: bool, code: str = ENGLISH) -> int:
    """Every line answered on its own output line, a bad one with `{"line": N, "error": ...}`
    (exit status 1); blank lines are skipped. A line that breaks the settler itself is answered
    too, and the run ends with status 70."""
    from rules.errors import RulesError
    from rules.settle import encode, settle_json, settle_round
    from rules.settle.json_text import decode

    status = 0
    write = sys.stdout.write
    for number, line in enumerate(_lines(stream), start=1):
        try:
            text = _line_text(line)
            if not text.strip():
                continue
            out = (settle_json(decode(text), lib, explain=explain) if code == ENGLISH or not explain
                   else encode(in_language(settle_round(decode(text), lib, explain=True), code)))
        except RulesError as exc:
            out = encode({"line": number, "error": one_line(str(exc))})
            status = max(status, 1)
        except Exception as exc:
            problem = one_line(f"internal error ({type(exc).__name__}: {exc})")
            out = encode({"line": number, "error": problem})
            status = 70
        write(out + "\n")
    return status


def _lines(stream: IO[bytes] | IO[str]) -> Iterator[bytes | str | None]:
    """The stream's lines; None for a line longer than `MAX_ROUND_BYTES`, which is skipped
    without being held in memory."""
    readline = stream.readline
    while True:
        line = readline(MAX_ROUND_BYTES + 1)
        if not line:
            return
        if len(line) <= MAX_ROUND_BYTES or line[-1:] in (b"\n", "\n"):
            yield line
            continue
        while True:
            rest = readline(64 * 1024)
            if not rest or rest[-1:] in (b"\n", "\n"):
                break
        yield None


def _line_text(line: bytes | str | None) -> str:
    from rules.errors import BadInput

    if line is None:
        raise BadInput("input", TOO_LARGE)
    if isinstance(line, str):
        return line
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput("input", f"not UTF-8 text (byte {exc.start + 1} of the line)") from None


def decode(text: str) -> Any:
    """JSON text to data (`rules.settle.json_text.decode`): `BadInput` for NaN, Infinity, a
    number of more than `MAX_DIGITS` digits, a key given twice or nesting too deep."""
    from rules.settle.json_text import decode as decode_json

    return decode_json(text)
