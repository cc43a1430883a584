"""High Card Flush round screen: antes with bonus bets, raise within the cap, fold, DP offers."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.binding import Binding, BindingType

from dealer_tui.games.high_card_flush.round import HighCardFlushRound
from dealer_tui.games.high_card_flush.steps import Ante, Fold, Raise, Withdraw
from dealer_tui.language import N_, _
from dealer_tui.rounds.steps import Step
from dealer_tui.screens.amount_dialog import AmountDialog, AmountField
from dealer_tui.screens.choice_dialog import ChoiceDialog
from dealer_tui.screens.dialog import Dialog
from dealer_tui.screens.round_screen import RoundScreen
from rules.games.high_card_flush.profile import HighCardFlushProfile

RULES = N_("""High Card Flush — the rules as played here
HCF-1  Hands rank by the longest flush, then its cards from the top; other cards never count.
HCF-4  Ante (+ optional Flush and Straight Flush bets); chips must cover Ante + bonus + 3× Ante.
HCF-6  Fold (lose Ante and bonus bets) or raise 1× Ante; up to 2× with a 5-card, 3× with 6-7.
HCF-7  The banker qualifies with a 3-card flush 9-high or better.
HCF-8  Not qualified: Ante pays 1:1, Raise pushes.  HCF-9  Qualified: higher hand wins both 1:1.
HCF-10 Settled from the button's right, counter-clockwise; folds collected first.
HCF-12 Straight Flush bet (card room): longer run wins; same length, higher or equal top card wins.
HCF-13 Flush bet (card room): 4+ cards that beat the banker's; a tie pushes.
HCF-14 Bonus caps as posted: per hand, then what is left of the round's (hands in the HCF-10
       order, by seat at the casino); the Straight Flush winnings are cut first.
HCF-15/16 Paid only to the extent of the DP's money; a hand the DP cannot cover is dead.
HCF-17 Rake as posted.  HCF-19 Misdeal before anyone acts: all bets returned.
HCF-20 Casino profile: the house banks; bonus bets pay by the paytable on the player's own hand,
       whatever the house holds, folded or not.""")
"""The rules summary the help screen shows (translated where it is shown)."""


class HighCardFlushScreen(RoundScreen[HighCardFlushRound]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "ante", N_("Ante")),
        Binding("A", "same_bets", N_("Same bets as last round")),
        Binding("u", "withdraw", N_("Withdraw ante")),
        Binding("r", "raise_bet", N_("Raise")),
        Binding("f", "fold", N_("Fold")),
    ]
    KINDS: ClassVar[dict[str, type[Step]]] = {**RoundScreen.KINDS, "ante": Ante, "withdraw": Withdraw,
                                             "raise_bet": Raise, "fold": Fold}
    RULES_SUMMARY = RULES

    @property
    def hcf_profile(self) -> HighCardFlushProfile:
        """The table's profile (a round's own is `round.profile`): the limits and who banks, also
        between rounds."""
        profile = self.table.profile.profile
        assert isinstance(profile, HighCardFlushProfile)
        return profile

    def action_start(self, **choices: Any) -> None:
        """HCF-18: offer the bank to the next seat clockwise; a seat may decline."""
        if self.no_dealer():
            return
        declined: list[int] = list(choices.get("declined", []))
        session = self.table.session
        seat = HighCardFlushRound.next_banker(session, self.table.profile.profile, declined)
        if HighCardFlushRound.start_problem(session, self.table.profile.profile) is not None:
            seat = None  # no bank is offered for a round that cannot be dealt: the table says why
        if seat is None:  # the house banks; or no seat can, and the round is refused with the reason
            super().action_start(declined=declined)
            return

        def answered(choice: str | None) -> None:
            if choice == "y":
                super(HighCardFlushScreen, self).action_start(declined=declined)
            elif choice == "n":
                self.action_start(declined=[*declined, seat])

        name = session.players[seat].name
        self.ask(ChoiceDialog(_("Seat {seat} ({name}): bank this round as Designated Player?", seat=seat, name=name),
                             [("y", _("yes, seat banks")), ("n", _("declines: offer the next seat"))]), answered)

    def dialogs_ahead(self) -> list[Dialog[Any]]:
        return [*super().dialogs_ahead(), AmountDialog("", self.ante_fields(0, 0))]

    def ante_fields(self, low: int, high: int) -> list[AmountField]:
        limits = self.hcf_profile.limits
        return [AmountField("ante", _("Ante"), low, high, low),
                AmountField("flush", _("Flush bet"), limits.flush.min, limits.flush.max, 0, optional=True),
                AmountField("straight_flush", _("Straight Flush bet"), limits.straight_flush.min,
                            limits.straight_flush.max, 0, optional=True)]

    def action_ante(self) -> None:
        spec = self.spec_for(Ante)
        if spec is None or spec.seat is None:
            return
        fields = self.ante_fields(spec.min_amount or 0, spec.max_amount or 0)
        seat = spec.seat
        def ante(v: dict[str, int]) -> Ante:
            return Ante(seat=seat, amount=v["ante"], flush=v["flush"], straight_flush=v["straight_flush"])

        self.ask_step(_("Seat {seat}: ante and bonus bets", seat=seat), fields, ante)

    def action_withdraw(self) -> None:
        spec = self.spec_for(Withdraw)
        if spec is not None:
            self.perform(Withdraw(seat=spec.seat))

    def action_raise_bet(self) -> None:
        rnd, spec = self.round, self.spec_for(Raise)
        if rnd is None or spec is None or spec.seat is None:
            return
        seat, low, high = spec.seat, spec.min_amount or 0, spec.max_amount or 0
        length = rnd.flush_length(seat)
        unseen = rnd.keyed and not rnd.seats[seat].cards  # declared now, capped at the reveal
        title = (_("Seat {seat} raises (as declared, checked against the keyed hand at the reveal: {low}–{high})",
                   seat=seat, low=low, high=high) if unseen else
                 _("Seat {seat} raises ({length}-card flush: {low}–{high})", seat=seat, length=length, low=low,
                   high=high))
        self.ask_step(title, [AmountField("raise", _("Raise"), low, high, low if unseen else high)],
                      lambda v: Raise(seat=seat, amount=v["raise"]))

    def action_fold(self) -> None:
        rnd, spec = self.round, self.spec_for(Fold)
        if rnd is None or spec is None or spec.seat is None:
            return
        seat = spec.seat
        p = rnd.seats[seat]
        bonus = [f"{name} {amount}" for name, amount in ((_("Flush"), p.flush), (_("Straight Flush"), p.straight_flush))
                 if amount]
        if not bonus or rnd.profile.banker == "house":  # HCF-20: a folded hand keeps its bonus bets
            self.perform(Fold(seat=seat))
            return

        def answered(choice: str | None) -> None:
            if choice == "y":
                self.perform(Fold(seat=seat))

        ante = _("Ante")
        lost = ", ".join([f"{ante} {p.ante}", *bonus])
        self.ask(ChoiceDialog(_("Seat {seat} folds and loses {lost} (HCF-6, HCF-11)?", seat=seat, lost=lost),
                             [("y", _("yes, fold")), ("n", _("no, back to the hand"))]), answered)

    def house_label(self) -> str:
        return _("House (rake)") if self.hcf_profile.banker == "designated_player" else _("House")
