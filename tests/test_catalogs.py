"""The translation catalogs: every message the code marks is in each language's catalog, each
translated, with the same placeholders, and the compiled catalogs the terminal reads are the ones
the translators wrote."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "dealer_tui" / "locale"
LANGUAGES = ("hu", "pl", "ru")
KEYWORDS = {"_": None, "N_": None, "n_": (1, 2), "p_": ((1, "c"), 2), "say_in": ((1, "c"), 2), "say": None}


def marked() -> set[str]:
    """Every message the code marks for translation, as pybabel extracts them (README)."""
    found: set[str] = set()
    for _filename, _line, message, _comments, _context in extract_from_dir(
            str(ROOT), method_map=[("dealer_tui/**.py", "python"), ("rules/**.py", "python")], keywords=KEYWORDS):
        found.add(message[0] if isinstance(message, tuple) else message)  # a plural by its singular
        # (a message in a context, `p_("column", "Bet")`, counts by its text too)
    return found


def catalog(code: str):  # type: ignore[no-untyped-def]
    with (LOCALE / code / "LC_MESSAGES" / "dealer_tui.po").open("rb") as po:
        return read_po(po, locale=code)


def placeholders(text: str) -> list[str]:
    return sorted(re.findall(r"\{(\w*)[^}]*\}", text))


def test_the_template_holds_exactly_the_messages_the_code_marks() -> None:
    with (LOCALE / "dealer_tui.pot").open("rb") as pot:
        template = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(pot) if m.id}
    assert template == marked() - {""}


@pytest.mark.parametrize("code", LANGUAGES)
def test_each_language_translates_every_message_with_the_same_placeholders(code: str) -> None:
    messages = [m for m in catalog(code) if m.id]
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in messages}
    assert ids == marked() - {""}
    for message in messages:
        assert not message.fuzzy, message.id
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        sources = message.id if isinstance(message.id, tuple) else (message.id,)
        assert all(strings), f"{code}: {message.id!r} is not translated"
        for string in strings:
            if len(sources) > 1:  # a plural form may name its count or not ("one round", "{count} rounds")
                assert set(placeholders(string)) - {"count"} == set(placeholders(sources[1])) - {"count"}, \
                    f"{code}: {message.id!r} -> {string!r}"
            else:
                assert placeholders(string) == placeholders(sources[0]), f"{code}: {message.id!r} -> {string!r}"


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_compiled_catalog_the_terminal_reads_says_what_the_translators_wrote(code: str) -> None:
    with (LOCALE / code / "LC_MESSAGES" / "dealer_tui.mo").open("rb") as mo:
        compiled = gettext.GNUTranslations(mo)
    for message in catalog(code):
        if message.id and isinstance(message.id, str):
            read = compiled.pgettext(message.context, message.id) if message.context else compiled.gettext(message.id)
            assert read == message.string, f"{code}: {message.id!r}: run pybabel compile"


@pytest.mark.parametrize("code", LANGUAGES)
def test_each_catalog_passes_the_checks_pybabel_compile_makes(code: str) -> None:
    """What `pybabel compile` refuses (a translation whose %-placeholders differ from its message's)
    is refused here first; a message of the terminal that reads as a %-format by accident (`95% of
    …`: "% o" is a conversion to gettext) would make the catalogs uncompilable for a translator."""
    problems = [(message.id, [str(e) for e in errors]) for message, errors in catalog(code).check()]
    assert problems == []
