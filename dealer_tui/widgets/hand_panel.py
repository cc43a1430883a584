"""The banker's or dealer's hand (face down until the reveal)."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from dealer_tui.views import HandView
from dealer_tui.widgets.cards_text import cards_text
from dealer_tui.widgets.fitted import FittedLeaf


class HandPanel(FittedLeaf, Static):
    DEFAULT_CSS = """
    HandPanel { border: round $warning; height: auto; padding: 0 1; }
    """

    view: reactive[HandView | None] = reactive(None, layout=True)

    def watch_view(self, view: HandView | None) -> None:
        if view is not None and view.title != self.border_title:
            self.border_title = view.title

    def render(self) -> RenderableType:
        view = self.view
        if view is None:
            return Text(" ")
        parts: list[RenderableType] = []
        if view.cards or view.hidden_cards:
            parts.append(cards_text(view.cards, view.hidden_cards))
        if view.hand:
            parts.append(Text(view.hand, style="bold"))
        parts += [Text(line, style="dim") for line in view.lines]
        return Group(*parts) if parts else Text(" ")
