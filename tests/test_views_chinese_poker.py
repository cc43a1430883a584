"""What a Chinese Poker seat panel shows: the dealt cards and the rows in C-7 order."""

from __future__ import annotations

from pathlib import Path

from dealer_tui.views.chinese_poker import PRESENTER
from rules.cards import parse_cards
from tests.cp_support import set_rows, two_player_round


def test_c_7_dealt_cards_are_shown_by_rank_high_first_suits_s_h_d_c(tmp_path: Path) -> None:
    table, rnd = two_player_round(tmp_path)
    views = {v.seat: v for v in PRESENTER.seats(rnd, {1: ("P1", 100), 2: ("P2", 100)})}
    # seat 2 was dealt "Jh Td 8c 9s 9d 7c 6s 3s Th Ts 7d 6d 2d"; C-7: by rank, then s h d c
    assert [c.text for c in views[2].cards] == "Jh Ts Th Td 9s 9d 8c 7d 7c 6s 6d 3s 2d".split()


def test_c_7_rows_are_shown_by_rank_a_wheel_with_its_ace_last(tmp_path: Path) -> None:
    table, rnd = two_player_round(tmp_path)
    # seat 1's cards "Ah Ad 2c Kh Ks Kd 3c 4d Qh Qs Qd Qc 5c": a wheel in the middle, set low first
    set_rows(table, 1, "Kh Ks Kd", "2c 3c 4d 5c Ah", "Qh Qs Qd Qc Ad")
    views = {v.seat: v for v in PRESENTER.seats(rnd, {1: ("P1", 100), 2: ("P2", 100)})}
    rows = {label.strip(): cards for label, cards, _ in views[1].hands}
    assert rows["Middle"] == parse_cards("5c 4d 3c 2c Ah")       # a straight from its top card down
    assert rows["Back"] == parse_cards("Ad Qs Qh Qd Qc")        # C-7: by rank, high first (not grouped)
    assert rows["Front"] == parse_cards("Ks Kh Kd")
