"""Poker "1 or 5"'s own steps, box by box (R-1..R-10); the reveal and the table's steps are every
game's (`rounds.steps`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from dealer_tui.rounds.steps import Deal, Staked, Step, WithCards
from rules.said import Said, say


@dataclass(frozen=True, kw_only=True)
class AtBox(Step):
    """A step for one of the seat's boxes (None: the box the step is about now, or the first free)."""

    box: int | None = None


@dataclass(frozen=True, kw_only=True)
class Ante(Staked, AtBox):
    """An Ante on a box (R-1, R-4)."""

    VERB: ClassVar[Said] = say("ante")


@dataclass(frozen=True, kw_only=True)
class Withdraw(AtBox):
    """A box's Ante taken back before the deal."""

    VERB: ClassVar[Said] = say("take back an ante")


@dataclass(frozen=True, kw_only=True)
class OpenBox(AtBox):
    """The seat's box played open: the one box that may exchange (R-4)."""

    VERB: ClassVar[Said] = say("mark an open box")


@dataclass(frozen=True, kw_only=True)
class CutAndDeal(Deal):
    """The cut, by the player or, refused, by the dealer (R-10), and the deal."""

    KIND: ClassVar[str] = "deal"
    VERB: ClassVar[Said] = say("deal")
    cut: Literal["player", "dealer"] = "dealer"


@dataclass(frozen=True, kw_only=True)
class Exchange(Staked, AtBox, WithCards):
    """The open box exchanges cards for a fee (R-3, R-4): `amount` cards, the ones `discard` names
    (card texts; a live table keys only what is drawn)."""

    VERB: ClassVar[Said] = say("exchange")
    discard: str = ""


@dataclass(frozen=True, kw_only=True)
class Bet(AtBox):
    """The box closes with the Bet (R-5)."""

    VERB: ClassVar[Said] = say("close the box")


@dataclass(frozen=True, kw_only=True)
class Fold(AtBox):
    """The box passes (R-5)."""

    VERB: ClassVar[Said] = say("pass")


@dataclass(frozen=True, kw_only=True)
class Insure(Staked, AtBox, WithCards):
    """A closed box's insurance premium (R-9); at a live table, with the box's hand keyed."""

    VERB: ClassVar[Said] = say("insure")


@dataclass(frozen=True, kw_only=True)
class NoInsurance(AtBox):
    """A closed box declines insurance."""

    VERB: ClassVar[Said] = say("decline insurance")
