"""The card layer: parsing (C-1), display order (C-7), the shoe and its shuffle (C-3)."""

from __future__ import annotations

import itertools
import random
import secrets

import pytest

from rules.cards import (
    DECK,
    Card,
    Rank,
    Shoe,
    Suit,
    card_texts,
    ensure_distinct,
    fisher_yates,
    format_cards,
    parse_card,
    parse_cards,
    sort_cards,
)
from rules.errors import BadCards, RulesError

TEN_OF_HEARTS = Card(Rank.TEN, Suit.HEARTS)
ACE_OF_SPADES = Card(Rank.ACE, Suit.SPADES)


# --- C-1: parsing -------------------------------------------------------------------------


@pytest.mark.parametrize("token", ["Th", "10h", "th", "TH", "tH", "10H", "T♥", "10♥"])
def test_c_1_ten_is_t_or_10_in_any_case(token: str) -> None:
    assert parse_card(token) == TEN_OF_HEARTS


@pytest.mark.parametrize("token", ["As", "as", "AS", "aS", "A♠", "a♠"])
def test_c_1_rank_and_suit_letters_are_case_insensitive(token: str) -> None:
    assert parse_card(token) == ACE_OF_SPADES


@pytest.mark.parametrize(
    ("token", "suit"),
    [("K♠", Suit.SPADES), ("K♥", Suit.HEARTS), ("K♦", Suit.DIAMONDS), ("K♣", Suit.CLUBS)],
)
def test_c_1_suit_symbols_are_accepted(token: str, suit: Suit) -> None:
    assert parse_card(token) == Card(Rank.KING, suit)


def test_c_1_every_card_reads_back_from_its_own_text_and_pretty_form() -> None:
    assert len(DECK) == 52
    assert len(set(DECK)) == 52
    for card in DECK:
        assert parse_card(card.text) == card
        assert parse_card(card.pretty) == card
        assert DECK[card.index] is card


def test_c_1_text_is_rank_then_suit_and_pretty_uses_the_symbol() -> None:
    card = Card(Rank.ACE, Suit.HEARTS)
    assert card.text == "Ah"
    assert card.pretty == "A♥"
    assert Card(Rank.TEN, Suit.DIAMONDS).text == "Td"
    assert Card(Rank.TWO, Suit.CLUBS).text == "2c"
    assert str(card) == "Ah"


def test_c_1_parse_cards_reads_a_space_separated_list() -> None:
    assert parse_cards("Ah 10d  2c") == (
        Card(Rank.ACE, Suit.HEARTS),
        Card(Rank.TEN, Suit.DIAMONDS),
        Card(Rank.TWO, Suit.CLUBS),
    )
    assert parse_cards("") == ()


@pytest.mark.parametrize(
    ("token", "words"),
    [
        ("1h", ["'1h'", "rank"]),
        ("11h", ["'11h'"]),
        ("Zs", ["'Zs'", "rank"]),
        ("Ax", ["'Ax'", "suit"]),
        ("A1", ["'A1'", "suit"]),
        ("", ["''"]),
        ("A", ["'A'"]),
        ("Ahh", ["'Ahh'", "too long"]),
        ("10hh", ["'10hh'", "too long"]),
    ],
)
def test_c_1_a_bad_token_is_a_bad_cards_error_naming_it(token: str, words: list[str]) -> None:
    with pytest.raises(BadCards) as caught:
        parse_card(token)
    message = str(caught.value)
    for word in words:
        assert word in message


def test_c_1_a_bad_token_inside_a_list_is_named() -> None:
    with pytest.raises(BadCards, match="'Xq'"):
        parse_cards("Ah Kd Xq 2c")


def test_c_1_bad_cards_is_a_rules_error() -> None:
    assert issubclass(BadCards, RulesError)


def test_c_1_card_text_must_be_a_string() -> None:
    with pytest.raises(BadCards):
        parse_cards(["Ah"])  # type: ignore[arg-type]


# --- duplicates -------------------------------------------------------------------------


def test_c_1_parse_cards_rejects_a_repeated_card_naming_it() -> None:
    with pytest.raises(BadCards, match="duplicate card Ah"):
        parse_cards("Ah Kd ah")


def test_c_1_ten_written_two_ways_is_still_a_duplicate() -> None:
    with pytest.raises(BadCards, match="duplicate card Th"):
        parse_cards("Th 9c 10h")


def test_c_1_duplicates_allowed_only_when_asked() -> None:
    assert parse_cards("Ah Ah", distinct=False) == (Card(Rank.ACE, Suit.HEARTS),) * 2


def test_c_1_ensure_distinct_names_the_first_repeated_card() -> None:
    ensure_distinct(DECK)
    with pytest.raises(BadCards, match="duplicate card 2c"):
        ensure_distinct(parse_cards("2c 3c 2c 3c", distinct=False))


# --- C-7: display order -----------------------------------------------------------------


def test_c_7_cards_are_listed_by_descending_rank_then_suit_s_h_d_c() -> None:
    cards = parse_cards("2c Ah 2s Ad Kh 2h 2d")
    # ranks A A K 2 2 2 2; the aces h before d, the deuces s h d c
    assert format_cards(cards) == "Ah Ad Kh 2s 2h 2d 2c"
    assert card_texts(sort_cards(cards)) == ["Ah", "Ad", "Kh", "2s", "2h", "2d", "2c"]


def test_c_7_equal_ranks_follow_suit_order_not_input_order() -> None:
    assert format_cards(parse_cards("Qc Qd Qh Qs")) == "Qs Qh Qd Qc"


def test_c_7_display_with_symbols() -> None:
    assert format_cards(parse_cards("2c Ah Td"), symbols=True) == "A♥ T♦ 2♣"


def test_c_7_format_keeps_a_playing_order_when_asked() -> None:
    wheel = parse_cards("5s 4s 3s 2s As")
    assert format_cards(wheel, sort=False) == "5s 4s 3s 2s As"


def test_c_7_the_whole_deck_sorted() -> None:
    ordered = sort_cards(reversed(DECK))
    assert card_texts(ordered[:5]) == ["As", "Ah", "Ad", "Ac", "Ks"]
    assert card_texts(ordered[-2:]) == ["2d", "2c"]
    assert len(ordered) == 52


# --- C-3: the shoe ----------------------------------------------------------------------


def test_c_3_a_shoe_holds_the_52_distinct_cards() -> None:
    shoe = Shoe.seeded_with(1)
    assert shoe.remaining == 52
    cards = shoe.deal(52)
    assert len(cards) == 52
    assert set(cards) == set(DECK)
    assert shoe.remaining == 0


def test_c_3_dealing_takes_cards_from_the_top_in_order() -> None:
    shoe = Shoe.seeded_with(2)
    stub = shoe.peek_rest()
    first = shoe.deal(7)
    # 7 dealt of 52 leaves 45
    assert len(first) == 7
    assert shoe.remaining == 45
    assert first == stub[:7]
    assert shoe.deal_one() == stub[7]
    assert shoe.deal(0) == ()
    assert shoe.remaining == 44
    assert shoe.peek_rest() == stub[8:]


def test_c_3_seven_hands_of_seven_leave_three() -> None:
    shoe = Shoe.seeded_with(3)
    hands = [shoe.deal(7) for _ in range(7)]
    # HCF: 7 hands x 7 cards = 49 cards; 52 - 49 = 3 left
    assert shoe.remaining == 3
    dealt = [card for hand in hands for card in hand]
    assert len(set(dealt)) == 49


def test_c_3_dealing_past_the_end_is_refused_and_deals_nothing() -> None:
    shoe = Shoe.seeded_with(4)
    shoe.deal(50)
    with pytest.raises(BadCards, match="cannot deal 3 cards: 2 left"):
        shoe.deal(3)
    assert shoe.remaining == 2
    assert len(shoe.deal(2)) == 2
    with pytest.raises(BadCards):
        shoe.deal_one()


def test_c_3_a_negative_count_is_refused() -> None:
    shoe = Shoe.seeded_with(5)
    with pytest.raises(BadCards):
        shoe.deal(-1)
    assert shoe.remaining == 52


def test_c_3_shuffle_puts_every_card_back() -> None:
    shoe = Shoe.seeded_with(6)
    shoe.deal(40)
    shoe.shuffle()
    assert shoe.remaining == 52
    assert set(shoe.deal(52)) == set(DECK)


def test_c_3_a_seeded_shoe_is_reproducible_and_marked_seeded() -> None:
    one, two, other = Shoe.seeded_with(42), Shoe.seeded_with(42), Shoe.seeded_with(43)
    assert one.seeded and two.seeded and other.seeded
    assert one.deal(52) == two.deal(52)
    assert Shoe.seeded_with(42).deal(52) != other.deal(52)
    assert Shoe.seeded_with("table-3 round 17").deal(5) == Shoe.seeded_with(
        "table-3 round 17"
    ).deal(5)


def test_c_3_a_seeded_shoe_is_actually_shuffled() -> None:
    assert Shoe.seeded_with(7).deal(52) != DECK


class _RecordingSystemRandom(random.Random):
    """Stands in for `secrets.SystemRandom` and records that the shoe built and used it."""

    created = 0
    draws = 0

    def __init__(self) -> None:
        super().__init__(0)
        type(self).created += 1

    def randrange(self, *args: int) -> int:  # type: ignore[override]
        type(self).draws += 1
        return super().randrange(*args)


def test_c_3_live_shoe_uses_the_system_cryptographic_generator(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(secrets, "SystemRandom", _RecordingSystemRandom)
    _RecordingSystemRandom.created = _RecordingSystemRandom.draws = 0
    shoe = Shoe()
    assert shoe.seeded is False
    assert _RecordingSystemRandom.created == 1
    # Fisher-Yates over 52 cards draws once for each of positions 51..1: 51 draws
    assert _RecordingSystemRandom.draws == 51
    assert set(shoe.deal(52)) == set(DECK)


def test_c_3_live_shoe_without_patching_is_unseeded_and_complete() -> None:
    shoe = Shoe()
    assert shoe.seeded is False
    assert set(shoe.deal(52)) == set(DECK)


# --- C-3: Fisher-Yates is unbiased -------------------------------------------------------

# Chi-square critical value for 23 degrees of freedom (24 permutations of 4 cards) at
# p = 0.001 is 49.73 (standard table); a fair shuffle exceeds it one time in a thousand.
CHI_SQUARE_23_P001 = 49.73
SHUFFLES = 24_000  # 1,000 expected per permutation


def _chi_square_of_permutations(shuffle: object, seed: int) -> float:
    four = list(DECK[:4])
    counts = {perm: 0 for perm in itertools.permutations(four)}
    rng = random.Random(seed)
    for _ in range(SHUFFLES):
        items = list(four)
        shuffle(items, rng)  # type: ignore[operator]
        counts[tuple(items)] += 1
    expected = SHUFFLES / len(counts)
    return sum((n - expected) ** 2 / expected for n in counts.values())


def _naive_shuffle(items: list[Card], rng: random.Random) -> None:
    """The classic biased shuffle: swap each position with any position."""
    n = len(items)
    for i in range(n):
        j = rng.randrange(n)
        items[i], items[j] = items[j], items[i]


def test_c_3_fisher_yates_gives_every_permutation_equally_often() -> None:
    statistic = _chi_square_of_permutations(fisher_yates, seed=20240601)
    assert statistic < CHI_SQUARE_23_P001


def test_c_3_the_uniformity_check_does_catch_a_biased_shuffle() -> None:
    # 4^4 = 256 equally likely swap paths over 24 permutations cannot be uniform
    # (256 is not a multiple of 24); at 24,000 shuffles the statistic is in the hundreds.
    statistic = _chi_square_of_permutations(_naive_shuffle, seed=20240601)
    assert statistic > CHI_SQUARE_23_P001


def test_c_3_fisher_yates_keeps_the_cards() -> None:
    cards = list(DECK)
    fisher_yates(cards, random.Random(9))
    assert sorted(cards, key=lambda c: c.index) == list(DECK)
    assert cards != list(DECK)
