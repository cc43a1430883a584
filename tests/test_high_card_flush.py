"""High Card Flush rules (docs/rules.md HCF-1..HCF-20) through the typed rules API.

Every expected value is worked out by hand from docs/rules.md; the arithmetic is in the comments.
"""

from __future__ import annotations

import random
from itertools import combinations, permutations
from math import comb, prod

import pytest

from rules.cards import Rank, Shoe, parse_cards
from rules.errors import IllegalAction
from rules.games.high_card_flush.profile import HighCardFlushProfile
from rules.games.high_card_flush.rules import (
    FLUSH_KEYS,
    RUN_KEYS,
    can_post,
    chips_to_post,
    flush_key,
    flush_length,
    flush_length_of,
    next_designated_player,
    qualifies,
    raise_bounds,
    read_hand,
    run_length,
    settlement_order,
    straight_flush_key,
    straight_flush_wins,
    verify_raise,
)
from rules.games.high_card_flush.settlement import (
    BankerHand,
    PlayerHand,
    PlayerResult,
    Settlement,
    Terms,
    settle,
)
from rules.profiles.loader import ProfileLibrary

LIB = ProfileLibrary([])


def _profile(name: str) -> HighCardFlushProfile:
    profile = LIB.find(name).profile
    assert isinstance(profile, HighCardFlushProfile)
    return profile


CARD_ROOM = _profile("high-card-flush")
CASINO = _profile("high-card-flush-casino")

# DP hands used below.
DP_AK9 = "As Ks 9s 2h 3h 4d 5c"  # 3-card flush A-K-9 (qualifies), no 3-card straight flush
DP_864 = "8h 6h 4h 2s Kd 3c 9c"  # 3-card flush 8-6-4: does not qualify (HCF-7)
ROYAL = "Ah Kh Qh Jh Th 3c 4s"  # 5-card flush and 5-card straight flush A-K-Q-J-T


def key(text: str) -> int:
    return flush_key(c.index for c in parse_cards(text))


def sf_key(text: str) -> int:
    return straight_flush_key(c.index for c in parse_cards(text))


def texts(cards: tuple[object, ...]) -> str:
    return " ".join(c.text for c in cards)  # type: ignore[attr-defined]


def hand(seat: int, ante: int, raised: int, text: str | None = None, flush: int = 0, sf: int = 0) -> PlayerHand:
    return PlayerHand(seat, ante, raised, flush, sf, parse_cards(text) if text else None)


def dp(text: str | None, seat: int = 4, stack: int = 1000) -> BankerHand:
    return BankerHand(parse_cards(text) if text else None, seat, stack)


def bets(result: PlayerResult) -> tuple[int, int, int, int]:
    return tuple(b.result for b in result.bets)  # type: ignore[return-value]


def check_conserved(s: Settlement) -> None:
    assert sum(p.net for p in s.players) + s.banker.net + s.house_rake == 0


# Ranking: HCF-1 .. HCF-3 ------------------------------------------------------------------


def test_hcf_1_longer_flush_beats_any_shorter_one() -> None:
    # a 4-card flush 5-4-3-2 beats a 3-card flush A-K-Q
    assert key("5d 4d 3d 2d As Kh 7c") > key("Ac Kc Qc 2s 3h 4d 6s")


def test_hcf_1_equal_lengths_compare_from_the_highest_card_down() -> None:
    # the docs/rules.md examples: K-Q-J-T beats K-Q-J-9, A-4-3-2 beats K-Q-J-T
    assert key("Kh Qh Jh Th 2s 3d 5c") > key("Kh Qh Jh 9h 2s 3d 5c")
    assert key("Ah 4h 3h 2h 5s 6d 7c") > key("Kh Qh Jh Th 2s 3d 5c")


def test_hcf_1_cards_outside_the_flush_and_straights_never_count() -> None:
    # same hearts A-9-5-3; the off-suit cards differ (one hand has a pair and trips): a tie
    assert key("Ah 9h 5h 3h Ks Kd 2c") == key("Ah 9h 5h 3h 7s 7d 7c")
    # a 3-card straight flush 5-4-3 loses to a plain 3-card flush 9-7-2
    assert key("5c 4c 3c Ah Kd 8s 6h") < key("9c 7c 2c Ah Kd 8s 6h")


def test_hcf_2_of_two_equally_long_suits_the_higher_plays() -> None:
    # docs/rules.md: 3-3-1 with hearts A-7-2 and spades K-Q-J plays hearts A-7-2
    reading = read_hand(parse_cards("Ks Qs Js Ah 7h 2h 3c"))
    assert texts(reading.flush) == "Ah 7h 2h"
    assert reading.flush_key == key("Ah 7h 2h 5s 4s 9d 3c")  # as if A-7-2 were the only 3-card suit


def test_hcf_2_two_identical_suits_play_the_first_in_s_h_d_c() -> None:
    # hearts and diamonds both K-Q-9: hearts come first in s h d c
    assert texts(read_hand(parse_cards("9d Qd Kd 9h Qh Kh 2c")).flush) == "Kh Qh 9h"
    # spades and clubs both 7-5-3: spades
    assert texts(read_hand(parse_cards("7c 5c 3c 7s 5s 3s Ad")).flush) == "7s 5s 3s"


def test_hcf_3_equal_length_and_identical_ranks_tie() -> None:
    assert key("Kd Qd Jd 9d 2s 3h 4c") == key("Ks Qs Js 9s 2h 3c 5d")


def test_c_7_playing_flush_is_listed_high_to_low() -> None:
    reading = read_hand(parse_cards("2h Th 5h Ah 8h Kc 3s"))
    assert texts(reading.flush) == "Ah Th 8h 5h 2h"
    assert reading.flush_length == 5
    assert reading.describe_flush() == "5-card flush A-T-8-5-2"


# Straight flush: HCF-12 -------------------------------------------------------------------


def test_hcf_12_the_longest_run_of_one_suit_plays() -> None:
    reading = read_hand(parse_cards("9s 8s 7s 6s Ah Kh Qh"))  # 4-card run 9-6 beats 3-card Q-K-A
    assert texts(reading.straight_flush) == "9s 8s 7s 6s"
    assert run_length(reading.straight_flush_key) == 4


def test_hcf_12_ace_counts_high_or_low() -> None:
    assert texts(read_hand(parse_cards("Qd Kd Ad 2s 5h 8c 9c")).straight_flush) == "Ad Kd Qd"
    # A-2-3: top card 3, listed from the top card down (C-7)
    low = read_hand(parse_cards("Ah 2h 3h 7s 9d Jc Kc"))
    assert texts(low.straight_flush) == "3h 2h Ah"
    assert low.straight_flush_key & 0xF == Rank.THREE
    # the low A-2-3 ranks below a 2-3-4 run of the same length
    assert low.straight_flush_key < sf_key("2d 3d 4d 7s 9h Jc Kc")


def test_hcf_12_no_wrap_around() -> None:
    # K-A-2 of spades is not a run: the longest runs are K-A and 2 alone (2 cards) -> []
    reading = read_hand(parse_cards("Ks As 2s 7h 9d Jc 4c"))
    assert reading.straight_flush == ()
    assert run_length(reading.straight_flush_key) == 2


def test_hcf_12_equal_length_runs_the_higher_top_plays() -> None:
    # hearts A-2-3 (top 3) and spades 9-8-7 (top 9): 9-8-7 plays
    assert texts(read_hand(parse_cards("Ah 2h 3h 9s 8s 7s Kd")).straight_flush) == "9s 8s 7s"
    # hearts A-2-3 and Q-K-A use the same ace: Q-K-A (top A) plays
    assert texts(read_hand(parse_cards("Ah 2h 3h Qh Kh 9c 8d")).straight_flush) == "Ah Kh Qh"


def test_hcf_12_identical_runs_first_suit_in_s_h_d_c() -> None:
    assert texts(read_hand(parse_cards("7c 8c 9c 7d 8d 9d As")).straight_flush) == "9d 8d 7d"


def test_hcf_12_shorter_than_3_cards_is_empty() -> None:
    reading = read_hand(parse_cards("As Ks 9s 2h 3h 4d 5c"))  # runs: K-A of spades, 2-3 of hearts
    assert reading.straight_flush == () and reading.describe_straight_flush() == "no straight flush"


def test_hcf_12_straight_flush_contest() -> None:
    three_k, three_q = sf_key("Ks Qs Js 2h 5d 8c 4c"), sf_key("Qh Jh Th 2s 5d 8c 4c")
    four_5 = sf_key("5d 4d 3d 2d Kh 9s Jc")
    two = sf_key("As Ks 9s 2h 3h 4d 5c")
    assert straight_flush_wins(three_k, three_k)  # equal length, equal top: ties go to the player
    assert straight_flush_wins(three_k, three_q)  # equal length, higher top
    assert not straight_flush_wins(three_q, three_k)  # equal length, lower top
    assert straight_flush_wins(four_5, three_k)  # longer wins whatever the top
    assert not straight_flush_wins(three_k, four_5)  # shorter loses
    assert straight_flush_wins(three_q, two)  # the DP has no 3-card run
    assert not straight_flush_wins(two, two)  # needs at least 3 cards, even against nothing


# HCF-7 and the figures of docs/rules.md --------------------------------------------------------


def test_hcf_7_dp_qualifies_with_a_three_card_flush_nine_high() -> None:
    assert qualifies(key("9h 3h 2h As Kd Qc 5s"))  # 9-3-2: yes
    assert not qualifies(key("8h 7h 6h As Kd Qc 5s"))  # 8-7-6: no
    assert qualifies(key("5h 4h 3h 2h As Kd Qc"))  # any 4-card flush: yes
    assert not qualifies(key("Ah Kh As Ks Ad Kd Qc"))  # a 2-card flush, even A-K: no


def _suit_patterns() -> list[tuple[int, int, int, int]]:
    return [(s, h, d, 7 - s - h - d) for s in range(8) for h in range(8 - s) for d in range(8 - s - h)]


FLUSH_LENGTH_COUNTS = {7: 6_864, 6: 267_696, 5: 3_814_668, 4: 26_137_540, 3: 78_881_088, 2: 24_676_704}
QUALIFYING_HANDS = 100_825_036


def test_hcf_7_figures_by_suit_pattern_enumeration() -> None:
    # Hands with suit counts (s, h, d, c): C(13,s)·C(13,h)·C(13,d)·C(13,c). A hand whose longest
    # flush has 3 cards fails to qualify only when every 3-card suit is 8-high or lower: its
    # ranks come from 2..8, C(7,3) = 35 ways.
    by_length: dict[int, int] = {}
    qualifying = 0
    for pattern in _suit_patterns():
        hands = prod(comb(13, n) for n in pattern)
        longest = max(pattern)
        by_length[longest] = by_length.get(longest, 0) + hands
        if longest >= 4:
            qualifying += hands
        elif longest == 3:
            qualifying += hands - prod(comb(7, 3) if n == 3 else comb(13, n) for n in pattern)
    assert sum(by_length.values()) == comb(52, 7) == 133_784_560
    assert by_length == FLUSH_LENGTH_COUNTS
    assert qualifying == QUALIFYING_HANDS
    assert f"{qualifying / comb(52, 7):.4%}" == "75.3637%"


def _hand_with(pattern: tuple[int, ...], ranks: dict[int, tuple[int, ...]]) -> list[int]:
    """Card indices: per suit the given ranks, else the lowest `n` ranks of that suit."""
    return [r * 4 + suit for suit, n in enumerate(pattern) for r in ranks.get(suit, range(n))]


def test_hcf_7_flush_key_reproduces_the_figures_over_every_suit_pattern() -> None:
    # The code ranks one hand per suit pattern (weighted by the pattern's hand count); for the
    # patterns whose longest flush has 3 cards it ranks every rank set of every 3-card suit
    # (one arrangement of suits per pattern shape, times the arrangements).
    by_length: dict[int, int] = {}
    qualifying = 0
    shapes: set[tuple[int, ...]] = set()
    for pattern in _suit_patterns():
        hands = prod(comb(13, n) for n in pattern)
        indices = _hand_with(pattern, {})
        length = flush_length(flush_key(indices))
        by_length[length] = by_length.get(length, 0) + hands
        if length != 3:  # qualification cannot depend on ranks: the lowest and highest agree
            high = _hand_with(pattern, {suit: tuple(range(12, 12 - n, -1)) for suit, n in enumerate(pattern)})
            assert qualifies(flush_key(indices)) == qualifies(flush_key(high)) == (length >= 4)
            qualifying += hands if length >= 4 else 0
        shape = tuple(sorted(pattern, reverse=True))
        if length == 3 and shape not in shapes:
            shapes.add(shape)
            arrangements = len(set(permutations(shape)))
            threes = [suit for suit, n in enumerate(shape) if n == 3]
            others = prod(comb(13, n) for n in shape if n != 3)
            for rank_sets in _rank_sets(len(threes)):
                ranks = dict(zip(threes, rank_sets, strict=True))
                rest = {suit: tuple(range(12, 12 - n, -1)) for suit, n in enumerate(shape) if n != 3}
                if qualifies(flush_key(_hand_with(shape, ranks | rest))):
                    qualifying += others * arrangements
    assert by_length == FLUSH_LENGTH_COUNTS
    assert qualifying == QUALIFYING_HANDS


def _rank_sets(suits: int) -> list[tuple[tuple[int, ...], ...]]:
    one = list(combinations(range(13), 3))
    return [(a,) for a in one] if suits == 1 else [(a, b) for a in one for b in one]


def test_hcf_1_flush_lengths_of_a_seeded_sample_match_the_exact_counts() -> None:
    # 40,000 seeded hands: each length's share within 5 standard errors of the exact share.
    rng = random.Random(2024)
    deck = list(range(52))
    n = 40_000
    seen: dict[int, int] = {}
    for _ in range(n):
        length = flush_length(flush_key(rng.sample(deck, 7)))
        seen[length] = seen.get(length, 0) + 1
    for length, count in FLUSH_LENGTH_COUNTS.items():
        p = count / 133_784_560
        assert abs(seen.get(length, 0) / n - p) <= 5 * (p * (1 - p) / n) ** 0.5 + 1 / n


def test_hcf_1_flush_keys_agree_with_a_plain_reading_of_the_rule() -> None:
    # For a seeded sample, the key orders hands exactly as "length, then ranks high to low".
    shoe = Shoe.seeded_with(99)
    for _ in range(300):
        shoe.shuffle()
        a, b = shoe.deal(7), shoe.deal(7)

        def plain(cards: tuple[object, ...]) -> tuple[int, list[int]]:
            suits = [[c.rank for c in cards if c.suit == s] for s in range(4)]  # type: ignore[attr-defined]
            return max((len(r), sorted(r, reverse=True)) for r in suits)

        assert (flush_key(c.index for c in a) > flush_key(c.index for c in b)) == (plain(a) > plain(b))
        assert flush_length_of(a) == plain(a)[0]
    assert len(FLUSH_KEYS) == 8192


# Betting: HCF-4, HCF-6, HCF-18, HCF-10 ----------------------------------------------------


def test_hcf_4_an_ante_needs_chips_for_every_bet_the_hand_may_need() -> None:
    # Ante 10 + Flush 5 + Straight Flush 5 + 3 x 10 = 50
    assert chips_to_post(10, 5, 5) == 50
    assert can_post(50, 10, 5, 5) and not can_post(49, 10, 5, 5)
    assert chips_to_post(25) == 100  # 25 + 3 x 25


@pytest.mark.parametrize(
    ("flush_len", "cap"),
    [(2, 10), (3, 10), (4, 10), (5, 20), (6, 30), (7, 30)],  # ante 10: 1x, 1x, 1x, 2x, 3x, 3x
)
def test_hcf_6_raise_cap_by_flush_length(flush_len: int, cap: int) -> None:
    assert raise_bounds(10, flush_len) == (10, cap)
    verify_raise(10, cap, flush_len)
    for outside in (cap + 1, 9):
        with pytest.raises(IllegalAction):
            verify_raise(10, outside, flush_len)


def test_hcf_6_any_whole_chip_raise_between_the_bounds() -> None:
    for amount in range(10, 21):  # 10 .. 2 x 10
        verify_raise(10, amount, 5)


def test_hcf_6_a_raise_outside_the_bounds_is_refused_with_a_clear_message() -> None:
    with pytest.raises(IllegalAction, match=r"Seat 3 may raise at most 20 \(2× the ante\) with a 5-card flush"):
        verify_raise(10, 25, 5, seat=3)
    with pytest.raises(IllegalAction, match="Seat 1 must raise at least 10"):
        verify_raise(10, 9, 6, seat=1)
    verify_raise(10, 30, 6, seat=1)  # 3x with 6 cards: accepted


def test_hcf_18_dp_moves_clockwise_to_the_next_seat_that_accepts() -> None:
    banks = {1: 5000, 2: 5000, 3: 500, 5: 2000, 6: 3000}  # seats 4 and 7 are empty
    assert next_designated_player(7, 2, banks, 1000) == 5  # 3 holds less than 1000, 4 is empty
    assert next_designated_player(7, 2, banks, 1000, declined={5}) == 6
    assert next_designated_player(7, 6, banks, 1000) == 1  # 7 empty, wraps to 1
    assert next_designated_player(7, 6, {6: 3000}, 1000) == 6  # the DP itself comes last
    assert next_designated_player(7, 1, banks, 10_000) is None  # nobody can bank
    assert next_designated_player(7, None, banks, 1000) == 1  # no DP yet: from seat 1


def test_hcf_10_settlement_order_from_the_right_of_the_button() -> None:
    assert settlement_order(7, 4, range(1, 8)) == (3, 2, 1, 7, 6, 5)  # docs/rules.md / docs/settle.md example
    assert settlement_order(7, 1, range(1, 8)) == (7, 6, 5, 4, 3, 2)
    assert settlement_order(7, 7, [1, 3, 6]) == (6, 3, 1)
    assert settlement_order(6, 2, [1, 3, 4, 5, 6]) == (1, 6, 5, 4, 3)


# Settlement: HCF-8 .. HCF-17 (card room) --------------------------------------------------


def test_hcf_9_settle_example_round_player_beats_the_dp() -> None:
    # docs/settle.md's example. Seat 1's royal (5-card flush) beats the DP's 3-card A-K-9:
    # Ante +10, Raise +20 (1:1), Flush bet 5 x 10 = 50 (5-card line), Straight Flush bet
    # 5 x 100 = 500 (5-card line only, HCF-12); net 580. Seat 2 folded: -10.
    # DP: +10 - 580 = -570. Order: folded seat 2 first, then seat 1.
    s = settle(CARD_ROOM, 7, dp(DP_AK9), [hand(1, 10, 20, ROYAL, flush=5, sf=5), hand(2, 10, 0)])
    one, two = s.players
    assert bets(one) == (10, 20, 50, 500) and one.net == 580 and not one.dead
    assert bets(two) == (-10, 0, 0, 0) and two.net == -10
    assert s.banker.net == -570 and s.banker.qualified is True
    assert s.order == (2, 1) and s.house_rake == 0
    assert one.straight_flush.reason.endswith("5 × 100 = 500")
    check_conserved(s)


def test_hcf_8_dp_does_not_qualify_ante_wins_raise_pushes() -> None:
    # DP 8-6-4 does not qualify. Seat 3 (2-card flush A-K, loses to 8-6-4 by HCF-1 but the DP
    # did not qualify): Ante +10, Raise 0; its bonus bets lose (2-card flush, no run): -5, -5.
    # Seat 2 (4-card run T-9-8-7 of spades): Ante +10, Raise 0, Flush bet 4 cards beat the DP's
    # 3: 5 x 2 = 10, Straight Flush bet 4 cards vs none: 5 x 60 = 300 -> net 320.
    # DP: -(0 + 320) = -320.
    s = settle(
        CARD_ROOM, 7, dp(DP_864),
        [hand(3, 10, 10, "As Ks Ad Qd 7c 5c Jh", flush=5, sf=5), hand(2, 10, 10, "Ts 9s 8s 7s 2d 3d 5h", flush=5, sf=5)],
    )
    three, two = s.players
    assert s.banker.qualified is False
    assert bets(three) == (10, 0, -5, -5) and three.net == 0
    assert bets(two) == (10, 0, 10, 300) and two.net == 320
    assert s.banker.net == -320
    assert "does not qualify" in two.ante.reason and "pushes" in two.raise_bet.reason
    check_conserved(s)


def test_hcf_9_player_below_the_dp_loses_ante_and_raise() -> None:
    # Q-T-8 of clubs loses to A-K-9: Ante -10, Raise -10; Flush bet (3 cards) -5; no run: -5.
    s = settle(CARD_ROOM, 7, dp(DP_AK9), [hand(1, 10, 10, "Qc Tc 8c 2d 6d 7h 9h", flush=5, sf=5)])
    assert bets(s.players[0]) == (-10, -10, -5, -5) and s.banker.net == 30


def test_hcf_3_tie_pushes_main_and_flush_bets_and_hcf_12_tie_goes_to_the_player() -> None:
    # Both hold K-Q-J-9 (4 cards) and a 3-card run K-Q-J: Ante 0, Raise 0 (HCF-9 tie),
    # Flush bet pushes (HCF-13), Straight Flush bet wins the tie: 5 x 8 = 40 (3-card line).
    s = settle(CARD_ROOM, 7, dp("Kd Qd Jd 9d 2s 3h 4c"), [hand(1, 10, 10, "Ks Qs Js 9s 2h 3c 5d", flush=5, sf=5)])
    p = s.players[0]
    assert bets(p) == (0, 0, 0, 40) and p.net == 40 and s.banker.net == -40
    assert "ties go to the player" in p.straight_flush.reason


def test_hcf_13_flush_bet_loses_to_a_longer_dp_flush_and_wins_against_a_lower_one() -> None:
    # DP 5-card clubs flush vs player's 4-card hearts: Ante -10, Raise -10, Flush bet -5.
    s = settle(CARD_ROOM, 7, dp("Ac Qc 9c 6c 3c 2s 4h"), [hand(1, 10, 10, "Kh Jh 8h 5h 2d 3d 7s", flush=5)])
    assert bets(s.players[0]) == (-10, -10, -5, 0)
    # DP 4-card K-Q-9-6 vs player's A-J-8-5: Ante +10, Raise +10, Flush bet 5 x 2 = 10.
    s = settle(CARD_ROOM, 7, dp("Kc Qc 9c 6c 2s 4h 7d"), [hand(1, 10, 10, "Ah Jh 8h 5h 2d 3d 7s", flush=5)])
    assert bets(s.players[0]) == (10, 10, 10, 0) and s.players[0].net == 30


def test_hcf_11_a_folded_hand_loses_its_bonus_bets() -> None:
    # Folded with a royal: Ante -10, Flush bet -5, Straight Flush bet -5 -> -20; the DP +20.
    s = settle(CARD_ROOM, 7, dp(None), [hand(2, 10, 0, ROYAL, flush=5, sf=5)])
    assert bets(s.players[0]) == (-10, 0, -5, -5) and s.banker.net == 20
    assert s.banker.qualified is None  # nobody raised: the DP's cards were not needed


def test_hcf_14_bonus_cap_cuts_straight_flush_winnings_first() -> None:
    # Bonus winnings 50 + 500 = 550. Cap 300: cut 250 from the Straight Flush: 500 - 250 = 250.
    # Net 10 + 20 + 50 + 250 = 330.
    s = settle(CARD_ROOM, 7, dp(DP_AK9), [hand(1, 10, 20, ROYAL, 5, 5)], Terms(bonus_cap=300))
    assert bets(s.players[0]) == (10, 20, 50, 250) and s.players[0].net == 330
    # Cap 30: cut 520: Straight Flush 500 -> 0, then the Flush 50 -> 30. Net 10 + 20 + 30 = 60.
    s = settle(CARD_ROOM, 7, dp(DP_AK9), [hand(1, 10, 20, ROYAL, 5, 5)], Terms(bonus_cap=30))
    assert bets(s.players[0]) == (10, 20, 30, 0) and s.players[0].net == 60
    assert "bonus cap" in s.players[0].straight_flush.reason


def test_hcf_14_bonus_cap_then_hcf_16_the_dp_money() -> None:
    # Cap 300 -> 330 to win (as above); the DP holds 200: 130 more cut from the Straight Flush,
    # 250 - 130 = 120. Net 10 + 20 + 50 + 120 = 200 = all the DP has.
    s = settle(CARD_ROOM, 7, dp(DP_AK9, stack=200), [hand(1, 10, 20, ROYAL, 5, 5)], Terms(bonus_cap=300))
    assert bets(s.players[0]) == (10, 20, 50, 120) and s.banker.net == -200


def test_hcf_14_hcf_20_bonus_cap_under_the_casino_profile() -> None:
    # Casino paytables (HCF-20). Seat 1 folds an A-2-3-4-5-6-7 spade run with bonus bets of 1:
    # Flush 1 x 300 (7 cards) + Straight Flush 1 x 8000 (7 cards) = 8300 of bonus winnings.
    # Seat 2 raises 30 (3x, a 6-card flush) on K-Q-J-T-9-8 of hearts against the house's 5-card
    # club flush: Ante +10, Raise +30 (HCF-9), Straight Flush bet 10 x 1000 (6 cards) = 10,000.
    # Cap 1000 (HCF-14), each hand on its own, the main bets never cut:
    #   seat 1: 8300 - 1000 = 7300 off the Straight Flush: 8000 - 7300 = 700; Flush 300 kept.
    #   seat 2: 10,000 - 1000 = 9000 off the Straight Flush: 1000.
    # Nets: seat 1 -5 + 300 + 700 = 995; seat 2 10 + 30 + 1000 = 1040; the house -2035.
    players = [hand(1, 5, 0, "As 2s 3s 4s 5s 6s 7s", flush=1, sf=1), hand(2, 10, 30, "Kh Qh Jh Th 9h 8h Ad", sf=10)]
    house = BankerHand(parse_cards("Ac Qc 9c 6c 3c 2d 4d"))
    s = settle(CASINO, 7, house, players, Terms(bonus_cap=1000))
    one, two = s.players
    assert bets(one) == (-5, 0, 300, 700) and one.net == 995
    assert bets(two) == (10, 30, 0, 1000) and two.net == 1040
    assert s.banker.net == -2035 and "bonus cap" in one.straight_flush.reason
    # Cap 200: seat 1 has 8100 to cut: the Straight Flush 8000 -> 0, then the Flush 300 -> 200.
    s = settle(CASINO, 7, house, players[:1], Terms(bonus_cap=200))
    assert bets(s.players[0]) == (-5, 0, 200, 0) and s.banker.net == -195
    check_conserved(s)


def test_hcf_15_hcf_16_a_folded_hands_bonus_bets_decide_whether_a_later_hand_is_dead() -> None:
    # The DP (seat 4) holds 10. Folded seat 1 loses Ante 5, Flush bet 5 and Straight Flush bet
    # 5: the DP has 10 + 15 = 25 available (HCF-15). Seat 2 (royal, Ante 10, Raise 10, Flush 5)
    # has 25 in play, not more than 25: settled (HCF-16). It wins Ante 10, Raise 10 and the
    # Flush bet 5 x 10 = 50 (5 cards against the DP's 3): 70 > 25, so 45 is cut from the Flush
    # win (no Straight Flush bet): 50 - 45 = 5. Paid 10 + 10 + 5 = 25: the DP ends with 0,
    # net 0 - 10 = -10. Nets: -15 + 25 - 10 = 0.
    s = settle(CARD_ROOM, 7, dp(DP_AK9, stack=10), [hand(1, 5, 0, flush=5, sf=5), hand(2, 10, 10, ROYAL, flush=5)])
    one, two = s.players
    assert s.order == (1, 2)  # the folded hand first (HCF-10)
    assert bets(one) == (-5, 0, -5, -5) and one.net == -15
    assert not two.dead and bets(two) == (10, 10, 5, 0) and two.net == 25
    assert s.banker.net == -10
    check_conserved(s)
    # Without the folded hand's bonus bets the DP has 10 + 5 = 15 < 25 in play: seat 2's hand is
    # dead, every bet returned; the DP keeps the Ante 5: net +5.
    s = settle(CARD_ROOM, 7, dp(DP_AK9, stack=10), [hand(1, 5, 0), hand(2, 10, 10, ROYAL, flush=5)])
    assert s.players[1].dead and bets(s.players[1]) == (0, 0, 0, 0) and s.banker.net == 5


def test_hcf_15_losers_chips_pay_later_winners_in_hcf_10_order() -> None:
    # Banker on seat 4, stack 10. Folded seat 1 (ante 10): available 10 + 10 = 20.
    # Seat 3 (settled before seat 2) wagers 20 <= 20 and loses: available 40.
    # Seat 2 wagers 30 <= 40 (not dead; it would be against 20) and wins 30: available 10.
    # Nets: -10, -20, +30; DP: 10 - 10 = 0.
    s = settle(
        CARD_ROOM, 7, dp(DP_AK9, stack=10),
        [hand(1, 10, 0), hand(2, 10, 20, ROYAL), hand(3, 10, 10, "Qc Tc 8c 2d 6d 7h 9h")],
    )
    assert s.order == (1, 3, 2)
    assert [p.net for p in s.players] == [-10, 30, -20]
    assert not any(p.dead for p in s.players) and s.banker.net == 0


def test_hcf_16_dead_hand_returns_every_bet_and_pays_no_rake() -> None:
    # Rake 2 per hand (all). Stack 40 + folded seat 1's 5 = 45. Seat 3 wins 30 (royal, raise 2x):
    # 15 left. Seat 2 has 10 + 10 = 20 in play > 15: dead, all returned, no rake.
    # Nets: seat 1 -5 - 2 = -7; seat 3 30 - 2 = 28; seat 2 0. DP holds 15, pays rake 2:
    # 15 - 40 - 2 = -27. House 2 + 2 + 2 = 6. Sum -7 + 28 + 0 - 27 + 6 = 0.
    s = settle(
        CARD_ROOM, 7, dp(DP_AK9, stack=40),
        [hand(1, 5, 0), hand(2, 10, 10, "2c 6c 7c 9d Td 6s 8h"), hand(3, 10, 20, ROYAL)],
        Terms("all", 2),
    )
    one, two, three = s.players
    assert s.order == (1, 3, 2)
    assert two.dead and bets(two) == (0, 0, 0, 0) and two.rake == 0 and two.net == 0
    assert "dead hand" in two.ante.reason
    assert (one.net, three.net, s.banker.net, s.banker.rake, s.house_rake) == (-7, 28, -27, 2, 6)
    check_conserved(s)


def test_hcf_16_bonus_bets_count_in_the_wager_in_play() -> None:
    # The DP holds 20. Ante 10 + Raise 10 = 20 is covered: settled, loses 20 (Q-T-8 < A-K-9).
    s = settle(CARD_ROOM, 7, dp(DP_AK9, stack=20), [hand(1, 10, 10, "Qc Tc 8c 2d 6d 7h 9h")])
    assert not s.players[0].dead and s.players[0].net == -20
    # With a Flush bet of 5 the hand has 25 in play > 20: dead, nothing changes hands.
    s = settle(CARD_ROOM, 7, dp(DP_AK9, stack=20), [hand(1, 10, 10, "Qc Tc 8c 2d 6d 7h 9h", flush=5)])
    assert s.players[0].dead and s.players[0].net == 0 and s.banker.net == 0


def test_hcf_16_a_win_above_the_dp_money_is_cut_straight_flush_first() -> None:
    # Stack 100, wager 40: settled. Wins 10 + 20 + 50 + 500 = 580 > 100: 480 cut from the
    # Straight Flush win: 500 - 480 = 20. Paid 10 + 20 + 50 + 20 = 100.
    s = settle(CARD_ROOM, 7, dp(DP_AK9, stack=100), [hand(1, 10, 20, ROYAL, 5, 5)])
    assert bets(s.players[0]) == (10, 20, 50, 20) and s.banker.net == -100
    assert "the DP had only 100 left" in s.players[0].straight_flush.reason
    # Stack 40 = wager: 540 to cut: Straight Flush 500 -> 0, then Flush 50 -> 10. Paid 40.
    s = settle(CARD_ROOM, 7, dp(DP_AK9, stack=40), [hand(1, 10, 20, ROYAL, 5, 5)])
    assert bets(s.players[0]) == (10, 20, 10, 0) and s.banker.net == -40


def test_hcf_16_shortfall_reaches_the_raise_then_the_ante() -> None:
    from rules.games.high_card_flush.settlement import BetResult, limit_to_bank

    won = [BetResult(10, 10, "a"), BetResult(20, 20, "r"), BetResult(5, -5, "f"), BetResult(5, 30, "s")]
    # net 10 + 20 - 5 + 30 = 55; the DP holds 12: 43 to cut: SF 30 -> 0, Raise 20 -> 7, Ante 10.
    cut = limit_to_bank(won, 12)
    assert [b.result for b in cut] == [10, 7, -5, 0] and sum(b.result for b in cut) == 12


@pytest.mark.parametrize(
    ("mode", "nets", "banker", "house"),
    [
        # bets: seat 1 +30, seat 2 -10 (fold), seat 3 -20; the DP ends with 1000 of its 1000.
        ("all", [25, -15, -25], -5, 20),  # every hand 5, the DP 5: 5 x 4
        ("players", [25, -15, -25], 0, 15),  # 5 x 3 players
        ("dp_only", [30, -10, -20], -5, 5),  # the DP only
    ],
)
def test_hcf_17_rake_modes(mode: str, nets: list[int], banker: int, house: int) -> None:
    s = settle(
        CARD_ROOM, 7, dp(DP_AK9),
        [hand(1, 10, 20, ROYAL), hand(2, 10, 0), hand(3, 10, 10, "Qc Tc 8c 2d 6d 7h 9h")],
        Terms(mode, 5),  # type: ignore[arg-type]
    )
    assert [p.net for p in s.players] == nets
    assert (s.banker.net, s.house_rake) == (banker, house)
    assert s.house_rake == s.banker.rake + sum(p.rake for p in s.players)
    check_conserved(s)


def test_hcf_17_the_dp_rake_only_from_what_the_dp_still_holds() -> None:
    # Stack 30, the royal wins 10 + 20 = 30: the DP holds 0, pays no rake; the player pays 5.
    s = settle(CARD_ROOM, 7, dp(DP_AK9, stack=30), [hand(1, 10, 20, ROYAL)], Terms("all", 5))
    assert (s.players[0].net, s.banker.rake, s.banker.net, s.house_rake) == (25, 0, -30, 5)
    # Stack 33: holds 3, pays 3: net 3 - 33 - 3 = -33; house 5 + 3 = 8.
    s = settle(CARD_ROOM, 7, dp(DP_AK9, stack=33), [hand(1, 10, 20, ROYAL)], Terms("all", 5))
    assert (s.banker.rake, s.banker.net, s.house_rake) == (3, -33, 8)


def test_hcf_17_terms_come_from_the_profile() -> None:
    assert Terms.of(CARD_ROOM) == Terms("all", 0, None)


# Casino: HCF-20 ---------------------------------------------------------------------------


def test_hcf_20_casino_bonus_bets_pay_on_the_own_hand_even_folded() -> None:
    # House: 5-card clubs flush (qualifies). Casino paytables: Flush 5-card 10, 4-card 1;
    # Straight Flush 6-card 1000, 3-card 7.
    # Seat 1 folds a 5-card flush with a 3-card run 8-7-6: Ante -10, Flush 5 x 10 = 50,
    #   Straight Flush 5 x 7 = 35 -> 75.
    # Seat 2 (4-card flush) loses the main bets -10, -10, yet its Flush bet pays 5 x 1 = 5;
    #   no run: -5 -> -20.
    # Seat 5 (6-card run K-8 of spades) beats the house: +10, +30 (3x), SF 10 x 1000 = 10,000
    #   in full (the house's money has no limit) -> 10,040.
    # House: -(75 - 20 + 10,040) = -10,095. Order by seat, no rake.
    s = settle(
        CASINO, 7, BankerHand(parse_cards("Ac Qc 9c 6c 3c 2s 4h")),
        [
            hand(5, 10, 30, "Ks Qs Js Ts 9s 8s Ad", sf=10),
            hand(1, 10, 0, "8d 7d 6d Td Jd Kc 2c", flush=5, sf=5),
            hand(2, 10, 10, "Qh Th 8h 6h 2d 3s 7s", flush=5, sf=5),
        ],
    )
    five, one, two = s.players
    assert bets(one) == (-10, 0, 50, 35) and one.net == 75
    assert bets(two) == (-10, -10, 5, -5) and two.net == -20
    assert bets(five) == (10, 30, 0, 10_000) and five.net == 10_040
    assert s.banker.net == -10_095 and s.banker.seat is None
    assert s.order == (1, 2, 5) and s.house_rake == 0 and not any(p.dead for p in s.players)
    check_conserved(s)


def test_hcf_20_house_does_not_qualify_ante_wins_raise_pushes() -> None:
    s = settle(CASINO, 7, BankerHand(parse_cards(DP_864)), [hand(1, 10, 10, "As Ks Ad Qd 7c 5c Jh")])
    assert bets(s.players[0]) == (10, 0, 0, 0) and s.banker.net == -10 and s.banker.qualified is False


def test_hcf_20_seven_card_straight_flush_pays_the_top_line() -> None:
    # A-2-3-4-5-6-7 of spades: a 7-card run (ace low): 1 x 8000; and a 7-card flush: 1 x 300.
    s = settle(CASINO, 7, BankerHand(None), [hand(1, 5, 0, "As 2s 3s 4s 5s 6s 7s", flush=1, sf=1)])
    assert bets(s.players[0]) == (-5, 0, 300, 8000)


def test_hcf_20_a_straight_flush_bet_without_a_run_says_so() -> None:
    # Seat 2 above: 4-card heart flush Q-T-8-6, no run of three: the Straight Flush bet of 5 loses.
    s = settle(CASINO, 7, BankerHand(parse_cards("Ac Qc 9c 6c 3c 2s 4h")),
               [hand(2, 10, 10, "Qh Th 8h 6h 2d 3s 7s", flush=5, sf=5)])
    assert s.players[0].straight_flush.reason == "Straight Flush bet: no straight flush — loses 5"


def test_settlement_value_objects_are_frozen() -> None:
    s = settle(CARD_ROOM, 7, dp(None), [hand(2, 10, 0)])
    with pytest.raises(AttributeError):
        s.players[0].rake = 1  # type: ignore[misc]




def _plain_run(mask: int) -> tuple[int, int]:
    """(length, top rank) of the longest run in a suit, read off the rule directly."""
    positions = {r + 1 for r in range(13) if mask >> r & 1} | ({0} if mask >> 12 & 1 else set())
    best = (0, -1)
    for top in positions:
        n = 0
        while top - n in positions:
            n += 1
        best = max(best, (min(n, 13), top))  # the ace plays once: 13 ranks at most
    length, top = best
    return (length, 12 if top == 0 else top - 1) if length else (0, 0)


def test_hcf_12_run_table_matches_a_plain_reading_for_every_suit_holding() -> None:
    for mask in range(1 << 13):
        key = RUN_KEYS[mask]
        assert (key >> 4, key & 0xF) == _plain_run(mask), bin(mask)
