"""Random legal play at live tables, the cards keyed at random (hypothesis): chips are conserved,
the round is always the replay of its events, and the ledger re-settles every round."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from keyed_support import keyed_action

from dealer_tui.audit import verify_ledger
from dealer_tui.games import GAMES
from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.base import Phase
from dealer_tui.rounds.cards import KeyedEntry
from rules.errors import IllegalAction
from rules.profiles.loader import ProfileLibrary
from tests.replay_support import snapshot
from tests.staff_support import signed, staffed_table

KEYED = ["high-card-flush", "high-card-flush-casino", "one-or-five", "chinese-poker", "palace-poker"]


@pytest.mark.slow
@pytest.mark.parametrize("name", KEYED)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), rounds=st.integers(1, 3))
def test_c_2_random_keyed_play_conserves_chips_and_replays(name: str, seed: int, rounds: int) -> None:
    rng = random.Random(seed)
    profile = ProfileLibrary().find(name)
    with tempfile.TemporaryDirectory() as tmp:
        table = staffed_table(SqliteLedger(Path(tmp) / "l.sqlite"), "Live", profile, KeyedEntry(), seats=7)
        for seat in range(1, rng.randint(2, 4) + 1):
            table.seat_player(seat, f"P{seat}", profile.profile.buy_in.max, document=f"passport X{seat:07}")
        for _ in range(rounds):
            rnd = table.start_round()
            steps = 0
            while rnd.phase not in (Phase.DONE, Phase.VOID):
                steps += 1
                assert steps < 400, "the round makes no progress"
                specs = [s for s in rnd.legal_steps() if s.kind not in ("void", "withdraw", "unlock",
                                                                          "withdraw_natural")]
                if rnd.phase is Phase.ANTE and rng.random() < 0.6:
                    specs = [s for s in specs if s.kind == "ante"] or specs
                try:
                    table.act(signed(table, keyed_action(rnd, rng.choice(specs), rng)))
                except IllegalAction:  # e.g. insurance asked on a keyed hand below a straight
                    continue
                replayed = type(rnd).replay(profile.profile, rnd.setup, rnd.events)
                assert snapshot(replayed) == snapshot(rnd)
            assert table.session.chips_balance() == 0
        assert verify_ledger(table.ledger, GAMES) == []
