"""When the ledger cannot take a step: its storage failed (disk full, read-only, an I/O error),
or the table is played on another terminal.

A storage fault recorded nothing and the round is where it was: the dealer is told so and may try
the same step again. A table held by another terminal (or taken over from this one) is not played
here: the dealer may review the ledger read-only, open another table, or quit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.markup import escape
from textual.screen import Screen

from dealer_tui.language import _, told, told_error
from dealer_tui.ledger.base import LeaseLost, Ledger, LedgerError, StorageError, TableInUse
from dealer_tui.rounds.game import Games
from dealer_tui.screens.choice_dialog import ChoiceDialog
from dealer_tui.screens.dialog import ask_over
from dealer_tui.screens.floor_rounds import RoundsScreen
from dealer_tui.views import Presenter

RETRY = "r"
BACK = "b"
REVIEW = "f"
OTHER_TABLE = "t"
QUIT = "q"


class StorageFault(ChoiceDialog):
    """Nothing was recorded: the ledger's storage failed. `r` tries the same step again."""

    DEFAULT_CSS = """
    StorageFault { border: thick $error; }
    """

    def __init__(self, error: StorageError, what: str | None = None,
                 choices: list[tuple[str, str]] | None = None) -> None:
        """`what` is exactly where it was: "The round" unless given."""
        said = told(error.fault)
        super().__init__(
            _("Nothing was recorded. {problem}.\n{what} is exactly where it was: fix the storage ({hint}), then try "
              "the step again.", problem=escape(said[:1].upper() + said[1:]), what=what or _("The round"),
              hint=escape(hint(error.problem))),
            choices or [(RETRY, _("retry the step")), (BACK, _("back, nothing done"))])
        self.error = error


class TableUnavailable(ChoiceDialog):
    """The table is played on another terminal: review it read-only, open another table, or quit."""

    DEFAULT_CSS = """
    TableUnavailable { border: thick $warning; }
    """

    def __init__(self, error: TableInUse | LeaseLost) -> None:
        said = told_error(error)
        super().__init__(f"{escape(said[:1].upper() + said[1:])}.",
                         [(REVIEW, _("open the floor review (read-only)")), (OTHER_TABLE, _("open another table")),
                          (QUIT, _("quit"))])
        self.error = error


class ReviewOnly(RoundsScreen):
    """The floor review with no sign-off desk (nothing is written); closing it goes back to
    whoever opened it."""

    def __init__(self, ledger: Ledger, games: Games[Presenter[Any]], big_payout: int) -> None:
        super().__init__(ledger, games, big_payout, desk=None)

    def action_close(self) -> None:
        self.dismiss(None)


def hint(problem: str) -> str:
    """What the dealer (or the floor) does about a storage fault."""
    if problem.startswith("disk"):
        return _("free space on the ledger's disk")
    if problem == "read-only":
        return _("the ledger's disk or folder is read-only: make it writable")
    if problem.startswith("busy"):
        return _("another program holds the ledger: wait a moment")
    return _("call the floor: the ledger's disk reported an error")


def ledger_fault(screen: Screen[Any], error: LedgerError, retry: Callable[[], object],
                 then: Callable[[], object] | None = None) -> bool:
    """Show `error` as a dialog when it is a storage fault (with `retry`) or the table is played
    elsewhere (the app's choice); False for any other refusal, which the notice line tells."""
    if isinstance(error, StorageError):
        def answered(choice: str | None) -> None:
            if choice == RETRY:
                retry()
            elif then is not None:
                then()

        ask_over(screen.app, StorageFault(error), answered)
        return True
    if isinstance(error, (TableInUse, LeaseLost)):
        unavailable = getattr(screen.app, "table_unavailable", None)
        if callable(unavailable):
            unavailable(error)
            return True
    return False
