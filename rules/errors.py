"""One error hierarchy for everything the rules refuse."""

from __future__ import annotations


class RulesError(Exception):
    """Base of every error raised by the rules layer."""


class BadCards(RulesError):
    """A card token that is not a card, a duplicate card, or a wrong card count."""


class IllegalAction(RulesError):
    """An action that the rules do not allow now (names seat, action and reason)."""


class InvalidProfile(RulesError):
    """A profile or paytable file that does not load; the message names file, line and field."""


class BadInput(RulesError):
    """A settlement request that breaks the contract; `field` names where."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}" if field else problem)
        self.field = field
        self.problem = problem
