"""The frame every game's round shares: its phases, the steps legal now, the cards a step needs,
and what a finished round hands on; the one way a refusal is phrased."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from dealer_tui.language import N_
from dealer_tui.ledger.base import SettlementRow
from dealer_tui.ledger.payouts import seat_payouts
from dealer_tui.rounds.steps import Staked, Step
from rules.bets import banker_kinds
from rules.cards import Card, parse_cards
from rules.errors import IllegalAction
from rules.said import Said, as_said, say


class Phase(StrEnum):
    """The common frame every game's round moves through."""

    ANTE = "ante"
    DEAL = "deal"
    ACT = "act"
    REVEAL = "reveal"
    PAYOUT = "payout"
    DONE = "done"
    VOID = "void"

    @property
    def label(self) -> str:
        """The phase as the phase track names it (translated where it is shown)."""
        return PHASE_LABELS[self]

    @property
    def named(self) -> Said:
        """The phase as a refusal names it: `deal phase`."""
        return PHASE_NAMES[self]


PHASE_LABELS = {Phase.ANTE: N_("ANTE"), Phase.DEAL: N_("DEAL"), Phase.ACT: N_("ACT"), Phase.REVEAL: N_("REVEAL"),
                Phase.PAYOUT: N_("PAYOUT"), Phase.DONE: N_("DONE"), Phase.VOID: N_("VOID")}
PHASE_NAMES = {Phase.ANTE: say("ante phase"), Phase.DEAL: say("deal phase"), Phase.ACT: say("act phase"),
               Phase.REVEAL: say("reveal phase"), Phase.PAYOUT: say("payout phase"), Phase.DONE: say("done phase"),
               Phase.VOID: say("void phase")}
"""The phase as a refusal names it ("not allowed in the {phase}")."""

TRACK = (Phase.ANTE, Phase.DEAL, Phase.ACT, Phase.REVEAL, Phase.PAYOUT)

TrackStep = tuple[str, frozenset[Phase]]
"""One step of a game's phase track: its label, and the phases during which it is lit."""


@dataclass(frozen=True)
class CardRequest:
    """Cards the rules need now: for each hand label ("seat 3", "dealer"), how many."""

    purpose: str
    hands: tuple[tuple[str, int], ...]
    refill: tuple[Card, ...] = ()
    """Cards to shuffle into the stub if it runs out (R-11, PP-12)."""

    @property
    def total(self) -> int:
        return sum(n for _, n in self.hands)


@dataclass(frozen=True)
class LegalStep:
    """One step legal now: its type, the seat it is for (None: the table's), and, when the step
    takes an amount, the amounts in [min_amount, max_amount]."""

    step: type[Step]
    seat: int | None = None
    min_amount: int | None = None
    max_amount: int | None = None
    label: str = ""
    needs_cards: CardRequest | None = None
    data: Mapping[str, Any] = field(default_factory=dict)
    """Details the step must carry, by field (e.g. which box), and what the screen shows with it."""

    @property
    def kind(self) -> str:
        """The step's name (`Step.KIND`), as logs and reports say it."""
        return self.step.KIND

    def admits(self, step: Step) -> bool:
        """Whether `step` is this one: its type, its seat, the details this one names, and an amount
        within the bounds."""
        if not isinstance(step, self.step) or step.seat != self.seat:
            return False
        given = {name: getattr(step, name, None) for name in self.data}
        if any(given[name] is not None and given[name] != value for name, value in self.data.items()):
            return False
        amount = step.amount if isinstance(step, Staked) else None
        return amount is None or self.min_amount is None or self.min_amount <= amount <= (self.max_amount or 0)


@dataclass(frozen=True)
class RoundOutcome:
    """What a finished round hands to the table and the ledger."""

    rows: tuple[SettlementRow, ...]
    stack_changes: Mapping[int, int]  # seat -> chips gained (+) or lost (-) this round
    house: int  # the house's result: rake and fees, or the bank's result when the house banks
    flags: frozenset[str] = frozenset()

    @property
    def wagered(self) -> int:
        return sum(r.stake for r in self.rows if r.bet not in banker_kinds())

    @property
    def paid(self) -> int:
        """Every seat's payout summed (`payouts.seat_chips`: a DP's take included)."""
        return sum(seat_payouts(self.rows).values())


def cards_payload(cards: Sequence[Card]) -> str:
    return " ".join(c.text for c in cards)


def cards_from_payload(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def refuse(seat: int | None, action: str, reason: str) -> IllegalAction:
    """The one way rounds phrase a refusal: `Seat 3 may not raise: ...`; `action` (the step's
    `verb`) and `reason` are sentences (`say(...)`) the reader sees in their language."""
    if seat is None:
        return IllegalAction(say("The table may not {action}: {reason}", action=as_said(action), reason=as_said(reason)))
    return IllegalAction(say("Seat {seat} may not {action}: {reason}", seat=seat, action=as_said(action),
                             reason=as_said(reason)))
