"""`settle` for Poker "1 or 5" (docs/settle.md "one-or-five"): request -> typed call -> contract output.

Checked as bad input besides the request's shape: cards (five per hand, distinct across the
dealer and every box), box numbers (1 to the table's box count, each once), the Ante (within
the profile's table limits, as for every bet in docs/settle.md), the exchange count (the profile's
counts) and the insurance premium (R-9). Fields name boxes by list position (`boxes[0]` is
the first box given). Which boxes belong to one player is not part of the request, so R-4 (one
open box per player) is not checked here. Boxes come out in the order they came in, with two
extra keys: `cards` (the hand in C-7 order, also for the dealer) and `reasons` (per bet).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, StrictInt, StrictStr

from rules.cards import Card
from rules.errors import BadInput
from rules.games.one_or_five.profile import GAME_ID, OneOrFiveProfile
from rules.games.one_or_five.rules import Action, BoxPlay, Settlement, box_problem, settle
from rules.profiles.loader import ProfileLibrary
from rules.settle import register_settler
from rules.settle.common import (
    Request,
    cards_field,
    check_distinct,
    parse_request,
    profile_of,
    resolve_profile,
)


class DealerIn(Request):
    cards: StrictStr


class BoxIn(Request):
    box: StrictInt = Field(gt=0)
    ante: StrictInt = Field(gt=0)
    action: Literal["bet", "fold"]
    exchanged: StrictInt = Field(0, ge=0)
    insurance: StrictInt = Field(0, ge=0)
    cards: StrictStr


class RoundIn(Request):
    game: Literal["one-or-five"]
    profile: StrictStr | None = None
    dealer: DealerIn
    boxes: list[BoxIn]


@register_settler(GAME_ID)
def settle_one_or_five(request: dict[str, Any], library: ProfileLibrary) -> dict[str, Any]:
    """Settle one "1 or 5" round given as decoded JSON (docs/settle.md)."""
    data = parse_request(RoundIn, request)
    if not data.boxes:
        raise BadInput("boxes", "needs at least one box")
    profile: OneOrFiveProfile = profile_of(resolve_profile(request, library, GAME_ID),
                                           OneOrFiveProfile)
    dealer_cards = cards_field(data.dealer.cards, "dealer.cards", 5)
    hands: list[tuple[str, tuple[Card, ...]]] = [("dealer.cards", dealer_cards)]
    for i, box in enumerate(data.boxes):
        hands.append((f"boxes[{i}].cards", cards_field(box.cards, f"boxes[{i}].cards", 5)))
    check_distinct(hands)
    plays = []
    seen: set[int] = set()
    for i, (box, (_, cards)) in enumerate(zip(data.boxes, hands[1:], strict=True)):
        if box.box in seen:
            raise BadInput(f"boxes[{i}].box", f"box {box.box} is listed twice")
        seen.add(box.box)
        play = BoxPlay(box.box, box.ante, Action(box.action), cards, box.exchanged, box.insurance)
        problem = box_problem(profile, play)
        if problem:
            raise BadInput(f"boxes[{i}].{problem[0]}", problem[1])
        plays.append(play)
    return _output(settle(profile, dealer_cards, plays))


def _output(result: Settlement) -> dict[str, Any]:
    return {
        "game": GAME_ID,
        "dealer": {"qualified": result.qualified, "hand": result.dealer.name,
                   "net": result.dealer_net, "cards": [c.text for c in result.dealer.cards]},
        "boxes": [
            {"box": box.box, "hand": box.hand.name,
             "bets": {name: bet.result for name, bet in box.bets.items()},
             "net": box.net,
             "cards": [c.text for c in box.hand.cards],
             "reasons": {name: bet.reason for name, bet in box.bets.items()}}
            for box in result.boxes
        ],
    }
