"""The payout every game's round ends with, and what it needs from the floor: the sign-off of a
payout at or above the profile's threshold (at the table, or a request to the floor and its
decision), and a void (a misdeal) handing every bet back — each naming who approved it and the
sign-in that let them (a mixin of `Round`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dealer_tui.events import Event, Handlers, on
from dealer_tui.events.staff import payout_figures
from dealer_tui.events.table import (
    CardsCorrected,
    PayoutConfirmed,
    PayoutRow,
    RoundVoided,
    SignOffApproved,
    SignOffRefused,
    SignOffRequested,
    void_figures,
)
from dealer_tui.ledger.payouts import seat_payouts
from dealer_tui.rounds.frame import LegalStep, Phase, RoundOutcome, refuse
from dealer_tui.rounds.steps import ConfirmPayout, SendToFloor, Void
from rules.bets import banker_kinds
from rules.errors import IllegalAction
from rules.profiles.base import ProfileBase
from rules.said import Said, as_said, say

SignOff = SignOffRequested | SignOffApproved | SignOffRefused
"""A sign-off's state: the request sent to the floor, or the floor's decision."""


class PayoutSteps(Handlers):
    profile: ProfileBase
    events: list[Event]

    if TYPE_CHECKING:
        @property
        def phase(self) -> Phase: ...
        def outcome(self) -> RoundOutcome | None: ...
        def legal_steps(self) -> list[LegalStep]: ...

    def player_of(self, row_seat: int) -> int:
        """The seat whose player a settlement row's seat belongs to (a box's player in "1 or 5")."""
        return row_seat

    def player_payouts(self) -> dict[int, int]:
        """Each player's payout this round (`payouts.seat_chips`, a player's boxes together)."""
        outcome = self.outcome()
        paid: dict[int, int] = {}
        for row_seat, chips in (seat_payouts(outcome.rows).items() if outcome is not None else ()):
            seat = self.player_of(row_seat)
            paid[seat] = paid.get(seat, 0) + chips
        return paid

    def sign_off_needed(self) -> list[int]:
        """Seats whose player's payout this round (`payouts.seat_chips`) reaches the profile's
        sign-off threshold."""
        limit = self.profile.sign_off_threshold
        return sorted(seat for seat, paid in self.player_payouts().items() if paid >= limit)

    def sign_off_state(self) -> SignOff | None:
        """The latest sign-off event of this round: a request sent to the floor, or the floor's
        decision on it; None when the floor was never asked, or when keyed cards were corrected
        since (the payout may have changed: it goes to the floor again)."""
        for event in reversed(self.events):
            if isinstance(event, CardsCorrected):
                return None
            if isinstance(event, (SignOffRequested, SignOffApproved, SignOffRefused)):
                return event
        return None

    def in_phase(self) -> Said:
        """Why a step of the payout is refused before (or after) it: the phase the round is in."""
        return say("the round is in the {phase}", phase=self.phase.named)

    def sign_off_request_events(self) -> list[Event]:
        """The dealer sends the payout to the floor: the round stays in PAYOUT until it is confirmed."""
        outcome = self.outcome()
        what = SendToFloor.VERB
        if self.phase is not Phase.PAYOUT or outcome is None:
            raise refuse(None, what, self.in_phase())
        big = self.sign_off_needed()
        if not big:
            raise refuse(None, what, say("no seat's payout reaches {threshold}: no sign-off is needed",
                                         threshold=self.profile.sign_off_threshold))
        state = self.sign_off_state()
        if isinstance(state, SignOffRequested):
            raise refuse(None, what, say("it is already waiting for the supervisor"))
        if isinstance(state, SignOffApproved):
            raise refuse(None, what, say("the supervisor ({account}) already approved it", account=state.by))
        if isinstance(state, SignOffRefused):
            raise refuse(None, what, refusal_stands(state, self.voidable()))
        return [SignOffRequested(
            seats=tuple(big), threshold=self.profile.sign_off_threshold,
            payouts={str(seat): paid for seat, paid in sorted(self.player_payouts().items()) if seat in big},
            paid=outcome.paid, wagered=outcome.wagered, figures=self.payout_figures())]

    def payout_figures(self) -> str:
        """The figures a sign-off of this payout signs (`events.staff.payout_figures`); "" before the payout."""
        outcome = self.outcome()
        if outcome is None:
            return ""
        return payout_figures(outcome.paid, [(r.seat, r.bet, r.stake, r.result) for r in outcome.rows])

    @on(SignOffRequested)
    def _on_sign_off_requested(self, event: SignOffRequested) -> None:
        """Waiting for the floor; no chip moves."""

    @on(SignOffApproved)
    def _on_sign_off_approved(self, event: SignOffApproved) -> None:
        """The floor approved; the dealer confirms the payout with the approver as its sign-off."""

    @on(SignOffRefused)
    def _on_sign_off_refused(self, event: SignOffRefused) -> None:
        """The floor refused, with a reason: the refusal stands until a manager overrides it,
        saying why, or the round is voided (nobody asks the floor again for another supervisor)."""

    def payout_events(self, step: ConfirmPayout) -> list[Event]:
        """The dealer confirms the payout; big winnings need a supervisor's sign-off: a PIN at the
        table, or the floor's approval of a request (`SendToFloor` sends the request)."""
        outcome = self.outcome()
        if self.phase is not Phase.PAYOUT or outcome is None:
            raise refuse(None, ConfirmPayout.VERB, self.in_phase())
        big = self.sign_off_needed()
        supervisor, sign_in, override = step.supervisor.strip(), step.sign_in, step.override.strip()
        state = self.sign_off_state()
        if isinstance(state, SignOffRefused) and big and not (override and supervisor):
            raise refuse(None, ConfirmPayout.VERB, refusal_stands(state, self.voidable()))
        if override and not isinstance(state, SignOffRefused):
            raise refuse(None, say("override the floor"), say("the floor refused nothing of this payout: nothing to "
                                                              "override"))
        if not supervisor and isinstance(state, SignOffApproved):
            supervisor, sign_in = state.by.strip(), state.sign_in
        if big and not supervisor:
            seats = ", ".join(str(s) for s in big)
            threshold = self.profile.sign_off_threshold
            raise refuse(None, ConfirmPayout.VERB,
                         say("seats {seats} are paid {threshold} or more: a supervisor must sign off", seats=seats,
                             threshold=threshold) if len(big) > 1
                         else say("seat {seat} is paid {threshold} or more: a supervisor must sign off", seat=seats,
                                  threshold=threshold))
        approval = ("override" if override else "signed_off") if big else ""
        flags = set(outcome.flags) | ({approval} if approval else set())
        return [PayoutConfirmed(
            rows=tuple(PayoutRow(seat=r.seat, bet=r.bet, stake=r.stake, result=r.result, reason=as_said(r.reason))
                       for r in outcome.rows),
            stack_changes={str(seat): change for seat, change in sorted(outcome.stack_changes.items())},
            house=outcome.house,
            seats=len({r.seat for r in outcome.rows if r.bet not in banker_kinds()}),
            wagered=outcome.wagered,
            paid=outcome.paid,
            flags=tuple(sorted(flags)),
            signed_off_by=supervisor if big else None,
            sign_in=sign_in if big else None,
            override=override if big else "",
        )]

    def voidable(self) -> bool:
        """Whether the game still lets the round be voided."""
        return any(spec.step is Void for spec in self.legal_steps())

    def on_the_table(self) -> dict[int, int]:
        """The chips each seat has put up in the round so far: what a void hands back."""
        return {}

    def void_figures(self) -> str:
        """What a void's sign-in signs now (`events.table.void_figures`): what each seat gets back."""
        return void_figures({str(seat): chips for seat, chips in self.on_the_table().items() if chips})

    def void_events(self, reason: str, by: str = "", sign_in: int | None = None) -> list[Event]:
        """A misdeal voids the round: every bet and fee returned (HCF-19, R-12, CP-11); the event
        records what each seat got back and who approved the void."""
        if self.phase is Phase.DONE:
            raise IllegalAction(say("the round is already done: it cannot be voided"))
        if self.phase is Phase.VOID:
            raise IllegalAction(say("the round is already void: it cannot be voided"))
        if not reason.strip():
            raise IllegalAction(say("a void needs a reason"))
        returned = {str(seat): chips for seat, chips in sorted(self.on_the_table().items()) if chips}
        return [RoundVoided(reason=reason.strip(), by=by.strip(), returned=returned, sign_in=sign_in)]


def refusal_stands(refused: SignOffRefused, can_void: bool) -> Said:
    """Why a refused payout is neither paid nor sent again (`can_void`: the game still lets the
    round be voided)."""
    if can_void:
        return say("the floor ({account}) refused this payout: {reason}. The refusal stands until a manager "
                   "overrides it, saying why, or the round is voided", account=refused.by, reason=refused.reason)
    return say("the floor ({account}) refused this payout: {reason}. The refusal stands until a manager "
               "overrides it, saying why (the game no longer lets this round be voided)", account=refused.by,
               reason=refused.reason)

