"""Where a round asks for cards, as a refusal names it: the codes a round keys cards under
(`seat 2`, `box 1`, `banker`, `seat 1 palace`) and the purposes of its requests (`deal`,
`exchange`), each a sentence whose English is the code itself (what a dealer keys and the record
keeps) and whose translation names the place in the reader's words."""

from __future__ import annotations

import re
from collections.abc import Callable

from rules.said import Said, as_said, say_in

_NUMBERED = re.compile(r"(seat|box|dead|banner|palace) (\d+)")
NUMBERED: dict[str, Callable[[int], Said]] = {
    "seat": lambda n: say_in("place", "seat {number}", number=n),
    "box": lambda n: say_in("place", "box {number}", number=n),
    "dead": lambda n: say_in("place", "dead {number}", number=n),
    "banner": lambda n: say_in("place", "banner {number}", number=n),
    "palace": lambda n: say_in("place", "palace {number}", number=n),
}
"""A place numbered by its seat, its box or its order."""
PLACES = {"banker": say_in("place", "banker"), "dealer up": say_in("place", "dealer up"),
          "dealer hole": say_in("place", "dealer hole"), "deck": say_in("place", "deck"),
          "palace": say_in("place", "palace"), "draw pile": say_in("place", "draw pile"),
          "front": say_in("place", "front"), "middle": say_in("place", "middle"), "back": say_in("place", "back"),
          "cards": say_in("place", "cards"), "dealer": say_in("place", "dealer")}
"""The other places a round asks cards for."""
PURPOSES = {"deal": say_in("purpose", "deal"), "reveal": say_in("purpose", "reveal"),
            "exchange": say_in("purpose", "exchange"), "first dealer": say_in("purpose", "first dealer"),
            "banners": say_in("purpose", "banners"), "palaces": say_in("purpose", "palaces"),
            "draw pile": say_in("purpose", "draw pile"), "soldier": say_in("purpose", "soldier")}
"""What a request asks cards for."""


def place_said(label: str) -> Said:
    """A place of cards as a refusal names it; a label not known here as it is."""
    found = _NUMBERED.match(label)
    if found is not None:
        said = NUMBERED[found.group(1)](int(found.group(2)))
        rest = label[found.end():].strip()
        return say_in("place", "{place} {part}", place=said, part=place_said(rest)) if rest else said
    return PLACES.get(label) or Said.literal(label)


def purpose_said(text: str) -> Said:
    """A request's purpose at the start of a sentence (`Deal: key the cards first`)."""
    return (PURPOSES.get(text) or as_said(text)).capitalized()  # a purpose said as a sentence: as it is
