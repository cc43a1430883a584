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
from dealer_tui.language import N_
from dealer_tui.ledger import Ledger, RoundRecord, StoredEvent
from dealer_tui.ledger.base import ROUND_OPEN
from dealer_tui.ledger.payouts import SeatChips, seat_chips
from dealer_tui.rounds.base import RoundOutcome
from dealer_tui.rounds.game import Games
from dealer_tui.screens.floor_names import TableNames
from dealer_tui.screens.floor_voids import Void, Voids
from dealer_tui.staff import StaffRegister
from dealer_tui.views import Presenter, StoryTable
from dealer_tui.widgets.screen_keys import ScreenKeys
from rules.bets import bet_label
from rules.cards import Card


def identity(wagered: int, from_stacks: int, paid: int, returned: int, house: int) -> str:
    """The round's chips as they add up: wagered + from stacks = paid + returned + house."""
    left = f"wagered {wagered}" + (f" + from stacks {from_stacks}" if from_stacks else "")
    return f"{left} = paid {paid} + returned {returned} + house {house:+}"


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
        self.title = f"Round {r.number} (id {r.id}) — {r.game} at {self.tables.name(r.table_id)}"

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
        table = Table(title=f"The table's last {count} rounds", title_justify="left", expand=True)
        for column in ("Round", "Ended", "Status", "Wagered", "Paid", "House", "Flags"):
            table.add_column(column, justify="right" if column in ("Wagered", "Paid", "House") else "left")
        earlier = [x for x in self.ledger.table_rounds(r.table_id) if x.number < r.number][-count:]
        for x in reversed(earlier):
            table.add_row(str(x.number), (x.ended_at or "")[11:19], x.status, f"{x.wagered:,}", f"{x.paid:,}",
                          f"{x.house_result:+,}", ", ".join(sorted(x.flags)))
        if not earlier:
            table.add_row("", "", "the table's first round", "", "", "", "")
        return table

    def _head(self, r: RoundRecord, recorded: list[StoredEvent], void: Void | None) -> Text:
        head = Text()
        head.append(f"{r.game} · profile {r.profile} · {r.status}", style="bold")
        head.append(f" · started {r.started_at[:19].replace('T', ' ')} UTC")
        if r.ended_at:
            head.append(f" · ended {r.ended_at[:19].replace('T', ' ')} UTC")
        if r.flags:
            head.append(f"\nflags: {', '.join(sorted(r.flags))}", style="yellow")
        if void is not None:
            head.append(f"\nvoided at {void.at[11:19]}: {void.reason} — {void.approval}", style="yellow")
            if void.returned is not None:
                head.append(f"\n{identity(void.wagered, 0, 0, void.wagered, 0)} (a void returns every bet)")
        elif r.status == ROUND_OPEN:
            if self.waiting is None:
                head.append("\nin play: nothing is settled yet")
            else:
                out = self.waiting
                seats = "; ".join(_handed(seat, c) for seat, c in seat_chips(list(out.rows)).items()
                                  if c.payout or c.returned)
                head.append(f"\nwaiting at its payout: {out.paid:,} chips out (winning stakes back + winnings); "
                            f"{seats or 'no seat is paid'}; house {out.house:+,}", style="bold")
        else:
            head.append(f"\n{identity(r.wagered, r.from_stacks, r.paid, r.returned, r.house_result)}")
            head.append("\npaid: the chips handed to the seats at payout (winning bets with their stakes, a DP's "
                        "take, a pot's share); returned: stakes back on pushes; from stacks: what seats paid "
                        "beyond their stakes", style="dim")
        started = _read(recorded[0], r.game) if recorded else None
        if isinstance(started, RoundStarted):
            training = " — at a training table" if started.training else ""
            head.append("\ncards: " + CARD_SOURCES.get(started.card_source, started.card_source)
                        + (" — seeded, for training" if started.seeded else "") + training)
            head.append(f"\ndealt by {self._who(started.dealer)}" if started.dealer
                        else "\ndealt before staff accounts (no dealer recorded)")
        return head

    def _who(self, account: str) -> str:
        """An account as the register names it: `Dana Dealer (D1, dealer)`."""
        if self._staff is None:
            self._staff = StaffRegister.read(self.ledger)
        found = self._staff.accounts.get(account)
        return found.describe() if found is not None else repr(account)

    def _events(self, r: RoundRecord, recorded: list[StoredEvent]) -> Table:
        in_play = r.status == ROUND_OPEN and self.waiting is None  # at its payout, every card is turned
        title = "Events (cards hidden while the round is in play)" if in_play else "Events"
        events = Table(title=title, title_justify="left", show_lines=False, expand=True)
        for column in ("#", "Time (UTC)", "What happened", "Cards and details"):
            events.add_column(column, overflow="fold")
        describe = self.games.find(r.game).presenter.describe
        for e in recorded:
            event = _read(e, r.game)
            if event is None:  # an event that does not read: shown as recorded (verify names why)
                said, details = f"{e.kind.replace('_', ' ')} (as recorded)", ""
            else:
                named = event.named_cards()
                # face-down cards, the stub and the banker's hand stay hidden until the round ends:
                # in the description as in the details
                said = e.kind.replace("_", " ") if in_play and named else describe(event)
                details = ("hidden until the round ends" if in_play and named else
                           "; ".join(f"{label}: {_text(cards)}" for label, cards in named))
            events.add_row(str(e.seq), e.ts[11:19], said, details)
        return events

    def _settlement(self, recorded: list[StoredEvent], rows: list[Any]) -> Table:
        confirmed = ""
        for e in recorded:
            payout = _read(e, "") if e.kind == PayoutConfirmed.KIND else None
            if isinstance(payout, PayoutConfirmed):
                confirmed = f"confirmed at {e.ts[11:19]}" + (
                    f", paid on {self._who(payout.signed_off_by or '')}'s override of the floor's refusal: "
                    f"{payout.override}" if payout.override else
                    f", signed off by {self._who(payout.signed_off_by)}" if payout.signed_off_by else "")
        table = Table(title="Settlement, per seat and bet" + (f" ({confirmed})" if confirmed else ""),
                      title_justify="left", expand=True)
        for column in ("Seat", "Bet", "Stake", "Result", "Why"):
            table.add_column(column, overflow="fold", justify="right" if column in ("Stake", "Result") else "left")
        for row in rows:
            table.add_row(str(row.seat), bet_label(row.bet), str(row.stake),
                          f"{row.result:+}", row.reason)
        return table

    def action_back(self) -> None:
        self.app.pop_screen()


def _handed(seat: int, chips: SeatChips) -> str:
    """What one seat is handed at a waiting payout, split into paid and returned, and its net:
    `seat 2 staked 1,500, is handed 1,700 (1,200 paid + 500 back on pushes), net +200`."""
    net = chips.payout + chips.returned - chips.wagered - chips.from_stack
    if not chips.returned:
        return f"seat {seat} staked {chips.wagered:,}, is paid {chips.payout:,}, net {net:+,}"
    return (f"seat {seat} staked {chips.wagered:,}, is handed {chips.payout + chips.returned:,} "
            f"({chips.payout:,} paid + {chips.returned:,} back on pushes), net {net:+,}")


def _waiting_table(outcome: RoundOutcome) -> Table:
    """The payout the round waits on, per seat and bet, each with the rule that decided it."""
    table = Table(title="The payout waiting for sign-off, per seat and bet (stake: what the bet put up; result: "
                        "what it wins, + , or loses, −)", title_justify="left", expand=True)
    for column in ("Seat", "Bet", "Stake", "Result", "Why"):
        table.add_column(column, overflow="fold", justify="right" if column in ("Stake", "Result") else "left")
    for row in outcome.rows:
        table.add_row(str(row.seat), bet_label(row.bet), f"{row.stake:,}",
                      f"{row.result:+,}", row.reason)
    return table


def _per_seat(rows: list[Any]) -> Table:
    """Each seat's payout (the one definition, `payouts.seat_chips`) beside what it wagered and got back."""
    table = Table(title="Per seat (paid: the seat's payout; net = paid + returned − wagered − from stack)",
                  title_justify="left", expand=True)
    for column in ("Seat", "Wagered", "From stack", "Paid", "Returned", "Net"):
        table.add_column(column, justify="right")
    for seat, c in seat_chips(rows).items():
        net = c.payout + c.returned - c.wagered - c.from_stack
        table.add_row(str(seat), str(c.wagered), str(c.from_stack), str(c.payout), str(c.returned), f"{net:+}")
    return table


def _void_table(void: Void) -> RenderableType:
    if void.returned is None:
        return Text("The bets the void returned cannot be worked out here (its game or profile is not "
                    "available); the events below are as recorded.", style="yellow")
    table = Table(title="Returned by the void (every bet and fee)", title_justify="left", expand=True)
    for column in ("Seat", "Player", "Bets", "Returned"):
        table.add_column(column, justify="right" if column == "Returned" else "left")
    for r in void.returned:
        table.add_row(str(r.seat), r.name, ", ".join(f"{label} {amount}" for label, amount in r.bets), str(r.total))
    if not void.returned:
        table.add_row("", "", "no bet was on the table", "0")
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

CARD_SOURCES = {"entry": "keyed by the dealer at a live table (the keyed cards are in the events below)",
                "shoe": "dealt by the terminal's virtual shoe", "scripted": "a scripted deck (tests, replays)"}


def _text(cards: Sequence[Card]) -> str:
    return " ".join(c.text for c in cards)


def _read(event: StoredEvent, game: str) -> Event | None:
    """A recorded event as its typed event; None when it does not read (verify names why)."""
    try:
        return typed(event, game or None)
    except EventError:
        return None
