"""What a payout is, and how a round's chips add up: read from its settlement rows alone.

One definition serves the dealer's payout screen, the sign-off threshold, `history list`, the
floor's rounds list, its big-payout filter and its totals. The ledger knows no game: it reads
the conventions every game's rows follow (bets `bank`, `rake`, `pot`, `points`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from dealer_tui.ledger.base import SettlementRow
from rules.bets import banker_kinds, fee_kinds, pool_kinds

HOUSE_BANKED, DP_BANKED, POOL = "house", "dp", "pool"
KINDS = {HOUSE_BANKED: "house-banked", DP_BANKED: "DP-banked", POOL: "pot and peer"}
"""How a round is banked, as the floor keeps them apart: the house banks ("1 or 5", the casino
profile of High Card Flush), a seated player banks (High Card Flush's DP), or the chips go from
seat to seat and the house takes only fees (Chinese Poker, Palace Poker)."""
HANDLE_MEANS = {HOUSE_BANKED: "the chips wagered against the house; result % = the house's result / handle",
                DP_BANKED: "the players' wagers against the DP; the house keeps only the rake; result % = rake / "
                           "handle",
                POOL: "the chips put into pots (Chinese Poker puts none); the house keeps only fees; result % = "
                      "fees / handle"}
"""What the handle (the chips wagered) is at each kind of banking. Drop and hold are the drop box's
(the shift report's counted cash and markers, and win / drop) and nothing else."""


@dataclass(frozen=True)
class SeatChips:
    """One seat's chips in one round (see `seat_chips`)."""

    wagered: int = 0
    payout: int = 0
    returned: int = 0
    from_stack: int = 0


def seat_chips(rows: Iterable[SettlementRow]) -> dict[int, SeatChips]:
    """Per seat (in "1 or 5", per box), from the round's settlement rows.

    A seat's **payout** is the chips the dealer hands that seat at payout:
    - every winning bet's stake and its win (an Ante of 10 that wins 1:1 is a payout of 20);
    - for the seat that banks the round (the DP), what its bank took in beyond what it paid out,
      after the DP's rake (HCF-17);
    - its share of a pot (Palace Poker) or the points it collects from the other players
      (Chinese Poker).
    Not a payout: a stake that comes back on a push, a dead hand or an unpaid Ante (**returned**),
    and the chips of a losing bet. The sign-off threshold, the floor's big-payout filter and its
    biggest payout all compare one seat's payout in one round.

    **wagered** is every stake put on a bet (not the DP's bank, not a rake). **from_stack** is
    what the seat paid from its stack beyond its stakes: a DP covering the winners, a rake, a
    Chinese Poker loser's points or fee.
    """
    out: dict[int, list[int]] = {}
    bank: dict[int, int] = {}
    for row in rows:
        into = out.setdefault(row.seat, [0, 0, 0, 0])
        if row.bet in banker_kinds():
            bank[row.seat] = bank.get(row.seat, 0) + row.result
            continue
        into[0] += row.stake
        back = row.stake + row.result
        if row.result > 0:
            into[1] += back
        elif back > 0:
            into[2] += back
        else:
            into[3] -= back
    for seat, net in bank.items():
        if net > 0:
            out[seat][1] += net
        else:
            out[seat][3] -= net
    return {seat: SeatChips(*v) for seat, v in sorted(out.items())}


def seat_payouts(rows: Iterable[SettlementRow]) -> dict[int, int]:
    """Each seat's payout (`seat_chips`), 0 for a seat paid nothing."""
    return {seat: chips.payout for seat, chips in seat_chips(rows).items()}


@dataclass(frozen=True)
class RoundChips:
    """A round's chips. They add up as  wagered + from_stacks = paid + returned + house
    (C-2: every chip staked or paid from a stack is handed back, returned, or the house's);
    when the house banks nothing comes from the stacks:  wagered = paid + returned + house."""

    wagered: int
    paid: int
    returned: int
    from_stacks: int
    max_payout: int
    """The largest one seat's payout."""
    kind: str

    @property
    def house(self) -> int:
        """The house's result the other figures leave (+: the house won)."""
        return self.wagered + self.from_stacks - self.paid - self.returned


def banking(rows: Iterable[SettlementRow]) -> str:
    """How the round was banked, from its rows: a `bank` row is a DP's; a pot or points row means
    the chips went from seat to seat; otherwise the house banked."""
    bets = {row.bet for row in rows}
    if "bank" in bets:
        return DP_BANKED
    if bets & pool_kinds():
        return POOL
    return HOUSE_BANKED


def round_chips(rows: Iterable[SettlementRow]) -> RoundChips:
    rows = list(rows)
    seats = seat_chips(rows).values()
    return RoundChips(sum(s.wagered for s in seats), sum(s.payout for s in seats), sum(s.returned for s in seats),
                      sum(s.from_stack for s in seats), max((s.payout for s in seats), default=0), banking(rows))


def house_fees(rows: Iterable[SettlementRow]) -> int:
    """The house's take in rake and fees (HCF-17, CP-12, R-4) from these rows: the round's `fees`."""
    return -sum(r.result for r in rows if r.bet in fee_kinds())
