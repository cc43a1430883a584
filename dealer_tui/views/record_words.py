"""The codes the record keeps for a round's state, in the reader's words: its status (`open`,
`settled`, `voided`) and its flags (`signed_off`, `capped`, a game's own `dead_hands`). English
readers see the codes themselves, as `history export --flag` takes them; the other languages a
word of their own."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from dealer_tui.language import told
from dealer_tui.ledger.base import status_said
from rules.said import Said, say_in

FLAG_WORDS: dict[str, Said] = {
    "signed_off": say_in("flag", "signed_off"), "override": say_in("flag", "override"),
    "voided": say_in("flag", "voided"), "capped": say_in("flag", "capped"), "recovered": say_in("flag", "recovered"),
    "seeded": say_in("flag", "seeded"), "training": say_in("flag", "training"),
    "late_delivery": say_in("flag", "late_delivery"),
}
"""The flags a round of any game may carry (`ledger.base.FLAGS`); a game's own are its round's
`FLAG_WORDS`."""


def status_word(status: str) -> str:
    """A round's status as the floor reads it."""
    return told(status_said(status))


def flag_word(flag: str, games: Mapping[str, Said] = FLAG_WORDS) -> str:
    """One flag in the reader's words (`games`: every flag's words, `Games.flag_words()`); a flag
    not known here as recorded."""
    return told(games.get(flag) or FLAG_WORDS.get(flag) or Said.literal(flag))


def flags_text(flags: Iterable[str], words: Mapping[str, Said] = FLAG_WORDS, separator: str = ", ") -> str:
    """A round's flags, sorted by code, each in the reader's words."""
    return separator.join(flag_word(f, words) for f in sorted(flags))
