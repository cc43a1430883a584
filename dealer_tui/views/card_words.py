"""Where cards are and what they are keyed for, in the reader's words.

A round names the hands it asks cards for by codes (`seat 2`, `box 1`, `banker`, `dead 1`,
`draw pile`) and its requests by their purpose (`deal`, `exchange`, `first dealer`); the record
keeps those codes (the keyed cards' places, the events' labels). The screens show them here:
the card entry's fields and heading, the round's story on the floor.
"""

from __future__ import annotations

import re

from dealer_tui.language import N_, _, told
from rules.said import Said

NUMBERED = {"seat": N_("seat {number}"), "box": N_("box {number}"), "dead": N_("dead hand {number}"),
            "banner": N_("seat {number}'s banner card"), "palace": N_("seat {number}'s palace")}
"""A place numbered by its seat, its box or its order."""
PLACES = {"banker": N_("banker"), "dealer up": N_("dealer's up card"), "dealer hole": N_("dealer's hole cards"),
          "deck": N_("deck"), "palace": N_("palace"), "draw pile": N_("draw pile"), "front": N_("front row"),
          "middle": N_("middle row"), "back": N_("back row"), "cards": N_("cards"), "drawn": N_("drawn"),
          "discarded": N_("discarded"), "gained": N_("gained"), "dealer": N_("dealer")}
"""The other places a round keys or records cards in."""
_NUMBERED = re.compile(r"(seat|box|dead|banner|palace) (\d+)")


def place(label: str) -> str:
    """A place of cards (`seat 2 front`, `box 1`, `banker`) as the reader says it; a label not
    known here as it is."""
    found = _NUMBERED.match(label)
    if found is not None:
        said = _(NUMBERED[found.group(1)], number=found.group(2))
        rest = label[found.end():].strip()
        return f"{said} {place(rest)}" if rest else said
    return _(PLACES[label]) if label in PLACES else label


PURPOSES = {"deal": N_("The deal"), "reveal": N_("The reveal"), "exchange": N_("The exchange"),
            "first dealer": N_("The draw for the first dealer"), "banners": N_("The banner cards"),
            "palaces": N_("The palaces"), "draw pile": N_("The draw pile"), "soldier": N_("A soldier card")}
"""What a request keys cards for, as the card entry's heading begins."""


def purpose(text: str) -> str:
    """A request's purpose as the heading of its card entry says it; one not known here as it is,
    its first letter a capital."""
    if isinstance(text, Said):  # a purpose the round says as a sentence (`the showdown: …`)
        return told(text.capitalized())
    return _(PURPOSES[text]) if text in PURPOSES else text[:1].upper() + text[1:]
