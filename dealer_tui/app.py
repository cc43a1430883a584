"""The dealer's terminal: resumes the table (and an unfinished round) from the ledger, or sets
up a new one; then the game's round screen."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from dealer_tui.events.table import TableOpened
from dealer_tui.games import GAMES
from dealer_tui.language import N_, _, n_, told, told_error
from dealer_tui.ledger import LedgerError, SqliteLedger, TableLedger
from dealer_tui.ledger.base import HEARTBEAT_S, LeaseLost, StorageError, TableInUse
from dealer_tui.ledger.witness import Witness
from dealer_tui.paths import save_pit
from dealer_tui.rounds.base import Phase
from dealer_tui.rounds.cards import CardSource, source_for
from dealer_tui.rounds.cash import training_table
from dealer_tui.rounds.table import CLOSED, Table, table_called
from dealer_tui.rounds.table_money import TableMoney
from dealer_tui.rounds.table_profiles import current_profile
from dealer_tui.screens.choice_dialog import ChoiceDialog
from dealer_tui.screens.dialog import DialogScreen, ask_over
from dealer_tui.screens.key_order import OrderedKeysApp
from dealer_tui.screens.registry import round_screen
from dealer_tui.screens.round_screen import RoundScreen
from dealer_tui.screens.setup_screen import (
    KnownTable,
    ResumeTable,
    SetupResult,
    SetupScreen,
    StartingPlayer,
)
from dealer_tui.screens.sign_in_modal import SignInModal
from dealer_tui.screens.wording import sentence
from dealer_tui.staff import FLOOR, Approval, Purpose, StaffDesk, StaffError

if TYPE_CHECKING:
    from dealer_tui.pit.delivery import DeliveryThread
from rules.errors import RulesError
from rules.profiles.loader import ProfileLibrary
from rules.said import say


@dataclass(frozen=True)
class Options:
    """What the command line answered before the app starts."""

    game: str | None = None
    profile: str | None = None
    seats: int | None = None
    seed: int | None = None
    new_table: bool = False
    cards: str | None = None
    """Where a new table's cards come from: "shoe" or "entry" (keyed physical cards)."""


class DealerApp(OrderedKeysApp):
    TITLE = "Dealer terminal"
    BINDINGS = [Binding("ctrl+q", "quit", N_("Quit"), priority=True)]

    def __init__(self, ledger: TableLedger, library: ProfileLibrary, options: Options,
                 link: DeliveryThread | None = None) -> None:
        super().__init__()
        self.ledger, self.library, self.options = ledger, library, options
        self.games = GAMES
        """The games this terminal deals (every game of this build)."""
        self.link = link
        """The delivery to the pit server (`--pit`), if any: its state is shown beside the round."""
        self.link_status = ""
        self.staff = StaffDesk(ledger)
        self.table: Table | None = None
        self._settled_in = False

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """The command palette lists the keys legal now, then the app's own commands."""
        if isinstance(screen, RoundScreen):
            for binding in screen.active_keys():
                yield SystemCommand(_(binding.description), _("key {key}", key=self.get_key_display(binding)),
                                    partial(screen.run_action, binding.action))
            yield SystemCommand(_("New table"), _("Set up another table (the current one stays in the ledger)"),
                                self.setup)
        if isinstance(screen, (RoundScreen, SetupScreen)):
            yield SystemCommand(_("Staff accounts"), _("A manager adds, changes and disables the staff (with their PIN)"),
                                self.open_staff)
        yield from super().get_system_commands(screen)  # Textual's own, in the reader's language

    def open_staff(self, account: str = "", then: Callable[[], None] | None = None) -> None:
        """The staff accounts, once a manager has signed in with their PIN for it; `then` once they close."""
        from dealer_tui.screens.staff_screen import PURPOSE, StaffScreen

        def done(_: object = None) -> None:
            if then is not None:
                then()
        if self.staff.register().attached:
            self.notify(_("This terminal's staff come from its pit server: a manager changes them there "
                          "(`dealer-tui staff ... --ledger postgresql://...`)."), severity="warning", timeout=10)
            done()
            return

        def signed_in(approval: Approval | None) -> None:
            if approval is None:
                done()
                return
            self.push_screen(StaffScreen(self.staff, approval), done)
        self.push_screen(SignInModal(self.staff, PURPOSE, account), signed_in)

    def source(self, kind: str = "shoe") -> CardSource:
        return source_for(kind, self.options.seed)

    async def action_quit(self) -> None:
        """Quitting during a hand asks first (the hand comes back where it stopped on the next start)."""
        rnd = self.table.round if self.table is not None else None
        if rnd is None or rnd.phase in (Phase.DONE, Phase.VOID) or isinstance(self.screen, DialogScreen):
            self.exit()
            return

        def answered(choice: str | None) -> None:
            if choice == "y":
                self.exit()

        ask_over(self, ChoiceDialog(_("Round {number} is in the {phase}: quit the terminal? The round comes back "
                                     "where it stopped when the terminal starts again.",
                                     number=self.table.session.rounds_started if self.table else 0,
                                     phase=told(rnd.phase.named)),
                                   [("y", _("yes, quit")), ("n", _("no, back to the table"))]), answered)

    def on_mount(self) -> None:
        self.set_interval(HEARTBEAT_S, self.heartbeat)
        self.set_interval(1.0, self.show_link)
        if self.link is not None and self.staff.register().untouched():
            self.staff_from_pit()  # a new terminal of the pit: the pit's staff first
            return
        if self.link is not None:
            self.link.start()
        self.start()

    def staff_from_pit(self) -> None:
        """A new terminal's staff are the pit's: received before anything else, once a manager of the
        pit has confirmed the pit's key here. A pit server that cannot be reached is said, with the
        choice to try again, to make a first manager of the terminal's own anyway, or to quit."""
        assert self.link is not None
        try:
            self.link.delivery.receive_staff()
            if self.link.delivery.unbound and not self.staff.register().has_accounts():
                self.bind_to_pit()
                return
        except LedgerError as exc:
            def chosen(choice: str | None) -> None:
                if choice == "r":
                    self.staff_from_pit()
                elif choice == "l" and self.link is not None:
                    self.link.start()
                    self.start()
                else:
                    self.exit()

            here = _("make a first manager here (the pit's staff join once the server is reached)")
            ask_over(self, ChoiceDialog(_("This terminal's staff come from its pit server, which cannot be reached: "
                                          "{problem}.", problem=told_error(exc)),
                                        [("r", _("try again")), ("l", here), ("q", _("quit"))]), chosen)
            return
        self.link.start()
        self.start()

    def bind_to_pit(self) -> None:
        """The pit's key shown, for a manager of the pit to compare with the one the pit shows and
        confirm with their ID and PIN; then the pit's staff are received."""
        from dealer_tui.ledger.base import key_fingerprint
        from dealer_tui.ledger.postgres import PgLedger, shown, unsealer
        from dealer_tui.staff import MANAGE, StaffRegister

        assert self.link is not None
        url = self.link.delivery.conninfo
        pit = PgLedger(url)
        try:
            key, register = pit.pit_key(), StaffRegister.read(pit)
        finally:
            pit.close()
        if not key:
            ask_over(self, ChoiceDialog(_("The pit server {server} has no key: its owner runs `dealer-tui pit init` "
                                          "again to make one.", server=shown(url)),
                                        [("r", _("try again")), ("q", _("quit"))]),
                           lambda choice: self.staff_from_pit() if choice == "r" else self.exit())
            return
        fingerprint = key_fingerprint(key)
        what = say("bind this terminal to pit {key}", key=fingerprint)
        terminal_key = self.link.delivery.terminal_key()

        def confirmed(approval: Approval | None) -> None:
            if approval is None:
                self.staff_from_pit()  # the key shown again
                return
            binding = self.staff.register().binding
            try:
                if binding is None or binding.pit_key != key:  # bound already: the sign-in confirmed the key
                    self.staff.bind_pit(key, shown(url), approval, at_pit=True)
            except (StaffError, LedgerError) as exc:
                self.notify(told_error(exc), severity="error")
                self.staff_from_pit()
                return
            self.staff_from_pit()

        def chosen(choice: str | None) -> None:
            if choice == "b":
                self.push_screen(SignInModal(self.staff, Purpose(MANAGE, what), hint=_("A manager of the pit confirms "
                                                    "its key with their own ID and PIN."),
                                             sign=lambda account, pin: self.staff.confirm_pit_manager(
                                                 account, pin, register, what, unsealer(url, terminal_key))),
                                 confirmed)
            elif choice == "l" and self.link is not None:
                self.link.start()
                self.start()
            else:
                self.exit()

        ask_over(self, ChoiceDialog(_("This terminal takes its staff from the pit server {server}, whose key is "
                                      "{key}. Compare it with the key the pit shows (`dealer-tui pit status`) "
                                      "before a manager of the pit confirms it.", server=shown(url), key=fingerprint),
                                   [("b", _("a manager of the pit confirms it (ID and PIN)")),
                                    ("l", _("make a first manager here instead (the pit's staff are not taken)")),
                                    ("q", _("quit"))]), chosen)

    def use_pit(self, url: str) -> None:
        """Deliver to this pit server from now on ('' none), and at the next start too."""
        current = self.link.delivery.conninfo if self.link is not None else ""
        if url == current:
            return
        if self.link is not None:
            self.link.stop()
            self.link = None
        self.link_status = ""  # the old link's state is not the new one's
        if url:
            from dealer_tui.pit.delivery import DeliveryThread

            self.link = DeliveryThread(Path(str(getattr(self.ledger, "path", ""))), url)
            self.link.start()
        problem = save_pit(url or None)
        if problem:
            self.notify(told(problem), severity="warning")

    def show_link(self) -> None:
        """The pit link's state (delivered, behind, offline since when, refused) beside the round."""
        status = told(self.link.state.describe()) if self.link is not None else ""
        if status != self.link_status:
            if self.link is not None and self.link.state.refused:
                self.notify(_("The pit server refused this terminal's delivery: {problem}",
                              problem=told(self.link.state.problem)), severity="error", timeout=15)
            self.link_status = status
            if isinstance(self.screen, RoundScreen) and self.screen.is_mounted:  # one being set up draws it itself
                self.screen.refresh_view()

    def start(self) -> None:
        """Resume the last table, or set one up; a table played on another terminal, or storage
        that fails, is said in a dialog. A ledger with no staff accounts first gets its manager."""
        try:
            register = self.staff.register()
            if not register.has_accounts() and not register.untouched():
                raise LedgerError(say("{ledger}: the staff register holds events but no account that reads: "
                                      "`dealer-tui history verify` names why; nobody can sign in until it is fixed",
                                      ledger=str(getattr(self.ledger, "path", "")) or say("the ledger")))
            if register.untouched():
                from dealer_tui.screens.first_manager import FirstManagerScreen

                self.push_screen(FirstManagerScreen(self.staff, upgraded=bool(self.ledger.tables())),
                                 lambda made: self.offer_staff() if made else self.exit())
                return
            table = None if self.options.new_table else self.resume()
        except (TableInUse, LeaseLost) as exc:
            self.table_unavailable(exc)
            return
        except StorageError as exc:
            from dealer_tui.screens.ledger_fault import QUIT, RETRY, StorageFault

            ask_over(self, StorageFault(exc, _("The ledger"), [(RETRY, _("try again")), (QUIT, _("quit"))]),
                           lambda choice: self.start() if choice == RETRY else self.exit())
            return
        except LedgerError as exc:  # a ledger this terminal may not play on: said, nothing written
            ask_over(self, ChoiceDialog(told_error(exc), [("q", _("quit"))]), lambda _: self.exit())
            return
        if table is not None:
            self.show_table(table)
        else:
            self.setup()

    def offer_staff(self) -> None:
        """Right after the first manager: the people a table needs, added now or later."""
        from dealer_tui.screens.staff_screen import staffing_gaps

        managers = self.staff.register().managers()
        gaps = staffing_gaps(list(self.staff.register().accounts.values()))
        if not managers or not gaps:
            self.start()
            return
        manager = managers[0]
        parts = [g.split(",")[0] for g in gaps]
        missing = parts[0] if len(parts) == 1 else _("{first} and {second}", first=parts[0], second=parts[1])

        def chosen(choice: str | None) -> None:
            if choice == "s":
                self.open_staff(manager.id, then=self.start)
            else:
                self.start()
        ask_over(self, ChoiceDialog(_("{manager} is the ledger's first manager. A table needs {missing} too: a dealer "
                                      "deals the rounds, and a supervisor signs off big payouts and voids misdeals "
                                      "(nobody approves a round they dealt). Add them now?",
                                      manager=told(manager.describe()), missing=missing),
                                   [("s", _("add the staff now ({account} signs in with their PIN)",
                                            account=manager.id)),
                                    ("l", _("later (F2 on the table setup, or Staff accounts in ctrl+p)"))]), chosen)

    def on_unmount(self) -> None:
        gc.unfreeze()
        self.release()
        if self.link is not None:
            self.link.stop()

    def release(self) -> None:
        """A clean exit: the dealer on duty is signed out (whoever opens the table next signs in
        with their PIN) and the table given up, so another terminal may open it at once."""
        if self.table is not None:
            try:
                self.table.sign_out_absent(CLOSED)
                self.table.close()
            except LedgerError:
                pass  # left to be taken over: this process is ending

    def heartbeat(self) -> None:
        """This terminal still holds its table (every `HEARTBEAT_S`)."""
        if self.table is None:
            return
        try:
            self.table.renew()
        except LeaseLost as exc:
            self.table_unavailable(exc)
        except LedgerError:
            pass  # a storage fault: the next heartbeat or write tries again

    def table_unavailable(self, exc: TableInUse | LeaseLost) -> None:
        """The table is played on another terminal (or was taken over from this one): review the
        ledger read-only, open another table, or quit."""
        from dealer_tui.screens.ledger_fault import (
            OTHER_TABLE,
            QUIT,
            REVIEW,
            ReviewOnly,
            TableUnavailable,
        )

        if isinstance(self.screen, TableUnavailable):
            return
        if isinstance(exc, LeaseLost) and self.table is not None:
            lost, self.table = self.table, None
            if isinstance(self.screen, RoundScreen) and self.screen.table is lost:
                self.pop_screen()  # its steps could not be recorded any more

        def chosen(choice: str | None) -> None:
            if choice == QUIT:
                self.exit()
            elif choice == REVIEW:
                def signed_in(approval: Approval | None) -> None:
                    if approval is None:
                        self.table_unavailable(exc)
                        return
                    self.push_screen(ReviewOnly(self.ledger, self.games, self.big_payout(exc)),
                                     lambda _: self.table_unavailable(exc))

                self.push_screen(SignInModal(self.staff, Purpose(FLOOR, say("review the ledger"))), signed_in)
            elif choice == OTHER_TABLE or choice is None:
                self.setup()

        ask_over(self, TableUnavailable(exc), chosen)

    async def settle_in(self, screen: RoundScreen) -> None:
        """Once the table is on screen: what the first dialogs would otherwise pay for."""
        if self._settled_in:
            return
        self._settled_in = True
        await screen.build_ahead()
        gc.freeze()  # what start-up built stays: the collector stops walking it (pauses of ~70 ms)

    def big_payout(self, exc: TableInUse | LeaseLost) -> int:
        """What the review counts as a big payout: the sign-off threshold of the table's profile."""
        table_id = exc.lease.table_id if exc.lease is not None else None
        try:
            return current_profile(self.ledger, table_id).profile.sign_off_threshold if table_id else 1000
        except (LedgerError, RulesError, KeyError):
            return 1000

    def resume(self) -> Table | None:
        """The table to carry on at (of a playable game; the one asked for, if any), reopened as it
        was: the one whose round is in play, else the one whose last step (a round's, a tray's, a
        seat's) came last, else the newest. A table whose creation never completed (a ledger from
        before it was one transaction) is passed over."""
        candidates = {record.id: record for record in self.ledger.tables()
                      if record.game in self.games and (not self.options.game or record.game == self.options.game)
                      and self.ledger.table_events(record.id, [TableOpened.KIND])
                      and not training_table(self.ledger, record)}
        if not candidates:
            return None
        in_play = [r.table_id for r in reversed(self.ledger.unfinished_rounds()) if r.table_id in candidates]
        chosen = in_play[0] if in_play else max(candidates, key=self._last_step)
        return self.reopen(chosen)

    def _last_step(self, table_id: int) -> tuple[int, int]:
        """Where the table's last event stands in the ledger (then the table's id): the table worked
        at last sorts last."""
        last = self.ledger.table_events(table_id, after=max(self.ledger.chain_length(table_id) - 1, 0))
        return ((last[-1].ledger_seq or 0) if last else 0), table_id

    def reopen(self, table_id: int) -> Table:
        record = next(t for t in self.ledger.tables() if t.id == table_id)
        return Table.open(self.ledger, record, self.games.find(record.game), current_profile(self.ledger, record.id),
                          self.source(record.card_source))

    def known_tables(self) -> list[KnownTable]:
        """The ledger's tables of the games this terminal plays, newest first."""
        out = []
        for record in reversed(self.ledger.tables()):
            if record.game not in self.games or training_table(self.ledger, record):
                continue  # a training table is the demo's: its play stays out of the casino's figures
            played = len(self.ledger.table_rounds(record.id))
            title = told(self.games.rules(record.game).title)
            out.append(KnownTable(record.id, record.name,
                                  n_("{table} — {game}, {count} round — a round in play",
                                     "{table} — {game}, {count} rounds — a round in play", played, table=record.name,
                                     game=title)
                                  if self.ledger.unfinished_rounds(record.id) else
                                  n_("{table} — {game}, {count} round", "{table} — {game}, {count} rounds", played,
                                     table=record.name, game=title)))
        return out

    def setup(self) -> None:
        screen = SetupScreen(self.library, self.games,
                             game=self.options.game, profile=self.options.profile, seats=self.options.seats,
                             cards=self.options.cards, tables=self.known_tables(),
                             pit=self.link.delivery.conninfo if self.link is not None else "",
                             pit_names=self.link.delivery.pit_table_names()
                             if self.link is not None and self.link.state.online else [],
                             staff=self.open_staff, staffing=self.staffing, needs_id=self.starting_needs_id,
                             check_document=self.check_document)
        self.push_screen(screen, self.create_table)

    def starting_needs_id(self, player: StartingPlayer) -> str | None:
        """Why a player seated with the new table needs their ID document first (cash at the
        currency-transaction threshold), None if they do not."""
        from dealer_tui.rounds.cash import needs_id

        return needs_id(self.ledger, player.name, player.card, player.buy_in)

    @staticmethod
    def check_document(text: str) -> str:
        """An ID document as the ledger keeps it (ValueError: why not)."""
        try:
            return TableMoney.check_document(text)
        except RulesError as exc:
            raise ValueError(told_error(exc)) from None

    def staffing(self) -> str:
        from dealer_tui.screens.staff_screen import staffing_text

        return staffing_text(list(self.staff.register().accounts.values()))

    def create_table(self, result: SetupResult | ResumeTable | None) -> None:
        if result is None:
            return
        self.use_pit(result.pit)
        table: Table | None = None
        try:
            if isinstance(result, ResumeTable):
                if self.table is not None and self.table.record.id == result.table_id:
                    return  # the table on screen under the setup: it is shown again as it is
                self.show_table(self.reopen(result.table_id))
                return
            table = Table.create(self.ledger, result.name, self.games.find(result.profile.game), result.profile, self.source(result.cards),
                                 seats=result.seats)
            refused = []
            for p in result.players:  # one refused (the table says why) leaves the others seated
                try:
                    table.seat_player(p.seat, p.name, p.buy_in, card=p.card, document=p.document)
                except RulesError as exc:
                    refused.append(_("{player} (seat {seat}) is not seated: {problem}", player=p.name, seat=p.seat,
                                     problem=told_error(exc)))
            if refused:
                self.notify("\n".join(refused), severity="error", timeout=15)
        except (TableInUse, LeaseLost) as exc:
            self.table_unavailable(exc)
            return
        except StorageError as exc:
            if table is None:  # nothing was recorded: the same setup may be tried again
                from dealer_tui.screens.ledger_fault import BACK, RETRY, StorageFault

                what = _("The table") if isinstance(result, ResumeTable) else _("The new table (not created)")
                ask_over(self, StorageFault(exc, what, [(RETRY, _("try again")), (BACK, _("back to the setup"))]),
                               lambda choice: self.create_table(result) if choice == RETRY else self.setup())
                return
            self.notify(_("{problem}: the table is open; seat the other players once the ledger can be written",
                          problem=told_error(exc)), severity="error", timeout=12)
        except (RulesError, LedgerError) as exc:
            self.notify(told_error(exc), severity="error", timeout=8)
            if table is None:
                self.setup()
                return
        assert table is not None
        self.show_table(table)

    def show_table(self, table: Table) -> None:
        if self.table is not None and self.table.record.id != table.record.id:
            self.release()  # one table at a time: the one left is free for another terminal
        self.table = table
        if table.took_over is not None:
            named = table_called(table.record.name)
            self.notify(sentence(_("{table} taken over from {terminal}: that terminal is gone (recorded in the ledger)",
                                   table=told(named), terminal=told(table.took_over.describe()))), timeout=10)
        screen_cls = round_screen(table.game)
        screen = screen_cls(table, self.staff, self.games)
        if isinstance(self.screen, RoundScreen):
            self.switch_screen(screen)  # the table left goes with its screen: quitting quits, not back to it
        else:
            self.push_screen(screen)
        screen.call_after_refresh(self.call_later, self.settle_in, screen)
        if table.session.dealer is None:  # no round starts until a dealer signs in
            screen.call_after_refresh(screen.action_dealer)


def make_app(ledger_path: Path | None = None, *, profiles: list[Path] | None = None,
             options: Options | None = None, ledger: TableLedger | None = None,
             witness: Path | None = None, pit: str | None = None) -> DealerApp:
    """The app as the command line and the tests build it; the ledger it opens keeps its
    witness (`witness`, or the ledger's default one)."""
    from dealer_tui.ledger.sqlite import default_ledger_path
    from dealer_tui.paths import user_profiles_dir

    if ledger is None:
        path = ledger_path or default_ledger_path()
        ledger = SqliteLedger(path, witness=Witness.for_ledger(path, witness))
    library = ProfileLibrary([*(profiles or []), user_profiles_dir()])
    link = None
    if pit is not None:
        from dealer_tui.pit.delivery import DeliveryThread

        link = DeliveryThread(Path(getattr(ledger, "path", ledger_path or default_ledger_path())), pit)
    return DealerApp(ledger, library, options or Options(), link)
