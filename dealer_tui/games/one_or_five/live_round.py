"""Poker "1 or 5" at a live table: the dealer keys the cards as the table sees them.

At the deal, the dealer's up card (R-1). An exchange keys the cards drawn (R-3); the cards thrown
in stay unseen. Insurance (R-9) keys the box's hand when the player asks for it: the hand must
hold a straight or better. At the reveal, the dealer's four hole cards and every closed box not
yet seen; a passed box is never keyed (it loses its Ante whatever it holds, R-2).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dealer_tui.events import Event, typed_as
from dealer_tui.games.one_or_five.events import (
    BoxClosed,
    BoxExchanged,
    CardsDealt,
    DealerRevealed,
    InsuranceTaken,
)
from dealer_tui.games.one_or_five.round import CUT_BY, Box, OneOrFiveRound, insure, only_free
from dealer_tui.games.one_or_five.steps import CutAndDeal, Exchange, Insure, NoInsurance
from dealer_tui.ledger.base import SettlementRow
from dealer_tui.rounds.base import (
    CardRequest,
    LegalStep,
    Phase,
    Reveal,
    RoundOutcome,
    WithCards,
    refuse,
)
from rules.cards import Card, parse_cards
from rules.errors import IllegalAction
from rules.games.one_or_five import rules as rules
from rules.said import say

UP = "dealer up"
HOLE = "dealer hole"
ROYAL = parse_cards("As Ks Qs Js Ts")


class OneOrFiveKeyedRound(OneOrFiveRound):
    keyed = True
    REKEYABLE = frozenset({DealerRevealed})

    def rekey_step(self, event: Event) -> WithCards:
        """The reveal as keyed: the dealer's hole cards (the up card was keyed at the deal) and
        every closed box not seen before."""
        revealed = typed_as(DealerRevealed, event)
        up = set(self.dealer[:1])
        cards = dict(revealed.box_hands or {})
        cards[HOLE] = tuple(c for c in revealed.cards if c not in up)
        return Reveal(cards=cards)

    def __init__(self, profile: Any, setup: Mapping[str, Any]) -> None:
        super().__init__(profile, setup)
        self.drawn: dict[int, tuple[Card, ...]] = {}  # box -> cards keyed at its exchange

    # -- turns: a closed box moves the turn on; insurance is asked for any time before the reveal

    def current_box(self) -> Box | None:
        return next((self.boxes[n] for n in self.order() if self.boxes[n].status in ("waiting", "exchanged")), None)

    def insurable(self) -> list[Box]:
        if self._phase not in (Phase.ACT, Phase.REVEAL):
            return []
        return [b for n in self.order() if (b := self.boxes[n]).status == "closed" and b.insurance is None
                and self.available(b.seat) >= b.ante]

    def _legal_steps(self) -> list[LegalStep]:
        specs = []
        for spec in super()._legal_steps():
            if spec.step is CutAndDeal:
                spec = LegalStep(CutAndDeal, None, label="Cut and deal (key the dealer's up card)",
                                  needs_cards=CardRequest("deal", ((UP, 1),)))
            elif spec.step is Reveal:
                spec = LegalStep(Reveal, None, label="Key the hands and reveal the dealer's",
                                  needs_cards=self.reveal_request())
            elif spec.step in (Insure, NoInsurance):
                continue
            specs.append(spec)
        for box in self.insurable():
            best = rules.insurance_bounds(self.profile, box.ante, rules.hand_of(ROYAL))[1]
            specs.append(LegalStep(Insure, box.seat, box.ante, min(best, self.available(box.seat)),
                                    f"Insure box {box.number} (key its hand)", data={"box": box.number},
                                    needs_cards=None if box.cards else self._box_request(box, "insurance")))
        return specs

    def _box_steps(self, box: Box) -> list[LegalStep]:
        specs = []
        for spec in super()._box_steps(box):
            if spec.step is Exchange:
                count = spec.min_amount or 0
                spec = LegalStep(Exchange, spec.seat, count, count, f"Box {box.number}: exchange {count}",
                                  CardRequest("exchange", ((f"box {box.number}", count),)))
            specs.append(spec)
        return specs

    @staticmethod
    def _box_request(box: Box, purpose: str) -> CardRequest:
        return CardRequest(purpose, ((f"box {box.number}", rules.BOX_CARDS),))

    def reveal_request(self) -> CardRequest:
        unseen = [(f"box {n}", rules.BOX_CARDS) for n in self.order()
                  if self.boxes[n].status == "closed" and not self.boxes[n].cards]
        return CardRequest("reveal", ((HOLE, rules.BOX_CARDS - 1), *unseen))

    # -- proposing --------------------------------------------------------------------------

    def taken_cards(self, request: CardRequest | None = None) -> dict[Card, str]:
        """A box keyed again holds the cards it drew at its exchange; the dealer's up card is named."""
        boxes = [int(label.split()[1]) for label, _ in (request.hands if request else ()) if label.startswith("box ")]
        own = {c for n in boxes for c in self.drawn.get(n, ())}
        earlier, up = say("earlier this round"), say("the dealer's up card")
        taken: dict[Card, str] = {c: earlier for c in self.known_cards() if c not in own}
        taken.update({c: up for c in self.dealer[:1]})
        return taken

    def _keyed(self, a: WithCards, request: CardRequest) -> dict[str, tuple[Card, ...]]:
        cards = self.dealt_cards(a, request, "R-12", self.taken_cards(request))
        for label, hand in cards.items():
            if label.startswith("box "):
                number = int(label.split()[1])
                missing = [c.text for c in self.drawn.get(number, ()) if c not in hand]
                if missing:
                    raise refuse(None, a.verb(), say("box {box} drew {cards} at its exchange: the keyed hand must "
                                                     "hold it", box=number, cards=" ".join(missing)))
        return cards

    def _propose_deal(self, a: CutAndDeal) -> list[Event]:
        cut_by = a.cut
        if cut_by not in ("player", "dealer"):
            raise refuse(None, a.verb(), CUT_BY)
        cards = self._keyed(a, CardRequest("deal", ((UP, 1),)))
        return [CardsDealt(cut_by=cut_by, hands={UP: cards[UP]}, keyed=True)]

    def _propose_exchange(self, a: Exchange) -> list[Event]:
        box = self._my_box(a)
        count = a.amount or 0
        self.verify_exchange(a, box, count)
        fee = rules.exchange_fee(self.profile, box.ante)
        drawn = self._keyed(a, CardRequest("exchange", ((f"box {box.number}", count),)))[f"box {box.number}"]
        return [BoxExchanged(box=box.number, count=count, discarded=(), drawn=drawn, fee=fee)]

    def _propose_insure(self, a: Insure) -> list[Event]:
        number = a.box or 0
        box = next((b for b in self.insurable() if b.number == number and b.seat == a.seat), None)
        amount = a.amount or 0
        if box is None:
            raise refuse(a.seat, say("insure box {box}", box=number),
                         say("only a closed box, before the reveal, may be insured (R-9)"))
        hand = box.cards or self._keyed(a, self._box_request(box, "insurance"))[f"box {number}"]
        try:
            rules.verify_insurance(self.profile, number, box.ante, rules.Action.BET, rules.hand_of(hand), amount)
        except IllegalAction as exc:
            raise refuse(a.seat, insure(amount), exc.said) from None
        if amount > self.available(box.seat):
            raise refuse(a.seat, insure(amount), only_free(self.available(box.seat)))
        return [InsuranceTaken(box=number, premium=amount, hand=() if box.cards else hand)]

    def _propose_reveal(self, a: Reveal) -> list[Event]:
        cards = self._keyed(a, self.reveal_request())
        dealer = self.dealer + cards.pop(HOLE)
        hand = rules.hand_of(dealer)
        return [DealerRevealed(cards=dealer, hand=hand.name, qualified=hand.qualifies, box_hands=cards)]

    # -- folding ----------------------------------------------------------------------------

    def _on_cards_dealt(self, e: CardsDealt) -> None:
        self.cut_by = e.cut_by
        self.dealer = e.hands[UP]
        self._phase = Phase.ACT
        self._end_act_if_done()

    def _on_box_exchanged(self, e: BoxExchanged) -> None:
        box = self.boxes[e.box]
        box.exchanged, box.status = e.exchanged, "exchanged"
        self.drawn[box.number] = e.drawn
        if len(e.drawn) == rules.BOX_CARDS:
            box.cards = e.drawn

    def _on_box_closed(self, e: BoxClosed) -> None:
        self.boxes[e.box].status = "closed"
        self._end_act_if_done()

    def _on_insurance_taken(self, e: InsuranceTaken) -> None:
        box = self.boxes[e.box]
        box.insurance = e.premium
        if e.hand:
            box.cards = e.hand

    def _on_dealer_revealed(self, e: DealerRevealed) -> None:
        self.dealer = e.cards
        for label, cards in (e.box_hands or {}).items():
            self.boxes[int(label.split()[1])].cards = cards
        self.revealed = True
        closed = [rules.BoxPlay(b.number, b.ante, rules.Action.BET, b.cards, b.exchanged, b.insurance or 0)
                  for b in self.boxes.values() if b.status == "closed"]
        self.settlement = rules.settle(self.profile, self.dealer, closed)
        self._phase = Phase.PAYOUT

    # -- outcome ----------------------------------------------------------------------------

    def outcome(self) -> RoundOutcome | None:
        """Closed boxes as settled by the rules; passed boxes lose the Ante unseen (R-2)."""
        base = super().outcome()
        if base is None:
            return None
        rows, changes = list(base.rows), dict(base.stack_changes)
        for number in self.order():
            box = self.boxes[number]
            if box.status != "folded":
                continue
            for name, bet in zip(("ante", "bet", "exchange", "insurance"),
                                 rules.passed_bets(self.profile, box.ante, box.exchanged), strict=True):
                if bet.stake or bet.result:
                    rows.append(SettlementRow(box.number, name, bet.stake, bet.result, bet.reason))
                    changes[box.seat] = changes.get(box.seat, 0) + bet.result
        house = -sum(changes.values())
        return RoundOutcome(tuple(sorted(rows, key=lambda r: r.seat)), changes, house, base.flags)
