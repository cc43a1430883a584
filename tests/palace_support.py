"""Palace Poker tables for the round and view tests (docs/rules.md PP-0..PP-18).

The test profile: small bet 10, big bet 30 (so "one big bet" and "two small bets" differ), ante 5,
at most 3 raises per battle, buy-ins from 1 chip (so short stacks can be seated).

Scripts: seats 1..n draw 2c, 3c, 4c... for the first dealer, so seat n deals and the turn order is
1, 2, ..., n (PP-0). Those cards go back at the bottom of the deck; the banner deal takes the next
cards in order; the palace cards are dealt one at a time from seat 1 (PP-2); the draw pile follows.
"""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

from dealer_tui.events import Event
from dealer_tui.games.palace_poker.round import PalacePokerRound
from dealer_tui.games.palace_poker.steps import (
    Ante,
    Battle,
    DealBanners,
    DealPalaces,
    DrawForDealer,
)
from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.base import Round, Step
from dealer_tui.rounds.cards import ScriptedDeck
from dealer_tui.rounds.table import Table
from rules.cards import DECK, Card, parse_cards
from rules.profiles.loader import LoadedProfile, parse_profile
from tests.staff_support import cash_id, staffed_table

C = parse_cards
E = TypeVar("E", bound=Event)
DRAW = "2c 3c 4c 5c 6c"


def profile(structure: str = "limit", **extra: int) -> LoadedProfile:
    fields = {"small_bet": 10, "big_bet": 30, "structure": structure, "ante": 5, "max_raises": 3,
              "sign_off_threshold": 100_000, **extra}
    text = "game: palace-poker\ntitle: test\nbuy_in: {min: 1, max: 100000}\n"
    text += "".join(f"{key}: {value}\n" for key, value in fields.items())
    return parse_profile(text, "test", f"test-{structure}")


LIMIT = profile()
NO_LIMIT = profile("no_limit")


def deck(*parts: str) -> list[Card]:
    """The given cards first (a duplicate is an error), then the rest of the deck in order."""
    given = C(" ".join(p for p in parts if p))
    return [*given, *(c for c in DECK if c not in given)]


def script(banners: str, *palaces: str, top: str = "", draw: str | None = None) -> list[Card]:
    """Seats 1..n: the draw for the dealer, banners in seat order, palaces as dealt, the draw pile."""
    hands = [p.split() for p in palaces]
    dealt = " ".join(h[k] for k in range(3) for h in hands)
    return deck(DRAW[:3 * len(hands) - 1] if draw is None else draw, banners, dealt, top)


def snapshot(rnd: Round) -> tuple[object, ...]:
    outcome = rnd.outcome()
    return (rnd.phase, [(s.kind, s.seat, s.min_amount, s.max_amount, dict(s.data)) for s in rnd.legal_steps()],
            None if outcome is None else (outcome.rows, dict(outcome.stack_changes), outcome.house))


def act(table: Table, action: Step) -> None:
    """One action through the runner; the round always equals the replay of its events."""
    table.act(action)
    rnd = table.round
    assert rnd is not None
    assert snapshot(type(rnd).replay(rnd.profile, rnd.setup, rnd.events)) == snapshot(rnd)


def new_table(path: Path, cards: list[Card], stacks: list[int], loaded: LoadedProfile = LIMIT) -> Table:
    table = staffed_table(SqliteLedger(path / "ledger.sqlite"), "P1", loaded, ScriptedDeck([cards]), seats=10)
    for seat, stack in enumerate(stacks, 1):
        table.seat_player(seat, f"P{seat}", stack, document=cash_id(seat, stack))
    return table


def dealt(path: Path, cards: list[Card], stacks: list[int] | None = None,
          loaded: LoadedProfile = LIMIT) -> tuple[Table, PalacePokerRound]:
    """Seats 1..n with 1000 chips each (unless given): the draw, every ante, banners and palaces."""
    stacks = stacks or [1000] * 3
    table = new_table(path, cards, stacks, loaded)
    rnd = table.start_round()
    assert isinstance(rnd, PalacePokerRound)
    act(table, DrawForDealer())
    for seat in range(1, len(stacks) + 1):
        act(table, Ante(seat=seat))
    act(table, DealBanners())
    act(table, DealPalaces())
    return table, rnd


def first(rnd: Round, kind: type[E]) -> E:
    """The round's first event of this kind."""
    return next(e for e in rnd.events if isinstance(e, kind))


def play(table: Table, *actions: Step) -> None:
    for action in actions:
        act(table, action)


def attack(seat: int, target: int, amount: int | None = None) -> Step:
    return Battle(seat=seat, amount=amount, target=target)


# Three players, dealer seat 3: banners As, Kh, Qd; the draw pile starts Js Ts 9s 8s 7s 6s.
THREE = script("As Kh Qd", "7d 8d 9d", "Tc Jc Qc", "7h 8h 9h", top="Js Ts 9s 8s 7s 6s")
