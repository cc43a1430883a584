"""The command line in the reader's language: `--help` (argparse's own words too), its error lines
and its listings speak the terminal's language (`--lang`, else the locale, else English), which is
known before the parser is built; what a program reads (JSON, codes, exit statuses) is the same in
every language."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from dealer_tui.cli import main
from dealer_tui.language import ENVIRONMENT, language, use_terminal
from tests.staff_support import DEALER, demo, staffed_path

NBSP = "\u00a0"
DESCRIPTION = 'Dealer terminal for High Card Flush, Poker "1 or 5", Chinese Poker and Palace Poker.'


@pytest.fixture(autouse=True)
def _english_locale_and_after(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No locale of the test run's own decides a language; the terminal speaks English after."""
    for name in ENVIRONMENT:
        monkeypatch.delenv(name, raising=False)
    yield
    use_terminal("en")


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        status = main(argv)
    except SystemExit as exc:
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def flat(text: str) -> str:
    """The help's words as one line (argparse wraps them to the terminal's width)."""
    return " ".join(text.split())


def test_help_in_hungarian_has_the_hungarian_usage_line_titles_and_description(
        capsys: pytest.CaptureFixture[str]) -> None:
    hu = language("hu")
    status, out, _ = run(["--lang", "hu", "--help"], capsys)
    assert status == 0
    assert out.startswith("használat: dealer-tui [-h]")
    assert hu.text(DESCRIPTION) != DESCRIPTION and hu.text(DESCRIPTION) in flat(out)
    for title in ("positional arguments", "options"):                  # argparse's own group titles
        assert hu.text(title) != title and f"\n{hu.text(title)}:\n" in out
    assert f"-h, --help {hu.text('show this help message and exit')}" in flat(out)
    assert hu.text("the dealer's terminal (no command)") + ":" in out   # the project's own group
    assert "usage:" not in out and "show this help message" not in out


def test_a_commands_help_follows_the_locale_when_no_lang_is_given(capsys: pytest.CaptureFixture[str],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "hu_HU.UTF-8")
    hu = language("hu")
    status, out, _ = run(["history", "list", "--help"], capsys)
    assert status == 0
    assert out.startswith("használat: dealer-tui history list [-h]")
    assert hu.text("one JSON object per round") in flat(out) and "one JSON object per round" not in out


def test_an_error_line_in_polish(capsys: pytest.CaptureFixture[str]) -> None:
    """argparse's own error (its template translated, the value refused as the language writes
    numbers) and a command's own refusal: each one line, exit status 2."""
    status, out, err = run(["--lang", "pl", "history", "list", "--limit", "x"], capsys)
    assert (status, out) == (2, "")
    assert err == (f"błąd: argument --limit: musi być liczbą całkowitą od 1 do 1{NBSP}000{NBSP}000, a nie 'x' "
                   "(zob. `dealer-tui history list --help`)\n")
    status, out, err = run(["--lang", "pl", "history"], capsys)
    assert err == "błąd: wymagane są następujące argumenty: ACTION (zob. `dealer-tui history --help`)\n"
    status, out, err = run(["--lang", "pl", "demo", "--game", "baccarat", "--dealer", "d", "--supervisor", "s"],
                           capsys)
    assert (status, out) == (2, "")
    assert err.startswith("błąd: --game: nieznana gra 'baccarat' (znane: high-card-flush,") and err.count("\n") == 1


def test_lang_beats_the_locale(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    _, _, by_locale = run(["history", "list", "--limit", "0"], capsys)
    _, _, asked = run(["--lang", "pl", "history", "list", "--limit", "0"], capsys)
    _, _, english = run(["--lang", "en", "history", "list", "--limit", "0"], capsys)
    assert by_locale.startswith("ошибка: ")
    assert asked.startswith("błąd: ")
    assert english == ("error: argument --limit: must be a whole number from 1 to 1,000,000, not '0' "
                       "(see `dealer-tui history list --help`)\n")


def test_settle_lang_is_settles_own_and_not_the_terminals(capsys: pytest.CaptureFixture[str]) -> None:
    """`settle --lang` names the language of its reasons; the terminal's language is the top level's."""
    _, _, err = run(["settle", "--lang", "hu", "--bogus"], capsys)
    assert err.startswith("error: unrecognized arguments: --bogus")


def test_machine_output_is_the_same_in_every_language(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                      staff_pins: None) -> None:
    ledger = str(tmp_path / "l.sqlite")
    assert run(demo("--game", "one-or-five", "--rounds", "3", "--seed", "1", "--ledger", ledger), capsys)[0] == 0
    listed = {code: run(["--lang", code, "history", "list", "--json", "--ledger", ledger], capsys)
              for code in ("en", "ru")}
    assert listed["ru"] == listed["en"] and listed["en"][0] == 0
    assert [json.loads(line)["number"] for line in listed["en"][1].splitlines()] == [3, 2, 1]
    staff = {code: run(["--lang", code, "staff", "list", "--ledger", ledger], capsys) for code in ("en", "ru")}
    assert staff["ru"][0] == staff["en"][0] == 0
    rows = {code: [(line[:12].strip(), line[42:53].strip(), line[54:63].strip()) for line in out.splitlines()[1:]]
            for code, (_, out, _) in staff.items()}                     # the ID, the role, the language: codes
    assert rows["ru"] == rows["en"] and ("dealer", "-") in {(role, lang) for _, role, lang in rows["en"]}
    assert staff["ru"][1].splitlines()[0] != staff["en"][1].splitlines()[0]  # the columns' words are the reader's


def test_a_new_pin_is_asked_for_in_the_readers_language(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A prompt read from standard input that ended is named in the reader's language."""
    import io
    import sys

    ledger = str(staffed_path(tmp_path / "l.sqlite"))
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    status, _, err = run(["--lang", "ru", "staff", "set-pin", "--id", DEALER, "--ledger", ledger], capsys)
    ru = language("ru")
    prompt = ru.text("PIN of {account}: ", account=DEALER).strip().rstrip(":")
    assert status == 2
    assert err == ru.text("error: {problem}", problem=ru.text("{what}: standard input ended before a PIN was read",
                                                                 what=prompt)) + "\n"
    assert prompt != f"PIN of {DEALER}"
