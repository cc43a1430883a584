"""One snapshot per change: a key press works out the round's legal actions once per event it
records, however many parts of the screen (key bar, checks, prompts, panels) ask for them."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_tui.rounds.base import Phase
from dealer_tui.rounds.high_card_flush import HighCardFlushRound
from tests.tui_support import seated_app

SIZE = (120, 36)


async def test_a_whole_round_works_out_legal_actions_once_per_recorded_event(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    worked: list[int] = []
    original = HighCardFlushRound._legal_actions

    def counted(self: HighCardFlushRound) -> list:  # type: ignore[type-arg]
        worked.append(len(self.events))
        return original(self)

    monkeypatch.setattr(HighCardFlushRound, "_legal_actions", counted)
    app = seated_app(tmp_path, "high-card-flush", [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cy", 5000)])
    async with app.run_test(size=SIZE) as pilot:
        # the bank accepted (the round starts), two antes, the deal, a raise, a fold, the reveal,
        # the payout confirmed: 8 events
        await pilot.press("s", "y", "2", "a", "enter", "3", "a", "2", "0", "enter", "d", "r", "enter", "f",
                          "v", "p", "enter")
        rnd = app.table.round  # type: ignore[union-attr]
        assert isinstance(rnd, HighCardFlushRound) and rnd.phase is Phase.DONE
        recorded = len(rnd.events)
    assert recorded == 8
    assert len(worked) == len(set(worked)), f"legal actions worked out again for the same state: {worked}"
    assert len(worked) <= recorded + 1
