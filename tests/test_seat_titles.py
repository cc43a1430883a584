"""Seat panel titles show markers and names as typed, never read as markup."""

from __future__ import annotations

from textual.markup import to_content

from dealer_tui.widgets.seat_panel import literal


def test_a_lone_marker_like_dp_is_shown_not_taken_for_a_markup_tag() -> None:
    assert to_content(literal("Seat 1 · Ann [DP]")).plain == "Seat 1 · Ann [DP]"
    assert to_content(literal("Seat 3 · Bob [box 1, box 2]")).plain == "Seat 3 · Bob [box 1, box 2]"


def test_a_player_name_with_brackets_is_shown_as_typed() -> None:
    assert to_content(literal("Seat 2 · [b]Cy[/b]")).plain == "Seat 2 · [b]Cy[/b]"
