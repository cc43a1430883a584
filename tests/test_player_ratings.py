"""Player ratings worked by hand: a rating session's hands, minutes, wagered, average bet, the
house's actual win and its theoretical win for a known hold; a card room's rake as both; players
known by their loyalty card across tables; the gaming day a session belongs to."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dealer_tui.accounting.ratings import player_ratings, rating_sessions
from dealer_tui.accounting.theoretical import Edge, Theory
from dealer_tui.cli import main
from dealer_tui.games import GAMES
from dealer_tui.games.one_or_five.steps import Ante, CutAndDeal, Fold
from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.base import Phase
from dealer_tui.rounds.cards import VirtualShoe
from dealer_tui.rounds.cash import gaming_day
from dealer_tui.rounds.steps import ConfirmPayout, Reveal
from dealer_tui.rounds.table import Table
from rules.errors import IllegalAction
from rules.profiles.loader import LoadedProfile, ProfileLibrary
from tests.accounting_support import Clock, folded_round
from tests.staff_support import approved, casino_on_shift, staffed, staffed_table


class KnownEdge(Theory):
    """A hold on handle of exactly 5% for every house-banked profile."""

    def __init__(self) -> None:
        super().__init__(GAMES, None)

    def edge(self, loaded: LoadedProfile) -> Edge | None:
        return Edge(0.05, 1.0, "test", 0, 0) if loaded.profile.house_banked() else None


def clocked_casino_table(tmp_path: Path) -> tuple[Clock, SqliteLedger, Table]:
    """A casino High Card Flush table of six seats whose ledger's clock the test sets."""
    clock = Clock()
    ledger = SqliteLedger(tmp_path / "l.sqlite", clock=clock)
    table = staffed_table(ledger, "T1", ProfileLibrary().find("high-card-flush-casino"), VirtualShoe.seeded_with(1),
                          seats=6)
    return clock, ledger, table


def test_a_rating_session_at_a_house_banked_table(tmp_path: Path) -> None:
    clock, ledger, table = clocked_casino_table(tmp_path)
    clock.at(18, 0)
    table.seat_player(1, "Ann Lee", 1000, card="LC-1")
    table.seat_player(2, "Bob", 1000)
    clock.at(18, 5)
    folded_round(table, {1: 10, 2: 10})                   # Ann antes 10 and folds: she loses 10 (HCF-6)
    clock.at(18, 10)
    folded_round(table, {1: 20, 2: 10})                   # 20 more
    clock.at(18, 30)
    table.leave(1)
    ann, bob = rating_sessions(ledger, KnownEdge())
    # Ann: 2 hands, 30 minutes, wagered 10 + 20 = 30, average bet 15; the house won her 30;
    # theoretical win 30 × 5% = 1.5
    assert (ann.player, ann.card, ann.hands, ann.minutes, ann.wagered) == ("Ann Lee", "LC-1", 2, 30.0, 30)
    assert (ann.average_bet, ann.actual_win, ann.player_result) == (15.0, 30, -30)
    assert ann.theoretical_win == pytest.approx(1.5)
    assert (bob.card, bob.left_at, bob.wagered) == ("", None, 20)
    [rated_ann, rated_bob] = player_ratings([ann, bob])
    assert rated_ann.to_dict()["anonymous"] is False and rated_bob.to_dict()["anonymous"] is True


def test_a_players_sessions_add_up_by_card_across_tables(tmp_path: Path) -> None:
    ledger = SqliteLedger(tmp_path / "l.sqlite")
    casino = ProfileLibrary().find("high-card-flush-casino")
    one = staffed_table(ledger, "T1", casino, VirtualShoe.seeded_with(1), seats=6)
    two = staffed_table(ledger, "T2", casino, VirtualShoe.seeded_with(2), seats=6)
    one.seat_player(1, "Ann", 1000, card="LC-1")
    two.seat_player(3, "Ann L.", 1000, card="LC-1")       # the same card, the name as the dealer typed it
    folded_round(one, {1: 10})
    folded_round(two, {3: 40})
    [ann] = player_ratings(rating_sessions(ledger, KnownEdge()))
    d = ann.to_dict()
    assert (d["sessions"], d["tables"], d["hands"], d["wagered"], d["average_bet"]) == (2, ["T1", "T2"], 2, 50, 25.0)
    assert d["actual_win"] == 50 and d["theoretical_win"] == pytest.approx(2.5)


def test_a_card_rooms_rake_is_its_actual_and_theoretical_win(tmp_path: Path) -> None:
    """The card room's High Card Flush with a rake of 5 from every player (HCF-17; a folded hand pays
    it): the house's win from the player is the rake alone, whatever the player lost to the DP."""
    text = ProfileLibrary().find("high-card-flush").text.replace("mode: all ", "mode: players ").replace(
        "amount: 0", "amount: 5")
    path = tmp_path / "p" / "hcf-rake.yaml"
    path.parent.mkdir()
    path.write_text(text, encoding="utf-8")
    ledger = SqliteLedger(tmp_path / "l.sqlite")
    staffed(ledger)
    loaded = approved(ledger, ProfileLibrary([path.parent]).find("hcf-rake"))
    table = staffed_table(ledger, "R1", loaded, VirtualShoe.seeded_with(1), seats=7)
    table.seat_player(1, "Dee", 5000)                    # the DP (HCF-18: seat 1 banks first)
    table.seat_player(2, "Eve", 1000, card="LC-9")
    folded_round(table, {2: 10})
    sessions = {s.player: s for s in rating_sessions(ledger, KnownEdge())}
    eve = sessions["Eve"]
    assert (eve.hands, eve.wagered, eve.player_result) == (1, 10, -15)   # the ante to the DP, the rake
    assert (eve.actual_win, eve.theoretical_win) == (5, 5)


def test_the_gaming_day_begins_at_six() -> None:
    assert gaming_day("2026-12-02T05:59:00+00:00") == "2026-12-01"
    assert gaming_day("2026-12-02T06:00:00+00:00") == "2026-12-02"


def test_a_loyalty_card_number_is_checked(tmp_path: Path) -> None:
    ledger = SqliteLedger(tmp_path / "l.sqlite")
    table = staffed_table(ledger, "T1", ProfileLibrary().find("high-card-flush-casino"), VirtualShoe.seeded_with(1),
                          seats=6)
    with pytest.raises(IllegalAction, match="a loyalty card number is 1 to 32 letters"):
        table.seat_player(1, "Ann", 1000, card="LC 1; DROP TABLE")
    assert table.session.players == {}


def test_players_report_gives_every_figure_per_player(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ledger = SqliteLedger(tmp_path / "l.sqlite")
    table = staffed_table(ledger, "T1", ProfileLibrary().find("high-card-flush-casino"), VirtualShoe.seeded_with(1),
                          seats=6)
    table.seat_player(1, "Ann", 1000, card="LC-1")
    folded_round(table, {1: 10})
    table.close()
    ledger.close()
    assert main(["players", "report", "--ledger", str(tmp_path / "l.sqlite"), "--json", "--hands", "20000"]) == 0
    data = json.loads(capsys.readouterr().out)
    [ann] = data["players"]
    for key in ("hands", "wagered", "average_bet", "minutes", "actual_win", "theoretical_win"):
        assert key in ann, key
    assert (ann["player"], ann["card"], ann["hands"], ann["wagered"], ann["actual_win"]) == ("Ann", "LC-1", 1, 10, 10)
    assert main(["players", "report", "--ledger", str(tmp_path / "l.sqlite"), "--day", "someday"]) == 2
    assert "--day: 'someday' is not a day" in capsys.readouterr().err


# -- cash-transaction logs ---------------------------------------------------------------------------


def test_the_currency_transaction_threshold_needs_the_player_identified(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Ann, anonymous, buys in for 6,000 cash, then 5,000 more: 11,000 in one gaming day reaches the
    10,000 threshold, refused until her ID is recorded; both buy-ins are at or over the 3,000 of the
    multiple-transaction log; the CTR entry is hers, identified, 11,000 in two transactions."""
    ledger = SqliteLedger(tmp_path / "l.sqlite")
    crew, table = casino_on_shift(ledger, opener={"1000": 30})
    table.seat_player(1, "Ann", 6000)
    table.seat_player(2, "Bob", 2000)
    with pytest.raises(IllegalAction, match="Identification needed: Ann's cash in today comes to 11,000"):
        table.buy_chips(1, 5000)
    with pytest.raises(IllegalAction, match="an ID document is its kind \\(driving-licence, id-card, passport, residence-permit\\) and its number"):
        table.money.identify(1, "LC-77")                                           # a card number identifies nobody
    table.money.identify(1, "passport ID-77077")
    table.buy_chips(1, 5000)
    table.close()
    ledger.close()
    assert main(["players", "cash-log", "--ledger", str(tmp_path / "l.sqlite"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(t["player"], t["id_document"], t["amount"]) for t in data["mtl"]] == [("Ann", "passport ID-77077", 6000),
                                                                                 ("Ann", "passport ID-77077", 5000)]
    [entry] = data["ctr"]
    assert (entry["player"], entry["id_document"], entry["identified"], entry["total"]) == (
        "Ann", "passport ID-77077", True, 11000)
    assert [t["amount"] for t in entry["transactions"]] == [6000, 5000]
    assert main(["players", "cash-log", "--ledger", str(tmp_path / "l.sqlite"), "--mtl", str(tmp_path / "mtl.csv"),
                 "--ctr", str(tmp_path / "ctr.csv")]) == 0
    assert (tmp_path / "mtl.csv").read_text(encoding="utf-8").count("\n") == 3      # a header and two rows
    assert (tmp_path / "ctr.csv").read_text(encoding="utf-8").count("\n") == 3


def test_a_cash_out_at_the_table_is_a_cash_transaction(tmp_path: Path) -> None:
    from dealer_tui.accounting.cash_log import multiple_transaction_log
    from dealer_tui.rounds.cash import OUT, cash_transactions

    ledger = SqliteLedger(tmp_path / "l.sqlite")
    table = staffed_table(ledger, "T1", ProfileLibrary().find("high-card-flush-casino"), VirtualShoe.seeded_with(1),
                          seats=6)
    table.seat_player(1, "Ann", 4000, card="LC-1")
    table.leave(1)
    moves = cash_transactions(ledger)
    assert [(t.direction, t.amount, t.card) for t in moves] == [("in", 4000, "LC-1"), (OUT, 4000, "LC-1")]
    assert len(multiple_transaction_log(moves, 3000)) == 2


def test_a_cash_out_reaching_the_threshold_needs_the_players_id_document_first(tmp_path: Path) -> None:
    """Ann buys in 9,000 by marker (no cash in) with her loyalty card and cashes out 9,000, then sits
    again and cashes out 2,000 more: 11,000 out in the gaming day reaches the 10,000 threshold. The
    second cash-out is refused until her ID document is recorded — the loyalty card does not do."""
    from dealer_tui.rounds.cash import OUT, cash_transactions
    from dealer_tui.rounds.table_money import Marker
    from dealer_tui.staff import TRAY
    from tests.staff_support import SUPERVISOR, SUPERVISOR_PIN

    ledger = SqliteLedger(tmp_path / "l.sqlite")
    crew, table = casino_on_shift(ledger, opener={"1000": 30})

    def marker(number: str, amount: int) -> Marker:
        from dealer_tui.events.table import marker_purpose
        from dealer_tui.staff import Purpose
        who = crew.desk.sign_in(SUPERVISOR, SUPERVISOR_PIN, Purpose(TRAY, marker_purpose(number, amount), table.record.id))
        return Marker(number, who)

    table.seat_player(1, "Ann", 9000, "marker", card="LC-1", marker=marker("M-1", 9000))
    table.leave(1)                                                            # 9,000 out: under the threshold
    table.seat_player(1, "Ann", 2000, "marker", card="LC-1", marker=marker("M-2", 2000))
    with pytest.raises(IllegalAction, match="Identification needed: Ann's cash out today comes to 11,000"):
        table.leave(1)
    assert 1 in table.session.players                                          # still seated, nothing paid
    table.money.identify(1, "passport X1234567")
    table.leave(1)
    outs = [(t.amount, t.card, t.document) for t in cash_transactions(ledger) if t.direction == OUT]
    assert outs == [(9000, "LC-1", ""), (2000, "LC-1", "passport X1234567")]


# -- sitting out ---------------------------------------------------------------------------------


def test_a_rating_session_pauses_while_the_player_sits_out(tmp_path: Path) -> None:
    """Ann sits at 18:00, plays a hand at 18:05, sits out 18:10-18:40, plays at 18:45 and leaves at
    19:00: 60 minutes seated, 30 of them away, 30 minutes played; the round dealt while she was away
    is not hers (Bob's alone)."""
    clock, ledger, table = clocked_casino_table(tmp_path)
    clock.at(18, 0)
    table.seat_player(1, "Ann", 1000, card="LC-1")
    table.seat_player(2, "Bob", 1000)
    clock.at(18, 5)
    folded_round(table, {1: 10, 2: 10})
    clock.at(18, 10)
    table.sit_out(1)
    clock.at(18, 20)
    folded_round(table, {2: 10})
    assert 1 not in table.round.seats                      # type: ignore[union-attr]
    clock.at(18, 40)
    table.sit_out(1, away=False)
    clock.at(18, 45)
    folded_round(table, {1: 10, 2: 10})
    clock.at(19, 0)
    table.leave(1)
    ann, bob = rating_sessions(ledger, KnownEdge())
    assert (ann.hands, ann.wagered, ann.minutes, ann.away_minutes) == (2, 20, 30.0, 30.0)
    assert ann.to_dict()["away_minutes"] == 30.0
    assert (bob.hands, bob.wagered) == (3, 30)


def test_a_player_who_leaves_while_sitting_out_is_not_rated_for_the_time_away(tmp_path: Path) -> None:
    # seated 18:00, a hand at 18:05, away from 18:15, cashes out at 18:45: 15 minutes played
    clock, ledger, table = clocked_casino_table(tmp_path)
    clock.at(18, 0)
    table.seat_player(1, "Ann", 1000)
    clock.at(18, 5)
    folded_round(table, {1: 10})
    clock.at(18, 15)
    table.sit_out(1)
    clock.at(18, 45)
    table.leave(1)
    [ann] = rating_sessions(ledger, KnownEdge())
    assert (ann.minutes, ann.away_minutes, ann.left_at is not None) == (15.0, 30.0, True)


def passed_one_or_five_round(table: Table, antes: list[tuple[int, int]]) -> None:
    """The boxes anted in this order (seat, ante), each passed: every Ante lost (R-2)."""
    rnd = table.start_round()
    for seat, ante in antes:
        table.act(Ante(seat=seat, amount=ante))
    table.act(CutAndDeal())
    while (box := rnd.current_box()) is not None:             # type: ignore[attr-defined]
        table.act(Fold(seat=box.seat))
    if any(s.kind == "reveal" for s in rnd.legal_steps()):
        table.act(Reveal())
    table.act(ConfirmPayout())
    assert rnd.phase is Phase.DONE


def test_a_one_or_five_players_boxes_are_rated_as_theirs(tmp_path: Path) -> None:
    """R-1: settlement rows are per box, numbered in the order they were anted. Bob sits out; Cy
    antes box 1 (10), Ann boxes 2 and 3 (20 and 5): Ann played 1 hand wagering 25 and lost it,
    Cy 1 hand of 10, Bob none (box 2 is not seat 2's)."""
    ledger = SqliteLedger(tmp_path / "l.sqlite")
    table = staffed_table(ledger, "F1", ProfileLibrary().find("one-or-five"), VirtualShoe.seeded_with(2), seats=6)
    for seat, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")):
        table.seat_player(seat, name, 1000)
    table.sit_out(2)
    passed_one_or_five_round(table, [(3, 10), (1, 20), (1, 5)])
    sessions = {s.player: s for s in rating_sessions(ledger, KnownEdge())}
    assert (sessions["Ann"].hands, sessions["Ann"].wagered, sessions["Ann"].player_result) == (1, 25, -25)
    assert (sessions["Cy"].hands, sessions["Cy"].wagered, sessions["Cy"].player_result) == (1, 10, -10)
    assert (sessions["Bob"].hands, sessions["Bob"].wagered) == (0, 0)
    # theoretical: the Antes × 5% (KnownEdge rates no bet type: its hold on handle for each)
    assert sessions["Ann"].theoretical_win == pytest.approx(1.25)


def test_a_pause_after_the_last_hand_is_not_taken_off_the_time_played(tmp_path: Path) -> None:
    """Ann sits at 18:00, plays a hand at 18:05; then she sits out 18:10-18:20 and is still seated:
    her session is timed to her last hand, 5 minutes played, none of it away."""
    clock, ledger, table = clocked_casino_table(tmp_path)
    clock.at(18, 0)
    table.seat_player(1, "Ann", 1000)
    clock.at(18, 5)
    folded_round(table, {1: 10})
    clock.at(18, 10)
    table.sit_out(1)
    clock.at(18, 20)
    table.sit_out(1, away=False)
    [ann] = rating_sessions(ledger, KnownEdge())
    assert (ann.minutes, ann.away_minutes) == (5.0, 0.0)


def test_the_threshold_counts_a_persons_cash_under_every_name_card_and_id_they_used(tmp_path: Path) -> None:
    """Threshold 10,000 (the default). Ann Lee, card LC-1, buys in 6,000; she shows her passport and
    buys 3,000 more (9,000). Seated again under her card at another seat, 900 more is 9,900, and
    a further 200 would be 10,100: her ID is asked, though the first two moves were recorded under
    her passport and the new seat only names her card. Under her name alone, with another card, or
    with a Cyrillic "е" in it, she is the same person: 9,900 + 200 is refused each way."""
    ledger = SqliteLedger(tmp_path / "l.sqlite")
    _, table = casino_on_shift(ledger, opener={"1000": 50})
    table.seat_player(1, "Ann Lee", 6000, card="LC-1")
    table.money.identify(1, "passport X1234567")
    table.buy_chips(1, 3000)
    table.seat_player(2, "Ann Lee", 900, card="LC-1")
    for seat, name, card in ((2, "Ann Lee", "LC-1"), (3, "Ann Lee", ""), (3, "Ann Lee", "LC-2"), (3, "Ann L\u0435e", "")):
        problem = table.money.ctr_problem(name, card, seat, 200)
        assert problem is not None and "comes to 10,100" in problem, (name, card)
    assert table.money.ctr_problem("Bob Ray", "", 3, 9000) is None                  # someone else: 9,000


def test_an_id_document_is_a_known_kind_with_a_number_a_card_is_not(tmp_path: Path) -> None:
    ledger = SqliteLedger(tmp_path / "l.sqlite")
    _, table = casino_on_shift(ledger)
    table.seat_player(1, "Ann", 1000, card="LC-1")
    for junk in ("card LC-1", "loyalty LC-1", "xx ---", "none 000", "unknown N/A", "passport AB-12", "id ///"):
        with pytest.raises(IllegalAction, match="an ID document is its kind"):
            table.money.identify(1, junk)
    table.money.identify(1, "Driving-License  DL-1234567")
    assert table.session.players[1].document == "driving-licence DL-1234567"



def test_a_house_banked_table_with_no_opener_counted_still_asks_for_the_id_at_the_threshold(tmp_path: Path) -> None:
    """A live house-banked table whose opener was never counted: Gus's 20,000 cash in is refused
    until his ID is recorded, as at a table that counted its opener."""
    ledger = SqliteLedger(tmp_path / "l.sqlite")
    table = staffed_table(ledger, "T3", ProfileLibrary().find("high-card-flush-casino"), VirtualShoe.seeded_with(1),
                          seats=6)
    with pytest.raises(IllegalAction, match="Identification needed: Gus's cash in today comes to 20,000"):
        table.seat_player(1, "Gus", 20000)
    assert table.session.players == {}
    table.seat_player(1, "Gus", 20000, document="passport X7654321")
    assert table.session.players[1].stack == 20000
