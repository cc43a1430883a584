"""Hypothesis strategies shared by the test modules: random High Card Flush `settle` requests."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from rules.cards import DECK
from rules.games.high_card_flush.rules import flush_length_of, raise_bounds
from tests.settle_support import player


@st.composite
def rounds(draw: st.DrawFn) -> dict[str, Any]:
    """A valid finished round: random cards, seats, bets, folds and legal raises, both profiles."""
    casino = draw(st.booleans())
    rng = draw(st.randoms(use_true_random=False))
    deck = rng.sample(range(52), 49)
    hands = [[DECK[i] for i in deck[k * 7:(k + 1) * 7]] for k in range(7)]
    seats = draw(st.integers(2, 7))
    banker_seat = draw(st.integers(1, seats))
    free = [s for s in range(1, seats + 1) if casino or s != banker_seat]
    chosen = rng.sample(free, draw(st.integers(1, min(6, len(free)))))
    players = []
    for cards, seat in zip(hands[1:], chosen):
        ante = draw(st.sampled_from([5, 10, 25]) | st.integers(5, 500))
        flush, sf = (draw(st.integers(1, 100)) if rng.random() < 0.6 else 0 for _ in range(2))
        low, high = raise_bounds(ante, flush_length_of(cards))
        raised = draw(st.integers(low, high)) if rng.random() < 0.7 else 0
        p = player(seat, ante, raised, flush=flush, straight_flush=sf)
        if raised or (casino and (flush or sf)) or rng.random() < 0.5:
            p["cards"] = " ".join(c.text for c in cards)
        players.append(p)
    req: dict[str, Any] = {"game": "high-card-flush", "seats": seats, "players": players}
    if rng.random() < 0.3:
        req["bonus_cap"] = draw(st.none() | st.integers(1, 3000))
    if rng.random() < 0.3:
        req["round_bonus_cap"] = draw(st.none() | st.integers(1, 5000))
    banker_cards = " ".join(c.text for c in hands[0])
    if casino:
        req["profile"] = "high-card-flush-casino"
        req["banker"] = {"cards": banker_cards}
    else:
        req["banker"] = {"seat": banker_seat, "stack": draw(st.integers(0, 3000)) // rng.choice([1, 10]), "cards": banker_cards}
        req["rake"] = {"mode": rng.choice(["all", "players", "dp_only"]), "amount": draw(st.integers(0, 20))}
    return req
