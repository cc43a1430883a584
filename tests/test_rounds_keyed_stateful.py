"""Random legal play at live tables, the cards keyed at random (hypothesis): chips are conserved,
the round is always the replay of its events, and the ledger re-settles every round."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer_tui.audit import verify_ledger
from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.base import Action, ActionSpec, CardRequest, Phase, Round
from dealer_tui.rounds.cards import KeyedEntry
from dealer_tui.rounds.table import Table
from rules.cards import DECK, Card
from rules.errors import IllegalAction
from rules.profiles.loader import ProfileLibrary
from tests.test_rounds_stateful import snapshot

KEYED = ["high-card-flush", "high-card-flush-casino", "one-or-five", "chinese-poker", "palace-poker"]


def keyed_cards(rnd: Round, request: CardRequest, rng: random.Random) -> dict[str, tuple[Card, ...]]:
    """Cards a dealer could key for `request`: unseen ones, a box keeping the cards it drew."""
    free = [c for c in DECK if c not in rnd.taken_cards(request)]
    drawn: dict[int, tuple[Card, ...]] = getattr(rnd, "drawn", {})
    rng.shuffle(free)
    out = {}
    for label, count in request.hands:
        keep = drawn.get(int(label.split()[1]), ()) if label.startswith("box ") else ()
        fresh = [c for c in free if c not in keep][: count - len(keep)]
        free = [c for c in free if c not in fresh]
        out[label] = (*keep, *fresh)
    return out


def keyed_action(rnd: Round, spec: ActionSpec, rng: random.Random) -> Action:
    amount = None
    if spec.min_amount is not None:
        amount = rng.randint(spec.min_amount, spec.max_amount if spec.max_amount is not None else spec.min_amount)
    data: dict[str, object] = dict(spec.data)
    if spec.kind in ("set_rows", "declare_natural"):
        taken = rnd.taken_cards(seat=spec.seat)  # type: ignore[call-arg]
        cards = rng.sample([c for c in DECK if c not in taken], 13)
        data = {"front": " ".join(c.text for c in cards[:3]), "middle": " ".join(c.text for c in cards[3:8]),
                "back": " ".join(c.text for c in cards[8:])}
    elif spec.kind == "lock":
        data["confirm_foul"] = True
    elif spec.kind == "confirm_payout":
        data["supervisor"] = "floor 1"
    elif spec.kind == "deal":
        data["cut"] = rng.choice(["player", "dealer"])
    cards = keyed_cards(rnd, spec.needs_cards, rng) if spec.needs_cards is not None else {}
    return Action(spec.kind, spec.seat, amount, data, cards)


@pytest.mark.parametrize("name", KEYED)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), rounds=st.integers(1, 3))
def test_c_2_random_keyed_play_conserves_chips_and_replays(name: str, seed: int, rounds: int) -> None:
    rng = random.Random(seed)
    profile = ProfileLibrary().find(name)
    with tempfile.TemporaryDirectory() as tmp:
        table = Table.create(SqliteLedger(Path(tmp) / "l.sqlite"), "Live", profile, KeyedEntry(), seats=7)
        for seat in range(1, rng.randint(2, 4) + 1):
            table.seat_player(seat, f"P{seat}", profile.profile.buy_in.max)
        for _ in range(rounds):
            rnd = table.start_round()
            steps = 0
            while rnd.phase not in (Phase.DONE, Phase.VOID):
                steps += 1
                assert steps < 400, "the round makes no progress"
                specs = [s for s in rnd.legal_actions() if s.kind not in ("void", "withdraw", "unlock",
                                                                          "withdraw_natural")]
                if rnd.phase is Phase.ANTE and rng.random() < 0.6:
                    specs = [s for s in specs if s.kind == "ante"] or specs
                try:
                    table.act(keyed_action(rnd, rng.choice(specs), rng))
                except IllegalAction:  # e.g. insurance asked on a keyed hand below a straight
                    continue
                replayed = type(rnd).replay(profile.profile, rnd.setup, rnd.events)
                assert snapshot(replayed) == snapshot(rnd)
            assert table.session.chips_balance() == 0
        assert verify_ledger(table.ledger) == []
