"""The shift report in the reader's language: the PDF drawn in Russian and in Polish holds their
letters as text (DejaVu Sans draws them), the text report in Hungarian groups thousands with a
space and writes its words in Hungarian, the CSV keeps its machine header and plain figures in every
language while its flags are sentences in the reader's, an alert's text is a sentence (told in the
reader's language, stored nowhere as a translation), and the English report reads as it always did."""

from __future__ import annotations

import csv
import io
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from dealer_tui.accounting.alerts import raised
from dealer_tui.accounting.count import record_drop
from dealer_tui.accounting.pdf import pdf_file
from dealer_tui.accounting.report import CSV_COLUMNS, text_lines, write_csv
from dealer_tui.accounting.shifts import ShiftFigures, shift_figures
from dealer_tui.accounting.theoretical import Theory
from dealer_tui.games import GAMES
from dealer_tui.language import ENGLISH, _, language, told, use
from dealer_tui.staff import COUNT_DROP
from rules.said import Said
from tests.accounting_support import OPENER, both, casino_table, folded_round, marker
from tests.staff_support import AUDITOR, AUDITOR_PIN

CYRILLIC = re.compile(r"[А-Яа-яЁё]{3}")
POLISH = re.compile(r"[ąćęłńśźżĄĆĘŁŃŚŹŻ]")
GROUPED = re.compile(r"\b21[\s\u00a0\u202f]000\b")
"""The opener, 21,000, as Hungarian, Polish and Russian write it (a (no-break) space between the thousands)."""
ISO = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d")


@pytest.fixture
def english() -> Iterator[None]:
    """Whatever a test reads the report in, the terminal is back in English after it."""
    yield
    use(ENGLISH)


@pytest.fixture(scope="module")
def shift(tmp_path_factory: pytest.TempPathFactory) -> ShiftFigures:
    """A counted shift with a fill, a credit, a marker, a round and a drop 100 short (two flags)."""
    table, crew = casino_table(tmp_path_factory.mktemp("languages"))
    table.money.open_shift(OPENER, *both(crew, table))
    table.seat_player(1, "Ann", 1000)
    table.seat_player(2, "Bob", 500, "marker", marker=marker(crew, table, "M-1", 500))
    table.money.fill("F-1", {"100": 10}, *both(crew, table))
    folded_round(table, {1: 10, 2: 20})
    table.money.credit("C-1", {"1000": 2}, *both(crew, table))
    table.money.close_shift({"1000": 7, "500": 10, "100": 55, "25": 41, "5": 1}, *both(crew, table))
    record_drop(table.ledger, table.record, cash=900, markers=500, collection=0,
                by=crew.sign_in(AUDITOR, AUDITOR_PIN, COUNT_DROP, table))
    [found] = shift_figures(table.ledger, Theory(GAMES, None, hands=2_000))
    return found


def translated(code: str, message: str) -> bool:
    """Whether the catalog of `code` translates `message` (the catalogs are merged)."""
    return language(code).text(message) != message


def pdf_text(shifts: list[ShiftFigures], target: Path) -> str | None:
    """The PDF's text as `pdftotext` reads it (None: pdftotext is not installed)."""
    pdf_file(shifts, target, "Master game report", "2026-12-01", names={})
    assert target.read_bytes()[:5] == b"%PDF-"
    if shutil.which("pdftotext") is None:
        return None
    return subprocess.run(["pdftotext", "-layout", str(target), "-"], capture_output=True, text=True,
                          check=True).stdout


@pytest.mark.parametrize(("code", "letters"), [("ru", CYRILLIC), ("pl", POLISH)])
def test_the_pdf_in_russian_and_in_polish_holds_their_letters_as_text(
        shift: ShiftFigures, tmp_path: Path, english: None, code: str, letters: re.Pattern[str]) -> None:
    assert translated(code, "No differences."), f"the {code} catalog does not translate the report: merge the catalogs"
    use(code)
    text = pdf_text([shift], tmp_path / f"{code}.pdf")
    if text is None:
        pytest.skip("pdftotext (poppler-utils) is not installed: the pages' text is not read")
    assert letters.search(text), text[:2000]
    for said in (_("Opener"), _("Closer"), _("Flags"), _("Count team"),
                 _("{table} — shift {shift}", table="T1", shift=1)):
        assert said in text, said                                     # the words, in the reader's language
    assert told(shift.flags[0]) in " ".join(text.split())             # a flag as the reader reads it
    assert GROUPED.search(text) and "21,000" not in text              # the figures as the language writes them
    assert ISO.search(text)                                           # the times as the record has them (ISO)


def test_the_text_report_in_hungarian_groups_thousands_with_a_space(shift: ShiftFigures, english: None) -> None:
    use("hu")
    lines = text_lines([shift])
    opener = next(line for line in lines if line.strip().startswith(_("Opener")))
    assert GROUPED.search(opener) and "21,000" not in "\n".join(lines), opener
    assert ISO.search("\n".join(lines))                               # the times as the record has them (ISO)
    assert translated("hu", "dealers over these shifts:"), "the hu catalog does not translate the report"
    assert _("dealers over these shifts:") in lines and "dealers over these shifts:" not in lines
    assert "  " + _("FLAG: {flag}", flag=shift.flags[0]) in lines     # a flag, said in Hungarian


def test_the_csv_names_its_columns_in_the_readers_language_and_keeps_plain_figures(shift: ShiftFigures,
                                                                                   english: None) -> None:
    """English: the machine keys a program reads; another language: the columns' names, one per
    column, none left in English; the figures and the status code alike in every language."""
    headers = {"hu": ("Asztal", "Műszak"), "pl": ("Stół", "Zmiana"), "ru": ("Стол", "Смена")}
    for code in ("en", "hu", "pl", "ru"):
        use(code)
        out = io.StringIO()
        write_csv([shift], out)
        rows = list(csv.reader(io.StringIO(out.getvalue())))
        if code == ENGLISH:
            assert tuple(rows[0]) == CSV_COLUMNS
        else:
            assert len(rows[0]) == len(CSV_COLUMNS) and len(set(rows[0])) == len(CSV_COLUMNS)
            assert (rows[0][0], rows[0][3]) == headers[code], rows[0]
            assert not set(rows[0]) & set(CSV_COLUMNS)
        row = dict(zip(CSV_COLUMNS, rows[1], strict=True))
        assert (row["opener"], row["drop"], row["status"]) == ("21000", "1400", "counted")
        assert row["flags"] == "; ".join(shift.flags)                 # sentences for a person: the reader's language
        if code != ENGLISH and translated(code, "drop short by {chips}"):
            assert "drop short by" not in row["flags"]


def test_an_alert_is_a_sentence_told_in_the_readers_language(tmp_path: Path, english: None) -> None:
    """An alert is worked out from the record when read; its text is a sentence all the same (the
    floor's sign-in to acknowledge it records it in its purpose): its message and values."""
    table, crew = casino_table(tmp_path)
    table.money.open_shift(OPENER, *both(crew, table))
    table.money.close_shift({"1000": 10, "500": 10, "100": 50, "25": 39}, *both(crew, table))   # 25 short
    [alert] = [a for a in raised(table.ledger, Theory(GAMES, None, hands=2_000)) if a.kind == "closer difference"]
    assert isinstance(alert.text, Said) and not alert.text.is_literal
    assert alert.text == "shift 1: the closer is short by 25 against what the tray should hold"
    use("ru")
    assert told(alert.text) == language("ru").said(alert.text)
    if translated("ru", alert.text.message):
        assert CYRILLIC.search(told(alert.text)) and "25" in told(alert.text)


def test_the_english_report_reads_as_it_did(shift: ShiftFigures, english: None) -> None:
    use(ENGLISH)
    lines = text_lines([shift])
    assert lines[0].startswith("T1 · high-card-flush (") and lines[0].endswith(" · shift 1 · counted")
    assert any(re.fullmatch(r"  Opener {29,}21,000 +", line) for line in lines), lines
    assert "  FLAG: drop short by 100" in lines and "  FLAG: win short by 100" in lines
    assert shift.flags[:2] == ["drop short by 100", "win short by 100"]
    assert any(line.startswith("1 shift(s), 1 counted; over the counted: 1 rounds, handle 30, drop 1,400, win -70, "
                               "rounds' result 30; 2 flag(s) in 1 shift(s)") for line in lines), lines
