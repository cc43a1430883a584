"""A round's observable state, to check that a round always equals the replay of its events (the
stateful tests of random legal play, with dealt and with keyed cards)."""

from __future__ import annotations

from dealer_tui.rounds.base import Round


def snapshot(rnd: Round) -> tuple[object, ...]:
    outcome = rnd.outcome()
    return (rnd.phase, [(s.kind, s.seat, s.min_amount, s.max_amount) for s in rnd.legal_steps()],
            None if outcome is None else (outcome.rows, dict(outcome.stack_changes), outcome.house))
