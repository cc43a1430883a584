"""Totals per table and game: rounds, handle, what came from the stacks, paid, returned, the
house's result and its % of the handle (the drop box's drop and hold are the shifts screen's),
rake and fees, biggest payout; the house's win hour by hour, a losing hour drawn as a loss.

House-banked, DP-banked and pot or peer games are kept apart: their handle means different things
(`payouts.HANDLE_MEANS`), so each kind has its own rows and % and none blends two kinds. On every
row  handle + from stacks = paid + returned + result."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from dealer_tui.language import N_
from dealer_tui.ledger import Ledger, RowQuery, Totals
from dealer_tui.ledger.base import TRAINING, HourTotals
from dealer_tui.ledger.payouts import HANDLE_MEANS, KINDS
from dealer_tui.screens.floor_names import TableNames
from dealer_tui.widgets.screen_keys import ScreenKeys

COLUMNS = ("Table", "Result", "% of handle", "Handle", "Rounds", "Banking", "Game", "Paid", "Returned",
           "From stacks", "Rake/fees", "Biggest payout")
"""The figures a supervisor acts on first (the result and its % of the handle), the rest after
(→ brings them in on a narrow terminal). Drop and hold are the drop box's (the shifts screen, `h`);
here the rounds' own handle and result."""
BAR = 16
"""Cells each side of the hourly chart's axis, at most (a narrow terminal draws fewer)."""
CHART_FIXED = 64
"""The hourly chart's columns besides its bars: the hour, the axis, the figure, the % and the
rounds (`hour_bars`), and the screen's padding and scroll bar."""


def shown_hold(hold: float | None) -> str:
    return "—" if hold is None else f"{hold:.2%}"


def summed(rows: Sequence[Totals], banking: str) -> Totals:
    """Several rows' totals as one (the biggest payout is the largest of theirs)."""
    return Totals(0, "", sum(t.rounds for t in rows), sum(t.wagered for t in rows), sum(t.paid for t in rows),
                  sum(t.house for t in rows), max((t.max_payout for t in rows), default=0),
                  sum(t.fees for t in rows), banking, sum(t.returned for t in rows), sum(t.from_stacks for t in rows))


def row(table: str, banking: str, game: str, t: Totals, hold: str) -> tuple[str, ...]:
    """One row of the totals in `COLUMNS` order."""
    return (table, f"{t.house:+,}", hold, f"{t.wagered:,}", f"{t.rounds:,}", banking, game, f"{t.paid:,}",
            f"{t.returned:,}", f"{t.from_stacks:,}", f"{t.fees:,}", f"{t.max_payout:,}")


def adds_up(t: Totals) -> str:
    """handle + from stacks = paid + returned + result, in figures."""
    return (f"handle {t.wagered:,} + from stacks {t.from_stacks:,} = paid {t.paid:,} + returned {t.returned:,} + "
            f"result {t.house:+,}  ({t.wagered + t.from_stacks:,} = {t.paid + t.returned + t.house:,})")


def hour_bars(hours: Sequence[HourTotals], width: int = BAR) -> Text:
    """The house's win hour by hour for one kind of banking: a win a green bar right of the axis,
    a loss a red bar left of it, each with its signed figure and the hour's hold."""
    out = Text()
    top = max((abs(h.house) for h in hours), default=0)
    for h in hours:
        cells = max(1, round(abs(h.house) * width / top)) if h.house else 0
        out.append(f"  {h.hour.replace('T', ' ')}h  ")
        out.append(" " * (width - cells if h.house < 0 else width))
        if h.house < 0:
            out.append("█" * cells, style="red")
        out.append("│")
        if h.house > 0:
            out.append("█" * cells, style="green")
        out.append(" " * (width - cells if h.house > 0 else width))
        out.append(f" {h.house:+8,}", style="red" if h.house < 0 else "green" if h.house > 0 else "")
        rounds = f"{h.rounds} round{'s' if h.rounds != 1 else ''}"
        out.append(f" {shown_hold(h.hold):>8}  {rounds}, handle {h.wagered:,}\n")
    return out


def bar_cells(width: int) -> int:
    """The chart's cells each side of the axis on a screen `width` columns wide."""
    return max(4, min(BAR, (width - CHART_FIXED) // 2))


class TotalsScreen(Screen[None]):
    CSS_PATH = "floor.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("tab", "app.focus_next", N_("Table ⇄ chart")),
                                             Binding("escape,q", "back", N_("Back to the list"))]

    def __init__(self, ledger: Ledger, query: RowQuery, tables: TableNames) -> None:
        super().__init__()
        self.ledger, self.query_, self.tables = ledger, query, tables

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield DataTable(id="totals-table", zebra_stripes=True)
        with VerticalScroll(id="totals-hours"):
            yield Static(id="totals-chart")
            yield Static(id="totals-sum")
        yield ScreenKeys()

    def on_mount(self) -> None:
        q = self.query_
        shift = f" {(q.since or '…')[:16].replace('T', ' ')} to {(q.until or '…')[:16].replace('T', ' ')}" \
            if q.since or q.until else ""
        self.title = f"Totals (settled rounds){shift}"
        table = self.query_one(DataTable)
        table.add_columns(*COLUMNS)
        table.focus()  # ← and → bring in the columns a narrow terminal leaves out
        found = self.ledger.totals(self.query_)
        kinds = [k for k in KINDS if any(t.banking == k for t in found)]
        notes = Text()
        for kind in kinds:
            rows = [t for t in found if t.banking == kind]
            for t in rows:
                table.add_row(*row(self.tables.name(t.table_id), KINDS[kind], t.game, t, shown_hold(t.hold)))
            whole = summed(rows, kind)
            if len(rows) > 1:
                table.add_row(*row("all", KINDS[kind], "", whole, shown_hold(whole.hold)))
            notes.append(f"{KINDS[kind]}: ", style="bold")
            notes.append(f"handle is {HANDLE_MEANS[kind]}\n")
        everything = summed(found, "")
        one_kind = len(kinds) == 1
        table.add_row(*row("all", "all", "", everything, shown_hold(everything.hold) if one_kind else "by kind"))
        notes.append("all kinds: ", style="bold")
        notes.append(adds_up(everything) + ("" if one_kind or not kinds else "; % of handle only within one kind, above"))
        if q.training:
            notes.append("\ntraining tables' rounds taken in", style="bold")
        elif q.flag != TRAINING and self.ledger.any_flagged(TRAINING):
            notes.append("\ntraining tables' rounds left out (T on the rounds list takes them in)")
        self.query_one("#totals-sum", Static).update(notes)
        self.kinds, self.hours = kinds, self.ledger.hourly(self.query_)
        self.query_one("#totals-chart", Static).update(self.chart())

    def on_resize(self) -> None:
        if hasattr(self, "hours"):  # drawn again to the new width
            self.query_one("#totals-chart", Static).update(self.chart())

    def chart(self) -> Text:
        kinds, hours = self.kinds, self.hours
        out = Text()
        for kind in kinds:
            mine = [h for h in hours if h.banking == kind]
            span = f"{mine[0].hour.replace('T', ' ')}h to {mine[-1].hour.replace('T', ' ')}h" if mine else "no rounds"
            out.append(f"House win by hour, {KINDS[kind]} ({span}): losses left of the axis, in red; "
                       "each hour's result, its % of handle, its rounds and handle\n", style="bold")
            out.append_text(hour_bars(mine, bar_cells(self.app.size.width)))
        if not kinds:
            out.append("No settled rounds.")
        return out

    def action_back(self) -> None:
        self.app.pop_screen()
