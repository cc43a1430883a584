"""A marker (credit) buy-in is taken on its number and a supervisor's signature: signed in with
their own ID and PIN to witness the tray, not the dealer on duty, each sign-in and each number once;
a marker recorded without them is named by verify."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_tui.games import GAMES
from dealer_tui.rounds.table import Table
from dealer_tui.rounds.table_money import Marker, TableMoney
from dealer_tui.staff import DEAL, TRAY
from rules.errors import IllegalAction
from tests.accounting_support import both, casino_table, marker
from tests.insider_support import fails
from tests.staff_support import DEALER, DEALER_PIN, MANAGER, MANAGER_PIN, SUPERVISOR, SUPERVISOR_PIN


def verify_fails(table: Table, capsys: pytest.CaptureFixture[str], *expected: str) -> None:
    """The table closed, `history verify` of its ledger fails naming each of `expected`."""
    table.close()
    table.ledger.close()
    capsys.readouterr()
    fails(table.ledger.path, capsys, *expected)


def seated_events(table: Table) -> list[dict[str, object]]:
    return [e.payload for e in table.ledger.table_events(table.record.id, ["seat_taken", "chips_bought"])]


def test_a_marker_names_its_number_and_the_supervisor_who_signed_it(tmp_path: Path) -> None:
    table, crew = casino_table(tmp_path)
    table.money.open_shift({"1000": 10}, *both(crew, table))
    signed = marker(crew, table, "M-100", 1000)
    table.seat_player(1, "Ann", 1000, "marker", marker=signed)
    table.buy_chips(1, 500, "marker", marker=marker(crew, table, "M-101", 500))
    [seated, bought] = seated_events(table)
    assert (seated["marker"], seated["approved_by"], seated["sign_in"]) == ("M-100", SUPERVISOR, signed.approval.sign_in)
    assert (bought["marker"], bought["approved_by"]) == ("M-101", SUPERVISOR)
    assert table.tray.shift is not None and table.tray.shift.sold_marker == 1500


def test_a_marker_without_its_paper_is_refused_and_nothing_is_recorded(tmp_path: Path) -> None:
    table, crew = casino_table(tmp_path)
    table.money.open_shift({"1000": 10}, *both(crew, table))
    with pytest.raises(IllegalAction, match="A marker buy-in needs the marker's number and a supervisor's signature"):
        table.seat_player(1, "Ann", 1000, "marker")
    with pytest.raises(IllegalAction, match="A marker buy-in needs the marker's number"):
        table.seat_player(1, "Ann", 1000, "marker", marker=marker(crew, table, "  ", 1000))
    with pytest.raises(IllegalAction, match="a cash buy-in has no marker"):
        table.seat_player(1, "Ann", 1000, "cash", marker=marker(crew, table, "M-1", 1000))
    assert seated_events(table) == [] and table.session.players == {}


def test_a_marker_is_signed_by_a_supervisor_signed_in_to_witness_the_tray(tmp_path: Path) -> None:
    table, crew = casino_table(tmp_path)
    table.money.open_shift({"1000": 10}, *both(crew, table))
    as_dealer = crew.sign_in(SUPERVISOR, SUPERVISOR_PIN, DEAL, table)        # signed in for another act
    with pytest.raises(IllegalAction, match="A marker is signed by a supervisor signed in to witness the tray"):
        table.seat_player(1, "Ann", 1000, "marker", marker=Marker("M-1", as_dealer))
    assert seated_events(table) == []


def test_the_dealer_on_duty_does_not_sign_a_marker(tmp_path: Path) -> None:
    # the supervisor deals the table (signed in to deal) and would sign the marker too
    table, crew = casino_table(tmp_path)
    table.money.open_shift({"1000": 10}, *both(crew, table))
    table.money.close_shift({"1000": 10}, *both(crew, table))
    table.sign_in_dealer(crew.sign_in(SUPERVISOR, SUPERVISOR_PIN, DEAL, table))
    table.money.open_shift({"1000": 10}, crew.sign_in(SUPERVISOR, SUPERVISOR_PIN, DEAL, table),
                     crew.sign_in(MANAGER, MANAGER_PIN, TRAY, table))
    with pytest.raises(IllegalAction, match="deals at this table: a marker is signed by someone other than the dealer"):
        table.seat_player(1, "Ann", 1000, "marker", marker=marker(crew, table, "M-1", 1000))
    assert seated_events(table) == []


def test_each_marker_number_and_each_signature_stand_once(tmp_path: Path) -> None:
    table, crew = casino_table(tmp_path)
    table.money.open_shift({"1000": 10}, *both(crew, table))
    signed = marker(crew, table, "M-7", 1000)
    table.seat_player(1, "Ann", 1000, "marker", marker=signed)
    with pytest.raises(IllegalAction, match=r"Marker M-7 is already recorded at this table \(m-7 is the same number\)"):
        table.seat_player(2, "Bob", 1000, "marker", marker=marker(crew, table, "m-7", 1000))
    with pytest.raises(IllegalAction, match="Marker M-7 is already recorded"):         # a fullwidth M-7
        table.seat_player(2, "Bob", 1000, "marker", marker=marker(crew, table, "\uff2d-\uff17", 1000))
    with pytest.raises(IllegalAction, match="stood for another step already"):
        table.seat_player(2, "Bob", 1000, "marker", marker=Marker("M-8", signed.approval))
    assert len(seated_events(table)) == 1


def test_verify_names_a_marker_recorded_without_a_signature(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A terminal that writes a marker buy-in with no signature (here one whose checks are gone)
    leaves a chain verify names."""
    table, crew = casino_table(tmp_path)
    table.money.open_shift({"1000": 10}, *both(crew, table))
    monkeypatch.setattr(TableMoney, "marker_fields", lambda self, method, marker: ("M-9", "", None))
    with pytest.raises(IllegalAction, match="The table may not take the marker: marker by 'no one' names no sign-in"):
        table.seat_player(1, "Ann", 1000, "marker")                      # the write's own check of authority
    monkeypatch.setattr(Table, "check_authority", lambda self, events, what: None)
    table.seat_player(1, "Ann", 1000, "marker")
    monkeypatch.undo()
    verify_fails(table, capsys, "marker by 'no one' names no sign-in")


def test_verify_names_a_marker_signed_by_the_dealer_on_duty(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    table, crew = casino_table(tmp_path)
    table.money.open_shift({"1000": 10}, *both(crew, table))
    own = crew.sign_in(DEALER, DEALER_PIN, DEAL, table)
    monkeypatch.setattr(TableMoney, "marker_fields", lambda self, method, marker: ("M-9", DEALER, own.sign_in))
    monkeypatch.setattr(Table, "check_authority", lambda self, events, what: None)
    table.seat_player(1, "Ann", 1000, "marker")
    monkeypatch.undo()
    verify_fails(table, capsys, f"marker signed by {DEALER}, the dealer on duty: a marker needs two people")


def test_the_shifts_tray_record_lists_each_marker_with_who_signed_it(tmp_path: Path) -> None:
    from dealer_tui.accounting.shifts import shift_figures
    from dealer_tui.accounting.theoretical import Theory

    table, crew = casino_table(tmp_path)
    table.money.open_shift({"1000": 10}, *both(crew, table))
    table.seat_player(3, "Ann", 1000, "marker", marker=marker(crew, table, "M-100", 1000))
    [shift] = shift_figures(table.ledger, Theory(GAMES, None, hands=2_000))
    [entry] = [m for m in shift.movements if m["what"] == "marker"]
    assert (entry["total"], entry["slip"], entry["seat"], entry["dealer"], entry["supervisor"]) == (
        1000, "M-100", 3, DEALER, SUPERVISOR)


def test_a_markers_signature_names_its_number_and_amount(tmp_path: Path) -> None:
    """The supervisor signs in for marker M-10 of 1,000: the sign-in carries no other marker, and
    no other amount."""
    table, crew = casino_table(tmp_path)
    table.money.open_shift({"1000": 10}, *both(crew, table))
    signed = marker(crew, table, "M-10", 1000)
    with pytest.raises(IllegalAction, match=f"marker by 'S1' names sign-in {signed.approval.sign_in}, which was to "
                                            "'sign marker M-10 for 1,000 chips', not to 'sign marker M-11 for 1,000 chips'"):
        table.seat_player(1, "Ann", 1000, "marker", marker=Marker("M-11", signed.approval))
    with pytest.raises(IllegalAction, match="not to 'sign marker M-10 for 2,000 chips'"):
        table.seat_player(1, "Ann", 2000, "marker", marker=signed)
    table.seat_player(1, "Ann", 1000, "marker", marker=signed)
    assert [e["marker"] for e in seated_events(table)] == ["M-10"]


def test_verify_names_a_cash_buy_in_that_records_a_marker_and_chips_sold_with_no_dealer(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    table, crew = casino_table(tmp_path)
    table.money.open_shift({"1000": 10}, *both(crew, table))
    monkeypatch.setattr(TableMoney, "marker_fields", lambda self, method, marker: ("M-3", SUPERVISOR, None))
    table.seat_player(1, "Ann", 1000, "cash")
    monkeypatch.undo()
    table.sign_out_dealer("a break")
    monkeypatch.setattr(TableMoney, "chips_sold", lambda self, amount, method, chips: {"1000": 1})
    table.seat_player(2, "Bob", 1000, "cash")
    monkeypatch.undo()
    verify_fails(table, capsys, "a cash buy-in that records a marker (M-3, signed by S1)",
          "chips sold from the tray with no dealer on duty")
