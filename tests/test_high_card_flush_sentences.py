"""High Card Flush's sentences: every payout reason and refusal the rules and the round say is a
message and its values (`rules.said`), reading as the English it always read, and the record keeps
the structure, not the sentence.

Every expected message, value and English text is worked out by hand from docs/rules.md; the
arithmetic is in the comments. The hands are tests/hcf_support.py's:
- seat 2  Ah Kh Qh Jh 9h 2c 3d: a 5-card heart flush A-K-Q-J-9 (HCF-1); its longest run of one
  suit is A-K-Q-J, a 4-card straight flush, top card A (HCF-12).
- seat 3  Kc 9c 4c 2s 5d 7h Jd: a 3-card club flush K-9-4; no 3-card run.
- the DP  As 8s 3s 6d Qd 4d 5c: two 3-card flushes, ♠A-8-3 plays over ♦Q-6-4 (HCF-2); it
  qualifies (3 cards, highest A >= 9, HCF-7); no 3-card run.
The card room's paytables (HCF-14): Flush 5 cards 10 to 1; Straight Flush 4 cards 60 to 1.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dealer_tui.events import decode
from dealer_tui.games.high_card_flush.events import (
    AntePlaced,
    BankerRevealed,
    CardsDealt,
    PlayerActed,
)
from dealer_tui.games.high_card_flush.round import HighCardFlushRound
from dealer_tui.games.high_card_flush.steps import Ante, Fold, Raise
from dealer_tui.rounds.steps import ConfirmPayout, Deal, Reveal
from dealer_tui.rounds.table import Table
from rules.cards import parse_cards
from rules.errors import IllegalAction
from rules.games.high_card_flush.profile import HighCardFlushProfile, Rake
from rules.games.high_card_flush.rules import verify_raise
from rules.games.high_card_flush.settlement import BankerHand, PlayerHand, Terms, settle
from rules.said import Said
from tests.hcf_support import BANKER, PROFILE, SEAT2, SEAT3, acted, keyed, live_table, new_table
from tests.staff_support import void


def _card_room() -> HighCardFlushProfile:
    profile = PROFILE.profile
    assert isinstance(profile, HighCardFlushProfile)
    return profile


CARD_ROOM = _card_room()


def said(message: str, **values: Any) -> dict[str, Any]:
    """A sentence as the record keeps it: its message and its values (a part: a sentence too)."""
    return {"said": message, "values": values}


def flush(length: int, ranks: str) -> dict[str, Any]:
    return said("{length}-card flush {ranks}", length=length, ranks=ranks)


def bet(name: str) -> dict[str, Any]:
    """A bet's name: a sentence in the context `bet` (the Raise bet, not the key that raises)."""
    return {"said": name, "values": {}, "context": "bet"}


ANTE, RAISE, FLUSH_BET, SF_BET, DP = (bet("Ante"), bet("Raise"), bet("Flush bet"), bet("Straight Flush bet"),
                                      said("DP"))
SEAT2_FLUSH, SEAT3_FLUSH, DP_FLUSH = flush(5, "A-K-Q-J-9"), flush(3, "K-9-4"), flush(3, "A-8-3")
BEATS = said("{hand} beats the {dealer}'s {theirs}", hand=SEAT2_FLUSH, dealer=DP, theirs=DP_FLUSH)
LOSES = said("{hand} loses to the {dealer}'s {theirs}", hand=SEAT3_FLUSH, dealer=DP, theirs=DP_FLUSH)
NO_CAP = said("")


def record(text: object) -> Any:
    assert isinstance(text, Said), f"not a sentence: {text!r}"
    return text.to_record()


def played(table: Table) -> HighCardFlushRound:
    """Ann (seat 1, 5000) banks (HCF-18); Bob (seat 2) antes 10 with 5 on each bonus bet and
    raises 20 (a 5-card flush: up to 2x, HCF-6); Cy (seat 3) antes 10 and raises 10; revealed."""
    rnd = table.start_round()
    assert isinstance(rnd, HighCardFlushRound) and rnd.banker == 1
    table.act(Ante(seat=2, amount=10, flush=5, straight_flush=5))
    table.act(Ante(seat=3, amount=10))
    table.act(Deal())
    table.act(Raise(seat=2, amount=20))
    table.act(Raise(seat=3, amount=10))
    table.act(Reveal())
    return rnd


# Payout reasons --------------------------------------------------------------------------------


def test_hcf_9_to_hcf_13_a_settled_rounds_reasons_are_sentences(tmp_path: Path) -> None:
    rnd = played(new_table(tmp_path))
    outcome = rnd.outcome()
    assert outcome is not None
    rows = {(r.seat, r.bet): r.reason for r in outcome.rows}
    # HCF-9: the DP qualifies and seat 2's 5-card flush beats its 3-card A-8-3: Ante 10 wins 1:1
    ante = rows[(2, "ante")]
    assert isinstance(ante, Said)
    assert ante.message == "{bet}: {why} — wins {stake} (1 to 1)"
    assert ante.values is not None and ante.values["stake"] == 10
    assert record(ante.values["bet"]) == ANTE and record(ante.values["why"]) == BEATS
    assert str(ante) == "Ante: 5-card flush A-K-Q-J-9 beats the DP's 3-card flush A-8-3 — wins 10 (1 to 1)"
    # and the Raise of 20 too
    assert record(rows[(2, "raise")]) == said("{bet}: {why} — wins {stake} (1 to 1)", bet=RAISE, why=BEATS, stake=20)
    # HCF-13: 5 cards beat the DP's by HCF-1: the Flush bet of 5 pays 5 x 10 = 50
    assert record(rows[(2, "flush")]) == said(
        "{bet}: {why} — {stake} × {odds} = {paid}", bet=FLUSH_BET,
        why=said("{length}-card flush beats the DP's {theirs}", length=5, theirs=DP_FLUSH), stake=5, odds=10, paid=50)
    assert str(rows[(2, "flush")]) == "Flush bet: 5-card flush beats the DP's 3-card flush A-8-3 — 5 × 10 = 50"
    # HCF-12: a 4-card run against the DP's none: the Straight Flush bet of 5 pays 5 x 60 = 300
    assert record(rows[(2, "straight_flush")]) == said(
        "{bet}: {why} — {stake} × {odds} = {paid}", bet=SF_BET,
        why=said("{length}-card straight flush beats {theirs}", length=4, theirs=said("the DP's (none)")), stake=5,
        odds=60, paid=300)
    assert str(rows[(2, "straight_flush")]) == ("Straight Flush bet: 4-card straight flush beats the DP's (none) — "
                                                 "5 × 60 = 300")
    # HCF-1, HCF-9: K-9-4 loses to A-8-3 (the highest cards compared): Ante and Raise of 10 lose
    assert record(rows[(3, "ante")]) == said("{bet}: {why} — loses {stake}", bet=ANTE, why=LOSES, stake=10)
    assert record(rows[(3, "raise")]) == said("{bet}: {why} — loses {stake}", bet=RAISE, why=LOSES, stake=10)
    assert str(rows[(3, "ante")]) == "Ante: 3-card flush K-9-4 loses to the DP's 3-card flush A-8-3 — loses 10"
    # HCF-10, HCF-15: seat 3 settles first (+20: 5020), then seat 2 (10 + 20 + 50 + 300 = 380): the
    # DP holds 5020 - 380 = 4640; no rake (the profile posts 0): net 4640 - 5000 = -360
    bank = rows[(1, "bank")]
    assert record(bank) == said("{said}; holds {available} after the hands, pays {rake} rake: net {net}{cap}",
                                said=said("the DP qualifies with {hand}", hand=DP_FLUSH), available=4640, rake=0,
                                net=-360, cap=NO_CAP)
    assert str(bank) == "the DP qualifies with 3-card flush A-8-3; holds 4640 after the hands, pays 0 rake: net -360"


def test_hcf_9_a_reason_is_rendered_message_by_message_with_the_readers_numbers(tmp_path: Path) -> None:
    rnd = played(new_table(tmp_path))
    outcome = rnd.outcome()
    assert outcome is not None
    bank = next(r.reason for r in outcome.rows if r.bet == "bank")
    assert isinstance(bank, Said)
    asked: list[str] = []

    def translate(message: str) -> str:
        asked.append(message)
        return message

    shown = bank.render(translate, lambda n: f"{n:,}".replace(",", "\u00a0"))
    assert shown == ("the DP qualifies with 3-card flush A-8-3; holds 4\u00a0640 after the hands, pays 0 rake: "
                     "net -360")
    assert {"{said}; holds {available} after the hands, pays {rake} rake: net {net}{cap}",
            "the DP qualifies with {hand}", "{length}-card flush {ranks}"} <= set(asked)


def test_hcf_17_the_rake_rows_and_the_dps_rake_are_sentences() -> None:
    """Rake 2 per hand, mode `all`: each of seats 2 and 3 pays 2; the DP holds 4640 after the hands
    (as above), pays 2 from it: net 4640 - 5000 - 2 = -362."""
    profile = CARD_ROOM.model_copy(update={"rake": Rake(mode="all", amount=2)})
    setup = {"seats": 7, "banker": 1, "button": 1, "banker_stack": 5000, "declined": [],
             "players": {"2": {"name": "Bob", "stack": 1000}, "3": {"name": "Cy", "stack": 1000}}}
    events = [AntePlaced(seat=2, ante=10, flush=5, straight_flush=5), AntePlaced(seat=3, ante=10),
              CardsDealt(hands={"seat 2": parse_cards(SEAT2), "seat 3": parse_cards(SEAT3), "banker": parse_cards(BANKER)}),
              PlayerActed(seat=2, raised=20), PlayerActed(seat=3, raised=10), BankerRevealed(cards=parse_cards(BANKER))]
    rnd = HighCardFlushRound.replay(profile, setup, events)
    outcome = rnd.outcome()
    assert outcome is not None
    rakes = [(r.seat, r.stake, r.result, record(r.reason)) for r in outcome.rows if r.bet == "rake"]
    assert rakes == [(2, 2, -2, said("House rake per hand (HCF-17)")), (3, 2, -2, said("House rake per hand (HCF-17)")),
                     (1, 2, -2, said("House rake per hand, from what the DP holds (HCF-17)"))]
    bank = next(r.reason for r in outcome.rows if r.bet == "bank")
    assert record(bank)["values"] | {"said": None} == {"said": None, "available": 4640, "rake": 2, "net": -362,
                                                       "cap": NO_CAP}


def hand(seat: int, cards: str, ante: int = 10, raised: int = 20, bonus: int = 5) -> PlayerHand:
    return PlayerHand(seat, ante, raised, bonus, bonus, parse_cards(cards))


def test_hcf_6_hcf_11_a_fold_loses_the_ante_and_the_bonus_bets() -> None:
    # every hand folded: the DP's cards are not needed and not given (HCF-7)
    s = settle(CARD_ROOM, 7, BankerHand(None, 1, 5000), [hand(2, SEAT2, raised=0)])
    folded = s.players[0]
    assert record(folded.ante.reason) == said("{bet}: {why} — loses {stake}", bet=ANTE, why=said("folded"), stake=10)
    assert record(folded.raise_bet.reason) == said("Raise: folded, no raise")
    with_the_fold = said("lost with the fold (HCF-11)")
    assert record(folded.flush.reason) == said("{bet}: {why} — loses {stake}", bet=FLUSH_BET, why=with_the_fold, stake=5)
    assert str(folded.straight_flush.reason) == "Straight Flush bet: lost with the fold (HCF-11) — loses 5"
    # HCF-15: the fold's 10 + 5 + 5 = 20 join the DP's 5000; no rake: net +20
    assert record(s.banker.reason) == said(
        "{said}; holds {available} after the hands, pays {rake} rake: net {net}{cap}",
        said=said("every player folded; the DP's cards were not needed"), available=5020, rake=0, net=20, cap=NO_CAP)


def test_hcf_14_a_cut_by_the_bonus_cap_is_said_on_the_cut_bet() -> None:
    # seat 2's bonus winnings 50 + 300 = 350 cut to a cap of 100: 250 off the Straight Flush first (300 -> 50)
    s = settle(CARD_ROOM, 7, BankerHand(parse_cards(BANKER), 1, 5000), [hand(2, SEAT2)], Terms(bonus_cap=100))
    sf = s.players[0].straight_flush
    assert sf.result == 50
    won = said("{bet}: {why} — {stake} × {odds} = {paid}", bet=SF_BET,
               why=said("{length}-card straight flush beats {theirs}", length=4, theirs=said("the DP's (none)")),
               stake=5, odds=60, paid=300)
    assert record(sf.reason) == said("{reason}, cut by {by} to {left}: {why}", reason=won, by=250, left=50,
                                     why=said("the {cap} bonus cap (HCF-14)", cap=100))
    assert str(sf.reason) == ("Straight Flush bet: 4-card straight flush beats the DP's (none) — 5 × 60 = 300, "
                              "cut by 250 to 50: the 100 bonus cap (HCF-14)")
    assert s.players[0].flush.result == 50 and "cut by" not in s.players[0].flush.reason


def test_hcf_16_a_dead_hand_has_every_bet_returned_and_says_why() -> None:
    # the DP holds 30; the hand has 10 + 20 + 5 + 5 = 40 in play: dead, every bet returned
    s = settle(CARD_ROOM, 7, BankerHand(parse_cards(BANKER), 1, 30), [hand(2, SEAT2)])
    dead = s.players[0]
    assert dead.dead
    note = said("dead hand: the DP had {available} left, less than the {wager} in play (HCF-16); returned",
                available=30, wager=40)
    assert [record(b.reason) for b in dead.bets] == [said("{bet}: {note}", bet=bet, note=note)
                                                     for bet in (ANTE, RAISE, FLUSH_BET, SF_BET)]
    assert str(dead.ante.reason) == "Ante: dead hand: the DP had 30 left, less than the 40 in play (HCF-16); returned"


def test_hcf_6_a_keyed_raise_over_the_cap_says_what_was_returned(tmp_path: Path) -> None:
    table = live_table(tmp_path)
    rnd = acted(table, 30, 10)  # seat 2 declares 30; its keyed 5-card flush caps the raise at 2 x 10 = 20
    table.act(Reveal(cards=keyed({"seat 2": SEAT2, "seat 3": SEAT3, "banker": BANKER})))
    outcome = rnd.outcome()
    assert outcome is not None
    raised = next(r.reason for r in outcome.rows if (r.seat, r.bet) == (2, "raise"))
    assert record(raised) == said(
        "Raise declared {declared}; the keyed hand's {length}-card flush caps it at {cap} (HCF-6): {returned} "
        "returned. {reason}", declared=30, length=5, cap=20, returned=10,
        reason=said("{bet}: {why} — wins {stake} (1 to 1)", bet=RAISE, why=BEATS, stake=20))
    assert str(raised) == ("Raise declared 30; the keyed hand's 5-card flush caps it at 20 (HCF-6): 10 returned. "
                           "Raise: 5-card flush A-K-Q-J-9 beats the DP's 3-card flush A-8-3 — wins 20 (1 to 1)")


# Refusals --------------------------------------------------------------------------------------


def refused(table: Table, step: Any) -> Said:
    with pytest.raises(IllegalAction) as caught:
        table.act(step)
    return caught.value.said


def test_hcf_6_a_raise_over_the_cap_is_refused_with_its_figures(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    table.start_round()
    table.act(Ante(seat=2, amount=10))
    table.act(Ante(seat=3, amount=10))
    table.act(Deal())
    # seat 2's 5-card flush: a raise of 10 to 2 x 10 = 20
    over = refused(table, Raise(seat=2, amount=30))
    assert over.message == ("Seat {seat} may raise at most {high} ({multiple}× the ante) with a {length}-card flush; "
                            "raising {amount} is refused")
    assert over.values == {"seat": 2, "high": 20, "multiple": 2, "length": 5, "amount": 30}
    assert str(over) == "Seat 2 may raise at most 20 (2× the ante) with a 5-card flush; raising 30 is refused"
    under = refused(table, Raise(seat=2, amount=9))
    assert record(under) == said("Seat {seat} must raise at least {low} (1× the ante); raising {amount} is refused",
                                 seat=2, low=10, amount=9)


def test_hcf_6_the_rules_refuse_a_raise_for_a_hand_without_a_seat() -> None:
    # a 3-card flush: 1x the ante of 10 at most
    with pytest.raises(IllegalAction) as caught:
        verify_raise(10, 15, 3)
    assert record(caught.value.said) == said(
        "The player may raise at most {high} ({multiple}× the ante) with a {length}-card flush; raising {amount} is "
        "refused", high=10, multiple=1, length=3, amount=15)
    with pytest.raises(IllegalAction) as caught:
        verify_raise(10, 5, 3)
    assert str(caught.value) == "The player must raise at least 10 (1× the ante); raising 5 is refused"


def test_hcf_10_out_of_turn_is_refused_with_the_step_and_the_reason(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    table.start_round()
    table.act(Ante(seat=2, amount=10))
    table.act(Ante(seat=3, amount=10))
    table.act(Deal())
    refusal = refused(table, Fold(seat=3))
    assert record(refusal) == said("Seat {seat} may not {action}: {reason}", seat=3, action=said("fold"),
                                   reason=said("it is seat {seat}'s turn", seat=2))
    assert str(refusal) == "Seat 3 may not fold: it is seat 2's turn"


def test_hcf_4_an_ante_the_chips_do_not_cover_is_refused_with_its_figures(tmp_path: Path) -> None:
    table = new_table(tmp_path, stacks=(5000, 100, 1000))
    table.start_round()
    # Ante 25 + Flush 5 + 3 x 25 = 105 > 100
    refusal = refused(table, Ante(seat=2, amount=25, flush=5))
    assert record(refusal) == said(
        "Seat {seat} may not {action}: {reason}", seat=2, action=said("ante {amount}", amount=25),
        reason=said("the seat holds {stack} chips; Ante + bonus bets + 3× Ante = {need} must be covered (HCF-4)",
                    stack=100, need=105))


def test_hcf_4_bets_outside_the_table_limits_are_refused_naming_the_bet(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    table.start_round()
    # the card room's limits: Ante 5-500, Flush bet 1-100
    low = refused(table, Ante(seat=2, amount=4))
    assert record(low)["values"]["reason"] == said("the ante must be within the table limits {low}–{high}", low=5,
                                                   high=500)
    bonus = refused(table, Ante(seat=2, amount=10, flush=101))
    assert record(bonus) == said("Seat {seat} may not {action}: {reason}", seat=2,
                                 action=said("bet {amount} on the {bet}", amount=101, bet=FLUSH_BET),
                                 reason=said("the {bet} must be within {low}–{high}", bet=FLUSH_BET, low=1, high=100))
    assert str(bonus) == "Seat 2 may not bet 101 on the Flush bet: the Flush bet must be within 1–100"


def test_hcf_18_no_round_without_a_designated_player_says_why(tmp_path: Path) -> None:
    table = new_table(tmp_path, stacks=(500, 500, 500))   # nobody holds the minimum bank of 1000
    with pytest.raises(IllegalAction) as caught:
        table.start_round()
    assert record(caught.value.said) == said(
        "The table may not {action}: {reason}", action=said("start a round"),
        reason=said("no seat will bank (a Designated Player needs {chips} chips and must accept, HCF-18)",
                    chips=1000))


def test_hcf_18_the_designated_player_may_not_ante(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    table.start_round()                          # seat 1 (5000) takes the bank
    refusal = refused(table, Ante(seat=1, amount=10))
    assert record(refusal) == said(
        "Seat {seat} may not {action}: {reason}", seat=1, action=said("ante"),
        reason=said("the seat banks this round as the Designated Player: the others ante against it"))


def test_hcf_19_a_misdeal_after_anyone_acted_is_refused(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    table.start_round()
    table.act(Ante(seat=2, amount=10))
    table.act(Ante(seat=3, amount=10))
    table.act(Deal())
    table.act(Fold(seat=2))
    with pytest.raises(IllegalAction) as caught:
        void(table, "red light")
    assert record(caught.value.said)["values"]["reason"] == said("a misdeal is declared before anyone acts (HCF-19)")


def test_hcf_6_taking_back_a_raise_names_the_seat_and_the_amount(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    rnd = table.start_round()
    table.act(Ante(seat=2, amount=10))
    assert rnd.undo_label() is not None and record(rnd.undo_label() or "") == said("seat {seat}'s ante", seat=2)
    table.act(Ante(seat=3, amount=10))
    table.act(Deal())
    table.act(Raise(seat=2, amount=15))
    assert record(rnd.undo_label() or "") == said("seat {seat}'s raise of {amount}", seat=2, amount=15)
    assert rnd.undo_label() == "seat 2's raise of 15"


# The record ------------------------------------------------------------------------------------


def test_hcf_9_the_stored_payout_keeps_each_reason_as_its_message_and_values(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    rnd = played(table)
    table.act(ConfirmPayout())
    stored = [e for e in table.ledger.round_events(table.round_id or 0) if e.kind == "payout_confirmed"]
    assert len(stored) == 1
    rows = {(r["seat"], r["bet"]): r["reason"] for r in stored[0].payload["rows"]}
    # as the ledger holds it: the structure, not the English
    assert rows[(3, "ante")] == said("{bet}: {why} — loses {stake}", bet=ANTE, why=LOSES, stake=10)
    assert rows[(1, "bank")]["values"]["available"] == 4640
    # and read back: the same sentences, reading as their English
    payout = decode("payout_confirmed", stored[0].payload, rnd.game_id)
    back = {(r.seat, r.bet): r.reason for r in payout.rows}  # type: ignore[attr-defined]
    assert record(back[(3, "ante")]) == rows[(3, "ante")]
    assert str(back[(2, "straight_flush")]) == ("Straight Flush bet: 4-card straight flush beats the DP's (none) — "
                                                 "5 × 60 = 300")
    assert all(isinstance(reason, Said) and not reason.is_literal for reason in back.values())
