"""Palace Poker's reasons and refusals are sentences (`rules.said`): each keeps its message (the
English template the catalogs translate) and its values, reads as the English it always did, and
is stored in the record as that message and those values, never as a sentence.

Every expected figure is worked out by hand from RULES.md (PP-0..PP-18). The test profile
(tests/palace_support.py): small bet 10, big bet 30, ante 5, limit, at most 3 raises. Scripted
seats 1..n draw 2c, 3c, 4c for the first dealer, so seat 3 deals and seat 1 acts first (PP-0).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_tui.audit import verify_ledger
from dealer_tui.events import decode, typed_as
from dealer_tui.games import GAMES
from dealer_tui.games.palace_poker.events import BattleDecided, SoldiersKept
from dealer_tui.games.palace_poker.steps import Buy, Call, Fold, Keep, Stay
from dealer_tui.ledger.base import SettlementRow
from dealer_tui.rounds.base import Phase
from dealer_tui.rounds.steps import ConfirmPayout, Reveal
from dealer_tui.rounds.table import Table
from rules.cards import parse_cards
from rules.errors import IllegalAction
from rules.games.palace_poker.battle import buy
from rules.games.palace_poker.hand_end import split_pot
from rules.games.palace_poker.rules import PalaceHand
from rules.said import Said
from tests.palace_support import LIMIT, THREE, act, attack, dealt, play, script
from tests.staff_support import staffed

GAME = "palace-poker"


def said(text: str) -> Said:
    """A sentence the rules said (a plain text would be an English sentence lost to translation)."""
    assert isinstance(text, Said) and not text.is_literal, repr(text)
    return text


def part(sentence: str, name: str) -> Said:
    """A part of a sentence that is a sentence of its own (`{hand}`, `{reason}`)."""
    value = (said(sentence).values or {})[name]
    assert isinstance(value, Said), (name, value)
    return value


def award(table: Table) -> list[SettlementRow]:
    """The reveal awards the pot and the payout is confirmed; the ledger re-settles the round."""
    rnd = table.round
    assert rnd is not None and rnd.phase is Phase.REVEAL
    act(table, Reveal())
    outcome = rnd.outcome()
    assert outcome is not None
    act(table, ConfirmPayout(**staffed(table.ledger).approval(table)))
    assert verify_ledger(table.ledger, GAMES) == []
    return list(outcome.rows)


# ------------------------------------------------------------------------------ a settled round's rows

def test_pp_16_pp_17_a_split_showdown_pays_each_share_as_a_sentence(tmp_path: Path) -> None:
    # Seats 1 and 2 hold A♠ K♦ 9♠ 7♥ and A♥ K♠ 9♥ 7♦: the same high card, seat 3 only Q high. Three
    # stays make a quiet orbit: a showdown (PP-16). Pot: 3 antes x 5 = 15, split by 2 = 7 rest 1; the
    # odd chip goes clockwise from the dealer (seat 3) to seat 1 first: 8 and 7 (PP-17).
    table, _rnd = dealt(tmp_path, script("As Ah Qc", "Kd 9s 7h", "Ks 9h 7d", "Jc 8d 3s"))
    play(table, Stay(seat=1), Stay(seat=2), Stay(seat=3))
    rows = award(table)
    pots = {row.seat: row for row in rows if row.bet == "pot"}
    assert {seat: row.result for seat, row in pots.items()} == {1: 8, 2: 7}

    first = said(pots[1].reason)
    assert first.message == "{reason}: {share}"
    share = part(first, "share")
    assert share.message == ("seat {seat}: {pot} ÷ {winners} = {each} + 1 odd chip (clockwise from the dealer on "
                             "seat {dealer}) = {share}")
    assert share.values == {"seat": 1, "pot": 15, "winners": 2, "each": 7, "dealer": 3, "share": 8}
    second = part(pots[2].reason, "share")
    assert second.message == "seat {seat}: {pot} ÷ {winners} = {each}"
    assert second.values == {"seat": 2, "pot": 15, "winners": 2, "each": 7}

    showdown = part(first, "reason")
    assert showdown.message == "showdown: {hands}: {verdict}"
    verdict = part(showdown, "verdict")
    assert verdict.message == "{seats} tie with {hand} and split the pot of {pot} (PP-16, PP-17)"
    assert verdict.values is not None and verdict.values["pot"] == 15
    assert part(verdict, "hand").message == "high card"
    seats = part(verdict, "seats")
    assert (seats.message, seats.values) == ("seats {seats} and {last}", {"seats": "1", "last": 2})
    assert str(pots[1].reason) == (
        "showdown: seat 1 high card A♠ K♦ 9♠ 7♥; seat 2 high card A♥ K♠ 9♥ 7♦; seat 3 high card Q♣ J♣ 8♦ 3♠: "
        "seats 1 and 2 tie with high card and split the pot of 15 (PP-16, PP-17): "
        "seat 1: 15 ÷ 2 = 7 + 1 odd chip (clockwise from the dealer on seat 3) = 8")


def test_pp_1_the_ante_row_says_its_figures(tmp_path: Path) -> None:
    # PP-1: each player antes 5 for a banner; the row says so with the figure as a number.
    table, _rnd = dealt(tmp_path, script("As Ah Qc", "Kd 9s 7h", "Ks 9h 7d", "Jc 8d 3s"))
    play(table, Stay(seat=1), Stay(seat=2), Stay(seat=3))
    antes = [row for row in award(table) if row.bet == "ante"]
    assert [row.seat for row in antes] == [1, 2, 3]
    for row in antes:
        reason = said(row.reason)
        assert (reason.message, reason.values) == ("ante {stake} into the pot for a banner (PP-1)", {"stake": 5})
        assert str(reason) == "ante 5 into the pot for a banner (PP-1)"


def test_pp_3_pp_13_the_settlement_rows_the_ledger_holds_read_back_as_sentences(tmp_path: Path) -> None:
    # Seat 1 buys J♠ for one small bet (PP-3), then seats 2 and 3 fold on their turns: seat 1 is the
    # last player standing and wins the pot: antes 3 x 5 + buy 10 = 25 (PP-13).
    table, rnd = dealt(tmp_path, THREE)
    play(table, Buy(seat=1), Keep(seat=1, discard=""), Fold(seat=2), Fold(seat=3))
    award(table)
    assert table.round_id is not None
    stored = {(row.seat, row.bet): row for row in table.ledger.settlement(table.round_id)}
    bought = said(stored[1, "buy"].reason)
    assert (bought.message, bought.values) == ("{times} buy × {small} = {stake} into the pot (PP-3)",
                                               {"times": 1, "small": 10, "stake": 10})
    won = said(stored[1, "pot"].reason)
    assert won.message == "seat {seat} is the last player standing and wins the pot of {pot} (PP-13)"
    assert won.values == {"seat": 1, "pot": 25} and stored[1, "pot"].result == 25
    assert str(won) == "seat 1 is the last player standing and wins the pot of 25 (PP-13)"
    assert rnd.state.end is not None and rnd.state.end.rule == "PP-13"


# ------------------------------------------------------------------------------------------ refusals

def test_pp_18_a_buy_the_seat_cannot_pay_is_refused_with_its_figures() -> None:
    # PP-18: a Buy costs one small bet, 10; a seat holding 7 may not buy. The rules say who, what and
    # why as parts of one sentence.
    hand = PalaceHand(2, parse_cards("Kh")[0], tuple(parse_cards("Tc Jc Qc")))
    with pytest.raises(IllegalAction) as refused:
        buy(hand, parse_cards("Js")[0], (), stack=7, profile=LIMIT.profile)  # type: ignore[arg-type]
    sentence = refused.value.said
    assert (sentence.message, (sentence.values or {})["seat"]) == ("seat {seat} {predicate}", 2)
    cannot = part(sentence, "predicate")
    assert cannot.message == "cannot buy: {why}"
    why = part(cannot, "why")
    assert (why.message, why.values) == ("holds {stack}, a buy costs {cost} (PP-18)", {"stack": 7, "cost": 10})
    assert str(sentence) == "seat 2 cannot buy: holds 7, a buy costs 10 (PP-18)"


def test_pp_18_the_round_refuses_a_short_seat_in_the_dealers_words(tmp_path: Path) -> None:
    # Seat 2 sits down with 12 and antes 5: 7 left, short of a buy of 10 (PP-18). The round says
    # "Seat 2 may not buy: it holds 7, ...": the refused step and its reason stay sentences.
    table, _rnd = dealt(tmp_path, THREE, [1000, 12, 1000])
    play(table, Stay(seat=1))
    with pytest.raises(IllegalAction) as refused:
        table.act(Buy(seat=2))
    sentence = refused.value.said
    assert str(sentence) == "Seat 2 may not buy: it holds 7, a buy costs 10 (PP-18)"
    assert (sentence.values or {})["seat"] == 2
    assert part(sentence, "action").message == "buy"
    reason = part(sentence, "reason")
    assert reason.message == "it {reason}"
    why = part(reason, "reason")
    assert (why.message, why.values) == ("holds {stack}, a buy costs {cost} (PP-18)", {"stack": 7, "cost": 10})


def test_pp_7_an_attack_on_a_seat_not_in_the_hand_is_refused_as_a_sentence(tmp_path: Path) -> None:
    # PP-7: the attacker names an opponent in the hand; seats 1-3 play, so seat 9 is refused, the
    # attack and the reason each a sentence with the seat as a number.
    table, _rnd = dealt(tmp_path, THREE)
    with pytest.raises(IllegalAction) as refused:
        table.act(attack(1, 9))
    sentence = refused.value.said
    assert str(sentence) == "Seat 1 may not attack seat 9: seat 9 is not in the hand"
    action, reason = part(sentence, "action"), part(sentence, "reason")
    assert (action.message, action.values) == ("attack seat {target}", {"target": 9})
    assert (reason.message, reason.values) == ("seat {seat} is not in the hand", {"seat": 9})


def test_pp_17_each_share_of_a_split_pot_is_a_sentence() -> None:
    # PP-17: 35 split by 2 = 17 rest 1; clockwise from the dealer on seat 3 the first winner is seat 1.
    shares = {share.seat: share for share in split_pot(35, (1, 2), dealer=3)}
    assert {seat: share.amount for seat, share in shares.items()} == {1: 18, 2: 17}
    assert said(shares[1].reason).values == {"seat": 1, "pot": 35, "winners": 2, "each": 17, "dealer": 3,
                                             "share": 18}
    assert said(shares[2].reason).values == {"seat": 2, "pot": 35, "winners": 2, "each": 17}
    assert str(shares[1].reason) == "seat 1: 35 ÷ 2 = 17 + 1 odd chip (clockwise from the dealer on seat 3) = 18"


# ------------------------------------------------------------------------------------- stored events

def test_pp_9_a_called_battles_result_is_stored_as_its_message_and_values(tmp_path: Path) -> None:
    # Seat 1 (banner 7♠, palace A♥ A♦ 8♣) attacks seat 2 (K♥, palace K♦ 9♠ 7♣), which calls. Against
    # hearts seat 1's A♥ does not play: A♦ 8♣ 7♠, ace high. Seat 2 ignores spades (9♠): K♥ K♦ 7♣, a
    # pair of kings, and wins; seat 1 is out (PP-9).
    table, rnd = dealt(tmp_path, script("7s Kh Qd", "Ah Ad 8c", "Kd 9s 7c", "Jh Th 9h"))
    play(table, attack(1, 2), Call(seat=2))
    decided = typed_as(BattleDecided, rnd.events[-2])
    reason = said(decided.reason)
    assert reason.message == "{hands}: seat {winner} wins, seat {loser} is out (PP-9)"
    assert (reason.values or {})["winner"] == 2 and (reason.values or {})["loser"] == 1
    hands = part(reason, "hands")
    attacker, defender = part(hands, "attacker"), part(hands, "defender")
    assert attacker.message == "seat {seat} {hand} {cards} (ignoring {ignored})"
    assert {k: v for k, v in (attacker.values or {}).items() if k != "hand"} == {
        "seat": 1, "cards": "A♦ 8♣ 7♠", "ignored": "A♥"}
    assert part(attacker, "hand").message == "high card"
    assert part(defender, "hand").message == "one pair"

    assert table.round_id is not None
    stored = next(e for e in table.ledger.round_events(table.round_id) if e.kind == "battle_decided")
    record = stored.payload["reason"]
    assert isinstance(record, dict) and set(record) == {"said", "values"}
    assert record["said"] == "{hands}: seat {winner} wins, seat {loser} is out (PP-9)"
    assert record["values"]["winner"] == 2 and record["values"]["loser"] == 1
    assert record["values"]["hands"]["said"] == "{attacker} against {defender}"
    again = typed_as(BattleDecided, decode(stored.kind, stored.payload, GAME))
    assert said(again.reason).to_record() == reason.to_record()
    assert str(again.reason) == str(reason) == (
        "seat 1 high card A♦ 8♣ 7♠ (ignoring A♥) against seat 2 one pair K♥ K♦ 7♣ (ignoring 9♠): "
        "seat 2 wins, seat 1 is out (PP-9)")


def test_pp_8_the_soldiers_a_capture_keeps_round_trip_as_a_sentence(tmp_path: Path) -> None:
    # Seat 2 buys J♠ (PP-3); seat 1 attacks it and it folds: seat 1 takes the banner K♥ and the
    # soldier J♠, 2 soldiers, nothing to discard (PP-8).
    table, rnd = dealt(tmp_path, THREE)
    play(table, Stay(seat=1), Buy(seat=2), Keep(seat=2, discard=""), Stay(seat=3), attack(1, 2), Fold(seat=2))
    kept = typed_as(SoldiersKept, rnd.events[-1])
    reason = said(kept.reason)
    assert str(reason) == "seat 1 beats seat 2, takes K♥ J♠, keeps 2 soldiers"
    record = kept.record().payload["reason"]
    parts = [record["values"][f"part{i}"] for i in range(3)]
    assert parts[0] == {"said": "seat {seat} {predicate}",
                        "values": {"seat": 1, "predicate": {"said": "beats seat {loser}", "values": {"loser": 2}}}}
    assert parts[1] == {"said": "takes {cards}", "values": {"cards": "K♥ J♠"}}
    assert parts[2] == {"said": "keeps {count} soldiers", "values": {"count": 2}}
    again = typed_as(SoldiersKept, decode(kept.kind, kept.record().payload, GAME))
    assert said(again.reason).to_record() == reason.to_record() and again == kept


def test_an_older_ledgers_english_reason_reads_as_written() -> None:
    # A reason stored before reasons were sentences is a plain text: it reads back as a literal.
    payload = {"seat": 2, "cost": 10, "discarded_cards": "5h", "soldier_cards": "", "reason": "seat 2 pays 10 to discard"}
    event = decode("soldiers_discarded", payload, GAME)
    reason = getattr(event, "reason")
    assert isinstance(reason, Said) and reason.is_literal and str(reason) == "seat 2 pays 10 to discard"
