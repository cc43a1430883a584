"""The round frame: phases, steps, card requests, and the propose/apply cycle.

A round validates a step and computes the events it produces without changing itself
(`propose`); the caller records those events and only then folds them in (`apply`). A round's
state is exactly the replay of its events, so a crash at any point loses nothing.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from dealer_tui.events import Event, Handlers, decode, on, typed
from dealer_tui.events.codec import Recorded
from dealer_tui.events.table import (
    CardsCorrected,
    PayoutConfirmed,
    RoundRecovered,
    RoundStarted,
    RoundVoided,
    StepTakenBack,
)
from dealer_tui.rounds.frame import (
    TRACK,
    CardRequest,
    LegalStep,
    Phase,
    RoundOutcome,
    TrackStep,
    cards_from_payload,
    cards_payload,
    refuse,
)
from dealer_tui.rounds.payout import PayoutSteps, SignOff
from dealer_tui.rounds.places import place_said
from dealer_tui.rounds.steps import (
    ConfirmPayout,
    CorrectCards,
    Deal,
    Reveal,
    SendToFloor,
    Staked,
    Step,
    TakeBack,
    Void,
    WithCards,
)
from rules.cards import Card
from rules.errors import IllegalAction, RulesError
from rules.profiles.base import ProfileBase
from rules.said import Said, as_said, say

if TYPE_CHECKING:
    from dealer_tui.rounds.session import TableSession

UNDO_EVENT = "step_taken_back"
"""The correction event: the dealer took back their last step (its kind and payload recorded)."""
REKEY_EVENT = "cards_corrected"
"""The supervisor's correction of cards keyed at a live table: the hand's old and new cards, the
reason, who approved, and the keyed step as it reads with the corrected cards."""

S = TypeVar("S", bound=Step)
Proposer = Callable[[Any, S], list[Event]]


def proposes(step_type: type[Step]) -> Callable[[Proposer[S]], Proposer[S]]:
    """Marks a round's method as proposing the events of `step_type` (see `Round.propose`); a
    subclass overrides it by defining the method of the same name."""
    def mark(method: Proposer[S]) -> Proposer[S]:
        method.__dict__["__step_type__"] = step_type
        return method
    return mark


EARLIER = say("earlier this round")
"""Where a card keyed again already is: dealt or keyed earlier in the round."""


class Round(PayoutSteps, Handlers, ABC):
    """One game's round. Subclasses define the state, the steps and the events."""

    game_id: ClassVar[str]
    keyed: ClassVar[bool] = False
    """True for the live-table variant: the dealer keys the physical cards when the table sees them."""
    VERBS: ClassVar[Mapping[type[Step], Said]] = {}
    """How a step the game shares with others reads in its refusals, where the game says it its
    own way (Chinese Poker's `Reveal` -> "open the rows"); a step's own `VERB` otherwise."""
    PHASE_TRACK: ClassVar[tuple[TrackStep, ...]] = tuple((p.label, frozenset({p})) for p in TRACK)
    """The phases the dealer sees this game go through, in order (a game without antes, or with
    its own words for a phase, says so)."""
    FLAGS: ClassVar[dict[str, str]] = {}
    """The game's own flags its rounds may carry, with what they mean (the ledger's `FLAGS` are
    every game's)."""
    FLAG_WORDS: ClassVar[dict[str, Said]] = {}
    """Each of the game's own flags as the floor shows it (English: the code itself)."""
    REKEYABLE: ClassVar[frozenset[type[Event]]] = frozenset()
    """At a live table, the keyed steps whose cards the supervisor may correct before the payout
    is confirmed (the game's `rekey_step` turns such an event back into its keyed step)."""
    UNDOABLE: ClassVar[Mapping[type[Event], Said]] = {}
    """Events the dealer may take back while nothing has followed them (a mis-key), each with
    how it reads: `{AntePlaced: "ante"}`. Events that bring cards are never taken back."""
    ROW_OWNERS: ClassVar[tuple[str, ...]] = ()
    """The event kinds that say whose a settlement row is, in a game whose rows are not numbered
    by seat (`row_owners`)."""

    RULES_REVISION: ClassVar[int | None] = None
    """The docs/rules.md revision of the game's rules this program settles new rounds by, for a
    game whose rules changed between revisions; None for the others."""

    @property
    def rules_revision(self) -> int | None:
        """The docs/rules.md revision the round is settled by, for a game whose rules changed
        between revisions (it records the one it is played under); None for the others."""
        return None

    @classmethod
    def row_owners(cls, events: Sequence[Event]) -> dict[int, int]:
        """Each settlement row number's seat, read from the round's events of `ROW_OWNERS` (what
        the ledger's readers use where no round is replayed); a number it leaves out is a seat."""
        return {}

    def __init__(self, profile: ProfileBase, setup: Mapping[str, Any]) -> None:
        self.profile = profile
        self.setup = dict(setup)
        self.events: list[Event] = []
        self._phase = Phase.ANTE
        self._legal: tuple[int, tuple[LegalStep, ...]] | None = None

    _proposers: ClassVar[dict[type[Step], str]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        proposers: dict[type[Step], str] = {}
        for klass in reversed(cls.__mro__):  # every class's marked methods, the nearer class's winning
            for name, value in klass.__dict__.items():
                step_type = getattr(value, "__step_type__", None)
                if step_type is not None:
                    proposers[step_type] = name
        cls._proposers = proposers

    @classmethod
    @abstractmethod
    def setup_from(cls, session: TableSession, profile: ProfileBase, **choices: Any) -> dict[str, Any]:
        """The round's starting facts (who plays, button, banker, stacks) as plain data."""

    @classmethod
    def rotation_problem(cls, profile: ProfileBase, previous: Mapping[str, Any] | None,
                         setup: Mapping[str, Any]) -> str | None:
        """Whether a round's start broke the game's rotation (a bank or a button passed on against
        the rules), given the table's round before it (None: its first); None when it did not, or
        the game has no rotation to follow."""
        return None

    @classmethod
    def passed_over(cls, setup: Mapping[str, Any]) -> int:
        """Seats the round's start passed over at the dealer's word (a bank declined): 0 for a game
        with none."""
        return 0

    @classmethod
    def buy_rule(cls, profile: ProfileBase, history: Sequence[int], amount: int) -> tuple[str | None, bool]:
        """Whether a player may buy `amount` chips now: (why not, or None; whether it is short)."""
        if not profile.buy_in.contains(amount):
            return f"buy-ins are {profile.buy_in}", False
        return None, False

    # -- the cycle ---------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self._phase

    def legal_steps(self) -> list[LegalStep]:
        """Every step that may be taken now: worked out once per recorded event and shared by
        everyone who asks until the next one (the state changes only by `apply`)."""
        if self._legal is None or self._legal[0] != len(self.events):
            self._legal = (len(self.events), tuple(self._legal_steps()))
        return list(self._legal[1])

    @abstractmethod
    def _legal_steps(self) -> list[LegalStep]:
        """Every step that may be taken now, worked out from the state."""

    def proposer(self, step_type: type[Step]) -> tuple[type[Step], Callable[[Any], list[Event]]] | None:
        """The type this game takes `step_type` as (it or a base of it) and the method that
        proposes it; None when the game has no such step."""
        for cls in step_type.__mro__:
            name = self._proposers.get(cls)
            if name is not None:
                method: Callable[[Any], list[Event]] = getattr(self, name)
                return cls, method
        return None

    def verb(self, step_type: type[Step]) -> Said:
        """How a step of `step_type` reads in this game's refusals."""
        return self.VERBS.get(step_type, step_type.verb())

    def propose(self, step: Step) -> list[Event]:
        """Validate `step` and return its events; raise IllegalAction naming seat, step, reason.

        The step must be among `legal_steps()` (unless it checks its own conditions); the method
        marked `@proposes` its type checks the details.
        """
        found = self.proposer(type(step))
        if found is None:
            raise refuse(step.seat, self.verb(type(step)), say("there is no such step in this game"))
        step_type, method = found
        if step.CHECKED and not self.is_legal(step_type, step.seat):
            raise self.refusal(step, self.verb(step_type))
        return method(step)

    def is_legal(self, step_type: type[Step], seat: int | None) -> bool:
        """Whether a step of `step_type` for `seat` (or for the table) is among the legal steps now."""
        return any(s.step is step_type and s.seat in (seat, None) for s in self.legal_steps())

    def has_step(self, step_type: type[Step]) -> bool:
        """Whether `step_type` is a step of this game at all (legal now or not)."""
        return self.proposer(step_type) is not None

    def why_not(self, step: Step) -> str | None:
        """Why `step` would be refused now, in the round's words (None: it would be taken).
        Nothing is recorded: proposing only decides."""
        try:
            self.propose(step)
        except RulesError as exc:
            return exc.said
        return None

    def refusal(self, step: Step, what: str) -> IllegalAction:
        """The refusal of a step that is not legal now."""
        return refuse(step.seat, what, self._why_not(step))

    def _why_not(self, step: Step) -> str:
        return say("not allowed in the {phase}", phase=self._phase.named)

    def dealt_cards(self, step: WithCards, request: CardRequest, rule: str,
                    in_play: Iterable[Card] = ()) -> dict[str, tuple[Card, ...]]:
        """The cards a step brings for `request`: the right count for every hand, none twice and
        none already in play; a wrong count is a misdeal under `rule`."""
        seen = set(in_play)
        out: dict[str, tuple[Card, ...]] = {}
        for label, count in request.hands:
            got = tuple(step.cards.get(label, ()))
            if len(got) != count:
                raise refuse(None, step.verb(), say("{hand} needs {count} cards, got {got} (misdeal, {rule})",
                                                    hand=place_said(label), count=count, got=len(got), rule=rule))
            for card in got:
                if card in seen:
                    raise refuse(None, step.verb(), say("{card} is dealt twice", card=card.text))
                seen.add(card)
            out[label] = got
        return out

    def known_cards(self) -> list[Card]:
        """Every card this round's events have recorded so far (a keyed card may not repeat one)."""
        return cards_in(self.events, self.game_id)

    def taken_cards(self, request: CardRequest | None = None) -> dict[Card, str]:
        """Cards a keyed entry for `request` may not repeat, and where each already is."""
        return {card: EARLIER for card in self.known_cards()}

    @proposes(ConfirmPayout)
    def _propose_confirm_payout(self, step: ConfirmPayout) -> list[Event]:
        return [*self.payout_events(step)]

    @proposes(Void)
    def _propose_void(self, step: Void) -> list[Event]:
        return [*self.void_events(step.reason, step.supervisor, step.sign_in)]

    @proposes(SendToFloor)
    def _propose_send_to_floor(self, step: SendToFloor) -> list[Event]:
        return self.sign_off_request_events()

    @on(RoundStarted)
    def _on_round_started(self, event: RoundStarted) -> None:
        self._phase = Phase.ANTE

    @on(PayoutConfirmed)
    def _on_payout_confirmed(self, event: PayoutConfirmed) -> None:
        self._phase = Phase.DONE

    @on(RoundVoided)
    def _on_round_voided(self, event: RoundVoided) -> None:
        self._phase = Phase.VOID

    # -- the same bets as last round ----------------------------------------------------------

    BET_STEP: ClassVar[type[Step] | None] = None
    """The step that places a seat's bets while the antes are open (None: a game without one)."""

    def repeat_bets(self, earlier: Sequence[Event], seat: int) -> list[Step]:
        """The steps that place `seat`'s bets as they stood in an earlier round (its `earlier`
        events, steps taken back left out); empty for a game without bets to repeat."""
        return []

    # -- taking back a mis-key ---------------------------------------------------------------

    def undoable(self) -> Event | None:
        """The dealer's last step, if it may still be taken back: it is the round's last event
        (a restart in between does not count) and of a kind the game lets the dealer take back."""
        if self._phase in (Phase.DONE, Phase.VOID, Phase.PAYOUT):
            return None
        last = next((e for e in reversed(self.events) if not isinstance(e, RoundRecovered)), None)
        if last is None or type(last) not in self.UNDOABLE:
            return None
        return last

    def undo_label(self) -> Said | None:
        """What taking back the last step would take back, as the key bar and the log say it."""
        last = self.undoable()
        if last is None:
            return None
        seat, box = getattr(last, "seat", None), getattr(last, "box", None)
        step = as_said(self.UNDOABLE[type(last)])
        if seat is not None:
            return say("seat {seat}'s {step}", seat=seat, step=step)
        if box is not None:
            return say("box {box}'s {step}", box=box, step=step)
        return step

    @proposes(TakeBack)
    def _propose_undo(self, step: TakeBack) -> list[Event]:
        last = self.undoable()
        if last is None:
            raise refuse(None, step.VERB,
                         say("only the dealer's last step may be taken back, before anything else is entered; "
                             "after that the supervisor corrects"))
        return [StepTakenBack(taken_back=last.kind, step=last.payload, what=self.undo_label() or Said.literal(last.kind))]

    def effective_events(self, events: Sequence[Event]) -> list[Event]:
        """`events` as they stand after their corrections: every step taken back left out (each
        undo takes back the step before it), every keyed step whose cards were corrected as it
        reads with the corrected cards."""
        kept: list[Event] = []
        for event in (typed(e, self.game_id) for e in events):
            if isinstance(event, StepTakenBack):
                while kept and isinstance(kept[-1], RoundRecovered):
                    kept.pop()
                if kept:
                    kept.pop()
            elif isinstance(event, CardsCorrected):
                at = max(i for i, e in enumerate(kept) if e.kind == event.event)
                kept[at] = decode(kept[at].kind, event.step, self.game_id)
            else:
                kept.append(event)
        return kept

    # -- correcting keyed cards (a live table) -------------------------------------------------

    def rekey_step(self, event: Event) -> WithCards:
        """The keyed step that recorded `event`, with the cards it recorded (a game with keyed
        steps it lets the supervisor correct says how)."""
        raise IllegalAction(say("{game}: {kind} cannot be keyed again", game=self.game_id, kind=event.kind))

    def correctable(self) -> tuple[int, Event] | None:
        """The keyed step whose cards may be corrected now: the last one of the round, while the
        payout waits to be confirmed."""
        if self._phase is not Phase.PAYOUT or not self.REKEYABLE:
            return None
        effective = self.effective_events(self.events)
        found = [(i, e) for i, e in enumerate(effective) if type(e) in self.REKEYABLE]
        return found[-1] if found else None

    def rekey_hands(self) -> dict[str, tuple[Card, ...]]:
        """The hands the correctable keyed step holds, by label, as they stand."""
        step = self.correctable()
        return dict(self.rekey_step(step[1]).cards) if step is not None else {}

    def rekey_taken(self) -> dict[Card, str]:
        """Cards a correction may not key: those of the round's other steps."""
        step = self.correctable()
        if step is None:
            return {}
        effective = self.effective_events(self.events)
        others = [e for i, e in enumerate(effective) if i != step[0]]
        return {card: EARLIER for card in cards_in(others, self.game_id)}

    @proposes(CorrectCards)
    def _propose_rekey(self, correction: CorrectCards) -> list[Event]:
        what = correction.VERB
        step = self.correctable()
        if step is None:
            raise refuse(None, what, say("keyed cards are corrected at a live table, before the payout is confirmed"))
        reason, supervisor = correction.reason.strip(), correction.supervisor.strip()
        if not reason or not supervisor:
            raise refuse(None, what, say("a correction of keyed cards needs a reason and the supervisor's approval"))
        index, keyed = step
        original = self.rekey_step(keyed)
        unknown = sorted(set(correction.cards) - set(original.cards))
        if unknown or not correction.cards:
            raise refuse(None, what, say("no hand {hand} was keyed in this step", hand=repr(unknown[0])) if unknown
                         else say("key the hand's cards again"))
        changed = {label: tuple(cards) for label, cards in correction.cards.items()
                   if tuple(cards) != tuple(original.cards[label])}
        if not changed:
            raise refuse(None, what, say("the cards keyed are the ones already recorded"))
        effective = self.effective_events(self.events)
        before = type(self).replay(self.profile, self.setup, effective[:index])
        again = before.propose(replace(original, cards={**original.cards, **changed}))
        if len(again) != 1 or again[0].kind != keyed.kind:
            raise refuse(None, what, say("the corrected cards change the step itself: void the round instead"))
        try:
            type(self).replay(self.profile, self.setup, [*effective[:index], again[0], *effective[index + 1:]])
        except IllegalAction as exc:
            raise refuse(None, what, say("with these cards what followed could not have happened ({why}): "
                                         "void the round instead", why=exc.said)) from None
        return [CardsCorrected(
            event=keyed.kind, reason=reason, supervisor=supervisor,
            previous={label: " ".join(c.text for c in original.cards[label]) for label in changed},
            corrected={label: " ".join(c.text for c in cards) for label, cards in changed.items()},
            step=again[0].payload, sign_in=correction.sign_in)]

    def apply(self, event: Recorded) -> None:
        """Fold one event (new, or read back from the ledger) into the state: the method marked
        `@on` its type takes it."""
        event = typed(event, self.game_id)
        if isinstance(event, (StepTakenBack, CardsCorrected)):
            recorded = [*self.events, event]
            kept = self.effective_events(recorded)
            type(self).__init__(self, self.profile, self.setup)  # the state as if the step never was
            for earlier in kept:
                self.apply(earlier)
            self.events = recorded
            self._legal = None
            return
        handler = self.handler_for(event)
        if handler is None:
            raise IllegalAction(say("{game}: no {kind} event in this game", game=self.game_id, kind=repr(event.kind)))
        handler(event)
        self.events.append(event)
        self._legal = None

    @on(RoundRecovered)
    def _on_round_recovered(self, event: RoundRecovered) -> None:
        """A restart reopened the round; nothing in it changes."""

    def apply_all(self, events: Sequence[Recorded]) -> None:
        for event in events:
            self.apply(event)

    @abstractmethod
    def outcome(self) -> RoundOutcome | None:
        """The settlement once computed (payout phase on), else None."""

    def payments(self) -> tuple[str, ...]:
        """Who pays whom, in the order the dealer moves the chips, where players pay each other
        (a game settled between players); () where the house pays and collects each seat."""
        return ()

    def settlement_order(self) -> tuple[int, ...]:
        """The seats in the order the rules settle them, as the dealer pays them out (the payout
        screen lists the rows so); () when the order is the rows' own."""
        return ()

    @classmethod
    def replay(cls, profile: ProfileBase, setup: Mapping[str, Any], events: Sequence[Recorded]) -> Round:
        """Rebuild a round from its recorded events."""
        rnd = cls(profile, setup)
        rnd.apply_all(events)
        return rnd


def cards_in(events: Sequence[Recorded], game: str | None = None) -> list[Card]:
    """Every card the events (of a round of `game`) record: each event names its own (`Event.named_cards`)."""
    return [card for event in events for _, cards in typed(event, game).named_cards() for card in cards]


__all__ = ["REKEY_EVENT", "TRACK", "UNDO_EVENT", "CardRequest", "ConfirmPayout", "CorrectCards", "Deal", "LegalStep",
           "Phase", "Reveal", "Round", "RoundOutcome", "SendToFloor", "SignOff", "Staked", "Step", "TakeBack",
           "TrackStep", "Void", "WithCards", "cards_from_payload", "cards_in", "cards_payload", "proposes", "refuse"]
