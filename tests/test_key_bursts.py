"""Every key counts: whole key sequences sent to the real terminal (tmux) in one call — as a fast
dealer typing ahead, a paste or a card reader sends them — are handled in order, exactly once,
by the screen current when each is handled. The ledger's events must equal what was typed, in
every one of 50 rounds of each kind."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from dealer_tui.ledger import SqliteLedger, StoredEvent
from dealer_tui.ledger.base import ROUND_SETTLED
from dealer_tui.rounds.cards import KeyedEntry, VirtualShoe
from rules.cards import Card, parse_card
from rules.profiles.loader import ProfileLibrary
from tests.staff_support import staffed_table
from tests.tmux_support import Terminal, needs_tmux

pytestmark = [needs_tmux, pytest.mark.tui]

ROUNDS = int(__import__("os").environ.get("BURST_ROUNDS", "50"))
PLAYERS = [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cy", 5000)]
PIN = "2468"


def _open_table(home: Path, keyed: bool) -> Path:
    """A ledger with a seven-seat High Card Flush table and three players, and the PIN set where
    the terminal looks for it."""
    ledger_path = home / "ledger.sqlite"
    ledger = SqliteLedger(ledger_path)
    loaded = ProfileLibrary([]).find("high-card-flush")
    source = KeyedEntry() if keyed else VirtualShoe(random.Random(1))
    table = staffed_table(ledger, "Burst", loaded, source, seats=7)
    for seat, name, stack in PLAYERS:
        table.seat_player(seat, name, stack)
    ledger.close()
    return ledger_path


def _order_after(banker: int) -> list[int]:
    """The players clockwise from the Designated Player (HCF-5, HCF-10's button in front of it)."""
    ring = [(banker + step - 1) % 7 + 1 for step in range(1, 8)]
    return [s for s in ring if s in {p[0] for p in PLAYERS} and s != banker]


def _round_events(ledger_path: Path, number: int) -> tuple[str, list[StoredEvent]] | None:
    """The status and events of the table's round `number`, once it is done."""
    ledger = SqliteLedger(ledger_path, readonly=True)
    try:
        rounds = [r for r in ledger.table_rounds(ledger.tables()[0].id) if r.number == number]
        if not rounds or rounds[0].status != ROUND_SETTLED:
            return None
        return rounds[0].status, ledger.round_events(rounds[0].id)
    finally:
        ledger.close()


def _wait_for_round(term: Terminal, ledger_path: Path, number: int) -> list[StoredEvent]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = _round_events(ledger_path, number)
        if found is not None:
            return found[1]
        time.sleep(0.05)
    raise AssertionError(f"round {number} did not finish; the screen:\n{term.screen()}")


def _game_events(events: list[StoredEvent]) -> list[tuple[str, dict[str, Any]]]:
    keep = {"ante_placed": ("seat", "ante", "flush", "straight_flush"), "player_acted": ("seat", "raise")}
    return [(e.kind, {k: e.payload[k] for k in keep[e.kind]}) for e in events if e.kind in keep]


def _bets(r: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """Round r's two players' (ante, flush, straight flush), varied from round to round; small
    enough that no seat can reach the sign-off threshold of 5000 (at most 3 × 1000 + 5 × 200)."""
    return (10 + r % 40, 1 + r % 5, r % 4), (5 + (r * 7) % 45, 1 + (r * 3) % 5, (r + 1) % 4)


@needs_tmux
def test_hcf_rounds_typed_ahead_are_recorded_as_typed(tmp_path: Path) -> None:
    """Each round's keys in one burst: the bank, two ante dialogs (one typed over the selected
    amounts, one with Backspace first), the deal, a raise dialog, a fold that loses bonus bets (so
    it asks first), reveal and payout."""
    ledger_path = _open_table(tmp_path, keyed=False)
    term = Terminal(tmp_path, ["--ledger", str(ledger_path), "--seed", "11"])
    try:
        term.wait_for("New round", why="the round screen")
        for r in range(ROUNDS):
            banker = r % 3 + 1
            first, second = _order_after(banker)
            (a1, f1, s1), (a2, f2, s2) = _bets(r)
            keys = ["s", "y",
                    str(first), "a", str(a1), "Tab", str(f1), "Tab", str(s1), "Enter",
                    str(second), "a", "BSpace", str(a2), "Tab", "BSpace", str(f2), "Tab", "BSpace",
                    str(s2), "Enter",
                    "d", "r", str(a1), "Enter", "f", "y", "v", "Enter"]
            term.send(keys)
            events = _wait_for_round(term, ledger_path, r + 1)
            antes = sorted([("ante_placed", {"seat": first, "ante": a1, "flush": f1, "straight_flush": s1}),
                            ("ante_placed", {"seat": second, "ante": a2, "flush": f2, "straight_flush": s2})],
                           key=lambda e: e[1]["seat"] != first)
            assert _game_events(events) == [*antes, ("player_acted", {"seat": first, "raise": a1}),
                                            ("player_acted", {"seat": second, "raise": 0})], f"round {r + 1}"
            started = next(e for e in events if e.kind == "round_started")
            assert started.payload["setup"]["banker"] == banker, f"round {r + 1}: the bank"
    finally:
        term.close()


def _cards_text(cards: list[Card]) -> str:
    return " ".join(c.text for c in cards)


@needs_tmux
def test_hcf_keyed_cards_typed_ahead_are_recorded_as_typed(tmp_path: Path) -> None:
    """A live table: the two hands keyed at the reveal, line after line, in the same burst as
    the round's other keys."""
    ledger_path = _open_table(tmp_path, keyed=True)
    term = Terminal(tmp_path, ["--ledger", str(ledger_path)])
    deck = [parse_card(f"{rank}{suit}") for rank in "AKQJT98765432" for suit in "shdc"]
    try:
        term.wait_for("New round", why="the round screen")
        for r in range(ROUNDS):
            banker = r % 3 + 1
            first, second = _order_after(banker)
            dealt = random.Random(r).sample(deck, 14)
            player, bank = dealt[:7], dealt[7:]
            keys = ["s", "y", str(first), "a", "20", "Enter", str(second), "a", "10", "Enter",
                    "d", "r", "20", "Enter", "f", "v",
                    _cards_text(player), "Enter", _cards_text(bank), "Enter", "p", "Enter"]
            term.send(keys)
            events = _wait_for_round(term, ledger_path, r + 1)
            revealed = next(e for e in events if e.kind == "banker_revealed")
            assert revealed.payload["hand_cards"] == {f"seat {first}": _cards_text(player)}, f"round {r + 1}"
            assert revealed.payload["cards"] == _cards_text(bank), f"round {r + 1}"
            assert _game_events(events)[-2:] == [("player_acted", {"seat": first, "raise": 20}),
                                                 ("player_acted", {"seat": second, "raise": 0})]
    finally:
        term.close()



@needs_tmux
def test_the_first_keys_after_the_table_opens_are_not_lost(tmp_path: Path) -> None:
    """The terminal starts, and the moment its table is on screen (while it is still building its
    dialogs) the dealer presses s and answers the bank: every start, the round is open."""
    for attempt in range(10):
        home = tmp_path / f"start-{attempt}"
        home.mkdir()
        ledger_path = _open_table(home, keyed=False)
        term = Terminal(home, ["--ledger", str(ledger_path)])
        try:
            term.wait_for("New round", timeout=30, why="the round screen")
            term.send(["s", "y", "2", "a", "15", "Enter"])
            deadline = time.monotonic() + 15
            antes: list[StoredEvent] = []
            while time.monotonic() < deadline and not antes:
                ledger = SqliteLedger(ledger_path, readonly=True)
                try:
                    rounds = ledger.table_rounds(ledger.tables()[0].id)
                    events = ledger.round_events(rounds[0].id) if rounds else []
                finally:
                    ledger.close()
                antes = [e for e in events if e.kind == "ante_placed"]
                time.sleep(0.05)
            assert [(e.payload["seat"], e.payload["ante"]) for e in antes] == [(2, 15)], f"start {attempt + 1}"
        finally:
            term.close()
