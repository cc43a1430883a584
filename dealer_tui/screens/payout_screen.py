"""The payout, per seat and per bet, with why; the dealer confirms it (Enter)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Digits, Static

from dealer_tui.rounds.base import BANK_BETS, RoundOutcome

BET_LABELS = {"ante": "Ante", "raise": "Raise", "flush": "Flush bet", "straight_flush": "Straight Flush bet",
              "bet": "Bet", "exchange": "Exchange fee", "insurance": "Insurance", "rake": "Rake",
              "bank": "Bank (DP)"}


class PayoutScreen(ModalScreen[bool]):
    CSS_PATH = "modal.tcss"
    BINDINGS = [
        Binding("enter", "confirm", "Confirm payout", priority=True),
        Binding("escape", "cancel", "Back"),
    ]

    def __init__(self, outcome: RoundOutcome, house_label: str, sign_off: list[int], threshold: int,
                 seat_label: str = "Seat") -> None:
        super().__init__()
        self.outcome, self.house_label, self.sign_off, self.threshold = outcome, house_label, sign_off, threshold
        self.seat_label = seat_label

    def compose(self) -> ComposeResult:
        paid = self.outcome.paid
        with Vertical(classes="dialog"):
            yield Static("Payout", classes="title")
            yield DataTable(id="payout-table", zebra_stripes=True, cursor_type="row")
            yield Static("", id="payout-why")
            with Vertical(id="payout-total"):
                yield Static("Chips paid out (winning stakes back + winnings)")
                yield Digits(f"{paid:,}", id="payout-digits")
            yield Static(self._summary(), id="payout-summary")
            note = ""
            if self.sign_off:
                seats = ", ".join(str(s) for s in self.sign_off)
                note = f"Seat {seats} won {self.threshold} or more: the supervisor's PIN is needed. "
            yield Static(f"{note}Enter confirms · Esc backs out", classes="hint")

    def _summary(self) -> str:
        changes = ", ".join(f"seat {s} {c:+}" for s, c in sorted(self.outcome.stack_changes.items()))
        return f"{changes}\n{self.house_label} {self.outcome.house:+}"

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(self.seat_label, "Bet", "Stake", "Result", "Why")
        for row in self.outcome.rows:
            label = BET_LABELS.get(row.bet, row.bet)
            result = f"{row.result:+}" if row.result else ("push" if row.bet not in BANK_BETS else "0")
            table.add_row(str(row.seat), label, str(row.stake), result, row.reason)
        table.focus()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        row = self.outcome.rows[event.cursor_row] if 0 <= event.cursor_row < len(self.outcome.rows) else None
        if row is not None:
            self.query_one("#payout-why", Static).update(f"{self.seat_label} {row.seat}: {row.reason}")

    def action_confirm(self) -> None:
        self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(False)
