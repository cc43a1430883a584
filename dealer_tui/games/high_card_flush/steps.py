"""High Card Flush's own steps (HCF-4, HCF-6); the deal, the reveal and the table's steps are
every game's (`rounds.steps`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from dealer_tui.rounds.steps import Staked, Step, WithCards
from rules.said import Said, say


@dataclass(frozen=True, kw_only=True)
class Ante(Staked):
    """A seat's Ante, with its optional Flush and Straight Flush bets (HCF-4)."""

    VERB: ClassVar[Said] = say("ante")
    flush: int = 0
    straight_flush: int = 0


@dataclass(frozen=True, kw_only=True)
class Withdraw(Step):
    """A seat takes its Ante and bonus bets back before the deal."""

    VERB: ClassVar[Said] = say("withdraw")


@dataclass(frozen=True, kw_only=True)
class Raise(Staked, WithCards):
    """A seat raises within its cap (HCF-6)."""

    VERB: ClassVar[Said] = say("raise")


@dataclass(frozen=True, kw_only=True)
class Fold(Step):
    """A seat folds (HCF-6)."""

    VERB: ClassVar[Said] = say("fold")
