"""Where cards are, and what they are keyed for, in the reader's words: the codes a round keys and
records cards under (`seat 2 front`, `box 1`, `banner 4`) shown translated, the record untouched."""

from __future__ import annotations

from dealer_tui.language import use
from dealer_tui.views.card_words import place, purpose


def test_a_place_of_cards_reads_in_english_as_a_dealer_says_it() -> None:
    assert place("seat 2") == "seat 2" and place("box 1") == "box 1"
    assert place("seat 2 front") == "seat 2 front row"
    assert place("banner 4") == "seat 4's banner card"
    assert place("dealer up") == "dealer's up card"
    assert place("somewhere new") == "somewhere new"      # a code not known here: as recorded
    assert purpose("first dealer") == "The draw for the first dealer" and purpose("odd one") == "Odd one"


def test_a_place_of_cards_reads_in_each_language() -> None:
    use("ru")
    assert place("box 3") == "бокс 3" and place("dealer hole") == "закрытые карты дилера"
    use("pl")
    assert place("seat 1 back") == "miejsce 1 tył"
    use("hu")
    assert place("seat 2") == "2. hely" and purpose("deal") == "Az osztás"
