"""`settle` for Chinese Poker (docs/settle.md "chinese-poker"): request -> typed call -> contract output.

Input checks beyond the contract's: seats are whole numbers from 1, two players never share a
seat, and the table holds the profile's 2-4 players. The button is any seat number from 1, a
player's seat or an empty one: losers and winners go clockwise from it (CP-13), which C-5 defines
for any seat (the first seat after it, going up and wrapping). `stack` is the player's chips as
the hand starts, before any house fee; a fee, when the profile sets one, is reported per player
(`fee`) and in `house`, and is part of the player's `net`.

Extra output keys: per player `fee` and `foul` (why the hand fouled); per pair `reason`;
`unpaid`: each player whose due (points x point value) did not move in full under table stakes,
in the order from the button, as `{"seat", "due", "moved", "reason"}`; `house`: the fees.
A declared natural is judged on the player's 13 cards (docs/rules.md revision 2, CP-9).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from rules.cards import Card, parse_card, split_tokens
from rules.errors import BadCards, BadInput, IllegalAction
from rules.games.chinese_poker.payments import dues_of, pay_table_stakes
from rules.games.chinese_poker.profile import GAME_ID, ChinesePokerProfile, Scoring
from rules.games.chinese_poker.rules import JudgedHand, ScoringTerms, SetHand, judge, score_table
from rules.profiles.base import MAX_CHIPS
from rules.profiles.loader import ProfileLibrary
from rules.settle import register_settler
from rules.settle.common import Request, parse_request, profile_of, resolve_profile

_ROW_KEYS = ("front", "middle", "back")


class PlayerIn(Request):
    seat: int = Field(ge=1)
    stack: int = Field(ge=0, le=MAX_CHIPS)
    front: str
    middle: str
    back: str
    natural: bool = False


class ChinesePokerRequest(Request):
    game: Literal["chinese-poker"]
    scoring: Scoring | None = None
    point_value: int | None = Field(None, gt=0, le=MAX_CHIPS)
    button: int = Field(ge=1)
    players: list[PlayerIn]
    profile: str | None = None


def _check_table(req: ChinesePokerRequest, profile: ChinesePokerProfile) -> None:
    count = len(req.players)
    if not profile.min_players <= count <= profile.max_players:
        raise BadInput(
            "players", f"needs {profile.min_players} to {profile.max_players} players, got {count}"
        )
    seen: set[int] = set()
    for i, player in enumerate(req.players):
        if player.seat in seen:
            raise BadInput(f"players[{i}].seat", f"seat {player.seat} has two players")
        seen.add(player.seat)


_TOKENS: dict[str, tuple[Card, int]] = {}
"""Card tokens already parsed, with the card's index (C-1 allows a few hundred spellings)."""


def _row(text: str, field: str, seen: dict[int, str]) -> tuple[Card, ...]:
    """One row's cards (any count: a wrong count is a foul, CP-4); a card seen before is refused."""
    cards: list[Card] = []
    for token in split_tokens(text):
        known = _TOKENS.get(token)
        if known is None:
            try:
                card = parse_card(token)
            except BadCards as exc:
                raise BadInput(field, str(exc)) from None
            known = (card, card.index)
            if len(_TOKENS) < 4096:
                _TOKENS[token] = known
        card, index = known
        where = seen.get(index)
        if where is not None:
            also = "" if where == field else f" (also in {where})"
            raise BadInput(field, f"duplicate card {card.text}{also}")
        seen[index] = field
        cards.append(card)
    return tuple(cards)


def _hands(req: ChinesePokerRequest) -> list[SetHand]:
    """Every player's rows; a card repeated anywhere in the round is named where it repeats."""
    seen: dict[int, str] = {}
    return [
        SetHand(*(_row(getattr(player, key), f"players[{i}].{key}", seen) for key in _ROW_KEYS))
        for i, player in enumerate(req.players)
    ]


def _judge_all(
    req: ChinesePokerRequest, hands: list[SetHand], terms: ScoringTerms
) -> list[JudgedHand]:
    judged = []
    for i, (player, hand) in enumerate(zip(req.players, hands, strict=True)):
        try:
            judged.append(judge(player.seat, hand, terms, declares_natural=player.natural))
        except IllegalAction as exc:
            raise BadInput(f"players[{i}].natural", str(exc)) from None
    return judged


def _rows_out(values: tuple[Any, Any, Any]) -> dict[str, Any]:
    return dict(zip(_ROW_KEYS, values, strict=True))


@register_settler(GAME_ID)
def settle_chinese_poker(request: dict[str, Any], library: ProfileLibrary) -> dict[str, Any]:
    req = parse_request(ChinesePokerRequest, request)
    profile: ChinesePokerProfile = profile_of(
        resolve_profile(request, library, GAME_ID), ChinesePokerProfile
    )
    scoring = req.scoring or profile.scoring
    if scoring not in profile.scorings:
        raise BadInput("scoring", f"{scoring!r} is not defined by the profile")
    _check_table(req, profile)
    terms = ScoringTerms.of(profile, scoring)
    judged = _judge_all(req, _hands(req), terms)
    table = score_table(judged, terms)
    point_value = req.point_value or profile.point_value
    stacks = {p.seat: p.stack for p in req.players}
    money = pay_table_stakes(
        stacks, dues_of(table.points, point_value), req.button, profile.house_fee
    )
    players = [
        {
            "seat": h.seat,
            "fouled": h.fouled,
            "natural": None if h.natural is None else h.natural.value,
            "rows": _rows_out(h.row_names),
            "royalties": _rows_out(h.royalties),
            "points": table.points[h.seat],
            "net": money.nets[h.seat],
            "fee": money.fees[h.seat],
            "foul": h.foul,
        }
        for h in table.hands
    ]
    return {
        "game": GAME_ID,
        "scoring": scoring,
        "point_value": point_value,
        "players": players,
        "pairs": [
            {"seats": list(p.seats), "points": p.points, "reason": p.reason} for p in table.pairs
        ],
        "payments": [
            {"from": p.payer, "to": p.receiver, "amount": p.amount} for p in money.payments
        ],
        "unpaid": [
            {"seat": u.seat, "due": u.due, "moved": u.moved, "reason": u.reason}
            for u in money.unpaid
        ],
        "house": {"fee": money.house_fees},
    }
