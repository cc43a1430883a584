"""High Card Flush at a live table: the dealer deals physical cards and keys them at the reveal.

The deal records no cards. A raise is taken as declared (at most the largest cap, 3× the Ante) and
checked at the reveal against the keyed hand: a raise above the hand's cap (HCF-6) has its excess
returned and the round is flagged `over_cap_raise`. At the reveal the dealer keys every raised
hand, the banker's hand when a raised hand needs it, and, under the casino profile, every folded
hand whose bonus bets stay in play (HCF-20).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dealer_tui.events import Event, typed_as
from dealer_tui.games.high_card_flush.events import (
    BankerRevealed,
    CardsDealt,
    PlayerActed,
    RaiseCorrection,
)
from dealer_tui.games.high_card_flush.round import BANKER, HAND_CARDS, HighCardFlushRound
from dealer_tui.games.high_card_flush.steps import Raise
from dealer_tui.ledger.base import SettlementRow
from dealer_tui.rounds.base import (
    CardRequest,
    Deal,
    LegalStep,
    Phase,
    Reveal,
    RoundOutcome,
    WithCards,
)
from rules.games.high_card_flush import rules as hcf
from rules.games.high_card_flush import settlement as settle
from rules.said import as_said, say

LARGEST_FLUSH = 7
OVER_CAP = "over_cap_raise"


class HighCardFlushKeyedRound(HighCardFlushRound):
    keyed = True
    REKEYABLE = frozenset({BankerRevealed})

    def rekey_step(self, event: Event) -> WithCards:
        """The reveal as keyed: every raised (or casino bonus) hand, and the banker's."""
        revealed = typed_as(BankerRevealed, event)
        cards = dict(revealed.hand_cards or {})
        if revealed.cards:
            cards[BANKER] = revealed.cards
        return Reveal(cards=cards)

    def __init__(self, profile: Any, setup: Mapping[str, Any]) -> None:
        super().__init__(profile, setup)
        self.corrections: dict[int, RaiseCorrection] = {}

    def raise_bounds(self, seat: int) -> tuple[int, int]:
        """Before the reveal the hand is unseen: any raise up to the largest cap is taken as declared."""
        if self.seats[seat].cards:
            return super().raise_bounds(seat)
        return hcf.raise_bounds(self.seats[seat].ante, LARGEST_FLUSH)

    def _legal_steps(self) -> list[LegalStep]:
        specs = []
        for spec in super()._legal_steps():
            if spec.step is Deal:
                spec = LegalStep(Deal, None, label="Deal seven cards each (physical cards)")
            elif spec.step is Reveal:
                spec = LegalStep(Reveal, None, label="Key the hands and reveal the banker's",
                                  needs_cards=self.reveal_request())
            specs.append(spec)
        return specs

    def keyed_seats(self) -> list[int]:
        """Seats whose cards the settlement needs: raised hands, and folded hands whose bonus bets
        stay in play under the casino profile (HCF-20)."""
        house = self.profile.banker == "house"
        out = []
        for s in self.playing():
            p = self.seats[s]
            if p.raised or (house and (p.flush or p.straight_flush)):
                out.append(s)
        return out

    def reveal_request(self) -> CardRequest | None:
        hands = [(f"seat {s}", HAND_CARDS) for s in self.keyed_seats()]
        if any(self.seats[s].raised for s in self.playing()):
            hands.append((BANKER, HAND_CARDS))
        return CardRequest("reveal", tuple(hands)) if hands else None

    def _propose_deal(self, a: Deal) -> list[Event]:
        return [CardsDealt(hands={}, keyed=True)]

    def _propose_raise(self, a: Raise) -> list[Event]:
        seat, amount = a.seat or 0, a.amount or 0
        hcf.verify_raise(self.seats[seat].ante, amount, LARGEST_FLUSH, seat)
        return [PlayerActed(seat=seat, raised=amount)]

    def _propose_reveal(self, a: Reveal) -> list[Event]:
        request = self.reveal_request()
        cards = self.dealt_cards(a, request, "HCF-19") if request is not None else {}
        corrections: dict[str, RaiseCorrection] = {}
        for label, hand in cards.items():
            if label == BANKER:
                continue
            seat = int(label.split()[1])
            p = self.seats[seat]
            length = hcf.flush_length_of(hand)
            cap = hcf.raise_bounds(p.ante, length)[1]
            if p.raised and p.raised > cap:
                corrections[str(seat)] = RaiseCorrection(declared=p.raised, cap=cap, returned=p.raised - cap,
                                                         flush=length)
        return [BankerRevealed(cards=cards.get(BANKER, ()),
                               hand_cards={label: hand for label, hand in cards.items() if label != BANKER},
                               raise_corrections=corrections)]

    def _on_cards_dealt(self, e: CardsDealt) -> None:
        self._phase = Phase.ACT

    def _on_banker_revealed(self, e: BankerRevealed) -> None:
        self.banker_cards = e.cards
        for label, cards in (e.hand_cards or {}).items():
            self.seats[int(label.split()[1])].cards = cards
        for seat, fix in (e.raise_corrections or {}).items():
            self.seats[int(seat)].raised = fix.cap
            self.corrections[int(seat)] = fix
        self.revealed = True
        hands = [settle.PlayerHand(s.seat, s.ante, s.raised or 0, s.flush, s.straight_flush, s.cards or None)
                 for s in (self.seats[n] for n in self.playing())]
        banker = settle.BankerHand(self.banker_cards or None, self.banker, self.banker_stack)
        self.settlement = settle.settle(self.profile, self.table_seats, banker, hands)
        self._phase = Phase.PAYOUT

    def outcome(self) -> RoundOutcome | None:
        base = super().outcome()
        if base is None or not self.corrections:
            return base
        rows = []
        for row in base.rows:
            fix = self.corrections.get(row.seat)
            if fix is not None and row.bet == "raise":
                note = say("Raise declared {declared}; the keyed hand's {length}-card flush caps it at {cap} (HCF-6): "
                           "{returned} returned. {reason}", declared=fix.declared, length=fix.flush, cap=fix.cap,
                           returned=fix.returned, reason=as_said(row.reason))
                row = SettlementRow(row.seat, row.bet, row.stake, row.result, note)
            rows.append(row)
        return RoundOutcome(tuple(rows), base.stack_changes, base.house, base.flags | {OVER_CAP})
