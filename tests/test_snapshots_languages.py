"""SVG snapshots of the setup, round, payout and floor screens in Hungarian, Polish and Russian at
the smallest supported terminal (80×24) and the usual one (120×36): the words longer than
English, the figures and keys still on screen (English has its own snapshots beside these).

Update after a deliberate change with `pytest tests/test_snapshots_languages.py --snapshot-update`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_tui.language import use_terminal
from tests.floor_support import counted, demo_ledger
from tests.staff_support import floor_review
from tests.tui_support import seated_app, typed_then_drawn

LANGUAGES = ("hu", "pl", "ru")
SIZES = ((80, 24), (120, 36))
CASES = [pytest.param(code, size, id=f"{code}-{size[0]}x{size[1]}") for code in LANGUAGES for size in SIZES]
PLAYERS = [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cy", 5000)]


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return demo_ledger(tmp_path_factory.mktemp("floorsnap") / "l.sqlite")


@pytest.mark.parametrize(("code", "size"), CASES)
def test_snapshot_setup_in_each_language(snap_compare, tmp_path: Path, code: str, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    from dealer_tui.app import Options, make_app
    from tests.staff_support import staffed_path

    use_terminal(code)
    app = make_app(staffed_path(tmp_path / "l.sqlite"), options=Options(game="high-card-flush"))
    assert snap_compare(app, terminal_size=size, run_before=typed_then_drawn("ctrl+o"))


@pytest.mark.parametrize(("code", "size"), CASES)
def test_snapshot_round_in_each_language(snap_compare, tmp_path: Path, code: str, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    use_terminal(code)
    app = seated_app(tmp_path, "high-card-flush", PLAYERS, seed=8)
    keys = typed_then_drawn("s", "y", "2", "a", "enter", "3", "a", "enter", "d")
    assert snap_compare(app, terminal_size=size, run_before=keys)


@pytest.mark.parametrize(("code", "size"), CASES)
def test_snapshot_payout_in_each_language(snap_compare, tmp_path: Path, code: str, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    use_terminal(code)
    app = seated_app(tmp_path, "high-card-flush", PLAYERS, seed=8)
    keys = typed_then_drawn("s", "y", "2", "a", "enter", "3", "a", "enter", "d", "r", "enter", "r", "enter", "v")
    assert snap_compare(app, terminal_size=size, run_before=keys)


@pytest.mark.parametrize(("code", "size"), CASES)
def test_snapshot_floor_story_in_each_language(snap_compare, filled: Path, code: str,  # type: ignore[no-untyped-def]
                                               size: tuple[int, int]) -> None:
    use_terminal(code)
    assert snap_compare(floor_review(filled), terminal_size=size, press=["down", "down", "enter"],
                        run_before=counted)
