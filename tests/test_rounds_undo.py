"""Taking back a mis-key: the dealer's last step, while nothing has followed it, is taken back by a
recorded correction; the round is then exactly as if the step had not been made, after a replay
and a restart too; once another step follows, only the supervisor corrects."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_tui.audit import verify_ledger
from dealer_tui.games import GAMES
from dealer_tui.games.high_card_flush.round import HighCardFlushRound
from dealer_tui.games.high_card_flush.steps import Ante, Fold, Raise
from dealer_tui.games.one_or_five import steps as oof
from dealer_tui.games.one_or_five.round import OneOrFiveRound
from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.base import Phase
from dealer_tui.rounds.cards import ScriptedDeck
from dealer_tui.rounds.steps import ConfirmPayout, Deal, Reveal, TakeBack
from dealer_tui.rounds.table import Table
from rules.cards import parse_cards
from rules.errors import IllegalAction
from rules.profiles.loader import ProfileLibrary
from tests.hcf_support import PROFILE as HCF
from tests.hcf_support import hcf_table
from tests.staff_support import staffed_table, void


def test_an_ante_mis_keyed_is_taken_back_and_recorded(tmp_path: Path) -> None:
    table = hcf_table(tmp_path)
    rnd = table.start_round()
    assert isinstance(rnd, HighCardFlushRound)
    table.act(Ante(seat=2, amount=10, flush=5, straight_flush=0))
    table.act(Ante(seat=3, amount=500, flush=0, straight_flush=0))   # meant 50
    assert rnd.undo_label() == "seat 3's ante"
    table.act(TakeBack())
    assert not rnd.seats[3].playing and rnd.seats[3].ante == 0
    assert (rnd.seats[2].ante, rnd.seats[2].flush) == (10, 5)                    # the step before stays
    table.act(Ante(seat=3, amount=50, flush=0, straight_flush=0))
    assert rnd.seats[3].ante == 50
    kinds = [e.kind for e in table.ledger.round_events(table.round_id or 0)]
    assert kinds == ["round_started", "ante_placed", "ante_placed", "step_taken_back", "ante_placed"]
    taken = [e for e in table.ledger.round_events(table.round_id or 0) if e.kind == "step_taken_back"][0]
    assert taken.payload["kind"] == "ante_placed" and taken.payload["payload"]["ante"] == 500
    assert taken.payload["what"] == {"said": "seat {seat}'s ante", "values": {"seat": 3}}  # a sentence, no English


def test_only_the_last_step_is_taken_back_and_only_once(tmp_path: Path) -> None:
    table = hcf_table(tmp_path)
    rnd = table.start_round()
    table.act(Ante(seat=2, amount=10, flush=0, straight_flush=0))
    table.act(TakeBack())
    with pytest.raises(IllegalAction, match="only the dealer's last step may be taken back"):
        table.act(TakeBack())                                                  # the undo is the last step now
    table.act(Ante(seat=2, amount=10, flush=0, straight_flush=0))
    table.act(Ante(seat=3, amount=10, flush=0, straight_flush=0))
    table.act(Deal())                                                    # cards: never taken back
    assert rnd.undoable() is None
    with pytest.raises(IllegalAction, match="after that the supervisor corrects"):
        table.act(TakeBack())


def test_a_fold_mis_keyed_for_the_last_seat_is_taken_back_before_the_reveal(tmp_path: Path) -> None:
    table = hcf_table(tmp_path)
    rnd = table.start_round()
    assert isinstance(rnd, HighCardFlushRound) and rnd.banker == 1
    table.act(Ante(seat=2, amount=10, flush=0, straight_flush=0))
    table.act(Ante(seat=3, amount=10, flush=0, straight_flush=0))
    table.act(Deal())
    table.act(Raise(seat=2, amount=20))            # seat 2's 5-card flush: up to 2x the ante (HCF-6)
    table.act(Fold(seat=3))
    assert rnd.phase is Phase.REVEAL and rnd.undo_label() == "seat 3's fold"
    table.act(TakeBack())
    assert rnd.phase is Phase.ACT and rnd.to_act() is rnd.seats[3]
    table.act(Raise(seat=3, amount=10))            # seat 3's 3-card flush: 1x the ante
    table.act(Reveal())
    assert rnd.phase is Phase.PAYOUT


def test_a_round_with_a_step_taken_back_replays_and_reopens_the_same(tmp_path: Path) -> None:
    table = hcf_table(tmp_path)
    rnd = table.start_round()
    table.act(Ante(seat=2, amount=10, flush=3, straight_flush=0))
    table.act(Ante(seat=3, amount=40, flush=0, straight_flush=0))
    table.act(TakeBack())
    replayed = HighCardFlushRound.replay(HCF.profile, rnd.setup, rnd.events)
    assert {s: (p.ante, p.flush, p.playing) for s, p in replayed.seats.items()} == {
        2: (10, 3, True), 3: (0, 0, False)}
    table.ledger.close()
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    reopened = Table.open(ledger, ledger.tables()[0], GAMES.find(HCF.game), HCF, ScriptedDeck([]))
    assert reopened.round is not None and reopened.round.phase is Phase.ANTE
    assert isinstance(reopened.round, HighCardFlushRound)
    assert (reopened.round.seats[2].ante, reopened.round.seats[3].playing) == (10, False)


def test_a_settled_round_with_a_step_taken_back_verifies(tmp_path: Path) -> None:
    table = hcf_table(tmp_path)
    table.start_round()
    table.act(Ante(seat=2, amount=10, flush=0, straight_flush=0))
    table.act(Ante(seat=3, amount=10, flush=0, straight_flush=0))
    table.act(TakeBack())
    table.act(Deal())
    table.act(Raise(seat=2, amount=20))
    table.act(Reveal())
    table.act(ConfirmPayout())
    # Seat 2 alone is dealt first (SEAT2), the DP next (SEAT3's cards: a 3-card club flush K-9-4,
    # qualifying, HCF-7); seat 2's 5-card heart flush beats it (HCF-9): ante +10, raise +20.
    rows = {(r.seat, r.bet): r.result for r in table.ledger.settlement(table.round_id or 0)}
    assert rows[(2, "ante")] == 10 and rows[(2, "raise")] == 20 and (3, "ante") not in rows
    assert verify_ledger(table.ledger, GAMES) == []


O5 = ProfileLibrary().find("one-or-five")


def test_r_a_pass_mis_keyed_is_taken_back(tmp_path: Path) -> None:
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    deck = parse_cards("2c 3c 8d 9h Js Qs Qd 4c 4h 9s Ah Kd 7c 5s 2h")
    table = staffed_table(ledger, "O1", O5, ScriptedDeck([deck]), seats=6)
    table.seat_player(1, "Ann", 1000)
    table.seat_player(2, "Bob", 1000)
    rnd = table.start_round()
    assert isinstance(rnd, OneOrFiveRound)
    table.act(oof.Ante(seat=1, amount=10))
    table.act(oof.Ante(seat=2, amount=10))
    table.act(oof.CutAndDeal(cut="dealer"))
    table.act(oof.Fold(seat=1))                                                  # box 1 meant to close
    assert rnd.undo_label() == "box 1's pass"
    table.act(TakeBack())
    box = rnd.current_box()
    assert box is not None and box.number == 1 and box.status == "waiting"
    table.act(oof.Bet(seat=1))
    assert box.status == "closed" and rnd.committed(1) == 10 + 20            # the Bet is 2x the ante


def test_r_1_the_same_bets_as_last_round_on_the_same_boxes(tmp_path: Path) -> None:
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    deck = parse_cards("2c 3c 8d 9h Js Qs Qd 4c 4h 9s Ah Kd 7c 5s 2h")
    table = staffed_table(ledger, "O2", O5, ScriptedDeck([deck]), seats=6)
    table.seat_player(1, "Ann", 1000)
    table.seat_player(2, "Bob", 1000)
    table.start_round()
    table.act(oof.Ante(seat=1, amount=10, box=1))
    table.act(oof.Ante(seat=1, amount=20, box=3))
    table.act(oof.Ante(seat=2, amount=15, box=2))
    table.act(oof.Ante(seat=2, amount=5, box=4))
    table.act(oof.Withdraw(seat=2, box=4))     # Bob takes box 4 back before the deal
    void(table, "test: a misdeal before the deal")
    rnd = table.start_round()
    assert isinstance(rnd, OneOrFiveRound)
    table.repeat_bets(1)
    table.repeat_bets(2)
    assert {b.number: (b.seat, b.ante) for b in rnd.boxes.values()} == {1: (1, 10), 3: (1, 20), 2: (2, 15)}
    with pytest.raises(IllegalAction, match="placed no bets last round"):
        table.repeat_bets(3)


def test_r_4_o_moves_the_open_box_round_the_players_boxes_and_a_repeats_it(tmp_path: Path) -> None:
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    deck = parse_cards("2c 3c 8d 9h Js Qs Qd 4c 4h 9s Ah Kd 7c 5s 2h 6c 6d 6h 6s Tc")
    table = staffed_table(ledger, "O3", O5, ScriptedDeck([deck]), seats=6)
    table.seat_player(1, "Ann", 1000)
    rnd = table.start_round()
    assert isinstance(rnd, OneOrFiveRound)
    for box in (1, 2, 3):
        table.act(oof.Ante(seat=1, amount=10, box=box))
    assert rnd.open_boxes[1] == 1                       # the first box plays open until o moves it
    seen = []
    for _ in range(3):                                  # o, o, o: box 2, box 3, then box 1 again
        spec = next(s for s in rnd.legal_steps() if s.kind == "open_box" and s.seat == 1)
        table.act(oof.OpenBox(seat=1, **dict(spec.data)))
        seen.append(rnd.open_boxes[1])
    assert seen == [2, 3, 1]
    spec = next(s for s in rnd.legal_steps() if s.kind == "open_box" and s.seat == 1)
    table.act(oof.OpenBox(seat=1, **dict(spec.data)))
    assert rnd.open_boxes[1] == 2
    void(table, "test")
    again = table.start_round()
    assert isinstance(again, OneOrFiveRound)
    table.repeat_bets(1)
    assert sorted(again.boxes) == [1, 2, 3] and again.open_boxes[1] == 2   # the same boxes, box 2 open


def test_r_sign_off_counts_a_players_boxes_together_and_names_the_seat(tmp_path: Path) -> None:
    import dataclasses

    low = dataclasses.replace(O5, profile=O5.profile.model_copy(update={"sign_off_threshold": 30}))
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    # three boxes of junk, then the dealer's 2-4-7-9-J: no pair and no ace-king, no game
    deck = parse_cards("3c 5c 8d Th Qs 3d 5d 8h Ts Qc 3h 5h 8s Tc Qd 2c 4d 7h 9s Jc 6c 6d 6h 6s Kc")
    table = staffed_table(ledger, "O4", low, ScriptedDeck([deck]), seats=6)
    table.seat_player(1, "Ann", 1000)
    table.seat_player(2, "Bob", 1000)
    rnd = table.start_round()
    assert isinstance(rnd, OneOrFiveRound)
    table.act(oof.Ante(seat=1, amount=10, box=1))
    table.act(oof.Ante(seat=1, amount=10, box=2))
    table.act(oof.Ante(seat=2, amount=10, box=3))
    table.act(oof.CutAndDeal(cut="dealer"))
    for _ in range(3):
        box = rnd.current_box()
        assert box is not None
        table.act(oof.Bet(seat=box.seat))
    table.act(Reveal())
    # R-6, no game: each closed box's Ante wins 1:1 (paid: stake 10 + 10), its Bet is returned.
    # Ann's boxes 1 and 2: 20 + 20 = 40 >= 30; Bob's box 3: 20 < 30.
    assert rnd.player_payouts() == {1: 40, 2: 20}
    assert rnd.sign_off_needed() == [1]
    with pytest.raises(IllegalAction, match="seat 1 is paid 30 or more"):
        table.act(ConfirmPayout())
