"""Changes to the table between hands, from the round screen: seat a player, buy chips, cash out,
and a change of profile approved by the supervisor (C-8)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from dealer_tui.ledger.base import LedgerError
from dealer_tui.screens.amount_modal import AmountField
from dealer_tui.screens.choice_modal import ChoiceModal
from dealer_tui.screens.reason_modal import ReasonModal
from dealer_tui.widgets.table_info import TableInfo
from rules.errors import RulesError
from rules.profiles.loader import LoadedProfile

if TYPE_CHECKING:
    from dealer_tui.rounds.table import Table


class TableChanges:
    """A base of `RoundScreen`, which provides `tell`, `ask`, `ask_amounts`, `with_supervisor` and
    `refresh_view`: the steps a dealer takes between hands."""

    table: Table
    selected: int | None

    def _table_step(self, step: Callable[[], None], done: str) -> None:
        try:
            step()
        except (RulesError, LedgerError) as exc:
            self.tell(str(exc), severity="error")
        else:
            self.tell(done)
        self.refresh_view()

    def action_join(self) -> None:
        session = self.table.session
        free = [s for s in range(1, session.seat_count + 1) if s not in session.players]
        seat = self.selected if self.selected in free else (free[0] if free else None)
        if seat is None:
            return
        buy_in = self.table.profile.profile.buy_in

        def named(name: str | None) -> None:
            if name:
                self.ask_amounts(f"Seat {seat}: {name}'s buy-in", [AmountField("chips", "Buy-in", buy_in.min, buy_in.max, None)],
                                 lambda v: self._table_step(lambda: self.table.seat_player(seat, name, v["chips"]),
                                                            f"{name} sits at seat {seat} with {v['chips']}"))

        self.ask(ReasonModal(f"Seat {seat}: the player's name", "name", "A name is needed."), named)

    def _chosen_player(self) -> int | None:
        players = self.table.session.players
        if self.selected in players:
            return self.selected
        self.tell("Pick the player's seat first: type its number.", severity="warning")
        return None

    def action_more_chips(self) -> None:
        seat = self._chosen_player()
        if seat is None:
            return
        buy_in = self.table.profile.profile.buy_in
        self.ask_amounts(f"Seat {seat}: buy chips", [AmountField("chips", "Chips", buy_in.min, buy_in.max, None)],
                         lambda v: self._table_step(lambda: self.table.buy_chips(seat, v["chips"]),
                                                    f"Seat {seat} buys {v['chips']}"))

    def action_leave(self) -> None:
        seat = self._chosen_player()
        if seat is None:
            return
        player = self.table.session.players[seat]

        def answered(choice: str | None) -> None:
            if choice == "y":
                self._table_step(lambda: self.table.leave(seat), f"{player.name} cashes out {player.stack}")
                self.selected = None

        self.ask(ChoiceModal(f"Seat {seat} ({player.name}) cashes out {player.stack} and leaves?",
                                         [("y", "yes, cash out"), ("n", "no")]), answered)

    def action_change_profile(self) -> None:
        """C-8: another profile for this game, approved by the supervisor, with a reason."""
        app_library = getattr(self.app, "library", None)
        if app_library is None:
            return
        names = [n for n in app_library.names(self.table.record.game) if n != self.table.profile.name][:9]
        if not names:
            self.tell("No other profile for this game: add one to the profiles directory.", severity="warning")
            return

        def picked(choice: str | None) -> None:
            if choice is None:
                return
            loaded = app_library.find(names[int(choice) - 1])
            self.with_supervisor(f"change the profile to {loaded.name}", lambda who: self.ask(
                ReasonModal(f"Change to {loaded.name}: why?", "e.g. new limits posted by the floor"),
                lambda reason: self._change(loaded, reason, who)))

        choices = [(str(i), name) for i, name in enumerate(names, start=1)]
        self.ask(ChoiceModal(f"Profile for the next round (now {self.table.profile.name})", choices),
                             picked)

    def _change(self, loaded: LoadedProfile, reason: str | None, supervisor: str) -> None:
        if not reason:
            return
        try:
            self.table.change_profile(loaded, reason, supervisor)
        except (RulesError, LedgerError) as exc:
            self.tell(str(exc), severity="error")
            return
        self.title = f"{self.table.record.name} — {loaded.profile.title}"
        self.query_one(TableInfo).show(loaded, self.presenter.LIMITS)
        self.tell(f"Profile {loaded.name} from the next round.")
        self.refresh_view()

