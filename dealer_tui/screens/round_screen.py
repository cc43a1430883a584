"""The round screen every game shares: phase track, seat panels, banker's hand, table info,
this round's log, and a footer that shows only the keys legal now."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar, Generic, cast

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.reactive import Reactive
from textual.screen import Screen
from textual.types import CSSPathType
from textual.widget import Widget
from textual.widgets import Header, Static
from typing_extensions import TypeVar

from dealer_tui.events.table import RoundRecovered, SignOffApproved, SignOffRefused
from dealer_tui.language import N_, _, current, n_, read_by, told, told_error
from dealer_tui.ledger.base import LedgerError
from dealer_tui.memory import TIDY_AFTER_ROUND_S, tidy_memory
from dealer_tui.rounds.base import (
    CardRequest,
    ConfirmPayout,
    Deal,
    LegalStep,
    Phase,
    Reveal,
    Round,
    RoundOutcome,
    Step,
    TakeBack,
    Void,
    WithCards,
)
from dealer_tui.rounds.game import Games
from dealer_tui.rounds.table import Table
from dealer_tui.screens.amount_dialog import AmountDialog, AmountField
from dealer_tui.screens.card_entry_modal import CardEntryModal
from dealer_tui.screens.choice_dialog import ChoiceDialog
from dealer_tui.screens.dialog import Dialog, DialogLayer
from dealer_tui.screens.dialog_step import DialogStep
from dealer_tui.screens.help_screen import HelpScreen
from dealer_tui.screens.hold import HOLD_ROUNDS, Hold, drawn_after
from dealer_tui.screens.payout_dialog import REKEY_CARDS, VOID, FloorRequest, PayoutDialog
from dealer_tui.screens.reason_dialog import ReasonDialog
from dealer_tui.screens.signed_steps import SignedSteps
from dealer_tui.screens.table_changes import TableChanges
from dealer_tui.screens.tray_steps import TraySteps
from dealer_tui.staff import OVERRIDE, SIGN_OFF, StaffDesk
from dealer_tui.views import Presenter, SeatView, card_words, key, with_keys
from dealer_tui.widgets.event_log import EventLog
from dealer_tui.widgets.fitted import FittedColumn, FittedRow, FittedScroll
from dealer_tui.widgets.hand_panel import HandPanel
from dealer_tui.widgets.key_bar import KeyBar, key_name, keys_bound
from dealer_tui.widgets.notice import Notice, Severity
from dealer_tui.widgets.phase_track import PhaseTrack
from dealer_tui.widgets.seat_panel import SeatPanel
from dealer_tui.widgets.table_info import TableInfo
from rules.cards import Card
from rules.errors import RulesError
from rules.profiles.loader import LoadedProfile
from rules.said import joined, say

HERE = Path(__file__).parent
R = TypeVar("R", bound=Round, default=Round)
"""The game's round (its live-table variant included) a round screen plays."""


IDLE_CHECK_S = 15.0
"""How often the round screen looks whether the dealer has left the terminal alone too long."""

BETWEEN_HANDS = frozenset({"start", "change_profile", "join", "more_chips", "leave", "dealer", "tray", "identify",
                           "sit_out"})
"""The round screen's steps taken between hands only (the dealer's sign-in also when nobody is
signed in for the hand in play)."""
BETWEEN_SHIFTS = {"start": say("round starts"), "join": say("player sits down"), "more_chips": say("chips are sold")}
"""The between-hands steps a table that keeps its tray refuses between shifts (what the tray says)."""
TABLE_STEP_KEYS = frozenset({"undo_step", "same_bets"})
"""The table's own steps within a hand whose key, refused, says why (`_why_not_table_step`)."""
NO_DEALER = N_("No round starts with no dealer signed in{why}: {dealer} signs one in.")
NO_DEALER_IN_HAND = N_("No dealer is signed in for this hand{why}: {dealer} signs in (their PIN) to carry it on.")
NO_DEALER_NEXT = N_("No dealer is signed in{why}: {dealer} signs one in before the next round.")


WIDE_HEADER = 100
"""Below this width the header names the table only: the profile is in the limits box beside the
seats, and the round and the dealer on duty keep their place on the line."""


class RoundScreen(Screen[None], Generic[R]):
    """Base of the per-game round screens, each for its game's round (`RoundScreen[HighCardFlushRound]`).
    Subclasses add their keys and map them to the round's step types in `KINDS`."""

    CSS_PATH: ClassVar[CSSPathType] = [HERE / "round_screen.tcss", HERE / "modal.tcss"]
    """The table's and the dialogs' (read with it), found beside this module: each game's screen
    subclasses it from its own package (Textual reads a relative path beside the subclass)."""
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(n), f"select({n})", show=False) for n in range(1, 10)),
        Binding("0", "select(10)", show=False),
        Binding("escape", "deselect", show=False),
        *(Binding(k, f"scroll_seats('{k}')", show=False) for k in ("up", "down", "pageup", "pagedown")),
        Binding("s", "start", N_("New round")),
        Binding("d", "deal", N_("Deal")),
        Binding("v", "reveal", N_("Reveal")),
        Binding("p", "payout", N_("Payout")),
        Binding("x", "void", N_("Misdeal")),
        Binding("z", "undo_step", N_("Undo last step")),
        Binding("P", "change_profile", N_("Change profile")),
        Binding("j", "join", N_("Seat a player")),
        Binding("m", "more_chips", N_("Buy chips")),
        Binding("l", "leave", N_("Cash out")),
        Binding("F", "floor", N_("Floor review")),
        Binding("D", "dealer", N_("Dealer sign-in")),
        Binding("T", "tray", N_("Tray")),
        Binding("I", "identify", N_("Player's ID"), show=False),
        Binding("O", "sit_out", N_("Sit out / back")),
        Binding("question_mark", "help", N_("Help")),
    ]
    KINDS: ClassVar[dict[str, type[Step]]] = {"deal": Deal, "reveal": Reveal, "payout": ConfirmPayout,
                                             "void": Void}
    TABLE_KEYS: ClassVar[bool] = True
    """Set on the class whose BINDINGS are the table's keys: the keys of the classes below it (a
    game's screen) are the game's, each acting for a seat."""
    AUTO_FOCUS = None
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)
    title: Reactive[str | None] = Reactive(None, compute=False, repaint=False)
    sub_title: Reactive[str | None] = Reactive(None, compute=False, repaint=False)
    """As Textual's, without drawing the whole screen again on each change: a dialog opened or
    answered moves the focus, and the widgets it leaves and reaches restyle and redraw themselves;
    the header watches the titles and draws itself (a new round changes the sub-title)."""
    """Nothing takes the focus by itself: the table's keys are the screen's, and a dialog kept
    hidden for its next question must not be handed the focus when another screen closes."""
    RULES_SUMMARY: ClassVar[str] = ""
    HOUSE_LABEL: ClassVar[str] = N_("House")
    ROW_LABEL: ClassVar[str] = N_("Seat")
    """What a settlement row's number is: a seat, or a box ("1 or 5")."""

    def __init__(self, table: Table, desk: StaffDesk, games: Games[Presenter[Any]]) -> None:
        super().__init__()
        self.table = table
        self.desk = desk
        self.games = games
        """Every game this terminal deals: the floor review opened from here shows their rounds."""
        self._base_title = self._short_title = ""
        """The table and its profile (`show_profile`): the title, after the pit link's state."""
        self.presenter: Presenter[R] = table.game.presenter
        self.selected: int | None = None
        self._legal_keys: tuple[object, ...] = ()
        self._table_bar_lines = 1
        self._legal_now: tuple[Round, int, dict[type[Step], tuple[LegalStep, ...]]] | None = None
        self._shown_phase: Phase | None = None
        self._prompt: str | None = None
        self._reader: str | None = None
        """The account whose language the screen was last shown in ("": none signed in)."""
        self.keys = keys_bound(self._bindings_list())
        """Each of this screen's actions with its key: what the prompts name (`views.key`)."""
        self._notice_for: tuple[int, int, int] | None = None
        self.dialogs = DialogLayer(self, self.show_keys)
        """The dialogs this screen asks, over the table (`ask`)."""
        self.changes = TableChanges(self)
        """The steps between hands: seats, chips, the profile, the dealer on duty."""
        self.tray_steps = TraySteps(self)
        self.signed_steps = SignedSteps(self)
        """The steps someone signs in for: a sign-off, a correction of keyed cards, a void, the floor."""

    @property
    def round(self) -> R | None:
        """The table's round, as this game's round; None before the table's first round. (The
        game's `Game` pairs this screen with the game's round: a table plays no other.)"""
        return cast("R | None", self.table.round)

    # -- layout -------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield PhaseTrack(self.table.game.round_class(keyed=self.table.keyed).PHASE_TRACK)
        yield Static(id="prompt")
        yield Notice(id="notice")
        with FittedRow(id="body"):
            # never focused: a focus that moves to a dialog and back would draw the seats again
            # twice; the seats scroll by the screen's keys, and a picked seat is scrolled into view
            with FittedScroll(id="seats", can_focus=False):
                for seat in range(1, self.table.session.seat_count + 1):
                    yield SeatPanel(id=f"seat-{seat}")
            with FittedColumn(id="side"):
                yield HandPanel()
                yield TableInfo()
                yield EventLog()
        yield KeyBar()

    def on_mount(self) -> None:
        self.show_profile(self.table.profile)
        self.refresh_view()
        self.set_interval(IDLE_CHECK_S, self.idle_sign_out)

    def idle_sign_out(self) -> None:
        """The dealer on duty is signed out once the terminal has had no key for the profile's idle
        time: whoever comes back signs in with their PIN before the next step."""
        minutes = self.table.profile.profile.idle_sign_out_minutes
        on_duty = self.table.session.dealer
        idle = getattr(self.app, "idle_seconds", lambda: 0.0)()
        if not minutes or on_duty is None or idle < minutes * 60:
            return
        try:
            self.table.sign_out_absent(say("no key for {minutes} minutes: the dealer signs in again", minutes=minutes))
        except (RulesError, LedgerError):
            return  # tried again at the next check
        self.refresh_view()
        self.tell(self.with_keys(_("{name} ({account}) was signed out after {minutes} minutes without a key: {dealer} "
                                   "signs a dealer in.", name=on_duty.name, account=on_duty.account, minutes=minutes)),
                  severity="warning")

    def show_profile(self, loaded: LoadedProfile) -> None:
        """The table, its profile (and whether it is a training table) in the title; the profile's
        limits beside the table."""
        training = _(" — TRAINING (not in the floor's totals)") if self.table.session.training else ""
        self._base_title = f"{self.table.record.name} — {loaded.profile.title}{training}"
        self._short_title = f"{self.table.record.name}{training}"
        self.title = self._titled()
        self.query_one(TableInfo).show(loaded, self.presenter.LIMITS)

    def _titled(self) -> str:
        """The table and profile; first, the pit link's state when there is one (the line is cut at
        its end on a narrow terminal, and the link is what the dealer must not miss)."""
        link = getattr(self.app, "link_status", "")
        base = self._base_title if self.app.size.width >= WIDE_HEADER else self._short_title
        return f"{link} — {base}" if link else base

    def refresh_view(self, keys: bool = True) -> None:
        """The table as the round and the table stand now; `keys`: the key bar too."""
        self._read_by_dealer()
        rnd = self.round
        if self._notice_for not in (None, self._table_state()):
            self.query_one(Notice).clear()
            self._notice_for = None
        phase = rnd.phase if rnd is not None else None
        if phase != self._shown_phase:
            self._shown_phase = phase
            self.selected = None  # a seat picked for the antes is not meant for the raises
        number = self.table.session.rounds_started
        on_duty = self.table.session.dealer
        dealer = (_("dealer {name} ({account})", name=on_duty.name, account=on_duty.account) if on_duty is not None
                  else _("no dealer signed in"))
        self.title = self._titled()
        self.sub_title = (  # the round first: on a narrow terminal the header is cut at its end
            _("round {number}", number=number) if rnd is not None
            else n_("{count} round played", "{count} rounds played", number) if number else _("no round yet")
        ) + f" — {dealer}"
        self.query_one(PhaseTrack).phase = rnd.phase if rnd is not None else None
        self.query_one(TableInfo).show_tray(self.tray_steps.tray_line())
        prompt = self.with_keys(self.presenter.prompt(rnd))
        if on_duty is None and (rnd is None or rnd.phase in (Phase.DONE, Phase.VOID)):
            prompt = self.no_dealer_text(NO_DEALER_NEXT)
        elif on_duty is None:
            prompt = self.no_dealer_text(NO_DEALER_IN_HAND)
        elif self.table.tray.kept_problem(say("round starts")) is not None and (rnd is None or rnd.phase in (Phase.DONE, Phase.VOID)):
            prompt = self.with_keys(_("The shift is closed: {tray} counts the next opener before the next round."))
        if prompt != self._prompt:  # an unchanged prompt is not laid out again
            self._prompt = prompt
            self.query_one("#prompt", Static).update(prompt)
        stacks = {s: (p.name, p.stack) for s, p in self.table.session.players.items()}
        views = {v.seat: self._keyed(v) for v in self.presenter.seats(rnd, stacks)}
        between = rnd is None or rnd.phase in (Phase.DONE, Phase.VOID)
        for seat, player in self.table.session.players.items():  # away since before the hand: not in it
            if player.away and seat in views:
                note = self.with_keys(_("sitting out: {sit_out} brings them back")) if between else _("sitting out")
                views[seat] = replace(views[seat], out=True, note=note)
        for panel in self.query(SeatPanel):
            seat = int(str(panel.id).split("-")[1])
            panel.view = views.get(seat)
            panel.display = seat in views or between  # empty seats show between hands, to seat players
            panel.selected = seat == self.selected
        self.query_one(HandPanel).view = self.presenter.banker(rnd)
        lines = [self.presenter.describe(e) for e in (rnd.events if rnd is not None else [])]
        self.query_one(EventLog).show(lines)
        if keys:
            self.show_keys()

    def _read_by_dealer(self) -> bool:
        """The dealer signed in reads the table in their account's language (none signed in: the
        terminal's); a change of language draws the keys and the phase track again. Whether the
        language changed."""
        on_duty = self.table.session.dealer
        reader = on_duty.account if on_duty is not None else ""
        if reader == self._reader:
            return False
        self._reader = reader
        account = self.desk.register().accounts.get(reader) if reader else None
        before = current().code
        if read_by(account.language if account is not None else "").code == before:
            return False
        self._legal_keys = ()
        self.query_one(PhaseTrack).refresh()
        for panel in self.query(SeatPanel):
            panel.reword()
        return True

    def show_keys(self) -> int:
        """The keys legal now in the key bar: the open dialog's, else the table's. The lines the
        bar takes (a dialog over the table leaves them clear)."""
        dialog = self.dialogs.current
        keys = dialog.keys() if dialog is not None else self.active_keys()
        legal = (id(dialog), *(b.action for b in keys))
        if legal != self._legal_keys:  # the key bar is redrawn only when the legal keys change
            self._legal_keys = legal
            bar = self.query_one(KeyBar)
            if dialog is None:
                bar.show([*keys, *self.app_keys()])
                self._table_bar_lines = bar.lines
            else:  # as high as the table's keys had it: the table under the dialog stays put
                bar.show([*keys, *self.app_keys()], acts_on=dialog, at_least=self._table_bar_lines)
            self.query_one(Notice).place()  # a notice on show stays above the bar's new rows
        return self.query_one(KeyBar).lines

    def with_keys(self, text: str) -> str:
        """A prompt or a note with the keys it names (`views.key`) as this screen binds them."""
        return with_keys(text, self.keys)

    def _keyed(self, view: SeatView) -> SeatView:
        return replace(view, note=self.with_keys(view.note)) if "{" in view.note else view

    def app_keys(self) -> list[Binding]:
        return [Binding("ctrl+p", "app.command_palette", N_("Commands")), Binding("ctrl+q", "app.quit", N_("Quit"))]

    def tell(self, message: str, severity: Severity = "information") -> None:
        """A refusal's reason or a step's result, in the notice line until the next key, or until
        the table moves on without one (a step recorded, the floor's decision): then it no longer
        applies and goes. A sentence of the rules (`Said`) is told in the reader's language."""
        self.query_one(Notice).show_message(told(message), severity)
        self._notice_for = self._table_state()

    def _table_state(self) -> tuple[int, int, int]:
        """What a notice speaks of: the round, its recorded events and the table's own."""
        rnd = self.round
        return (self.table.round_id or 0, len(rnd.events) if rnd is not None else 0,
                self.table.session.rounds_started)

    def on_key(self, event: events.Key) -> None:
        """A key pressed when its step is not legal: say why instead of doing nothing. (With a
        dialog open the keys are the dialog's: one that reaches here is one of its bindings.)"""
        if self.dialogs.current is not None:
            return
        notice = self.query_one(Notice)
        if notice.message is not None:  # gone with the key, drawn once with what the key's binding does
            hold = Hold(self.app)
            notice.clear()
            self.app.call_later(self.app.call_later, hold.after_rounds, self.query_one(KeyBar), HOLD_ROUNDS)
        refused = self.key_refusal(event.key)
        if refused is None and event.is_printable:
            refused = self.unbound_key(event.key, event.character or "")
        if refused is not None:
            self.tell(refused, severity="warning")
            event.stop()
            event.prevent_default()

    # -- doing --------------------------------------------------------------------------------

    def perform(self, action: Step) -> bool:
        """Send one step to the table; a refusal shows its reason in the notice line, never a crash.
        At a live table, a step that needs cards first asks the dealer to key them."""
        request = self.table.card_request(action) if self.table.keyed else None
        if request is not None and isinstance(action, WithCards):
            self.key_cards(request, action)
            return False
        return self.performed(action, self.record(action))

    def record(self, action: Step) -> RulesError | LedgerError | None:
        """Hand `action` to the table, which has the round check it (its one `propose`) and records
        it: None once recorded, else the refusal or the storage fault. Nothing is redrawn yet."""
        try:
            self.table.act(action)
        except (RulesError, LedgerError) as exc:
            return exc
        return None

    def performed(self, action: Step, failed: RulesError | LedgerError | None) -> bool:
        """The screen after `action` went to the table: redrawn; a refusal told in the notice line,
        a storage fault offered again (`ledger_fault`). A step that brings the payout (the hands
        shown down) puts the payout to confirm on screen at once: `p` would carry no decision."""
        before = self._shown_phase
        rnd = self.round
        payout_next = failed is None and rnd is not None and rnd.phase is Phase.PAYOUT and before is not Phase.PAYOUT
        try:
            if failed is not None:
                if not self.ledger_fault(failed, lambda: self.perform(action)):
                    self.tell(told_error(failed), severity="error")
                return False
            self._release_seat()
        finally:
            self.refresh_view(keys=not payout_next)  # the payout's keys come with it
        if rnd is not None and rnd.phase in (Phase.DONE, Phase.VOID):
            self.set_timer(TIDY_AFTER_ROUND_S, tidy_memory)
        if payout_next:
            self.action_payout()
        return True

    def _release_seat(self) -> None:
        """A picked seat that has nothing left to do now is let go: the next key without a seat
        acts for the seat whose turn it is (its raise taken, `f` folds the next seat)."""
        rnd = self.round
        if self.selected is None or rnd is None or rnd.phase in (Phase.DONE, Phase.VOID):
            return
        if not any(s.seat == self.selected for specs in self.legal_now().values() for s in specs):
            self.selected = None

    def ledger_fault(self, exc: Exception, retry: Callable[[], object]) -> bool:
        """A storage fault (nothing recorded: a dialog offers `retry`) or a table played on another
        terminal (the app's dialog); False for a refusal the notice line tells."""
        if not isinstance(exc, LedgerError):
            return False
        from dealer_tui.screens.ledger_fault import ledger_fault

        return ledger_fault(self, exc, retry, lambda: self.tell(_("Nothing was recorded: {problem}",
                                                                  problem=told_error(exc)), severity="warning"))

    def key_cards(self, request: CardRequest, action: WithCards, title: str = "") -> None:
        """The dealer keys the cards `action` needs; the table takes the step with them before the
        dialog closes (a refusal stays in the dialog)."""
        rnd = self.round
        if rnd is None:
            return
        step: DialogStep[dict[str, tuple[Card, ...]]] = DialogStep(self, lambda cards: replace(action, cards=cards))
        purpose = card_words.purpose(request.purpose)
        heading = title or n_("{purpose}: key the {count} card as the table sees them",
                              "{purpose}: key the {count} cards as the table sees them", request.total, purpose=purpose)
        self.show(CardEntryModal(heading, request.hands, rnd.taken_cards(request), step.check), step.answered)

    def ask_amounts(self, title: str, fields: list[AmountField], then: Callable[[dict[str, int]], object],
                    check: Callable[[dict[str, int]], str | None] | None = None) -> None:
        """Ask for amounts (a table's change between hands: a buy-in, chips bought); `then` takes them
        (`check` may refuse them in the dialog, which stays)."""
        def done(values: dict[str, int] | None) -> None:
            if values is not None:
                then(values)

        self.ask(AmountDialog(title, fields, check), done)

    def ask_step(self, title: str, fields: list[AmountField], action: Callable[[dict[str, int]], Step]) -> None:
        """Ask for the amounts of a round's step: Enter hands `action(amounts)` to the table, which
        checks it once; a refusal stays in the dialog with the round's reason."""
        step = DialogStep(self, action)
        self.ask(AmountDialog(title, fields, step.check), step.answered)

    def ask(self, dialog: Dialog[Any], then: Callable[[Any], None] | None = None) -> None:
        """Show a dialog over the table: the one of its kind this screen has already built takes
        the question. Its answer runs `then`; the table is drawn with the answer's changes."""
        self.dialogs.ask(dialog, then)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """None of the table's keys act while a dialog is open over it."""
        return False if self.dialogs.current is not None else self.key_legal(action, parameters)

    @property
    def focus_chain(self) -> list[Widget]:
        """While a dialog is open, Tab goes round its fields only."""
        chain = super().focus_chain
        dialog = self.dialogs.current
        return chain if dialog is None else [w for w in chain if dialog in w.ancestors_with_self]

    def on_dialog_keys_changed(self, message: Dialog.KeysChanged) -> None:
        self.show_keys()

    def on_screen_suspend(self) -> None:
        """Another screen over the table (a sign-in, keyed cards, the help): the key bar, seen
        under its tint, shows that screen's keys until it closes."""
        self.call_after_refresh(self._show_keys_of_top)

    def on_screen_resume(self) -> None:
        if self.query(KeyBar):  # not while the screen is taken apart
            if self.app.screen is self:  # back from the floor: the dealer's language again
                self._reader = None
            if self._read_by_dealer():
                self.refresh_view()
                return
            self._legal_keys = ()
            self.show_keys()

    def _show_keys_of_top(self) -> None:
        top = self.app.screen
        if top is self or not self.query(KeyBar):
            return
        keys: dict[str, Binding] = {}
        for bound in top.active_bindings.values():
            if bound.binding.show and bound.enabled and bound.node is not self.app:
                keys.setdefault(bound.binding.action, bound.binding)
        self._legal_keys = ("over", id(top))
        self.query_one(KeyBar).show([*keys.values(), *self.app_keys()], acts_on=top, at_least=self._table_bar_lines)

    def on_resize(self) -> None:
        self.title = self._titled()  # a narrow header leaves the profile to the limits box
        dialog = self.dialogs.current
        if dialog is not None:
            dialog.place(self.query_one(KeyBar).lines)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """A click on the table under an open dialog does not take its keys away from it."""
        dialog = self.dialogs.current
        if dialog is not None and dialog not in event.widget.ancestors_with_self:
            dialog.opened()

    def dialogs_ahead(self) -> list[Dialog[Any]]:
        """The dialogs every round asks for, built before the first key (their questions are
        put in later): a yes/no choice, a one-amount entry and the payout."""
        return [ChoiceDialog("", [("y", ""), ("n", "")]), AmountDialog("", [AmountField("amount", "", 0, 0, 0)]),
                PayoutDialog(RoundOutcome((), {}, 0), self.house_label(), [], 0, self.ROW_LABEL)]

    async def build_ahead(self) -> None:
        await self.dialogs.build_ahead(self.dialogs_ahead())

    def show(self, screen: Screen[Any], then: Callable[[Any], None] | None = None) -> None:
        """Push a screen built for this one question; after its answer the table is drawn once,
        with the screen taken apart."""
        self.app.install_screen(screen, f"shown-{id(screen)}")  # taken apart in `drawn_after`
        self.app.push_screen(screen, drawn_after(self.query_one(KeyBar), then, dispose=screen))

    def action_select(self, seat: int) -> None:
        if 1 <= seat <= self.table.session.seat_count:
            self.selected = seat
            self.refresh_view()
            self.query_one("#seats", FittedScroll).scroll_to_widget(self.query_one(f"#seat-{seat}"), animate=False)
            rnd = self.round
            if seat not in self.table.session.players and rnd is not None and rnd.phase not in (Phase.DONE, Phase.VOID):
                self.tell(self.with_keys(_("Seat {seat} is empty: {join} seats a player between hands.", seat=seat)),
                          severity="warning")
        else:
            self.tell(_("This table has seats 1-{last}.", last=self.table.session.seat_count), severity="warning")

    def action_scroll_seats(self, key: str) -> None:
        """The seats scrolled (a table whose seats do not all fit on the terminal)."""
        seats = self.query_one("#seats", FittedScroll)
        {"up": seats.scroll_up, "down": seats.scroll_down, "pageup": seats.scroll_page_up,
         "pagedown": seats.scroll_page_down}[key](animate=False)

    def action_deselect(self) -> None:
        self.selected = None
        self.refresh_view()

    def on_seat_panel_selected(self, message: SeatPanel.Selected) -> None:
        if self.dialogs.current is None:
            self.action_select(message.seat)

    def no_dealer(self) -> bool:
        """Whether no dealer is signed in (said, with the key that signs one in): nothing about the
        next round is asked before one is."""
        if self.table.session.dealer is None:
            self.tell(self.no_dealer_text(NO_DEALER), severity="warning")
            return True
        return False

    def action_start(self, **choices: Any) -> None:
        if self.no_dealer():
            return
        try:
            self.table.start_round(**choices)
        except (RulesError, LedgerError) as exc:
            if not self.ledger_fault(exc, lambda: self.action_start(**choices)):
                self.tell(told_error(exc), severity="error")
        self.selected = None
        self.refresh_view()

    def action_deal(self) -> None:
        self.perform(Deal())

    def action_reveal(self) -> None:
        self.perform(Reveal())

    def action_payout(self) -> None:
        rnd = self.round
        outcome = rnd.outcome() if rnd is not None else None
        if rnd is None or outcome is None:
            return
        big = rnd.sign_off_needed()

        def confirmed(ok: bool | str | None) -> None:
            state = rnd.sign_off_state()
            signed = not big or isinstance(state, SignOffApproved)
            if ok is True and signed:
                self.perform(ConfirmPayout())  # drawn with the step recorded
                return
            self.refresh_view()  # the floor's decision may have come in while the payout was open
            if not ok:
                return
            if ok == VOID:
                self.action_void()
                return
            if ok == REKEY_CARDS:
                self.signed_steps.correct_keyed_cards()
                return
            if isinstance(state, SignOffRefused):
                self.override_refusal(state)
                return
            number = self.table.session.rounds_started
            paid = rnd.player_payouts()
            amounts = joined([say("seat {seat} is handed {chips:,} in chips", seat=seat, chips=paid[seat]) for seat in big],
                             ", ")
            self.signed_steps.with_staff(SIGN_OFF, say("sign off the payout of round {number} ({amounts})", number=number,
                                                       amounts=amounts),
                                         lambda who: self.perform(ConfirmPayout(supervisor=who.account, sign_in=who.sign_in)),
                                         self.action_payout,  # backing out of the sign-in goes back to the payout
                                         signs=rnd.payout_figures())

        self.ask(PayoutDialog(outcome, self.house_label(), big, rnd.profile.sign_off_threshold,
                              self.ROW_LABEL, FloorRequest(self.table), can_rekey=rnd.correctable() is not None,
                              tray_short=self.table.money.payout_short(outcome.house), order=rnd.settlement_order(),
                              payments=rnd.payments()),
                 confirmed)

    def override_refusal(self, refused: SignOffRefused) -> None:
        """A payout the floor refused, paid on a manager's word: the reason first, then the
        manager's sign-in for it (which signs the payout's figures); Esc at either goes back."""
        rnd = self.round
        if rnd is None:
            return
        number = self.table.session.rounds_started

        def reason_given(reason: str | None) -> None:
            if not reason:
                self.action_payout()
                return
            self.signed_steps.with_staff(OVERRIDE, say("override {account}'s refusal of round {number}'s payout: {reason}",
                                                       account=refused.by, number=number, reason=reason),
                            lambda who: self.perform(ConfirmPayout(supervisor=who.account, sign_in=who.sign_in,
                                                                   override=reason)),
                            self.action_payout, signs=rnd.payout_figures())

        self.ask(ReasonDialog(_("Round {number}: {account} refused this payout ({reason}). Why is it paid?",
                                number=number, account=refused.by, reason=refused.reason),
                              _("e.g. cards checked on camera with security")), reason_given)

    def action_same_bets(self) -> None:
        """The selected seat's bets as they stood last round, in one key (the round checks them)."""
        seat = self.selected
        if seat is None:
            self.tell(self.with_keys(_("Pick the seat first (its number), then {same_bets} places its bets of last "
                                       "round.")), severity="warning")
            return
        try:
            events = self.table.repeat_bets(seat)
        except (RulesError, LedgerError) as exc:
            if not self.ledger_fault(exc, self.action_same_bets):
                self.tell(told_error(exc), severity="error")
            return
        finally:
            self.refresh_view()
        said = "; ".join(self.presenter.describe(event) for event in events)
        self.tell(_("{said} (the same bets as last round)", said=said))

    def action_undo_step(self) -> None:
        """The dealer's last step taken back while nothing has followed it (a mis-key), recorded as
        a correction; after that only the supervisor corrects (a void)."""
        rnd = self.round
        what = rnd.undo_label() if rnd is not None else None
        if self.perform(TakeBack()) and what:
            self.tell(_("Taken back: {what}", what=told(what)))

    def house_label(self) -> str:
        return _(self.HOUSE_LABEL)

    # -- which keys act now, and why not ------------------------------------------------------
    # Which of the screen's keys are legal now, and for a key pressed when its step is not, the
    # reason said in its place: a hand nobody is signed in to deal, a seat sitting out, a step
    # taken between hands only or refused between shifts, or the round's own rule. The key bar,
    # the help screen's keys and every binding's check read `check_action`; the round's legal
    # steps are read once per change of the round (`legal_now`).

    def legal_now(self) -> Mapping[type[Step], tuple[LegalStep, ...]]:
        """The round's legal steps by type (and by each base type a game's step refines, as the
        table's deal key asks for the deal of a game that cuts first): read from the round once per
        change (a new round, an event recorded) and shared by every key's check, the key bar and
        the game keys."""
        rnd = self.round
        if rnd is None or rnd.phase in (Phase.DONE, Phase.VOID):
            return {}
        if self._legal_now is None or self._legal_now[0] is not rnd or self._legal_now[1] != len(rnd.events):
            by_kind: dict[type[Step], list[LegalStep]] = {}
            for spec in rnd.legal_steps():
                for kind in spec.step.__mro__:
                    if isinstance(kind, type) and issubclass(kind, Step) and kind.KIND:
                        by_kind.setdefault(kind, []).append(spec)
            self._legal_now = (rnd, len(rnd.events), {kind: tuple(specs) for kind, specs in by_kind.items()})
        return self._legal_now[2]

    def specs(self, kind: type[Step]) -> list[LegalStep]:
        """The legal steps of `kind` now (none between rounds)."""
        return list(self.legal_now().get(kind, ()))

    def spec_for(self, kind: type[Step]) -> LegalStep | None:
        """The legal spec of `kind` for the selected seat; with no seat selected, the first one.
        A selected seat that may not do it is told so, never swapped for another seat."""
        found = self.specs(kind)
        if self.selected is None or all(s.seat is None for s in found):
            return found[0] if found else None
        mine = [s for s in found if s.seat == self.selected]
        if not mine:
            others = sorted({s.seat for s in found if s.seat is not None})
            why = self._why_not(kind, self.selected)
            self.tell(_("{why} ({seats} may).", why=why, seats=", ".join(_("seat {seat}", seat=s) for s in others))
                      if others else f"{why}.", severity="warning")
            return None
        return mine[0]

    def _why_not(self, kind: type[Step], seat: int | None, fallback: str = "") -> str:
        """The round's own reason why `seat` may not do `kind` now (the rule it breaks); `fallback`
        when the round would take it after all."""
        rnd = self.round
        verb = rnd.verb(kind) if rnd is not None else kind.verb()
        fallback = fallback or _("Seat {seat} may not {step} now", seat=seat, step=told(verb))
        why = rnd.why_not(kind(seat=seat)) if rnd is not None else None
        return told(why).rstrip(".") if why is not None else fallback

    def key_seat(self, action: str) -> int | None:
        """The seat a refused game key was meant for, to ask the round why: the selected seat. A
        game whose step belongs to one seat whatever is selected names that seat instead."""
        return self.selected

    def key_legal(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Whether the key of `action` acts now (the screen's `check_action`, no dialog open)."""
        if action == "same_bets":
            rnd = self.round
            return rnd is not None and rnd.BET_STEP is not None and bool(self.specs(rnd.BET_STEP))
        if action == "undo_step":
            return (rnd := self.round) is not None and rnd.undoable() is not None
        if action in BETWEEN_HANDS:
            rnd = self.round
            between = rnd is None or rnd.phase in (Phase.DONE, Phase.VOID)
            if action in BETWEEN_SHIFTS and self.table.tray.kept_problem(BETWEEN_SHIFTS[action]) is not None:
                return False
            if action == "dealer":  # between hands, or to carry on a hand nobody is signed in for
                return between or self.table.session.dealer is None
            if action == "start":
                return between and self.table.session.dealer is not None
            if action == "join":
                return between and len(self.table.session.players) < self.table.session.seat_count
            if action in ("more_chips", "leave", "identify", "sit_out"):
                return between and bool(self.table.session.players)
            return between
        if action in self.KINDS:
            return self.table.session.dealer is not None and bool(self.specs(self.KINDS[action]))
        return True

    def key_refusal(self, pressed: str) -> str | None:
        """Why the key `pressed` does nothing now (None: it acts, or no step of the table's is bound
        to it)."""
        rnd = self.round
        in_hand = rnd is not None and rnd.phase not in (Phase.DONE, Phase.VOID)
        bound = [b for b in self._bindings_list() if b.key == pressed]
        game = [b for b in self._game_bindings() if b.key == pressed]
        if in_hand and self.table.session.dealer is None and (game or any(b.action in self.KINDS for b in bound)):
            return self.no_dealer_text(NO_DEALER_IN_HAND)
        away = self.table.session.players.get(self.selected) if self.selected is not None else None
        if away is not None and away.away and in_hand and game:
            return self.with_keys(_("Seat {seat} ({name}) sits out this hand: {sit_out} brings them back between "
                                    "hands.", seat=self.selected, name=away.name))
        table_step = next((b for b in bound if b.action in TABLE_STEP_KEYS), None)
        if table_step is not None and not self.check_action(table_step.action, ()):
            return self._why_not_table_step(table_step.action)
        between = [b for b in bound if b.action in BETWEEN_HANDS]
        if between and not any(self.check_action(b.action, ()) for b in between):
            step = between[0]
            closed = self.table.tray.kept_problem(BETWEEN_SHIFTS[step.action]) if step.action in BETWEEN_SHIFTS else None
            if in_hand:
                return _("{step} waits for the end of the hand: finish or void the round first.",
                         step=_(step.description))
            if closed is not None:
                return self.with_keys(_("{problem} ({tray}).", problem=told(closed)))
            if step.action == "start" and self.table.session.dealer is None:
                return self.no_dealer_text(NO_DEALER)
            return None
        mine = [b for b in bound if b.action in self.KINDS]
        if any(self.check_action(b.action, ()) for b in mine):
            return None  # a binding of this key is legal and runs
        for binding in mine:
            kind = self.KINDS[binding.action]
            if rnd is None or rnd.phase in (Phase.DONE, Phase.VOID):
                return self.with_keys(_("no hand is in play: {start} starts one"))
            if not rnd.has_step(kind):
                return _("{step} is not possible now.", step=_(binding.description)) + " " + \
                    self.with_keys(self.presenter.prompt(rnd))
            return self._why_not(kind, self.key_seat(binding.action),
                                 _("{step} is not possible now", step=_(binding.description)))
        return None

    def no_dealer_text(self, template: str) -> str:
        """`template` (NO_DEALER…) with the key that signs a dealer in, and who was signed out last and
        why (the recorded reason, up to its colon): "(Dana (D1) was signed out: no key for 20 minutes)"."""
        left = self.table.session.signed_out
        why = ""
        if left is not None:
            who, reason = left
            cause = told(reason).partition(":")[0].strip()
            why = " ({name}, {account}: {cause})".format(name=who.name, account=who.account,
                                                         cause=cause or _("signed out"))
        return self.with_keys(_(template, dealer=key("dealer"), why=why))

    def unbound_key(self, pressed: str, character: str) -> str | None:
        """What a typed character no key of this screen is bound to says (None: a key is bound to it)."""
        if any(pressed in (k.strip() for k in b.key.split(",")) for b in self._bindings_list()):
            return None
        shown = _("Space") if character == " " else character
        return _("{key} is not a key of this game's table: the key bar shows the keys of this step; ? shows them "
                 "with the rules.", key=shown)

    def _why_not_table_step(self, action: str) -> str:
        """Why the table's own step `action` (a step taken back, last round's bets again) does
        nothing now."""
        rnd = self.round
        in_hand = rnd is not None and rnd.phase not in (Phase.DONE, Phase.VOID)
        if action == "same_bets":
            if not in_hand:
                return self.with_keys(_("Last round's bets are placed again during the antes: {start} starts a "
                                        "round first."))
            return _("Last round's bets are placed again during the antes only; the antes are over.")
        if rnd is None or not in_hand:
            return _("Nothing to take back: no hand is in play (a finished round is corrected by the supervisor).")
        if not rnd.UNDOABLE:
            return self.with_keys(_("This game takes no step back: a mis-key is corrected by voiding the round with "
                                    "{void} and the supervisor."))
        last = next((e for e in reversed(rnd.events) if not isinstance(e, RoundRecovered)), None)
        step = self.presenter.describe(last) if last is not None else _("the start of the round")
        return self.with_keys(_("Nothing to take back: the last step ({step}) is not one the dealer takes back (only "
                                "a bet or a player's act just keyed); a misdeal is voided with {void} and the "
                                "supervisor.", step=step.rstrip(".")))

    def active_keys(self) -> list[Binding]:
        out = []
        for binding in self._bindings_list():
            if binding.show and self.check_action(binding.action.split("(")[0], ()):
                out.append(binding)
        return out

    def _game_bindings(self) -> list[Binding]:
        """The game's own keys (its screen's bindings, not the table's): each acts for a seat."""
        found: list[Binding] = []
        for cls in type(self).__mro__:
            if cls.__dict__.get("TABLE_KEYS"):
                break
            found += [b for b in cls.__dict__.get("BINDINGS", ()) if isinstance(b, Binding)]
        return found

    def _bindings_list(self) -> list[Binding]:
        found: list[Binding] = []
        for cls in type(self).__mro__:
            for b in getattr(cls, "BINDINGS", []) or []:
                if isinstance(b, Binding):
                    found.append(b)
        return found

    # -- the keys of the steps this screen's helpers take ---------------------------------------

    def action_join(self) -> None:
        self.changes.join()

    def action_more_chips(self) -> None:
        self.changes.more_chips()

    def action_identify(self) -> None:
        self.changes.identify()

    def action_sit_out(self) -> None:
        self.changes.sit_out()

    def action_leave(self) -> None:
        self.changes.leave()

    def action_change_profile(self) -> None:
        self.changes.change_profile()

    def action_dealer(self) -> None:
        self.changes.dealer()

    def action_tray(self) -> None:
        self.tray_steps.tray()

    def action_void(self) -> None:
        self.signed_steps.void()

    def action_floor(self) -> None:
        self.signed_steps.floor()

    def action_help(self) -> None:
        keys = [(key_name(b), _(b.description)) for b in self.active_keys()]
        self.app.push_screen(HelpScreen(keys, self.table.profile, self.RULES_SUMMARY))
