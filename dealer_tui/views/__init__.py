"""What the screens show of a round, as plain data: one presenter per game, found by game id.

No Textual here: a presenter turns a round into seat views, the banker's hand and plain-words
event lines; the widgets only draw them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from dealer_tui.ledger.base import NewEvent
from dealer_tui.rounds.base import Round
from rules.cards import Card
from rules.registry import load, record


@dataclass(frozen=True)
class SeatView:
    seat: int
    name: str
    stack: int
    bets: Sequence[tuple[str, int]] = ()
    cards: Sequence[Card] = ()
    hidden_cards: int = 0
    hand: str = ""
    markers: Sequence[str] = ()
    acting: bool = False
    out: bool = False
    note: str = ""
    hands: Sequence[tuple[str, Sequence[Card], str]] = ()
    """Several hands of one seat (boxes): label, cards, what they make."""


@dataclass(frozen=True)
class HandView:
    title: str
    cards: Sequence[Card] = ()
    hidden_cards: int = 0
    hand: str = ""
    lines: Sequence[str] = field(default_factory=tuple)


class Presenter(Protocol):
    LIMITS: tuple[str, ...]
    def seats(self, rnd: Round | None, stacks: dict[int, tuple[str, int]]) -> list[SeatView]: ...
    def banker(self, rnd: Round | None) -> HandView: ...
    def describe(self, event: NewEvent) -> str: ...
    def prompt(self, rnd: Round | None) -> str: ...


def describe_common(event: NewEvent) -> str | None:
    """The events every game shares, in plain words (None for a game's own events)."""
    p = event.payload
    if event.kind == "payout_confirmed":
        signed = f", signed off by {p['signed_off_by']}" if p.get("signed_off_by") else ""
        return f"Payout confirmed: {p['paid']} paid out{signed}"
    if event.kind == "round_voided":
        back = ", ".join(f"seat {seat} {chips}" for seat, chips in p.get("returned", {}).items())
        by = f"; approved by {p['by']}" if p.get("by") else ""
        return f"Round void: {p['reason']}" + (f"; returned {back}" if back else "") + by
    if event.kind == "sign_off_requested":
        seats = ", ".join(str(s) for s in p.get("seats", []))
        return f"Payout sent to the floor for sign-off (seat {seats})"
    if event.kind == "sign_off_approved":
        return f"Floor approved the payout ({p.get('by')})"
    if event.kind == "sign_off_refused":
        return f"Floor refused the payout ({p.get('by')}): {p.get('reason')}"
    if event.kind == "cards_corrected":
        changed = "; ".join(f"{label} {p['previous'][label]} → {text}" for label, text in p["cards"].items())
        return f"Cards corrected: {changed} ({p['reason']}; approved by {p['supervisor']})"
    if event.kind == "step_taken_back":
        return f"Taken back: {p.get('what', p.get('kind'))} (the dealer's correction)"
    if event.kind == "round_recovered":
        return f"Round reopened after a restart ({p['phase']} phase)"
    return None


def presenter(game_id: str) -> Presenter:
    """The game's presenter, as its record names it."""
    found: Presenter = load(record(game_id).presenter)
    return found
