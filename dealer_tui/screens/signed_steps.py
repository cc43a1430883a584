"""The round screen's steps someone signs in for (ID and PIN) — a sign-off, a correction of
keyed cards, a void, the floor review — each recording the approval the table then checks."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from dealer_tui.language import _
from dealer_tui.rounds.base import CorrectCards, Round, Void
from dealer_tui.rounds.table import table_called
from dealer_tui.screens.card_entry_modal import CardEntryModal
from dealer_tui.screens.reason_dialog import ReasonDialog
from dealer_tui.screens.sign_in_modal import SignInModal
from dealer_tui.staff import CORRECT_CARDS, FLOOR, VOID, Approval, Purpose
from rules.cards import Card
from rules.said import Said, say

if TYPE_CHECKING:
    from dealer_tui.screens.round_screen import RoundScreen

class SignedSteps:
    """The round screen's steps that need someone's sign-in, asked on the screen they belong to."""

    def __init__(self, screen: RoundScreen[Any]) -> None:
        self.screen = screen

    def with_staff(self, act: str, what: Said, then: Callable[[Approval], object],
                   backed_out: Callable[[], None] | None = None, *, for_round: bool = True, signs: str = "") -> None:
        """Someone signs in (ID and PIN) for `act` at this table — for the current round, unless
        `for_round` is False, signing the figures `signs` it approves; `then` gets the approval the
        ledger recorded."""
        screen = self.screen
        number = screen.table.session.rounds_started if for_round and screen.table.round is not None else None
        purpose = Purpose(act, say("{what} at {table}", what=what, table=table_called(screen.table.record.name)),
                          screen.table.record.id, number, signs=signs)

        def done(approval: Approval | None) -> None:
            if approval is not None:
                then(approval)
            elif backed_out is not None:
                backed_out()
        screen.show(SignInModal(screen.desk, purpose), done)

    def correct_keyed_cards(self) -> None:
        """A live table: the supervisor approves keying a hand again before the payout is
        confirmed (disputed cards); the dealer keys the cards as they are and gives the reason.
        Backing out anywhere goes back to the payout, nothing changed."""
        screen = self.screen
        rnd: Round | None = screen.round
        hands = rnd.rekey_hands() if rnd is not None else {}
        if rnd is None or not hands:
            return
        number = screen.table.session.rounds_started

        def approved(who: Approval) -> None:
            def check(cards: dict[str, tuple[Card, ...]]) -> str | None:
                return rnd.why_not(CorrectCards(reason="checking", supervisor=who.account, sign_in=who.sign_in,
                                                cards=cards))

            def keyed(cards: dict[str, tuple[Card, ...]] | None) -> None:
                if cards is None:
                    screen.action_payout()
                    return

                def reason_given(reason: str | None) -> None:
                    if reason:
                        screen.perform(CorrectCards(reason=reason, supervisor=who.account, sign_in=who.sign_in,
                                                    cards=cards))
                    screen.action_payout()

                screen.ask(ReasonDialog(_("Round {number}: why are the cards corrected?", number=number),
                                     _("e.g. seat 3's cards mis-keyed")), reason_given)

            values = {label: " ".join(c.text for c in cards) for label, cards in hands.items()}
            screen.show(CardEntryModal(_("Round {number}: key the hands again as the table shows them", number=number),
                                     [(label, len(cards)) for label, cards in hands.items()],
                                     rnd.rekey_taken(), check, values=values), keyed)

        self.with_staff(CORRECT_CARDS, say("correct the keyed cards of round {number}", number=number), approved, screen.action_payout)

    def void(self) -> None:
        screen = self.screen
        number = screen.table.session.rounds_started

        def approved(who: Approval) -> None:
            def reason_given(reason: str | None) -> None:
                if reason:
                    screen.perform(Void(reason=reason, supervisor=who.account, sign_in=who.sign_in))

            screen.ask(ReasonDialog(_("Void round {number}: why?", number=number), _("e.g. wrong card count")), reason_given)

        rnd = screen.round
        self.with_staff(VOID, say("void round {number}", number=number), approved, signs=rnd.void_figures() if rnd is not None else "")

    def floor(self) -> None:
        """The floor over this ledger, for the supervisor (PIN first): the pit map, the rounds one
        key away, and the header's counts of payouts waiting and alerts open."""
        screen = self.screen
        from dealer_tui.accounting.theoretical import Theory
        from dealer_tui.paths import theory_cache_path
        from dealer_tui.screens.floor_signoff import SignOffDesk
        from dealer_tui.screens.floor_watch import open_floor

        self.with_staff(FLOOR, say("open the floor review"),
                          lambda who: open_floor(screen.app, screen.table.ledger, screen.games,
                                                 screen.table.profile.profile.sign_off_threshold,
                                                 SignOffDesk(screen.desk, who), Theory(screen.games, theory_cache_path())),
                          for_round=False)

