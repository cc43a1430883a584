"""SVG snapshots of the round screens at a fixed size with a seeded shoe (no clocks on screen).

Update after a deliberate change with `pytest tests/test_snapshots.py --snapshot-update`.
"""

from __future__ import annotations

from pathlib import Path

from tests.tui_support import SEVEN, _full_hcf_round, seated_app, typed_then_drawn

SIZE = (110, 34)


def test_snapshot_high_card_flush_act_phase(snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = seated_app(tmp_path, "high-card-flush", [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cy", 5000),
                                                   (4, "Dee", 5000)], seed=21)
    keys = typed_then_drawn("s", "y", "2", "a", "enter", "3", "a", "enter", "4", "a", "enter", "d", "r", "enter")
    assert snap_compare(app, terminal_size=SIZE, run_before=keys)


def test_snapshot_high_card_flush_payout(snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = seated_app(tmp_path, "high-card-flush", [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cy", 5000)], seed=8)
    keys = typed_then_drawn("s", "y", "2", "a", "enter", "3", "a", "enter", "d", "r", "enter", "r", "enter", "v")
    assert snap_compare(app, terminal_size=SIZE, run_before=keys)


def test_snapshot_one_or_five_act_phase(snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = seated_app(tmp_path, "one-or-five", [(1, "Ann", 1000), (2, "Bob", 1000), (3, "Cy", 1000)], seats=6,
                     seed=3)
    keys = typed_then_drawn("s", "1", "a", "enter", "2", "a", "enter", "3", "a", "enter", "d", "d")
    assert snap_compare(app, terminal_size=SIZE, run_before=keys)


def test_snapshot_palace_poker_act_phase(snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = seated_app(tmp_path, "palace-poker", [(1, "Ann", 1000), (2, "Bob", 1000), (3, "Cy", 1000)], seats=10,
                     seed=1)  # seed 1: the draw for the first dealer has no tie
    keys = typed_then_drawn("s", "d", "a", "a", "a", "d", "d", "b", "enter")
    assert snap_compare(app, terminal_size=SIZE, run_before=keys)


def test_snapshot_chinese_poker_rows(snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = seated_app(tmp_path, "chinese-poker", [(1, "Ann", 100), (2, "Bob", 100), (3, "Cy", 100)], seats=4,
                     seed=4)
    assert snap_compare(app, terminal_size=SIZE, run_before=typed_then_drawn("s", "d", "1", "g", "k", "2", "g"))


def test_snapshot_amount_dialog_asked_again_at_80x24(snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The ante dialog built ahead of its first question, asked again for the second seat, at the
    smallest supported terminal: every field, label and bound in place."""
    app = seated_app(tmp_path, "high-card-flush", [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cy", 5000)], seed=8)
    keys = typed_then_drawn("s", "y", "2", "a", "1", "5", "enter", "3", "a")
    assert snap_compare(app, terminal_size=(80, 24), run_before=keys)


def test_snapshot_chinese_poker_rows_dialog_after_a_resize(snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The rows dialog centred over the dimmed table, which is laid out again at the terminal's
    new size while the dialog stays open."""
    app = seated_app(tmp_path, "chinese-poker", [(1, "Ann", 100), (2, "Bob", 100), (3, "Cy", 100)], seats=4,
                     seed=4)

    async def open_and_resize(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.press("s", "d", "3", "e")
        await pilot.resize_terminal(80, 24)
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=open_and_resize)


def test_snapshot_high_card_flush_payout_of_six_players_at_80x24(snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Twenty-odd payout rows at the smallest supported terminal: the rows scroll, the total and
    the confirming key stay on screen."""
    app = seated_app(tmp_path, "high-card-flush", SEVEN, seed=8)
    assert snap_compare(app, terminal_size=(80, 24), run_before=typed_then_drawn(*_full_hcf_round()))


def test_snapshot_setup_with_its_players_missing(snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A new table's setup after ctrl+o with no players: the fields a dealer fills first, the
    reason beside them, the cursor in Players, the paytable below."""
    from dealer_tui.app import Options, make_app
    from tests.staff_support import staffed_path

    app = make_app(staffed_path(tmp_path / "l.sqlite"), options=Options(game="high-card-flush"))
    assert snap_compare(app, terminal_size=SIZE, run_before=typed_then_drawn("ctrl+o"))


def test_snapshot_setup_with_its_players_missing_at_80x24(snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from dealer_tui.app import Options, make_app
    from tests.staff_support import staffed_path

    app = make_app(staffed_path(tmp_path / "l.sqlite"), options=Options(game="high-card-flush"))
    assert snap_compare(app, terminal_size=(80, 24), run_before=typed_then_drawn("ctrl+o"))
