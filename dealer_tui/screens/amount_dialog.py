"""Enter one or more amounts within their bounds; Enter confirms, Esc backs out, u undoes."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Input, Label, Static

from dealer_tui.language import N_, _
from dealer_tui.screens.dialog import Dialog
from dealer_tui.widgets.fitted import FittedLabel, FittedRow, FittedStatic


@dataclass(frozen=True)
class AmountField:
    name: str
    label: str
    low: int
    high: int
    default: int | None
    """The amount the field starts with; None: an empty field, the dealer types the amount."""
    optional: bool = False  # 0 allowed (no bet)
    bounds_shown: bool = True
    """Whether the label names the bounds (a count of chips does not: its bounds are said only to
    a count outside them)."""

    @property
    def shown(self) -> str:
        """The field's label as the dialog shows it."""
        return f"{self.label} ({self.bounds})" if self.bounds_shown else self.label

    @property
    def start(self) -> str:
        return "" if self.default is None else str(self.default)

    @property
    def bounds(self) -> str:
        if self.optional and self.low > 0:
            return _("{low}–{high} or 0", low=self.low, high=self.high)
        return _("{low}–{high}", low=self.low, high=self.high)  # grouped as the reader's language groups


COMPACT_FROM = 3
"""A dialog of more fields than this gives each field one line (no frame): a tray's six chip
counts, title and keys fit an 80×24 terminal."""


class AmountDialog(Dialog[dict[str, int] | None]):
    BINDINGS = [
        Binding("escape", "cancel", N_("Back")),
        Binding("ctrl+u", "suggested", N_("Suggested amounts"), priority=True),  # before the field's own ctrl+u
    ]

    def __init__(self, title: str, fields: list[AmountField],
                 check: Callable[[dict[str, int]], str | None] | None = None, *, enter_moves: bool = False) -> None:
        """`enter_moves`: Enter in a field before the last goes on to the next (a count, field by
        field); else Enter in any field confirms."""
        super().__init__()
        self.title_text = title
        self.fields = fields
        self.check = check
        self.enter_moves = enter_moves

    def compose(self) -> ComposeResult:
        compact = len(self.fields) > COMPACT_FROM
        self.set_class(compact, "-compact")
        yield FittedStatic(self.title_text, classes="title")
        for i, f in enumerate(self.fields):
            with FittedRow(classes="row"):
                yield FittedLabel(f.shown, id=f"label-{i}")
                # the class an Input gives itself for its first value, given up front: set
                # later, it would restyle the field before it is even shown
                yield Input(f.start, id=f"amount-{i}", classes="-valid", max_length=12, compact=compact)
        yield FittedStatic("", id="amount-error", classes="error")
        yield FittedStatic(self._hint(), id="amount-hint", classes="hint")

    def shape(self) -> Hashable:
        return len(self.fields)

    def _hint(self) -> str:
        """The keys, one hint after another (`·`), each said on its own."""
        if self.enter_moves:
            enter = _("Enter goes on (in the last field: confirms)")
        elif len(self.fields) > 1:
            enter = _("Tab: the next field · Enter confirms them all")
        else:
            enter = _("Enter confirms")
        suggested = [_("ctrl+u: the suggested amounts")] if any(f.default for f in self.fields) else []
        return " · ".join([enter, _("Esc backs out"), *suggested])

    def reask(self, other: Dialog[dict[str, int] | None]) -> None:
        assert isinstance(other, AmountDialog)
        self.title_text, self.fields, self.check = other.title_text, other.fields, other.check
        self.enter_moves = other.enter_moves
        self.query_one(".title", Static).update(self.title_text)
        self.query_one("#amount-hint", Static).update(self._hint())
        for i, f in enumerate(self.fields):
            self.query_one(f"#label-{i}", Label).update(f.shown)
        self.action_suggested()

    def keys(self) -> list[Binding]:
        keys = super().keys()
        enter = [b for b in keys if b.key == "enter"]  # none before the fields are on screen
        rest = [b for b in keys if b.key != "enter"]
        if self.enter_moves:
            enter = [Binding(b.key, b.action, N_("Next / confirm")) for b in enter]
        tab = [Binding("tab", "app.focus_next", N_("Next field"))] if len(self.fields) > 1 else []
        return [*enter, *tab, *rest]

    def opened(self) -> None:
        first = self.query_one("#amount-0", Input)
        if self.screen.focused is not first:
            first.focus()
        first.action_select_all()

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_suggested(self) -> None:
        for i, f in enumerate(self.fields):
            self.query_one(f"#amount-{i}", Input).value = f.start
        self.query_one("#amount-error", Static).update("")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self.enter_moves and event.input.id != f"amount-{len(self.fields) - 1}":
            self.screen.focus_next()
            return
        values: dict[str, int] = {}
        for i, f in enumerate(self.fields):
            raw = self.query_one(f"#amount-{i}", Input).value.strip()
            if not raw and not f.optional:
                return self._error(_("{label}: type an amount ({bounds})", label=f.label, bounds=f.bounds))
            if not (raw or "0").isdigit() or not raw.isascii():
                return self._error(_("{label}: {typed} is not a whole number of chips", label=f.label, typed=repr(raw)))
            amount = int(raw or "0")
            if amount > f.high:
                return self._error(_("{label}: {amount} is over the most allowed here, {most} ({bounds})",
                                     label=f.label, amount=amount, most=f.high, bounds=f.bounds))
            if not (f.low <= amount or (f.optional and amount == 0)):
                return self._error(_("{label}: {amount} is under the least allowed here, {least} ({bounds})",
                                     label=f.label, amount=amount, least=f.low, bounds=f.bounds))
            values[f.name] = amount
        problem = self.check(values) if self.check is not None else None
        if problem:
            return self._error(problem)
        self.dismiss(values)

    def _error(self, message: str) -> None:
        self.query_one("#amount-error", Static).update(message)
