"""Chinese Poker money: points to chips, table stakes, house fee, buy-ins (RULES.md CP-12, CP-13).

House fee: when the profile sets one, it is taken from every player as the hand starts (at most
the player's stack), before any payment. The stack a player starts the hand with for table
stakes (CP-13) is therefore the stack after the fee, and a player's net includes the fee, so the
nets of a table add up to minus the fees the house took (C-2).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from rules.chinese_poker import PairResult
from rules.errors import IllegalAction
from rules.profiles.chinese_poker import ChinesePokerProfile


def clockwise_from(button: int, seats: Iterable[int]) -> tuple[int, ...]:
    """C-5: the seats after the button going up in seat number and wrapping, the button last."""
    ordered = sorted(set(seats))
    after = [s for s in ordered if s > button]
    return tuple(after + [s for s in ordered if s <= button])


def debts_of(pairs: Iterable[PairResult], point_value: int) -> dict[tuple[int, int], int]:
    """Chips owed, keyed (payer, receiver): each pair's points times the point value (CP-12)."""
    owed: dict[tuple[int, int], int] = {}
    for pair in pairs:
        first, second = pair.seats
        if pair.points > 0:
            owed[(second, first)] = pair.points * point_value
        elif pair.points < 0:
            owed[(first, second)] = -pair.points * point_value
    return owed


@dataclass(frozen=True, slots=True)
class Payment:
    """One payment as made; `owed` is what was due, `amount` what table stakes let through;
    `chips` and `allowance` are the payer's chips and the receiver's allowance at that moment."""

    payer: int
    receiver: int
    owed: int
    amount: int
    chips: int
    allowance: int

    @property
    def reason(self) -> str:
        head = f"seat {self.payer} pays seat {self.receiver} {self.amount}"
        if self.amount == self.owed:
            return f"{head} (owed {self.owed})"
        if self.amount == self.chips:
            return (
                f"{head} of {self.owed} owed: seat {self.payer} has only {self.chips} left (CP-13)"
            )
        return (
            f"{head} of {self.owed} owed: seat {self.receiver} can win only "
            f"{self.allowance} more this hand (CP-13)"
        )


@dataclass(frozen=True, slots=True)
class MoneySettlement:
    """The chips of one hand: payments in the order made, what went unpaid, fees and nets."""

    order: tuple[int, ...]
    payments: tuple[Payment, ...]
    unpaid: tuple[Payment, ...]
    fees: dict[int, int] = field(hash=False)
    nets: dict[int, int] = field(hash=False)

    @property
    def house_fees(self) -> int:
        return sum(self.fees.values())


def pay_table_stakes(
    stacks: Mapping[int, int],
    owed: Mapping[tuple[int, int], int],
    button: int,
    house_fee: int = 0,
) -> MoneySettlement:
    """Make the payments of CP-13.

    Payers go clockwise from the button, each paying those they owe in that same order. A
    payment is the least of what is owed, the payer's chips at that moment and the receiver's
    remaining allowance (starting stack − (received − paid) so far, never below zero); what
    cannot be paid is not paid. The button may be on any seat, a player's or an empty one
    (C-5: the order starts with the first seat after it either way).
    """
    if button < 1:
        raise IllegalAction(f"the button must be on a seat numbered from 1, not {button}")
    if any(chips < 0 for chips in stacks.values()) or house_fee < 0:
        raise IllegalAction("stacks and the house fee cannot be negative")
    order = clockwise_from(button, stacks)
    fees = {seat: min(house_fee, stacks[seat]) for seat in order}
    start = {seat: stacks[seat] - fees[seat] for seat in order}
    received = dict.fromkeys(order, 0)
    paid = dict.fromkeys(order, 0)
    payments: list[Payment] = []
    unpaid: list[Payment] = []
    for payer in order:
        for receiver in order:
            due = owed.get((payer, receiver), 0)
            if due <= 0:
                continue
            chips = start[payer] + received[payer] - paid[payer]
            allowance = max(0, start[receiver] - (received[receiver] - paid[receiver]))
            amount = min(due, chips, allowance)
            payment = Payment(payer, receiver, due, amount, chips, allowance)
            if amount:
                paid[payer] += amount
                received[receiver] += amount
                payments.append(payment)
            if amount < due:
                unpaid.append(payment)
    nets = {seat: received[seat] - paid[seat] - fees[seat] for seat in order}
    return MoneySettlement(order, tuple(payments), tuple(unpaid), fees, nets)


@dataclass(frozen=True, slots=True)
class BuyDecision:
    """Whether a buy of `amount` chips is allowed now, and why (CP-12)."""

    amount: int
    allowed: bool
    full: bool
    reason: str


def buy_decision(history: Sequence[int], amount: int, profile: ChinesePokerProfile) -> BuyDecision:
    """CP-12: a full buy is the profile's buy-in (buy_in_points × point value); one short buy
    (less than that) is allowed after each full buy, so a short buy needs the player's last buy
    to have been a full one. Every buy stays within the profile's buy-in range."""
    full_buy = profile.full_buy_in
    full = amount >= full_buy
    limits = profile.buy_in
    if amount <= 0:
        return BuyDecision(amount, False, False, "a buy must be a positive number of chips")
    if amount > limits.max:
        return BuyDecision(amount, False, full, f"at most {limits.max} chips may be bought at once")
    if amount < limits.min:
        return BuyDecision(
            amount, False, full, f"at least {limits.min} chips must be bought at once"
        )
    if full:
        return BuyDecision(amount, True, True, f"a full buy ({full_buy} chips or more)")
    if not history:
        return BuyDecision(
            amount, False, False, f"the first buy must be a full buy of {full_buy} chips"
        )
    if history[-1] < full_buy:
        return BuyDecision(
            amount,
            False,
            False,
            f"one short buy per full buy: the last buy ({history[-1]}) was short; "
            f"buy {full_buy} chips",
        )
    return BuyDecision(
        amount, True, False, f"a short buy, allowed once after the full buy of {history[-1]}"
    )
