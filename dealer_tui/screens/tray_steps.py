"""The tray from the round screen, between hands: the opener and the closer counted by
denomination, fills and credits on the cage's slip — each signed by the dealer on duty and a
supervisor — colour-ups at a seat, and how a buy-in is paid once the shift's tray is counted."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from dealer_tui.events.accounting import CASH, MARKER, chips_total
from dealer_tui.events.table import marker_purpose
from dealer_tui.language import _, number, told, told_error
from dealer_tui.ledger.base import LedgerError
from dealer_tui.rounds.table import table_called
from dealer_tui.rounds.table_money import MARKER_SIGNED, Marker
from dealer_tui.rounds.tray import chip_said, describe_chips, the_tray_word
from dealer_tui.screens.amount_dialog import AmountDialog, AmountField
from dealer_tui.screens.choice_dialog import ChoiceDialog
from dealer_tui.screens.reason_dialog import ReasonDialog
from dealer_tui.screens.sign_in_modal import SignInModal
from dealer_tui.staff import DEAL, TRAY, Approval, Purpose
from dealer_tui.views import key
from rules.errors import RulesError
from rules.profiles.base import MAX_CHIP_COUNT
from rules.said import Said, say

if TYPE_CHECKING:
    from dealer_tui.screens.round_screen import RoundScreen

Chips = dict[str, int]


class TraySteps:
    """The round screen's tray steps, asked and told on the screen they belong to."""

    def __init__(self, screen: RoundScreen[Any]) -> None:
        self.screen = screen

    # -- what the tray shows -------------------------------------------------------------------

    def tray_line(self) -> str:
        screen = self.screen
        shift = screen.table.tray.shift
        if shift is None:
            return screen.with_keys(_("Tray: no shift ({tray}: opener)", tray=key("tray")))
        return _("Shift {shift} · tray {expected}", shift=shift.number, expected=number(shift.expected))

    # -- the steps -------------------------------------------------------------------------------

    def tray(self) -> None:
        screen = self.screen
        tray = screen.table.tray
        if screen.table.session.dealer is None:
            screen.tell(_("The tray is counted with the dealer on duty: a dealer signs in first."), severity="warning")
            return
        if tray.shift is None:
            choices = [("o", _("count the opener (the shift begins)"))]
        else:
            choices = [("f", _("a fill from the cage")), ("c", _("a credit to the cage"))]
            if screen.selected in screen.table.session.players:
                choices.append(("u", _("colour up seat {seat}'s chips", seat=screen.selected)))
            if screen.table.session.players:
                charge = screen.table.profile.profile.time_charge
                if charge:
                    choices.append(("t", _("collect time ({charge} from each seated player)", charge=number(charge))))
            choices.append(("z", _("count the closer (shift {shift} ends)", shift=tray.shift.number)))

        def chosen(choice: str | None) -> None:
            steps: dict[str, Callable[[], None]] = {"o": lambda: self._count("opener"),
                                                    "z": lambda: self._count("closer"),
                                                    "f": lambda: self._transfer("fill"),
                                                    "c": lambda: self._transfer("credit"),
                                                    "u": self._colour_up,
                                                    "t": self._collect_time}
            if choice in steps:
                steps[choice]()

        question = (_("The tray (no shift open)") if tray.shift is None else
                    _("The tray (shift {shift}, {expected} expected)", shift=tray.shift.number,
                      expected=number(tray.shift.expected)))
        screen.ask(ChoiceDialog(question, choices), chosen)

    def _chip_fields(self, defaults: Chips | None = None) -> list[AmountField]:
        chip_set = self.screen.table.profile.profile.chip_set()
        return [AmountField(str(c.value), told(chip_said(c)), 0, MAX_CHIP_COUNT,
                            (defaults or {}).get(str(c.value)), optional=True, bounds_shown=False) for c in chip_set]

    @staticmethod
    def problem(step: Callable[[], object]) -> str | None:
        """What the table says against a step checked before anyone signs (None: it stands)."""
        try:
            step()
        except RulesError as exc:
            return told_error(exc)
        return None

    def _signed(self, what: Said, then: Callable[[Approval, Approval], None], signs: str = "") -> None:
        """The dealer on duty signs (PIN), then a supervisor witnesses (ID and PIN), both signing the
        step's figures `signs`."""
        screen = self.screen
        table = screen.table
        on_duty = table.session.dealer
        where = table_called(table.record.name)
        if on_duty is None:
            return

        def dealer_signed(dealer: Approval | None) -> None:
            if dealer is None:
                return

            def supervisor_signed(supervisor: Approval | None) -> None:
                if supervisor is not None:
                    then(dealer, supervisor)

            screen.show(SignInModal(screen.desk, Purpose(TRAY, say("witness {what} at {table}", what=what, table=where), table.record.id,
                                                         signs=signs),
                                    check=table.money.witness_problem, account_check=table.money.witness_account_problem,
                                    hint=say("A supervisor or a manager other than the dealer witnesses it with their "
                                             "own ID and PIN.")), supervisor_signed)

        screen.show(SignInModal(screen.desk, Purpose(DEAL, say("confirm {what} at {table}", what=what, table=where), table.record.id,
                                                signs=signs),
                                account=on_duty.account,
                                hint=say("The dealer on duty, {name}, signs with their PIN.", name=on_duty.name)),
                    dealer_signed)

    def _tray_step(self, step: Callable[[], None], done: Callable[[], str]) -> None:
        screen = self.screen
        try:
            step()
        except (RulesError, LedgerError) as exc:
            if not screen.ledger_fault(exc, lambda: self._tray_step(step, done)):
                screen.tell(told_error(exc), severity="error")
        else:
            screen.tell(done())
        screen.refresh_view()

    def _count(self, count: str) -> None:
        screen = self.screen
        table = screen.table
        shift = table.tray.shift
        title = (_("Opener: count the tray, chips of each colour") if count == "opener" else
                 _("Closer: count the tray at the end of shift {shift}, chips of each colour",
                   shift=shift.number if shift else ""))

        def counted(chips: Chips | None) -> None:
            if chips is None:
                return
            total = chips_total(chips)

            def record(dealer: Approval, supervisor: Approval) -> None:
                if count == "opener":
                    last = table.tray.shifts[-1].closer if table.tray.shifts else None
                    self._tray_step(lambda: table.money.open_shift(chips, dealer, supervisor),
                                      lambda: self._opener_said(total, table.tray.shifts[-1].number, last))
                else:
                    expected = shift.expected if shift else 0
                    self._tray_step(lambda: table.money.close_shift(chips, dealer, supervisor),
                                      lambda: self._closer_said(total, expected))

            self._signed(say("{what} of {total:,}", what=the_tray_word(count), total=total), record,
                         table.money.count_figures(count, chips))

        screen.ask(AmountDialog(title, self._chip_fields(),
                               lambda v: self.problem(lambda: table.money.check_count(count, v)), enter_moves=True),
                   counted)

    @staticmethod
    def _opener_said(total: int, shift: int, last: int | None) -> str:
        if last is None or last == total:
            return _("Opener {total} counted: shift {shift} is open.", total=number(total), shift=shift)
        figures = {"total": number(total), "shift": shift, "diff": number(abs(total - last)), "last": number(last)}
        if total > last:
            return _("Opener {total} counted: shift {shift} is open. It is {diff} over the last closer ({last}): the "
                     "floor sees the difference.", **figures)
        return _("Opener {total} counted: shift {shift} is open. It is {diff} under the last closer ({last}): the "
                 "floor sees the difference.", **figures)

    @staticmethod
    def _closer_said(total: int, expected: int) -> str:
        diff = total - expected
        if not diff:
            return _("Closer {total} counted, as expected: the shift is closed.", total=number(total))
        figures = {"total": number(total), "diff": number(abs(diff)), "expected": number(expected)}
        if diff > 0:
            return _("Closer {total} counted, {diff} over against the expected {expected}: the shift is closed; the "
                     "floor sees the difference.", **figures)
        return _("Closer {total} counted, {diff} short against the expected {expected}: the shift is closed; the "
                 "floor sees the difference.", **figures)

    def _transfer(self, what: str) -> None:
        screen = self.screen
        table = screen.table

        def slipped(slip: str | None) -> None:
            if not slip:
                return
            problem = self.problem(lambda: table.money.check_slip(what, slip))
            if problem is not None:
                screen.tell(problem, severity="error")
                return

            def counted(chips: Chips | None) -> None:
                if chips is None:
                    return
                total = chips_total(chips)
                step = table.money.fill if what == "fill" else table.money.credit

                def done() -> str:
                    figures = {"total": number(total), "slip": slip.strip(),
                               "expected": number(table.tray.shift.expected if table.tray.shift else 0)}
                    if what == "fill":
                        return _("Fill {total} on slip {slip}: the tray holds {expected} expected.", **figures)
                    return _("Credit {total} on slip {slip}: the tray holds {expected} expected.", **figures)

                def record(dealer: Approval, supervisor: Approval) -> None:
                    self._tray_step(lambda: step(slip, chips, dealer, supervisor), done)

                self._signed(say("{what} of {total:,} (slip {slip})", what=the_tray_word(what), total=total,
                                 slip=slip.strip()), record,
                               table.money.transfer_figures(what, slip, chips))

            title = (_("Fill from the cage, slip {slip}: chips of each colour", slip=slip.strip()) if what == "fill" else
                     _("Credit to the cage, slip {slip}: chips of each colour", slip=slip.strip()))
            screen.ask(AmountDialog(title,
                                   self._chip_fields(),
                                   lambda v: self.problem(lambda: table.money.check_transfer(what, slip, v)),
                                   enter_moves=True), counted)

        screen.ask(ReasonDialog(_("A fill: the cage's slip number") if what == "fill" else
                                _("A credit: the cage's slip number"), _("slip number"), _("The slip number is needed."),
                               lambda slip: self.problem(lambda: table.money.check_slip(what, slip))), slipped)

    def _collect_time(self) -> None:
        screen = self.screen
        collected: list[int] = []
        self._tray_step(lambda: collected.append(screen.table.money.collect_time()),
                          lambda: _("Time collected: {chips} into the collection box.", chips=number(collected[-1])))

    def _colour_up(self) -> None:
        screen = self.screen
        table = screen.table
        seat = screen.changes.chosen_player()
        if seat is None:
            return

        def given(into: Chips | None) -> None:
            if into is None:
                return
            total = chips_total(into)
            try:
                back = table.money.suggested_chips(total)
            except RulesError as exc:
                screen.tell(told_error(exc), severity="error")
                return

            def returned(out: Chips | None) -> None:
                if out is not None:
                    chip_set = table.profile.profile.chip_set()
                    self._tray_step(lambda: table.money.colour_up(seat, into, out),
                                      lambda: _("Seat {seat} coloured up: {taken} for {given}.", seat=seat,
                                                taken=describe_chips(chip_set, into), given=describe_chips(chip_set, out)))

            screen.ask(AmountDialog(_("Seat {seat}: the chips given back for {total}", seat=seat, total=number(total)),
                                    self._chip_fields(back),
                                   lambda v: self.problem(lambda: table.money.check_colour_up(seat, into, v))),
                       returned)

        screen.ask(AmountDialog(_("Seat {seat}: the player's chips taken in", seat=seat), self._chip_fields(),
                               lambda v: self.problem(lambda: table.money.check_colour_up(seat, v)), enter_moves=True),
                   given)

    # -- buy-ins once the tray is counted --------------------------------------------------------

    def paid(self, title: str, amount: int, record: Callable[[str, Chips | None, str, Marker | None], None],
             cash_problem: Callable[[], str | None] | None = None) -> None:
        """How a buy-in of `amount` is paid: with no shift open, in cash with the chips the table
        gives (as before the tray was counted); else cash or marker, and the chips given. Cash that
        `cash_problem` says needs the player's ID asks for it first; a marker, its number and a
        supervisor's signature (ID and PIN). `record` takes the method, the chips, the ID given
        ("" for none) and the marker."""
        screen = self.screen
        table = screen.table

        def with_id(then: Callable[[str], None]) -> None:
            needs = cash_problem() if cash_problem is not None else None
            if needs is None:
                then("")
                return

            def identified(ident: str | None) -> None:
                if ident:
                    then(ident.strip())

            screen.ask(ReasonDialog(_("{needs}. The player's ID document (a loyalty card identifies nobody):",
                                      needs=told(needs)),
                                   _("kind and number: passport X1234567"),
                                   _("The ID document is needed: without it the cash is not taken."),
                                   lambda ident: self.problem(lambda: table.money.check_document(ident))), identified)

        if table.tray.shift is None:
            with_id(lambda ident: record(CASH, None, ident, None))
            return
        try:
            table.money.check_buy(amount, CASH, None)
        except RulesError as exc:
            # the chips given are asked next; any other refusal (the tray cannot give it, no dealer) is told
            # now, before the questions (the sentence's English names it, whatever the reader's language)
            if "chips given" not in str(exc.said):
                screen.tell(told_error(exc), severity="error")
                return

        def method(choice: str | None) -> None:
            if choice not in ("c", "m"):
                return
            try:
                suggested = table.money.suggested_chips(amount)
            except RulesError as exc:
                screen.tell(told_error(exc), severity="error")
                return
            paid_by = CASH if choice == "c" else MARKER

            def given_chips(ident: str, marker: Marker | None = None) -> None:
                def chips(given: Chips | None) -> None:
                    if given is not None:
                        record(paid_by, given, ident, marker)

                screen.ask(AmountDialog(_("{title}: the chips given for {amount}", title=title, amount=number(amount)),
                                        self._chip_fields(suggested),
                                       lambda v: self.problem(lambda: table.money.check_buy(amount, paid_by, v))), chips)

            if paid_by == MARKER:
                def numbered(number: str | None) -> None:
                    if not number:
                        return

                    def signed(approval: Approval | None) -> None:
                        if approval is not None:
                            given_chips("", Marker(number.strip(), approval))

                    screen.show(SignInModal(screen.desk, Purpose(TRAY, marker_purpose(number, amount), table.record.id),
                                            check=lambda who: table.money.witness_problem(who, MARKER_SIGNED),
                                            account_check=lambda account: table.money.witness_account_problem(
                                                account, MARKER_SIGNED),
                                            hint=_("A supervisor or a manager other than the dealer signs the marker "
                                                   "with their own ID and PIN.")), signed)

                screen.ask(ReasonDialog(_("{title}: the marker's number", title=title), _("marker number"),
                                        _("The marker's number is needed."),
                                       lambda number: self.problem(lambda: table.money.check_marker(number))), numbered)
                return

            with_id(given_chips)

        screen.ask(ChoiceDialog(_("{title}: {amount} paid by", title=title, amount=number(amount)),
                                [("c", _("cash (to the drop box)")), ("m", _("marker (credit; the slip to the drop box)"))]),
                   method)
