"""A table across rounds: who sits where, their chips, the button, and what the house holds.

Its state is the replay of the table's events: seating, buys, cash-outs, each round's start and
each confirmed payout. Chips only enter or leave through buys and cash-outs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from dealer_tui.events import Event, Handlers, on
from dealer_tui.events.codec import Recorded
from dealer_tui.events.table import (
    ChipsBought,
    DealerSignedIn,
    DealerSignedOut,
    PayoutConfirmed,
    PlayerIdentified,
    RoundStarted,
    RoundVoided,
    SeatAway,
    SeatLeft,
    SeatTaken,
    TableOpened,
    TimeCollected,
)
from rules.errors import IllegalAction
from rules.said import Said, as_said, say


@dataclass(frozen=True)
class SeatedPlayer:
    seat: int
    name: str
    stack: int
    joined_round: int  # the table's round count when the player sat down
    bought: int = 0  # chips brought to the table in all
    buys: tuple[int, ...] = ()  # every buy, oldest first (CP-12 counts full and short buys)
    card: str = ""  # the player's loyalty card (empty: none, known by name)
    away: bool = False  # sitting out: keeps the seat and the chips, dealt into no round
    document: str = ""  # the ID document the player showed (its kind and number; empty: not identified)


@dataclass(frozen=True)
class OnDuty:
    """The dealer signed in at the table."""

    account: str
    name: str


BuyRule = Callable[[Sequence[int], int], tuple[str | None, bool]]
"""(the seat's buys so far, the amount) -> (why the buy is refused or None, whether it is short)."""

class TableSession(Handlers):
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
        self.dealer: OnDuty | None = None
        """Who deals now (None: no dealer signed in; no round starts)."""
        self.round_dealers: set[str] = set()
        """Every account that dealt the current (or last) round: none of them signs off its payout."""
        self.signed_out: tuple[OnDuty, str] | None = None
        """The dealer last signed out while no one is signed in, and why (the recorded reason)."""

    # -- proposals (validate, return events) ------------------------------------------------

    def seat_events(self, seat: int, name: str, buy_in: int, rule: BuyRule) -> list[Event]:
        if not 1 <= seat <= self.seat_count:
            raise IllegalAction(say("Seat {seat} does not exist: the table has seats 1-{seats}", seat=seat,
                                    seats=self.seat_count))
        if seat in self.players:
            raise IllegalAction(say("Seat {seat} is taken by {player}", seat=seat, player=self.players[seat].name))
        if not name.strip():
            raise IllegalAction(say("Seat {seat} needs a player name", seat=seat))
        short = self._check_buy(seat, (), buy_in, rule)
        return [SeatTaken(seat=seat, player=name.strip(), buy_in=buy_in, short=short)]

    def buy_events(self, seat: int, amount: int, rule: BuyRule) -> list[Event]:
        player = self.player(seat)
        short = self._check_buy(seat, player.buys, amount, rule)
        return [ChipsBought(seat=seat, amount=amount, short=short)]

    def time_events(self, charge: int) -> list[Event]:
        """Each seated player pays the time charge (a player holding less pays what they hold)."""
        if charge <= 0:
            raise IllegalAction(say("This table's profile collects no time"))
        if not self.players:
            raise IllegalAction(say("Nobody is seated: no time to collect"))
        paid = {str(seat): min(charge, p.stack) for seat, p in sorted(self.players.items())}
        return [TimeCollected(paid=paid, total=sum(paid.values()))]

    def away_events(self, seat: int, away: bool) -> list[Event]:
        """The player sits out, or comes back."""
        player = self.player(seat)
        if player.away == away:
            raise IllegalAction(say("Seat {seat} ({player}) is already sitting out", seat=seat, player=player.name)
                                if away else say("Seat {seat} ({player}) is not sitting out", seat=seat,
                                                 player=player.name))
        return [SeatAway(seat=seat, away=away)]

    def leave_events(self, seat: int) -> list[Event]:
        player = self.player(seat)
        return [SeatLeft(seat=seat, cash_out=player.stack)]

    @staticmethod
    def _check_buy(seat: int, history: Sequence[int], amount: int, rule: BuyRule) -> bool:
        problem, short = rule(history, amount)
        if problem is not None:
            raise IllegalAction(say("Seat {seat} may not buy {amount}: {problem}", seat=seat, amount=amount,
                                    problem=as_said(problem)))
        return short

    def player(self, seat: int) -> SeatedPlayer:
        if seat not in self.players:
            raise IllegalAction(say("Seat {seat} is empty", seat=seat))
        return self.players[seat]

    # -- folding recorded events ----------------------------------------------------------

    def apply(self, event: Recorded) -> None:
        """Fold one event into the seats (events that do not concern them change nothing)."""
        self.handle(event)

    def apply_all(self, events: Iterable[Recorded]) -> None:
        for event in events:
            self.apply(event)

    @on(TableOpened)
    def _on_table_opened(self, e: TableOpened) -> None:
        self.training = e.training

    @on(SeatTaken)
    def _on_seat_taken(self, e: SeatTaken) -> None:
        self.players[e.seat] = SeatedPlayer(e.seat, e.player, e.buy_in, self.rounds_started,
                                            bought=e.buy_in, buys=(e.buy_in,), card=e.card, document=e.document)
        self.bought_in += e.buy_in

    @on(ChipsBought)
    def _on_chips_bought(self, e: ChipsBought) -> None:
        player = self.players[e.seat]
        self.players[e.seat] = replace(player, stack=player.stack + e.amount,
                                       bought=player.bought + e.amount, buys=(*player.buys, e.amount))
        self.bought_in += e.amount

    @on(PlayerIdentified)
    def _on_identified(self, e: PlayerIdentified) -> None:
        self.players[e.seat] = replace(self.players[e.seat], card=e.card, document=e.identification())

    @on(SeatAway)
    def _on_away(self, e: SeatAway) -> None:
        self.players[e.seat] = replace(self.players[e.seat], away=e.away)

    @on(TimeCollected)
    def _on_time_collected(self, e: TimeCollected) -> None:
        for seat_text, chips in e.paid.items():
            player = self.players[int(seat_text)]
            self.players[int(seat_text)] = replace(player, stack=player.stack - chips)
        self.house += e.total

    @on(SeatLeft)
    def _on_seat_left(self, e: SeatLeft) -> None:
        player = self.players.pop(e.seat)
        self.cashed_out += player.stack

    @on(RoundStarted)
    def _on_round_started(self, e: RoundStarted) -> None:
        self.rounds_started += 1
        self.button = e.button
        self.banker = e.banker
        self.round_dealers = {e.dealer} if e.dealer else set()

    @on(DealerSignedIn)
    def _on_dealer_signed_in(self, e: DealerSignedIn) -> None:
        self.dealer = OnDuty(e.account, e.name)
        self.signed_out = None
        self.round_dealers.add(e.account)

    @on(DealerSignedOut)
    def _on_dealer_signed_out(self, e: DealerSignedOut) -> None:
        self.signed_out = (self.dealer or OnDuty(e.account, e.account), e.reason)
        self.dealer = None

    @on(RoundVoided)
    def _on_round_voided(self, e: RoundVoided) -> None:
        if e.button is not None:
            self.button = e.button

    @on(PayoutConfirmed)
    def _on_payout_confirmed(self, e: PayoutConfirmed) -> None:
        if e.button is not None:  # a button chosen inside the round (Palace's PP-0 draw)
            self.button = e.button
        for seat_text, change in e.stack_changes.items():
            seat = int(seat_text)
            player = self.players[seat]
            self.players[seat] = replace(player, stack=player.stack + change)
        self.house += e.house

    @property
    def playing(self) -> dict[int, SeatedPlayer]:
        """The seated players a round deals in: all but those sitting out, by seat."""
        return {seat: p for seat, p in sorted(self.players.items()) if not p.away}

    def nobody_plays(self) -> Said:
        """Why a round has no player: nobody is seated, or every seated player sits out."""
        return say("every seated player is sitting out") if self.players else say("no player is seated")

    def counted(self) -> Said:
        """The players a round would deal in, in words: "3 seated", "2 playing, 1 sitting out"."""
        away = len(self.players) - len(self.playing)
        return (say("{count} seated", count=len(self.players)) if not away else
                say("{count} playing, {away} sitting out", count=len(self.playing), away=away))

    def stacks(self) -> dict[int, int]:
        """The stacks of the players a round deals in (a player sitting out does not bank)."""
        return {seat: p.stack for seat, p in self.playing.items()}

    def chips_balance(self) -> int:
        """Bought in − cashed out − chips on the table − house; zero between rounds (C-2)."""
        return self.bought_in - self.cashed_out - sum(p.stack for p in self.players.values()) - self.house


TABLE_EVENTS: tuple[type[Event], ...] = TableSession.handled()
"""The events that change the seats, the stacks, the rotation or the dealer on duty: those the
session handles."""
