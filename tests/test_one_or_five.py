"""Poker "1 or 5" rules (docs/rules.md R-1..R-12) through the typed API of `rules.games.one_or_five.rules`.

Every expected amount is worked out by hand from docs/rules.md and the shipped profile
(paytables/one-or-five.yaml: odds ace-king 1, one pair 1, two pair 2, three of a kind 3,
straight 4, flush 5, full house 7, four of a kind 20, straight flush 50, royal flush 100;
exchange fee 1x Ante; Ante 5-500; 6 boxes; insurance from a straight; two pair Ante unpaid).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.cards import DECK, Card, parse_cards
from rules.errors import BadCards, IllegalAction
from rules.games.one_or_five.profile import OneOrFiveProfile
from rules.games.one_or_five.rules import (
    Action,
    BoxPlay,
    BoxResult,
    CardSource,
    ante_problem,
    box_commitment,
    can_insure,
    draw_for_exchange,
    exchange,
    exchange_problem,
    exchange_stakes_problem,
    hand_of,
    held_beyond,
    insurance_bounds,
    settle,
    verify_exchange,
    verify_insurance,
)
from rules.profiles.loader import ProfileLibrary
from tests.reference_rules import settle_one_or_five

PROFILE = ProfileLibrary().find("one-or-five").profile
assert isinstance(PROFILE, OneOrFiveProfile)

ACE_KING_DEALER = "Ah Kd 7c 5s 2h"   # the docs/settle.md dealer: ace-king, the weakest game
NO_GAME_DEALER = "Ah Qd Jc 4s 2h"    # ace-queen high: no game


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def with_(**changes: Any) -> OneOrFiveProfile:
    """The shipped profile with some options changed."""
    return PROFILE.model_copy(update=changes)


def play(text: str, action: Action = Action.BET, ante: int = 10, exchanged: int = 0,
         insurance: int = 0, box: int = 1) -> BoxPlay:
    return BoxPlay(box, ante, action, cards(text), exchanged, insurance)


def one_box(dealer: str, box: BoxPlay, profile: OneOrFiveProfile = PROFILE) -> BoxResult:
    result = settle(profile, cards(dealer), [box])
    assert result.dealer_net == -result.boxes[0].net
    return result.boxes[0]


def results(box: BoxResult) -> tuple[int, int, int, int, int]:
    """(ante, bet, exchange, insurance, net)."""
    return box.ante.result, box.bet.result, box.exchange.result, box.insurance.result, box.net


# ------------------------------------------------------------------------ hands

@pytest.mark.parametrize("text", ["Ah Kd 7c 5s", "Ah Kd 7c 5s 2h 3h"])
def test_r_1_a_hand_is_exactly_five_cards(text: str) -> None:
    with pytest.raises(BadCards, match="5 cards"):
        hand_of(cards(text))


def test_r_1_a_hand_has_five_different_cards() -> None:
    with pytest.raises(BadCards, match="duplicate card Ah"):
        hand_of(parse_cards("Ah Kd 7c Ah 2h", distinct=False))


@pytest.mark.parametrize(("text", "name", "qualifies"), [
    ("Ah Kd 7c 5s 2h", "ace-king", True),          # unpaired, holds an Ace and a King
    ("Ah Kd 4c 3s 2h", "ace-king", True),          # the lowest ace-king still qualifies
    ("Ah Qd Jc 9s 2h", "high card", False),        # ace-queen: no game
    ("Kh Qd Jc 9s 7h", "high card", False),        # king-high without an ace: no game
    ("2h 2d 7c 5s 9h", "one pair", True),          # the lowest pair qualifies
    ("Ah Kd Ac 5s 2h", "one pair", True),          # A-K with a pair is a pair, not ace-king
    ("Ah Kd Qc Js Th", "straight", True),          # A-K-Q-J-T is a straight
    ("5h 4d 3c 2s Ah", "straight", True),          # the wheel
    ("Ah Kh 7h 5h 2h", "flush", True),             # suited A-K is a flush
    ("Kh Qh Jh Th 9h", "straight flush", True),
    ("Ah Kh Qh Jh Th", "royal flush", True),
])
def test_r_5_dealer_qualifies_with_ace_king_or_better(text: str, name: str,
                                                      qualifies: bool) -> None:
    hand = hand_of(cards(text))
    assert (hand.name, hand.qualifies) == (name, qualifies)


# -------------------------------------------------------------------------------

def test_r_2_close_the_box_is_a_bet_of_twice_the_ante() -> None:
    assert play("Jh Jd 9c 6s 3h", ante=15).bet == 30  # 2 x 15
    assert play("Jh Jd 9c 6s 3h", Action.FOLD, ante=15).bet == 0


def test_r_2_pass_loses_the_ante_whatever_the_hands() -> None:
    # A royal flush passed against a dealer with no game: only the Ante, -10, moves.
    box = one_box(NO_GAME_DEALER, play("As Ks Qs Js Ts", Action.FOLD))
    assert results(box) == (-10, 0, 0, 0, -10)


# -------------------------------------------------------------------------

def test_r_3_exchange_fee_is_one_ante_and_never_returned() -> None:
    # No game: Ante +25 (1:1), Bet returned, fee -25 (1 x 25) stays lost: net 0.
    box = one_box(NO_GAME_DEALER, play("Kh 8d 6c 5h 3h", ante=25, exchanged=5))
    assert results(box) == (25, 0, -25, 0, 0)
    # Stay (identical ranks): Ante and Bet returned, the fee -10 still lost.
    box = one_box("9h 9d 7c 5s 2h", play("9s 9c 7d 5h 2c", exchanged=1))
    assert results(box) == (0, 0, -10, 0, -10)


def test_r_3_fee_in_antes_comes_from_the_profile() -> None:
    # fee 2 antes: 2 x 10 = 20; passed box: Ante -10, fee -20, net -30.
    box = one_box(ACE_KING_DEALER, play("Jh Jd 9c 6s 3h", Action.FOLD, exchanged=1),
                  with_(exchange=PROFILE.exchange.model_copy(update={"fee": 2})))
    assert results(box) == (-10, 0, -20, 0, -30)


def test_r_3_exchange_counts_come_from_the_profile() -> None:
    assert [n for n in range(6) if exchange_problem(PROFILE, n) is None] == [0, 1, 5]
    three = with_(exchange=PROFILE.exchange.model_copy(update={"counts": [1, 2, 3]}))
    assert [n for n in range(6) if exchange_problem(three, n) is None] == [0, 1, 2, 3]


def test_r_3_one_exchange_per_box() -> None:
    with pytest.raises(IllegalAction, match="Box 2 has already exchanged"):
        verify_exchange(PROFILE, 2, 1, open_box=True, exchanged_before=True)


def test_r_3_only_one_or_five_cards() -> None:
    with pytest.raises(IllegalAction, match="2 cards may not be exchanged"):
        verify_exchange(PROFILE, 1, 2, open_box=True, exchanged_before=False)
    verify_exchange(PROFILE, 1, 5, open_box=True, exchanged_before=False)


def test_r_4_only_the_open_box_exchanges() -> None:
    with pytest.raises(IllegalAction, match="Box 3 is not the player's open box"):
        verify_exchange(PROFILE, 3, 1, open_box=False, exchanged_before=False)


def test_r_3_exchange_swaps_the_discards_for_the_top_of_the_stub() -> None:
    source = CardSource(cards("Qs Jd 3c"))
    done = exchange(PROFILE, 1, 10, cards("As Ks 7c 5s 2h"), cards("2h"), source,
                    random.Random(0), open_box=True, exchanged_before=False)
    assert done.cards == cards("As Ks 7c 5s Qs")  # 2h out, Qs (top of the stub) in
    assert done.fee == 10  # 1 x 10
    assert done.source == CardSource(cards("Jd 3c"), cards("2h"))
    assert not done.reshuffled


def test_r_3_exchange_of_a_card_the_box_does_not_hold_is_refused() -> None:
    with pytest.raises(IllegalAction, match="does not hold 3d"):
        exchange(PROFILE, 1, 10, cards("As Ks 7c 5s 2h"), cards("3d"), CardSource(cards("Qs")),
                 random.Random(0), open_box=True, exchanged_before=False)


# -------------------------------------------------------------------------------

def test_r_11_stub_first_then_the_exchanged_out_cards_shuffled() -> None:
    source = CardSource(cards("Qs"), cards("3c 4c 5c 6c"))
    drawn, left, reshuffled = draw_for_exchange(source, 3, random.Random(7))
    assert reshuffled and drawn[0] == cards("Qs")[0]       # the last stub card first
    assert len(set(drawn[1:])) == 2 and set(drawn[1:]) <= set(cards("3c 4c 5c 6c"))
    assert set(left.stub) == set(cards("3c 4c 5c 6c")) - set(drawn)  # the rest is the new stub
    assert left.exchanged_out == ()


def test_r_11_the_exchanged_out_cards_are_really_shuffled() -> None:
    pile = CardSource((), cards("3c 4c 5c 6c"))
    firsts = {draw_for_exchange(pile, 1, random.Random(seed))[0] for seed in range(20)}
    assert len(firsts) > 1


def test_r_11_a_box_never_draws_back_what_it_just_gave_up() -> None:
    for seed in range(20):
        done = exchange(PROFILE, 1, 10, cards("As Ks 7c 5s 2h"), cards("2h"),
                        CardSource((), cards("3c 4c")), random.Random(seed),
                        open_box=True, exchanged_before=False)
        assert done.drawn[0] in cards("3c 4c") and done.source.exchanged_out == cards("2h")


def test_r_11_not_enough_cards_for_the_exchange() -> None:
    with pytest.raises(IllegalAction, match="Not enough cards"):
        draw_for_exchange(CardSource(cards("Qs"), cards("3c")), 5, random.Random(0))


# -------------------------------------------------------------------------------

def test_r_6_no_game_pays_every_closed_ante_and_returns_the_bet() -> None:
    result = settle(PROFILE, cards(NO_GAME_DEALER),
                    [play("Kh 8d 6c 5h 3h"), play("9s 9c 7d 5d 2c", Action.FOLD, box=2)])
    assert not result.qualified
    # box 1 (king-high, lower than the dealer) still wins its Ante: +10, Bet 0
    assert results(result.boxes[0]) == (10, 0, 0, 0, 10)
    assert results(result.boxes[1]) == (-10, 0, 0, 0, -10)  # the passed box loses its Ante
    assert result.dealer_net == 0  # -(10 - 10)


# -------------------------------------------------------------------------------

def test_r_7_dealer_higher_ante_and_bet_lose() -> None:
    # dealer nines beat the box's eights: Ante -10, Bet -20 (2 x 10), net -30
    box = one_box("9h 9d 7c 5s 2h", play("8h 8d Ac Ks Qh"))
    assert results(box) == (-10, -20, 0, 0, -30)


def test_r_7_identical_ranks_stay() -> None:
    box = one_box("9h 9d 7c 5s 2h", play("9s 9c 7d 5h 2c"))
    assert results(box) == (0, 0, 0, 0, 0)
    assert "Stay" in box.bet.reason


def test_r_7_suits_never_break_ties() -> None:
    box = one_box("Ah Jh 8h 6h 3h", play("As Js 8s 6s 3s"))  # same flush ranks, other suit
    assert results(box) == (0, 0, 0, 0, 0)


def test_r_7_one_pair_wins_bet_by_paytable_and_ante_even_money() -> None:
    # one pair beats ace-king: Bet 20 x 1 = 20, Ante 10 x 1 = 10, net 30
    box = one_box(ACE_KING_DEALER, play("Jh Jd 9c 6s 3h"))
    assert results(box) == (10, 20, 0, 0, 30)


def test_r_7_two_pair_ante_returned_unpaid() -> None:
    # two pair: Bet 20 x 2 = 40, Ante returned unpaid (0), net 40
    box = one_box(ACE_KING_DEALER, play("Qs Qd 4c 4h 9s"))
    assert results(box) == (0, 40, 0, 0, 40)
    assert box.ante.reason == "Ante: returned unpaid — two pair is paid without the Ante (R-7)"


def test_r_7_ante_unpaid_hands_come_from_the_profile() -> None:
    # no unpaid hands: two pair pays the Ante 1:1 too: 10 + 40 = 50
    box = one_box(ACE_KING_DEALER, play("Qs Qd 4c 4h 9s"), with_(ante_unpaid_hands=[]))
    assert results(box) == (10, 40, 0, 0, 50)
    # one pair listed: Ante 0, Bet 20 x 1 = 20
    box = one_box(ACE_KING_DEALER, play("Jh Jd 9c 6s 3h"), with_(ante_unpaid_hands=["one pair"]))
    assert results(box) == (0, 20, 0, 0, 20)


def test_r_7_ace_king_beats_a_lower_ace_king_by_ranks() -> None:
    # A-K-Q-J-9 over A-K-7-5-2: Bet 20 x 1 (ace-king odds) = 20, Ante +10, net 30
    box = one_box(ACE_KING_DEALER, play("As Kc Qd Jh 9s"))
    assert box.hand.name == "ace-king"
    assert results(box) == (10, 20, 0, 0, 30)


def test_r_7_ace_king_loses_to_a_higher_ace_king() -> None:
    box = one_box("As Kc Qd Jh 9s", play(ACE_KING_DEALER))
    assert results(box) == (-10, -20, 0, 0, -30)


def test_r_7_ace_king_against_identical_ace_king_stays() -> None:
    box = one_box(ACE_KING_DEALER, play("As Kc 7d 5h 2c"))
    assert results(box) == (0, 0, 0, 0, 0)


def test_r_7_plain_high_card_never_beats_a_qualified_dealer() -> None:
    # the best hand without an A-K pairing (A-Q-J-T-8) against the lowest ace-king (A-K-4-3-2)
    box = one_box("Ah Kd 4c 3s 2h", play("As Qc Jd Th 8s"))
    assert results(box) == (-10, -20, 0, 0, -30)


# -------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "ante", "bet"), [
    ("As Kc Qd Jh 9s", 10, 20),      # ace-king: 20 x 1
    ("Jh Jd 9c 6s 3h", 10, 20),      # one pair: 20 x 1
    ("Qs Qd 4c 4h 9s", 0, 40),       # two pair: 20 x 2, Ante unpaid
    ("8s 8h 8d Kh 3c", 10, 60),      # three of a kind: 20 x 3
    ("9s 8h 7d 6c 5h", 10, 80),      # straight: 20 x 4
    ("Qc Tc 8c 4c 3c", 10, 100),     # flush: 20 x 5
    ("Js Jc Jd 6h 6d", 10, 140),     # full house: 20 x 7
    ("Ts Th Td Tc 3s", 10, 400),     # four of a kind: 20 x 20
    ("9d 8d 7d 6d 5d", 10, 1000),    # straight flush: 20 x 50
    ("As Ks Qs Js Ts", 10, 2000),    # royal flush: 20 x 100
])
def test_r_8_bet_paytable(text: str, ante: int, bet: int) -> None:
    box = one_box(ACE_KING_DEALER, play(text))
    assert results(box) == (ante, bet, 0, 0, ante + bet)


def test_r_8_flush_reason_shows_the_arithmetic() -> None:
    box = one_box(ACE_KING_DEALER, play("Qc Tc 8c 4c 3c"))
    assert box.bet.reason == "Bet: flush beats the dealer's ace-king — 20 × 5 = 100 (R-7, R-8)"


def test_r_8_max_box_payout_cuts_the_bet_first() -> None:
    # royal flush: Bet 2000 + Ante 10 = 2010 won; cap 1500 -> the Bet loses 510: 1490
    box = one_box(ACE_KING_DEALER, play("As Ks Qs Js Ts"), with_(max_box_payout=1500))
    assert results(box) == (10, 1490, 0, 0, 1500)
    assert "cut by 510" in box.bet.reason


def test_r_8_max_box_payout_then_insurance_then_ante() -> None:
    royal = play("As Ks Qs Js Ts", insurance=1000)  # the largest premium: half of 2000
    # no game: Ante +10, Bet 0, insurance +1000 = 1010 won
    assert results(one_box(NO_GAME_DEALER, royal)) == (10, 0, 0, 1000, 1010)
    # cap 500: 510 to cut, no Bet win, insurance 1000 - 510 = 490, Ante 10
    capped = one_box(NO_GAME_DEALER, royal, with_(max_box_payout=500))
    assert results(capped) == (10, 0, 0, 490, 500)
    # cap 5: 1005 to cut: insurance 1000 -> 0, then Ante 10 - 5 = 5
    assert results(one_box(NO_GAME_DEALER, royal, with_(max_box_payout=5))) == (5, 0, 0, 0, 5)


def test_r_8_max_box_payout_leaves_the_exchange_fee_alone() -> None:
    # straight after an exchange of 1: Bet 80 + Ante 10 = 90 won, cap 50 -> Bet 40; fee -10
    box = one_box(ACE_KING_DEALER, play("9s 8h 7d 6c 5h", exchanged=1), with_(max_box_payout=50))
    assert results(box) == (10, 40, -10, 0, 40)


# -------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "ante", "bounds"), [
    ("9s 8h 7d 6c 5h", 10, (10, 40)),      # straight: half of 20 x 4 = 80
    ("Qc Tc 8c 4c 3c", 25, (25, 125)),     # flush: half of 50 x 5 = 250
    ("As Ks Qs Js Ts", 10, (10, 1000)),    # royal flush: half of 20 x 100 = 2000
])
def test_r_9_premium_from_one_ante_to_half_the_bet_win(text: str, ante: int,
                                                      bounds: tuple[int, int]) -> None:
    assert insurance_bounds(PROFILE, ante, hand_of(cards(text))) == bounds


def test_r_9_insurance_needs_a_closed_box_with_a_straight_or_better() -> None:
    straight, trips = hand_of(cards("9s 8h 7d 6c 5h")), hand_of(cards("8s 8h 8d Kh 3c"))
    assert can_insure(PROFILE, 10, Action.BET, straight)
    assert not can_insure(PROFILE, 10, Action.BET, trips)
    assert not can_insure(PROFILE, 10, Action.FOLD, straight)
    assert not can_insure(with_(insurance=PROFILE.insurance.model_copy(update={"enabled": False})),
                          10, Action.BET, straight)
    flush_up = with_(insurance=PROFILE.insurance.model_copy(update={"min_hand": "flush"}))
    assert not can_insure(flush_up, 10, Action.BET, straight)


@pytest.mark.parametrize(("premium", "allowed"), [(9, False), (10, True), (40, True), (41, False)])
def test_r_9_premium_bounds_are_inclusive(premium: int, allowed: bool) -> None:
    straight = hand_of(cards("9s 8h 7d 6c 5h"))
    if allowed:
        verify_insurance(PROFILE, 1, 10, Action.BET, straight, premium)
    else:
        with pytest.raises(IllegalAction, match="outside 10–40"):
            verify_insurance(PROFILE, 1, 10, Action.BET, straight, premium)


def test_r_9_insurance_pays_one_to_one_when_the_dealer_has_no_game() -> None:
    # Ante +10, Bet returned, insurance +30 (1:1): net 40
    box = one_box(NO_GAME_DEALER, play("9s 8h 7d 6c 5h", insurance=30))
    assert results(box) == (10, 0, 0, 30, 40)


def test_r_9_insurance_lost_when_the_dealer_qualifies_and_the_box_goes_by_r_7() -> None:
    # straight beats ace-king: Bet 20 x 4 = 80, Ante +10, insurance -30: net 60
    box = one_box(ACE_KING_DEALER, play("9s 8h 7d 6c 5h", insurance=30))
    assert results(box) == (10, 80, 0, -30, 60)
    # a dealer flush beats the straight: Ante -10, Bet -20, insurance -30: net -60
    box = one_box("Ah Jh 8h 6h 3h", play("9s 8c 7d 6c 5c", insurance=30))
    assert results(box) == (-10, -20, 0, -30, -60)



# ------------------------------------------------------------------- whole-round checks

def test_settle_refuses_the_round_as_a_whole() -> None:
    with pytest.raises(BadCards, match="duplicate card 9s"):
        settle(PROFILE, cards(NO_GAME_DEALER),
               [play("9s 8h 7d 6c 5h"), play("9s 9c 7c 5h 2c", box=2)])
    with pytest.raises(IllegalAction, match="Box 1 is listed twice"):
        settle(PROFILE, cards(NO_GAME_DEALER), [play("9s 8h 7d 6c 5h"), play("Ks Kc 7c 5d 2c")])
    with pytest.raises(IllegalAction, match="Box 1 insurance: three of a kind cannot be insured"):
        settle(PROFILE, cards(NO_GAME_DEALER), [play("8s 8h 8d Kh 3c", insurance=10)])
    with pytest.raises(IllegalAction, match="Box 1 ante: must be within the table limits 5–500"):
        settle(PROFILE, cards(NO_GAME_DEALER), [play("8s 8h 8d Kh 3c", ante=501)])


BROADWAY = tuple(c for c in DECK if c.rank >= 8)  # T J Q K A: straights, pairs, ace-kings


Round = tuple[OneOrFiveProfile, tuple[Card, ...], list[BoxPlay]]


@st.composite
def rounds(draw: st.DrawFn) -> Round:
    small = draw(st.booleans())
    deck = draw(st.permutations(BROADWAY if small else DECK))
    plays = []
    for i in range(draw(st.integers(1, 3 if small else 6))):
        box_cards = tuple(deck[5 + 5 * i: 10 + 5 * i])
        ante = draw(st.integers(5, 500))
        action = draw(st.sampled_from(list(Action)))
        premium = 0
        hand = hand_of(box_cards)
        if can_insure(PROFILE, ante, action, hand) and draw(st.booleans()):
            premium = draw(st.integers(*insurance_bounds(PROFILE, ante, hand)))
        exchanged = draw(st.sampled_from([0, 1, 5]))
        plays.append(BoxPlay(i + 1, ante, action, box_cards, exchanged, premium))
    cap = draw(st.none() | st.integers(1, 3000))
    return with_(max_box_payout=cap), tuple(deck[:5]), plays


def as_request(dealer: tuple[Card, ...], plays: list[BoxPlay]) -> dict[str, Any]:
    """The round as a `settle` request, for the reference reading of docs/rules.md."""
    return {"dealer": {"cards": " ".join(c.text for c in dealer)},
            "boxes": [{"box": p.box, "ante": p.ante, "action": p.action.value, "exchanged": p.exchanged,
                       "insurance": p.insurance, "cards": " ".join(c.text for c in p.cards)} for p in plays]}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rounds())
def test_c_2_every_round_conserves_chips(round_: Round) -> None:
    """Every bet equals the reference reading of R-5..R-9 (tests/reference_rules.py), and the
    dealer's net, counted from the dealer's side (stakes collected minus winnings paid), is
    minus the boxes' nets."""
    profile, dealer, plays = round_
    result = settle(profile, dealer, plays)
    expected = settle_one_or_five(as_request(dealer, plays), profile.max_box_payout)["boxes"]
    for box, p in zip(result.boxes, plays, strict=True):
        bets = (box.ante, box.bet, box.exchange, box.insurance)
        assert [b.result for b in bets] == expected[p.box]
        assert box.net == sum(expected[p.box])
        assert all(isinstance(b.result, int) and b.result >= -b.stake for b in bets)
        won = sum(max(b.result, 0) for b in bets)
        assert profile.max_box_payout is None or won <= profile.max_box_payout
    results = [r for bets in expected.values() for r in bets]
    collected, paid = sum(-r for r in results if r < 0), sum(r for r in results if r > 0)
    assert result.dealer_net == collected - paid
    assert sum(box.net for box in result.boxes) + result.dealer_net == 0


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rounds())
def test_r_2_settlement_never_pays_a_folded_box(round_: Round) -> None:
    profile, dealer, plays = round_
    for box, p in zip(settle(profile, dealer, plays).boxes, plays, strict=True):
        if p.action is Action.FOLD:
            fee = p.ante if p.exchanged else 0  # 1 x Ante
            assert results(box) == (-p.ante, 0, -fee, 0, -p.ante - fee)


# R-4 table stakes --------------------------------------------------------------------------


def test_r_4_ante_needs_three_times_beyond_other_boxes() -> None:
    # A box ties up its Ante and the Bet of 2x Ante it may need: 50 + 100 = 150 before it acts,
    # the same once closed; a passed box only its Ante 50; an exchange adds its fee 1 x 50 = 50
    # (50 + 50 + 100 = 200); insurance its premium (closed, premium 60: 150 + 60 = 210).
    assert box_commitment(PROFILE, 50, None) == 150
    assert box_commitment(PROFILE, 50, Action.BET) == 150
    assert box_commitment(PROFILE, 50, Action.FOLD) == 50
    assert box_commitment(PROFILE, 50, None, exchanged=True) == 200
    assert box_commitment(PROFILE, 50, Action.BET, insurance=60) == 210
    # A player with 300 and one box of 50 not yet acted holds 300 - 150 = 150 beyond it: a
    # second Ante of 50 needs 3 x 50 = 150 (accepted), one of 51 needs 153 (refused).
    holds = held_beyond(300, [box_commitment(PROFILE, 50, None)])
    assert holds == 150
    assert ante_problem(PROFILE, 50, holds=holds) is None
    problem = ante_problem(PROFILE, 51, holds=holds)
    assert problem is not None and "needs 153 chips" in problem and "holds 150" in problem
    assert "(R-4)" in problem
    # Without the stakes (settle has none) only the table limits count; they come first.
    assert ante_problem(PROFILE, 51) is None
    assert ante_problem(PROFILE, 4, holds=0) == "must be within the table limits 5–500"


def test_r_4_exchange_refused_when_box_could_not_close() -> None:
    # Ante 50: the fee 1 x 50 = 50 and then the Bet 2 x 50 = 100 need 50 + 100 = 150 beyond the
    # box's Ante and the player's other boxes. Holding 150: offered; 149: refused, citing R-4.
    assert exchange_stakes_problem(PROFILE, 50, 150) is None
    problem = exchange_stakes_problem(PROFILE, 50, 149)
    assert problem is not None and problem.endswith("could not close after the exchange (R-4)")
    assert "the fee 50 and the Bet 100 it would then need make 150" in problem
    verify_exchange(PROFILE, 1, 1, open_box=True, exchanged_before=False, ante=50, holds=150)
    with pytest.raises(IllegalAction, match=r"Box 1: the fee 50 .* holds 149 .*\(R-4\)"):
        verify_exchange(PROFILE, 1, 1, open_box=True, exchanged_before=False, ante=50, holds=149)
    verify_exchange(PROFILE, 1, 5, open_box=True, exchanged_before=False, ante=50, holds=150)
    with pytest.raises(IllegalAction, match=r"\(R-4\)"):
        verify_exchange(PROFILE, 1, 5, open_box=True, exchanged_before=False, ante=50, holds=149)
    # The whole exchange refuses it before drawing a card.
    with pytest.raises(IllegalAction, match=r"\(R-4\)"):
        exchange(PROFILE, 1, 50, cards("As Ks 7c 5s 2h"), cards("2h"), CardSource(cards("Qs")),
                 random.Random(1), open_box=True, exchanged_before=False, holds=100)
