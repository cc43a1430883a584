"""The Chinese Poker setting helper (CP-2..CP-4, CP-9): every legal setting of 13 cards, and the
suggested one — never fouled, naming a natural when the cards hold one."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.cards import DECK, Card, parse_cards, sort_cards
from rules.errors import BadCards
from rules.evaluator import encode, hand_value
from rules.games.chinese_poker.rules import Natural, SetHand, foul_reason
from rules.games.chinese_poker.setting import SPLITS, legal_settings, suggest

Key = tuple[int, int, int]


def mask(cards: tuple[Card, ...]) -> int:
    return sum(1 << c.index for c in cards)


def key(h: SetHand) -> Key:
    return mask(h.front), mask(h.middle), mask(h.back)


def brute_force(cards: tuple[Card, ...]) -> set[Key]:
    """Every split tried one at a time: CP-3 read directly as back >= middle > front on the
    shared evaluator's values, a 3-card front comparing with a 5-card middle by C-6."""
    codes = encode(cards)
    found: set[Key] = set()
    positions = range(13)
    for back in combinations(positions, 5):
        vb = hand_value([codes[i] for i in back])
        rest = [i for i in positions if i not in back]
        for middle in combinations(rest, 5):
            vm = hand_value([codes[i] for i in middle])
            front = [i for i in rest if i not in middle]
            if vb >= vm > hand_value([codes[i] for i in front]):
                found.add(tuple(sum(1 << cards[i].index for i in row) for row in (front, middle, back)))  # type: ignore[misc]
    return found


def test_cp_2_there_are_72072_splits_of_13_cards() -> None:
    # 13! / (3! 5! 5!) = 6,227,020,800 / (6 x 120 x 120 = 86,400) = 72,072.
    assert SPLITS == 72_072


def test_cp_3_enumeration_finds_exactly_the_legal_settings() -> None:
    hand = parse_cards("Ah Ad Kc Ks Qh Qd 7c 7s 4h 4d 2c 2s 9s")  # six pairs: many equal rows
    legal = legal_settings(hand)
    found = [key(h) for h in legal.settings()]
    assert len(found) == len(set(found))  # no setting twice
    assert set(found) == brute_force(hand)


def test_cp_3_enumeration_on_a_seeded_deal_and_rows_in_c7_order() -> None:
    rng = random.Random(2024)
    deck = list(DECK)
    rng.shuffle(deck)
    hand = tuple(deck[:13])
    legal = legal_settings(hand)
    assert {key(h) for h in legal.settings()} == brute_force(hand)
    first = legal.setting(0)
    assert all(list(row) == sort_cards(row) for row in first.rows)


def test_c_7_a_wheel_row_is_shown_from_the_five_down() -> None:
    cards = parse_cards("As 2d 3c 4h 5s Kh Kd 9c 9s 7h 8d Jc Qd")
    wheel = mask(parse_cards("As 2d 3c 4h 5s"))
    settings_ = legal_settings(cards).settings()
    back = next(h.back for h in settings_ if mask(h.back) == wheel)
    assert [c.text for c in back] == ["5s", "4h", "3c", "2d", "As"]


def test_cp_3_enumeration_keeps_a_back_equal_to_the_middle() -> None:
    # Two 9-high straights: either may be the back, as back == middle is legal (CP-3).
    legal = {key(h) for h in legal_settings(parse_cards("9s 8h 7d 6c 5s 9h 8d 7c 6s 5h 2c 3d 4h")).settings()}
    assert key(SetHand.parse("2c 3d 4h", "9s 8h 7d 6c 5s", "9h 8d 7c 6s 5h")) in legal
    assert key(SetHand.parse("2c 3d 4h", "9h 8d 7c 6s 5h", "9s 8h 7d 6c 5s")) in legal


def test_cp_3_suggest_keeps_a_setting_that_is_best_in_every_row() -> None:
    # Royal flush, four nines and three deuces (+ 3h): back royal, middle quads, front trips is
    # the highest back, the highest middle beneath it and the highest front beneath that; no
    # legal setting has a better row anywhere (front 9-9-9 would need a middle above trips 9).
    cards = parse_cards("As Ks Qs Js Ts 9h 9d 9c 9s 2h 2d 2c 3h")
    s = suggest(cards)
    assert key(s.hand) == key(SetHand.parse("2h 2d 2c", "9s 9h 9d 9c 3h", "As Ks Qs Js Ts"))
    assert s.natural is None


def test_cp_9_suggest_names_a_dragon() -> None:
    s = suggest(parse_cards("2c Ah 7d Kd 9s Qc 3h Js 4s Td 5c 8h 6d"))
    assert s.natural is Natural.DRAGON and s.natural_hand == s.hand
    assert "dragon: declare it to collect 13 from each player" in s.reason


def test_cp_9_suggest_names_six_pairs() -> None:
    s = suggest(parse_cards("Ah Ad Kc Ks Qh Qd 7c 7s 4h 4d 2c 2s 9s"))
    assert s.natural is Natural.SIX_PAIRS


def test_cp_9_suggest_names_three_flushes_and_shows_them() -> None:
    # Eight clubs and five diamonds: clubs front, diamonds middle, clubs back.
    s = suggest(parse_cards("2c 3c 5c 2d 3d 5d 9d Jd 4c 6c 8c Tc Qc"))
    assert s.natural is Natural.THREE_FLUSHES
    assert s.natural_hand is not None
    assert [len({c.suit for c in row}) for row in s.natural_hand.rows] == [1, 1, 1]
    assert s.natural_hand.sizes == (3, 5, 5)


def test_cp_9_suggest_names_three_straights_and_shows_them() -> None:
    s = suggest(parse_cards("Qd Kc Ah 4s 5h 6d 7c 8s 9h Td Jc Qs Kh"))
    assert s.natural is Natural.THREE_STRAIGHTS
    assert s.natural_hand is not None
    # The only way: 4-5-6-7-8 and 9-T-J-Q-K as rows of 5, Q-K-A in front.
    assert sorted(c.rank for c in s.natural_hand.front) == [10, 11, 12]
    for row in (s.natural_hand.middle, s.natural_hand.back):
        ranks = sorted(c.rank for c in row)
        assert ranks == list(range(ranks[0], ranks[0] + 5))


def test_cp_9_no_natural_reported_when_there_is_none() -> None:
    # Five pairs, no flush or straight arrangement (four suits, gaps).
    s = suggest(parse_cards("Ah Ad Kc Ks Qh Qd 7c 7s 4h 4d 2c 9s 6d"))
    assert s.natural is None and s.natural_hand is None


def test_cp_9_two_five_card_flushes_without_a_three_card_one_are_no_natural() -> None:
    # Five spades, five hearts, then 4d Kc Ad: no front of one suit is left, so no three flushes.
    s = suggest(parse_cards("2s 5s 7s 9s Js 2h 6h 8h Th Qh 4d Kc Ad"))
    assert s.natural is None


def test_setting_helper_needs_13_distinct_cards() -> None:
    with pytest.raises(BadCards, match="13 cards, got 12"):
        legal_settings(parse_cards("Ah Kd Qc Js 9h 8d 7c 6s 4h 3d 2c 5s"))
    with pytest.raises(BadCards, match="13 cards, got 14"):
        suggest(parse_cards("Ah Kd Qc Js 9h 8d 7c 6s 4h 3d 2c 5s Tc Td"))


def test_setting_helper_duplicate_card_is_refused() -> None:
    with pytest.raises(BadCards, match="duplicate card Ah"):
        suggest(parse_cards("Ah Kd Qc Js 9h 8d 7c 6s 4h 3d 2c 5s Ah", distinct=False))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.permutations(DECK))
def test_cp_4_suggest_never_fouls_and_legal_settings_are_legal(deck: list[Card]) -> None:
    cards = tuple(deck[:13])
    s = suggest(cards)
    assert foul_reason(s.hand) is None
    assert sorted(s.hand.cards, key=lambda c: c.index) == sorted(cards, key=lambda c: c.index)
    legal = legal_settings(cards)
    rng = random.Random(len(legal))
    for i in rng.sample(range(len(legal)), 20):
        assert foul_reason(legal.setting(i)) is None
