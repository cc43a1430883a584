"""Poker "1 or 5"'s sentences (docs/rules.md R-1..R-12): a payout's reason and a refusal keep
their message and values, read as the English they always read as, and a payout recorded at a
"1 or 5" table stores its reasons structured and reads them back as the same sentences.

Every expected figure is worked out here by hand from the rules (R-2, R-6..R-9) and the
`one-or-five` paytable (R-8: flush 5, two pair 2 to 1; the Ante's limits 5–500, three boxes a
player, exchanges of 1 or 5 cards for a fee of 1x Ante)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from dealer_tui.events import decode
from dealer_tui.events.table import PayoutConfirmed
from dealer_tui.games.one_or_five.steps import Ante, Bet, CutAndDeal, NoInsurance
from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.cards import ScriptedDeck
from dealer_tui.rounds.steps import ConfirmPayout, Reveal
from dealer_tui.rounds.table import Table
from rules.bets import bet_label
from rules.cards import Card, parse_cards
from rules.errors import IllegalAction
from rules.games.one_or_five.profile import OneOrFiveProfile
from rules.games.one_or_five.rules import (
    Action,
    BoxPlay,
    BoxResult,
    hand_of,
    settle,
    verify_exchange,
    verify_insurance,
)
from rules.profiles.loader import ProfileLibrary
from rules.said import Said
from tests.staff_support import staffed_table

LOADED = ProfileLibrary().find("one-or-five")


def _one_or_five() -> OneOrFiveProfile:
    profile = LOADED.profile
    assert isinstance(profile, OneOrFiveProfile)
    return profile


PROFILE = _one_or_five()

FLUSH = "Ah Jh 8h 5h 2h"          # a flush, no straight
KINGS = "Kd Ks 9c 7d 3s"          # one pair: the dealer has a game


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def one_box(dealer: str, box: str, action: Action = Action.BET, ante: int = 10,
            profile: OneOrFiveProfile = PROFILE) -> BoxResult:
    return settle(profile, cards(dealer), [BoxPlay(1, ante, action, cards(box))]).boxes[0]


def said(text: str, message: str, **values: Any) -> None:
    """`text` is a sentence of `message` with exactly these values (nested: `(message, values)`)."""
    assert isinstance(text, Said) and not text.is_literal, repr(text)
    assert text.message == message
    assert text.values is not None and set(text.values) == set(values), (text.values, values)
    for name, value in values.items():
        got = text.values[name]
        if isinstance(value, tuple):
            assert isinstance(got, Said), (name, got)
            said(got, value[0], **value[1])
        else:
            assert type(got) is type(value) and got == value, (name, got, value)


WORD: dict[str, Any] = {}


def word(message: str) -> tuple[str, dict[str, Any]]:
    """A sentence of one word or name (`say("two pair")`), nested in another."""
    return message, WORD


# -- payout reasons --------------------------------------------------------------------------


def test_r_7_a_winning_box_says_its_bet_paid_by_the_paytable_and_its_ante_even_money() -> None:
    # Ante 10, Bet 2 x 10 = 20. Flush beats the dealer's pair of kings: the Bet is
    # paid 5 to 1 (R-8) = 100, the Ante 1:1 = 10.
    box = one_box(KINGS, FLUSH)
    beats = ("{mine} beats the dealer's {theirs}", {"mine": word("flush"), "theirs": word("one pair")})
    said(box.bet.reason, "Bet: {why} — {stake} × {odds} = {paid} (R-7, R-8)", why=beats, stake=20, odds=5, paid=100)
    assert str(box.bet.reason) == "Bet: flush beats the dealer's one pair — 20 × 5 = 100 (R-7, R-8)"
    said(box.ante.reason, "Ante: {why} — pays 1:1, {stake} (R-7)", why=beats, stake=10)
    assert str(box.ante.reason) == "Ante: flush beats the dealer's one pair — pays 1:1, 10 (R-7)"
    said(box.exchange.reason, "Exchange: none")
    said(box.insurance.reason, "Insurance: none")


def test_r_6_no_game_says_the_dealers_hand_the_ante_paid_and_the_bet_returned() -> None:
    # Q-J-8-5-3 holds no pair and no ace-king: queen-high, no game. The closed box's
    # Ante wins 1:1 = 10 and its Bet of 20 is returned.
    box = one_box("Qd Jc 8s 5h 3c", "9s 9d 6c 4d 2s")
    no_game = ("the dealer has no game ({hand})", {"hand": word("queen-high")})
    said(box.ante.reason, "Ante: {why} — pays 1:1, {stake} (R-6)", why=no_game, stake=10)
    assert str(box.ante.reason) == "Ante: the dealer has no game (queen-high) — pays 1:1, 10 (R-6)"
    said(box.bet.reason, "Bet: returned — {why} (R-6)", why=no_game)
    assert str(box.bet.reason) == "Bet: returned — the dealer has no game (queen-high) (R-6)"
    assert (box.ante.result, box.bet.result) == (10, 0)


def test_r_2_a_passed_box_says_its_ante_is_lost() -> None:
    # Passing loses the Ante, 10, whatever the hands; no Bet was made.
    box = one_box(KINGS, FLUSH, Action.FOLD)
    said(box.ante.reason, "Ante: box passed — {stake} lost (R-2)", stake=10)
    assert str(box.ante.reason) == "Ante: box passed — 10 lost (R-2)"
    said(box.bet.reason, "Bet: not made (box passed)")


def test_r_7_two_pair_says_its_ante_is_returned_unpaid() -> None:
    # Two pair beats the dealer's ace-king: the Bet 20 x 2 = 40; the Ante returned unpaid.
    box = one_box("Ad Kd 6c 5s 3h", "Ks Kh 7d 7c 2s")
    said(box.ante.reason, "Ante: returned unpaid — {hand} is paid without the Ante (R-7)", hand=word("two pair"))
    assert str(box.ante.reason) == "Ante: returned unpaid — two pair is paid without the Ante (R-7)"
    beats = ("{mine} beats the dealer's {theirs}", {"mine": word("two pair"), "theirs": word("ace-king")})
    said(box.bet.reason, "Bet: {why} — {stake} × {odds} = {paid} (R-7, R-8)", why=beats, stake=20, odds=2, paid=40)


def test_r_7_identical_ranks_say_stay_with_both_hands_and_their_cards() -> None:
    # K-K-9-7-3 against K-K-9-7-3: identical ranks, both bets returned ("Stay", R-7). The hands
    # share a name, so each is said with its cards (C-7 order).
    box = one_box("Kd Kc 9h 7c 3d", "Ks Kh 9c 7d 3s")
    stay = ("Stay: {mine} and the dealer's {theirs} have identical ranks (R-7)",
            {"mine": ("{hand} {cards}", {"hand": word("one pair"), "cards": "K♠ K♥ 9♣ 7♦ 3♠"}),
             "theirs": ("{hand} {cards}", {"hand": word("one pair"), "cards": "K♦ K♣ 9♥ 7♣ 3♦"})})
    said(box.ante.reason, "Ante: returned — {why}", why=stay)
    said(box.bet.reason, "Bet: returned — {why}", why=stay)
    assert str(box.bet.reason) == ("Bet: returned — Stay: one pair K♠ K♥ 9♣ 7♦ 3♠ and the dealer's one pair "
                                   "K♦ K♣ 9♥ 7♣ 3♦ have identical ranks (R-7)")


def test_r_8_a_capped_box_says_the_cut_after_the_bets_own_reason() -> None:
    # A 50 maximum per box: the flush wins Ante 10 + Bet 100 = 110; the 60 over comes off the
    # Bet first: 100 - 60 = 40.
    capped = PROFILE.model_copy(update={"max_box_payout": 50})
    box = one_box(KINGS, FLUSH, profile=capped)
    beats = ("{mine} beats the dealer's {theirs}", {"mine": word("flush"), "theirs": word("one pair")})
    paid = ("Bet: {why} — {stake} × {odds} = {paid} (R-7, R-8)", {"why": beats, "stake": 20, "odds": 5, "paid": 100})
    said(box.bet.reason, "{reason}; cut by {less} to the {cap} maximum payout per box (R-8)", reason=paid, less=60,
         cap=50)
    assert box.bet.result == 40
    assert str(box.bet.reason) == ("Bet: flush beats the dealer's one pair — 20 × 5 = 100 (R-7, R-8); cut by 60 to "
                                   "the 50 maximum payout per box (R-8)")


def test_r_9_lost_insurance_says_the_dealers_game() -> None:
    # The dealer qualifies with a pair: the premium of 10 is lost.
    result = settle(PROFILE, cards(KINGS), [BoxPlay(1, 10, Action.BET, cards(FLUSH), insurance=10)]).boxes[0]
    said(result.insurance.reason, "Insurance: lost — the dealer qualifies with {hand} (R-9)", hand=word("one pair"))
    assert result.insurance.result == -10


# -- refusals --------------------------------------------------------------------------------


def test_r_4_only_the_open_box_exchanges_as_a_sentence() -> None:
    with pytest.raises(IllegalAction) as refused:
        verify_exchange(PROFILE, 3, 1, open_box=False, exchanged_before=False)
    said(refused.value.said, "Box {box} is not the player's open box: only the open box may exchange (R-4)", box=3)


def test_r_3_a_count_not_allowed_names_the_allowed_counts() -> None:
    # The profile allows exchanges of 1 or 5 cards: 2 is refused.
    with pytest.raises(IllegalAction) as refused:
        verify_exchange(PROFILE, 1, 2, open_box=True, exchanged_before=False)
    allowed = ("{first} or {rest}", {"first": 1, "rest": 5})
    said(refused.value.said, "Box {box}: {problem} (R-3)", box=1,
         problem=("{count} cards may not be exchanged (allowed: {allowed})", {"count": 2, "allowed": allowed}))
    assert str(refused.value) == "Box 1: 2 cards may not be exchanged (allowed: 1 or 5) (R-3)"


def test_r_9_three_of_a_kind_cannot_be_insured_as_a_sentence() -> None:
    # Insurance needs a straight or better.
    with pytest.raises(IllegalAction) as refused:
        verify_insurance(PROFILE, 1, 10, Action.BET, hand_of(cards("9s 9d 9c 4d 2s")), 10)
    problem = ("{hand} cannot be insured (needs {least} or better)",
               {"hand": word("three of a kind"), "least": word("straight")})
    said(refused.value.said, "Box {box} insurance: {problem} (R-9)", box=1, problem=problem)
    assert str(refused.value) == "Box 1 insurance: three of a kind cannot be insured (needs straight or better) (R-9)"


def new_table(tmp_path: Path, deal: str) -> Table:
    table = staffed_table(SqliteLedger(tmp_path / "ledger.sqlite"), "R1", LOADED,
                          ScriptedDeck([parse_cards(deal)]), seats=6)
    table.seat_player(1, "Ann", 1000)
    table.seat_player(2, "Bob", 1000)
    return table


def test_r_2_a_box_out_of_turn_is_refused_with_the_seat_the_step_and_why(tmp_path: Path) -> None:
    # Boxes 1 and 2; box 1 acts first: Bob's box 2 may not close yet.
    table = new_table(tmp_path, f"{FLUSH} 9s 9d 6c 4d 2s {KINGS} Qc Tc 4h")
    table.start_round()
    table.act(Ante(seat=1, amount=10))
    table.act(Ante(seat=2, amount=10))
    table.act(CutAndDeal(cut="player"))
    with pytest.raises(IllegalAction) as refused:
        table.act(Bet(seat=2))
    said(refused.value.said, "Seat {seat} may not {action}: {reason}", seat=2, action=word("close the box"),
         reason=("it is box {box}'s turn ({phase})", {"box": 1, "phase": word("act phase")}))
    assert str(refused.value) == "Seat 2 may not close the box: it is box 1's turn (act phase)"


def test_r_4_an_ante_beyond_the_table_stakes_is_refused_with_its_figures(tmp_path: Path) -> None:
    # Ann holds 1000. Her Ante of 200 on box 1 ties up 200 + 2 x 200 = 600, so she holds 400
    # beyond it; an Ante of 150 needs 3 x 150 = 450 > 400.
    table = new_table(tmp_path, f"{FLUSH} {KINGS}")
    table.start_round()
    table.act(Ante(seat=1, amount=200))
    with pytest.raises(IllegalAction) as refused:
        table.act(Ante(seat=1, amount=150))
    problem = ("of {ante} needs {need} chips beyond the player's other boxes' bets, the Ante and the Bet of {times}× "
               "Ante it may need (R-4); the player holds {holds}", {"ante": 150, "need": 450, "times": 2, "holds": 400})
    said(refused.value.said, "Seat {seat} may not {action}: {reason}", seat=1,
         action=("ante {amount}", {"amount": 150}), reason=("an ante {problem}", {"problem": problem}))
    assert str(refused.value) == ("Seat 1 may not ante 150: an ante of 150 needs 450 chips beyond the player's other "
                                  "boxes' bets, the Ante and the Bet of 2× Ante it may need (R-4); the player holds 400")


def test_r_1_taking_back_an_ante_names_whose_it_was(tmp_path: Path) -> None:
    table = new_table(tmp_path, f"{FLUSH} {KINGS}")
    rnd = table.start_round()
    table.act(Ante(seat=1, amount=10))
    label = rnd.undo_label()
    assert label is not None
    said(label, "seat {seat}'s ante", seat=1)
    assert str(label) == "seat 1's ante"


def test_r_2_the_rows_of_a_box_are_labelled_as_sentences() -> None:
    said(bet_label("bet"), "Bet")
    said(bet_label("exchange"), "Exchange fee")
    said(bet_label("insurance"), "Insurance")


# -- the record --------------------------------------------------------------------------------


def test_r_7_a_recorded_payout_stores_its_reasons_structured_and_reads_them_back(tmp_path: Path) -> None:
    # One box: Ann antes 10, closes (Bet 20), declines insurance on her flush; the dealer's pair
    # of kings loses to it: Ante +10, Bet 20 x 5 = +100.
    table = new_table(tmp_path, f"{FLUSH} {KINGS} Qc Tc 4h")
    table.start_round()
    table.act(Ante(seat=1, amount=10))
    table.act(CutAndDeal(cut="player"))
    table.act(Bet(seat=1))
    table.act(NoInsurance(seat=1))
    table.act(Reveal())
    round_id = table.round_id or 0
    table.act(ConfirmPayout())
    stored = next(e for e in table.ledger.round_events(round_id) if e.kind == "payout_confirmed")
    rows: list[Mapping[str, Any]] = stored.payload["rows"]
    by_bet = {row["bet"]: row for row in rows}
    assert set(by_bet) == {"ante", "bet"}  # no exchange, no insurance: no row
    beats = {"said": "{mine} beats the dealer's {theirs}",
             "values": {"mine": {"said": "flush", "values": {}}, "theirs": {"said": "one pair", "values": {}}}}
    assert by_bet["bet"]["reason"] == {"said": "Bet: {why} — {stake} × {odds} = {paid} (R-7, R-8)",
                                       "values": {"why": beats, "stake": 20, "odds": 5, "paid": 100}}
    assert by_bet["ante"]["reason"] == {"said": "Ante: {why} — pays 1:1, {stake} (R-7)",
                                        "values": {"why": beats, "stake": 10}}
    assert (by_bet["bet"]["result"], by_bet["ante"]["result"]) == (100, 10)
    event = decode(stored.kind, stored.payload, "one-or-five")
    assert isinstance(event, PayoutConfirmed)
    read = {row.bet: row.reason for row in event.rows}
    said(read["bet"], "Bet: {why} — {stake} × {odds} = {paid} (R-7, R-8)",
         why=("{mine} beats the dealer's {theirs}", {"mine": word("flush"), "theirs": word("one pair")}),
         stake=20, odds=5, paid=100)
    assert str(read["bet"]) == "Bet: flush beats the dealer's one pair — 20 × 5 = 100 (R-7, R-8)"
    assert event.payload["rows"] == rows  # written back as it was read
