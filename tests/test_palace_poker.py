"""Palace Poker rules (docs/rules.md PP-0..PP-18): deal, turns, battle betting, battles, end of hand.

Every expected value is worked out by hand from docs/rules.md; the arithmetic is in the comments.
Profiles: LIMIT has small bet 10 and big bet 30 (so "one big bet" and "two small bets" differ),
NO_LIMIT the same stakes, no limit.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.cards import DECK, Card, Suit, parse_card, parse_cards
from rules.errors import BadCards, IllegalAction
from rules.games.palace_poker.battle import (
    Answer,
    Battle,
    Stake,
    answer,
    answer_options,
    buy,
    discard_soldiers,
    legal_targets,
    open_battle,
    turn_options,
)
from rules.games.palace_poker.battle_result import capture, compare_battle
from rules.games.palace_poker.hand_end import (
    hand_over,
    must_battle,
    quiet_orbit,
    showdown,
    split_pot,
)
from rules.games.palace_poker.profile import PalacePokerProfile
from rules.games.palace_poker.rules import (
    Action,
    PalaceHand,
    clockwise_from,
    deal_banners,
    deal_palaces,
    deal_palaces_from,
    draw_for_dealer,
    fold_cards,
    refill_draw_pile,
)


def profile(structure: str = "limit", **extra: int) -> PalacePokerProfile:
    return PalacePokerProfile.model_validate(
        {"title": "test", "small_bet": 10, "big_bet": 30, "structure": structure,
         "buy_in": {"min": 100, "max": 10_000}, "sign_off_threshold": 10_000, **extra})


LIMIT = profile("limit")
NO_LIMIT = profile("no_limit")
C = parse_cards


def hand(seat: int, banner: str, palace: str, soldiers: str = "") -> PalaceHand:
    return PalaceHand(seat, parse_card(banner), C(palace), C(soldiers))


def texts(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(card.text for card in cards)


# ------------------------------------------------------------------------ C-5 seat order

def test_c_5_clockwise_from_starts_after_the_dealer_and_wraps() -> None:
    # Seats 1..10, dealer on 4: 5, 6, ..., 10, then 1, 2, 3, the dealer's seat 4 last.
    assert clockwise_from(4, range(1, 11)) == (5, 6, 7, 8, 9, 10, 1, 2, 3, 4)
    # The dealer need not be among the seats: dealer 5, seats 1, 2, 7 -> 7, 1, 2.
    assert clockwise_from(5, [1, 2, 7]) == (7, 1, 2)


# ------------------------------------------------------------------------ PP-0 first dealer

def test_pp_0_highest_rank_deals() -> None:
    draw = draw_for_dealer([1, 2, 3], C("7h Kd 2s"))
    # 7, K, 2: the king on seat 2 is highest; one round of the draw.
    assert draw.dealer == 2
    assert len(draw.rounds) == 1


def test_pp_0_tied_players_draw_again_suits_never_rank() -> None:
    # Round 1: seat 1 Ks, seat 2 5d, seat 3 Kh, seat 4 Kc -> seats 1, 3, 4 tie on kings
    # (spades do not beat hearts or clubs: suits never rank).
    # Round 2, seats 1, 3, 4: 9c, 9d, 4h -> seats 1 and 3 tie on nines.
    # Round 3, seats 1, 3: 2h, 3s -> the three on seat 3 is highest.
    draw = draw_for_dealer([1, 2, 3, 4], iter(C("Ks 5d Kh Kc 9c 9d 4h 2h 3s 8s")))
    assert draw.dealer == 3
    assert [[seat for seat, _ in dealt] for dealt in draw.rounds] == [[1, 2, 3, 4], [1, 3, 4], [1, 3]]
    assert draw.reason == ("seats 1, 3 and 4 tie with K♠ K♥ K♣ and draw again; seats 1 and 3 tie "
                           "with 9♣ 9♦ and draw again; seat 3 deals first with 3♠, the highest card")


def test_pp_0_card_source_may_be_a_callable() -> None:
    cards = list(C("4c Jd"))
    draw = draw_for_dealer([7, 9], lambda: cards.pop(0) if cards else None)
    assert draw.dealer == 9  # 4 against J


def test_pp_0_source_running_out_or_repeating_a_card_is_refused() -> None:
    with pytest.raises(BadCards, match="ran out"):
        draw_for_dealer([1, 2], C("Ks Kh"))  # a tie, and no card left to break it
    with pytest.raises(BadCards, match="gave Ks twice"):
        draw_for_dealer([1, 2], [parse_card("Ks"), parse_card("Ks")])


# ------------------------------------------------------------------------ PP-1 banners

def test_pp_1_ten_players_in_three_groups_each_group_distinct_suits() -> None:
    # Dealer on seat 4 of 10: dealing order 5, 6, 7, 8 | 9, 10, 1, 2 | 3, 4 (positions 1-4, 5-8,
    # 9-10 from the dealer's left).
    order = clockwise_from(4, range(1, 11))
    source = C("As Ks 2h 3h 4s 5d 6d 7c 8c 9c Tc Js Qs Qh Kh Kd Ac Ad")
    deal = deal_banners(order, source, random.Random(0))
    # Group 1-4: seat 5 As; seat 6 refuses Ks (spades taken), takes 2h; seat 7 refuses 3h and
    # 4s, takes 5d; seat 8 refuses 6d, takes 7c.
    # Group 5-8 starts afresh: seat 9 8c; seat 10 refuses 9c Tc, takes Js; seat 1 refuses Qs,
    # takes Qh; seat 2 refuses Kh, takes Kd. Group 9-10: seat 3 Ac, seat 4 Ad (clubs again:
    # suits repeat across groups).
    assert {seat: card.text for seat, card in deal.banners.items()} == {
        5: "As", 6: "2h", 7: "5d", 8: "7c", 9: "8c", 10: "Js", 1: "Qh", 2: "Kd", 3: "Ac", 4: "Ad"}
    assert texts(deal.refused) == "Ks 3h 4s 6d 9c Tc Qs Kh"
    assert deal.turned == source  # all 18 cards turned, none twice
    assert deal.reshuffles == 0
    assert "seat 7 (group 1-4): banner 5♦ after refusing 3♥ 4♠ (spades is seat 5's, hearts is seat 6's)" \
        in deal.reasons


def test_pp_1_deck_runs_out_and_the_banner_discard_pile_is_dealt() -> None:
    # Six players, dealer on seat 6: order 1..6. Source: As, Ks Kh, Qd, Jc, Th, 9h.
    # Seat 1 As; seat 2 refuses Ks, takes Kh; seat 3 Qd; seat 4 Jc; seat 5 (group 5-8) Th;
    # seat 6 refuses 9h (hearts is seat 5's) and the source is empty. The banner discard pile
    # (Ks, 9h) is shuffled; whatever its order, seat 6 can only take Ks (spades is free in group
    # 5-8), so 9h ends in the pile.
    for seed in range(5):
        deal = deal_banners(range(1, 7), C("As Ks Kh Qd Jc Th 9h"), random.Random(seed))
        assert deal.banners[6] == parse_card("Ks")
        assert deal.refused == (parse_card("9h"),)
        assert deal.reshuffles == 1


def test_pp_1_a_full_deck_in_suit_order_runs_out_for_the_sixth_banner() -> None:
    # Deck: the 13 spades A..2, then hearts, diamonds, clubs. Seat 1 As; seat 2 refuses the 12
    # other spades, takes Ah; seat 3 refuses 12 hearts, takes Ad; seat 4 refuses 12 diamonds,
    # takes Ac (1 + 13 + 13 + 13 = 40 cards). Seat 5 opens group 5-8 with Kc; seat 6 refuses the
    # last 11 clubs and the deck is out: the pile (12 + 12 + 12 + 11 = 47 cards) is shuffled and
    # seat 6 takes the first card that is not a club.
    deck = sorted(DECK, key=lambda c: (c.suit, -c.rank))
    deal = deal_banners(range(1, 7), deck, random.Random(11))
    assert [deal.banners[s].text for s in range(1, 6)] == ["As", "Ah", "Ad", "Ac", "Kc"]
    assert deal.banners[6].suit is not Suit.CLUBS and deal.reshuffles == 1
    assert len(deal.refused) == 52 - 6  # every other card was turned and refused once at least


def test_pp_1_no_card_of_a_free_suit_left_is_refused() -> None:
    # Seat 1 takes As; seat 2 refuses Ks and Qs; the pile holds only spades, taken in the group.
    with pytest.raises(BadCards, match="no card of a free suit"):
        deal_banners([1, 2], C("As Ks Qs"), random.Random(1))


def _suit_blocks(draw: st.DrawFn) -> list[Card]:
    """A deck in four blocks of one suit each: a worst case that runs the deck out."""
    suits = draw(st.permutations(list(Suit)))
    return [card for suit in suits for card in draw(st.permutations([c for c in DECK if c.suit == suit]))]


decks = st.one_of(st.permutations(list(DECK)), st.composite(_suit_blocks)())


@settings(max_examples=150, deadline=None)
@given(deck=decks, players=st.integers(2, 10), dealer=st.integers(1, 10), seed=st.integers(0, 2**32))
def test_pp_1_banners_distinct_within_groups_and_every_card_used_at_most_once(
        deck: list[Card], players: int, dealer: int, seed: int) -> None:
    order = clockwise_from(dealer, range(1, players + 1))
    deal = deal_banners(order, deck, random.Random(seed))
    banners = [deal.banners[seat] for seat in order]
    for start in (0, 4, 8):
        group = banners[start:start + 4]
        assert len({card.suit for card in group}) == len(group)
    held = banners + list(deal.refused)
    assert len(set(held)) == len(held)  # no card is both a banner and refused, or twice either
    assert set(held) == set(deal.turned)  # every card turned up is a banner or refused
    # Cards come off the top of the deck in order; a card is turned again only from the pile.
    assert set(deal.turned) == set(deck[:len(set(deal.turned))])


# ------------------------------------------------------------------------ PP-2 palaces

def test_pp_2_palace_cards_one_at_a_time_from_the_dealers_left() -> None:
    # Dealer on seat 1 of 3: order 2, 3, 1. Cards dealt round-robin, three rounds:
    # seat 2 gets cards 1, 4, 7; seat 3 cards 2, 5, 8; seat 1 cards 3, 6, 9; the 10th is the pile.
    deal = deal_palaces_from(clockwise_from(1, [1, 2, 3]), C("2s 3s 4s 5s 6s 7s 8s 9s Ts Js"))
    assert {seat: texts(cards) for seat, cards in deal.palaces.items()} == {
        2: "2s 5s 8s", 3: "3s 6s 9s", 1: "4s 7s Ts"}
    assert texts(deal.draw_pile) == "Js"


def test_pp_2_every_card_but_the_banners_is_reshuffled() -> None:
    banners = C("As Kh Qd Jc")
    deal = deal_palaces([1, 2, 3, 4], banners, random.Random(7))
    dealt = [card for cards in deal.palaces.values() for card in cards] + list(deal.draw_pile)
    # 52 - 4 banners = 48 cards: 4 x 3 = 12 in palaces, 36 in the draw pile; refused banner
    # cards are back in play, the banners are not.
    assert len(deal.draw_pile) == 36
    assert sorted(dealt, key=lambda c: c.index) == [c for c in DECK if c not in banners]


def test_pp_2_a_palace_is_three_cards_and_soldiers_at_most_five() -> None:
    with pytest.raises(BadCards, match="palace holds 3 cards, got 2"):
        hand(1, "Ah", "Kd Qd")
    with pytest.raises(BadCards, match="at most 5 soldiers, got 6"):
        hand(1, "Ah", "Kd Qd Jd", "2c 3c 4c 5c 6c 7c")
    with pytest.raises(BadCards, match="duplicate card Kd"):
        hand(1, "Ah", "Kd Qd Jd", "Kd")


# ------------------------------------------------------------------------ PP-3, PP-4, PP-12 soldiers

def test_pp_3_buy_costs_one_small_bet_and_adds_a_face_up_soldier() -> None:
    change = buy(hand(2, "Ah", "Kd Qd Jd", "2c"), parse_card("9h"), (), stack=50, profile=LIMIT)
    assert texts(change.soldiers) == "2c 9h"
    assert change.cost == 10  # one small bet
    assert change.reason == "seat 2 buys for 10, takes 9♥, keeps 2 soldiers"


def test_pp_3_a_sixth_soldier_must_be_discarded_and_more_may_be() -> None:
    five = hand(2, "Ah", "Kd Qd Jd", "2c 3c 4c 5c 6c")
    with pytest.raises(IllegalAction, match="seat 2 must discard down to 5 soldiers"):
        buy(five, parse_card("9h"), (), stack=50, profile=LIMIT)
    # 5 + 1 = 6 held; discarding the new card itself leaves the 5 old ones.
    change = buy(five, parse_card("9h"), C("9h"), stack=50, profile=LIMIT)
    assert texts(change.soldiers) == "2c 3c 4c 5c 6c" and texts(change.discarded) == "9h"
    # Discarding more than the excess: 6 - 3 = 3 kept.
    assert len(buy(five, parse_card("9h"), C("2c 3c 4c"), stack=50, profile=LIMIT).soldiers) == 3


def test_pp_4_discard_pays_a_small_bet_and_draws_none() -> None:
    change = discard_soldiers(hand(4, "Ah", "Kd Qd Jd", "2c 3c"), C("3c"), stack=10, profile=LIMIT)
    assert texts(change.soldiers) == "2c" and change.cost == 10 and change.gained == ()
    with pytest.raises(IllegalAction, match="seat 4 cannot discard: has no soldiers"):
        discard_soldiers(hand(4, "Ah", "Kd Qd Jd"), C("2c"), stack=10, profile=LIMIT)
    with pytest.raises(IllegalAction, match="names no soldier"):
        discard_soldiers(hand(4, "Ah", "Kd Qd Jd", "2c"), (), stack=10, profile=LIMIT)
    with pytest.raises(IllegalAction, match="cannot discard Kd: not one of their soldiers"):
        discard_soldiers(hand(4, "Ah", "Kd Qd Jd", "2c"), C("Kd"), stack=10, profile=LIMIT)


def test_pp_12_an_empty_draw_pile_is_the_shuffled_discard_pile() -> None:
    draw, discard = refill_draw_pile((), C("2c 3c 4c"), random.Random(3))
    assert sorted(texts((c,)) for c in draw) == ["2c", "3c", "4c"] and discard == ()
    assert refill_draw_pile(C("5d"), C("2c"), random.Random(3)) == (C("5d"), C("2c"))


def test_pp_12_buy_is_not_offered_when_both_piles_are_empty() -> None:
    me, other = hand(1, "Ah", "Kd Qd Jd", "2c"), hand(2, "As", "Ks Qs Js")
    third = hand(3, "Ac", "Kc Qc Jc")
    options = turn_options(me, [me, other, third], stack=100, draw_pile=0, discard_pile=0, profile=LIMIT)
    assert options.actions == (Action.DISCARD, Action.STAY, Action.FOLD, Action.BATTLE)
    with pytest.raises(IllegalAction, match=r"seat 1 cannot buy: the draw and discard piles are both "
                                            r"empty \(PP-12\)"):
        options.verify(Action.BUY)
    # With a discard pile left, Buy is offered again.
    assert Action.BUY in turn_options(me, [me, other, third], stack=100, draw_pile=0, discard_pile=4,
                                      profile=LIMIT).actions


def test_pp_5_pp_6_stay_and_fold_are_offered_and_a_fold_discards_everything() -> None:
    me, other, third = hand(1, "Ah", "Kd Qd Jd", "2c"), hand(2, "As", "Ks Qs Js"), hand(3, "Ac", "Kc Qc Jc")
    options = turn_options(me, [me, other, third], stack=0, draw_pile=10, discard_pile=0, profile=LIMIT)
    # With no chips only Stay and Fold remain (Buy, Discard and Battle cost chips, PP-18).
    assert options.actions == (Action.STAY, Action.FOLD)
    assert texts(fold_cards(me)) == "Ah Kd Qd Jd 2c"


# ------------------------------------------------------------------------ PP-7 attack

def test_pp_7_a_same_suit_opponent_cannot_be_attacked() -> None:
    me = hand(1, "Ah", "Kd Qd Jd")
    same, other = hand(2, "2h", "Ks Qs Js"), hand(3, "Ac", "Kc Qc Jc")
    assert legal_targets(me, [me, same, other]) == (3,)
    with pytest.raises(IllegalAction, match="seat 1 cannot attack seat 2: both banners are hearts"):
        open_battle(me, same, 10, attacker_stack=100, defender_stack=100, profile=LIMIT)


def test_pp_7_limit_attack_is_exactly_soldiers_plus_one_small_bets() -> None:
    me, them = hand(1, "Ah", "Kd Qd Jd", "2s 3s"), hand(3, "5c", "Jh Js 4d")
    # (2 soldiers + 1) x 10 = 30, exactly.
    battle = open_battle(me, them, 30, attacker_stack=100, defender_stack=100, profile=LIMIT)
    assert battle.history[0].reason == "seat 1 attacks seat 3: (2 soldiers + 1) × 10 = 30"
    assert battle.attacker.stack == 70 and battle.to_act == 3
    for amount in (20, 40):
        with pytest.raises(IllegalAction, match=f"seat 1 attacks for 30, not {amount}"):
            open_battle(me, them, amount, attacker_stack=100, defender_stack=100, profile=LIMIT)


def test_pp_7_no_limit_attack_is_at_least_soldiers_plus_one_small_bets() -> None:
    me, them = hand(1, "Ah", "Kd Qd Jd", "2s 3s"), hand(3, "5c", "Jh Js 4d")
    # At least (2 + 1) x 10 = 30, at most the 100 held.
    assert open_battle(me, them, 100, attacker_stack=100, defender_stack=100,
                       profile=NO_LIMIT).attacker.stack == 0
    with pytest.raises(IllegalAction, match="seat 1 attacks for 30 to 100, not 29"):
        open_battle(me, them, 29, attacker_stack=100, defender_stack=100, profile=NO_LIMIT)
    options = turn_options(me, [me, them, hand(4, "Ad", "2c 3c 4c")], stack=100, draw_pile=5,
                           discard_pile=0, profile=NO_LIMIT)
    assert options.attack == Stake(30, 100) and options.targets == (3, 4)


# ------------------------------------------------------------------------ PP-8, PP-9 answers

ATT = hand(1, "Ah", "Kd Qd Jd", "2s")   # 1 soldier: attack (1 + 1) x 10 = 20
DEF = hand(3, "5c", "Jh Js 4d", "3s 4s")  # 2 soldiers: call (2 + 1) x 10 = 30
NAKED = hand(5, "6c", "Th Ts 5d")         # no soldiers: call (0 + 1) x 10 = 10


def attack(defender: PalaceHand = DEF, *, stacks: tuple[int, int] = (200, 200),
           rules: PalacePokerProfile = LIMIT) -> Battle:
    return open_battle(ATT, defender, 20, attacker_stack=stacks[0], defender_stack=stacks[1],
                       profile=rules)


def test_pp_8_defender_folds_and_the_attacker_takes_banner_and_soldiers() -> None:
    battle = answer(attack(), Answer.FOLD, LIMIT)
    assert battle.over and battle.folded == 3 and not battle.hands_compared
    assert battle.pot_added == 20  # only the attack went in
    taken = capture(ATT, DEF)
    # 1 soldier + banner 5c + 2 soldiers = 4 soldiers; DEF's palace goes to the discard pile.
    assert texts(taken.winner.soldiers) == "2s 5c 3s 4s"
    assert texts(taken.to_discard) == "Jh Js 4d"


def test_pp_8_a_capture_discards_exactly_the_excess_of_the_winners_choice() -> None:
    winner = hand(1, "Ah", "Kd Qd Jd", "2s 3s 4s 5s")
    loser = hand(3, "5c", "Jh Js 4d", "6c 7c")
    # 4 soldiers + banner 5c + soldiers 6c 7c = 7: the excess over 5 is 7 - 5 = 2, no fewer and
    # no more (PP-8), and the winner picks which, old soldiers included.
    for dropped in ("2s", "2s 3s 4s"):
        with pytest.raises(IllegalAction, match=r"seat 1 must discard exactly the excess over 5 "
                                                r"soldiers: 7 held, so 2 to discard, not "
                                                rf"{len(dropped.split())} \(PP-8\)"):
            capture(winner, loser, C(dropped))
    taken = capture(winner, loser, C("2s 3s"))
    assert texts(taken.winner.soldiers) == "4s 5s 5c 6c 7c"
    assert texts(taken.to_discard) == "Jh Js 4d 2s 3s"
    taken = capture(winner, loser, C("5c 7c"))  # a captured card may be the one to go
    assert texts(taken.winner.soldiers) == "2s 3s 4s 5s 6c"
    # 1 soldier + banner 5c + 2 soldiers = 4 <= 5: the excess is 0, nothing may be discarded.
    with pytest.raises(IllegalAction, match=r"4 held, so 0 to discard, not 1 \(PP-8\)"):
        capture(ATT, DEF, C("2s"))


def test_pp_9_defender_calls_soldiers_plus_one_small_bets() -> None:
    battle = answer(attack(), Answer.CALL, LIMIT)
    # Defender with 2 soldiers: (2 + 1) x 10 = 30; attack 20 + call 30 = 50 into the pot.
    assert battle.defender.put_in == 30 and battle.pot_added == 50
    assert battle.hands_compared
    assert battle.history[-1].reason == "seat 3 calls (2 soldiers + 1) × 10 = 30"


# ------------------------------------------------------------------------ PP-11 raises

def test_pp_11_limit_raise_is_one_big_bet_and_reraises_pay_the_last_raise() -> None:
    battle = answer(attack(), Answer.RAISE, LIMIT)
    # Defender: call 30 + one big bet 30 = 60.
    assert battle.defender.put_in == 60 and battle.to_act == 1 and battle.owed == 30
    battle = answer(battle, Answer.RAISE, LIMIT)
    # Attacker (has a soldier): the last raise 30 + one big bet 30 = 60; in all 20 + 60 = 80.
    assert battle.attacker.put_in == 80 and battle.owed == 30
    assert battle.history[-1].reason == "seat 1 re-raises: call the raise of 30 + raise 30 = 60"
    battle = answer(battle, Answer.CALL, LIMIT)
    # Defender calls 30: 60 + 30 = 90. Pot: 80 + 90 = 170.
    assert battle.defender.put_in == 90 and battle.pot_added == 170 and battle.hands_compared


def test_pp_11_limit_raiser_without_soldiers_raises_two_small_bets() -> None:
    battle = answer(attack(NAKED), Answer.RAISE, LIMIT)
    # No soldiers: call (0 + 1) x 10 = 10 + two small bets 20 = 30 (not 10 + big bet 30 = 40).
    assert battle.defender.put_in == 30 and battle.owed == 20
    assert battle.history[-1].reason == "seat 5 raises: call (0 soldiers + 1) × 10 = 10 + raise 20 = 30"


def test_pp_11_no_limit_raise_is_at_least_one_big_bet() -> None:
    battle = attack(stacks=(200, 100), rules=NO_LIMIT)
    options = answer_options(battle, NO_LIMIT)
    # Call 30 from 100 leaves 70: the raise is 30 (one big bet) to 70.
    assert options.raise_by == Stake(30, 70)
    with pytest.raises(IllegalAction, match="seat 3 raises by 30 to 70"):
        answer(battle, Answer.RAISE, NO_LIMIT, raise_by=29)
    assert answer(battle, Answer.RAISE, NO_LIMIT, raise_by=70).defender.stack == 0  # 30 + 70


def test_pp_11_at_most_max_raises_per_battle() -> None:
    battle = attack()
    for _ in range(3):  # raise, re-raise, re-raise: the profile's max_raises is 3
        battle = answer(battle, Answer.RAISE, LIMIT)
    assert battle.raises == 3 and battle.to_act == 1
    assert answer_options(battle, LIMIT).raise_by is None
    with pytest.raises(IllegalAction, match=r"seat 1 cannot raise: at most 3 raises per battle \(PP-11\)"):
        answer(battle, Answer.RAISE, LIMIT)
    one = profile("limit", max_raises=1)
    after_one = answer(open_battle(ATT, DEF, 20, attacker_stack=200, defender_stack=200, profile=one),
                       Answer.RAISE, one)
    assert answer_options(after_one, one).raise_by is None


def test_pp_11_attacker_folds_to_a_raise_and_the_defender_takes() -> None:
    battle = answer(answer(attack(), Answer.RAISE, LIMIT), Answer.FOLD, LIMIT)
    assert battle.folded == 1 and not battle.hands_compared
    assert battle.history[-1].reason == "seat 1 folds: seat 3 takes the banner and soldiers (PP-11)"


# ------------------------------------------------------------------------ PP-18 table stakes

def test_pp_18_short_defender_is_all_in_and_the_hands_are_compared() -> None:
    battle = attack(stacks=(200, 25))
    options = answer_options(battle, LIMIT)
    # The call is 30; 25 held: all-in for 25, no raise.
    assert (options.call, options.call_all_in, options.raise_by) == (25, True, None)
    battle = answer(battle, Answer.CALL, LIMIT)
    assert battle.defender.stack == 0 and battle.hands_compared and battle.history[-1].all_in


def test_pp_18_attacker_short_of_the_last_raise_is_all_in() -> None:
    battle = answer(attack(stacks=(35, 200)), Answer.RAISE, LIMIT)
    # Attacker: 35 - 20 = 15 left, owes the raise of 30: all-in for 15.
    battle = answer(battle, Answer.CALL, LIMIT)
    assert battle.attacker.put_in == 35 and battle.attacker.stack == 0 and battle.hands_compared


def test_pp_18_a_raise_must_be_paid_in_full() -> None:
    # Defender holds 50: call 30 + big bet 30 = 60 > 50, so no raise; the call is still open.
    options = answer_options(attack(stacks=(200, 50)), LIMIT)
    assert options.raise_by is None and options.call == 30 and not options.call_all_in
    assert "cannot be paid in full" in options.no_raise


def test_pp_18_buy_discard_and_attack_only_if_paid_in_full() -> None:
    me = hand(1, "Ah", "Kd Qd Jd", "2s 3s")
    others = [me, hand(2, "Ac", "Kc Qc Jc"), hand(3, "As", "Ks Qs Js")]
    # Attack: (2 + 1) x 10 = 30; 25 held.
    options = turn_options(me, others, stack=25, draw_pile=9, discard_pile=0, profile=LIMIT)
    assert options.actions == (Action.BUY, Action.DISCARD, Action.STAY, Action.FOLD)
    with pytest.raises(IllegalAction, match=r"seat 1 cannot battle: holds 25, an attack costs "
                                            r"\(2 soldiers \+ 1\) × 10 = 30 \(PP-18\)"):
        options.verify(Action.BATTLE)
    with pytest.raises(IllegalAction, match="seat 1 cannot attack: holds 25"):
        open_battle(me, others[1], 25, attacker_stack=25, defender_stack=100, profile=LIMIT)
    with pytest.raises(IllegalAction, match="seat 1 cannot buy: holds 9, a buy costs 10"):
        buy(me, parse_card("9h"), (), stack=9, profile=LIMIT)


# ------------------------------------------------------------------------ PP-15 forced battle

def test_pp_15_two_players_of_different_suits_must_battle() -> None:
    me, them = hand(1, "Ah", "Kd Qd Jd", "2s 3s"), hand(3, "5c", "Jh Js 4d")
    assert must_battle([me, them])
    options = turn_options(me, [me, them], stack=100, draw_pile=9, discard_pile=0, profile=LIMIT)
    assert options.forced_battle and options.actions == (Action.FOLD, Action.BATTLE)
    with pytest.raises(IllegalAction, match=r"seat 1 cannot stay: .* must battle \(PP-15\)"):
        options.verify(Action.STAY)


def test_pp_15_pp_18_a_player_who_must_battle_but_cannot_pay_the_attack_may_only_fold() -> None:
    me, them = hand(1, "Ah", "Kd Qd Jd", "2s 3s"), hand(3, "5c", "Jh Js 4d")
    # Two players of different suits: Buy, Discard and Stay are not offered (PP-15). The attack
    # is (2 soldiers + 1) x 10 = 30 and 12 is held: an attack needs full payment (PP-18), so
    # Battle is not offered either and Fold is all that remains.
    options = turn_options(me, [me, them], stack=12, draw_pile=9, discard_pile=0, profile=LIMIT)
    assert options.forced_battle and options.attack is None and options.targets == (3,)
    assert options.actions == (Action.FOLD,)
    with pytest.raises(IllegalAction, match=r"seat 1 cannot battle: holds 12, an attack costs "
                                            r"\(2 soldiers \+ 1\) × 10 = 30 \(PP-18\): only Fold "
                                            r"remains \(PP-15\)"):
        options.verify(Action.BATTLE)
    for amount in (12, 30):  # neither all-in nor the full amount with 12 held
        with pytest.raises(IllegalAction, match="seat 1 cannot attack: holds 12"):
            open_battle(me, them, amount, attacker_stack=12, defender_stack=100, profile=LIMIT)
    # With exactly 30 the attack is paid in full and offered: 30 for a (2 + 1) x 10 attack.
    assert turn_options(me, [me, them], stack=30, draw_pile=9, discard_pile=0,
                        profile=LIMIT).attack == Stake(30, 30)


# ------------------------------------------------------------------------ PP-9, PP-10 battles

def test_pp_9_banner_suit_exclusion_decides_battle() -> None:
    attacker = hand(1, "Ah", "Kc Kd 3s", "7c 2c")
    defender = hand(2, "5c", "Qs Qd 4h")
    # All cards: the attacker's kings (Kc Kd) beat the defender's queens. But the attacker
    # ignores clubs (Kc 7c 2c): Ah Kd 3s, ace high; the defender ignores hearts (4h): 5c Qs Qd,
    # a pair of queens. Queens win.
    result = compare_battle(attacker, defender, last_two=False)
    assert (result.winner, result.loser, result.decided_by) == (2, 1, "hand")
    assert texts(result.attacker.hand.cards) == "Ah Kd 3s" and texts(result.attacker.ignored) == "Kc 7c 2c"
    assert texts(result.defender.hand.cards) == "Qs Qd 5c" and result.defender.hand.name == "one pair"


def test_pp_9_exclusion_breaks_a_flush_and_a_lone_banner_plays_by_c6() -> None:
    attacker = hand(1, "Ad", "Kc Qc Jc", "9c 2c")
    defender = hand(2, "3c", "4s 4h 8d")
    # With every card the attacker has a club flush K-Q-J-9-2. Ignoring clubs leaves the ace of
    # diamonds alone: a one-card high card (C-6). The defender ignores diamonds (8d):
    # 3c 4s 4h, a pair of fours, which beats any high card.
    result = compare_battle(attacker, defender, last_two=False)
    assert result.winner == 2
    assert texts(result.attacker.hand.cards) == "Ad" and result.attacker.hand.name == "high card"


def test_pp_9_short_hand_matched_by_a_longer_one_loses_c_6() -> None:
    attacker = hand(1, "As", "Kh Qh 2d")
    defender = hand(2, "Ad", "Kd Qd Jc", "9c")
    # Attacker ignores diamonds: As Kh Qh (3 cards). Defender ignores spades (none):
    # Ad Kd Qd Jc 9c, ace high (not a flush: 3 diamonds). A-K-Q is matched rank for rank by
    # A-K-Q-J-9, so the longer hand is higher (C-6).
    result = compare_battle(attacker, defender, last_two=False)
    assert result.winner == 2 and result.decided_by == "hand"


def test_pp_10_tie_goes_to_more_cards_of_own_banner_suit() -> None:
    attacker = hand(1, "Ah", "Kh Qs Jd", "9h 2h")
    defender = hand(2, "Ac", "Kd Qc Js", "9s")
    # Both play A-K-Q-J-9 high card (the attacker's 2h is not in its best five, and 4 hearts are
    # no flush). Own banner suit, all cards: attacker hearts Ah Kh 9h 2h = 4, defender clubs
    # Ac Qc = 2. The attacker wins.
    result = compare_battle(attacker, defender, last_two=False)
    assert result.attacker.hand.value == result.defender.hand.value
    assert (result.attacker.banner_suit_count, result.defender.banner_suit_count) == (4, 2)
    assert (result.winner, result.loser, result.decided_by) == (1, 2, "banner suit count")


def test_pp_10_still_tied_both_out_or_the_last_two_split() -> None:
    attacker = hand(1, "Ah", "Kh Qs Jd", "9s")
    defender = hand(2, "Ac", "Kd Qc Js", "9d")
    # A-K-Q-J-9 each; hearts Ah Kh = 2, clubs Ac Qc = 2: still tied.
    out = compare_battle(attacker, defender, last_two=False)
    assert (out.winner, out.loser, out.outcome) == (None, None, "both out")
    assert out.reason.endswith("both are out (PP-10)")
    split = compare_battle(attacker, defender, last_two=True)
    assert (split.winner, split.loser, split.outcome) == (None, None, "split")


# ------------------------------------------------------------------------ PP-13, PP-14, PP-16, PP-17

def test_pp_13_last_player_standing_wins_the_pot() -> None:
    end = hand_over([hand(4, "Ah", "Kd Qd Jd")], 240, dealer=2)
    assert end is not None and end.rule == "PP-13" and end.share_of(4) == 240


def test_pp_14_only_players_of_one_banner_suit_left_split_the_pot() -> None:
    left = [hand(1, "Ah", "Kd Qd Jd"), hand(4, "2h", "Ks Qs Js"), hand(6, "3h", "Kc Qc Jc")]
    end = hand_over(left, 100, dealer=2)
    # 100 / 3 = 33 remainder 1; clockwise from the dealer on seat 2: 4, 6, 1 -> seat 4 gets 34.
    assert end is not None and end.rule == "PP-14"
    assert {s.seat: s.amount for s in end.shares} == {1: 33, 4: 34, 6: 33}
    # Different suits left: the hand goes on.
    assert hand_over(left[:2] + [hand(6, "3c", "Kc Qc Jc")], 100, dealer=2) is None
    assert hand_over([left[0], hand(6, "3c", "Kc Qc Jc")], 100, dealer=2) is None


def test_pp_16_quiet_orbit_ends_the_hand_in_a_showdown() -> None:
    stay, discard, buy_ = Action.STAY, Action.DISCARD, Action.BUY
    assert quiet_orbit([buy_, stay, discard, stay], remaining=3)
    assert not quiet_orbit([stay, buy_, stay], remaining=3)
    assert not quiet_orbit([stay, stay], remaining=3)  # the orbit is not complete yet


def test_pp_16_showdown_uses_all_own_cards_no_suit_ignored() -> None:
    flush = hand(1, "2h", "5h 9h Kh", "Jh")
    trips = hand(2, "Ac", "Ad As 7c")
    # Seat 1: K-J-9-5-2 of hearts, a flush, beats seat 2's three aces: seat 1 takes all 90.
    end = showdown([trips, flush], 90, dealer=2)
    assert end.winners == (1,) and end.share_of(1) == 90 and end.share_of(2) == 0
    assert [sh.hand.name for sh in end.hands] == ["flush", "three of a kind"]


def test_pp_17_odd_chips_one_at_a_time_clockwise_from_the_dealer() -> None:
    # 125 / 3 = 41 remainder 2. Dealer on seat 3: clockwise 5, 1, 2 -> seats 5 and 1 get 42.
    shares = split_pot(125, [1, 2, 5], dealer=3)
    assert [(s.seat, s.amount) for s in shares] == [(1, 42), (2, 41), (5, 42)]  # 42+41+42 = 125
    # The dealer among the winners comes last: dealer 5, winners 1, 5, 7; 11 / 3 = 3 r 2:
    # clockwise 7, 1, 5 -> 7 and 1 get 4, the dealer's seat 5 gets 3.
    assert {s.seat: s.amount for s in split_pot(11, [1, 5, 7], dealer=5)} == {7: 4, 1: 4, 5: 3}
    assert shares[2].reason == ("seat 5: 125 ÷ 3 = 41 + 1 odd chip (clockwise from the dealer on "
                                "seat 3) = 42")


@settings(max_examples=300, deadline=None)
@given(pot=st.integers(0, 10**9), winners=st.sets(st.integers(1, 10), min_size=1),
       dealer=st.integers(1, 10))
def test_pp_17_split_shares_sum_to_the_pot_and_differ_by_at_most_one(
        pot: int, winners: set[int], dealer: int) -> None:
    shares = {s.seat: s.amount for s in split_pot(pot, winners, dealer)}
    assert set(shares) == winners
    assert sum(shares.values()) == pot
    assert max(shares.values()) - min(shares.values()) <= 1
    # The larger shares are the first ones clockwise from the dealer (seat after it first).
    clockwise = sorted(winners, key=lambda seat: (seat - dealer - 1) % 10)
    amounts = [shares[seat] for seat in clockwise]
    assert amounts == sorted(amounts, reverse=True)


# ------------------------------------------------------------------------ C-2 over whole hands

@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 8), seed=st.integers(0, 2**32),
       picks=st.lists(st.integers(0, 99), min_size=40, max_size=40))
def test_c_2_chips_are_conserved_over_random_hands(players: int, seed: int, picks: list[int]) -> None:
    """Antes, battles with raises, folds and all-ins, then the pot paid out: no chip made or lost."""
    rng = random.Random(seed)
    pick = iter(picks)
    order = clockwise_from(players, range(1, players + 1))
    dealer = order[-1]
    deck = list(DECK)
    rng.shuffle(deck)
    banners = deal_banners(order, deck, rng).banners
    palaces = deal_palaces(order, banners.values(), rng).palaces
    hands = {seat: PalaceHand(seat, banners[seat], palaces[seat]) for seat in order}
    stacks = {seat: rng.choice([0, 15, 45, 120, 400]) for seat in order}
    total = sum(stacks.values())
    pot = 0
    for seat in order:
        paid = min(LIMIT.ante, stacks[seat])
        stacks[seat] -= paid
        pot += paid
    while True:
        left = list(hands.values())
        end = hand_over(left, pot, dealer)
        if end is not None:
            shares = end.shares
            break
        pairs = [(a, d) for a in hands for d in hands if hands[a].banner_suit != hands[d].banner_suit]
        a, d = pairs[next(pick, 0) % len(pairs)]
        options = turn_options(hands[a], left, stack=stacks[a], draw_pile=1, discard_pile=0,
                               profile=LIMIT)
        if options.attack is None or next(pick, 0) < 10:
            shares = showdown(left, pot, dealer).shares
            break
        battle = open_battle(hands[a], hands[d], options.attack.low, attacker_stack=stacks[a],
                             defender_stack=stacks[d], profile=LIMIT)
        while not battle.over:
            choice = (Answer.FOLD, Answer.CALL, Answer.RAISE)[next(pick, 1) % 3]
            if choice is Answer.RAISE and answer_options(battle, LIMIT).raise_by is None:
                choice = Answer.CALL
            battle = answer(battle, choice, LIMIT)
        for fighter in (battle.attacker, battle.defender):
            stacks[fighter.seat] = fighter.stack
        pot += battle.pot_added
        assert sum(stacks.values()) + pot == total
        if battle.folded is not None:
            del hands[battle.folded]
            continue
        result = compare_battle(hands[a], hands[d], last_two=len(hands) == 2)
        if result.outcome == "split":
            shares = split_pot(pot, (a, d), dealer)
            break
        for seat in (a, d) if result.loser is None else (result.loser,):
            del hands[seat]
    for share in shares:
        stacks[share.seat] += share.amount
    assert sum(share.amount for share in shares) == pot
    assert sum(stacks.values()) == total
