"""The reader's language: English, Hungarian, Polish or Russian.

What the terminal shows is written in English in the code and marked for translation: `_("Deal")`
translates at once, `N_("Deal")` marks a text kept as written until it is shown (a key's label,
declared with its class) and `n_(…)` chooses a plural form. The translations are GNU gettext
catalogs, one per language (`dealer_tui/locale/<code>/LC_MESSAGES/dealer_tui.po`, compiled to the
`.mo` the terminal reads), kept with Babel's `pybabel extract/update/compile` (the README says how).
Numbers are written as each language writes them through Babel: chips grouped by the locale
(`1 000 000` in Hungarian, Polish and Russian), a decimal comma where the language has one.

A text's placeholders are named (`{seat}`): a translation may put them in its own order.

The language shown is the terminal's (`use_terminal`: `--lang`, else the locale), or the one the
account signed in reads (`read_by`); the record never holds a sentence in either.
"""

from __future__ import annotations

import errno
import gettext
import os
from collections.abc import Mapping
from copy import copy
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from typing import Any

from rules.errors import RulesError
from rules.said import Figure, Said, said_of

LANGUAGES: dict[str, str] = {"en": "English", "hu": "Magyar", "pl": "Polski", "ru": "Русский"}
"""The languages the terminal speaks, each by its code and its own name for itself."""
ENGLISH = "en"
DOMAIN = "dealer_tui"
LOCALE_DIR = files("dealer_tui") / "locale"
ENVIRONMENT = ("LC_ALL", "LC_MESSAGES", "LANG")
"""Where the language comes from when none is asked for, in the order POSIX reads them."""


class UnknownLanguage(ValueError):
    """A language the terminal does not speak, named where it was asked for."""


def language_of(setting: str) -> str | None:
    """The language a locale setting names (`hu_HU.UTF-8`, `pl`, `ru_RU`), if the terminal speaks
    it; None for `C`, `POSIX` or another language."""
    code = setting.split(".")[0].split("@")[0].split("_")[0].split("-")[0].strip().lower()
    return code if code in LANGUAGES else None


def chosen(asked: str | None = None, environ: Mapping[str, str] = os.environ) -> str:
    """The terminal's language: the one asked for (`--lang`), then the locale's (the first of
    LC_ALL, LC_MESSAGES and LANG that is set), then English. One asked for that the terminal does
    not speak is refused with the ones it does."""
    if asked is not None:
        code = language_of(asked)
        if code is None:
            spoken = ", ".join(f"{c} ({name})" for c, name in LANGUAGES.items())
            raise UnknownLanguage(f"--lang {asked!r}: the terminal speaks {spoken}")
        return code
    for name in ENVIRONMENT:
        value = environ.get(name, "")
        if value:
            return language_of(value) or ENGLISH
    return ENGLISH


class _Kept(dict[str, Any]):
    """A message's parameters; a placeholder none of them names is kept for a later filling."""

    def __missing__(self, name: str) -> str:
        return "{" + name + "}"


@dataclass(frozen=True)
class Language:
    """One reader's language: its catalog and its way of writing numbers."""

    code: str
    catalog: gettext.NullTranslations = field(compare=False, repr=False)

    @property
    def name(self) -> str:
        """The language's own name for itself (`Magyar`)."""
        return LANGUAGES[self.code]

    def text(self, message: str, **params: Any) -> str:
        """`message` in this language, its placeholders filled: those `params` name; any other
        (`{raise_bet}`, a key the screen names later, `views.key`) stays as written. A whole
        number given is written as this language writes it (`{chips:,}` too: `12 000`), a
        sentence given (`rules.said`) is told in this language."""
        said = self.catalog.gettext(message)
        return said.format_map(self._filled(params)) if params else said

    def _filled(self, params: Mapping[str, Any]) -> _Kept:
        if self.code == ENGLISH:
            return _Kept(params)
        return _Kept({k: Figure(v, self.number) if isinstance(v, int) and not isinstance(v, bool)
                      else self.said(v) if isinstance(v, Said) else v for k, v in params.items()})

    def in_context(self, context: str, message: str, **params: Any) -> str:
        """`message` as the word means in `context` (a column's `Bet` is not the BET a box bets)."""
        said = self.catalog.pgettext(context, message)
        return said.format_map(self._filled(params)) if params else said

    def plural(self, singular: str, plural: str, count: int, **params: Any) -> str:
        """The form of `singular`/`plural` this language uses for `count` (Polish and Russian have
        three), its placeholders filled (`{count}` among them)."""
        return self.catalog.ngettext(singular, plural, count).format_map(
            self._filled({"count": self.number(count), **params}))

    def said(self, text: str) -> str:
        """A sentence the rules said (a payout's reason, a refusal: `rules.said`) in this language;
        English and a plain text (an older record's) read as written."""
        if self.code == ENGLISH or not isinstance(text, Said):
            return str(text)
        return text.render(self.catalog.gettext, self.number)

    def number(self, value: int) -> str:
        """A whole number (chips, a count) as this language writes it."""
        if self.code == ENGLISH:
            return f"{value:,}"
        from babel.numbers import (
            format_decimal,  # Babel's locale data: only for a language that needs it
        )

        return str(format_decimal(value, locale=self.code))

    def percent(self, value: float, digits: int = 1) -> str:
        """A share (0.125) as a percentage with `digits` decimals, as this language writes it."""
        if self.code == ENGLISH:
            return f"{value:.{digits}%}"
        from babel import Locale

        written = Locale.parse(self.code).percent_formats[None]  # the language's own pattern ("#,##0 %")
        pattern = copy(written)
        pattern.frac_prec = (digits, digits)
        return str(pattern.apply(value, self.code))


@cache
def language(code: str) -> Language:
    """The language of `code` with its catalog (English: the texts as written)."""
    if code not in LANGUAGES:
        raise UnknownLanguage(f"{code!r} is not a language the terminal speaks ({', '.join(LANGUAGES)})")
    if code == ENGLISH:
        return Language(code, gettext.NullTranslations())
    with (LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.mo").open("rb") as mo:
        return Language(code, gettext.GNUTranslations(mo))


_reading: list[Language] = [language(ENGLISH)]
_terminal: list[str] = [ENGLISH]


def use(code: str) -> Language:
    """Make `code` the language the terminal shows from now on."""
    _reading[0] = language(code)
    return _reading[0]


def use_terminal(code: str) -> Language:
    """The terminal's own language (`chosen`): shown now, and whenever no one signed in reads
    another (`read_by`)."""
    language(code)
    _terminal[0] = code
    return use(code)


def read_by(account_language: str) -> Language:
    """Show the language of the account reading now (its own, or "": the terminal's)."""
    return use(account_language or _terminal[0])


def current() -> Language:
    """The language the terminal shows now."""
    return _reading[0]


def _(message: str, **params: Any) -> str:
    """`message` in the language shown now."""
    return _reading[0].text(message, **params)


def number(value: int) -> str:
    """A whole number (chips, a count) as the language shown now writes it (`1,500`, `1 500`)."""
    return _reading[0].number(value)


def signed(value: int) -> str:
    """A signed amount (a result, a net) as the language shown now writes it: `+1,500`, `-1 500`,
    `+0`."""
    written = _reading[0].number(abs(value))
    return f"-{written}" if value < 0 else f"+{written}"


def told(text: str) -> str:
    """A sentence the rules said (`Said`), or a plain text, in the language shown now."""
    return _reading[0].said(text)


def told_error(exc: BaseException) -> str:
    """What went wrong, in the language shown now: a refusal said as a sentence (`RulesError.said`,
    or any error raised with a `Said`) in the reader's words, any other error as its text."""
    return told(exc.said if isinstance(exc, RulesError) else said_of(exc))


def p_(context: str, message: str, **params: Any) -> str:
    """`message` in the language shown now, as the word means in `context`."""
    return _reading[0].in_context(context, message, **params)


def n_(singular: str, plural: str, count: int, **params: Any) -> str:
    """The plural form for `count` in the language shown now."""
    return _reading[0].plural(singular, plural, count, **params)


def N_(message: str) -> str:
    """Marks `message` for translation where it is declared; it is translated where it is shown."""
    return message


OS_PROBLEMS = {
    errno.ENOENT: N_("No such file or directory"), errno.EACCES: N_("Permission denied"),
    errno.EPERM: N_("Operation not permitted"), errno.ENOSPC: N_("No space left on device"),
    errno.EROFS: N_("Read-only file system"), errno.EISDIR: N_("Is a directory"), errno.ENOTDIR: N_("Not a directory"),
    errno.EEXIST: N_("File exists"), errno.EDQUOT: N_("Disk quota exceeded"), errno.EIO: N_("Input/output error"),
}
"""What the system says of a file it cannot read or write, as its English says it (`strerror`), for
the reader's language."""


def os_problem(exc: OSError) -> str:
    """Why a file could not be read or written, in the language shown now: a sentence the program
    raised (`rules.said`), a system error it knows, else the system's own words."""
    said = exc.strerror
    if isinstance(said, Said):
        return told(said)
    if exc.errno in OS_PROBLEMS:
        return _(OS_PROBLEMS[exc.errno])
    return str(said or exc)

__all__ = [
    "ENGLISH",
    "LANGUAGES",
    "N_",
    "Language",
    "UnknownLanguage",
    "_",
    "chosen",
    "current",
    "language",
    "language_of",
    "n_",
    "number",
    "p_",
    "read_by",
    "signed",
    "told",
    "told_error",
    "use",
    "use_terminal",
]
