"""A table across rounds: who sits where, their chips, the button, and what the house holds.

Its state is the replay of the table's events: seating, buys, cash-outs, each round's start and
each confirmed payout. Chips only enter or leave through buys and cash-outs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from dealer_tui.ledger.base import NewEvent
from rules.errors import IllegalAction
from rules.profiles.base import ProfileBase


@dataclass(frozen=True)
class SeatedPlayer:
    seat: int
    name: str
    stack: int
    joined_round: int  # the table's round count when the player sat down
    bought: int = 0  # chips brought to the table in all
    full_buys: int = 0
    short_buys: int = 0


TABLE_EVENT_KINDS = ("seat_taken", "chips_bought", "seat_left", "round_started", "payout_confirmed",
                     "round_voided")


class TableSession:
    """Seats, stacks and rotation of one table (the same for every game)."""

    def __init__(self, seats: int) -> None:
        self.seat_count = seats
        self.players: dict[int, SeatedPlayer] = {}
        self.rounds_started = 0
        self.button: int | None = None
        self.banker: int | None = None
        self.house = 0  # chips the house has taken (or, banking, won) at this table
        self.bought_in = 0
        self.cashed_out = 0

    # -- proposals (validate, return events) ------------------------------------------------

    def seat_events(self, seat: int, name: str, buy_in: int, profile: ProfileBase) -> list[NewEvent]:
        if not 1 <= seat <= self.seat_count:
            raise IllegalAction(f"Seat {seat} does not exist: the table has seats 1-{self.seat_count}")
        if seat in self.players:
            raise IllegalAction(f"Seat {seat} is taken by {self.players[seat].name}")
        if not name.strip():
            raise IllegalAction(f"Seat {seat} needs a player name")
        self._check_buy(seat, buy_in, profile)
        return [NewEvent("seat_taken", {"seat": seat, "player": name.strip(), "buy_in": buy_in})]

    def buy_events(self, seat: int, amount: int, profile: ProfileBase) -> list[NewEvent]:
        self.player(seat)
        self._check_buy(seat, amount, profile)
        return [NewEvent("chips_bought", {"seat": seat, "amount": amount})]

    def leave_events(self, seat: int) -> list[NewEvent]:
        player = self.player(seat)
        return [NewEvent("seat_left", {"seat": seat, "cash_out": player.stack})]

    def _check_buy(self, seat: int, amount: int, profile: ProfileBase) -> None:
        if not profile.buy_in.contains(amount):
            raise IllegalAction(f"Seat {seat} may not buy {amount}: buy-ins are {profile.buy_in}")

    def player(self, seat: int) -> SeatedPlayer:
        if seat not in self.players:
            raise IllegalAction(f"Seat {seat} is empty")
        return self.players[seat]

    # -- folding recorded events ----------------------------------------------------------

    def apply(self, kind: str, payload: Mapping[str, Any]) -> None:
        handler = getattr(self, f"_on_{kind}", None)
        if handler is not None:
            handler(payload)

    def apply_all(self, events: Iterable[tuple[str, Mapping[str, Any]]]) -> None:
        for kind, payload in events:
            self.apply(kind, payload)

    def _on_seat_taken(self, p: Mapping[str, Any]) -> None:
        self.players[p["seat"]] = SeatedPlayer(p["seat"], p["player"], p["buy_in"], self.rounds_started,
                                               bought=p["buy_in"], full_buys=1)
        self.bought_in += p["buy_in"]

    def _on_chips_bought(self, p: Mapping[str, Any]) -> None:
        player = self.players[p["seat"]]
        short = bool(p.get("short", False))
        self.players[p["seat"]] = replace(
            player, stack=player.stack + p["amount"], bought=player.bought + p["amount"],
            full_buys=player.full_buys + (not short), short_buys=player.short_buys + short)
        self.bought_in += p["amount"]

    def _on_seat_left(self, p: Mapping[str, Any]) -> None:
        player = self.players.pop(p["seat"])
        self.cashed_out += player.stack

    def _on_round_started(self, p: Mapping[str, Any]) -> None:
        self.rounds_started += 1
        self.button = p.get("button")
        self.banker = p.get("banker")

    def _on_round_voided(self, p: Mapping[str, Any]) -> None:
        if p.get("button") is not None:
            self.button = p["button"]

    def _on_payout_confirmed(self, p: Mapping[str, Any]) -> None:
        if p.get("button") is not None:  # a button chosen inside the round (Palace's PP-0 draw)
            self.button = p["button"]
        for seat_text, change in p["stack_changes"].items():
            seat = int(seat_text)
            player = self.players[seat]
            self.players[seat] = replace(player, stack=player.stack + change)
        self.house += p["house"]

    def stacks(self) -> dict[int, int]:
        return {seat: p.stack for seat, p in sorted(self.players.items())}

    def chips_balance(self) -> int:
        """Bought in − cashed out − chips on the table − house; zero between rounds (C-2)."""
        return self.bought_in - self.cashed_out - sum(p.stack for p in self.players.values()) - self.house
