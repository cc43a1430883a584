"""Poker "1 or 5", R-12: a misdealt round is void, and every bet and fee on the table goes back."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum


class MisdealCause(StrEnum):
    WRONG_CARD_COUNT = "wrong card count"
    HOLE_CARD_EXPOSED = "the dealer's hole card exposed before the boxes acted"


@dataclass(frozen=True, slots=True)
class BoxStake:
    """What a box has on the table when the round is voided."""

    box: int
    ante: int
    bet: int = 0
    exchange_fee: int = 0
    insurance: int = 0

    @property
    def total(self) -> int:
        return self.ante + self.bet + self.exchange_fee + self.insurance


@dataclass(frozen=True, slots=True)
class VoidRound:
    """R-12: a misdealt round is void; every bet and fee goes back, so every net is 0."""

    cause: MisdealCause
    stakes: tuple[BoxStake, ...]
    detail: str = ""

    @property
    def reason(self) -> str:
        detail = f": {self.detail}" if self.detail else ""
        return f"Misdeal ({self.cause}{detail}): round void, all bets and fees returned (R-12)"

    def returned(self) -> dict[int, int]:
        """Chips going back to each box, by box number."""
        return {stake.box: stake.total for stake in self.stakes}


def misdeal(cause: MisdealCause, stakes: Sequence[BoxStake], detail: str = "") -> VoidRound:
    return VoidRound(cause, tuple(stakes), detail)
