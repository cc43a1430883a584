"""A table across rounds: who sits where, their chips, the button, and what the house holds.

Its state is the replay of the table's events: seating, buys, cash-outs, each round's start and
each confirmed payout. Chips only enter or leave through buys and cash-outs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from dealer_tui.ledger.base import NewEvent
from rules.errors import IllegalAction


@dataclass(frozen=True)
class SeatedPlayer:
    seat: int
    name: str
    stack: int
    joined_round: int  # the table's round count when the player sat down
    bought: int = 0  # chips brought to the table in all
    buys: tuple[int, ...] = ()  # every buy, oldest first (CP-12 counts full and short buys)


BuyRule = Callable[[Sequence[int], int], tuple[str | None, bool]]
"""(the seat's buys so far, the amount) -> (why the buy is refused or None, whether it is short)."""

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
        self.training = False
        """A training table (demos): its rounds are marked so and kept out of the floor's totals."""

    # -- proposals (validate, return events) ------------------------------------------------

    def seat_events(self, seat: int, name: str, buy_in: int, rule: BuyRule) -> list[NewEvent]:
        if not 1 <= seat <= self.seat_count:
            raise IllegalAction(f"Seat {seat} does not exist: the table has seats 1-{self.seat_count}")
        if seat in self.players:
            raise IllegalAction(f"Seat {seat} is taken by {self.players[seat].name}")
        if not name.strip():
            raise IllegalAction(f"Seat {seat} needs a player name")
        short = self._check_buy(seat, (), buy_in, rule)
        return [NewEvent("seat_taken", {"seat": seat, "player": name.strip(), "buy_in": buy_in, "short": short})]

    def buy_events(self, seat: int, amount: int, rule: BuyRule) -> list[NewEvent]:
        player = self.player(seat)
        short = self._check_buy(seat, player.buys, amount, rule)
        return [NewEvent("chips_bought", {"seat": seat, "amount": amount, "short": short})]

    def leave_events(self, seat: int) -> list[NewEvent]:
        player = self.player(seat)
        return [NewEvent("seat_left", {"seat": seat, "cash_out": player.stack})]

    @staticmethod
    def _check_buy(seat: int, history: Sequence[int], amount: int, rule: BuyRule) -> bool:
        problem, short = rule(history, amount)
        if problem is not None:
            raise IllegalAction(f"Seat {seat} may not buy {amount}: {problem}")
        return short

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

    def _on_table_opened(self, p: Mapping[str, Any]) -> None:
        self.training = bool(p.get("training"))

    def _on_seat_taken(self, p: Mapping[str, Any]) -> None:
        self.players[p["seat"]] = SeatedPlayer(p["seat"], p["player"], p["buy_in"], self.rounds_started,
                                               bought=p["buy_in"], buys=(p["buy_in"],))
        self.bought_in += p["buy_in"]

    def _on_chips_bought(self, p: Mapping[str, Any]) -> None:
        player = self.players[p["seat"]]
        self.players[p["seat"]] = replace(player, stack=player.stack + p["amount"],
                                          bought=player.bought + p["amount"], buys=(*player.buys, p["amount"]))
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
