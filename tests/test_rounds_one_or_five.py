"""Poker "1 or 5" rounds through the real table runner and ledger (docs/rules.md R-1..R-12)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_tui.games import GAMES
from dealer_tui.games.one_or_five.round import OneOrFiveRound
from dealer_tui.games.one_or_five.steps import (
    Ante,
    Bet,
    CutAndDeal,
    Exchange,
    Fold,
    Insure,
    NoInsurance,
    OpenBox,
    Withdraw,
)
from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.base import Phase
from dealer_tui.rounds.cards import ScriptedDeck
from dealer_tui.rounds.steps import ConfirmPayout, Reveal
from dealer_tui.rounds.table import Table
from rules.cards import parse_cards
from rules.errors import IllegalAction
from rules.profiles.loader import ProfileLibrary
from tests.staff_support import staffed_table, void

PROFILE = ProfileLibrary().find("one-or-five")
# Deal order: box 1, box 2, then the dealer; the stub follows.
BOX1 = "Ah Kh Qh Jh 2c"      # four to a royal: exchange the 2c
BOX2 = "9s 9d 5c 4d 3s"      # a pair of nines
DEALER = "Ad Kd 7c 6s 2h"    # ace-king: the dealer has a game
STUB = "Th 8c 8d"            # the 2c is exchanged for the Th: a royal flush


def deck() -> ScriptedDeck:
    return ScriptedDeck([parse_cards(f"{BOX1} {BOX2} {DEALER} {STUB}")])


def new_table(tmp_path: Path, source: ScriptedDeck | None = None) -> Table:
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    table = staffed_table(ledger, "R1", PROFILE, source or deck(), seats=6)
    table.seat_player(1, "Ann", 1000)
    table.seat_player(2, "Bob", 1000)
    return table


def antes_and_deal(table: Table) -> OneOrFiveRound:
    rnd = table.start_round()
    assert isinstance(rnd, OneOrFiveRound)
    table.act(Ante(seat=1, amount=10))   # box 1
    table.act(Ante(seat=2, amount=10))   # box 2
    table.act(CutAndDeal(cut="player"))
    return rnd


def test_r_1_five_cards_each_and_the_dealers_last_card_known(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    rnd = antes_and_deal(table)
    assert [c.text for c in rnd.boxes[1].cards] == BOX1.split()
    assert [c.text for c in rnd.dealer] == DEALER.split()
    assert rnd.dealer[-1].text == "2h"  # the up card
    assert rnd.cut_by == "player" and rnd.phase is Phase.ACT


def test_r_2_boxes_act_strictly_in_order(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    antes_and_deal(table)
    with pytest.raises(IllegalAction, match="Seat 2 may not close the box: it is box 1's turn"):
        table.act(Bet(seat=2))
    table.act(Fold(seat=1))
    with pytest.raises(IllegalAction, match="Seat 1 may not close the box: it is box 2.s turn"):
        table.act(Bet(seat=1))  # no going back to box 1


def test_r_3_exchange_charges_the_fee_and_draws_from_the_stub(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    rnd = antes_and_deal(table)
    table.act(Exchange(seat=1, amount=1, discard="2c"))
    assert sorted(c.text for c in rnd.boxes[1].cards) == sorted("Ah Kh Qh Jh Th".split())
    assert rnd.committed(1) == 10 + 10  # ante 10 + fee 1 x 10
    with pytest.raises(IllegalAction, match="already exchanged"):
        table.act(Exchange(seat=1, amount=1, discard="Th"))


def test_r_3_exchange_counts_come_from_the_profile(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    antes_and_deal(table)
    with pytest.raises(IllegalAction, match=r"2 cards may not be exchanged \(allowed: 1 or 5\)"):
        table.act(Exchange(seat=1, amount=2, discard="2c Jh"))


def test_r_4_only_the_open_box_may_exchange(tmp_path: Path) -> None:
    table = new_table(tmp_path, ScriptedDeck([parse_cards(f"{BOX1} {BOX2} 4c 4h 5s 6d 7h {DEALER} {STUB}")]))
    rnd = table.start_round()
    table.act(Ante(seat=1, amount=10))   # box 1: Ann's open box
    table.act(Ante(seat=2, amount=10))   # box 2
    table.act(Ante(seat=1, amount=10))   # box 3: Ann's second box, played closed
    table.act(CutAndDeal())
    table.act(Bet(seat=1))
    table.act(NoInsurance(seat=1)) if rnd.current_box() and rnd.current_box().number == 1 else None
    table.act(Fold(seat=2))
    kinds = {s.kind for s in rnd.legal_steps()}
    assert "exchange" not in kinds  # box 3 is not Ann's open box
    with pytest.raises(IllegalAction, match="not the player's open box"):
        table.act(Exchange(seat=1, amount=1, discard="4c"))


def test_r_7_r_8_royal_flush_after_exchange_is_paid_by_the_paytable(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    rnd = antes_and_deal(table)
    table.act(Exchange(seat=1, amount=1, discard="2c"))
    table.act(Bet(seat=1))              # close with 2 x 10 = 20
    table.act(NoInsurance(seat=1))     # a royal flush may be insured; declined
    table.act(Bet(seat=2))              # pair of nines, closed: no insurance offered
    assert rnd.phase is Phase.REVEAL
    table.act(Reveal())
    outcome = rnd.outcome()
    assert outcome is not None
    rows = {(r.seat, r.bet): r.result for r in outcome.rows}
    # box 1: royal flush beats ace-king: Bet 20 x 100 = 2000, Ante 1:1 = 10, fee -10
    assert rows[(1, "bet")] == 2000 and rows[(1, "ante")] == 10 and rows[(1, "exchange")] == -10
    # box 2: pair of nines beats ace-king: Bet 20 x 1 = 20, Ante 10
    assert rows[(2, "bet")] == 20 and rows[(2, "ante")] == 10
    assert outcome.stack_changes == {1: 2000, 2: 30}
    assert outcome.house == -2030


def test_payout_over_the_sign_off_threshold_needs_a_supervisor(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    rnd = antes_and_deal(table)
    for action in (Exchange(seat=1, amount=1, discard="2c"), Bet(seat=1),
                   NoInsurance(seat=1), Bet(seat=2), Reveal()):
        table.act(action)
    # box 1 wins 2000 - 10 = 1990 chips... below 5000: use a lower threshold profile
    assert rnd.sign_off_needed() == []
    table.act(ConfirmPayout())
    assert table.session.stacks() == {1: 1000 + 2000, 2: 1000 + 30}
    assert table.session.chips_balance() == 0


def test_r_9_insurance_only_on_a_closed_straight_or_better_within_its_bounds(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    rnd = antes_and_deal(table)
    table.act(Exchange(seat=1, amount=1, discard="2c"))
    table.act(Bet(seat=1))
    spec = next(s for s in rnd.legal_steps() if s.kind == "insure")
    # premium from 1x Ante = 10 to half the Bet's win: 20 x 100 / 2 = 1000, but Ann has only
    # 1000 - (ante 10 + fee 10 + bet 20) = 960 chips free
    assert (spec.min_amount, spec.max_amount) == (10, 960)
    with pytest.raises(IllegalAction, match="outside 10–1000"):
        table.act(Insure(seat=1, amount=1001))
    table.act(Insure(seat=1, amount=50))
    table.act(Bet(seat=2))
    assert not any(s.kind == "insure" for s in rnd.legal_steps())  # a pair is not insurable
    table.act(Reveal())
    rows = {(r.seat, r.bet): r.result for r in rnd.outcome().rows}  # type: ignore[union-attr]
    assert rows[(1, "insurance")] == -50  # the dealer qualified: insurance lost


def test_r_12_misdeal_voids_the_round_and_returns_everything(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    rnd = antes_and_deal(table)
    table.act(Exchange(seat=1, amount=1, discard="2c"))
    with pytest.raises(IllegalAction, match="needs a reason"):
        void(table, "  ")
    void(table, "dealer's hole card exposed")
    assert rnd.phase is Phase.VOID
    assert table.session.stacks() == {1: 1000, 2: 1000}
    record = table.ledger.round(table.round_id or 0)
    assert record.status == "voided" and "voided" in record.flags


def test_no_chip_moves_on_an_illegal_key_in_the_wrong_phase(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    rnd = table.start_round()
    before = len(table.ledger.round_events(table.round_id or 0))
    with pytest.raises(IllegalAction, match="The table may not reveal: not allowed in the ante phase"):
        table.act(Reveal())
    with pytest.raises(IllegalAction, match="ante 1"):
        table.act(Ante(seat=1, amount=1))  # below the table minimum of 5
    assert len(table.ledger.round_events(table.round_id or 0)) == before
    assert rnd.committed(1) == 0


def test_recovery_reopens_the_round_where_it_stopped(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    antes_and_deal(table)
    table.act(Exchange(seat=1, amount=1, discard="2c"))
    ledger_path = table.ledger.path
    table.ledger.close()
    # a new process: open the ledger again
    ledger = SqliteLedger(ledger_path)
    again = Table.open(ledger, ledger.tables()[0], GAMES.find(PROFILE.game), PROFILE, deck())
    rnd = again.round
    assert isinstance(rnd, OneOrFiveRound)
    assert rnd.phase is Phase.ACT and rnd.current_box().number == 1  # type: ignore[union-attr]
    assert sorted(c.text for c in rnd.boxes[1].cards) == sorted("Ah Kh Qh Jh Th".split())
    assert "recovered" in ledger.round(again.round_id or 0).flags
    for action in (Bet(seat=1), NoInsurance(seat=1), Bet(seat=2), Reveal(),
                   ConfirmPayout()):
        again.act(action)
    assert again.session.stacks() == {1: 3000, 2: 1030}
    from dealer_tui.audit import verify_ledger

    assert verify_ledger(ledger, GAMES) == []


# R-4 table stakes --------------------------------------------------------------------------


def stakes_table(tmp_path: Path, ann: int) -> Table:
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    table = staffed_table(ledger, "R1", PROFILE, deck(), seats=6)
    table.seat_player(1, "Ann", ann)
    table.seat_player(2, "Bob", 1000)
    return table


def test_r_4_player_with_150_antes_50_exchange_refused(tmp_path: Path) -> None:
    # Ann holds 150: an Ante of 50 needs 3 x 50 = 150 (accepted). After it she holds
    # 150 - 50 = 100 beyond the Ante; an exchange needs the fee 1 x 50 = 50 plus the Bet
    # 2 x 50 = 100 = 150 > 100: not offered, and refused with R-4. She can still close (100).
    table = stakes_table(tmp_path, 150)
    rnd = table.start_round()
    assert isinstance(rnd, OneOrFiveRound)
    table.act(Ante(seat=1, amount=50))  # box 1, Ann's open box
    table.act(Ante(seat=2, amount=10))  # box 2
    table.act(CutAndDeal())
    kinds = {s.kind for s in rnd.legal_steps()}
    assert "exchange" not in kinds and {"bet", "fold"} <= kinds
    refused = (r"Seat 1 may not exchange: Box 1: the fee 50 and the Bet 100 it would then need "
               r"make 150, and the player holds 100 .*\(R-4\)")
    with pytest.raises(IllegalAction, match=refused):
        table.act(Exchange(seat=1, amount=1, discard="2c"))
    from dealer_tui.games.one_or_five.presenter import PRESENTER
    from dealer_tui.views import with_keys

    assert with_keys(PRESENTER.prompt(rnd), {"close_box": "b", "fold": "f"}) == (
        "Box 1: b close (bet 100), f pass. No exchange: fee 50 + Bet 100 = 150, 100 held (R-4).")
    table.act(Bet(seat=1))  # 150 - 50 = 100 free: the Bet of 100 is covered
    assert rnd.committed(1) == 150 and rnd.available(1) == 0


def test_r_4_with_the_fee_and_the_bet_held_the_exchange_is_offered(tmp_path: Path) -> None:
    # Ann holds 200: beyond her Ante of 50 she holds 150 = fee 50 + Bet 100: offered; after it
    # 200 - 50 - 50 = 100 are free, exactly the Bet.
    table = stakes_table(tmp_path, 200)
    rnd = table.start_round()
    assert isinstance(rnd, OneOrFiveRound)
    table.act(Ante(seat=1, amount=50))
    table.act(Ante(seat=2, amount=10))
    table.act(CutAndDeal())
    assert "exchange" in {s.kind for s in rnd.legal_steps()}
    table.act(Exchange(seat=1, amount=1, discard="2c"))
    assert rnd.available(1) == 100 and "bet" in {s.kind for s in rnd.legal_steps()}
    table.act(Bet(seat=1))
    assert rnd.available(1) == 0


def test_r_4_ante_needs_three_times_beyond_other_boxes(tmp_path: Path) -> None:
    # Ann holds 300. Box 1, Ante 50: 3 x 50 = 150 <= 300. Box 1 ties up 50 + 2 x 50 = 150, so
    # she holds 300 - 150 = 150 beyond it: a second Ante may be at most 150 / 3 = 50 (51 needs
    # 153). With both boxes placed she holds 300 - 150 - 150 = 0: no third Ante is offered.
    table = stakes_table(tmp_path, 300)
    rnd = table.start_round()
    assert isinstance(rnd, OneOrFiveRound)
    spec = next(s for s in rnd.legal_steps() if s.kind == "ante" and s.seat == 1)
    assert spec.max_amount == 100  # 300 / 3
    table.act(Ante(seat=1, amount=50))
    spec = next(s for s in rnd.legal_steps() if s.kind == "ante" and s.seat == 1)
    assert (spec.min_amount, spec.max_amount) == (5, 50)
    refused = (r"Seat 1 may not ante 51: an ante of 51 needs 153 chips beyond the player's other "
               r"boxes' bets.*\(R-4\); the player holds 150")
    with pytest.raises(IllegalAction, match=refused):
        table.act(Ante(seat=1, amount=51))
    table.act(Ante(seat=1, amount=50))
    assert rnd.holds(1) == 0
    assert not any(s.kind == "ante" and s.seat == 1 for s in rnd.legal_steps())
    with pytest.raises(IllegalAction, match=r"Seat 1 may not ante 5: .*needs 15 chips.*holds 0"):
        table.act(Ante(seat=1, amount=5))
    with pytest.raises(IllegalAction, match=r"Seat 1 may not ante 5: .*needs 15 chips.*holds 0"):
        table.act(Ante(seat=1))  # no amount (a key pressed): why not even the table minimum 5


def test_r_4_a_refused_ante_names_its_reason_when_every_box_is_taken(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    table.start_round()
    for seat in (1, 1, 1, 2, 2, 2):  # 3 boxes each of the 6
        table.act(Ante(seat=seat, amount=10))
    with pytest.raises(IllegalAction, match=r"Seat 1 may not ante: all 6 boxes are taken"):
        table.act(Ante(seat=1, amount=10))


@pytest.mark.parametrize(("first_box", "offered"), [(Fold, True), (Bet, False)])
def test_r_4_a_passed_box_frees_its_bet_for_a_later_exchange(
    tmp_path: Path, first_box: type[Fold | Bet], offered: bool
) -> None:
    # Ann holds 250: box 1 Ante 25 (needs 75), box 2 Ante 50 (needs 150 of the 250 - 75 = 175
    # she holds beyond box 1), played open. Box 1 passes: it ties up its Ante 25 only, so beyond
    # box 1 and box 2's Ante she holds 250 - 25 - 50 = 175 >= fee 50 + Bet 100 = 150: offered.
    # Box 1 closes instead: 25 + 50 = 75, leaving 250 - 75 - 50 = 125 < 150: not offered.
    table = stakes_table(tmp_path, 250)
    rnd = table.start_round()
    assert isinstance(rnd, OneOrFiveRound)
    table.act(Ante(seat=1, amount=25))
    table.act(Ante(seat=1, amount=50))
    table.act(OpenBox(seat=1, box=2))
    table.act(CutAndDeal())
    table.act(first_box(seat=1))
    assert rnd.current_box().number == 2  # type: ignore[union-attr]
    assert rnd.holds(1, rnd.boxes[2]) == (175 if offered else 125)
    assert ("exchange" in {s.kind for s in rnd.legal_steps()}) is offered


# The stored form and the typed events -------------------------------------------------------


def test_each_step_is_stored_as_the_ledger_has_always_held_it(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    rnd = table.start_round()
    assert isinstance(rnd, OneOrFiveRound)
    table.act(Ante(seat=1, amount=10))                      # box 1
    table.act(Ante(seat=2, amount=10))                      # box 2
    table.act(Ante(seat=1, amount=5))                       # box 3, Ann's second box
    table.act(OpenBox(seat=1, box=3))     # played open ...
    table.act(Withdraw(seat=1, box=3))     # ... then taken back: box 1 plays open again
    table.act(CutAndDeal(cut="player"))
    table.act(Exchange(seat=1, amount=1, discard="2c"))
    table.act(Bet(seat=1))
    table.act(Insure(seat=1, amount=50))                    # a royal flush may be insured
    table.act(Bet(seat=2))                           # a pair: no insurance asked
    table.act(Reveal())
    stored = [(e.kind, e.payload) for e in table.ledger.round_events(table.round_id or 0)
              if e.kind != "round_started"]
    assert stored == [
        ("ante_placed", {"seat": 1, "box": 1, "amount": 10}),
        ("ante_placed", {"seat": 2, "box": 2, "amount": 10}),
        ("ante_placed", {"seat": 1, "box": 3, "amount": 5}),
        ("open_box_marked", {"seat": 1, "box": 3}),
        ("ante_withdrawn", {"box": 3}),
        ("cards_dealt", {"cut_by": "player", "cards": {"box 1": BOX1, "box 2": BOX2, "dealer": DEALER}}),
        ("box_exchanged", {"box": 1, "discarded_cards": "2c", "drawn_cards": "Th", "fee": 10}),
        ("box_closed", {"box": 1, "bet": 20}),
        ("insurance_taken", {"box": 1, "amount": 50}),
        ("box_closed", {"box": 2, "bet": 20}),
        ("dealer_revealed", {"cards": DEALER, "hand": "ace-king", "qualified": True}),
    ]


def test_the_rounds_events_read_as_their_classes_and_say_what_happened(tmp_path: Path) -> None:
    from dealer_tui.games.one_or_five.events import (
        BoxExchanged,
        CardsDealt,
        DealerRevealed,
        InsuranceTaken,
    )
    from dealer_tui.games.one_or_five.presenter import PRESENTER

    table = new_table(tmp_path)
    rnd = antes_and_deal(table)
    table.act(Exchange(seat=1, amount=1, discard="2c"))
    table.act(Bet(seat=1))
    table.act(NoInsurance(seat=1))
    table.act(Bet(seat=2))
    table.act(Reveal())
    dealt = next(e for e in rnd.events if isinstance(e, CardsDealt))
    assert dealt.hands == {"box 1": parse_cards(BOX1), "box 2": parse_cards(BOX2), "dealer": parse_cards(DEALER)}
    assert not dealt.keyed and dealt.cut_by == "player"
    exchanged = next(e for e in rnd.events if isinstance(e, BoxExchanged))
    assert (exchanged.discarded, exchanged.drawn, exchanged.exchanged, exchanged.fee) == (
        parse_cards("2c"), parse_cards("Th"), 1, 10)
    assert [e.premium for e in rnd.events if isinstance(e, InsuranceTaken)] == [0]  # declined
    revealed = next(e for e in rnd.events if isinstance(e, DealerRevealed))
    assert (revealed.hand, revealed.qualified, revealed.box_hands) == ("ace-king", True, None)
    assert [PRESENTER.describe(e) for e in rnd.events] == [
        "New round: antes on the boxes",
        "Seat 1 antes 10 on box 1",
        "Seat 2 antes 10 on box 2",
        "Cut by the player; five cards to each box and the dealer",
        "Box 1 exchanges 1 (fee 10)",
        "Box 1 closes with 20",
        "Box 1: no insurance",
        "Box 2 closes with 20",
        "Dealer shows A♦ K♦ 7♣ 6♠ 2♥: ace-king",
    ]


def test_r_3_a_refused_exchange_gives_its_cards_back_to_the_stub(tmp_path: Path) -> None:
    """Box 1 asks to exchange a card it does not hold: refused, and the Th the shoe drew for it
    goes back, so the exchange that follows draws the Th (the royal flush of the script)."""
    table = new_table(tmp_path)
    rnd = antes_and_deal(table)
    with pytest.raises(IllegalAction):
        table.act(Exchange(seat=1, amount=1, discard="9s"))      # box 2's card, not box 1's
    table.act(Exchange(seat=1, amount=1, discard="2c"))
    assert parse_cards("Th")[0] in rnd.boxes[1].cards


def test_r_12_a_voided_round_shows_no_dealer_hand_any_more(tmp_path: Path) -> None:
    """After the deal the dealer's last card is shown (R-1); voided (R-12), the round has no
    reveal: the dealer's panel says every bet and fee was returned instead of a card still in play."""

    table = new_table(tmp_path)
    rnd = antes_and_deal(table)
    view = GAMES.find("one-or-five").presenter
    assert view.banker(rnd).lines == ("shown: the last card dealt (R-1)",)
    void(table, "dealer's hole card exposed")
    voided = view.banker(rnd)
    assert voided.cards == () and voided.lines == ("round void: no reveal, every bet and fee returned (R-12)",)
