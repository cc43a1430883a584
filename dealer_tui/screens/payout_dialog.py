"""The payout, per seat and per bet, with why; the dealer confirms it (Enter). A payout that
needs a supervisor is signed with the PIN at the table, or sent to the floor (r) and confirmed
once the floor approves it; one the floor refused is paid only on a manager's override, with a
reason (or the round is voided). A refusal to send shows in the hint line, with what to do instead."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.geometry import Size
from textual.widgets import Digits, Static

from dealer_tui.events.table import SignOffApproved, SignOffRefused, SignOffRequested
from dealer_tui.language import N_, _, number, p_, signed, told, told_error
from dealer_tui.ledger.base import SIGN_OFF_APPROVED, SIGN_OFF_REFUSED, LedgerError, SettlementRow
from dealer_tui.ledger.payouts import seat_chips
from dealer_tui.rounds.base import RoundOutcome, SendToFloor, SignOff, Void
from dealer_tui.rounds.payout import refusal_stands
from dealer_tui.screens.dialog import Dialog
from dealer_tui.widgets.fitted import FittedColumn, FittedDigits, FittedStatic
from dealer_tui.widgets.payout_rows import PayoutRows
from rules.bets import banker_kinds, bet_label
from rules.errors import RulesError

if TYPE_CHECKING:
    from dealer_tui.rounds.table import Table

VOID = "void"
"""What the screen dismisses with when the dealer chooses to void a refused payout."""
REKEY_CARDS = "rekey"
"""What the screen dismisses with when the dealer asks to correct keyed cards (a live table)."""
POLL_SECONDS = 1.0


class FloorRequest:
    """The dealer's side of the sign-off queue: send the payout to the floor, notice its decision."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def state(self) -> SignOff | None:
        rnd = self.table.round
        return rnd.sign_off_state() if rnd is not None else None

    def send(self) -> None:
        self.table.act(SendToFloor())

    def can_void(self) -> bool:
        """Whether the round may still be voided (a misdeal rule of the game decides)."""
        rnd = self.table.round
        return rnd is not None and rnd.voidable()

    def why_no_void(self) -> str:
        """The game's own reason the round may not be voided now."""
        rnd = self.table.round
        if rnd is None:
            return _("no round is in play")
        why = rnd.why_not(Void())
        return told(why).rstrip(".") if why is not None else _("the round may not be voided from here")

    def refresh(self) -> bool:
        """Fold in the decisions the floor recorded since the last look; True when one arrived."""
        rnd, round_id = self.table.round, self.table.round_id
        if rnd is None or round_id is None:
            return False
        kinds = (SIGN_OFF_APPROVED, SIGN_OFF_REFUSED)
        recorded = [e for e in self.table.ledger.round_events(round_id) if e.kind in kinds]
        known = sum(1 for e in rnd.events if isinstance(e, (SignOffApproved, SignOffRefused)))
        for event in recorded[known:]:
            rnd.apply(event)
        return len(recorded) > known

class PayoutDialog(Dialog[bool | str]):
    """Dismisses with True (confirm), False (back out) or `VOID` (void the refused payout).
    Built once per round screen: the next payout is put into it (`reask`) and shown in one frame."""

    BINDINGS = [
        Binding("enter", "confirm", N_("Confirm payout"), priority=True),
        Binding("escape", "cancel", N_("Back")),
        Binding("r", "send_to_floor", N_("Send to the floor")),
        Binding("x", "void", N_("Void the round")),
        Binding("k", "rekey", N_("Correct keyed cards")),
    ]

    def __init__(self, outcome: RoundOutcome, house_label: str, sign_off: list[int], threshold: int,
                 seat_label: str = N_("Seat"), floor: FloorRequest | None = None, can_rekey: bool = False,
                 tray_short: int = 0, order: tuple[int, ...] = (), payments: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.payments = payments
        """Who pays whom, in order, where the players pay each other (Chinese Poker's CP-13)."""
        self.order = order
        """The seats in the order the rules settle them (the rows are listed and numbered so)."""
        self.tray_short = tray_short
        """Chips the tray lacks for this payout by the shift's records: it waits for a fill."""
        self.outcome, self.house_label, self.sign_off, self.threshold = outcome, house_label, sign_off, threshold
        self.seat_label = seat_label
        self.floor = floor if sign_off else None
        self.can_rekey = can_rekey
        self._shown_label = self._total_label()
        self._shown_title = _("Payout")
        """A live table: k corrects keyed cards (with the supervisor) before the payout is confirmed."""

    def compose(self) -> ComposeResult:
        yield FittedStatic(_("Payout"), classes="title", id="payout-title")
        yield PayoutRows(id="payout-table")
        yield FittedStatic("", id="payout-why", markup=False, shrink=False)
        with FittedColumn(id="payout-total"):
            yield FittedStatic(self._shown_label, id="payout-total-label")
            yield FittedDigits(number(self.outcome.paid), id="payout-digits")
        yield FittedStatic(self._summary(), id="payout-summary", markup=False)
        yield FittedStatic(self._hint(), id="payout-hint", classes="hint", markup=False)

    def reask(self, other: Dialog[bool | str]) -> None:
        assert isinstance(other, PayoutDialog)
        self.outcome, self.house_label, self.sign_off = other.outcome, other.house_label, other.sign_off
        self.threshold, self.seat_label, self.floor = other.threshold, other.seat_label, other.floor
        self.can_rekey, self.tray_short, self.order = other.can_rekey, other.tray_short, other.order
        self.payments = other.payments
        self.query_one("#payout-digits", Digits).update(number(self.outcome.paid))
        self.query_one("#payout-summary", Static).update(self._summary())
        self.query_one("#payout-hint", Static).update(self._hint())
        self.refresh_bindings()

    def _total_label(self) -> str:
        if any(r.bet == "bank" for r in self.outcome.rows):
            return _("Chips paid out (winning stakes back + winnings, the DP's included)")
        return _("Chips paid out (winning stakes back + winnings)")

    def _hint(self) -> str:
        rekey = _(" · k corrects keyed cards (supervisor)") if self.can_rekey else ""
        if self.tray_short:
            return _("The tray is {short} short for this payout: it waits for a fill. Esc, then T records the fill "
                     "from the cage, then p pays", short=number(self.tray_short)) + rekey
        return self._sign_off_hint() + rekey

    def _sign_off_hint(self) -> str:
        if not self.sign_off:
            return _("Enter confirms · Esc backs out")
        seats = ", ".join(str(s) for s in self.sign_off)
        if len(self.sign_off) > 1:
            big = _("Seats {seats} are handed {threshold} or more in chips (stakes back + winnings): a supervisor "
                    "signs off.", seats=seats, threshold=number(self.threshold))
        else:
            big = _("Seat {seat} is handed {threshold} or more in chips (stakes back + winnings): a supervisor "
                    "signs off.", seat=seats, threshold=number(self.threshold))
        state = self.floor.state() if self.floor is not None else None
        if self.floor is None:
            return _("{big} Enter: a supervisor signs in (ID and PIN) · Esc backs out", big=big)
        if state is None:
            return _("{big} Enter: a supervisor signs in here (ID and PIN) · r sends it to the floor · Esc backs out",
                     big=big)
        if isinstance(state, SignOffApproved):
            return _("Approved on the floor by {account}. Enter confirms the payout · Esc backs out", account=state.by)
        if isinstance(state, SignOffRefused):
            void = _("x voids the round · ") if self.floor is not None and self.floor.can_void() else ""
            return _("Refused on the floor by {account}: {reason}. The refusal stands: {void}Enter: a manager "
                     "overrides it (a reason, then their ID and PIN) · Esc backs out", account=state.by,
                     reason=state.reason, void=void)
        return _("{big} Waiting for the floor… (Enter: a supervisor signs in here instead) · Esc backs out", big=big)

    def _summary(self) -> str:
        changes = ", ".join(_("seat {seat} {change}", seat=s, change=signed(c))
                            for s, c in sorted(self.outcome.stack_changes.items()))
        pays = (_("The payments, in this order: {payments}", payments="; ".join(told(p) for p in self.payments))
                + "\n" if self.payments else "")
        returned = sum(chips.returned for chips in seat_chips(self.outcome.rows).values())
        back = _(" · stakes returned (not in the chips paid out): {returned}", returned=number(returned)) if returned else ""
        return f"{pays}{changes}\n{self.house_label} {signed(self.outcome.house)}{back}"

    def ordered_rows(self) -> list[SettlementRow]:
        """The rows in the order the rules settle the seats (`order`), each seat's bets together."""
        rank = {seat: i for i, seat in enumerate(self.order)}
        return sorted(self.outcome.rows, key=lambda r: rank.get(r.seat, len(rank)))

    def _show_rows(self) -> None:
        rows, seats = [], []
        for row in self.ordered_rows():
            label = told(bet_label(row.bet))
            result = signed(row.result) if row.result else (_("push") if row.bet not in banker_kinds() else "0")
            first = row.seat not in seats
            if first:
                seats.append(row.seat)
            cells = (str(row.seat), label, number(row.stake), result, told(row.reason))
            rows.append((f"{len(seats)}." if first else "", *cells) if self.order else cells)
        header: tuple[str, ...] = (_(self.seat_label), p_("column", "Bet"), _("Stake"), _("Result"), _("Why"))
        self.query_one(PayoutRows).show((_("Order"), *header) if self.order else header, rows,
                                        right=(3, 4) if self.order else (2, 3), visible=self._room_for_rows())
        self._show_why(0)
        self._show_position()

    def _room_for_rows(self) -> int:
        """The rows the terminal has room for under everything else the dialog shows, so that the
        total and the confirming keys stay on screen however many rows there are (the rest scroll).
        The why of the row under the cursor gets the lines its longest reason needs, as long as
        three rows stay in view; on a short terminal the big figure gives its three lines to the rows."""
        width, height = self.room()
        inner = max(1, min(width, max(60, width * 9 // 10)) - 4)  # .dialog: 90%, min 60; border and padding
        def lines(widget_id: str) -> int:
            widget = self.query_one(widget_id, Static)
            return int(widget.get_content_height(Size(inner, height), Size(width, height), inner))
        digits = self.query_one("#payout-digits", Digits)
        fixed = 2 + 2 + lines("#payout-total-label") + lines("#payout-summary") + lines("#payout-hint")
        wanted = max((len(textwrap.wrap(self._why_text(row), max(1, inner - 2))) for row in self.ordered_rows()),
                     default=1)
        why = max(2, min(wanted, height - fixed - min(len(self.outcome.rows), 3) - 1))
        self.query_one("#payout-why", Static).styles.height = why
        fixed += why
        show_digits = height - fixed - 3 >= min(len(self.outcome.rows), 6) + 1
        digits.display = show_digits
        label = self._total_label() if show_digits else f"{self._total_label()}: {number(self.outcome.paid)}"
        if label != self._shown_label:  # the figure in words when not drawn big
            self._shown_label = label
            self.query_one("#payout-total-label", Static).update(label)
        return max(1, height - fixed - (3 if show_digits else 0) - 1)

    def on_resize(self) -> None:
        self.query_one(PayoutRows).fit(self._room_for_rows())
        self._show_position()

    def on_mount(self) -> None:
        self._poller = self.set_interval(POLL_SECONDS, self._poll, pause=True)

    def opened(self) -> None:
        self._show_rows()
        self.query_one(PayoutRows).focus()
        if self.floor is not None:
            self._poller.resume()

    def put_away(self) -> None:
        self._poller.pause()

    def _poll(self) -> None:
        """The floor decides on another terminal: show its decision as soon as it is recorded."""
        state = self.floor.state() if self.floor is not None else None
        if self.floor is None or not isinstance(state, SignOffRequested):
            return
        try:
            arrived = self.floor.refresh()
        except LedgerError:
            return
        if arrived:
            self._show_state()

    def _show_state(self, problem: str = "") -> None:
        self.query_one("#payout-hint", Static).update(f"{problem} · {self._hint()}" if problem else self._hint())
        self.refresh_bindings()
        self.keys_changed()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        state = self.floor.state() if self.floor is not None else None
        if action == "send_to_floor":
            return self.floor is not None and state is None
        if action == "rekey":
            return self.can_rekey
        if action == "void":
            return self.floor is not None and isinstance(state, SignOffRefused) and self.floor.can_void()
        return True

    def on_key(self, event: events.Key) -> None:
        """A key of this screen pressed when it does nothing now: say why in the hint line."""
        refused = self.key_refusal(event.key)
        if refused is not None:
            self._show_state(refused)
            event.stop()
            event.prevent_default()

    def key_refusal(self, pressed: str) -> str | None:
        """Why the key `pressed` does nothing now (None: it acts, or it is not one of this screen's)."""
        if pressed == "F":  # the table's key, shown under the dialog
            return _("F: the floor review opens from the table; Esc backs out of the payout first (nothing is paid)")
        if pressed == "p":  # the table's key: the payout is this screen
            return _("p: this is the payout; Enter confirms it, Esc backs out to the table (nothing is paid)")
        action = next((b.action for b in self.BINDINGS if isinstance(b, Binding) and b.key == pressed), None)
        if action is None or self.check_action(action, ()):
            return None
        state = self.floor.state() if self.floor is not None else None
        if action == "send_to_floor":
            if not self.sign_off:
                return _("r: nothing to send to the floor, no seat is paid {threshold} or more",
                         threshold=number(self.threshold))
            if self.floor is None:
                return _("r: this table sends nothing to a floor; a supervisor signs in here")
            if isinstance(state, SignOffRequested):
                return _("r: it is already waiting for the floor")
            if isinstance(state, SignOffApproved):
                return _("r: the floor ({account}) already approved it", account=state.by)
            if isinstance(state, SignOffRefused):
                return _("r: not sent again, {why}", why=told(refusal_stands(state, self.floor.can_void())))
        if action == "void":
            if not isinstance(state, SignOffRefused) or self.floor is None:
                return _("x voids a payout the floor refused; Esc backs out to the round's own keys")
            return _("x: {why}", why=self.floor.why_no_void())
        if action == "rekey":
            return _("k corrects keyed cards of a live table before the payout; this payout has none to correct")
        return None

    def action_send_to_floor(self) -> None:
        if self.floor is None:
            return
        try:
            self.floor.send()
        except (RulesError, LedgerError) as exc:
            self._show_state(_("Not sent to the floor: {problem}", problem=told_error(exc)))
            return
        self._show_state()

    def action_void(self) -> None:
        self.dismiss(VOID)

    def action_rekey(self) -> None:
        if self.can_rekey:
            self.dismiss(REKEY_CARDS)

    def on_payout_rows_highlighted(self, event: PayoutRows.Highlighted) -> None:
        self._show_why(event.row)
        self._show_position()

    def _show_position(self) -> None:
        """The title says which rows are on show when not all of them are (the rest scroll)."""
        rows = self.query_one(PayoutRows)
        first, last = rows.in_sight()
        total = len(rows.rows)
        title = (_("Payout — rows {first}–{last} of {total} (↑↓ scrolls)", first=first, last=last, total=total)
                 if last - first + 1 < total else _("Payout"))
        if title != self._shown_title:
            self._shown_title = title
            self.query_one("#payout-title", FittedStatic).update(title)

    def _why_text(self, row: SettlementRow) -> str:
        return f"{_(self.seat_label)} {row.seat}: {told(row.reason)}"

    def _show_why(self, index: int) -> None:
        rows = self.ordered_rows()
        self.query_one("#payout-why", Static).update(self._why_text(rows[index]) if 0 <= index < len(rows) else "")

    def action_confirm(self) -> None:
        if self.tray_short:
            self._show_state(_("Not paid"))
            return
        self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(False)
