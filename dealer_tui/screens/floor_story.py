"""One round's story: every event with its time, the cards, and per seat per bet the settlement
with the rule that decided it; per seat what it wagered, was paid and got back, adding up to the
round's figures. A voided round shows the bets its void returned and who approved the void; a
Chinese Poker round each seat's rows and its foul or natural."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Header, Static

from dealer_tui.audit.resettle import waiting_payout
from dealer_tui.events import Event, EventError, typed
from dealer_tui.events.table import PayoutConfirmed, RoundStarted
from dealer_tui.language import N_, _, n_, number, p_, signed, told
from dealer_tui.ledger import Ledger, RoundRecord, StoredEvent
from dealer_tui.ledger.base import ROUND_OPEN
from dealer_tui.ledger.payouts import SeatChips, seat_chips
from dealer_tui.rounds.base import RoundOutcome
from dealer_tui.rounds.game import Games
from dealer_tui.screens.floor_names import TableNames
from dealer_tui.screens.floor_voids import Void, Voids
from dealer_tui.staff import StaffRegister
from dealer_tui.views import Presenter, StoryTable
from dealer_tui.views.card_words import place
from dealer_tui.views.record_words import flags_text, status_word
from dealer_tui.widgets.screen_keys import ScreenKeys
from rules.bets import bet_label
from rules.cards import Card


def identity(wagered: int, from_stacks: int, paid: int, returned: int, house: int) -> str:
    """The round's chips as they add up: wagered + from stacks = paid + returned + house."""
    if from_stacks:
        return _("wagered {wagered} + from stacks {from_stacks} = paid {paid} + returned {returned} + house {house}",
                 wagered=number(wagered), from_stacks=number(from_stacks), paid=number(paid),
                 returned=number(returned), house=signed(house))
    return _("wagered {wagered} = paid {paid} + returned {returned} + house {house}", wagered=number(wagered),
             paid=number(paid), returned=number(returned), house=signed(house))


class StoryScreen(Screen[None]):
    CSS_PATH = "floor.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "back", N_("Back to the list"))]

    def __init__(self, ledger: Ledger, record: RoundRecord, games: Games[Presenter[Any]],
                 tables: TableNames | None = None, voids: Voids | None = None) -> None:
        super().__init__()
        self.ledger, self.record, self.games = ledger, record, games
        self.tables = tables or TableNames(ledger)
        self.voids = voids or Voids(ledger, games)
        self._staff: StaffRegister | None = None
        self.waiting: RoundOutcome | None = None
        """An open round's payout as the rules give it, once it has reached it (what is signed off)."""
        if record.status == ROUND_OPEN:
            table = next((t for t in ledger.tables() if t.id == record.table_id), None)
            self.waiting = waiting_payout(ledger, games, table, record.id) if table is not None else None

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with VerticalScroll(id="story"):
            yield Static(self._story(), id="story-text")
        yield ScreenKeys()

    def on_mount(self) -> None:
        r = self.record
        self.title = _("Round {number} (id {id}) — {game} at {table}", number=r.number, id=r.id,
                       game=self.games.title(r.game), table=self.tables.name(r.table_id))


    def _story(self) -> Group:
        r = self.record
        recorded = self.ledger.round_events(r.id)
        void = self.voids.of(r)
        parts: list[RenderableType] = [self._head(r, recorded, void)]
        if void is not None:
            parts.append(_void_table(void))
        parts.append(self._events(r, recorded))
        if r.status != ROUND_OPEN:  # a round still open keeps its own part hidden (rows set but not opened)
            section = self.games.find(r.game).presenter.story([e for e in (_read(e, r.game) for e in recorded) if e is not None])
            if section is not None:
                parts.append(_story_table(section))
        rows = self.ledger.settlement(r.id)
        if rows:
            parts.append(self._settlement(recorded, rows))
            parts.append(_per_seat(rows))
        elif self.waiting is not None:
            parts.append(_waiting_table(self.waiting))
            parts.append(_per_seat(list(self.waiting.rows)))
            parts.append(self._recent(r))
        return Group(*parts)

    def _recent(self, r: RoundRecord, count: int = 5) -> Table:
        """The table's last rounds before this one: what the supervisor weighs a payout against."""
        table = Table(title=n_("The table's last round", "The table's last {count} rounds", count), title_justify="left",
                      expand=True)
        for column, right in ((_("Round"), False), (_("Ended"), False), (_("Status"), False), (_("Wagered"), True),
                              (_("Paid"), True), (_("House"), True), (_("Flags"), False)):
            table.add_column(column, justify="right" if right else "left")
        earlier = [x for x in self.ledger.table_rounds(r.table_id) if x.number < r.number][-count:]
        for x in reversed(earlier):
            table.add_row(str(x.number), (x.ended_at or "")[11:19], status_word(x.status), number(x.wagered),
                          number(x.paid), signed(x.house_result), flags_text(x.flags, self.games.flag_words()))
        if not earlier:
            table.add_row("", "", _("the table's first round"), "", "", "", "")
        return table

    def _head(self, r: RoundRecord, recorded: list[StoredEvent], void: Void | None) -> Text:
        head = Text()
        head.append(_("{game} · profile {profile} · {status}", game=self.games.title(r.game), profile=r.profile,
                      status=status_word(r.status)), style="bold")
        head.append(_(" · started {at} UTC", at=r.started_at[:19].replace('T', ' ')))
        if r.ended_at:
            head.append(_(" · ended {at} UTC", at=r.ended_at[:19].replace('T', ' ')))
        if r.flags:
            head.append("\n" + _("flags: {flags}", flags=flags_text(r.flags, self.games.flag_words())), style="yellow")
        if void is not None:
            head.append("\n" + _("voided at {at}: {reason} — {approval}", at=void.at[11:19], reason=void.reason,
                                  approval=void.approval), style="yellow")
            if void.returned is not None:
                head.append("\n" + _("{figures} (a void returns every bet)",
                                      figures=identity(void.wagered, 0, 0, void.wagered, 0)))
        elif r.status == ROUND_OPEN:
            if self.waiting is None:
                head.append("\n" + _("in play: nothing is settled yet"))
            else:
                out = self.waiting
                seats = "; ".join(_handed(seat, c) for seat, c in seat_chips(list(out.rows)).items()
                                  if c.payout or c.returned)
                head.append("\n" + _("waiting at its payout: {paid} chips out (winning stakes back + winnings); "
                                      "{seats}; house {house}", paid=number(out.paid),
                                      seats=seats or _("no seat is paid"), house=signed(out.house)), style="bold")
        else:
            head.append(f"\n{identity(r.wagered, r.from_stacks, r.paid, r.returned, r.house_result)}")
            head.append("\n" + _("paid: the chips handed to the seats at payout (winning bets with their stakes, a "
                                  "DP's take, a pot's share); returned: stakes back on pushes; from stacks: what seats "
                                  "paid beyond their stakes"), style="dim")
        started = _read(recorded[0], r.game) if recorded else None
        if isinstance(started, RoundStarted):
            source = CARD_SOURCES.get(started.card_source)
            cards = _(source) if source is not None else started.card_source
            head.append("\n" + _("cards: {source}", source=cards)
                        + (_(" — seeded, for training") if started.seeded else "")
                        + (_(" — at a training table") if started.training else ""))
            head.append("\n" + _("dealt by {dealer}", dealer=self._who(started.dealer)) if started.dealer
                        else "\n" + _("dealt before staff accounts (no dealer recorded)"))
        return head

    def _who(self, account: str) -> str:
        """An account as the register names it: `Dana Dealer (D1, dealer)`."""
        if self._staff is None:
            self._staff = StaffRegister.read(self.ledger)
        found = self._staff.accounts.get(account)
        return found.describe() if found is not None else repr(account)

    def _events(self, r: RoundRecord, recorded: list[StoredEvent]) -> Table:
        in_play = r.status == ROUND_OPEN and self.waiting is None  # at its payout, every card is turned
        title = _("Events (cards hidden while the round is in play)") if in_play else _("Events")
        events = Table(title=title, title_justify="left", show_lines=False, expand=True)
        for column in ("#", _("Time (UTC)"), _("What happened"), _("Cards and details")):
            events.add_column(column, overflow="fold")
        describe = self.games.find(r.game).presenter.describe
        for e in recorded:
            event = _read(e, r.game)
            if event is None:  # an event that does not read: shown as recorded (verify names why)
                said, details = _("{kind} (as recorded)", kind=e.kind.replace('_', ' ')), ""
            else:
                named = event.named_cards()
                # face-down cards, the stub and the banker's hand stay hidden until the round ends:
                # in the description as in the details
                said = e.kind.replace("_", " ") if in_play and named else describe(event)
                details = (_("hidden until the round ends") if in_play and named else
                           "; ".join(f"{place(label)}: {_text(cards)}" for label, cards in named))
            events.add_row(str(e.seq), e.ts[11:19], said, details)
        return events

    def _settlement(self, recorded: list[StoredEvent], rows: list[Any]) -> Table:
        confirmed = ""
        for e in recorded:
            payout = _read(e, "") if e.kind == PayoutConfirmed.KIND else None
            if isinstance(payout, PayoutConfirmed):
                at = e.ts[11:19]
                if payout.override:
                    confirmed = _("confirmed at {at}, paid on {account}'s override of the floor's refusal: {why}", at=at,
                                  account=self._who(payout.signed_off_by or ''), why=payout.override)
                elif payout.signed_off_by:
                    confirmed = _("confirmed at {at}, signed off by {account}", at=at,
                                  account=self._who(payout.signed_off_by))
                else:
                    confirmed = _("confirmed at {at}", at=at)
        title = _("Settlement, per seat and bet")
        table = Table(title=title + (f" ({confirmed})" if confirmed else ""), title_justify="left", expand=True)
        _bet_columns(table)
        for row in rows:
            table.add_row(str(row.seat), told(bet_label(row.bet)), number(row.stake), signed(row.result),
                          told(row.reason))
        return table

    def action_back(self) -> None:
        self.app.pop_screen()


def _handed(seat: int, chips: SeatChips) -> str:
    """What one seat is handed at a waiting payout, split into paid and returned, and its net:
    `seat 2 staked 1,500, is handed 1,700 (1,200 paid + 500 back on pushes), net +200`."""
    net = chips.payout + chips.returned - chips.wagered - chips.from_stack
    if not chips.returned:
        return _("seat {seat} staked {wagered}, is paid {paid}, net {net}", seat=seat, wagered=number(chips.wagered),
                 paid=number(chips.payout), net=signed(net))
    return _("seat {seat} staked {wagered}, is handed {handed} ({paid} paid + {returned} back on pushes), net {net}",
             seat=seat, wagered=number(chips.wagered), handed=number(chips.payout + chips.returned),
             paid=number(chips.payout), returned=number(chips.returned), net=signed(net))


def _bet_columns(table: Table) -> None:
    """A settlement's columns: seat, bet, stake, result and why."""
    for column, right in ((_("Seat"), False), (p_("column", "Bet"), False), (_("Stake"), True), (_("Result"), True),
                          (_("Why"), False)):
        table.add_column(column, overflow="fold", justify="right" if right else "left")


def _waiting_table(outcome: RoundOutcome) -> Table:
    """The payout the round waits on, per seat and bet, each with the rule that decided it."""
    table = Table(title=_("The payout waiting for sign-off, per seat and bet (stake: what the bet put up; result: "
                          "what it wins, + , or loses, −)"), title_justify="left", expand=True)
    _bet_columns(table)
    for row in outcome.rows:
        table.add_row(str(row.seat), told(bet_label(row.bet)), number(row.stake), signed(row.result),
                      told(row.reason))
    return table


def _per_seat(rows: list[Any]) -> Table:
    """Each seat's payout (the one definition, `payouts.seat_chips`) beside what it wagered and got back."""
    table = Table(title=_("Per seat (paid: the seat's payout; net = paid + returned − wagered − from stack)"),
                  title_justify="left", expand=True)
    for column in (_("Seat"), _("Wagered"), _("From stack"), _("Paid"), _("Returned"), _("Net")):
        table.add_column(column, justify="right")
    for seat, c in seat_chips(rows).items():
        net = c.payout + c.returned - c.wagered - c.from_stack
        table.add_row(str(seat), number(c.wagered), number(c.from_stack), number(c.payout), number(c.returned),
                      signed(net))
    return table


def _void_table(void: Void) -> RenderableType:
    if void.returned is None:
        return Text(_("The bets the void returned cannot be worked out here (its game or profile is not "
                      "available); the events below are as recorded."), style="yellow")
    table = Table(title=_("Returned by the void (every bet and fee)"), title_justify="left", expand=True)
    for column, right in ((_("Seat"), False), (_("Player"), False), (_("Bets"), False), (_("Returned"), True)):
        table.add_column(column, justify="right" if right else "left")
    for r in void.returned:
        table.add_row(str(r.seat), r.name, ", ".join(f"{told(label)} {number(amount)}" for label, amount in r.bets),
                      number(r.total))
    if not void.returned:
        table.add_row("", "", _("no bet was on the table"), "0")
    return table


VERDICT_STYLES = {"bad": "bold red", "good": "bold green", "": ""}


def _story_table(section: StoryTable) -> Table:
    """A game's own part of the story as the floor shows it."""
    table = Table(title=section.title, title_justify="left", expand=True)
    for column in section.columns:
        table.add_column(column, overflow="fold")
    for cells, verdict in section.rows:
        table.add_row(*cells[:-1], Text(cells[-1], style=VERDICT_STYLES[verdict]))
    if not section.rows:
        table.add_row(*[""] * (len(section.columns) - 1), section.empty)
    return table

CARD_SOURCES = {"entry": N_("keyed by the dealer at a live table (the keyed cards are in the events below)"),
                "shoe": N_("dealt by the terminal's virtual shoe"), "scripted": N_("a scripted deck (tests, replays)")}


def _text(cards: Sequence[Card]) -> str:
    return " ".join(c.text for c in cards)


def _read(event: StoredEvent, game: str) -> Event | None:
    """A recorded event as its typed event; None when it does not read (verify names why)."""
    try:
        return typed(event, game or None)
    except EventError:
        return None
