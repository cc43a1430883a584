"""Fitted widgets: their new size is fitted by the layout that found it, in the same frame.

When a widget grows or shrinks, Textual's layout sets the widget's virtual size, a reactive
that asks for one more layout, and so one more frame, although a widget without children has
nothing left to arrange. The dealer's panels grow on most steps (bets, cards, hands), so each
step drew twice; these widgets declare the same reactive without the layout (nor a repaint:
the layout that found the size repaints them), so the new size is drawn in the same frame.
"""

from __future__ import annotations

from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Size
from textual.reactive import Reactive
from textual.widget import Widget
from textual.widgets import Digits, Label, Static


class FittedLeaf(Widget):
    """A widget whose change of size needs no second layout: a widget without children, or a
    container whose new size was found by the layout that placed its children. Put it after the
    widget class it settles (`class X(Static, FittedLeaf)`): Textual styles a widget by its first
    bases."""

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False, repaint=False)


class FittedColumn(Vertical, FittedLeaf):
    """A column that does not scroll (a dialog's panel)."""


class FittedScroll(VerticalScroll, FittedLeaf):
    """A scrolling column: its scrollbars follow in the frame that found its new size."""


class FittedRow(Horizontal, FittedLeaf):
    """A row (a dialog's label and its field, the table's body)."""


class FittedStatic(Static, FittedLeaf):
    """A line of a dialog's text."""


class FittedLabel(Label, FittedLeaf):
    """A field's label in a dialog, styled as a Label."""


class FittedDigits(Digits, FittedLeaf):
    """A big figure (the payout's chips paid out)."""
