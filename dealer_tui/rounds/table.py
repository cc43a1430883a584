"""A live table: the session, the current round, the card source and the ledger, kept in step.

Every change follows one path: the round (or the session) validates and returns events; the
ledger records them in one transaction; only then are they folded in. If the write fails,
nothing changed. Opening a table replays its events: an unfinished round comes back where it was.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from dealer_tui.events import Event, EventError, typed, typed_as
from dealer_tui.events.accounting import CASH
from dealer_tui.events.round_row import round_update, start_flags
from dealer_tui.events.table import (
    ChipsBought,
    DealerSignedIn,
    DealerSignedOut,
    RoundRecovered,
    RoundStarted,
    SeatTaken,
    TableChanged,
    TableOpened,
)
from dealer_tui.ledger.base import (
    Lease,
    Ledger,
    LedgerError,
    RoundRecord,
    RoundUpdate,
    StoredEvent,
    TableLedger,
    TableRecord,
)
from dealer_tui.rounds.base import (
    CardRequest,
    Phase,
    Round,
    Step,
    WithCards,
    cards_in,
)
from dealer_tui.rounds.cards import CardSource
from dealer_tui.rounds.cash import OUT
from dealer_tui.rounds.game import Game
from dealer_tui.rounds.session import TABLE_EVENTS, TableSession
from dealer_tui.rounds.table_money import Marker, TableMoney
from dealer_tui.rounds.tray import TRAY_EVENTS, Tray
from dealer_tui.staff import DEAL, Approval, StaffRegister, claim_problem
from dealer_tui.staff.profiles import approval_problem
from rules.errors import IllegalAction, RulesError
from rules.profiles.loader import LoadedProfile
from rules.said import Said, as_said, say

TABLE_KINDS = frozenset(e.KIND for e in TABLE_EVENTS)
TRAY_KINDS = frozenset(e.KIND for e in TRAY_EVENTS)


RESTARTED = say("the terminal that held the table stopped: the dealer signs in again")
"""Why the dealer on duty was signed out when a terminal took the table over."""
CLOSED = say("the terminal was closed: the dealer signs in again")


def table_called(name: str) -> Said:
    """A table's name as a sentence says it: "Table 1" as it is, never "table Table 1"; any
    other name as "table Pilot"."""
    return Said.literal(name) if name.casefold().startswith("table") else say("table {name}", name=name)
"""Why the dealer on duty was signed out when the terminal gave the table up (a clean exit)."""


@dataclass
class Table:
    ledger: TableLedger
    record: TableRecord
    game: Game[Any]
    profile: LoadedProfile
    source: CardSource
    session: TableSession
    round: Round | None = None
    round_id: int | None = None
    on_step: Callable[[str], None] | None = None
    """Called at each stage of a step ("before_append", "after_append", "after_apply"):
    a point where a crash must lose nothing."""
    took_over: Lease | None = None
    """The lease of the dead terminal this one took the table over from, if it did."""
    tray: Tray = field(default_factory=Tray)
    """The tray across the table's shifts (opener, fills, credits, chips sold, closer)."""
    money: TableMoney = field(init=False, repr=False)
    """The table's money steps: the tray's counts, fills and credits, chips sold, colour-ups."""

    def __post_init__(self) -> None:
        self.money = TableMoney(self)

    # -- opening ----------------------------------------------------------------------------

    @classmethod
    def create(cls, ledger: TableLedger, name: str, game: Game[Any], profile: LoadedProfile, source: CardSource,
               seats: int, *, training: bool = False) -> Table:
        """A new table, recorded with its opening event and held by this terminal in one
        transaction: a crash leaves either no table or one that opens. A training table's rounds
        are marked `training` and left out of the floor's totals unless asked for."""
        cls._check_game(game, profile)
        game.round_class(keyed=source.kind == "entry")  # refuses a game with no keyed variant
        cls.check_approved(ledger, profile)
        opened = TableOpened(seats=seats, profile=profile.name, profile_sha256=profile.sha256,
                             profile_text=profile.text, card_source=source.kind, seeded=source.seeded,
                             training=training)
        record = ledger.create_table(name, profile.game, profile.name, profile.sha256, source.kind,
                                     events=[opened.record()], lease=True)
        table = cls(ledger, record, game, profile, source, TableSession(seats))
        table.session.apply(opened)
        table.tray.apply(opened)
        return table

    @classmethod
    def open(cls, ledger: TableLedger, record: TableRecord, game: Game[Any], profile: LoadedProfile,
             source: CardSource) -> Table:
        """Hold the table for this terminal (`TableInUse` when another live terminal plays it; a
        dead terminal's table is taken over), replay it, and reopen its unfinished round exactly
        where it stopped."""
        took_over = ledger.take_table(record.id)
        try:
            try:
                table = cls._replay(ledger, record, game, profile, source)
            except EventError as exc:
                raise LedgerError(say("table {table} (id {id}) cannot be replayed: {problem}", table=repr(record.name),
                                      id=str(record.id), problem=exc.said if isinstance(exc, RulesError) else str(exc))
                                  ) from None
            except IllegalAction as exc:  # its profile may not open a table
                raise LedgerError(say("table {table} (id {id}) cannot be opened: {problem}", table=repr(record.name),
                                      id=str(record.id), problem=exc.said)) from None
        except BaseException:
            try:
                ledger.release_table(record.id)
            except LedgerError:
                pass
            raise
        table.took_over = took_over
        if took_over is not None and table.session.dealer is not None:
            table.sign_out_absent(RESTARTED)
        return table

    def sign_out_absent(self, reason: Said) -> None:
        """The dealer on duty signed out without a step of their own, at any point of a hand (the
        terminal stopped or closed under them, or was left without a key for the profile's idle
        time): whoever carries on at the table signs in with their PIN first."""
        on_duty = self.session.dealer
        if on_duty is not None:
            self._record_table([DealerSignedOut(account=on_duty.account, reason=reason)])

    @classmethod
    def _replay(cls, ledger: TableLedger, record: TableRecord, game: Game[Any], profile: LoadedProfile,
                source: CardSource) -> Table:
        events = ledger.table_events(record.id)
        stored = next((e for e in events if e.kind == TableOpened.KIND), None)
        if stored is None:
            raise LedgerError(say("table {table} (id {id}) has no opening record: its creation never completed; it "
                                  "cannot be played", table=repr(record.name), id=str(record.id)))
        opened = typed_as(TableOpened, stored)
        if game.id != record.game:
            raise LedgerError(say("table {table} (id {id}) is a {game} table, not {asked}", table=repr(record.name),
                                  id=str(record.id), game=record.game, asked=game.id))
        cls._check_recorded_profile(ledger, events, profile)
        session = TableSession(opened.seats)
        session.apply_all(e for e in events if e.kind in TABLE_KINDS)
        table = cls(ledger, record, game, profile, source, session)
        table.tray.apply_all(e for e in events if e.kind in TRAY_KINDS)
        unfinished = ledger.unfinished_rounds(record.id)
        if unfinished:
            rnd = unfinished[-1]
            round_events = [typed(e, record.game) for e in ledger.round_events(rnd.id)]
            started = typed_as(RoundStarted, round_events[0])
            cls_ = game.round_class(keyed=table.keyed)
            table.round = cls_.replay(profile.profile, started.setup, round_events)
            table.round_id = rnd.id
            source.new_round(started.number, used=cards_in(round_events, record.game))
            recovered = RoundRecovered(phase=table.round.phase.value)
            ledger.append(record.id, rnd.id, [recovered.record()], RoundUpdate(add_flags=frozenset({"recovered"})))
            table.round.apply(recovered)
        return table

    # -- the table between rounds -------------------------------------------------------------

    def _record_table(self, events: Sequence[Event]) -> None:
        stored = self.ledger.append(self.record.id, None, [e.record() for e in events])
        for e, s in zip(events, stored, strict=False):
            self.session.apply(e)
            self.tray.apply(e, s.ledger_seq)

    def _buy_rule(self) -> Callable[[Sequence[int], int], tuple[str | None, bool]]:
        rules = self.game.round
        return lambda history, amount: rules.buy_rule(self.profile.profile, history, amount)

    def seat_player(self, seat: int, name: str, buy_in: int, method: str = CASH,
                    chips: Mapping[str, int] | None = None, card: str = "", marker: Marker | None = None,
                    document: str = "") -> None:
        """A player sits with a buy-in paid in cash or by marker (`marker`: its number and the
        supervisor's signature), `chips` (by denomination; None: the largest first) given from the
        tray; `card` is their loyalty card (empty: anonymous); `document` the ID document they
        showed (kind and number), which cash at the currency-transaction threshold needs."""
        self._between_rounds(say("seat a player"))
        card = card.strip()
        if card:
            self.money.check_card(card)
        document = self.money.check_document(document) if document.strip() else ""
        events = self.session.seat_events(seat, name, buy_in, self._buy_rule())
        given = self.money.chips_sold(buy_in, method, chips)
        number, signer, sign_in = self.money.marker_fields(method, marker)
        if method == CASH:
            self.money.check_ctr(name.strip(), card, seat, buy_in, document=document)
        recorded = [replace(e, method=method, chips=given, card=card, document=document, marker=number,
                            approved_by=signer, sign_in=sign_in)
                    if isinstance(e, SeatTaken) else e for e in events]
        self.check_authority(recorded, say("take the marker"))
        self._record_table(recorded)

    def check_seating(self, seat: int, name: str, buy_in: int) -> None:
        """Whether the player may sit at `seat` with `buy_in` by the game's rules and the tray, as
        the dealer types it (`IllegalAction` says why not); nothing is recorded."""
        self.session.seat_events(seat, name or "?", buy_in, self._buy_rule())
        self.money.check_sale(buy_in)

    def check_buying(self, seat: int, amount: int) -> None:
        """Whether the seat may buy `amount` more by the game's rules and the tray (`IllegalAction`
        says why not); nothing is recorded."""
        self.session.buy_events(seat, amount, self._buy_rule())
        self.money.check_sale(amount)

    def buy_chips(self, seat: int, amount: int, method: str = CASH, chips: Mapping[str, int] | None = None,
                  marker: Marker | None = None) -> None:
        self._between_rounds(say("buy chips"))
        events = self.session.buy_events(seat, amount, self._buy_rule())
        given = self.money.chips_sold(amount, method, chips)
        number, signer, sign_in = self.money.marker_fields(method, marker)
        if method == CASH:
            player = self.session.player(seat)
            self.money.check_ctr(player.name, player.card, seat, amount, document=player.document)
        recorded = [replace(e, method=method, chips=given, marker=number, approved_by=signer, sign_in=sign_in)
                    if isinstance(e, ChipsBought) else e for e in events]
        self.check_authority(recorded, say("take the marker"))
        self._record_table(recorded)

    def leave(self, seat: int) -> None:
        """The player cashes out and leaves; a cash-out that takes their cash out over the gaming day
        to the currency-transaction threshold needs their ID document recorded first."""
        self._between_rounds(say("leave the table"))
        player = self.session.player(seat)
        if player.stack:
            self.money.check_ctr(player.name, player.card, seat, player.stack, OUT, player.document)
        self._record_table(self.session.leave_events(seat))

    def sit_out(self, seat: int, away: bool = True) -> None:
        """The player sits out from the next round, keeping the seat and the chips (`away`), or
        comes back into the next."""
        self._between_rounds(say("sit out") if away else say("come back in"))
        self._record_table(self.session.away_events(seat, away))

    def change_profile(self, profile: LoadedProfile, reason: str, approval: Approval) -> None:
        """C-8: a new profile (paytables, limits) with a supervisor's approval, from the next round."""
        self._between_rounds(say("change the table's profile"))
        if profile.game != self.record.game:
            raise IllegalAction(say("profile {profile} is for {game}: open a new table for another game",
                                    profile=repr(profile.name), game=profile.game))
        if not reason.strip():
            raise IllegalAction(say("a profile change needs a reason and a supervisor's approval (C-8)"))
        if self.tray.shift is not None and profile.profile.chip_set() != self.profile.profile.chip_set():
            raise IllegalAction(say("profile {profile} has another chip set: the tray is counted by one chip set "
                                    "a shift; count the closer first", profile=repr(profile.name)))
        change = TableChanged(profile=profile.name, profile_sha256=profile.sha256, profile_text=profile.text,
                              reason=reason.strip(), approved_by=approval.account,
                              from_round=self.session.rounds_started + 1, sign_in=approval.sign_in)
        self.check_authority([change], say("change the table's profile"))
        self.check_approved(self.ledger, profile)
        self._record_table([change])
        self.profile = profile

    # -- who deals, who approves ----------------------------------------------------------------

    def sign_in_dealer(self, approval: Approval) -> None:
        """The dealer who signed in (for `DEAL` at this table) is on duty from now on; the one
        before is signed out by it (a dealer change without stopping the table)."""
        if approval.act != DEAL:
            raise IllegalAction(say("a dealer signs in to deal"))
        events: list[Event] = []
        if self.session.dealer is not None and self.session.dealer.account != approval.account:
            events.append(DealerSignedOut(account=self.session.dealer.account, reason=say("{account} took over", account=approval.account)))
        events.append(DealerSignedIn(account=approval.account, name=approval.name, sign_in=approval.sign_in))
        self.check_authority(events, say("sign the dealer in"))
        self._record_table(events)

    def sign_out_dealer(self, reason: Said = Said.literal("")) -> None:
        """The dealer leaves the table (a break, the end of the shift): no round starts until the
        next one signs in."""
        self._between_rounds(say("sign the dealer out"))
        if self.session.dealer is None:
            raise IllegalAction(say("No dealer is signed in at this table"))
        self._record_table([DealerSignedOut(account=self.session.dealer.account, reason=reason)])

    @classmethod
    def _check_recorded_profile(cls, ledger: Ledger, events: Sequence[StoredEvent], profile: LoadedProfile) -> None:
        """A table reopened runs its profile only if that text may open a table: shipped, or approved
        by a manager — unless the table took it before the staff register began (an upgraded
        ledger's tables carry on with theirs)."""
        changes = [e for e in events if e.kind in (TableOpened.KIND, TableChanged.KIND)]
        first = StaffRegister.read(ledger).first_seq
        if changes and first is not None and (changes[-1].ledger_seq or 0) >= first:
            cls.check_approved(ledger, profile)

    @staticmethod
    def _check_game(game: Game[Any], profile: LoadedProfile) -> None:
        if profile.game != game.id:
            raise IllegalAction(say("profile {profile} is for {game}, not {other}", profile=repr(profile.name),
                                    game=profile.game, other=game.id))

    @staticmethod
    def check_approved(ledger: Ledger, profile: LoadedProfile) -> None:
        """A casino's own profile opens a table only once a manager approved its exact text."""
        problem = approval_problem(StaffRegister.read(ledger), profile)
        if problem is not None:
            raise IllegalAction(problem)

    def check_authority(self, events: Sequence[Event], what: Said) -> None:
        """Every event that claims someone's authority names a sign-in that stands (the staff
        register in the ledger, read now): else `IllegalAction` saying why, nothing recorded."""
        claims = [c for e in events for c in e.claims()]
        if not claims:
            return
        register = StaffRegister.read(self.ledger)
        number = self.session.rounds_started if self.round is not None else None
        for claim in claims:
            problem = claim_problem(register, claim, table=self.record.id, round=number,
                                    dealers=frozenset(self.session.round_dealers))
            if problem is not None:
                raise IllegalAction(say("The table may not {action}: {reason}", action=what, reason=as_said(problem)))

    def _between_rounds(self, what: Said) -> None:
        if self.round is not None and self.round.phase not in (Phase.DONE, Phase.VOID):
            raise IllegalAction(say("No one may {action} during a hand: finish or void the round first", action=what))

    # -- rounds -----------------------------------------------------------------------------

    def start_round(self, **choices: object) -> Round:
        self._between_rounds(say("start a new round"))
        if self.session.dealer is None:
            raise IllegalAction(say("No round starts with no dealer signed in: the dealer signs in first"))
        kept = self.tray.kept_problem(say("round starts"))
        if kept is not None:
            raise IllegalAction(kept)
        cls_ = self.game.round_class(keyed=self.keyed)
        number = self.session.rounds_started + 1
        setup = cls_.setup_from(self.session, self.profile.profile, **choices)
        started = RoundStarted(number=number, setup=setup, button=setup.get("button"), banker=setup.get("banker"),
                               profile=self.profile.name, profile_sha256=self.profile.sha256,
                               card_source=self.source.kind, seeded=self.source.seeded,
                               training=self.session.training, dealer=self.session.dealer.account)
        rnd = cls_(self.profile.profile, setup)
        flags = start_flags(self.source.seeded, self.session.training)
        record = self.ledger.open_round(self.record.id, self.record.game, self.profile.name, [started.record()],
                                        flags)
        rnd.apply(started)
        self.session.apply(started)
        self.tray.apply(started)
        self.source.new_round(number)
        self.round, self.round_id = rnd, record.id
        return rnd

    def last_round_events(self) -> list[Event]:
        """The events of this table's last round before the current one (settled or void); empty
        when there is none."""
        earlier = [r for r in self.ledger.table_rounds(self.record.id) if r.id != self.round_id]
        if not earlier:
            return []
        return [typed(e, self.record.game) for e in self.ledger.round_events(earlier[-1].id)]

    def repeat_bets(self, seat: int) -> list[Event]:
        """Place `seat`'s bets as they stood last round (HCF, "1 or 5"); a refusal names the reason."""
        if self.round is None:
            raise IllegalAction(say("There is no round: start one first"))
        steps = self.round.repeat_bets(self.last_round_events(), seat)
        if not steps:
            raise IllegalAction(say("Seat {seat} placed no bets last round: nothing to repeat", seat=seat))
        trial = type(self.round).replay(self.round.profile, self.round.setup, self.round.events)
        for step in steps:  # every bet checked, one after the other, before any is recorded
            trial.apply_all(trial.propose(step))
        return [event for step in steps for event in self.act(step)]

    def act(self, action: Step) -> list[Event]:
        """Carry out one step: fill its cards, validate, record, fold in."""
        if self.round is None or self.round_id is None:
            raise IllegalAction(say("There is no round: start one first"))
        if self.session.dealer is None:
            raise IllegalAction(say("No dealer is signed in for this hand: the dealer signs in with their PIN first"))
        dealt = self._with_cards(action)
        try:
            events = self.round.propose(dealt)
            self.check_authority(events, self.round.verb(type(action)))
            self.money.check_tray_covers(events)
        except IllegalAction:
            if dealt is not action:  # a refused step's cards go back: the next step deals them
                self._restock()
            raise
        self._step("before_append")
        try:
            self.ledger.append(self.record.id, self.round_id, [e.record() for e in events],
                               round_update(events))
        except LedgerError:
            if dealt is not action:  # the cards dealt for it go back: a retry deals as a restart would
                self._restock()
            raise
        self._step("after_append")
        for event in events:
            self.round.apply(event)
            self.session.apply(event)
            self.tray.apply(event)
        self._step("after_apply")
        return events

    def _restock(self) -> None:
        """The card source as the recorded round leaves it (as when the table is reopened)."""
        if self.round is not None and self.round.events:
            first = self.round.events[0]
            number = first.number if isinstance(first, RoundStarted) else self.session.rounds_started
            self.source.new_round(number, used=cards_in(self.round.events, self.record.game))

    def renew(self) -> None:
        """The heartbeat of this terminal's hold on the table (`LeaseLost` once taken over)."""
        self.ledger.renew_leases()

    def close(self) -> None:
        """Give the table up (a clean exit): another terminal may open it at once."""
        self.ledger.release_table(self.record.id)

    def _step(self, name: str) -> None:
        if self.on_step is not None:
            self.on_step(name)

    @property
    def keyed(self) -> bool:
        """A live table: the dealer keys the physical cards (recorded when the table was opened)."""
        return self.record.card_source == "entry"

    def card_request(self, step: Step) -> CardRequest | None:
        """The cards `step` needs now and does not bring (at a live table, what to key)."""
        if not isinstance(step, WithCards) or step.cards or self.round is None:
            return None
        spec = next((s for s in self.round.legal_steps() if s.needs_cards is not None and s.admits(step)), None)
        return None if spec is None else spec.needs_cards

    def _with_cards(self, step: Step) -> Step:
        request = self.card_request(step)
        if request is None or not isinstance(step, WithCards):
            return step
        return replace(step, cards=self.source.fill(request))


def round_dealers(ledger: Ledger, record: RoundRecord) -> frozenset[str]:
    """Every account that dealt the round: the dealer on duty when it started and any who signed
    in at the table while it was in play (none of them signs off its payout)."""
    events = ledger.table_events(record.table_id, [RoundStarted.KIND, DealerSignedIn.KIND])
    dealers: set[str] = set()
    inside = False
    for stored in events:
        if stored.kind == RoundStarted.KIND:
            if inside:
                break  # the next round: the one asked about ended before it
            if stored.round_id == record.id:
                inside = True
                dealers.add(typed_as(RoundStarted, stored).dealer)
        elif inside:
            dealers.add(typed_as(DealerSignedIn, stored).account)
    dealers.discard("")
    return frozenset(dealers)
