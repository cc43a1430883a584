"""The base of the round screen's groups of steps (`TableChanges`, `SignedSteps`): each is a
mixin of `RoundScreen` and reaches the screen it is part of through `screen_of_table`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from dealer_tui.screens.round_screen import RoundScreen


class RoundSteps:
    def screen_of_table(self) -> RoundScreen[Any]:
        """This object as the round screen it is a base of."""
        return cast("RoundScreen[Any]", self)
