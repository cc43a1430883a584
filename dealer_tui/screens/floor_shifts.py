"""The floor's shift report: every table's shifts at a glance — rounds, handle, drop, win, hold,
the rounds' own result and the theoretical win — with each difference flagged, and the figures of
the shift the cursor is on (counted, by the records, the difference)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from dealer_tui.accounting.report import (
    dealer_line,
    figure_rows,
    money,
    percent,
    shown,
    signed_money,
)
from dealer_tui.accounting.shifts import ShiftFigures, shift_figures, status_text, totals
from dealer_tui.accounting.theoretical import Theory
from dealer_tui.language import N_, _, n_, number, told, told_error
from dealer_tui.ledger import Ledger
from dealer_tui.ledger.base import LedgerError
from dealer_tui.widgets.screen_keys import ScreenKeys

COLUMNS = (N_("Table"), N_("Shift"), N_("Status"), N_("Rounds"), N_("Handle"), N_("Drop"), N_("Win"), N_("Hold"),
           N_("Result"), N_("Theoretical"), N_("Closer ±"), N_("Flags"))
FIGURES = (N_("Opener"), N_("Fills"), N_("Credits"), N_("Chips sold (cash / marker)"), N_("Sold before the opener"),
           N_("Closer"), N_("Drop (cash + markers)"), N_("Collection box (rake, fees, time)"), N_("Time collected"),
           N_("Win"), N_("Hold (win / drop)"), N_("Handle (wagered)"), N_("Theoretical win"), N_("Rounds (per hour)"))
"""The figures' labels of `accounting.report.figure_rows`, marked here for the catalogs: the detail
shows each in the reader's language (a label not among them, as written)."""
MOVEMENTS = {"opener": N_("opener"), "closer": N_("closer"), "fill": N_("fill"), "credit": N_("credit"),
             "colour-up": N_("colour-up"), "marker": N_("marker")}
"""The tray record's kinds of movement (codes) as the detail names them."""


def whole(value: object) -> int:
    """A count or a sum of chips from the report's totals (a number there)."""
    return value if isinstance(value, int) else 0


def figure(value: object) -> float:
    """A figure of the report's totals that may have decimals (the theoretical win)."""
    return float(value) if isinstance(value, (int, float)) else 0.0


class ShiftsScreen(Screen[None]):
    CSS_PATH = "floor.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "back", N_("Back to the list")),
                                             Binding("r", "reload", N_("Refresh"))]

    def __init__(self, ledger: Ledger, theory: Theory) -> None:
        super().__init__()
        self.ledger = ledger
        self.theory = theory
        self.shifts: list[ShiftFigures] = []

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield DataTable(id="shifts-table", zebra_stripes=True, cursor_type="row")
        yield Static(_("Reading the shifts…"), id="shifts-sum")
        with VerticalScroll(id="shifts-detail"):
            yield Static(id="shifts-figures")
        yield ScreenKeys()

    def on_mount(self) -> None:
        self.title = _("Shifts: counted against the records")
        table = self.query_one(DataTable)
        table.add_columns(*(_(c) for c in COLUMNS))
        table.focus()
        self.action_reload()

    def action_reload(self) -> None:
        self.query_one("#shifts-sum", Static).update(_("Reading the shifts…"))
        self.run_worker(self._read, thread=True, exclusive=True, group="shifts")

    def _read(self) -> None:
        try:
            shifts = shift_figures(self.ledger, self.theory)
        except LedgerError as exc:
            self.app.call_from_thread(self._failed, told_error(exc))
            return
        self.app.call_from_thread(self._show, shifts)

    def _failed(self, message: str) -> None:
        self.query_one("#shifts-sum", Static).update(Text(_("The shifts cannot be read: {problem}", problem=message), style="red"))

    def _show(self, shifts: list[ShiftFigures]) -> None:
        self.shifts = shifts
        table = self.query_one(DataTable)
        table.clear()
        for s in shifts:
            theory = f"{number(round(s.theoretical))} ± {number(round(s.band))}" if s.theory_known else "—"
            flags = Text(str(len(s.flags)), style="bold red") if s.flags else Text("")
            name = _("{table} (training)", table=shown(s.table)) if s.training else shown(s.table)
            table.add_row(name, str(s.shift), status_text(s.status, short=True),
                          str(s.rounds),
                          money(s.handle), money(s.drop), money(s.win), percent(s.hold), money(s.rounds_win), theory,
                          signed_money(s.closer_difference), flags)
        t = totals(shifts)
        summary = Text()
        summary.append(n_("{count} shift(s), {counted} counted: ", "{count} shift(s), {counted} counted: ",
                          whole(t["shifts"]), counted=number(whole(t["counted"]))), style="bold")
        summary.append(_("drop {drop} · win {win} · hold {hold} · rounds' result {result} · theoretical {theoretical}",
                         drop=number(whole(t["drop"])), win=number(whole(t["win"])),
                         hold=percent(t["hold"] if isinstance(t["hold"], float) else None),
                         result=number(whole(t["rounds_win"])), theoretical=number(round(figure(t["theoretical_win"])))))
        if t["flagged"]:
            flagged = n_("{count} shift(s)", "{count} shift(s)", whole(t["flagged"]))
            summary.append(" · " + n_("{count} flag(s) in {shifts}", "{count} flag(s) in {shifts}", whole(t["flags"]),
                                      shifts=flagged), style="bold red")
        for note in self.theory.problems:
            summary.append("\n" + _("note: {note}", note=told(note)))
        if not shifts:
            summary = Text(_("No shifts: a table's shift begins when its opener is counted (the Tray key at the "
                             "table)."))
        self.query_one("#shifts-sum", Static).update(summary)
        self._detail(0)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._detail(event.cursor_row)

    def _detail(self, row: int) -> None:
        out = Text()
        if 0 <= row < len(self.shifts):
            s = self.shifts[row]
            values = {"table": s.table, "shift": s.shift, "game": s.game, "profile": s.profile}
            head = (_("{table} · shift {shift} · {game} ({profile}, house-banked)", **values) if s.banked
                    else _("{table} · shift {shift} · {game} ({profile}, card room)", **values))
            out.append(head + "\n", style="bold")
            out.append(_("opened {at} by {dealer}, witnessed by {witness}", at=s.opened_at[:19].replace("T", " "),
                         dealer=s.opened_by[0], witness=s.opened_by[1]))
            if s.closed_at:
                out.append(_("; closed {at} by {dealer}, witnessed by {witness}", at=s.closed_at[:19].replace("T", " "),
                             dealer=s.closed_by[0], witness=s.closed_by[1]))
            if s.tray.drop is not None:
                out.append(_("; drop box counted by {staff}", staff=s.tray.drop.by))
            out.append(f"\n{status_text(s.status)}")
            counted_, records, difference = _("counted"), _("by the records"), _("difference")
            out.append(f"\n{'':34}{counted_:>12}{records:>18}{difference:>12}\n", style="bold")
            for label, counted, recorded, diff in figure_rows(s):
                out.append(f"{_(label) if label in FIGURES else label:34}{counted:>12}{recorded:>18}")
                out.append(f"{diff:>12}\n", style="bold red" if diff not in ("", "0", "—") else "")
            out.append(_("theoretical win: {basis}", basis=s.theory_basis) + "\n")
            for d in s.dealers.values():
                out.append(dealer_line(d) + "\n")
            if s.movements:
                out.append(_("tray record") + "\n", style="bold")
            for m in s.movements:
                what = " ".join(str(part) for part in (
                    _(MOVEMENTS[str(m["what"])]) if m["what"] in MOVEMENTS else m["what"], m["slip"], _("seat {seat}", seat=m["seat"]) if m["seat"] is not None else "") if part)
                line = f"  {str(m['at'])[11:19]} {what}: {money(whole(m['total']))}"
                staff = ", ".join(str(who) for who in (m["dealer"], m["supervisor"]) if who)
                out.append((_("{movement} (signed {staff})", movement=line, staff=staff) if staff else line) + "\n")
            for flag in s.flags:
                out.append(_("FLAG: {flag}", flag=told(flag)) + "\n", style="bold red")
        self.query_one("#shifts-figures", Static).update(out)

    def action_back(self) -> None:
        self.app.pop_screen()
