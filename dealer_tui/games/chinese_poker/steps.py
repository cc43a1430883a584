"""Chinese Poker's own steps, seat by seat (CP-2..CP-9); the deal, the opening of the rows and
the table's steps are every game's (`rounds.steps`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from dealer_tui.rounds.steps import Step
from rules.said import Said, say


@dataclass(frozen=True, kw_only=True)
class NamedRows(Step):
    """A step that may name the seat's rows, each as card text (front 3, middle 5, back 5)."""

    front: str | None = None
    middle: str | None = None
    back: str | None = None

    def rows(self) -> dict[str, str | None]:
        """The rows named, by name (None: not named)."""
        return {"front": self.front, "middle": self.middle, "back": self.back}


@dataclass(frozen=True, kw_only=True)
class SetRows(NamedRows):
    """The seat's rows, set by hand (CP-2, CP-3)."""

    VERB: ClassVar[Said] = say("set the rows")


@dataclass(frozen=True, kw_only=True)
class Suggest(Step):
    """The seat takes the terminal's suggested setting."""

    VERB: ClassVar[Said] = say("take the suggested setting")


@dataclass(frozen=True, kw_only=True)
class DeclareNatural(NamedRows):
    """The seat declares a natural (CP-9), with rows that show it, or the rows it holds."""

    VERB: ClassVar[Said] = say("declare a natural")


@dataclass(frozen=True, kw_only=True)
class WithdrawNatural(Step):
    """The seat withdraws its declared natural."""

    VERB: ClassVar[Said] = say("withdraw the natural")


@dataclass(frozen=True, kw_only=True)
class Lock(Step):
    """The seat locks its rows; fouled rows lock only with the foul confirmed (CP-4, CP-8)."""

    VERB: ClassVar[Said] = say("lock the rows")
    confirm_foul: bool = False


@dataclass(frozen=True, kw_only=True)
class Unlock(Step):
    """The seat unlocks its rows before the reveal."""

    VERB: ClassVar[Said] = say("unlock the rows")
