"""A sentence the rules say (a payout's reason, a refusal) as a message and its values.

`say("{bet}: {why} — loses {stake}", bet=…, why=…, stake=20)` is a `Said`: it reads as its
English text wherever a text is expected (it is a `str`, so `settle` and every English reader see
the sentence they always saw), and it keeps what the sentence is made of: its message (the
English template, the id the translation catalogs know it by) and its values, numbers as numbers
and parts of the sentence as `Said`s of their own. The record stores that structure
(`to_record`), never the sentence; a reader renders it in their language (`render`), the figures
written as the language writes them.

A value that is a plain `str` (cards, a seat's name) is shown as it is in every language. A
`literal` is a text that was never a message (an older ledger's stored English): it renders as
written.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from string import Formatter
from typing import Any, Self

_FORMATTER = Formatter()
SPECS = re.compile(r"[+\- ]?[,_]?d?")
"""The formats a sentence's numbers take (none, grouped, signed: `{result:+d}`), never a width or a
precision: a stored message asking for any other (`{stake:>999999999}`) is refused before it is
rendered."""
_STORED = '{"said":'



class SaidError(ValueError):
    """A stored sentence that does not read as one: what is wrong is named."""


class Figure:
    """A number in a rendered sentence (or a translated text): as the reader's language writes it (`{chips}`, and
    `{chips:,}`, whose English groups by thousands), unless the message asks for another format
    (`{result:+}`)."""

    __slots__ = ("value", "written")

    def __init__(self, value: int, written: Callable[[int], str]) -> None:
        self.value, self.written = value, written

    def __format__(self, spec: str) -> str:
        if spec in ("", ",", "d", ",d"):
            return self.written(self.value)
        if spec.startswith("+") and spec[1:] in ("", ",", "d", ",d"):
            written = self.written(abs(self.value))
            return f"+{written}" if self.value >= 0 else f"-{written}"
        return format(self.value, spec)


class Said(str):
    """A sentence: its English text (the `str` itself), its message and its values."""

    message: str
    values: Mapping[str, int | str | Said] | None
    capital: bool
    """Whether the sentence begins with a capital letter whatever its message begins with (a
    sentence that stands alone: `a marker …` told as `A marker …`)."""

    context: str
    """What the message means where one English word has two (`bet`: the Raise bet, not the key
    that raises); "" for most."""

    def __new__(cls, message: str, values: Mapping[str, int | str | Said] | None = None,
                capital: bool = False, context: str = "") -> Self:
        text = message if values is None else message.format_map(values)
        said = super().__new__(cls, _capitalized(text) if capital else text)
        said.message, said.values, said.capital = message, (None if values is None else dict(values)), capital
        said.context = context
        return said

    def capitalized(self) -> Said:
        """The sentence standing alone: its first letter a capital, in every language."""
        return Said(self.message, self.values, capital=True, context=self.context)

    @classmethod
    def literal(cls, text: str) -> Said:
        """A text shown as written in every language (an older record's sentence)."""
        return cls(text, None)

    @property
    def is_literal(self) -> bool:
        return self.values is None

    def render(self, translate: Callable[[str], str], number: Callable[[int], str]) -> str:
        """The sentence in a reader's language: `translate` gives a message's translation (itself
        when there is none), `number` writes a number. A translation whose placeholders do not
        fit its message falls back to the English."""
        if self.values is None or not self.message:
            return str(self)
        values: dict[str, Any] = {}
        for name, value in self.values.items():
            if isinstance(value, Said):
                values[name] = value.render(translate, number)
            elif isinstance(value, int) and not isinstance(value, bool):
                values[name] = Figure(value, number)
            else:
                values[name] = value
        key = f"{self.context}\x04{self.message}" if self.context else self.message  # gettext's key in a context
        translated = translate(key)
        try:
            text = (self.message if translated == key else translated).format_map(values)
        except (KeyError, IndexError, ValueError):
            text = self.message.format_map(values)
        return _capitalized(text) if self.capital else text

    def to_record(self) -> str | dict[str, Any]:
        """The stored form: a literal as its text, else `{"said": message, "values": {…}}`."""
        if self.values is None:
            return str(self)
        return {"said": self.message,
                "values": {k: v.to_record() if isinstance(v, Said) else v for k, v in self.values.items()}
                } | ({"capital": True} if self.capital else {}) | ({"context": self.context} if self.context else {})

    @classmethod
    def from_record(cls, stored: object, where: str = "") -> Said:
        """A stored sentence read back (a text: a literal); SaidError names what does not read."""
        if isinstance(stored, str):
            return cls.literal(stored)
        if not isinstance(stored, Mapping) or set(stored) - {"capital", "context"} != {"said", "values"}:
            raise SaidError(f"{where}: expected a text or a sentence, got {stored!r}"[:200])
        message, values = stored["said"], stored["values"]
        if not isinstance(message, str) or not isinstance(values, Mapping):
            raise SaidError(f"{where}: a sentence needs its message and values"[:200])
        read: dict[str, int | str | Said] = {}
        for name, value in values.items():
            if isinstance(value, bool) or not isinstance(value, (int, str, Mapping)):
                raise SaidError(f"{where}: value {name!r} is {value!r}"[:200])
            read[str(name)] = cls.from_record(value, f"{where}.{name}") if isinstance(value, Mapping) else value
        try:
            fields = [(field, spec, conv) for _text, field, spec, conv in _FORMATTER.parse(message) if field is not None]
        except ValueError:
            raise SaidError(f"{where}: the message {message!r} does not read"[:200]) from None
        if any(not SPECS.fullmatch(spec or "") or conv is not None for _field, spec, conv in fields):
            raise SaidError(f"{where}: the message {message!r} asks for a format no sentence uses"[:200])
        wanted = {field for field, _spec, _conv in fields}
        if wanted != set(read):
            raise SaidError(f"{where}: the message {message!r} needs {sorted(wanted)}, the record has {sorted(read)}"[:200])
        try:
            context = stored.get("context", "")
            if not isinstance(context, str) or "\x04" in context or len(context) > 40:
                raise SaidError(f"{where}: a sentence's context is a short text"[:200])
            return cls(message, read, capital=stored.get("capital") is True, context=context)
        except (KeyError, IndexError, ValueError) as exc:
            raise SaidError(f"{where}: the message {message!r} does not read: {exc}"[:200]) from None

    def stored(self) -> str:
        """The sentence as a table column holds it: a literal's text, else its record as JSON."""
        record = self.to_record()
        return record if isinstance(record, str) else json.dumps(record, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_stored(cls, text: str) -> Said:
        """A column's sentence read back (`stored`); a text that is not a stored sentence is a
        literal, as an older row's English reason is."""
        if text.startswith(_STORED):
            try:
                return cls.from_record(json.loads(text))
            except (ValueError, SaidError):
                pass
        return cls.literal(text)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Said, (self.message, self.values, self.capital, self.context))


def say(message: str, /, **values: int | str | Said) -> Said:
    """A sentence: `message` (English, its placeholders named) with its values. The catalogs
    collect every `say("…")` message for translation."""
    return Said(message, values)


def _capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


def say_in(context: str, message: str, /, **values: int | str | Said) -> Said:
    """A sentence whose message means what `context` says where one English word has two
    (`say_in("bet", "Raise")`: the bet, not the key)."""
    return Said(message, values, context=context)


def as_said(text: str) -> Said:
    """A text as a sentence: a `Said` as it is, a plain text as a literal."""
    return text if isinstance(text, Said) else Said.literal(text)


def same_sentence(a: str, b: str) -> bool:
    """Whether two sentences say the same: message and values alike when both are structured,
    else the same English (an older record's literal against the rules' sentence)."""
    if isinstance(a, Said) and isinstance(b, Said) and not a.is_literal and not b.is_literal:
        return a.to_record() == b.to_record()
    return str(a) == str(b)


def stored(text: str) -> str:
    """A sentence as a table column holds it (`Said.stored`); a plain text as it is."""
    return text.stored() if isinstance(text, Said) else text


def joined(parts: list[Said] | tuple[Said, ...], separator: str = "; ") -> Said:
    """Sentences said one after another, each translated on its own."""
    message = separator.join(f"{{part{i}}}" for i in range(len(parts)))
    return Said(message, {f"part{i}": part for i, part in enumerate(parts)})


def said_of(exc: BaseException) -> Said:
    """An error's message as a sentence: the one it was raised with, or its text as a literal."""
    said = exc.args[0] if len(exc.args) == 1 else None
    return said if isinstance(said, Said) else Said.literal(str(exc))


def as_figure(value: object) -> int | str:
    """A recorded figure inside a sentence: a number as a number (the reader's language writes it),
    anything else (a tampered record's `None`, a text) as the text it reads as."""
    return value if isinstance(value, int) and not isinstance(value, bool) else str(value)
