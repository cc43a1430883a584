"""`settle` for High Card Flush without the explanations (`settle --jsonl` without `--explain`):
the JSON line of `settle_high_card_flush`'s output less its `reason` and `reasons` keys, for a
round read without pydantic, settled in chips only (`rules.games.high_card_flush.chips`) and written
straight as text (the line `rules.settle.encode` writes for that output, byte for byte).

`settle_brief` takes only what is plainly valid: the keys and types the request model accepts,
amounts within their limits, hands of 7 cards written as the 52 tokens `Ah`, `Td`, `2c` ...,
distinct across the round, and every other check of `rules.games.high_card_flush.settle`. Anything
else returns None and goes to that full settler, which settles it or names its problem: the
brief path never words an error of its own.

Kept, with `rules.games.high_card_flush.chips`, because `settle --jsonl` measured about 2x slower end
to end without them (the figures are in that module's docstring and bench/README.md).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, TypeGuard, cast
from weakref import WeakKeyDictionary

from rules.cards import DECK
from rules.errors import BadInput
from rules.games.high_card_flush.chips import (
    Chips,
    Hand,
    Odds,
    settle_designated_player,
    settle_house,
)
from rules.games.high_card_flush.profile import GAME_ID, HighCardFlushProfile
from rules.games.high_card_flush.rules import (
    CARDS_PER_HAND,
    FLUSH_KEYS,
    MAX_SEATS,
    QUALIFYING_KEY,
    RANK_BITS,
    RUN_KEYS,
    flush_cards,
    raise_multiple,
    run_cards,
)
from rules.games.high_card_flush.settlement import RakeMode, Terms
from rules.profiles.base import MAX_CHIPS
from rules.settle import encode
from rules.settle.common import profile_of, resolve_profile

_ROUND_KEYS = frozenset({"game", "profile", "seats", "banker", "players", "rake", "bonus_cap",
                         "round_bonus_cap"})
_BANKER_KEYS = frozenset({"seat", "stack", "cards"})
_PLAYER_KEYS = frozenset({"seat", "ante", "raise", "flush", "straight_flush", "cards"})
_RAKE_KEYS = frozenset({"mode", "amount"})
_RAKE_MODES = ("all", "players", "dp_only")


@dataclass(frozen=True, slots=True)
class _Table:
    """What a round needs of its profile, taken out once per profile."""

    name: str
    """The profile's name as JSON text."""
    house: bool
    max_players: int
    ante: tuple[int, int]
    flush: tuple[int, int]
    straight_flush: tuple[int, int]
    odds: Odds
    terms: Terms

    @classmethod
    def of(cls, name: str, profile: HighCardFlushProfile) -> _Table:
        limits = profile.limits
        return cls(encode(name), profile.banker == "house", profile.max_players,
                   (limits.ante.min, limits.ante.max), (limits.flush.min, limits.flush.max),
                   (limits.straight_flush.min, limits.straight_flush.max), Odds.of(profile), Terms.of(profile))


_TABLES: WeakKeyDictionary[Any, dict[str | None, _Table]] = WeakKeyDictionary()


def _table(request: dict[str, Any], library: Any) -> _Table | None:
    """The request's profile, loaded once per library and name; None when it does not load."""
    name = request.get("profile")
    if "profile" in request and (type(name) is not str or not name):
        return None
    try:
        memo = _TABLES.setdefault(library, {})
    except TypeError:  # a library that cannot be weakly referenced: no memo
        memo = {}
    table = memo.get(name)
    if table is None:
        try:
            loaded = resolve_profile(request, library, GAME_ID)
        except BadInput:
            return None
        table = memo[name] = _Table.of(loaded.name, profile_of(loaded, HighCardFlushProfile))
    return table


# Cards -------------------------------------------------------------------------------------

_BIT = {card.text: 1 << (card.suit * RANK_BITS + card.rank) for card in DECK}
"""Each canonical token's bit in a hand's 52-bit set, suit-major: a suit's rank mask is 13 bits."""
_CARD_LISTS: dict[int, str] = {}
"""The JSON list of a playing flush's cards by `flush key << 2 | suit`, of a straight flush's by
`-(run key << 2 | suit) - 1`."""
Reading = tuple[int, int, int, str, str]
"""`(card set, flush key, run key, flush cards, straight flush cards)`, the cards as JSON lists."""


def _read(text: str) -> Reading | None:
    """A hand of 7 distinct canonical tokens, read as `read_hand` reads it; None otherwise."""
    tokens = text.split()
    if len(tokens) != CARDS_PER_HAND:
        return None
    try:
        cards = sum(map(_BIT.__getitem__, tokens))
    except KeyError:
        return None
    if cards.bit_count() != CARDS_PER_HAND:  # a repeated bit carries into fewer bits
        return None
    m0, m1, m2, m3 = cards & _SUIT, cards >> RANK_BITS & _SUIT, cards >> 2 * RANK_BITS & _SUIT, cards >> 3 * RANK_BITS
    k0, k1, k2, k3 = FLUSH_KEYS[m0], FLUSH_KEYS[m1], FLUSH_KEYS[m2], FLUSH_KEYS[m3]
    key = max(k0, k1, k2, k3)
    suit = 0 if k0 == key else 1 if k1 == key else 2 if k2 == key else 3  # HCF-2: the first in s h d c
    k0, k1, k2, k3 = RUN_KEYS[m0], RUN_KEYS[m1], RUN_KEYS[m2], RUN_KEYS[m3]
    run = max(k0, k1, k2, k3)
    run_suit = 0 if k0 == run else 1 if k1 == run else 2 if k2 == run else 3
    lists = _CARD_LISTS
    flush = lists.get(key << 2 | suit)
    if flush is None:
        flush = lists[key << 2 | suit] = encode([card.text for card in flush_cards(suit, key)])
    straight = lists.get(-(run << 2 | run_suit) - 1)
    if straight is None:
        straight = lists[-(run << 2 | run_suit) - 1] = encode([card.text for card in run_cards(run_suit, run)])
    return cards, key, run, flush, straight


_SUIT = (1 << RANK_BITS) - 1


# The round ---------------------------------------------------------------------------------


def _amount(value: object, low: int, high: int) -> TypeGuard[int]:
    return type(value) is int and low <= value <= high


def _bet(value: object, limits: tuple[int, int]) -> TypeGuard[int]:
    """A bonus stake: absent or 0, or within the table's limits."""
    return type(value) is int and (value == 0 or limits[0] <= value <= limits[1])


def _terms(request: dict[str, Any], table: _Table) -> Terms | None:
    terms = table.terms
    if "rake" in request:
        rake = request["rake"]
        if type(rake) is not dict or rake.keys() != _RAKE_KEYS:
            return None
        mode, amount = rake["mode"], rake["amount"]
        if type(mode) is not str or mode not in _RAKE_MODES or not _amount(amount, 0, MAX_CHIPS):
            return None
        terms = replace(terms, rake_mode=cast(RakeMode, mode), rake_amount=amount)
    # HCF-14, per hand and per round: absent, the profile's cap; null, none; else that amount
    if "bonus_cap" in request:
        cap = request["bonus_cap"]
        if cap is not None and not _amount(cap, 1, MAX_CHIPS):
            return None
        terms = replace(terms, bonus_cap=cap)
    if "round_bonus_cap" in request:
        cap = request["round_bonus_cap"]
        if cap is not None and not _amount(cap, 1, MAX_CHIPS):
            return None
        terms = replace(terms, round_bonus_cap=cap)
    return terms


def settle_brief(request: dict[str, Any], library: Any) -> str | None:
    """The JSON line of a plainly valid round (module docstring); None for any other."""
    game, seats = request.get("game"), request.get("seats", MAX_SEATS)
    if type(game) is not str or game != GAME_ID or not request.keys() <= _ROUND_KEYS:
        return None
    if type(seats) is not int or not 1 <= seats <= MAX_SEATS:
        return None
    table = _table(request, library)
    banker = request.get("banker")
    if table is None or type(banker) is not dict or not banker.keys() <= _BANKER_KEYS:
        return None
    dp_seat = stack = 0
    if table.house:
        if "rake" in request or "seat" in banker or "stack" in banker:
            return None
    else:
        given_seat, given_stack = banker.get("seat"), banker.get("stack")
        if not _amount(given_seat, 1, seats) or not _amount(given_stack, 0, MAX_CHIPS):
            return None
        dp_seat, stack = given_seat, given_stack
    terms = _terms(request, table)
    text = banker.get("cards")
    banker_hand = None if text is None else _read(text) if type(text) is str else None
    if terms is None or (text is not None and banker_hand is None):
        return None
    dealt = _hands(request.get("players"), table, seats, dp_seat, banker_hand[0] if banker_hand else 0)
    if dealt is None:
        return None
    hands, readings = dealt
    if banker_hand is None and any(hand[2] for hand in hands):  # a raise needs the banker's cards
        return None
    key, run = (banker_hand[1], banker_hand[2]) if banker_hand else (-1, -1)
    if table.house:
        chips = settle_house(key, hands, table.odds, terms)
    else:
        chips = settle_designated_player(seats, (dp_seat, stack, key, run), hands, table.odds, terms)
    return _line(table, None if table.house else dp_seat, banker_hand, hands, readings, chips)


def _hands(
    players: Any, table: _Table, seats: int, dp_seat: int, dealt: int
) -> tuple[list[Hand], list[Reading | None]] | None:
    """The players' hands and their readings; `dealt`: the banker's cards, which no hand repeats."""
    if type(players) is not list or not 0 < len(players) <= table.max_players:
        return None
    hands: list[Hand] = []
    readings: list[Reading | None] = []
    taken: set[int] = set()
    ante_limits, flush_limits, sf_limits = table.ante, table.flush, table.straight_flush
    for player in players:
        if type(player) is not dict or not player.keys() <= _PLAYER_KEYS:
            return None
        seat, ante, raised = player.get("seat"), player.get("ante"), player.get("raise")
        flush, sf, text = player.get("flush", 0), player.get("straight_flush", 0), player.get("cards")
        if (not _amount(seat, 1, seats) or seat == dp_seat or seat in taken
                or not _amount(ante, ante_limits[0], ante_limits[1]) or not _amount(raised, 0, MAX_CHIPS)
                or not _bet(flush, flush_limits) or not _bet(sf, sf_limits)):
            return None
        taken.add(seat)
        if text is None:  # cards are needed for a raise, and for bonus bets under the casino profile
            if raised or (table.house and (flush or sf)):
                return None
            hands.append((seat, ante, raised, flush, sf, -1, -1))
            readings.append(None)
            continue
        hand = _read(text) if type(text) is str else None
        if hand is None or hand[0] & dealt:
            return None
        dealt |= hand[0]
        if raised and raised != ante and not ante <= raised <= ante * raise_multiple(hand[1] >> RANK_BITS):
            return None  # HCF-6
        hands.append((seat, ante, raised, flush, sf, hand[1], hand[2]))
        readings.append(hand)
    return hands, readings


def _line(table: _Table, dp_seat: int | None, banker: Reading | None, hands: list[Hand],
          readings: list[Reading | None], chips: Chips) -> str:
    """The output as `encode` writes it: keys in the full settler's order, `, ` and `: ` between."""
    players = []
    for hand, reading, (dead, a, r, f, s, rake) in zip(hands, readings, chips.hands):
        flush, run = (reading[3], reading[4]) if reading else ("[]", "[]")
        players.append(
            f'{{"seat": {hand[0]}, "dead": {"true" if dead else "false"}, "flush": {flush}, '
            f'"straight_flush": {run}, "bets": {{"ante": {a}, "raise": {r}, "flush": {f}, '
            f'"straight_flush": {s}}}, "rake": {rake}, "net": {a + r + f + s - rake}, '
            f'"folded": {"false" if hand[2] else "true"}}}'
        )
    seat = "null" if dp_seat is None else dp_seat
    if banker:
        qualified, flush, run = "true" if banker[1] >= QUALIFYING_KEY else "false", banker[3], banker[4]
    else:
        qualified, flush, run = "null", "[]", "[]"
    order = ", ".join(map(str, chips.order))
    return (
        f'{{"game": "{GAME_ID}", "banker": {{"seat": {seat}, "qualified": {qualified}, "flush": {flush}, '
        f'"straight_flush": {run}, "rake": {chips.banker_rake}, "net": {chips.banker_net}}}, '
        f'"players": [{", ".join(players)}], "order": [{order}], "house": {{"rake": {chips.house_rake}}}, '
        f'"profile": {table.name}}}'
    )
