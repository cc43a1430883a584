"""`settle` for High Card Flush (docs/settle.md "high-card-flush"): request -> typed call -> output.

Bad input, each one `BadInput(field, problem)` and checked before anything is computed: the
request's shape (unknown or missing keys, amounts that are not whole chips), the profile, the
banker (seat and stack for a Designated Player; neither, and no `rake`, under the casino
profile), seats (1 to `seats`, one player each, not the banker's), at most the profile's
number of players, bets within the profile's table limits (as docs/settle.md lists "bet outside
its limits"; a floor re-settling a hand played under other limits names that profile, by
name or path), cards (7 per hand, distinct across every hand, present wherever the result
depends on them) and raises (HCF-6: 1x the Ante up to the cap for the hand's flush).

`seats` is 1 to 7 (HCF: at most 7 hands). `bonus_cap` (per hand) and `round_bonus_cap` (per
round, HCF-14), under either profile: absent, the profile's; `null`, no cap; a positive amount,
that cap. The DP's stack is taken as given (the minimum bank of HCF-18
decides who may take the DP seat, not how a round settles).

Output: players in the order they came in. `banker.qualified` is null when the banker's cards
were not needed and not given; `banker.seat` is null under the casino profile. Extra keys:
each player's `folded` and `reasons` (how each bet was settled), the banker's `reason`, and
the `profile` used.

Without the explanations (`settle --jsonl` without `--explain`) a round goes first to the brief
settler of `high_card_flush_brief`, which writes the same line from plainly valid rounds and
leaves every other round to `settle_high_card_flush`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated, Any, Literal
from weakref import WeakKeyDictionary

from pydantic import Field, StrictInt, StrictStr

from rules.cards import DECK, Card
from rules.errors import BadInput, IllegalAction
from rules.games.high_card_flush.profile import GAME_ID, HighCardFlushProfile
from rules.games.high_card_flush.rules import (
    CARDS_PER_HAND,
    MAX_SEATS,
    flush_length_of,
    verify_raise,
)
from rules.games.high_card_flush.settle_brief import settle_brief
from rules.games.high_card_flush.settlement import (
    BankerHand,
    PlayerHand,
    PlayerResult,
    Settlement,
    Terms,
    settle,
)
from rules.profiles.base import MAX_CHIPS, Range
from rules.profiles.loader import LoadedProfile
from rules.settle import register_brief_settler, register_settler
from rules.settle.common import (
    Request,
    cards_field,
    check_distinct,
    parse_request,
    profile_of,
    resolve_profile,
)

Amount = Annotated[StrictInt, Field(ge=0, le=MAX_CHIPS)]


class BankerIn(Request):
    seat: StrictInt | None = None
    stack: Amount | None = None
    cards: StrictStr | None = None


class PlayerIn(Request):
    seat: StrictInt
    ante: Annotated[StrictInt, Field(gt=0, le=MAX_CHIPS)]
    raise_: Amount = Field(alias="raise")
    flush: Amount = 0
    straight_flush: Amount = 0
    cards: StrictStr | None = None


class RakeIn(Request):
    mode: Literal["all", "players", "dp_only"]
    amount: Amount


class RoundIn(Request):
    game: Literal["high-card-flush"]
    profile: StrictStr | None = None
    seats: Annotated[StrictInt, Field(ge=1, le=MAX_SEATS)] = MAX_SEATS
    banker: BankerIn
    players: list[PlayerIn]
    rake: RakeIn | None = None
    bonus_cap: Annotated[StrictInt, Field(gt=0, le=MAX_CHIPS)] | None = None
    round_bonus_cap: Annotated[StrictInt, Field(gt=0, le=MAX_CHIPS)] | None = None


_PROFILES: WeakKeyDictionary[Any, dict[str | None, LoadedProfile]] = WeakKeyDictionary()


def _profile(data: RoundIn, request: dict[str, Any], library: Any) -> LoadedProfile:
    """The request's profile, loaded once per library and name: a `--jsonl` run settles
    thousands of rounds against the same table, and a profile file is read when first used."""
    try:
        memo = _PROFILES.setdefault(library, {})
    except TypeError:  # a library that cannot be weakly referenced: no memo
        return resolve_profile(request, library, GAME_ID)
    loaded = memo.get(data.profile)
    if loaded is None:
        loaded = memo[data.profile] = resolve_profile(request, library, GAME_ID)
    return loaded


@register_settler(GAME_ID)
def settle_high_card_flush(request: dict[str, Any], library: Any) -> dict[str, Any]:
    """Settle one High Card Flush round given as decoded JSON (docs/settle.md)."""
    data = parse_request(RoundIn, request)
    loaded = _profile(data, request, library)
    profile: HighCardFlushProfile = profile_of(loaded, HighCardFlushProfile)
    house = profile.banker == "house"
    _check_banker(data, house)
    _check_players(data, profile)
    cards = _cards(data)
    _check_needed_cards(data, cards, house)
    _check_raises(data, cards)
    terms = Terms.of(profile)
    if data.rake is not None:
        terms = replace(terms, rake_mode=data.rake.mode, rake_amount=data.rake.amount)
    if "bonus_cap" in data.model_fields_set:
        terms = replace(terms, bonus_cap=data.bonus_cap)
    if "round_bonus_cap" in data.model_fields_set:
        terms = replace(terms, round_bonus_cap=data.round_bonus_cap)
    banker = BankerHand(cards[0], data.banker.seat, data.banker.stack)
    hands = [
        PlayerHand(p.seat, p.ante, p.raise_, p.flush, p.straight_flush, hand_cards)
        for p, hand_cards in zip(data.players, cards[1:], strict=True)
    ]
    return _output(settle(profile, data.seats, banker, hands, terms), loaded.name)


register_brief_settler(GAME_ID)(settle_brief)


def _check_banker(data: RoundIn, house: bool) -> None:
    banker = data.banker
    if house:
        if data.rake is not None or "rake" in data.model_fields_set:
            raise BadInput("rake", "a house-banked table takes no rake (HCF-20)")
        for key in ("seat", "stack"):
            if key in banker.model_fields_set:
                raise BadInput(f"banker.{key}", "the house banks under this profile (HCF-20): give only its cards")
        return
    if banker.seat is None:
        raise BadInput("banker.seat", "is required (the Designated Player's seat)")
    if banker.stack is None:
        raise BadInput("banker.stack", "is required (the Designated Player's money, HCF-15)")
    if not 1 <= banker.seat <= data.seats:
        raise BadInput("banker.seat", f"must be a seat from 1 to {data.seats}")


def _check_players(data: RoundIn, profile: HighCardFlushProfile) -> None:
    if not data.players:
        raise BadInput("players", "needs at least one player")
    if len(data.players) > profile.max_players:
        raise BadInput("players", f"at most {profile.max_players} players at this table")
    taken: dict[int, int] = {}
    limits = profile.limits
    ante, flush, sf = limits.ante, limits.flush, limits.straight_flush
    for i, player in enumerate(data.players):
        if not 1 <= player.seat <= data.seats:
            raise BadInput(f"players[{i}].seat", f"must be a seat from 1 to {data.seats}")
        if player.seat == data.banker.seat:
            raise BadInput(f"players[{i}].seat", f"seat {player.seat} is the banker's")
        if player.seat in taken:
            raise BadInput(f"players[{i}].seat", f"seat {player.seat} is already players[{taken[player.seat]}]'s")
        taken[player.seat] = i
        if not ante.min <= player.ante <= ante.max:
            _outside(ante, player.ante, f"players[{i}].ante")
        if player.flush and not flush.min <= player.flush <= flush.max:
            _outside(flush, player.flush, f"players[{i}].flush")
        if player.straight_flush and not sf.min <= player.straight_flush <= sf.max:
            _outside(sf, player.straight_flush, f"players[{i}].straight_flush")


def _outside(limits: Range, amount: int, field: str) -> None:
    raise BadInput(field, f"{amount} is outside the table's limits {limits.min} to {limits.max}")


_TOKENS: dict[str, Card] = {}
"""Card tokens already read by `parse_card` (the one parser); a `--jsonl` run reads millions."""


def _hand(text: str | None, i: int) -> tuple[Card, ...] | None:
    """The 7 cards of hand `i` (-1: the banker's); anything unusual goes through the common
    checks for their message."""
    if text is None:
        return None
    tokens = _TOKENS
    try:
        hand = tuple([tokens[token] for token in text.split()])
        if len({id(card) for card in hand}) == CARDS_PER_HAND:
            return hand
    except KeyError:
        pass
    hand = cards_field(text, _cards_field(i), CARDS_PER_HAND)
    tokens.update(zip(text.replace(",", " ").split(), hand))
    return hand


def _cards_field(i: int) -> str:
    return "banker.cards" if i < 0 else f"players[{i}].cards"


def _cards(data: RoundIn) -> list[tuple[Card, ...] | None]:
    """Every hand's cards (banker first), parsed, 7 each, distinct across the round."""
    hands = [_hand(data.banker.cards, -1), *(_hand(p.cards, i) for i, p in enumerate(data.players))]
    dealt = [id(card) for hand in hands if hand is not None for card in hand]
    if len(set(dealt)) != len(dealt):  # the parser's cards are DECK's own: equal cards, same id
        check_distinct((_cards_field(i - 1), hand) for i, hand in enumerate(hands) if hand is not None)
    return hands


def _check_needed_cards(data: RoundIn, cards: list[tuple[Card, ...] | None], house: bool) -> None:
    raised = False
    for i, (player, hand) in enumerate(zip(data.players, cards[1:], strict=True)):
        raised = raised or player.raise_ > 0
        if hand is not None:
            continue
        if player.raise_:
            raise BadInput(f"players[{i}].cards", "is required: the hand raised, its result depends on its cards")
        if house and (player.flush or player.straight_flush):
            raise BadInput(f"players[{i}].cards", "is required: its bonus bets pay on its own cards (HCF-20)")
    if raised and cards[0] is None:
        raise BadInput("banker.cards", "is required: a player raised, the result depends on the banker's cards")


def _check_raises(data: RoundIn, cards: list[tuple[Card, ...] | None]) -> None:
    for i, (player, hand) in enumerate(zip(data.players, cards[1:], strict=True)):
        if player.raise_ == player.ante or not player.raise_ or hand is None:
            continue  # folded, or 1x the Ante: legal with any hand
        try:
            verify_raise(player.ante, player.raise_, flush_length_of(hand), player.seat)
        except IllegalAction as exc:
            raise BadInput(f"players[{i}].raise", str(exc)) from None


_TEXTS = {id(card): card.text for card in DECK}


def _texts(cards: tuple[Card, ...] | None) -> list[str]:
    """Card texts; the deck's own cards (all the parser returns) by a quick lookup."""
    if not cards:
        return []
    texts = _TEXTS
    return [texts.get(id(c)) or c.text for c in cards]


def _player(result: PlayerResult) -> dict[str, Any]:
    reading = result.reading
    ante, raised, flush, sf = result.ante, result.raise_bet, result.flush, result.straight_flush
    return {
        "seat": result.seat,
        "dead": result.dead,
        "flush": _texts(reading.flush) if reading else [],
        "straight_flush": _texts(reading.straight_flush) if reading else [],
        "bets": {"ante": ante.result, "raise": raised.result, "flush": flush.result, "straight_flush": sf.result},
        "rake": result.rake,
        "net": ante.result + raised.result + flush.result + sf.result - result.rake,
        "folded": result.folded,
        "reasons": {"ante": ante.reason, "raise": raised.reason, "flush": flush.reason, "straight_flush": sf.reason},
    }


def _output(result: Settlement, profile_name: str) -> dict[str, Any]:
    banker = result.banker
    reading = banker.reading
    return {
        "game": GAME_ID,
        "banker": {
            "seat": banker.seat,
            "qualified": banker.qualified,
            "flush": _texts(reading.flush) if reading else [],
            "straight_flush": _texts(reading.straight_flush) if reading else [],
            "rake": banker.rake,
            "net": banker.net,
            "reason": banker.reason,
        },
        "players": [_player(p) for p in result.players],
        "order": list(result.order),
        "house": {"rake": result.house_rake},
        "profile": profile_name,
    }
