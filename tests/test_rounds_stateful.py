"""Random legal play through the real rounds and ledger: chips are conserved, the round is
always the replay of its events, and the ledger re-settles every round (hypothesis)."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer_tui.audit import verify_ledger
from dealer_tui.games import GAMES
from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.base import LegalStep, Phase, Round, Step
from dealer_tui.rounds.cards import VirtualShoe
from rules.errors import IllegalAction
from rules.profiles.loader import ProfileLibrary
from tests.keyed_support import step_from
from tests.replay_support import snapshot
from tests.staff_support import signed, staffed_table

GAME_IDS = ["one-or-five", "high-card-flush", "palace-poker", "chinese-poker"]


def random_action(rnd: Round, spec: LegalStep, rng: random.Random) -> Step:
    """An action for a legal spec, with amounts and details drawn at random."""
    amount = None
    if spec.min_amount is not None:
        amount = rng.randint(spec.min_amount, spec.max_amount if spec.max_amount is not None else spec.min_amount)
    data: dict[str, object] = dict(spec.data)
    if spec.kind == "exchange":
        box = rnd.current_box()  # type: ignore[attr-defined]
        data["discard"] = " ".join(c.text for c in rng.sample(list(box.cards), amount or 1))
    elif spec.kind == "void":
        data["reason"] = "misdeal: wrong card count"
    elif spec.kind == "deal":
        data["cut"] = rng.choice(["player", "dealer"])
    return step_from(spec, amount, **data)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAME_IDS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), rounds=st.integers(1, 3), void_rate=st.sampled_from([0.0, 0.02]))
def test_random_legal_play_conserves_chips_and_replays(game: str, seed: int, rounds: int, void_rate: float) -> None:
    rng = random.Random(seed)
    profile = ProfileLibrary().find(game)
    with tempfile.TemporaryDirectory() as tmp:
        ledger = SqliteLedger(Path(tmp) / "l.sqlite")
        table = staffed_table(ledger, "H", profile, VirtualShoe(random.Random(seed)), seats=7)
        for seat in range(1, rng.randint(2, 4) + 1):
            try:
                table.seat_player(seat, f"P{seat}", rng.randint(profile.profile.buy_in.min, profile.profile.buy_in.max),
                                  document=f"passport X{seat:07}")
            except IllegalAction:  # a first buy must be full at some tables (CP-12)
                table.seat_player(seat, f"P{seat}", profile.profile.buy_in.max, document=f"passport X{seat:07}")
        for _ in range(rounds):
            for seat, player in list(table.session.players.items()):  # a broke player buys again
                if player.stack < profile.profile.buy_in.min:
                    table.buy_chips(seat, profile.profile.buy_in.max)
            try:
                rnd = table.start_round()
            except IllegalAction:  # e.g. no seat holds a Designated Player's minimum bank (HCF-18)
                for seat in list(table.session.players):
                    table.buy_chips(seat, profile.profile.buy_in.max)
                rnd = table.start_round()
            while rnd.phase not in (Phase.DONE, Phase.VOID):
                specs = [s for s in rnd.legal_steps() if s.kind != "void" or rng.random() < void_rate]
                if rnd.phase is Phase.ANTE and len(specs) > 3 and rng.random() < 0.5:
                    specs = [s for s in specs if s.kind == "ante"] or specs
                table.act(signed(table, random_action(rnd, rng.choice(specs), rng)))
                replayed = type(rnd).replay(profile.profile, rnd.setup, rnd.events)
                assert snapshot(replayed) == snapshot(rnd)
            assert table.session.chips_balance() == 0
        assert verify_ledger(ledger, GAMES) == []
        ledger.close()
