"""High Card Flush: hand ranking and the pure rules around it (docs/rules.md HCF-1..HCF-18).

Fast path: `flush_key(indices)` and `straight_flush_key(indices)` take card indices
(`card.index`, 0..51) and return plain ints; a higher key is a better hand. The simulator
ranks millions of hands through them, so they allocate nothing but one small list.

- Flush key (HCF-1..3): `length << 13 | rank mask` of the hand's playing flush. For equal
  lengths, comparing the 13-bit rank masks as integers compares the ranks from the highest
  down, which is exactly HCF-1; identical keys tie (HCF-3).
- Straight-flush key (HCF-12): `length << 4 | top rank` of the longest run of one suit
  (ace high or low, no wrap-around); longer wins, then the higher top card.

Rich path: `read_hand(cards)` returns a `HandReading` with both keys and the cards that make
them in C-7 order (HCF-2: of two equal best suits, the first in s h d c plays).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rules.cards import DECK, RANK_CHARS, Card, Rank
from rules.errors import IllegalAction
from rules.said import Said, say

RANK_BITS = 13
_ALL_RANKS = (1 << RANK_BITS) - 1


_ACE = int(Rank.ACE)


def _run_key(mask: int) -> int:
    """Longest run of consecutive ranks in a 13-bit rank mask, ace high or low: `length << 4 | top`."""
    wide = (mask << 1) | (mask >> _ACE & 1)  # bit 0 is the low ace, bit p is rank p - 1
    length, tops, best = 0, wide, 0
    while tops:
        length += 1
        best = tops
        tops &= tops << 1  # bit p survives while p, p-1, ... p-length are all held
    if length > RANK_BITS:  # all 13 ranks: the ace plays once, high
        return RANK_BITS << 4 | _ACE
    top = best.bit_length() - 1
    return length << 4 | (_ACE if top == 0 else top - 1) if length else 0


FLUSH_KEYS: tuple[int, ...] = tuple(m.bit_count() << RANK_BITS | m for m in range(1 << RANK_BITS))
"""Flush key of one suit by its rank mask."""
RUN_KEYS: tuple[int, ...] = tuple(_run_key(m) for m in range(1 << RANK_BITS))
"""Straight-flush key of one suit by its rank mask."""

QUALIFYING_KEY = 3 << RANK_BITS | 1 << Rank.NINE
"""HCF-7: the lowest qualifying flush key, a 3-card flush 9-high (9-3-2)."""
MIN_FLUSH_BET_LENGTH = 4
"""HCF-13: the Flush bet needs a flush of at least 4 cards."""
MIN_STRAIGHT_FLUSH = 3
"""HCF-12: the Straight Flush bet needs a run of at least 3 cards."""
CARDS_PER_HAND = 7
MAX_SEATS = 7
"""At most 7 hands (49 cards), so a table of at most 7 seats."""


def suit_masks(indices: Iterable[int]) -> list[int]:
    """The rank mask of each suit, in suit order s h d c."""
    masks = [0, 0, 0, 0]
    for i in indices:
        masks[i & 3] |= 1 << (i >> 2)
    return masks


def flush_key(indices: Iterable[int], _keys: tuple[int, ...] = FLUSH_KEYS) -> int:
    """HCF-1..3 key of a hand given as card indices; higher is better, equal ties."""
    m = [0, 0, 0, 0]
    for i in indices:
        m[i & 3] |= 1 << (i >> 2)
    return max(_keys[m[0]], _keys[m[1]], _keys[m[2]], _keys[m[3]])


def straight_flush_key(indices: Iterable[int], _keys: tuple[int, ...] = RUN_KEYS) -> int:
    """HCF-12 key of a hand given as card indices: `length << 4 | top rank` of its best run."""
    m = [0, 0, 0, 0]
    for i in indices:
        m[i & 3] |= 1 << (i >> 2)
    return max(_keys[m[0]], _keys[m[1]], _keys[m[2]], _keys[m[3]])


def flush_length(key: int) -> int:
    """The length of a flush key's flush."""
    return key >> RANK_BITS


def run_length(key: int) -> int:
    """The length of a straight-flush key's run."""
    return key >> 4


def qualifies(key: int) -> bool:
    """HCF-7: a flush of 4+ cards, or a 3-card flush whose highest card is 9 or better."""
    return key >= QUALIFYING_KEY


def straight_flush_wins(player_key: int, dp_key: int) -> bool:
    """HCF-12: at least 3 cards, and longer than the DP's or as long with a higher or equal top card."""
    return player_key >> 4 >= MIN_STRAIGHT_FLUSH and player_key >= dp_key


def _ranks_text(cards: Sequence[Card]) -> str:
    return "-".join(RANK_CHARS[c.rank] for c in cards)


@dataclass(frozen=True, slots=True)
class HandReading:
    """A 7-card hand read for High Card Flush: its playing flush and its straight flush."""

    flush_key: int
    flush: tuple[Card, ...]
    straight_flush_key: int
    straight_flush: tuple[Card, ...]
    """The longest run (HCF-12) in playing order; empty when shorter than 3 cards."""

    @property
    def flush_length(self) -> int:
        return self.flush_key >> RANK_BITS

    @property
    def straight_flush_length(self) -> int:
        """The length of the run that counts for the bet: 0 below 3 cards."""
        return len(self.straight_flush)

    @property
    def qualifies(self) -> bool:
        return self.flush_key >= QUALIFYING_KEY

    def describe_flush(self) -> Said:
        """`5-card flush A-K-Q-J-T`."""
        text = _FLUSH_TEXT.get(self.flush_key)
        if text is None:
            text = _FLUSH_TEXT[self.flush_key] = say("{length}-card flush {ranks}", length=self.flush_length,
                                                     ranks=_ranks_text(self.flush))
        return text

    def describe_straight_flush(self) -> Said:
        """`3-card straight flush 3-2-A`, or `no straight flush`."""
        if not self.straight_flush:
            return _NO_STRAIGHT_FLUSH
        return say("{length}-card straight flush {ranks}", length=len(self.straight_flush),
                   ranks=_ranks_text(self.straight_flush))


_FLUSH_TEXT: dict[int, Said] = {}
_NO_STRAIGHT_FLUSH = say("no straight flush")


def _best_suit(masks: Sequence[int], keys: tuple[int, ...]) -> tuple[int, int]:
    """(suit, key) of the best suit; equal keys: the first suit in s h d c (HCF-2)."""
    k0, k1, k2, k3 = keys[masks[0]], keys[masks[1]], keys[masks[2]], keys[masks[3]]
    best = max(k0, k1, k2, k3)
    return (0 if k0 == best else 1 if k1 == best else 2 if k2 == best else 3), best


def _build_flush(suit: int, mask: int) -> tuple[Card, ...]:
    cards = []
    while mask:
        rank = mask.bit_length() - 1
        cards.append(DECK[rank * 4 + suit])
        mask ^= 1 << rank
    return tuple(cards)


def _build_run(suit: int, key: int) -> tuple[Card, ...]:
    length, top = key >> 4, key & 0xF
    if length < MIN_STRAIGHT_FLUSH:
        return ()
    ranks = [top - k if top >= k else Rank.ACE for k in range(length)]
    return tuple(DECK[rank * 4 + suit] for rank in ranks)


_FLUSH_CARDS: dict[int, tuple[Card, ...]] = {}
"""Playing flushes already built, by `key << 2 | suit` (at most 4 x 8192 of them)."""
_RUN_CARDS: dict[int, tuple[Card, ...]] = {}
"""Straight flushes already built, by `key << 2 | suit`."""


def flush_cards(suit: int, key: int) -> tuple[Card, ...]:
    """The cards of the flush with this key in this suit, highest first (C-7)."""
    cards = _FLUSH_CARDS.get(key << 2 | suit)
    if cards is None:
        cards = _FLUSH_CARDS[key << 2 | suit] = _build_flush(suit, key & _ALL_RANKS)
    return cards


def run_cards(suit: int, key: int) -> tuple[Card, ...]:
    """The cards of the run with this straight-flush key in this suit from its top card down,
    the low ace below the deuce (3 2 A); empty below 3 cards (HCF-12)."""
    cards = _RUN_CARDS.get(key << 2 | suit)
    if cards is None:
        cards = _RUN_CARDS[key << 2 | suit] = _build_run(suit, key)
    return cards


def read_hand(cards: Sequence[Card]) -> HandReading:
    """Read a hand (normally 7 cards): its flush (HCF-1, HCF-2) and straight flush (HCF-12)."""
    masks = [0, 0, 0, 0]
    for c in cards:
        masks[c.suit] |= 1 << c.rank
    f_suit, f_key = _best_suit(masks, FLUSH_KEYS)
    r_suit, r_key = _best_suit(masks, RUN_KEYS)
    return HandReading(f_key, flush_cards(f_suit, f_key), r_key, run_cards(r_suit, r_key))


def flush_length_of(cards: Sequence[Card]) -> int:
    """The length of a hand's longest flush: its most common suit's count."""
    suits: list[int] = [c.suit for c in cards]
    return max(suits.count(0), suits.count(1), suits.count(2), suits.count(3))


# Raises, posting, rotation, settlement order ---------------------------------------------


def raise_multiple(flush_len: int) -> int:
    """HCF-6: the raise cap in Antes: 1 with a flush of 4 cards or fewer, 2 with 5, 3 with 6 or 7."""
    if flush_len <= 4:
        return 1
    return 2 if flush_len == 5 else 3


def raise_bounds(ante: int, flush_len: int) -> tuple[int, int]:
    """HCF-6: the smallest and largest raise (whole chips) for a hand with this flush length."""
    return ante, ante * raise_multiple(flush_len)


def verify_raise(ante: int, amount: int, flush_len: int, seat: int | None = None) -> None:
    """Raise `IllegalAction` naming the bounds when `amount` is not a legal raise (HCF-6)."""
    low, high = raise_bounds(ante, flush_len)
    if low <= amount <= high:
        return
    if amount < low:
        if seat is None:
            raise IllegalAction(say("The player must raise at least {low} (1× the ante); raising {amount} is refused",
                                    low=low, amount=amount))
        raise IllegalAction(say("Seat {seat} must raise at least {low} (1× the ante); raising {amount} is refused",
                                seat=seat, low=low, amount=amount))
    multiple = raise_multiple(flush_len)
    if seat is None:
        raise IllegalAction(say("The player may raise at most {high} ({multiple}× the ante) with a {length}-card flush; "
                                "raising {amount} is refused", high=high, multiple=multiple, length=flush_len,
                                amount=amount))
    raise IllegalAction(say("Seat {seat} may raise at most {high} ({multiple}× the ante) with a {length}-card flush; "
                            "raising {amount} is refused", seat=seat, high=high, multiple=multiple, length=flush_len,
                            amount=amount))


def chips_to_post(ante: int, flush: int = 0, straight_flush: int = 0) -> int:
    """HCF-4: chips a player must hold to post an Ante: Ante + bonus bets + 3× Ante."""
    return ante + flush + straight_flush + 3 * ante


def can_post(stack: int, ante: int, flush: int = 0, straight_flush: int = 0) -> bool:
    return stack >= chips_to_post(ante, flush, straight_flush)


def next_designated_player(
    seats: int,
    current: int | None,
    banks: Mapping[int, int],
    min_bank: int,
    declined: Iterable[int] = (),
) -> int | None:
    """HCF-18: the next seat clockwise from `current` (itself last) that takes the DP position.

    `banks` maps each occupied seat to its chips; a seat that declines or holds less than the
    minimum bank is skipped. None: no seat can bank, so the round cannot start.
    """
    start = current if current is not None else seats
    refused = set(declined)
    for step in range(1, seats + 1):
        seat = (start - 1 + step) % seats + 1
        if seat in banks and seat not in refused and banks[seat] >= min_bank:
            return seat
    return None


def settlement_order(seats: int, banker_seat: int, player_seats: Iterable[int]) -> tuple[int, ...]:
    """HCF-10: from the seat to the right of the button (in front of the DP) counter-clockwise.

    With the banker on seat 4 of 7: 3, 2, 1, 7, 6, 5. Only the given seats are listed.
    """
    present = set(player_seats)
    ring = ((banker_seat - 1 - step) % seats + 1 for step in range(1, seats))
    return tuple(seat for seat in ring if seat in present)
