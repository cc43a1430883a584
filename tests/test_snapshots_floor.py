"""SVG snapshots of the floor review on a ledger filled by `demo` with fixed seeds and a fixed
clock (every time on screen comes from the ledger): the rounds list, a round's story, the totals.

Update after a deliberate change with `pytest tests/test_snapshots_floor.py --snapshot-update`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_tui.floor_app import FloorApp
from tests.floor_support import counted, demo_ledger
from tests.staff_support import floor_review

SIZE = (130, 36)


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return demo_ledger(tmp_path_factory.mktemp("floorsnap") / "l.sqlite")


def review(path: Path) -> FloorApp:
    return floor_review(path)


def test_snapshot_floor_rounds_list(snap_compare, filled: Path) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(review(filled), terminal_size=SIZE, run_before=counted)


def test_snapshot_floor_round_story(snap_compare, filled: Path) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(review(filled), terminal_size=SIZE, press=["down", "down", "enter"],
                        run_before=counted)


def test_snapshot_floor_totals(snap_compare, filled: Path) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(review(filled), terminal_size=SIZE, press=["t"], run_before=counted)
