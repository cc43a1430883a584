"""Chinese Poker's reasons and refusals are sentences (`rules.said`): each keeps its message and its
values, reads as the English it always did, and the record stores it structured (CP-4..CP-14).

Every expected figure is worked out by hand from RULES.md (the shipped `chinese-poker` profile:
mandarin, foul 6, royalties as CP-7 with `royalty_needs_row_win`, point value 5, buy-in 20 points)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dealer_tui.events import decode
from dealer_tui.games.chinese_poker.events import RowsLocked
from dealer_tui.games.chinese_poker.steps import Lock
from dealer_tui.rounds.steps import Reveal
from rules.errors import IllegalAction
from rules.games.chinese_poker import rules as cp
from rules.games.chinese_poker.payments import buy_decision, pay_table_stakes
from rules.said import Said
from tests.cp_support import PROFILE, set_rows, two_player_round

CP = "chinese-poker"
TERMS = cp.ScoringTerms.of(PROFILE.profile)


def word(message: str) -> dict[str, Any]:
    """A sentence with no values as the record stores it (a row's name, a hand's, a natural's)."""
    return {"said": message, "values": {}}


def parts(*each: dict[str, Any], separator: str = ", ") -> dict[str, Any]:
    """Sentences said one after another (`rules.said.joined`) as the record stores them."""
    return {"said": separator.join(f"{{part{i}}}" for i in range(len(each))),
            "values": {f"part{i}": part for i, part in enumerate(each)}}


# Seat 1: aces / three kings / four queens; seat 2 (dealt Jh Td 8c 9s 9d 7c 6s 3s Th Ts 7d 6d 2d)
# sets J-high / nines / tens: seat 1 wins every row.
SEAT1 = ("Ah Ad 2c", "Kh Ks Kd 3c 4d", "Qh Qs Qd Qc 5c")
SEAT2 = ("Jh Td 8c", "9s 9d 7c 6s 3s", "Th Ts 7d 6d 2d")
SEAT2_FOULED = ("Th Ts 7d", "Jh Td 8c 6s 3s", "9s 9d 7c 6d 2d")  # a J-high middle under a pair of tens


def test_cp_5_cp_6_cp_7_cp_13_a_settled_rounds_points_reason_is_a_sentence(tmp_path: Path) -> None:
    table, rnd = two_player_round(tmp_path)
    set_rows(table, 2, *SEAT2)
    set_rows(table, 1, *SEAT1)
    table.act(Lock(seat=2))
    table.act(Lock(seat=1))
    table.act(Reveal())
    outcome = rnd.outcome()
    assert outcome is not None
    reason = next(r.reason for r in outcome.rows if r.seat == 1 and r.bet == "points")
    assert isinstance(reason, Said)
    # CP-5: three rows won, +3; CP-6 (mandarin): a scoop scores 6; CP-7: the back four of a kind
    # is won, +4: 10 points. CP-12: x 5 = 50. CP-13: seat 2 holds 100 and pays all 50.
    pair = {"said": "seat {seat} v seat {other}: {why}", "values": {"seat": 1, "other": 2, "why": {
        "said": "{parts} = {total}", "values": {"total": 10, "parts": parts(
            {"said": "{row} {result:+d}", "values": {"row": word("front"), "result": 1}},
            {"said": "{row} {result:+d}", "values": {"row": word("middle"), "result": 1}},
            {"said": "{row} {result:+d}", "values": {"row": word("back"), "result": 1}},
            {"said": "scoop {points}", "values": {"points": 6}},
            {"said": "{royalty} {points:+d}", "values": {"points": 4, "royalty": {
                "said": "{row} {hand} royalty", "values": {"row": word("back"), "hand": word("four of a kind")}}}},
        )}}}}
    assert reason.message == "{head}; on the nets (CP-13): {moves} = {chips:+d}"
    assert reason.to_record() == {"said": reason.message, "values": {
        "chips": 50,
        "head": {"said": "{points:+d} points × {value} = {chips:+d} ({pairs})", "values": {
            "points": 10, "value": 5, "chips": 50, "pairs": parts(
                {"said": "{points:+d} against seat {seat} — {reason}", "values": {"points": 10, "seat": 2,
                                                                                   "reason": pair}},
                separator="; ")}},
        "moves": parts({"said": "received {amount} from seat {seat}", "values": {"amount": 50, "seat": 2}})}}
    assert str(reason) == ("+10 points × 5 = +50 (+10 against seat 2 — seat 1 v seat 2: front +1, middle +1, back +1, "
                           "scoop 6, back four of a kind royalty +4 = 10); on the nets (CP-13): received 50 from "
                           "seat 2 = +50")
    assert rnd.payments() == ("seat 2 pays seat 1 50",)
    assert rnd.payments()[0].to_record() == {"said": "seat {payer} pays seat {receiver} {amount}",
                                             "values": {"payer": 2, "receiver": 1, "amount": 50}}


def test_cp_6_cp_7_the_seeds_scoop_with_a_back_straight_flush_and_a_royalty_not_won() -> None:
    # RULES CP-7: "3 of 3 with a back straight flush = 6 + 5 = 11"; the other back's four of a
    # kind loses its row, so its royalty is not collected (royalty_needs_row_win).
    mine = cp.judge(1, cp.SetHand.parse("Ah Ad 2c", "Ks Kh Kd 4d 3c", "9s 8s 7s 6s 5s"), TERMS)
    theirs = cp.judge(2, cp.SetHand.parse("Th Ts 7d", "Jh Jd 8c 8h 3s", "Qs Qh Qd Qc 5c"), TERMS)
    pair = cp.score_pair(mine, theirs, TERMS)
    assert pair.points == 11
    assert pair.reason.values is not None
    why = pair.reason.values["why"]
    assert isinstance(why, Said) and why.message == "{parts} = {total}"
    assert why.values is not None and why.values["total"] == 11
    royalties = why.to_record()["values"]["parts"]["values"]
    assert royalties["part4"] == {"said": "{royalty} {points:+d}", "values": {"points": 5, "royalty": {
        "said": "{row} {hand} royalty", "values": {"row": word("back"), "hand": word("straight flush")}}}}
    assert royalties["part5"] == {"said": "{royalty} 0 (row not won)", "values": {"royalty": {
        "said": "seat {seat}'s {royalty}", "values": {"seat": 2, "royalty": {
            "said": "{row} {hand} royalty", "values": {"row": word("back"), "hand": word("four of a kind")}}}}}}
    assert str(pair.reason) == ("seat 1 v seat 2: front +1, middle +1, back +1, scoop 6, back straight flush royalty +5, "
                                "seat 2's back four of a kind royalty 0 (row not won) = 11")


def test_cp_4_a_foul_is_a_sentence_naming_the_rows_hands() -> None:
    judged = cp.judge(2, cp.SetHand.parse(*SEAT2_FOULED), TERMS)
    assert judged.foul is not None
    assert judged.foul.to_record() == {"said": "middle {middle} does not beat front {front}",
                                       "values": {"middle": word("high card"), "front": word("one pair")}}
    assert str(judged.foul) == "middle high card does not beat front one pair"
    short = cp.foul_reason(cp.SetHand.parse("Ah Ad", "Ks Kh Kd 4d 3c", "9s 8s 7s 6s 5s 2c"))
    assert short is not None and short.to_record() == parts(
        {"said": "{row} has {count} cards, needs {size}", "values": {"row": word("front"), "count": 2, "size": 3}},
        {"said": "{row} has {count} cards, needs {size}", "values": {"row": word("back"), "count": 6, "size": 5}},
        separator="; ")
    assert str(short) == "front has 2 cards, needs 3; back has 6 cards, needs 5"


def test_cp_8_a_fouled_hand_pays_the_foul_and_the_royalties_as_a_sentence() -> None:
    # Seat 1's royalties: the back four of a kind, 4 (a pair front and trips middle pay none): 6 + 4 = 10.
    mine = cp.judge(1, cp.SetHand.parse(*SEAT1), TERMS)
    fouled = cp.judge(2, cp.SetHand.parse(*SEAT2_FOULED), TERMS)
    pair = cp.score_pair(mine, fouled, TERMS)
    assert pair.points == 10
    assert pair.reason.to_record()["values"]["why"] == {
        "said": "seat {seat} fouled, pays foul {foul} + seat {owner}'s royalties {royalties} = {points}",
        "values": {"seat": 2, "foul": 6, "owner": 1, "royalties": 4, "points": 10}}
    assert str(pair.reason) == "seat 1 v seat 2: seat 2 fouled, pays foul 6 + seat 1's royalties 4 = 10"


THREE_FLUSHES = ("2c 5c 9c", "2h 4h 6h 8h Th", "3s 7s 9s Js Ks")
FOULED = ("Ah Ad 2d", "Kh Kd 3d 4c 6d", "Qh Qd Qc 7c 8c")  # a pair of kings under a pair of aces
DRAGON = ("2h 3d 4c", "5s 6h 7d 8c 9s", "Th Jd Qc Kd Ac")
SIX_PAIRS = ("2s 2d 3s", "3d 4s 4d 5h 5d", "6c 6d 7c 7h Ks")


def test_cp_8_cp_10_a_fouled_hand_pays_a_declared_natural_the_foul_plus_its_points() -> None:
    # Revision 2 (RULES CP-8 example): a fouled hand pays a declared three flushes 6 + 4 = 10.
    fouled = cp.judge(1, cp.SetHand.parse(*FOULED), TERMS)
    natural = cp.judge(2, cp.SetHand.parse(*THREE_FLUSHES), TERMS, declares_natural=True)
    pair = cp.score_pair(fouled, natural, TERMS)
    assert pair.points == -10
    assert pair.reason.to_record() == {"said": "seat {seat} v seat {other}: {why}", "values": {
        "seat": 1, "other": 2, "why": {
            "said": "seat {loser} fouled, pays foul {foul} + seat {seat}'s {natural} {own} = {points}",
            "values": {"loser": 1, "foul": 6, "seat": 2, "natural": word("three flushes"), "own": 4, "points": -10}}}}
    assert str(pair.reason) == "seat 1 v seat 2: seat 1 fouled, pays foul 6 + seat 2's three flushes 4 = -10"


def test_cp_10_a_dragon_beats_another_natural_and_collects_13() -> None:
    dragon = cp.judge(3, cp.SetHand.parse(*DRAGON), TERMS, declares_natural=True)
    pairs = cp.judge(4, cp.SetHand.parse(*SIX_PAIRS), TERMS, declares_natural=True)
    pair = cp.score_pair(dragon, pairs, TERMS)
    assert pair.points == 13
    assert pair.reason.to_record()["values"]["why"] == {
        "said": "seat {seat}'s {natural} beats seat {loser}'s {theirs}, collects {collected} = {points}",
        "values": {"seat": 3, "natural": word("dragon"), "loser": 4, "theirs": word("six pairs"), "collected": 13,
                   "points": 13}}
    assert str(pair.reason) == "seat 3 v seat 4: seat 3's dragon beats seat 4's six pairs, collects 13 = 13"


def test_cp_13_the_rules_example_each_stake_and_payment_is_a_sentence() -> None:
    # RULES CP-13: points 0 / +12 / -12 at 5 a point, seat 1 holding 10, the others 500:
    # seat 3 pays seat 2 60; seat 1 moves nothing.
    money = pay_table_stakes({1: 10, 2: 500, 3: 500}, {1: 0, 2: 60, 3: -60}, button=1)
    assert [p.reason.to_record() for p in money.payments] == [
        {"said": "seat {payer} pays seat {receiver} {amount}", "values": {"payer": 3, "receiver": 2, "amount": 60}}]
    reasons = {seat: stake.reason for seat, stake in money.stakes.items()}
    assert reasons[1].to_record() == {"said": "seat {seat} moves no chips", "values": {"seat": 1}}
    assert reasons[2].to_record() == {"said": "seat {seat} receives {due}", "values": {"seat": 2, "due": 60}}
    assert reasons[3].to_record() == {"said": "seat {seat} pays {due}", "values": {"seat": 3, "due": 60}}


def test_cp_13_a_loser_short_of_chips_and_the_winner_left_short_say_why() -> None:
    # +20 / -20 points at 5: due 100. Seat 2 holds 60, pays 60 (step 2); M = 60, so seat 1 is owed
    # 100 and receives 60.
    money = pay_table_stakes({1: 500, 2: 60}, {1: 100, 2: -100}, button=2)
    loser, winner = money.stakes[2].reason, money.stakes[1].reason
    assert loser.message == "seat {seat} owes {due} and holds {stack}: pays {moved} (CP-13)"
    assert loser.values == {"seat": 2, "due": 100, "stack": 60, "moved": 60}
    assert str(loser) == "seat 2 owes 100 and holds 60: pays 60 (CP-13)"
    assert winner.message == "seat {seat} is owed {due}: receives {moved}, as the losers hold no more (CP-13)"
    assert winner.values == {"seat": 1, "due": 100, "moved": 60}


def test_cp_12_a_refused_buy_says_why_as_a_sentence() -> None:
    # The full buy-in is 20 points x 5 = 100: a first buy of 60 is refused.
    decision = buy_decision([], 60, PROFILE.profile)
    assert not decision.allowed
    assert decision.reason.message == "the first buy must be a full buy of {full} chips"
    assert decision.reason.values == {"full": 100}
    assert str(decision.reason) == "the first buy must be a full buy of 100 chips"


def test_cp_9_a_declared_natural_the_cards_do_not_hold_is_refused_with_its_sentence() -> None:
    with pytest.raises(IllegalAction) as refused:
        cp.declared_natural(2, cp.SetHand.parse(*SEAT2))
    said = refused.value.said
    assert said.message == ("seat {seat} declares a natural, but the cards hold no dragon, six pairs, "
                            "three flushes or three straights (CP-9)")
    assert said.values == {"seat": 2}


def test_cp_4_cp_8_locking_fouled_rows_unconfirmed_is_refused_with_the_foul_in_the_sentence(tmp_path: Path) -> None:
    table, rnd = two_player_round(tmp_path)
    set_rows(table, 2, *SEAT2_FOULED)
    with pytest.raises(IllegalAction) as refused:
        table.act(Lock(seat=2))
    said = refused.value.said
    assert said.message == "Seat {seat} may not {action}: {reason}"
    assert said.to_record() == {"said": said.message, "values": {
        "seat": 2, "action": word("lock the rows"), "reason": {
            "said": "the rows are fouled: {foul} (CP-4); confirm the foul to lock them anyway (the seat then pays "
                    "every opponent, CP-8)",
            "values": {"foul": {"said": "middle {middle} does not beat front {front}",
                                "values": {"middle": word("high card"), "front": word("one pair")}}}}}}
    assert str(said).startswith("Seat 2 may not lock the rows: the rows are fouled: middle high card does not beat "
                                "front one pair (CP-4)")


def test_cp_14_opening_the_rows_before_every_seat_locks_is_refused_in_the_games_words(tmp_path: Path) -> None:
    table, rnd = two_player_round(tmp_path)
    set_rows(table, 1, *SEAT1)
    table.act(Lock(seat=1))
    with pytest.raises(IllegalAction) as refused:
        table.act(Reveal())
    assert refused.value.said.to_record() == {"said": "The table may not {action}: {reason}", "values": {
        "action": word("open the rows"),
        "reason": {"said": "seat {seat} has not locked the rows", "values": {"seat": 2}}}}


def test_cp_4_the_lock_records_the_foul_as_a_sentence_and_reads_it_back(tmp_path: Path) -> None:
    table, rnd = two_player_round(tmp_path)
    set_rows(table, 2, *SEAT2_FOULED)
    table.act(Lock(seat=2, confirm_foul=True))
    locked = next(e for e in rnd.events if isinstance(e, RowsLocked))
    foul = {"said": "middle {middle} does not beat front {front}",
            "values": {"middle": word("high card"), "front": word("one pair")}}
    stored = json.loads(json.dumps(locked.payload))  # as the ledger keeps it
    assert stored == {"seat": 2, "fouled": True, "foul": foul, "natural": None}
    read = decode("rows_locked", stored, CP)
    assert isinstance(read, RowsLocked) and read == locked
    assert isinstance(read.foul, Said) and read.foul.to_record() == foul
    assert str(read.foul) == "middle high card does not beat front one pair"
    # an older ledger's foul, stored as its English, reads as that text
    older = decode("rows_locked", {**stored, "foul": "middle high card does not beat front one pair"}, CP)
    assert isinstance(older, RowsLocked) and older.foul is not None and older.foul.is_literal
    assert older.foul == "middle high card does not beat front one pair"
