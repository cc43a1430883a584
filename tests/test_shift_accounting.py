"""Table accounting worked by hand: a shift's opener, buy-ins in cash and by marker, a fill, a
credit, rounds, the closer and the drop box count give the counted win, the hold, the expected
closer and each difference the test works out below (win = drop + closer + credits − opener −
fills; expected closer = opener + fills − credits − chips sold + the house's result)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer_tui.accounting.count import record_drop
from dealer_tui.accounting.shifts import ShiftFigures, shift_figures
from dealer_tui.accounting.theoretical import Theory
from dealer_tui.audit import verify_ledger
from dealer_tui.games import GAMES
from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.cards import VirtualShoe
from dealer_tui.rounds.table import Table
from dealer_tui.staff import COUNT_DROP, DEAL, TRAY
from rules.errors import IllegalAction
from rules.profiles.loader import ProfileLibrary
from tests.accounting_support import OPENER, both, casino_table, folded_round, marker
from tests.staff_support import (
    AUDITOR,
    AUDITOR_PIN,
    DEALER,
    DEALER_PIN,
    MANAGER,
    MANAGER_PIN,
    SUPERVISOR,
    SUPERVISOR_PIN,
    Crew,
    staffed,
    staffed_table,
)


def count_team(crew: Crew, table: Table):  # type: ignore[no-untyped-def]
    return crew.sign_in(AUDITOR, AUDITOR_PIN, COUNT_DROP, table)


def the_shift(table: Table) -> ShiftFigures:
    [shift] = shift_figures(table.ledger, Theory(GAMES, None, hands=20_000))
    return shift


def test_a_shift_with_a_fill_a_credit_a_marker_and_a_short_drop_count(tmp_path: Path) -> None:
    table, crew = casino_table(tmp_path)
    table.money.open_shift(OPENER, *both(crew, table))                 # opener 21,000
    table.seat_player(1, "Ann", 1000)                            # 1,000 cash
    table.seat_player(2, "Bob", 500, "marker", marker=marker(crew, table, "M-1", 500))   # 500 by marker
    table.money.fill("F-1", {"100": 10}, *both(crew, table))           # fill 1,000
    folded_round(table, {1: 10, 2: 20})                          # the house takes 10 + 20 = 30
    table.money.credit("C-1", {"1000": 2}, *both(crew, table))         # credit 2,000
    # expected closer = 21,000 + 1,000 − 2,000 − (1,000 + 500) + 30 = 18,530
    assert table.tray.shift is not None and table.tray.shift.expected == 18_530
    table.money.close_shift({"1000": 7, "500": 10, "100": 55, "25": 41, "5": 1}, *both(crew, table))  # 18,530
    record_drop(table.ledger, table.record, cash=900, markers=500, collection=0, by=count_team(crew, table))
    s = the_shift(table)
    assert (s.opener, s.closer, s.tray.fills, s.tray.credits) == (21_000, 18_530, 1_000, 2_000)
    assert (s.expected_closer, s.closer_difference) == (18_530, 0)
    assert (s.drop, s.expected_drop, s.drop_difference) == (1_400, 1_500, -100)
    # win = 1,400 + 18,530 + 2,000 − 21,000 − 1,000 = −70; the rounds' result is +30
    assert (s.win, s.rounds_win, s.win_difference) == (-70, 30, -100)
    assert s.hold == pytest.approx(-70 / 1_400)                  # −5%
    assert (s.rounds, s.handle) == (1, 30)
    assert s.flags[:2] == ["drop short by 100", "win short by 100"]
    d = s.to_dict()
    for key, value in (("drop", 1_400), ("opener", 21_000), ("closer", 18_530), ("fills", 1_000),
                       ("credits", 2_000), ("win", -70), ("hold", -0.05), ("rounds_win", 30)):
        assert d[key] == value, key
    assert verify_ledger(table.ledger, GAMES) == []


def test_an_honest_count_shows_no_difference(tmp_path: Path) -> None:
    table, crew = casino_table(tmp_path)
    table.money.open_shift({"1000": 5}, *both(crew, table))            # 5,000
    table.seat_player(1, "Ann", 2000)
    folded_round(table, {1: 50})                                 # +50
    table.money.close_shift({"1000": 3, "25": 2}, *both(crew, table))  # 5,000 − 2,000 + 50 = 3,050
    record_drop(table.ledger, table.record, cash=2000, markers=0, collection=0, by=count_team(crew, table))
    s = the_shift(table)
    assert (s.win, s.rounds_win, s.closer_difference, s.drop_difference, s.win_difference) == (50, 50, 0, 0, 0)
    assert [f for f in s.flags if "band" not in f] == []


def test_chips_sold_before_the_opener_count_with_it(tmp_path: Path) -> None:
    """Players seated as the table opened bought before the tray was counted: their cash is in the
    shift's drop box and their chips were out of the tray at the opener."""
    table, crew = casino_table(tmp_path)
    table.seat_player(1, "Ann", 1000)                            # no shift open yet
    table.money.open_shift({"1000": 4}, *both(crew, table))            # 4,000 (5,000 before Ann's buy-in)
    folded_round(table, {1: 10})
    table.money.close_shift({"1000": 4, "5": 2}, *both(crew, table))   # 4,010
    record_drop(table.ledger, table.record, cash=1000, markers=0, collection=0, by=count_team(crew, table))
    s = the_shift(table)
    # win = 1,000 + 4,010 − (4,000 + 1,000) = 10, the rounds' result
    assert (s.expected_drop, s.win, s.closer_difference) == (1_000, 10, 0)


def test_the_opener_needs_two_people(tmp_path: Path) -> None:
    table, crew = casino_table(tmp_path)
    manager_deals = crew.sign_in(MANAGER, MANAGER_PIN, DEAL, table)
    table.sign_in_dealer(manager_deals)
    with pytest.raises(IllegalAction, match="needs two people"):
        table.money.open_shift(OPENER, crew.sign_in(MANAGER, MANAGER_PIN, DEAL, table),
                         crew.sign_in(MANAGER, MANAGER_PIN, TRAY, table))
    assert table.tray.shift is None


def test_the_opener_is_signed_by_the_dealer_on_duty(tmp_path: Path) -> None:
    table, crew = casino_table(tmp_path)
    with pytest.raises(IllegalAction, match=r"signed by the dealer on duty \(D1\)"):
        table.money.open_shift(OPENER, crew.sign_in(MANAGER, MANAGER_PIN, DEAL, table),
                         crew.sign_in(SUPERVISOR, SUPERVISOR_PIN, TRAY, table))


def test_a_sign_in_for_another_table_does_not_witness_this_one(tmp_path: Path) -> None:
    table, crew = casino_table(tmp_path)
    other = staffed_table(table.ledger, "T2", table.profile, VirtualShoe.seeded_with(1), seats=6)
    with pytest.raises(IllegalAction, match="was for table"):
        table.money.open_shift(OPENER, crew.sign_in(DEALER, DEALER_PIN, DEAL, table),
                         crew.sign_in(SUPERVISOR, SUPERVISOR_PIN, TRAY, other))
    assert table.ledger.table_events(table.record.id, ["tray_counted"]) == []


def test_a_credit_cannot_send_more_than_the_tray_holds(tmp_path: Path) -> None:
    table, crew = casino_table(tmp_path)
    table.money.open_shift({"1000": 2}, *both(crew, table))
    with pytest.raises(IllegalAction, match=r"more than the tray holds by the shift's records \(2,000\)"):
        table.money.credit("C-1", {"1000": 3}, *both(crew, table))


def test_a_buy_in_the_tray_cannot_give_waits_for_a_fill(tmp_path: Path) -> None:
    table, crew = casino_table(tmp_path)
    table.money.open_shift({"100": 5}, *both(crew, table))             # 500
    with pytest.raises(IllegalAction, match="a fill from the cage first"):
        table.seat_player(1, "Ann", 1000)
    assert table.session.players == {}


def test_the_chips_given_must_make_the_buy_in(tmp_path: Path) -> None:
    table, crew = casino_table(tmp_path)
    table.money.open_shift(OPENER, *both(crew, table))
    with pytest.raises(IllegalAction, match="make 400, not the buy-in of 500"):
        table.seat_player(1, "Ann", 500, "cash", {"100": 4})
    with pytest.raises(IllegalAction, match="7 is not a chip of this table"):
        table.seat_player(1, "Ann", 500, "cash", {"7": 1, "100": 5})


def test_the_drop_box_is_counted_once_after_the_closer(tmp_path: Path) -> None:
    table, crew = casino_table(tmp_path)
    table.money.open_shift(OPENER, *both(crew, table))
    with pytest.raises(IllegalAction, match="has no closed shift"):
        record_drop(table.ledger, table.record, 0, 0, 0, count_team(crew, table))
    table.money.close_shift(OPENER, *both(crew, table))
    record_drop(table.ledger, table.record, 0, 0, 0, count_team(crew, table))
    with pytest.raises(IllegalAction, match=r"already counted .*: a recount gives its reason"):
        record_drop(table.ledger, table.record, 5, 0, 0, count_team(crew, table))
    record_drop(table.ledger, table.record, 5, 0, 0, count_team(crew, table), recount="a note stuck to the box")
    s = the_shift(table)
    assert s.drop == 5 and [r.drop for r in s.tray.recounts] == [0]
    assert "drop box recounted: 0 by A1 replaced (a note stuck to the box)" in s.flags
    assert verify_ledger(table.ledger, GAMES) == []


def test_a_supervisor_is_not_the_count_team(tmp_path: Path) -> None:
    table, crew = casino_table(tmp_path)
    table.money.open_shift(OPENER, *both(crew, table))
    table.money.close_shift(OPENER, *both(crew, table))
    from dealer_tui.staff import SignInRefused

    with pytest.raises(SignInRefused):
        crew.sign_in(SUPERVISOR, SUPERVISOR_PIN, COUNT_DROP, table)


def test_a_card_room_collection_box_is_held_against_the_fees(tmp_path: Path) -> None:
    """A Chinese Poker table with a house fee of 5 per player per hand: two players, two hands,
    20 chips of fees to the collection box (not the tray)."""
    from dealer_tui.demo import play
    from tests.staff_support import approved

    yaml = ProfileLibrary().find("chinese-poker").text.replace("house_fee: 0", "house_fee: 5")
    path = tmp_path / "profiles" / "cp-fee.yaml"
    path.parent.mkdir()
    path.write_text(yaml, encoding="utf-8")
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    crew = staffed(ledger)
    loaded = approved(ledger, ProfileLibrary([path.parent]).find("cp-fee"))
    table = staffed_table(ledger, "CP", loaded, VirtualShoe.seeded_with(3), seats=4)
    table.money.open_shift({"25": 20}, *both(crew, table))             # 500
    table.seat_player(1, "Ann", 100)
    table.seat_player(2, "Bob", 100)
    import random

    play(table, 2, random.Random(1), approve=crew.approver())
    # the tray gives chips and takes none: 500 − 200 = 300
    table.money.close_shift({"25": 12}, *both(crew, table))
    record_drop(ledger, table.record, cash=200, markers=0, collection=15, by=count_team(crew, table))
    s = the_shift(table)
    assert (s.banked, s.rounds_win, s.expected_collection) == (False, 20, 20)
    assert (s.collection_difference, s.closer_difference, s.drop_difference) == (-5, 0, 0)
    # win = 200 + 300 − 500 + the collection box 15 = 15, the rounds took 20
    assert (s.win, s.win_difference, s.theoretical) == (15, -5, 20)
    assert "collection box short by 5" in s.flags


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(buys=st.lists(st.tuples(st.integers(100, 3000), st.booleans()), min_size=1, max_size=4),
       fill=st.integers(0, 40), credit=st.integers(0, 10), short=st.integers(-500, 500))
def test_win_and_its_differences_add_up_for_any_shift(tmp_path_factory: pytest.TempPathFactory,
                                                     buys: list[tuple[int, bool]], fill: int, credit: int,
                                                     short: int) -> None:
    """Whatever the shift, the counted win minus the rounds' result is the closer's difference
    plus the drop's (and the collection box's): no chip unaccounted for."""
    table, crew = casino_table(tmp_path_factory.mktemp("shift"))
    table.money.open_shift({"1000": 20}, *both(crew, table))
    for seat, (amount, by_marker) in enumerate(buys, start=1):
        table.seat_player(seat, f"P{seat}", amount, "marker" if by_marker else "cash",
                          marker=marker(crew, table, f"M-{seat}", amount) if by_marker else None)
    if fill:
        table.money.fill("F", {"100": fill}, *both(crew, table))
    folded_round(table, {seat: 10 for seat in range(1, len(buys) + 1)})
    if credit:
        table.money.credit("C", {"100": credit}, *both(crew, table))
    expected = table.tray.shift.expected  # type: ignore[union-attr]
    closer = max(expected + short, 0)
    table.money.close_shift({"1": closer}, *both(crew, table))
    cash = sum(a for a, m in buys if not m)
    markers = sum(a for a, m in buys if m)
    record_drop(table.ledger, table.record, cash=cash, markers=markers, collection=0, by=count_team(crew, table))
    s = the_shift(table)
    assert s.win_difference == (s.closer_difference or 0) + (s.drop_difference or 0)
    assert s.closer_difference == closer - expected and s.drop_difference == 0
    json.dumps(s.to_dict())  # plain data


# -- an insider at the ledger ------------------------------------------------------------------------


def closed_shift(tmp_path: Path) -> tuple[Table, Path]:
    table, crew = casino_table(tmp_path)
    table.money.open_shift({"1000": 5}, *both(crew, table))
    table.seat_player(1, "Ann", 2000)
    table.money.close_shift({"1000": 2, "500": 1}, *both(crew, table))      # 2,500: 500 short of 3,000
    record_drop(table.ledger, table.record, cash=2000, markers=0, collection=0, by=count_team(crew, table))
    return table, Path(table.ledger.path)


def test_a_closer_rewritten_to_hide_a_shortfall_is_caught_by_the_witness(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.insider_support import fails, one, rehash, sql

    table, path = closed_shift(tmp_path)
    table.ledger.close()
    event_id, payload = one(path, "SELECT id, payload FROM events WHERE kind = 'tray_counted' ORDER BY id DESC")
    data = json.loads(str(payload))
    data["chips"], data["total"] = {"1000": 3}, 3000                  # as if nothing were missing
    sql(path, "UPDATE events SET payload = ? WHERE id = ?", args=(json.dumps(data, sort_keys=True), event_id))
    rehash(path)
    fails(path, capsys, "witness")


def test_a_closer_whose_expected_balance_is_rewritten_is_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.insider_support import fails, one, rehash, sql

    table, path = closed_shift(tmp_path)
    table.ledger.close()
    event_id, payload = one(path, "SELECT id, payload FROM events WHERE kind = 'tray_counted' ORDER BY id DESC")
    data = json.loads(str(payload))
    data["expected"] = 2500                                           # the shortfall made to vanish
    sql(path, "UPDATE events SET payload = ? WHERE id = ?", args=(json.dumps(data, sort_keys=True), event_id))
    rehash(path)
    fails(path, capsys, "(tray_counted): it records 2500 as expected, but the shift's records give 3000")


def test_a_tray_count_witnessed_by_the_dealer_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.insider_support import fails, one, rehash, sql

    table, path = closed_shift(tmp_path)
    table.ledger.close()
    event_id, payload = one(path, "SELECT id, payload FROM events WHERE kind = 'tray_counted' ORDER BY id")
    data = json.loads(str(payload))
    data["supervisor"] = data["dealer"]
    sql(path, "UPDATE events SET payload = ? WHERE id = ?", args=(json.dumps(data, sort_keys=True), event_id))
    rehash(path)
    out = fails(path, capsys, "a tray count needs two people")
    assert "tray" in out   # the sign-in it names was the dealer's to deal, not a supervisor's for the tray


def test_the_next_opener_is_held_against_the_last_closer(tmp_path: Path) -> None:
    table, crew = casino_table(tmp_path)
    table.money.open_shift({"1000": 5}, *both(crew, table))
    table.money.close_shift({"1000": 5}, *both(crew, table))           # 5,000 in the tray at the change
    table.money.open_shift({"1000": 4}, *both(crew, table))            # 4,000 counted: 1,000 gone in between
    [first, second] = shift_figures(table.ledger, Theory(GAMES, None, hands=20_000))
    assert first.previous_closer is None and second.previous_closer == 5_000
    assert "opener 4,000 differs from the last shift's closer 5,000" in second.flags


def test_time_collected_goes_to_the_collection_box(tmp_path: Path) -> None:
    """A card room that collects time, 10 from each seated player: two players pay 20 into the
    collection box; the drop box holds their 200 cash; the tray gave 200 of its 500."""
    import random

    from dealer_tui.demo import play
    from tests.staff_support import approved

    yaml = ProfileLibrary().find("chinese-poker").text + "time_charge: 10\n"
    path = tmp_path / "profiles" / "cp-time.yaml"
    path.parent.mkdir()
    path.write_text(yaml, encoding="utf-8")
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    crew = staffed(ledger)
    loaded = approved(ledger, ProfileLibrary([path.parent]).find("cp-time"))
    table = staffed_table(ledger, "CP", loaded, VirtualShoe.seeded_with(3), seats=4)
    table.money.open_shift({"25": 20}, *both(crew, table))
    table.seat_player(1, "Ann", 100)
    table.seat_player(2, "Bob", 100)
    assert table.money.collect_time() == 20
    assert table.session.stacks() == {1: 90, 2: 90}
    play(table, 1, random.Random(1), approve=crew.approver())
    table.money.close_shift({"25": 12}, *both(crew, table))
    record_drop(ledger, table.record, cash=200, markers=0, collection=20, by=count_team(crew, table))
    s = the_shift(table)
    assert (s.tray.time, s.expected_collection, s.collection_difference) == (20, 20, 0)
    # win = 200 + 300 − 500 + 20 = 20: the time collected (the house fee is 0)
    assert (s.win, s.rounds_win, s.win_difference, s.flags) == (20, 20, 0, [])
    assert verify_ledger(ledger, GAMES) == []


def test_no_time_is_collected_where_the_profile_charges_none(tmp_path: Path) -> None:
    table, crew = casino_table(tmp_path)
    table.seat_player(1, "Ann", 1000)
    with pytest.raises(IllegalAction, match="collects no time"):
        table.money.collect_time()


def test_a_slip_is_one_slip_whatever_its_case(tmp_path: Path) -> None:
    table, crew = casino_table(tmp_path)
    table.money.open_shift(OPENER, *both(crew, table))
    table.money.fill("F-100", {"100": 1}, *both(crew, table))
    with pytest.raises(IllegalAction, match=r"slip F-100 is already recorded at this table \(f-100 is the same number\)"):
        table.money.fill("f-100", {"100": 1}, *both(crew, table))


def test_a_colour_up_changes_chips_the_player_holds_for_others(tmp_path: Path) -> None:
    table, crew = casino_table(tmp_path)
    table.money.open_shift(OPENER, *both(crew, table))
    table.seat_player(1, "Ann", 600)
    with pytest.raises(IllegalAction, match="Seat 1 holds 600, less than the 1,000 given in"):
        table.money.colour_up(1, {"1000": 1}, {"500": 2})
    with pytest.raises(IllegalAction, match="these are the same chips"):
        table.money.colour_up(1, {"100": 5}, {"100": 5})
    table.money.colour_up(1, {"100": 5}, {"500": 1})
    assert table.session.stacks() == {1: 600}
    assert table.tray.shift is not None and table.tray.shift.expected == 21_000 - 600   # worth the same


def test_a_witness_who_deals_the_table_is_refused_before_anything_is_recorded(tmp_path: Path) -> None:
    table, crew = casino_table(tmp_path)
    table.sign_in_dealer(crew.sign_in(SUPERVISOR, SUPERVISOR_PIN, DEAL, table))   # a supervisor deals
    witness = crew.sign_in(SUPERVISOR, SUPERVISOR_PIN, TRAY, table)
    assert table.money.witness_problem(witness) == ("Sam Super (S1) deals at this table: the tray is witnessed by someone "
                                              "other than the dealer")


def test_rounds_dealt_with_no_shift_open_are_noted(tmp_path: Path) -> None:
    table, crew = casino_table(tmp_path)
    table.seat_player(1, "Ann", 1000)
    folded_round(table, {1: 10})
    table.money.open_shift(OPENER, *both(crew, table))
    notes: list[str] = []
    shift_figures(table.ledger, Theory(GAMES, None, hands=20_000), notes=notes)
    assert notes == ["table T1: 1 round dealt with no shift open (no opener counted): in no shift's figures"]


# -- one person alone, and the count team's independence ------------------------------------------


def test_a_supervisors_sign_in_witnesses_one_tray_step(tmp_path: Path) -> None:
    """A dealer holding a supervisor's old sign-in (its number is in the ledger) cannot witness a
    second step with it: each count, fill and credit is witnessed by a sign-in of its own."""
    table, crew = casino_table(tmp_path)
    dealer, witness = both(crew, table)
    table.money.open_shift(OPENER, dealer, witness)
    with pytest.raises(IllegalAction, match=f"sign-in {witness.sign_in} stood for another step already"):
        table.money.credit("C-1", {"1000": 5}, crew.sign_in(DEALER, DEALER_PIN, DEAL, table), witness)
    assert table.ledger.table_events(table.record.id, ["tray_credited"]) == []


def test_verify_names_a_sign_in_that_stands_for_two_tray_steps(tmp_path: Path) -> None:
    """The same, written past the table (an insider appending to the chain): verify says so."""
    from dealer_tui.events.accounting import TrayCredited

    table, crew = casino_table(tmp_path)
    dealer, witness = both(crew, table)
    table.money.open_shift(OPENER, dealer, witness)
    again = crew.sign_in(DEALER, DEALER_PIN, DEAL, table)
    forged = TrayCredited(shift=1, slip="C-9", chips={"1000": 5}, total=5000, dealer=DEALER,
                          dealer_sign_in=again.sign_in, supervisor=SUPERVISOR, sign_in=witness.sign_in)
    table.ledger.append(table.record.id, None, [forged.record()])
    problems = verify_ledger(table.ledger, GAMES)
    assert any(f"sign-in {witness.sign_in} stood for another step already" in p for p in problems), problems


def test_the_count_team_did_not_deal_or_sign_the_shift(tmp_path: Path) -> None:
    """A manager who witnessed the shift's tray does not count its drop box."""
    table, crew = casino_table(tmp_path)
    table.money.open_shift(OPENER, crew.sign_in(DEALER, DEALER_PIN, DEAL, table),
                     crew.sign_in(MANAGER, MANAGER_PIN, TRAY, table))
    table.money.close_shift(OPENER, *both(crew, table))
    with pytest.raises(IllegalAction, match="M1 dealt or signed the tray in shift 1"):
        record_drop(table.ledger, table.record, 0, 0, 0, crew.sign_in(MANAGER, MANAGER_PIN, COUNT_DROP, table))
    record_drop(table.ledger, table.record, 0, 0, 0, count_team(crew, table))          # the auditor did neither


def test_a_table_that_keeps_its_tray_deals_and_sells_only_in_a_shift(tmp_path: Path) -> None:
    table, crew = casino_table(tmp_path)
    table.money.open_shift({"1000": 5}, *both(crew, table))
    table.seat_player(1, "Ann", 1000)
    table.money.close_shift({"1000": 4}, *both(crew, table))
    with pytest.raises(IllegalAction, match="No round starts between shifts"):
        table.start_round()
    with pytest.raises(IllegalAction, match="No chips are sold between shifts"):
        table.buy_chips(1, 500)
    table.money.open_shift({"1000": 4}, *both(crew, table))
    folded_round(table, {1: 10})                                  # in the next shift, as ever


def test_a_marker_in_the_drop_box_for_cash_taken_is_flagged(tmp_path: Path) -> None:
    """2,000 sold for cash and 1,000 by marker; the box holds 1,000 cash and 2,000 in markers: the
    total agrees, the cash does not."""
    table, crew = casino_table(tmp_path)
    table.money.open_shift({"1000": 10}, *both(crew, table))
    table.seat_player(1, "Ann", 2000)
    table.seat_player(2, "Bob", 1000, "marker", marker=marker(crew, table, "M-2", 1000))
    table.money.close_shift({"1000": 7}, *both(crew, table))
    record_drop(table.ledger, table.record, cash=1000, markers=2000, collection=0, by=count_team(crew, table))
    s = the_shift(table)
    assert (s.drop_difference, s.cash_difference, s.markers_difference) == (0, -1000, 1000)
    assert "drop's cash short by 1,000" in s.flags and "drop's markers over by 1,000" in s.flags


def test_no_other_chip_set_while_a_shift_is_open(tmp_path: Path) -> None:
    from dealer_tui.staff import CHANGE_PROFILE

    table, crew = casino_table(tmp_path)
    table.money.open_shift(OPENER, *both(crew, table))
    card_room = ProfileLibrary().find("high-card-flush")               # no 1000 orange
    with pytest.raises(IllegalAction, match="has another chip set"):
        table.change_profile(card_room, "the card room's game", crew.signed(table, CHANGE_PROFILE, for_round=False))
