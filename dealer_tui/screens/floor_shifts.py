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
from dealer_tui.accounting.shifts import ShiftFigures, shift_figures, totals
from dealer_tui.accounting.theoretical import Theory
from dealer_tui.language import N_, told_error
from dealer_tui.ledger import Ledger
from dealer_tui.ledger.base import LedgerError
from dealer_tui.widgets.screen_keys import ScreenKeys

COLUMNS = ("Table", "Shift", "Status", "Rounds", "Handle", "Drop", "Win", "Hold", "Result", "Theoretical",
           "Closer ±", "Flags")


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
        yield Static("Reading the shifts…", id="shifts-sum")
        with VerticalScroll(id="shifts-detail"):
            yield Static(id="shifts-figures")
        yield ScreenKeys()

    def on_mount(self) -> None:
        self.title = "Shifts: counted against the records"
        table = self.query_one(DataTable)
        table.add_columns(*COLUMNS)
        table.focus()
        self.action_reload()

    def action_reload(self) -> None:
        self.query_one("#shifts-sum", Static).update("Reading the shifts…")
        self.run_worker(self._read, thread=True, exclusive=True, group="shifts")

    def _read(self) -> None:
        try:
            shifts = shift_figures(self.ledger, self.theory)
        except LedgerError as exc:
            self.app.call_from_thread(self._failed, told_error(exc))
            return
        self.app.call_from_thread(self._show, shifts)

    def _failed(self, message: str) -> None:
        self.query_one("#shifts-sum", Static).update(Text(f"The shifts cannot be read: {message}", style="red"))

    def _show(self, shifts: list[ShiftFigures]) -> None:
        self.shifts = shifts
        table = self.query_one(DataTable)
        table.clear()
        for s in shifts:
            theory = f"{s.theoretical:,.0f} ± {s.band:,.0f}" if s.theory_known else "—"
            flags = Text(str(len(s.flags)), style="bold red") if s.flags else Text("")
            table.add_row(shown(s.table) + (" (training)" if s.training else ""), str(s.shift), s.status.split(",")[0],
                          str(s.rounds),
                          money(s.handle), money(s.drop), money(s.win), percent(s.hold), money(s.rounds_win), theory,
                          signed_money(s.closer_difference), flags)
        t = totals(shifts)
        summary = Text()
        summary.append(f"{t['shifts']} shift(s), {t['counted']} counted: ", style="bold")
        summary.append(f"drop {t['drop']:,} · win {t['win']:,} · hold "
                       f"{percent(t['hold'] if isinstance(t['hold'], float) else None)} · rounds' result "
                       f"{t['rounds_win']:,} · theoretical {t['theoretical_win']:,.0f}")
        if t["flagged"]:
            summary.append(f" · {t['flags']} flag(s) in {t['flagged']} shift(s)", style="bold red")
        for note in self.theory.problems:
            summary.append(f"\nnote: {note}")
        if not shifts:
            summary = Text("No shifts: a table's shift begins when its opener is counted (the Tray key at the table).")
        self.query_one("#shifts-sum", Static).update(summary)
        self._detail(0)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._detail(event.cursor_row)

    def _detail(self, row: int) -> None:
        out = Text()
        if 0 <= row < len(self.shifts):
            s = self.shifts[row]
            out.append(f"{s.table} · shift {s.shift} · {s.game} ({s.profile}, "
                       f"{'house-banked' if s.banked else 'card room'})\n", style="bold")
            out.append(f"opened {s.opened_at[:19].replace('T', ' ')} by {s.opened_by[0]}, witnessed by "
                       f"{s.opened_by[1]}")
            if s.closed_at:
                out.append(f"; closed {s.closed_at[:19].replace('T', ' ')} by {s.closed_by[0]}, witnessed by "
                           f"{s.closed_by[1]}")
            if s.tray.drop is not None:
                out.append(f"; drop box counted by {s.tray.drop.by}")
            out.append(f"\n{s.status}")
            out.append(f"\n{'':34}{'counted':>12}{'by the records':>18}{'difference':>12}\n", style="bold")
            for label, counted, recorded, diff in figure_rows(s):
                out.append(f"{label:34}{counted:>12}{recorded:>18}")
                out.append(f"{diff:>12}\n", style="bold red" if diff not in ("", "0", "—") else "")
            out.append(f"theoretical win: {s.theory_basis}\n")
            for d in s.dealers.values():
                out.append(dealer_line(d) + "\n")
            if s.movements:
                out.append("tray record\n", style="bold")
            for m in s.movements:
                where = f" {m['slip']}" if m["slip"] else ""
                seat = f" seat {m['seat']}" if m["seat"] is not None else ""
                signed = ", ".join(str(who) for who in (m["dealer"], m["supervisor"]) if who)
                out.append(f"  {str(m['at'])[11:19]} {m['what']}{where}{seat}: {m['total']:,}"
                           + (f" (signed {signed})" if signed else "") + "\n")
            for flag in s.flags:
                out.append(f"FLAG: {flag}\n", style="bold red")
        self.query_one("#shifts-figures", Static).update(out)

    def action_back(self) -> None:
        self.app.pop_screen()
