"""`dealer-tui settle`: settle finished rounds given as JSON (SETTLE.md)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO, TYPE_CHECKING, Any

from dealer_tui.commands.common import add_profiles_option, fail, library

if TYPE_CHECKING:
    from rules.profiles.loader import ProfileLibrary

NAME = "settle"
HELP = "settle a finished round given as JSON (one round, or JSON Lines with --jsonl)"
MAX_INPUT_BYTES = 64 * 1024 * 1024


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", default="-", metavar="FILE", help="input file (default: standard input)")
    parser.add_argument("--jsonl", action="store_true", help="one round per line in, one result per line out")
    parser.add_argument("--pretty", action="store_true", help="indent the JSON output")
    parser.add_argument("--explain", action="store_true",
                        help="add the reason for every result (keys `reason`, `reasons`; off: the contract's keys only)")
    add_profiles_option(parser)


def run(args: argparse.Namespace) -> int:
    from rules.errors import BadInput, RulesError
    from rules.settle import settle_round

    try:
        stream = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")  # noqa: SIM115
    except OSError as exc:
        return fail(f"{args.file}: {exc.strerror.lower() if exc.strerror else 'cannot open'}")
    lib = library(args)
    try:
        with stream:
            if args.jsonl:
                return _run_lines(stream, lib, args.explain)
            text = stream.read(MAX_INPUT_BYTES + 1)
    except UnicodeDecodeError:
        return fail(f"{args.file}: not UTF-8 text")
    if len(text) > MAX_INPUT_BYTES:
        return fail("input: too large for one round")
    try:
        result = settle_round(decode(text), lib, explain=args.explain)
    except BadInput as exc:
        return fail(str(exc))
    except RulesError as exc:
        return fail(str(exc))
    sys.stdout.write(json.dumps(result, indent=2 if args.pretty else None) + "\n")
    return 0


def _run_lines(stream: IO[str], lib: ProfileLibrary, explain: bool) -> int:
    from rules.errors import RulesError
    from rules.settle import encode, settle_json

    status = 0
    write = sys.stdout.write
    for number, line in enumerate(stream, start=1):
        if not line.strip():
            continue
        try:
            text = settle_json(decode(line), lib, explain=explain)
        except RulesError as exc:
            text = encode({"line": number, "error": str(exc)})
            status = 1
        write(text + "\n")
    return status


def _no_constants(name: str) -> Any:
    from rules.errors import BadInput

    raise BadInput("input", f"not valid JSON: {name} is not a number")


_DECODER = json.JSONDecoder(parse_constant=_no_constants)


def decode(text: str) -> Any:
    """JSON text to data (as `json.loads`); NaN and Infinity are refused."""
    from rules.errors import BadInput

    try:
        if text.startswith("\ufeff"):
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
        return _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        raise BadInput("input", f"not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise BadInput("input", "not valid JSON: nested too deeply") from None
