"""Palace Poker rounds through the real table runner and ledger (docs/rules.md PP-0..PP-18).

Every expected value is worked out by hand from docs/rules.md; the arithmetic is in the comments.
The test profile: small bet 10, big bet 30 (so "one big bet" and "two small bets" differ), ante 5,
at most 3 raises per battle, buy-ins from 1 chip (so short stacks can be seated).

Scripts: seats 1..n draw 2c, 3c, 4c... for the first dealer, so seat n deals and the turn order is
1, 2, ..., n (PP-0). Those cards go back at the bottom of the deck; the banner deal takes the next
cards in order; the palace cards are dealt one at a time from seat 1 (PP-2); the draw pile follows.
"""

from __future__ import annotations

import random
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer_tui.audit import verify_ledger
from dealer_tui.events import typed_as
from dealer_tui.events.table import RoundStarted, SeatTaken
from dealer_tui.games import GAMES
from dealer_tui.games.chinese_poker.steps import Lock
from dealer_tui.games.palace_poker.events import (
    BannersDealt,
    BattleAnswered,
    BattleDecided,
    BattleOpened,
    DealerDrawn,
    HandEnded,
    PalacesDealt,
    SoldierBought,
    SoldiersKept,
)
from dealer_tui.games.palace_poker.round import PalacePokerRound
from dealer_tui.games.palace_poker.steps import (
    Ante,
    Buy,
    Call,
    DealBanners,
    DealPalaces,
    Discard,
    DrawForDealer,
    Fold,
    Keep,
    Raise,
    Stay,
    Withdraw,
)
from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.base import LegalStep, Phase, Round, RoundOutcome, Step
from dealer_tui.rounds.cards import ScriptedDeck, VirtualShoe
from dealer_tui.rounds.session import TableSession
from dealer_tui.rounds.steps import ConfirmPayout, Reveal, Void
from dealer_tui.rounds.table import Table
from dealer_tui.staff import VOID
from rules.cards import DECK, Card
from rules.errors import IllegalAction
from rules.profiles.loader import ProfileLibrary
from tests.keyed_support import step_from
from tests.palace_support import (
    LIMIT,
    NO_LIMIT,
    THREE,
    C,
    act,
    attack,
    dealt,
    deck,
    first,
    new_table,
    play,
    profile,
    script,
)
from tests.staff_support import signed, staffed, staffed_table, void


def buy(seat: int, discard: str = "") -> tuple[Step, Step]:
    return Buy(seat=seat), Keep(seat=seat, discard=discard)


def stay(*seats: int) -> list[Step]:
    return [Stay(seat=s) for s in seats]


def kinds(rnd: Round) -> set[tuple[str, int | None]]:
    return {(s.kind, s.seat) for s in rnd.legal_steps()}


def spec(rnd: Round, kind: str, **data: object) -> LegalStep:
    return next(s for s in rnd.legal_steps() if s.kind == kind and all(s.data.get(k) == v for k, v in data.items()))


def settle(table: Table) -> RoundOutcome:
    """Award the pot, confirm the payout; the chips balance and the ledger re-settles every round."""
    rnd = table.round
    assert rnd is not None and rnd.phase is Phase.REVEAL
    act(table, Reveal())
    outcome = rnd.outcome()
    assert outcome is not None
    act(table, ConfirmPayout(**staffed(table.ledger).approval(table)))
    assert rnd.phase is Phase.DONE
    assert table.session.chips_balance() == 0
    assert verify_ledger(table.ledger, GAMES) == []
    assert sum(outcome.stack_changes.values()) == -outcome.house == 0  # C-2: a pot game, no rake
    return outcome


# ------------------------------------------------------------------------------------- PP-0


def test_pp_0_the_highest_card_deals_and_tied_players_draw_again(tmp_path: Path) -> None:
    # Seats 1 and 2 draw kings, seat 3 a five: 1 and 2 draw again; seat 2's jack beats the nine.
    table = new_table(tmp_path, deck("Kd Ks 5d", "9d Jd"), [1000] * 3)
    rnd = table.start_round()
    assert isinstance(rnd, PalacePokerRound)
    assert table.ledger.round_events(table.round_id or 0)[0].payload["button"] is None
    assert kinds(rnd) == {("draw_for_dealer", None), ("void", None)}
    assert spec(rnd, "draw_for_dealer").needs_cards.hands == (("seat 1", 1), ("seat 2", 1), ("seat 3", 1))  # type: ignore[union-attr]
    act(table, DrawForDealer())
    assert rnd.state.dealer is None and rnd.drawing == [1, 2]
    assert spec(rnd, "draw_for_dealer").needs_cards.hands == (("seat 1", 1), ("seat 2", 1))  # type: ignore[union-attr]
    act(table, DrawForDealer())
    assert rnd.state.dealer == 2
    assert "seat 2 deals first with J♦" in typed_as(DealerDrawn, rnd.events[-1]).reason
    play(table, *(Ante(seat=s) for s in (1, 2, 3)), DealBanners())
    assert rnd.state.order == (3, 1, 2)  # clockwise from the dealer's left (C-5)
    deck_cards = typed_as(BannersDealt, rnd.events[-1]).deck
    assert len(set(deck_cards)) == 52  # the five drawn cards are back in the deck, at its bottom
    assert [c.text for c in deck_cards[-5:]] == ["Kd", "Ks", "5d", "9d", "Jd"]


def test_pp_0_the_button_moves_one_seat_clockwise_each_hand() -> None:
    session = TableSession(7)
    for seat in (1, 2, 4, 6):
        session.apply(SeatTaken(seat=seat, player=f"P{seat}", buy_in=500))
    setup = PalacePokerRound.setup_from
    assert setup(session, LIMIT.profile)["button"] is None  # no button yet: the hand opens with the draw
    for number, (last, expected) in enumerate(((2, 4), (4, 6), (6, 1), (3, 4)), 1):  # seat 3 is empty: next is 4
        session.apply(RoundStarted(number=number, setup={}, profile="palace-poker", profile_sha256="",
                                   card_source="shoe", button=last))
        assert setup(session, LIMIT.profile)["button"] == expected


def test_pp_0_a_known_button_skips_the_draw(tmp_path: Path) -> None:
    table = new_table(tmp_path, deck(), [1000] * 3)
    table.session.button = 1  # as the session holds it after a hand dealt by seat 1
    rnd = table.start_round()
    assert isinstance(rnd, PalacePokerRound)
    assert rnd.state.dealer == 2 and ("draw_for_dealer", None) not in kinds(rnd)
    assert [s.seat for s in rnd.legal_steps() if s.kind == "ante"] == [3, 1, 2]


# ------------------------------------------------------------------------------------- PP-1, PP-2

def test_pp_1_a_player_short_of_the_ante_sits_out(tmp_path: Path) -> None:
    table = new_table(tmp_path, script("As Kh", "7d 8d 9d", "Tc Jc Qc", draw="2c 3c 4c"), [1000, 1000, 4])
    rnd = table.start_round()
    act(table, DrawForDealer())  # seat 3 draws 4c and deals
    assert [s.seat for s in rnd.legal_steps() if s.kind == "ante"] == [1, 2]
    with pytest.raises(IllegalAction, match=r"Seat 3 may not ante: it holds 4, the ante is 5: it sits this hand out \(PP-1\)"):
        table.act(Ante(seat=3))
    act(table, Ante(seat=1))
    with pytest.raises(IllegalAction, match=r"The table may not deal the banners: at least 2 players must ante first"):
        table.act(DealBanners())
    with pytest.raises(IllegalAction, match="Seat 1 may not ante: the seat has already anted"):
        table.act(Ante(seat=1))
    play(table, Withdraw(seat=1), Ante(seat=1), Ante(seat=2), DealBanners(),
         DealPalaces())
    assert isinstance(rnd, PalacePokerRound) and rnd.state.order == (1, 2) and rnd.state.pot == 10  # 2 antes x 5
    act(table, Fold(seat=1))  # two different suits: seat 1 must battle or fold (PP-15)
    outcome = settle(table)
    # seat 2 takes the pot of 10: +10 - its ante 5 = +5; seat 3 sat out and has no row
    assert outcome.stack_changes == {1: -5, 2: 5}
    assert table.session.stacks() == {1: 995, 2: 1005, 3: 4}


def test_pp_1_a_refused_banner_card_goes_back_to_be_dealt_again(tmp_path: Path) -> None:
    # Seat 1 takes As; seat 2 turns Ks (spades is seat 1's): refused; then Kh. The refused Ks is
    # shuffled back with the rest (PP-2): the scripted deck deals it as seat 1's first palace card.
    _table, rnd = dealt(tmp_path, deck("2c 3c", "As Ks Kh", "Qd Jd Td 9d 8d"), [1000, 1000])
    banner = first(rnd, BannersDealt)
    assert banner.banners == {"1": C("As"), "2": C("Kh")}
    assert banner.turned == C("As Ks Kh") and banner.refused == C("Ks")
    assert "seat 2 (group 1-4): banner K♥ after refusing K♠ (spades is seat 1's)" in banner.reasons
    assert rnd.state.players[1].hand.palace == C("Ks Jd 9d")  # type: ignore[union-attr]
    assert rnd.state.players[2].hand.palace == C("Qd Td 8d")  # type: ignore[union-attr]


def test_pp_1_the_fifth_seat_starts_a_new_group_of_suits(tmp_path: Path) -> None:
    # Seats 1-4 take one banner of each suit; seat 5 is in group 5-8 and may fly spades again.
    _table, rnd = dealt(tmp_path, script("As Ah Ad Ac Ks", "Qs Js Ts", "Qh Jh Th", "Qd Jd Td", "Kc Qc Jc",
                                        "9s 8s 7s"), [1000] * 5)
    banner = first(rnd, BannersDealt)
    assert banner.banners == {"1": C("As"), "2": C("Ah"), "3": C("Ad"), "4": C("Ac"), "5": C("Ks")}
    assert banner.refused == ()


def test_pp_2_palace_cards_one_at_a_time_from_the_dealers_left_and_the_rest_is_the_draw_pile(tmp_path: Path) -> None:
    _table, rnd = dealt(tmp_path, THREE)
    assert rnd.phase is Phase.ACT and rnd.state.turn == 1
    palaces = first(rnd, PalacesDealt).palaces
    assert palaces == {"1": C("7d 8d 9d"), "2": C("Tc Jc Qc"), "3": C("7h 8h 9h")}
    # 52 - 3 banners - 3 x 3 palace cards = 40 in the draw pile; the three drawn clubs at its bottom
    assert len(rnd.state.draw_pile) == 40 and rnd.state.draw_pile[0].text == "Js"
    assert [c.text for c in rnd.state.draw_pile[-3:]] == ["2c", "3c", "4c"]
    assert rnd.state.pot == 15  # 3 antes x 5


# ------------------------------------------------------------------------------------- PP-3..PP-6

def test_pp_3_buy_pays_a_small_bet_and_takes_the_top_card(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path, THREE)
    assert (spec(rnd, "buy").min_amount, spec(rnd, "buy").max_amount) == (10, 10)
    act(table, Buy(seat=1))
    assert rnd.state.pot == 25  # 15 + one small bet 10
    keep = spec(rnd, "keep")
    assert keep.seat == 1 and keep.data["soldiers"] == "Js" and keep.data["min_discard"] == 0
    assert kinds(rnd) == {("keep", 1), ("void", None)}  # the turn is not over until seat 1 keeps
    act(table, Keep(seat=1, discard=""))
    assert rnd.state.players[1].hand.soldiers == C("Js") and rnd.state.turn == 2  # type: ignore[union-attr]


def test_pp_3_a_sixth_soldier_must_be_discarded_and_more_may_be(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path, THREE)
    for _ in range(5):  # seat 1 buys Js, Ts, 9s, 8s, 7s; seats 2 and 3 stay (no quiet orbit: a buy breaks it)
        play(table, *buy(1), *stay(2, 3))
    act(table, Buy(seat=1))  # the sixth soldier, 6s
    assert spec(rnd, "keep").data["min_discard"] == 1
    with pytest.raises(IllegalAction, match=r"Seat 1 may not keep these soldiers: must discard down to 5 soldiers: "
                                            r"6 held, 0 discarded \(PP-3\)"):
        table.act(Keep(seat=1, discard=""))
    act(table, Keep(seat=1, discard="7s 6s"))
    assert rnd.state.players[1].hand.soldiers == C("Js Ts 9s 8s")  # type: ignore[union-attr]
    assert rnd.state.players[1].paid == {"ante": 5, "buy": 60}  # 6 buys x 10
    assert rnd.state.discard_pile == list(C("7s 6s"))


def test_pp_4_discard_pays_a_small_bet_and_draws_none(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path, THREE)
    with pytest.raises(IllegalAction, match=r"Seat 1 may not discard: it has no soldiers to discard \(PP-4\)"):
        table.act(Discard(seat=1, discard="Js"))
    play(table, *buy(1), *stay(2, 3))
    with pytest.raises(IllegalAction, match=r"Seat 1 may not discard: names no soldier \(PP-4\)"):
        table.act(Discard(seat=1, discard=""))
    pile = len(rnd.state.draw_pile)
    act(table, Discard(seat=1, discard="Js"))
    assert rnd.state.players[1].hand.soldiers == () and rnd.state.discard_pile == [C("Js")[0]]  # type: ignore[union-attr]
    assert len(rnd.state.draw_pile) == pile and rnd.state.pot == 35  # antes 15 + buy 10 + discard 10


def test_pp_5_pp_6_stay_passes_the_turn_and_a_fold_discards_every_card(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path, THREE)
    act(table, Stay(seat=1))
    assert rnd.state.turn == 2
    act(table, Fold(seat=2))
    assert rnd.state.players[2].hand is None and rnd.state.players[2].out == "folded on its turn (PP-6)"
    assert rnd.state.discard_pile == list(C("Kh Tc Jc Qc"))  # banner and palace
    assert rnd.state.turn == 3


def test_pp_15_two_players_of_different_suits_must_battle(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path, script("As Kh", "7d 8d 9d", "Tc Jc Qc"), [1000, 1000])
    assert kinds(rnd) == {("battle", 1), ("fold", 1), ("void", None)}
    assert spec(rnd, "battle").data == {"target": 2, "forced": True}
    with pytest.raises(IllegalAction, match=r"Seat 1 may not stay: two players of different banner suits remain "
                                            r"and must battle \(PP-15\)"):
        table.act(Stay(seat=1))


# ------------------------------------------------------------------------------------- PP-7..PP-11

def test_pp_7_a_same_suit_opponent_cannot_be_attacked(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path, script("As Ah Ad Ac Ks", "Qs Js Ts", "Qh Jh Th", "Qd Jd Td", "Kc Qc Jc",
                                        "9s 8s 7s"), [1000] * 5)
    assert sorted(s.data["target"] for s in rnd.legal_steps() if s.kind == "battle") == [2, 3, 4]
    with pytest.raises(IllegalAction, match=r"Seat 1 may not attack seat 5: seat 5 also flies a spades banner: "
                                            r"a same-suit opponent cannot be attacked \(PP-7\)"):
        table.act(attack(1, 5))
    with pytest.raises(IllegalAction, match="Seat 1 may not attack seat 9: seat 9 is not in the hand"):
        table.act(attack(1, 9))


def test_pp_7_limit_attack_is_exactly_soldiers_plus_one_small_bets(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path, THREE)
    play(table, *buy(1), *stay(2, 3))
    battle = spec(rnd, "battle", target=2)
    assert (battle.min_amount, battle.max_amount) == (20, 20)  # (1 soldier + 1) x 10
    with pytest.raises(IllegalAction, match=r"Seat 1 may not attack seat 2 for 30: an attack is 20 here: "
                                            r"\(1 soldier \+ 1\) × 10 = 20 \(limit, PP-7\)"):
        table.act(attack(1, 2, 30))
    act(table, attack(1, 2, 20))
    assert rnd.state.players[1].paid["battle"] == 20
    assert kinds(rnd) == {("fold", 2), ("call", 2), ("raise", 2), ("void", None)}


def test_pp_7_no_limit_attack_is_at_least_soldiers_plus_one_small_bets(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path, THREE, loaded=NO_LIMIT)
    battle = spec(rnd, "battle", target=3)
    assert (battle.min_amount, battle.max_amount) == (10, 995)  # (0 + 1) x 10 up to 1000 - ante 5
    act(table, attack(1, 3, 75))
    # the defender's call is still its own (0 soldiers + 1) x 10 = 10; a raise is at least one big
    # bet 30, up to what is left after the call: 995 - 10 = 985
    assert (spec(rnd, "call").min_amount, spec(rnd, "raise").min_amount, spec(rnd, "raise").max_amount) == (10, 30, 985)


def test_pp_8_defender_folds_and_the_attacker_takes_banner_and_soldiers(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path, THREE)
    play(table, Stay(seat=1), *buy(2), Stay(seat=3))  # seat 2 buys Js
    play(table, attack(1, 2), Fold(seat=2))
    decided = typed_as(BattleDecided, rnd.events[-2])
    assert (decided.winner, decided.loser, decided.decided_by) == (1, 2, "fold")
    assert typed_as(SoldiersKept, rnd.events[-1]).gained == C("Kh Js")  # 2 soldiers: nothing to discard (PP-8)
    assert rnd.state.players[1].hand.soldiers == C("Kh Js")  # type: ignore[union-attr]
    assert rnd.state.discard_pile == list(C("Tc Jc Qc"))  # the loser's palace only
    assert rnd.state.turn == 3 and rnd.state.pot == 35  # antes 15 + buy 10 + attack 10; seat 2 is skipped


def test_pp_9_the_call_compares_hands_ignoring_the_opponents_banner_suit(tmp_path: Path) -> None:
    # Seat 1 holds two aces, but against seat 2's hearts its Ah does not play: 7s Ad 8c is ace high.
    # Seat 2, ignoring spades: Kh Kd 7c is a pair of kings and wins (PP-9).
    table, rnd = dealt(tmp_path, script("7s Kh Qd", "Ah Ad 8c", "Kd 9s 7c", "Jh Th 9h"))
    play(table, attack(1, 2), Call(seat=2))
    decided = typed_as(BattleDecided, rnd.events[-2])
    assert (decided.winner, decided.loser, decided.decided_by) == (2, 1, "hand")
    assert "seat 1 high card A♦ 8♣ 7♠ (ignoring A♥)" in decided.reason
    assert decided.shown == {"seat 1": C("7s Ah Ad 8c"), "seat 2": C("Kh Kd 9s 7c")}
    assert rnd.state.players[1].hand is None and rnd.state.players[1].out == "lost a battle to seat 2"
    assert typed_as(SoldiersKept, rnd.events[-1]).gained == C("7s")  # the banner; seat 1 had no soldiers
    assert rnd.state.discard_pile == list(C("Ah Ad 8c")) and rnd.state.turn == 2  # the seat after the attacker
    assert rnd.state.pot == 35  # antes 15 + attack (0 + 1) x 10 + call (0 + 1) x 10


def test_pp_8_a_capture_keeps_at_most_five_soldiers_of_the_winners_choice(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path, script("As Kh Qd", "7d 8d 9d", "Tc Jc Qc", "7h 8h 9h", top="Qs Js Ts 9s 8s 7s"))
    play(table, *buy(1), *buy(2), Stay(seat=3))  # seat 1 Qs, seat 2 Js
    play(table, *buy(1), *buy(2), Stay(seat=3))  # seat 1 Ts, seat 2 9s
    play(table, *buy(1), *stay(2, 3), *buy(1), *stay(2, 3))  # seat 1 8s, 7s: four soldiers
    act(table, attack(1, 2, 50))  # (4 soldiers + 1) x 10
    act(table, Fold(seat=2))
    keep = spec(rnd, "keep")
    # 4 soldiers + banner Kh + soldiers Js 9s = 7: exactly the excess 7 - 5 = 2 goes (PP-8)
    assert keep.data["gained"] == "Kh Js 9s"
    assert (keep.data["min_discard"], keep.data["max_discard"]) == (2, 2)
    assert keep.label == "Seat 1: keep soldiers (discard exactly 2, PP-8)"
    for dropped in ("7s", "9s 8s 7s"):
        with pytest.raises(IllegalAction, match=r"Seat 1 may not keep these soldiers: must discard exactly the "
                                                r"excess over 5 soldiers: 7 held, so 2 to discard, not "
                                                rf"{len(dropped.split())} \(PP-8\)"):
            table.act(Keep(seat=1, discard=dropped))
    act(table, Keep(seat=1, discard="8s Js"))  # any two of the winner's choice
    assert rnd.state.players[1].hand.soldiers == C("Qs Ts 7s Kh 9s")  # type: ignore[union-attr]
    assert rnd.state.discard_pile == list(C("Tc Jc Qc 8s Js"))  # the loser's palace, then the two discards


def test_pp_capture_with_nothing_to_discard_needs_no_question(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path, THREE)
    play(table, Stay(seat=1), *buy(2), Stay(seat=3))  # seat 2 buys Js
    before = len(rnd.events)
    play(table, attack(1, 2), Fold(seat=2))
    # no soldiers + banner Kh + soldier Js = 2 <= 5: nothing may be discarded (PP-8), so nothing is
    # asked: the fold's step records the soldiers kept, the event the answer "none" would record
    assert [type(e) for e in rnd.events[before:]] == [BattleOpened, BattleAnswered, BattleDecided, SoldiersKept]
    assert rnd.events[-1] == SoldiersKept(seat=1, gained=C("Kh Js"), discarded=(), soldiers=C("Kh Js"),
                                          reason="seat 1 beats seat 2, takes K♥ J♠, keeps 2 soldiers")
    assert rnd.state.pending is None and rnd.state.players[1].hand.soldiers == C("Kh Js")  # type: ignore[union-attr]
    # the turn has moved on: seats 1 (spades) and 3 (diamonds) are left and must battle (PP-15)
    assert rnd.state.turn == 3 and kinds(rnd) == {("battle", 3), ("fold", 3), ("void", None)}
    recorded = [e.kind for e in table.ledger.round_events(table.round_id or 0)]
    assert recorded[-4:] == ["battle_opened", "battle_answered", "battle_decided", "soldiers_kept"]


def test_pp_11_limit_raises_one_big_bet_two_small_bets_without_soldiers_at_most_three(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path, script("As Kh Qd", "Ad Ac 8d", "Qc Jc 9d", "7h 8h 9h", top="Js"))
    play(table, *buy(1), *stay(2, 3))
    act(table, attack(1, 2, 20))  # (1 soldier + 1) x 10
    # seat 2 has no soldiers: call (0 + 1) x 10 = 10, raise two small bets 20: pays 30
    assert (spec(rnd, "raise").min_amount, spec(rnd, "raise").max_amount) == (20, 20)
    act(table, Raise(seat=2, amount=20))
    # seat 1 has a soldier: it calls the last raise 20 or re-raises one big bet 30: pays 50
    assert (spec(rnd, "call").min_amount, spec(rnd, "raise").min_amount) == (20, 30)
    act(table, Raise(seat=1, amount=30))
    act(table, Raise(seat=2, amount=20))  # call 30 + raise 20 = 50: the third raise
    with pytest.raises(IllegalAction, match=r"Seat 1 may not raise: at most 3 raises per battle \(PP-11\)"):
        table.act(Raise(seat=1, amount=30))
    act(table, Call(seat=1))  # the last raise, 20
    # seat 1: ante 5 + buy 10 + 20 + 50 + 20 = 105; seat 2: ante 5 + 30 + 50 = 85; seat 3: 5
    assert (rnd.state.players[1].put_in(), rnd.state.players[2].put_in(), rnd.state.pot) == (105, 85, 195)
    assert typed_as(BattleDecided, rnd.events[-2]).winner == 1  # three aces (As Ad Ac) against king high


def test_pp_11_the_attacker_folds_to_a_raise_and_the_defender_takes(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path, THREE)
    play(table, attack(1, 2), Raise(seat=2, amount=20))  # pays call 10 + raise 20 = 30
    assert spec(rnd, "fold").label == "Seat 1: fold to seat 2's raise"
    act(table, Fold(seat=1))
    assert typed_as(BattleDecided, rnd.events[-2]).winner == 2
    assert typed_as(SoldiersKept, rnd.events[-1]).gained == C("As")
    assert rnd.state.turn == 2 and kinds(rnd) == {("battle", 2), ("fold", 2), ("void", None)}  # two left: PP-15


def test_pp_18_a_short_defender_is_all_in_and_the_hands_are_compared(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path, THREE, [1000, 12, 1000])
    play(table, *buy(1))
    # seat 2 holds 12 - ante 5 = 7: short of a buy or an attack of 10
    with pytest.raises(IllegalAction, match=r"Seat 2 may not buy: it holds 7, a buy costs 10 \(PP-18\)"):
        table.act(Buy(seat=2))
    with pytest.raises(IllegalAction, match=r"Seat 2 may not attack: it holds 7, an attack costs "
                                            r"\(0 soldiers \+ 1\) × 10 = 10 \(PP-18\)"):
        table.act(attack(2, 1))
    play(table, *stay(2, 3), attack(1, 2, 20))
    call = spec(rnd, "call")
    assert (call.min_amount, call.data["all_in"]) == (7, True) and ("raise", 2) not in kinds(rnd)
    act(table, Call(seat=2))
    assert rnd.state.players[2].available() == 0 and isinstance(rnd.events[-2], BattleDecided)


def test_pp_15_pp_18_a_player_who_must_battle_but_cannot_pay_the_attack_may_only_fold(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path, script("As Kh", "7d 8d 9d", "Tc Jc Qc"), [8, 1000])
    # Seat 1 holds 8 - ante 5 = 3; the attack is (0 soldiers + 1) x 10 = 10. Two players of
    # different suits must battle (PP-15: no Buy, Discard or Stay), but an attack is made only
    # when paid in full (PP-18): Fold is all seat 1 is offered.
    assert kinds(rnd) == {("fold", 1), ("void", None)}
    short = r"it holds 3, an attack costs \(0 soldiers \+ 1\) × 10 = 10 \(PP-18\): only Fold remains \(PP-15\)"
    for bad, why in ((attack(1, 2), short), (attack(1, 2, 3), short),
                     (Stay(seat=1), r"two players of different banner suits remain and must battle \(PP-15\)")):
        with pytest.raises(IllegalAction, match=rf"Seat 1 may not (attack|stay): {why}"):
            table.act(bad)
    act(table, Fold(seat=1))
    # PP-6: seat 1's banner and palace go to the discard pile; PP-13: seat 2, the last player
    # standing, wins the pot of the two antes, 5 + 5 = 10.
    assert rnd.state.players[1].out == "folded on its turn (PP-6)" and rnd.state.discard_pile == list(C("As 7d 8d 9d"))
    assert rnd.state.end is not None and rnd.state.end.rule == "PP-13" and rnd.state.end.winners == (2,)
    outcome = settle(table)
    assert outcome.stack_changes == {1: -5, 2: 10 - 5}
    assert "all_in" not in outcome.flags


def test_pp_12_an_empty_draw_pile_is_rebuilt_from_the_discard_pile(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path, THREE, [10_000] * 3)
    discarded: list[Card] = []
    for n in range(40):  # 40 cards in the draw pile: each is bought and thrown away at once
        seat = n % 3 + 1
        act(table, Buy(seat=seat))
        card = rnd.state.pending.gained[0]  # type: ignore[union-attr]
        act(table, Keep(seat=seat, discard=card.text))
        discarded.append(card)
    assert rnd.state.draw_pile == [] and rnd.state.discard_pile == discarded
    request = spec(rnd, "buy").needs_cards
    assert request is not None and request.refill == tuple(discarded)
    # a new process opens the ledger: the refill still comes from the discard pile as recorded
    table.ledger.close()
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    table = Table.open(ledger, ledger.tables()[0], GAMES.find(LIMIT.game), LIMIT, ScriptedDeck([THREE]))
    rnd = table.round  # type: ignore[assignment]
    act(table, Buy(seat=2))
    # the scripted source keeps the refill's order: the first card discarded is on top
    assert rnd.state.pending.gained == (discarded[0],)  # type: ignore[union-attr]
    assert len(rnd.state.draw_pile) == 39 and rnd.state.discard_pile == [] and typed_as(SoldierBought, rnd.events[-1]).refilled


# ------------------------------------------------------------------------------------- end of the hand

def test_pp_13_the_last_player_standing_wins_the_pot(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path, THREE)
    act(table, Fold(seat=1))
    assert kinds(rnd) == {("battle", 2), ("fold", 2), ("void", None)}  # two suits left: PP-15
    act(table, Fold(seat=2))
    assert rnd.phase is Phase.REVEAL and rnd.state.end is not None and rnd.state.end.rule == "PP-13"
    assert spec(rnd, "reveal").label == "Award the pot"
    outcome = settle(table)
    rows = {(r.seat, r.bet): (r.stake, r.result) for r in outcome.rows}
    # the pot is the 3 antes, 15: seat 3 +15 - its own ante 5 = +10
    assert rows == {(1, "ante"): (5, -5), (2, "ante"): (5, -5), (3, "ante"): (5, -5), (3, "pot"): (0, 15)}
    assert outcome.stack_changes == {1: -5, 2: -5, 3: 10} and outcome.house == 0
    payout = table.ledger.round_events(table.round_id or 0)[-1].payload
    assert payout["button"] == 3  # the dealer of this hand, for the next hand's button


def test_pp_14_the_last_players_of_one_banner_suit_split_the_pot(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path, script("As Ah Ad Ac Ks", "Qs Js Ts", "Qh Jh Th", "Qd Jd Td", "Kc Qc Jc",
                                        "9s 8s 7s"), [1000] * 5)
    play(table, Stay(seat=1), Fold(seat=2), Fold(seat=3))
    assert rnd.phase is Phase.ACT  # seats 1, 4, 5 fly spades, clubs, spades: not one suit
    act(table, Fold(seat=4))
    assert rnd.state.end is not None and rnd.state.end.rule == "PP-14"
    outcome = settle(table)
    # pot 5 x 5 = 25, split by 2 = 12 rest 1; the odd chip to seat 1, first clockwise from dealer 5
    assert outcome.stack_changes == {1: 13 - 5, 2: -5, 3: -5, 4: -5, 5: 12 - 5}
    assert "split_pot" in outcome.flags


def test_pp_10_a_tied_battle_puts_both_out(tmp_path: Path) -> None:
    # Seat 1 (ignoring hearts) 2s Ad Kd 9c and seat 2 (ignoring spades) 2h Ac Kc 9d: both A K 9 2;
    # one card of its own banner suit each: still tied, and 3 players are in: both are out.
    table, rnd = dealt(tmp_path, script("2s 2h Jc", "Ad Kd 9c", "Ac Kc 9d", "Qh Th 8h"))
    play(table, attack(1, 2), Call(seat=2))
    assert typed_as(BattleDecided, rnd.events[-1]).outcome == "both out"
    assert rnd.state.end is not None and rnd.state.end.rule == "PP-13"  # seat 3 is the last one standing
    outcome = settle(table)
    assert outcome.stack_changes == {1: -15, 2: -15, 3: 35 - 5}  # pot 15 + 10 + 10 = 35


def test_pp_10_pp_17_the_last_two_split_a_tied_battle_odd_chip_clockwise_from_the_dealer(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path, script("2s 2h Jc", "Ad Kd 9c", "Ac Kc 9d", "Qh Th 8h"))
    play(table, *stay(1, 2), Fold(seat=3))
    play(table, attack(1, 2), Call(seat=2))  # two left of different suits: a forced battle
    assert rnd.state.end is not None and rnd.state.end.rule == "PP-10"
    outcome = settle(table)
    # pot 15 + 10 + 10 = 35, split by 2 = 17 rest 1: seat 1 (first clockwise from dealer 3) 18
    assert outcome.stack_changes == {1: 18 - 15, 2: 17 - 15, 3: -5}


def test_pp_16_a_quiet_orbit_ends_in_a_showdown_of_all_own_cards(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path, script("As Kh Qd", "Ah 9d 7s", "Kd Qs 8s", "Js Th 8h", top="5h"))
    play(table, Stay(seat=1), *buy(2), Stay(seat=3), Stay(seat=1))
    assert rnd.phase is Phase.ACT  # stay, buy, stay, stay: a buy broke the orbit
    act(table, Discard(seat=2, discard="5h"))  # stay, stay, discard: a full quiet orbit
    assert rnd.state.end is not None and rnd.state.end.rule == "PP-16"
    assert spec(rnd, "reveal").label == "Show down the palaces"
    outcome = settle(table)
    # seat 1's Ah plays at a showdown (no suit ignored): aces beat seat 2's kings; pot 15 + 10 + 10
    assert outcome.stack_changes == {1: 35 - 5, 2: -25, 3: -5}
    shown = first(rnd, HandEnded).shown
    assert shown == {"1": C("As Ah 9d 7s"), "2": C("Kh Kd Qs 8s"), "3": C("Qd Js Th 8h")}


def test_pp_showdown_lists_every_remaining_hand(tmp_path: Path) -> None:
    # As in the PP-16 test: seat 1 As + Ah 9d 7s, seat 2 Kh + Kd Qs 8s (its 5h discarded), seat 3
    # Qd + Js Th 8h; every own card plays; the pot is antes 15 + buy 10 + discard 10 = 35
    table, rnd = dealt(tmp_path, script("As Kh Qd", "Ah 9d 7s", "Kd Qs 8s", "Js Th 8h", top="5h"))
    play(table, Stay(seat=1), *buy(2), *stay(3, 1), Discard(seat=2, discard="5h"))
    said = ("showdown: seat 1 one pair A♠ A♥ 9♦ 7♠; seat 2 one pair K♥ K♦ Q♠ 8♠; seat 3 high card Q♦ J♠ T♥ 8♥: "
            "seat 1 wins the pot of 35 with one pair (PP-16)")
    outcome = settle(table)
    assert first(rnd, HandEnded).reason == said
    assert [r.reason for r in outcome.rows if r.bet == "pot"] == [said]


def test_pp_showdown_tie_lists_every_remaining_hand(tmp_path: Path) -> None:
    table, _rnd = dealt(tmp_path, script("As Ah Qc", "Kd 9s 7h", "Ks 9h 7d", "Jc 8d 3s"))
    play(table, *stay(1, 2, 3))
    said = ("showdown: seat 1 high card A♠ K♦ 9♠ 7♥; seat 2 high card A♥ K♠ 9♥ 7♦; seat 3 high card Q♣ J♣ 8♦ 3♠: "
            "seats 1 and 2 tie with high card and split the pot of 15 (PP-16, PP-17)")
    outcome = settle(table)
    # each winner's row: the showdown, then its share (15 / 2 = 7, the odd chip to seat 1, first from dealer 3)
    assert {r.seat: r.reason for r in outcome.rows if r.bet == "pot"} == {
        1: f"{said}: seat 1: 15 ÷ 2 = 7 + 1 odd chip (clockwise from the dealer on seat 3) = 8",
        2: f"{said}: seat 2: 15 ÷ 2 = 7"}


def test_pp_16_pp_17_a_showdown_tie_splits_the_odd_chip_clockwise_from_the_dealer(tmp_path: Path) -> None:
    table, _rnd = dealt(tmp_path, script("As Ah Qc", "Kd 9s 7h", "Ks 9h 7d", "Jc 8d 3s"))
    play(table, *stay(1, 2, 3))
    outcome = settle(table)
    # A K 9 7 each for seats 1 and 2: pot 15 split by 2 = 7 rest 1; seat 1 is first from dealer 3
    assert outcome.stack_changes == {1: 8 - 5, 2: 7 - 5, 3: -5}


# ------------------------------------------------------------------------------------- void, refusals, payout

def test_a_misdeal_voids_the_round_and_returns_every_chip(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path, THREE)
    play(table, *buy(1), *stay(2, 3), attack(1, 2))
    assert rnd.state.pot == 45  # antes 15 + buy 10 + attack 20
    with pytest.raises(IllegalAction, match="needs a reason"):
        void(table, " ")
    act(table, Void(reason="palace card exposed", **staffed(table.ledger).approval(table, VOID)))
    assert rnd.phase is Phase.VOID and table.session.stacks() == {1: 1000, 2: 1000, 3: 1000}
    assert table.session.chips_balance() == 0
    record = table.ledger.round(table.round_id or 0)
    assert record.status == "voided" and table.ledger.round_events(record.id)[-1].payload["button"] == 3


def test_the_round_walks_ante_deal_act_reveal_payout_done(tmp_path: Path) -> None:
    table = new_table(tmp_path, THREE, [1000] * 3)
    rnd = table.start_round()
    seen = [rnd.phase]
    for action in (DrawForDealer(), *(Ante(seat=s) for s in (1, 2, 3)), DealBanners()):
        act(table, action)
    seen.append(rnd.phase)
    assert kinds(rnd) == {("deal_palaces", None), ("void", None)}
    with pytest.raises(IllegalAction, match="Seat 1 may not stay: not allowed in the deal phase"):
        table.act(Stay(seat=1))
    play(table, DealPalaces())
    seen.append(rnd.phase)
    play(table, Fold(seat=1), Fold(seat=2))
    seen.append(rnd.phase)
    assert kinds(rnd) == {("reveal", None), ("void", None)}
    with pytest.raises(IllegalAction, match="Seat 3 may not stay: not allowed in the reveal phase"):
        table.act(Stay(seat=3))
    act(table, Reveal())
    seen.append(rnd.phase)
    assert kinds(rnd) == {("confirm_payout", None)}  # no misdeal once the pot is awarded
    with pytest.raises(IllegalAction, match="The table may not void the round: the round is in the payout phase"):
        void(table, "late")
    act(table, ConfirmPayout())
    seen.append(rnd.phase)
    assert seen == [Phase.ANTE, Phase.DEAL, Phase.ACT, Phase.REVEAL, Phase.PAYOUT, Phase.DONE]
    assert rnd.legal_steps() == []
    with pytest.raises(IllegalAction, match="The table may not award the pot: not allowed in the done phase"):
        table.act(Reveal())


def test_illegal_actions_name_the_seat_the_action_and_the_reason(tmp_path: Path) -> None:
    table, _rnd = dealt(tmp_path, THREE)
    count = len(table.ledger.round_events(table.round_id or 0))
    refusals = [
        (Reveal(), "The table may not award the pot: not allowed in the act phase"),
        (DealPalaces(), "The table may not deal the palace cards: not allowed in the act phase"),
        (Stay(seat=2), "Seat 2 may not stay: it is seat 1's turn"),
        (Call(seat=1), "Seat 1 may not call: no battle is on"),
        (Keep(seat=1), "Seat 1 may not keep soldiers: there are no soldiers to keep now"),
        (Lock(seat=1), "Seat 1 may not lock the rows: there is no such step in this game"),
        (Buy(seat=1, amount=20), r"Seat 1 may not buy for 20: it costs one small bet, 10"),
    ]
    for action, message in refusals:
        with pytest.raises(IllegalAction, match=message):
            table.act(action)
    act(table, Buy(seat=1))
    with pytest.raises(IllegalAction, match=r"Seat 3 may not stay: seat 1 first chooses which soldiers to keep "
                                            r"after buying"):
        table.act(Stay(seat=3))
    play(table, Keep(seat=1, discard=""), *stay(2, 3))
    act(table, attack(1, 2))
    with pytest.raises(IllegalAction, match="Seat 1 may not stay: seat 2 must first answer seat 1's bet"):
        table.act(Stay(seat=1))
    with pytest.raises(IllegalAction, match=r"Seat 2 may not call 5: the call is 10"):
        table.act(Call(seat=2, amount=5))
    with pytest.raises(IllegalAction, match=r"Seat 2 may not raise by 25: a raise is 20 here"):
        table.act(Raise(seat=2, amount=25))
    act(table, Fold(seat=2))
    # the refusals wrote nothing: only the buy, the keep, two stays, the attack, the answer, the
    # decision and the soldiers kept are new
    assert len(table.ledger.round_events(table.round_id or 0)) == count + 8


def test_dealt_cards_are_checked_count_and_duplicates(tmp_path: Path) -> None:
    table = new_table(tmp_path, deck(), [1000] * 3)
    table.session.button = 3  # seat 1 deals: no draw for the dealer
    table.start_round()
    play(table, *(Ante(seat=s) for s in (1, 2, 3)))
    with pytest.raises(IllegalAction, match="The table may not deal the banners: deck needs 52 cards, got 3"):
        table.act(DealBanners(cards={"deck": C("As Kh Qd")}))
    twice = (*DECK[:51], DECK[0])
    with pytest.raises(IllegalAction, match="The table may not deal the banners: 2s is given twice"):
        table.act(DealBanners(cards={"deck": twice}))


def test_winnings_at_the_threshold_need_a_supervisor(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path, THREE, loaded=profile(sign_off_threshold=10))
    play(table, Fold(seat=1), Fold(seat=2), Reveal())
    assert rnd.sign_off_needed() == [3]  # seat 3 wins 15 - 5 = 10
    with pytest.raises(IllegalAction, match="seat 3 is paid 10 or more: a supervisor must sign off"):
        table.act(ConfirmPayout())
    act(table, ConfirmPayout(**staffed(table.ledger).approval(table)))
    assert "signed_off" in table.ledger.round(table.round_id or 0).flags


# ------------------------------------------------------------------------------------- recovery, C-2, demo

def scripted_run(path: Path, stop: int | None) -> dict[int, int]:
    """A whole hand (draw, banners with a refusal, palaces, a buy, a battle, a capture); with `stop`
    the dealer's process dies after that many actions and a new one opens the ledger.

    Banners As, Kh (after refusing Ks), Qd; the refused Ks is dealt again: palaces Ks 9d Qc, 7d Tc 7h,
    8d Jc 8h. Seat 1 buys 9h and attacks seat 2; ignoring hearts it has ace high, seat 2 (ignoring
    spades) a pair of sevens: seat 2 wins, then folds the forced battle to seat 3 (PP-15, PP-13)."""
    cards = deck("2c 3c 4c", "As Ks Kh Qd", "7d 8d 9d Tc Jc Qc 7h 8h 9h")
    actions = [DrawForDealer(), *(Ante(seat=s) for s in (1, 2, 3)), DealBanners(),
               DealPalaces(), *buy(1), *stay(2, 3), attack(1, 2), Call(seat=2),
               Fold(seat=2), Reveal(), ConfirmPayout()]
    table = new_table(path, cards, [1000] * 3)
    table.start_round()
    for n, action in enumerate(actions):
        if n == stop:
            table.ledger.close()
            ledger = SqliteLedger(path / "ledger.sqlite")
            table = Table.open(ledger, ledger.tables()[0], GAMES.find(LIMIT.game), LIMIT, ScriptedDeck([cards]))
            assert "recovered" in ledger.round(table.round_id or 0).flags
        act(table, action)
    assert table.session.chips_balance() == 0 and verify_ledger(table.ledger, GAMES) == []
    return table.session.stacks()


@pytest.mark.parametrize("stop", [1, 5, 6, 7, 11, 12, 13])
def test_recovery_reopens_the_round_and_deals_the_same_cards(tmp_path: Path, stop: int) -> None:
    # after the draw, the banners, the palaces, a buy, an attack, the call and its capture, the hand's end
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    # pot = antes 15 + buy 10 + attack (1 + 1) x 10 + call (0 + 1) x 10 = 55, all to seat 3
    expected = {1: 1000 - 35, 2: 1000 - 15, 3: 1000 + 55 - 5}
    assert scripted_run(tmp_path / "a", None) == expected
    assert scripted_run(tmp_path / "b", stop) == expected


def random_action(spec: LegalStep, rng: random.Random) -> Step:
    amount = None if spec.min_amount is None else rng.randint(spec.min_amount, spec.max_amount or spec.min_amount)
    data: dict[str, object] = dict(spec.data)
    if spec.kind == "keep":
        pool = str(spec.data["soldiers"]).split()
        low, high = int(spec.data["min_discard"]), int(spec.data["max_discard"])
        data["discard"] = " ".join(rng.sample(pool, rng.randint(low, high)))
    elif spec.kind == "discard":
        pool = str(spec.data["soldiers"]).split()
        data["discard"] = " ".join(rng.sample(pool, rng.randint(1, len(pool))))
    elif spec.kind == "void":
        data["reason"] = "misdeal"
    return step_from(spec, amount, **data)


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 8), structure=st.sampled_from(["limit", "no_limit"]))
def test_c_2_random_legal_play_conserves_chips_and_replays(seed: int, players: int, structure: str) -> None:
    rng = random.Random(seed)
    loaded = LIMIT if structure == "limit" else NO_LIMIT
    with tempfile.TemporaryDirectory() as tmp:
        ledger = SqliteLedger(Path(tmp) / "l.sqlite")
        table = staffed_table(ledger, "H", loaded, VirtualShoe(random.Random(seed)), seats=10)
        for seat in range(1, players + 1):
            table.seat_player(seat, f"P{seat}", rng.choice([6, 30, 120, 400]))
        for _ in range(2):
            for seat, player in list(table.session.players.items()):
                if player.stack < loaded.profile.ante:
                    table.buy_chips(seat, 100)
            rnd = table.start_round()
            while rnd.phase not in (Phase.DONE, Phase.VOID):
                specs = [s for s in rnd.legal_steps() if s.kind != "void" or rng.random() < 0.01]
                specs = [s for s in specs if s.kind not in ("fold", "withdraw") or rng.random() < 0.2] or specs
                act(table, signed(table, random_action(rng.choice(specs), rng)))
            assert table.session.chips_balance() == 0
        assert verify_ledger(ledger, GAMES) == []
        ledger.close()


@pytest.mark.slow
def test_the_demo_player_plays_100_rounds_ending_every_way_it_meets(tmp_path: Path) -> None:
    loaded = ProfileLibrary().find("palace-poker")
    choose = GAMES.find("palace-poker").demo
    table = staffed_table(SqliteLedger(tmp_path / "demo.sqlite"), "Demo", loaded, VirtualShoe.seeded_with(3), seats=11)
    for seat in range(1, 7):
        table.seat_player(seat, f"P{seat}", 1000)
    rng = random.Random(3)
    ends: Counter[str] = Counter()
    for _ in range(100):
        for seat, player in list(table.session.players.items()):
            if player.stack < 200:
                table.buy_chips(seat, 1000)
        rnd = table.start_round()
        while rnd.phase not in (Phase.DONE, Phase.VOID):
            table.act(choose(rnd, rng))
        assert isinstance(rnd, PalacePokerRound) and rnd.state.end is not None
        ends[rnd.state.end.rule] += 1
        assert table.session.chips_balance() == 0
    assert verify_ledger(table.ledger, GAMES) == []
    assert {"PP-13", "PP-14", "PP-16"} <= set(ends)  # 6 players: two share a suit with the seat four away


def test_the_demo_player_is_a_pure_function_of_the_round_and_the_rng(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path, THREE)
    choose = GAMES.find("palace-poker").demo
    for _ in range(12):
        if rnd.phase is not Phase.ACT:
            break
        first, again = choose(rnd, random.Random(5)), choose(rnd, random.Random(5))
        assert first == again
        act(table, first)
