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

from dealer_tui.language import N_, _, current, n_, number, signed
from dealer_tui.ledger import Ledger, RowQuery, Totals
from dealer_tui.ledger.base import TRAINING, HourTotals
from dealer_tui.ledger.payouts import DP_BANKED, HANDLE_MEANS, HOUSE_BANKED, KINDS, POOL
from dealer_tui.screens.floor_names import TableNames
from dealer_tui.widgets.screen_keys import ScreenKeys

COLUMNS = (N_("Table"), N_("Result"), N_("Result %"), N_("Handle"), N_("Rounds"), N_("Banking"), N_("Game"),
           N_("Paid"), N_("Returned"), N_("From stacks"), N_("Rake/fees"), N_("Biggest payout"))
"""The figures a supervisor acts on first (the result and its % of the handle), the rest after
(→ brings them in on a narrow terminal). Drop and hold are the drop box's (the shifts screen, `h`);
here the rounds' own handle and result."""
BANKING = {HOUSE_BANKED: N_("house-banked"), DP_BANKED: N_("DP-banked"), POOL: N_("pot and peer")}
"""`payouts.KINDS` as the screen names them (the same words, marked here for the catalogs)."""
MEANS = {HOUSE_BANKED: N_("the chips wagered against the house; result % = the house's result / handle"),
         DP_BANKED: N_("the players' wagers against the DP; the house keeps only the rake; result % = rake / handle"),
         POOL: N_("the chips put into pots (Chinese Poker puts none); the house keeps only fees; result % = fees / "
                  "handle")}
"""`payouts.HANDLE_MEANS` as the screen says them (the same sentences, marked here for the catalogs)."""
BAR = 16
"""Cells each side of the hourly chart's axis, at most (a narrow terminal draws fewer)."""
CHART_FIXED = 64
"""The hourly chart's columns besides its bars: the hour, the axis, the figure, the % and the
rounds (`hour_bars`), and the screen's padding and scroll bar."""


def shown_hold(hold: float | None) -> str:
    return "—" if hold is None else current().percent(hold, 2)


def plus(value: int) -> str:
    """A result, signed as the totals write it (`+1,500`, `-20`, `+0`)."""
    return signed(value) if value else f"+{number(0)}"


def banking(kind: str) -> str:
    """A kind of banking in the reader's language."""
    return _(BANKING[kind]) if kind in BANKING else KINDS.get(kind, kind)


def handle_means(kind: str) -> str:
    """What the handle is at a kind of banking, in the reader's language."""
    return _(MEANS[kind]) if kind in MEANS else HANDLE_MEANS.get(kind, "")


def summed(rows: Sequence[Totals], banking: str) -> Totals:
    """Several rows' totals as one (the biggest payout is the largest of theirs)."""
    return Totals(0, "", sum(t.rounds for t in rows), sum(t.wagered for t in rows), sum(t.paid for t in rows),
                  sum(t.house for t in rows), max((t.max_payout for t in rows), default=0),
                  sum(t.fees for t in rows), banking, sum(t.returned for t in rows), sum(t.from_stacks for t in rows))


def row(table: str, banking: str, game: str, t: Totals, hold: str) -> tuple[str, ...]:
    """One row of the totals in `COLUMNS` order."""
    return (table, plus(t.house), hold, number(t.wagered), number(t.rounds), banking, game, number(t.paid),
            number(t.returned), number(t.from_stacks), number(t.fees), number(t.max_payout))


def adds_up(t: Totals) -> str:
    """handle + from stacks = paid + returned + result, in figures."""
    return _("handle {handle} + from stacks {from_stacks} = paid {paid} + returned {returned} + result {result}  "
             "({left} = {right})", handle=number(t.wagered), from_stacks=number(t.from_stacks), paid=number(t.paid),
             returned=number(t.returned), result=plus(t.house), left=number(t.wagered + t.from_stacks),
             right=number(t.paid + t.returned + t.house))


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
        out.append(f" {plus(h.house):>8}", style="red" if h.house < 0 else "green" if h.house > 0 else "")
        rounds = n_("{count} round", "{count} rounds", h.rounds)
        out.append(f" {shown_hold(h.hold):>8}  " + _("{rounds}, handle {handle}", rounds=rounds, handle=number(h.wagered))
                   + "\n")
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
        self.title = (_("Totals (settled rounds) {since} to {until}", since=(q.since or "…")[:16].replace("T", " "),
                        until=(q.until or "…")[:16].replace("T", " ")) if q.since or q.until
                      else _("Totals (settled rounds)"))
        table = self.query_one(DataTable)
        table.add_columns(*(_(c) for c in COLUMNS))
        table.focus()  # ← and → bring in the columns a narrow terminal leaves out
        found = self.ledger.totals(self.query_)
        kinds = [k for k in KINDS if any(t.banking == k for t in found)]
        notes = Text()
        for kind in kinds:
            rows = [t for t in found if t.banking == kind]
            for t in rows:
                table.add_row(*row(self.tables.name(t.table_id), banking(kind), t.game, t, shown_hold(t.hold)))
            whole = summed(rows, kind)
            if len(rows) > 1:
                table.add_row(*row(_("all"), banking(kind), "", whole, shown_hold(whole.hold)))
            notes.append(f"{banking(kind)}: ", style="bold")
            notes.append(_("handle is {means}", means=handle_means(kind)) + "\n")
        everything = summed(found, "")
        one_kind = len(kinds) == 1
        table.add_row(*row(_("all"), _("all"), "", everything, shown_hold(everything.hold) if one_kind else _("by kind")))
        notes.append(_("all kinds") + ": ", style="bold")
        notes.append(adds_up(everything) if one_kind or not kinds
                     else _("{figures}; result %: only within one kind, above", figures=adds_up(everything)))
        if q.training:
            notes.append("\n" + _("training tables' rounds taken in"), style="bold")
        elif q.flag != TRAINING and self.ledger.any_flagged(TRAINING):
            notes.append("\n" + _("training tables' rounds left out (T on the rounds list takes them in)"))
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
            span = (_("{first}h to {last}h", first=mine[0].hour.replace("T", " "), last=mine[-1].hour.replace("T", " "))
                    if mine else _("no rounds"))
            out.append(_("House win by hour, {banking} ({span}): losses left of the axis, in red; each hour's result, "
                         "its result %, its rounds and handle", banking=banking(kind), span=span) + "\n", style="bold")
            out.append_text(hour_bars(mine, bar_cells(self.app.size.width)))
        if not kinds:
            out.append(_("No settled rounds."))
        return out

    def action_back(self) -> None:
        self.app.pop_screen()
