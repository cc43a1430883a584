"""The dealer's steps: each kind of step its own frozen class with the fields it carries.

A game's steps live in its own package (`dealer_tui/games/<game>/steps.py`); the steps every
game's round takes are here: the deal and the reveal the table's keys ask for, and the table's
own steps (the payout confirmed, a void, a step taken back, keyed cards corrected, a payout sent
to the floor). A round proposes a step by its type (`Round.propose`), never by a name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rules.cards import Card
from rules.said import Said, say


@dataclass(frozen=True, kw_only=True)
class Step:
    """Something the dealer (for a seat, or for the table) wants to happen."""

    KIND: ClassVar[str] = ""
    """The step's name in messages and in the authority's words (`set_rows`): its class name in
    snake case unless the class says otherwise."""
    VERB: ClassVar[Said] = Said("", {})
    """How the step reads in a refusal (`say("set the rows")`), in the reader's language; a step
    that names none reads as its kind in words, in English."""
    CHECKED: ClassVar[bool] = True
    """Whether the round first checks the step is among the legal steps now; a step that checks
    its own conditions (taking a step back, correcting cards) says False."""

    seat: int | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "KIND" not in cls.__dict__:
            cls.KIND = re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()

    @classmethod
    def verb(cls) -> Said:
        return cls.VERB or Said.literal(cls.KIND.replace("_", " "))


@dataclass(frozen=True, kw_only=True)
class Staked(Step):
    """A step that may name an amount of chips (None: the amount the rules set, or none)."""

    amount: int | None = None


@dataclass(frozen=True, kw_only=True)
class WithCards(Step):
    """A step that brings cards, by hand label ("seat 3", "dealer"): a virtual shoe's or the
    dealer's keyed cards; none until the table fills them in."""

    cards: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class Approved(Step):
    """A step a supervisor approves: their account and the sign-in (its place in the ledger) they
    made for it."""

    supervisor: str = ""
    sign_in: int | None = None


@dataclass(frozen=True, kw_only=True)
class Deal(WithCards):
    """The cards dealt (the table's deal key)."""

    VERB: ClassVar[Said] = say("deal")


@dataclass(frozen=True, kw_only=True)
class Reveal(WithCards):
    """The house's hand or the rows shown, and the round settled (the table's reveal key)."""

    VERB: ClassVar[Said] = say("reveal")


@dataclass(frozen=True, kw_only=True)
class ConfirmPayout(Approved):
    """The dealer confirms the payout; a big one carries the supervisor's sign-off, or a manager's
    override of the floor's refusal with the reason."""

    VERB: ClassVar[Said] = say("confirm the payout")
    override: str = ""


@dataclass(frozen=True, kw_only=True)
class Void(Approved):
    """A misdeal voids the round, with the reason and the supervisor's approval."""

    VERB: ClassVar[Said] = say("void the round")
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class TakeBack(Step):
    """The dealer takes back their last step (a mis-key), while nothing has followed it."""

    KIND: ClassVar[str] = "undo"
    VERB: ClassVar[Said] = say("take back the last step")
    CHECKED: ClassVar[bool] = False


@dataclass(frozen=True, kw_only=True)
class CorrectCards(Approved, WithCards):
    """The supervisor corrects cards keyed at a live table, with the reason: the hands as they
    should read."""

    KIND: ClassVar[str] = "rekey"
    VERB: ClassVar[Said] = say("correct the keyed cards")
    CHECKED: ClassVar[bool] = False
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class SendToFloor(Step):
    """The dealer sends a payout that needs a sign-off to the floor's queue."""

    KIND: ClassVar[str] = "send_to_floor"
    VERB: ClassVar[Said] = say("send the payout to the floor")
    CHECKED: ClassVar[bool] = False


__all__ = ["Approved", "ConfirmPayout", "CorrectCards", "Deal", "Reveal", "SendToFloor", "Staked", "Step",
           "TakeBack", "Void", "WithCards"]
