"""The setup screen's players line: `Ann 1000, Bob 500` or `3 Cy 800`, each problem named once."""

from __future__ import annotations

import pytest

from dealer_tui.screens.setup_screen import parse_players


def test_players_take_the_free_seats_in_order_unless_a_seat_is_named() -> None:
    assert [tuple(p)[:4] for p in parse_players("Ann 1000, 5 Cy 800, Bob 500", 7, (100, 20000))] == [
        (1, "Ann", 1000, ""), (5, "Cy", 800, ""), (2, "Bob", 500, "")]


def test_a_loyalty_card_after_a_hash_is_the_players_card_not_part_of_the_name() -> None:
    assert [tuple(p)[:4] for p in parse_players("Ann Lee #LC-1234 5000, 4 Bob #77 300", 7, (100, 20000))] == [
        (1, "Ann Lee", 5000, "LC-1234"), (4, "Bob", 300, "77")]
    with pytest.raises(ValueError, match="at most one loyalty card after a #"):
        parse_players("Ann #1 #2 500", 7, (100, 20000))


def test_two_players_of_one_name_are_refused() -> None:
    with pytest.raises(ValueError, match=r"player 2 \(ann\): a player of that name is already seated"):
        parse_players("Ann 1000, ann 500", 7, (100, 20000))
    assert tuple(parse_players("Ann 1000, Ann 2 500", 7, (100, 20000))[1])[:4] == (2, "Ann 2", 500, "")


def test_a_buy_in_outside_the_profile_and_a_taken_seat_are_refused() -> None:
    with pytest.raises(ValueError, match=r"player 1 \(Ann\): a buy-in is 100–20,000, not 50"):
        parse_players("Ann 50", 7, (100, 20000))
    with pytest.raises(ValueError, match=r"player 2 \(Bob\): seat 1 is not free"):
        parse_players("1 Ann 500, 1 Bob 500", 7, (100, 20000))
