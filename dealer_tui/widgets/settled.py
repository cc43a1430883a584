"""Leaf widgets whose new size is settled by the layout that found it.

When a widget grows or shrinks, Textual's layout sets the widget's virtual size as a reactive
that asks for one more layout, and so one more frame, although a widget without children has
nothing left to arrange. The dealer's panels grow on most steps (bets, cards, hands), so each
step drew twice; these widgets take the size quietly and are repainted in the same frame.
"""

from __future__ import annotations

from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Label, Static


class SettledLeaf(Widget):
    """A widget without children: a change of its size needs no second layout."""

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        return super()._size_updated(size, virtual_size, container_size, layout=False)


class SettledColumn(Vertical):
    """A column that does not scroll (a dialog's panel): a new size of its own, found by the
    layout that placed its children, needs no second layout either."""

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        return super()._size_updated(size, virtual_size, container_size, layout=False)


class SettledScroll(VerticalScroll):
    """A scrolling column whose new size comes from the layout that placed it: its scrollbars
    follow in that same frame, without a second layout."""

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        return super()._size_updated(size, virtual_size, container_size, layout=False)


class SettledRow(Horizontal):
    """A row of a dialog (a label and its field): as `SettledColumn`, across."""

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        return super()._size_updated(size, virtual_size, container_size, layout=False)


class SettledStatic(Static, SettledLeaf):
    """A line of a dialog's text. (Static first: Textual styles a widget by its first bases, so it
    is styled as a Static.)"""


class SettledLabel(Label, SettledLeaf):
    """A field's label in a dialog, styled as a Label."""
