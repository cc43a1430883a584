"""Chinese Poker money: points to chips, table stakes, house fee, buy-ins (docs/rules.md CP-12, CP-13).

Table stakes are settled on each player's net for the hand (`pay_table_stakes`, docs/rules.md
revision 2): a player whose points total 0 moves no chips, whatever seat the button is on. The
pair-by-pair payments of revision 1 are kept as `pay_table_stakes_revision_1`, to re-settle rounds
played under it.

House fee: when the profile sets one, it is taken from every player as the hand starts (at most
the player's stack), before any payment. The stack a player starts the hand with for table
stakes (CP-13) is therefore the stack after the fee, and a player's net includes the fee, so the
nets of a table add up to minus the fees the house took (C-2).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from rules.errors import IllegalAction
from rules.games.chinese_poker.profile import ChinesePokerProfile
from rules.games.chinese_poker.rules import PairResult
from rules.said import Said, say


def clockwise_from(button: int, seats: Iterable[int]) -> tuple[int, ...]:
    """C-5: the seats after the button going up in seat number and wrapping, the button last."""
    ordered = sorted(set(seats))
    after = [s for s in ordered if s > button]
    return tuple(after + [s for s in ordered if s <= button])


def _check(stacks: Mapping[int, int], button: int, house_fee: int) -> None:
    if button < 1:
        raise IllegalAction(say("the button must be on a seat numbered from 1, not {button}", button=button))
    if any(chips < 0 for chips in stacks.values()) or house_fee < 0:
        raise IllegalAction(say("stacks and the house fee cannot be negative"))


def _fees(stacks: Mapping[int, int], order: Sequence[int], house_fee: int) -> dict[int, int]:
    return {seat: min(house_fee, stacks[seat]) for seat in order}


def dues_of(points: Mapping[int, int], point_value: int) -> dict[int, int]:
    """Each player's due (CP-13 step 1): points times the point value (CP-12)."""
    return {seat: p * point_value for seat, p in points.items()}


@dataclass(frozen=True, slots=True)
class Payment:
    """One payment of CP-13 step 4: a loser pays a winner."""

    payer: int
    receiver: int
    amount: int

    @property
    def reason(self) -> Said:
        return say("seat {payer} pays seat {receiver} {amount}", payer=self.payer, receiver=self.receiver,
                   amount=self.amount)


@dataclass(frozen=True, slots=True)
class Stake:
    """One player's side of CP-13: `due` (points x point value; negative for a loser), `stack`
    (chips as the hand starts, after any fee), `limit` (a loser's pay, a winner's claim: the due
    capped by the stack) and `moved` (chips paid or received)."""

    seat: int
    due: int
    stack: int
    limit: int
    moved: int

    @property
    def short(self) -> int:
        """What the due asked for and did not move."""
        return abs(self.due) - self.moved

    @property
    def reason(self) -> Said:
        """Why a due did not move in full (CP-13), or what moved when it did."""
        due, seat, moved = abs(self.due), self.seat, self.moved
        if self.due < 0:
            if not self.short:
                return say("seat {seat} pays {due}", seat=seat, due=due)
            if self.limit < due and moved == self.limit:
                return say("seat {seat} owes {due} and holds {stack}: pays {moved} (CP-13)", seat=seat, due=due,
                           stack=self.stack, moved=moved)
            return say("seat {seat} owes {due}: pays {moved}, as the winners can collect no more (CP-13)",
                       seat=seat, due=due, moved=moved)
        if not self.short:
            return say("seat {seat} receives {due}", seat=seat, due=due) if due else say(
                "seat {seat} moves no chips", seat=seat)
        if self.limit < due and moved == self.limit:
            return say("seat {seat} is owed {due} and can win at most its stack {stack}: receives {moved} (CP-13)",
                       seat=seat, due=due, stack=self.stack, moved=moved)
        return say("seat {seat} is owed {due}: receives {moved}, as the losers hold no more (CP-13)", seat=seat,
                   due=due, moved=moved)


@dataclass(frozen=True, slots=True)
class MoneySettlement:
    """The chips of one hand on the nets (CP-13): each player's stake, the payments in the order
    made, fees and nets."""

    order: tuple[int, ...]
    stakes: dict[int, Stake] = field(hash=False)
    payments: tuple[Payment, ...]
    fees: dict[int, int] = field(hash=False)
    nets: dict[int, int] = field(hash=False)

    @property
    def house_fees(self) -> int:
        return sum(self.fees.values())

    @property
    def unpaid(self) -> tuple[Stake, ...]:
        """The players whose due did not move in full, in the order from the button."""
        return tuple(self.stakes[s] for s in self.order if self.stakes[s].short)


def _take(limits: Sequence[tuple[int, int]], total: int) -> list[tuple[int, int]]:
    """CP-13 step 3: in order, each takes its full amount until `total` is reached."""
    out = []
    for seat, limit in limits:
        amount = min(limit, total)
        total -= amount
        out.append((seat, amount))
    return out


def pay_table_stakes(
    stacks: Mapping[int, int],
    dues: Mapping[int, int],
    button: int,
    house_fee: int = 0,
) -> MoneySettlement:
    """Make the payments of CP-13 on the players' nets.

    1. `dues`: points x point value per seat (they add up to 0; a seat absent is due 0).
    2. A loser pays at most its stack, a winner collects at most its starting stack.
    3. M = the lesser of the two totals; losers clockwise from the button each pay their full pay
       until M is reached, and winners in the same order each receive their full claim likewise.
    4. The first loser pays the first winner until one of the two is done, then the next.
    The button may be on any seat, a player's or an empty one (C-5).
    """
    _check(stacks, button, house_fee)
    if set(dues) - set(stacks):
        raise IllegalAction(say("a due for a seat with no stack: {seats}", seats=str(sorted(set(dues) - set(stacks)))))
    if sum(dues.values()):
        raise IllegalAction(say("the dues add up to {total}, not 0 (CP-13)", total=sum(dues.values())))
    order = clockwise_from(button, stacks)
    fees = _fees(stacks, order, house_fee)
    start = {seat: stacks[seat] - fees[seat] for seat in order}
    due = {seat: dues.get(seat, 0) for seat in order}
    pays = [(s, min(-due[s], start[s])) for s in order if due[s] < 0]
    claims = [(s, min(due[s], start[s])) for s in order if due[s] > 0]
    moving = min(sum(n for _, n in pays), sum(n for _, n in claims))
    paid, received = _take(pays, moving), _take(claims, moving)
    payments: list[Payment] = []
    owing = [[s, n] for s, n in paid if n]
    for receiver, amount in received:
        while amount:
            payer = owing[0]
            step = min(payer[1], amount)
            payments.append(Payment(payer[0], receiver, step))
            amount -= step
            payer[1] -= step
            if not payer[1]:
                owing.pop(0)
    moved = dict(paid + received)
    limits = dict(pays + claims)
    stakes = {
        s: Stake(s, due[s], start[s], limits.get(s, 0), moved.get(s, 0)) for s in order
    }
    nets = {s: moved.get(s, 0) * (1 if due[s] > 0 else -1) - fees[s] for s in order}
    return MoneySettlement(order, stakes, tuple(payments), fees, nets)


# -- revision 1 ------------------------------------------------------------------------------


def debts_of(pairs: Iterable[PairResult], point_value: int) -> dict[tuple[int, int], int]:
    """Revision 1: chips owed, keyed (payer, receiver): each pair's points times the point value
    (CP-12)."""
    owed: dict[tuple[int, int], int] = {}
    for pair in pairs:
        first, second = pair.seats
        if pair.points > 0:
            owed[(second, first)] = pair.points * point_value
        elif pair.points < 0:
            owed[(first, second)] = -pair.points * point_value
    return owed


@dataclass(frozen=True, slots=True)
class PairPayment:
    """Revision 1: one payment as made; `owed` is what was due, `amount` what table stakes let
    through; `chips` and `allowance` are the payer's chips and the receiver's allowance then."""

    payer: int
    receiver: int
    owed: int
    amount: int
    chips: int
    allowance: int

    @property
    def reason(self) -> Said:
        payer, receiver, amount, owed = self.payer, self.receiver, self.amount, self.owed
        if amount == owed:
            return say("seat {payer} pays seat {receiver} {amount} (owed {owed})", payer=payer, receiver=receiver,
                       amount=amount, owed=owed)
        if amount == self.chips:
            return say("seat {payer} pays seat {receiver} {amount} of {owed} owed: seat {payer} has only {chips} "
                       "left (CP-13)", payer=payer, receiver=receiver, amount=amount, owed=owed, chips=self.chips)
        return say("seat {payer} pays seat {receiver} {amount} of {owed} owed: seat {receiver} can win only "
                   "{allowance} more this hand (CP-13)", payer=payer, receiver=receiver, amount=amount, owed=owed,
                   allowance=self.allowance)


@dataclass(frozen=True, slots=True)
class PairSettlement:
    """Revision 1: the chips of one hand: payments in the order made, what went unpaid, fees and
    nets."""

    order: tuple[int, ...]
    payments: tuple[PairPayment, ...]
    unpaid: tuple[PairPayment, ...]
    fees: dict[int, int] = field(hash=False)
    nets: dict[int, int] = field(hash=False)

    @property
    def house_fees(self) -> int:
        return sum(self.fees.values())


def pay_table_stakes_revision_1(
    stacks: Mapping[int, int],
    owed: Mapping[tuple[int, int], int],
    button: int,
    house_fee: int = 0,
) -> PairSettlement:
    """Make the payments of CP-13 as revision 1 read it, pair by pair (rounds played under it).

    Payers go clockwise from the button, each paying those they owe in that same order. A
    payment is the least of what is owed, the payer's chips at that moment and the receiver's
    remaining allowance (starting stack − (received − paid) so far, never below zero); what
    cannot be paid is not paid. The button may be on any seat, a player's or an empty one
    (C-5: the order starts with the first seat after it either way).
    """
    _check(stacks, button, house_fee)
    order = clockwise_from(button, stacks)
    fees = _fees(stacks, order, house_fee)
    start = {seat: stacks[seat] - fees[seat] for seat in order}
    received = dict.fromkeys(order, 0)
    paid = dict.fromkeys(order, 0)
    payments: list[PairPayment] = []
    unpaid: list[PairPayment] = []
    for payer in order:
        for receiver in order:
            due = owed.get((payer, receiver), 0)
            if due <= 0:
                continue
            chips = start[payer] + received[payer] - paid[payer]
            allowance = max(0, start[receiver] - (received[receiver] - paid[receiver]))
            amount = min(due, chips, allowance)
            payment = PairPayment(payer, receiver, due, amount, chips, allowance)
            if amount:
                paid[payer] += amount
                received[receiver] += amount
                payments.append(payment)
            if amount < due:
                unpaid.append(payment)
    nets = {seat: received[seat] - paid[seat] - fees[seat] for seat in order}
    return PairSettlement(order, tuple(payments), tuple(unpaid), fees, nets)


@dataclass(frozen=True, slots=True)
class BuyDecision:
    """Whether a buy of `amount` chips is allowed now, and why (CP-12)."""

    amount: int
    allowed: bool
    full: bool
    reason: Said


def buy_decision(history: Sequence[int], amount: int, profile: ChinesePokerProfile) -> BuyDecision:
    """CP-12: a full buy is the profile's buy-in (buy_in_points × point value); one short buy
    (less than that) is allowed after each full buy, so a short buy needs the player's last buy
    to have been a full one. Every buy stays within the profile's buy-in range."""
    full_buy = profile.full_buy_in
    full = amount >= full_buy
    limits = profile.buy_in
    if amount <= 0:
        return BuyDecision(amount, False, False, say("a buy must be a positive number of chips"))
    if amount > limits.max:
        return BuyDecision(amount, False, full, say("at most {most} chips may be bought at once", most=limits.max))
    if amount < limits.min:
        return BuyDecision(amount, False, full, say("at least {least} chips must be bought at once",
                                                    least=limits.min))
    if full:
        return BuyDecision(amount, True, True, say("a full buy ({full} chips or more)", full=full_buy))
    if not history:
        return BuyDecision(amount, False, False, say("the first buy must be a full buy of {full} chips",
                                                     full=full_buy))
    if history[-1] < full_buy:
        return BuyDecision(amount, False, False, say("one short buy per full buy: the last buy ({last}) was short; "
                                                     "buy {full} chips", last=history[-1], full=full_buy))
    return BuyDecision(amount, True, False, say("a short buy, allowed once after the full buy of {last}",
                                                last=history[-1]))
