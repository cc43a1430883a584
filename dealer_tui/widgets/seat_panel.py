"""One seat: player, stack, bet spots, cards, markers; the acting seat highlighted."""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.text import Text
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static

from dealer_tui.language import _
from dealer_tui.views import SeatView
from dealer_tui.widgets.cards_text import cards_text
from dealer_tui.widgets.fitted import FittedLeaf


class SeatPanel(FittedLeaf, Static):
    DEFAULT_CSS = """
    SeatPanel { border: round $primary-darken-2; height: auto; min-height: 5; padding: 0 1; }
    SeatPanel.acting { border: heavy $success; background: $success 10%; }
    SeatPanel.selected { border: double $accent; }
    SeatPanel.out { color: $text-muted; }
    """

    view: reactive[SeatView | None] = reactive(None, layout=True)
    selected: reactive[bool] = reactive(False)
    _borders: tuple[str, str] = ("", "")
    _markers_inside = False
    """The markers (DP, dealer, button...) on a line of their own: the border is too narrow."""

    @dataclass
    class Selected(Message):
        """The dealer clicked a seat."""

        seat: int

    def watch_view(self, view: SeatView | None) -> None:
        self._sync_classes()

    def watch_selected(self, selected: bool) -> None:
        self._sync_classes()

    def reword(self) -> None:
        """The panel's own words (its title, the stack, an empty seat) again, in the language
        shown now: a reader of another language signed in with the seat's view unchanged."""
        self._borders = ("", "")
        self._sync_classes()
        self.refresh()

    def _sync_classes(self) -> None:
        """The classes in one restyle, the border texts only when they change (each is a repaint)."""
        view = self.view
        self.update_classes({"acting": bool(view and view.acting), "out": bool(view and view.out),
                             "selected": self.selected})
        if view is None:
            title, subtitle = literal(_("Seat {seat}", seat=str(self.id).split("-")[-1])), ""
        else:
            markers = f" [{', '.join(view.markers)}]" if view.markers else ""
            seated = _("Seat {seat} · {name}", seat=view.seat, name=view.name)
            title = seated + markers
            inside = bool(markers) and 0 < self.outer_size.width - 6 < len(title)  # too long for the border
            if inside:
                title = seated
            if inside != self._markers_inside:
                self._markers_inside = inside
                self.refresh(layout=True)
            title, subtitle = literal(title), _("stack {stack}", stack=view.stack)
        if (title, subtitle) != self._borders:
            self._borders = (title, subtitle)
            self.border_title, self.border_subtitle = title, subtitle

    def render(self) -> RenderableType:
        view = self.view
        if view is None:
            return Text(_("empty seat — {key} seats a player", key="j"), style="dim")
        parts: list[RenderableType] = []
        if self._markers_inside:
            parts.append(Text(", ".join(view.markers), style="bold reverse"))
        if view.bets:
            parts.append(Text("  ".join(f"{label} {amount}" for label, amount in view.bets), style="bold"))
        if view.cards or view.hidden_cards:
            parts.append(cards_text(view.cards, view.hidden_cards))
        for label, cards, said in view.hands:
            line = Text(f"{label} ", style="bold")
            line.append_text(cards_text(cards))
            line.append(f" {said}", style="italic")
            parts.append(line)
        if view.hand:
            parts.append(Text(view.hand, style="italic"))
        if view.note:
            parts.append(Text(view.note, style="dim"))
        return Group(*parts) if parts else Text(" ")

    def on_resize(self) -> None:
        self._sync_classes()

    def on_click(self) -> None:
        if self.view is not None:
            self.post_message(self.Selected(self.view.seat))


def literal(text: str) -> str:
    """A border title shown as typed: every `[` escaped, so `[DP]` or a name with brackets is not
    read as markup (Rich's `escape` leaves `[DP]`, which Textual then takes for a tag)."""
    return text.replace("[", "\\[")
