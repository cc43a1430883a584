"""Poker "1 or 5" round screen: antes on boxes, the cut, exchange with card selection, close,
pass, insurance."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from dealer_tui.games.one_or_five.round import OneOrFiveRound
from dealer_tui.games.one_or_five.steps import (
    Ante,
    Bet,
    CutAndDeal,
    Exchange,
    Fold,
    Insure,
    NoInsurance,
    OpenBox,
    Withdraw,
)
from dealer_tui.language import N_, _, told
from dealer_tui.rounds.base import LegalStep, Step
from dealer_tui.screens.amount_dialog import AmountField
from dealer_tui.screens.card_entry_modal import CardEntryModal
from dealer_tui.screens.card_pick_modal import CardPickModal
from dealer_tui.screens.choice_dialog import ChoiceDialog
from dealer_tui.screens.round_screen import RoundScreen
from rules.cards import Card, sort_cards
from rules.games.one_or_five import rules as rules

RULES = N_("""Poker "1 or 5" — the rules as played here
R-1  Ante on a box; five cards to each box and the dealer, the dealer's last card face up.
R-2  Each box in order, once: pass (lose the Ante), exchange, or close with a Bet of 2× Ante.
R-3  Exchange: a fee of 1× Ante, exactly 1 or all 5 cards, once; then close or pass.
R-4  Only a player's open box may exchange. Table stakes: an Ante needs 3× itself beyond the
     player's other boxes' bets; an exchange needs the fee plus the Bet, so the box can close.
R-5  The dealer has a game with Ace-King or better.
R-6  No game: Ante pays 1:1, Bet returned.
R-7  Game: higher hand wins — Bet by the paytable, Ante 1:1 (two pair: Ante returned unpaid);
     identical ranks: both returned.
R-9  Insurance on a closed straight or better: 1× Ante to half the Bet's win; pays 1:1 on no game.
R-12 Misdeal: the round is void, all bets and fees returned.""")


class OneOrFiveScreen(RoundScreen[OneOrFiveRound]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "ante", N_("Ante a box")),
        Binding("A", "same_bets", N_("Same bets as last round")),
        Binding("o", "open_box", N_("Play open")),
        Binding("u", "withdraw", N_("Withdraw ante")),
        Binding("e", "exchange", N_("Exchange")),
        Binding("b", "close_box", N_("Close (bet)")),
        Binding("f", "fold", N_("Pass")),
        Binding("i", "insure", N_("Insure")),
        Binding("n", "no_insurance", N_("No insurance")),
    ]
    KINDS: ClassVar[dict[str, type[Step]]] = {**RoundScreen.KINDS, "deal": CutAndDeal, "ante": Ante,
                                             "open_box": OpenBox, "withdraw": Withdraw, "exchange": Exchange,
                                             "close_box": Bet, "fold": Fold, "insure": Insure,
                                             "no_insurance": NoInsurance}
    RULES_SUMMARY = RULES
    HOUSE_LABEL = N_("House")
    ROW_LABEL = N_("Box")

    def action_ante(self) -> None:
        spec = self.spec_for(Ante)
        if spec is None or spec.seat is None:
            return
        seat, low, high = spec.seat, spec.min_amount or 0, spec.max_amount or 0
        box = spec.data["box"]
        self.ask_step(_("Seat {seat}: ante on box {box}", seat=seat, box=box),
                      [AmountField("ante", _("Ante"), low, high, low)],
                      lambda v: Ante(seat=seat, amount=v["ante"], box=box))

    def action_open_box(self) -> None:
        spec = self.spec_for(OpenBox)
        if spec is not None:
            self.perform(OpenBox(seat=spec.seat, box=spec.data["box"]))

    def action_withdraw(self) -> None:
        specs = self.specs(Withdraw)
        mine = [s for s in specs if s.seat == self.selected] or specs
        if mine:
            self.perform(Withdraw(seat=mine[-1].seat, box=mine[-1].data["box"]))

    def action_deal(self) -> None:
        def cut(choice: str | None) -> None:
            if choice:
                self.perform(CutAndDeal(cut="player" if choice == "p" else "dealer"))

        self.ask(ChoiceDialog(_("The cut (R-10): who cuts the deck?"),
                             [("p", _("the player cuts")), ("d", _("refused: the dealer cuts"))]), cut)

    def key_seat(self, action: str) -> int | None:
        """A refused box key is asked of the box whose turn it is (R-2), as its keys act for it."""
        if self.selected is not None:
            return self.selected
        box = rnd.current_box() if (rnd := self.round) is not None else None
        return box.seat if box is not None else None

    def action_exchange(self) -> None:
        rnd, specs = self.round, self.specs(Exchange)
        box = rnd.current_box() if rnd is not None else None
        if rnd is None or not specs or box is None:
            return
        seat = box.seat
        counts = sorted({s.min_amount or 0 for s in specs})
        if self.table.keyed:  # the player throws in physical cards; the dealer keys what is drawn
            def count(choice: str | None) -> None:
                if choice:
                    self.perform(Exchange(seat=seat, amount=int(choice), box=box.number))

            self.ask(ChoiceDialog(_("Box {box}: how many cards are exchanged (fee {ante} × {fee})?", box=box.number,
                                    ante=box.ante, fee=rnd.profile.exchange.fee),
                                 [(str(n), _("exchange {count}", count=n)) for n in counts]), count)
            return

        def picked(cards: list[Card] | None) -> None:
            if cards:
                self.perform(Exchange(seat=seat, amount=len(cards), box=box.number,
                                      discard=" ".join(c.text for c in cards)))

        self.app.push_screen(CardPickModal(_("Box {box}: cards to exchange (fee {ante} × {fee})", box=box.number,
                                             ante=box.ante, fee=rnd.profile.exchange.fee),
                                           sort_cards(box.cards), counts), picked)

    def _box_step(self, kind: type[Bet | Fold | NoInsurance]) -> None:
        box = rnd.current_box() if (rnd := self.round) is not None else None
        if box is not None and self.specs(kind):
            self.perform(kind(seat=box.seat, box=box.number))

    def action_close_box(self) -> None:
        self._box_step(Bet)

    def action_fold(self) -> None:
        self._box_step(Fold)

    def action_no_insurance(self) -> None:
        self._box_step(NoInsurance)

    def action_insure(self) -> None:
        if self.table.keyed:
            self._insure_keyed()
            return
        spec = self.spec_for(Insure)
        box = rnd.current_box() if (rnd := self.round) is not None else None
        if spec is None or box is None:
            return
        low, high = spec.min_amount or 0, spec.max_amount or 0
        self.ask_step(_("Box {box}: insurance premium", box=box.number),
                      [AmountField("premium", _("Premium"), low, high, low)],
                      lambda v: Insure(seat=box.seat, amount=v["premium"], box=box.number))

    def _insure_keyed(self) -> None:
        """Live table: the box's hand is keyed for the insurance (it must hold a straight or better),
        then the premium is asked within the bounds for that hand (R-9)."""
        specs = self.specs(Insure)
        mine = [s for s in specs if s.seat == self.selected] or specs
        if len(mine) > 1:  # several closed boxes: the dealer names the one the player insures
            by_box = {str(s.data["box"]): s for s in mine}
            self.ask(ChoiceDialog(_("Insure which box? (its number)"),
                                 [(n, _("box {box} (seat {seat})", box=n, seat=s.seat)) for n, s in by_box.items()]),
                     lambda n: self._insure_box(by_box[n]) if n in by_box else None)
            return
        if mine:
            self._insure_box(mine[0])

    def _insure_box(self, spec: LegalStep) -> None:
        rnd = self.round
        if rnd is None or spec.seat is None:
            return
        seat, number = spec.seat, int(spec.data["box"])
        box = rnd.boxes[number]

        def premium(cards: dict[str, tuple[Card, ...]]) -> None:
            hand = box.cards or cards[f"box {number}"]
            low, high = rnd.insurance_bounds(box, hand)
            def insure(v: dict[str, int]) -> Insure:
                return Insure(seat=seat, amount=v["premium"], box=number, cards=cards)

            self.ask_step(_("Box {box} ({hand}): insurance premium", box=number, hand=told(rules.hand_of(hand).said())),
                          [AmountField("premium", _("Premium"), low, high, low)], insure)

        if spec.needs_cards is None:
            premium({})
            return

        def eligible(cards: dict[str, tuple[Card, ...]]) -> str | None:
            return rnd.why_not(Insure(seat=seat, amount=box.ante, box=number, cards=cards))

        self.app.push_screen(CardEntryModal(_("Box {box}: key the hand for insurance (a straight or better, R-9)",
                                              box=number),
                                            spec.needs_cards.hands, rnd.taken_cards(spec.needs_cards), eligible),
                             lambda cards: premium(cards) if cards is not None else None)
