"""Built-in players for `dealer-tui demo`: one module per game, each with `choose(round, rng)`,
and the loop that plays them at a table."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from dealer_tui.rounds.base import ConfirmPayout, Phase, Round, Step
from dealer_tui.rounds.table import Table

if TYPE_CHECKING:
    from dealer_tui.demo.shift import DemoShift

Chooser = Callable[[Round, random.Random], Step]
Approver = Callable[[Table, ConfirmPayout], ConfirmPayout]
"""The sign-off of a payout that needs one: the supervisor signs in for the table's round, and
the payout confirmed names them and the sign-in."""


def seat_players(table: Table, players: int, shift: DemoShift | None = None) -> None:
    """Seats 1 to `players`, each buying in for the profile's most, at a table nobody sits at
    (with a shift's tray: seat 1 by marker, the others in cash), each with a loyalty card and a
    demo ID document (the cash logs name them)."""
    if not table.session.players:
        amount = table.profile.profile.buy_in.max
        for seat in range(1, players + 1):
            if shift is not None:
                shift.ensure(amount)
            by_marker = shift is not None and seat == 1
            table.seat_player(seat, f"Player {seat}", amount, "marker" if by_marker else "cash",
                              card=f"DEMO-{table.record.id}-{seat}", marker=shift.marker(amount) if shift and by_marker else None,
                              document=f"id-card DEMO-{table.record.id:03}-{seat:03}")


def play(table: Table, rounds: int, rng: random.Random, after_round: Callable[[int], None] | None = None,
         approve: Approver | None = None, shift: DemoShift | None = None) -> int:
    """Play `rounds` rounds with the built-in players, finishing first a hand left unfinished;
    players short of chips buy again between rounds, as at a real table. A payout that needs a
    sign-off is confirmed with `approve`'s (the table refuses it without one). With a `shift`, its
    tray is kept as a table keeps it: a fill half-way, and before any buy-in or payout it could not
    give.
    The rounds played."""
    choose = table.game.demo
    played = 0
    for _ in range(rounds):
        rnd = table.round
        if rnd is None or rnd.phase in (Phase.DONE, Phase.VOID):
            if shift is not None and played == rounds // 2 and not shift.fills:
                shift.fill(table.profile.profile.buy_in.max)
                if table.profile.profile.time_charge and table.session.players:
                    table.money.collect_time()
            _rebuy(table, shift)
            rnd = table.start_round()
        while rnd.phase not in (Phase.DONE, Phase.VOID):
            action = choose(rnd, rng)
            outcome = rnd.outcome() if isinstance(action, ConfirmPayout) else None
            if shift is not None and outcome is not None:
                shift.cover(outcome.house)
            if isinstance(action, ConfirmPayout) and approve is not None and rnd.sign_off_needed():
                action = approve(table, action)
            table.act(action)
        played += 1
        if after_round is not None:
            after_round(played)
    return played


def _rebuy(table: Table, shift: DemoShift | None) -> None:
    buy_in = table.profile.profile.buy_in
    for seat, player in list(table.session.players.items()):
        if player.stack < buy_in.min:
            if shift is not None:
                shift.ensure(buy_in.max)
            table.buy_chips(seat, buy_in.max)
