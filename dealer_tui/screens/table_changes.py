"""Changes to the table between hands, from the round screen: seat a player, buy chips, cash out,
and a change of profile approved by the supervisor (C-8)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from dealer_tui.events.accounting import MARKER
from dealer_tui.language import _, number, told, told_error
from dealer_tui.ledger.base import LedgerError
from dealer_tui.rounds.cash import OUT
from dealer_tui.screens.amount_dialog import AmountField
from dealer_tui.screens.choice_dialog import ChoiceDialog
from dealer_tui.screens.reason_dialog import ReasonDialog
from dealer_tui.staff import CHANGE_PROFILE, DEAL, Approval
from dealer_tui.views import key
from rules.errors import RulesError
from rules.profiles.loader import LoadedProfile
from rules.said import say

if TYPE_CHECKING:
    from dealer_tui.rounds.table_money import Marker
    from dealer_tui.screens.round_screen import RoundScreen


def _seated(name: str, seat: int, chips: int, method: str, counted: bool) -> str:
    """A player seated with a buy-in of `chips`, paid by marker or in cash (`counted`: the tray is)."""
    if method == MARKER:
        return _("{name} sits at seat {seat} with {chips} by marker", name=name, seat=seat, chips=number(chips))
    if counted:
        return _("{name} sits at seat {seat} with {chips} in cash", name=name, seat=seat, chips=number(chips))
    return _("{name} sits at seat {seat} with {chips} in cash (no shift open: the tray is not counted)", name=name,
             seat=seat, chips=number(chips))


def _bought(seat: int, chips: int, method: str, counted: bool) -> str:
    """A seat's player buys `chips`, paid by marker or in cash (`counted`: the tray is)."""
    if method == MARKER:
        return _("Seat {seat} buys {chips} by marker", seat=seat, chips=number(chips))
    if counted:
        return _("Seat {seat} buys {chips} in cash", seat=seat, chips=number(chips))
    return _("Seat {seat} buys {chips} in cash (no shift open: the tray is not counted)", seat=seat,
             chips=number(chips))


class TableChanges:
    """The round screen's steps taken between hands (seats, chips, the profile, the dealer on
    duty), each asked and told on the screen it belongs to."""

    def __init__(self, screen: RoundScreen[Any]) -> None:
        self.screen = screen

    def _table_step(self, step: Callable[[], None], done: str) -> None:
        screen = self.screen
        try:
            step()
        except (RulesError, LedgerError) as exc:
            if not screen.ledger_fault(exc, lambda: self._table_step(step, done)):  # storage: retry
                screen.tell(told_error(exc), severity="error")
        else:
            screen.tell(done)
        screen.refresh_view()

    def join(self) -> None:
        screen = self.screen
        session = screen.table.session
        free = [s for s in range(1, session.seat_count + 1) if s not in session.players]
        seat = screen.selected if screen.selected in free else (free[0] if free else None)
        if seat is None:
            return
        if (closed := screen.table.tray.kept_problem(say("player sits down"))) is not None:
            screen.tell(closed, severity="warning")
            return
        buy_in = screen.table.profile.profile.buy_in

        def named(given: str | None) -> None:
            if given:
                name, _hash, card = given.partition("#")  # "Ann Lee #LC-1234": the loyalty card after the #
                name = name.strip() or given
                title = _("Seat {seat}: {name}'s buy-in", seat=seat, name=name)
                screen.ask_amounts(title, [AmountField("chips", _("Buy-in"), buy_in.min, buy_in.max, None)],
                                   lambda v: screen.tray_steps.paid(title, v["chips"], lambda method, chips, ident, marker: self._table_step(
                                       lambda: screen.table.seat_player(seat, name, v["chips"], method, chips,
                                                                        card.strip(), marker, ident),
                                       _seated(name, seat, v["chips"], method, chips is not None)),
                                       lambda: screen.table.money.ctr_problem(name, card.strip(), seat, v["chips"])),
                                   lambda v: screen.tray_steps.problem(lambda: screen.table.check_seating(seat, name, v["chips"])))

        screen.ask(ReasonDialog(_("Seat {seat}: the player's name (a loyalty card after #: Ann Lee #12345)", seat=seat),
                                _("name"), _("A name is needed.")), named)

    def chosen_player(self) -> int | None:
        screen = self.screen
        players = screen.table.session.players
        if screen.selected in players:
            return screen.selected
        if screen.selected is not None:
            screen.tell(_("Seat {seat} is empty: pick a player's seat (type its number).", seat=screen.selected),
                        severity="warning")
            return None
        screen.tell(_("Pick the player's seat first: type its number."), severity="warning")
        return None

    def more_chips(self) -> None:
        screen = self.screen
        seat = self.chosen_player()
        if seat is None:
            return
        if (closed := screen.table.tray.kept_problem(say("chips are sold"))) is not None:
            screen.tell(closed, severity="warning")
            return
        buy_in = screen.table.profile.profile.buy_in
        title = _("Seat {seat}: buy chips", seat=seat)
        player = screen.table.session.players[seat]

        def bought(amount: int, method: str, chips: dict[str, int] | None, ident: str, marker: Marker | None) -> None:
            if ident:
                screen.table.money.identify(seat, ident)
            screen.table.buy_chips(seat, amount, method, chips, marker)

        screen.ask_amounts(title, [AmountField("chips", _("Chips"), buy_in.min, buy_in.max, None)],
                           lambda v: screen.tray_steps.paid(title, v["chips"], lambda method, chips, ident, marker: self._table_step(
                               lambda: bought(v["chips"], method, chips, ident, marker),
                               _bought(seat, v["chips"], method, chips is not None)),
                               lambda: screen.table.money.ctr_problem(player.name, player.card, seat, v["chips"],
                                                                document=player.document)),
                           lambda v: screen.tray_steps.problem(lambda: screen.table.check_buying(seat, v["chips"])))

    def identify(self) -> None:
        """The picked seat's player shows an ID document: its kind and number recorded against the seat."""
        screen = self.screen
        seat = self.chosen_player()
        if seat is None:
            return
        self.ask_document(seat, _("Seat {seat} ({name}): the ID document shown", seat=seat,
                                  name=screen.table.session.players[seat].name), lambda: None)

    def ask_document(self, seat: int, title: str, then: Callable[[], None]) -> None:
        """The seat's player's ID document (kind and number) asked for and recorded, then `then`."""
        screen = self.screen
        player = screen.table.session.players[seat]

        def given(document: str | None) -> None:
            if document:
                self._table_step(lambda: screen.table.money.identify(seat, document),
                                   _("Seat {seat} ({name}) identified: {document}", seat=seat, name=player.name,
                                     document=" ".join(document.split())))
                if screen.table.session.players[seat].document:
                    then()

        screen.ask(ReasonDialog(title, _("kind and number: passport X1234567"), _("The ID document is needed."),
                               lambda text: screen.tray_steps.problem(lambda: screen.table.money.check_document(text))), given)

    def sit_out(self) -> None:
        """The picked seat's player sits out from the next round, keeping the seat, or comes back."""
        screen = self.screen
        seat = self.chosen_player()
        if seat is None:
            return
        player = screen.table.session.players[seat]
        away = not player.away
        self._table_step(lambda: screen.table.sit_out(seat, away),
                         _("Seat {seat} ({name}) sits out from the next round", seat=seat, name=player.name) if away
                         else _("Seat {seat} ({name}) comes back in from the next round", seat=seat, name=player.name))

    def leave(self) -> None:
        screen = self.screen
        seat = self.chosen_player()
        if seat is None:
            return
        player = screen.table.session.players[seat]

        def leave() -> None:
            self._table_step(lambda: screen.table.leave(seat),
                             _("{name} cashes out {stack}", name=player.name, stack=number(player.stack)))
            screen.selected = None

        def answered(choice: str | None) -> None:
            if choice != "y":
                return
            needs = screen.table.money.ctr_problem(player.name, player.card, seat, player.stack, OUT, player.document)
            if needs is None:
                leave()
            else:
                self.ask_document(seat, _("{needs}. {name}'s ID document, before the cash-out:", needs=told(needs),
                                          name=player.name), leave)

        screen.ask(ChoiceDialog(_("Seat {seat} ({name}) cashes out {stack} and leaves?", seat=seat, name=player.name,
                                  stack=number(player.stack)),
                                [("y", _("yes, cash out")), ("n", _("no"))]), answered)

    def change_profile(self) -> None:
        """C-8: another profile for this game, approved by the supervisor, with a reason."""
        screen = self.screen
        app_library = getattr(screen.app, "library", None)
        if app_library is None:
            return
        names = [n for n in app_library.names(screen.table.record.game) if n != screen.table.profile.name][:9]
        if not names:
            screen.tell(_("No other profile for this game: add one to the profiles directory."), severity="warning")
            return

        def picked(choice: str | None) -> None:
            if choice is None:
                return
            loaded = app_library.find(names[int(choice) - 1])
            screen.signed_steps.with_staff(CHANGE_PROFILE, say("change the profile to {profile}", profile=loaded.name), lambda who: screen.ask(
                ReasonDialog(_("Change to {profile}: why?", profile=loaded.name), _("e.g. new limits posted by the floor")),
                lambda reason: self._change(loaded, reason, who)), for_round=False)

        choices = [(str(i), name) for i, name in enumerate(names, start=1)]
        screen.ask(ChoiceDialog(_("Profile for the next round (now {profile})", profile=screen.table.profile.name), choices),
                   picked)

    def _change(self, loaded: LoadedProfile, reason: str | None, supervisor: Approval) -> None:
        screen = self.screen
        if not reason:
            return
        try:
            screen.table.change_profile(loaded, reason, supervisor)
        except (RulesError, LedgerError) as exc:
            screen.tell(told_error(exc), severity="error")
            return
        screen.show_profile(loaded)
        screen.tell(_("Profile {profile} from the next round.", profile=loaded.name))
        screen.refresh_view()

    def dealer(self) -> None:
        """A dealer signs in (a dealer change: the one on duty is signed out by it), or the one on
        duty signs out for a break."""
        screen = self.screen
        on_duty = screen.table.session.dealer

        def signed_in(approval: Approval) -> None:
            try:
                screen.table.sign_in_dealer(approval)
            except (RulesError, LedgerError) as exc:
                if not screen.ledger_fault(exc, self.dealer):
                    screen.tell(told_error(exc), severity="error")
            else:
                screen.tell(_("{dealer} deals at this table now.", dealer=approval.describe()))
            screen.refresh_view()

        if on_duty is None:
            screen.signed_steps.with_staff(DEAL, say("deal"), signed_in, for_round=False)
            return

        def chosen(choice: str | None) -> None:
            if choice == "c":
                screen.signed_steps.with_staff(DEAL, say("deal"), signed_in, for_round=False)
            elif choice == "o":
                try:
                    screen.table.sign_out_dealer(say("signed out at the table"))
                except (RulesError, LedgerError) as exc:
                    if not screen.ledger_fault(exc, self.dealer):
                        screen.tell(told_error(exc), severity="error")
                else:
                    screen.tell(screen.with_keys(_("{name} ({account}) signed out: the next dealer signs in with {dealer}.",
                                                   name=on_duty.name, account=on_duty.account, dealer=key("dealer"))))
                screen.refresh_view()

        screen.ask(ChoiceDialog(_("{name} ({account}) deals at this table.", name=on_duty.name, account=on_duty.account),
                                [("c", _("another dealer signs in (dealer change)")),
                                 ("o", _("sign out (a break): no round starts until a dealer signs in"))]), chosen)
