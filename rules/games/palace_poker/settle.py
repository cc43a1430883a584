"""`settle` for Palace Poker (docs/settle.md "palace-poker"): one battle, or the showdown.

A request holds exactly one of `battle` and `showdown`. Every key shown in docs/settle.md is
required (`soldiers` may be `""`); `profile` is optional and only checked, since neither request
depends on the table's stakes. Seats are 1-10. The showdown's `dealer` is a seat number 1-10 that
need not be among the players: the dealer may have left the hand, and the button still orders
the odd chips (PP-17). Output lists `winners`, `shares` and `players` by seat. Beyond the contract
keys: `game` and `reason`; a battle's `decided_by` and each side's `seat` and `ignored` cards; a
showdown's `share_reasons`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StrictInt, field_validator

from rules.cards import Card, card_texts
from rules.errors import BadInput
from rules.games.palace_poker.battle_result import BattleSide, compare_battle
from rules.games.palace_poker.hand_end import showdown
from rules.games.palace_poker.profile import GAME_ID
from rules.games.palace_poker.rules import (
    MAX_PLAYERS,
    MAX_SOLDIERS,
    PALACE_CARDS,
    PalaceHand,
    suit_word,
)
from rules.profiles.base import MAX_CHIPS
from rules.profiles.loader import ProfileLibrary
from rules.settle import register_settler
from rules.settle.common import Request, cards_field, check_distinct, parse_request, resolve_profile

Seat = Annotated[StrictInt, Field(ge=1, le=MAX_PLAYERS)]


class SideIn(Request):
    seat: Seat
    banner: str
    palace: str
    soldiers: str


class BattleIn(Request):
    attacker: SideIn
    defender: SideIn
    last_two: bool


class ShowdownIn(Request):
    dealer: Seat
    pot: Annotated[StrictInt, Field(ge=0, le=MAX_CHIPS)]
    players: list[SideIn]

    @field_validator("players", mode="before")
    @classmethod
    def _player_count(cls, value: Any) -> Any:
        """Counted before each player is read, so 11 players are named as such."""
        if isinstance(value, list) and not 1 <= len(value) <= MAX_PLAYERS:
            raise ValueError(f"needs 1 to {MAX_PLAYERS} players, got {len(value)}")
        return value


class PalaceRequest(Request):
    game: Literal["palace-poker"]
    profile: str | None = None
    battle: BattleIn | None = None
    showdown: ShowdownIn | None = None


CardFields = list[tuple[str, tuple[Card, ...]]]


def _hand(side: SideIn, field: str, fields: CardFields) -> PalaceHand:
    """One player's cards, counted; their fields are added to `fields` for the duplicate check."""
    banner = cards_field(side.banner, f"{field}.banner")
    palace = cards_field(side.palace, f"{field}.palace")
    soldiers = cards_field(side.soldiers, f"{field}.soldiers")
    if len(banner) != 1:
        raise BadInput(f"{field}.banner", f"must be exactly 1 card, got {len(banner)}")
    if len(palace) != PALACE_CARDS:
        raise BadInput(f"{field}.palace", f"needs {PALACE_CARDS} cards, got {len(palace)}")
    if len(soldiers) > MAX_SOLDIERS:
        raise BadInput(f"{field}.soldiers", f"at most {MAX_SOLDIERS} soldiers, got {len(soldiers)}")
    fields += [(f"{field}.banner", banner), (f"{field}.palace", palace),
               (f"{field}.soldiers", soldiers)]
    return PalaceHand(side.seat, banner[0], palace, soldiers)


def _side_out(side: BattleSide) -> dict[str, Any]:
    return {"seat": side.seat, "hand": side.hand.name, "cards": side.hand.texts,
            "banner_suit_count": side.banner_suit_count, "ignored": card_texts(side.ignored)}


def settle_battle(battle: BattleIn) -> dict[str, Any]:
    """PP-9, PP-10: who wins the battle and with which cards."""
    fields: CardFields = []
    attacker = _hand(battle.attacker, "battle.attacker", fields)
    defender = _hand(battle.defender, "battle.defender", fields)
    check_distinct(fields)
    if defender.seat == attacker.seat:
        raise BadInput("battle.defender.seat", f"same seat as the attacker ({attacker.seat})")
    if defender.banner_suit == attacker.banner_suit:
        raise BadInput("battle.defender.banner", f"same suit as the attacker's banner "
                       f"({suit_word(attacker.banner_suit)}): a same-suit opponent cannot be "
                       "attacked (PP-7)")
    result = compare_battle(attacker, defender, last_two=battle.last_two)
    out: dict[str, Any] = {"game": GAME_ID, "winner": result.winner, "loser": result.loser}
    if result.winner is None:
        out["outcome"] = result.outcome
    out |= {"attacker": _side_out(result.attacker), "defender": _side_out(result.defender),
            "decided_by": result.decided_by, "reason": str(result.reason)}
    return out


def settle_showdown(request: ShowdownIn) -> dict[str, Any]:
    """PP-16, PP-17: the best hands of all own cards share the pot."""
    fields: CardFields = []
    hands = [_hand(side, f"showdown.players[{i}]", fields)
             for i, side in enumerate(request.players)]
    check_distinct(fields)
    seen: set[int] = set()
    for i, hand in enumerate(hands):
        if hand.seat in seen:
            raise BadInput(f"showdown.players[{i}].seat", f"seat {hand.seat} is listed twice")
        seen.add(hand.seat)
    end = showdown(hands, request.pot, request.dealer)
    return {
        "game": GAME_ID,
        "winners": list(end.winners),
        "shares": {str(share.seat): share.amount for share in end.shares},
        "players": [{"seat": sh.seat, "hand": sh.hand.name, "cards": sh.hand.texts}
                    for sh in end.hands],
        "reason": str(end.reason),
        "share_reasons": {str(share.seat): str(share.reason) for share in end.shares},
    }


@register_settler(GAME_ID)
def settle(request: dict[str, Any], library: ProfileLibrary) -> dict[str, Any]:
    given = [key for key in ("battle", "showdown") if key in request]
    if len(given) != 1:
        raise BadInput("round", "give either battle or showdown, not both" if given
                       else "needs battle or showdown")
    parsed = parse_request(PalaceRequest, request)
    resolve_profile(request, library, GAME_ID)
    if parsed.battle is not None:
        return settle_battle(parsed.battle)
    if parsed.showdown is not None:
        return settle_showdown(parsed.showdown)
    raise BadInput(given[0], "must be a mapping of names to values")
