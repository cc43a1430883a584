"""One error hierarchy for everything the rules refuse."""

from __future__ import annotations

from rules.said import Said, as_said


class RulesError(Exception):
    """Base of every error raised by the rules layer. Its message is a sentence (`rules.said`:
    `IllegalAction(say("…", …))`) a screen renders in the reader's language, or a plain text."""

    @property
    def said(self) -> Said:
        """The error's message as a sentence (a plain text: as a literal)."""
        return as_said(self.args[0]) if self.args and isinstance(self.args[0], str) else Said.literal(str(self))


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
