"""A round's step whose details a dialog asks for (amounts, keyed cards), handed to the table by
the dialog's own Enter: the round checks it there, once, and a refusal stays in the dialog."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from dealer_tui.language import told_error
from dealer_tui.rounds.base import Step
from rules.errors import RulesError

if TYPE_CHECKING:
    from dealer_tui.screens.round_screen import RoundScreen

AnswerT = TypeVar("AnswerT")


class DialogStep(Generic[AnswerT]):
    """`check` is the dialog's check of its answer: it hands `action(answer)` to the table and
    returns the refusal for the dialog to show (nothing recorded, the dialog stays open), or None
    (recorded, or a storage fault: the dialog closes). `answered` is the dialog's answer callback:
    the screen is redrawn and a storage fault offered again, as after any step. A step whose cards
    are still to be keyed (a live table) is handed over only once they are."""

    def __init__(self, screen: RoundScreen[Any], action: Callable[[AnswerT], Step]) -> None:
        self.screen, self.action = screen, action
        self._after: Callable[[], object] | None = None

    def check(self, answer: AnswerT) -> str | None:
        action = self.action(answer)
        table = self.screen.table
        if table.keyed and table.card_request(action) is not None:
            self._after = lambda: self.screen.perform(action)  # asks for the cards once the dialog is closed
            return None
        failed = self.screen.record(action)
        if isinstance(failed, RulesError):
            return told_error(failed)
        self._after = lambda: self.screen.performed(action, failed)
        return None

    def answered(self, answer: AnswerT | None) -> None:
        after, self._after = self._after, None
        if answer is not None and after is not None:
            after()

