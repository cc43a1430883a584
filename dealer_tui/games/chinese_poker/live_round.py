"""Chinese Poker at a live table: the players set their physical rows; the dealer keys each
player's three rows as they are turned over (3/5/5, CP-2), and the round checks them.

The deal records no cards (no dead hands are keyed). Keyed rows become the seat's 13 cards: a card
keyed in two hands is refused, and a row may be keyed again to correct it until the seat locks.
A natural is declared by the player, who lays the 13 cards down (CP-9): the dealer keys them in
any three rows of 3/5/5, the round judges the 13 cards, and records (and shows) rows that display
the natural (CP-14).
"""

from __future__ import annotations

from dealer_tui.events import Event
from dealer_tui.games.chinese_poker.events import CardsDealt, NaturalDeclared, RowsSet
from dealer_tui.games.chinese_poker.round import (
    ChinesePokerRound,
    Seat,
    natural_declared,
    rows_named,
)
from dealer_tui.games.chinese_poker.rows import RowStatus, rows_data
from dealer_tui.games.chinese_poker.steps import DeclareNatural, NamedRows, SetRows
from dealer_tui.rounds.base import Deal, LegalStep, Phase, refuse
from rules.cards import Card
from rules.errors import IllegalAction
from rules.games.chinese_poker import rules as cp
from rules.games.chinese_poker.naturals import rows_showing, shows
from rules.said import Said, say

EMPTY_ROWS = {name: "" for name in cp.ROWS}


class ChinesePokerKeyedRound(ChinesePokerRound):
    keyed = True

    def _legal_steps(self) -> list[LegalStep]:
        specs = []
        for spec in super()._legal_steps():
            if spec.step is Deal:
                spec = LegalStep(Deal, None, label="Deal four hands of 13 (physical cards, CP-1)")
            specs.append(spec)
        return specs

    def _setting_specs(self, p: Seat) -> list[LegalStep]:
        """The dealer keys the rows the player turns over, or the rows of a declared natural."""
        n = p.seat
        rows = rows_data(p.rows) if p.rows is not None else dict(EMPTY_ROWS)
        return [LegalStep(SetRows, n, label=f"Seat {n}: key the rows (front 3, middle 5, back 5)", data=rows),
                LegalStep(DeclareNatural, n, label=f"Seat {n}: key the 13 cards of a declared natural (CP-9)",
                           data=rows)]

    def row_status(self, seat: int) -> RowStatus:
        status = super().row_status(seat) if self.seats[seat].cards else None
        if status is not None:
            return status
        p = self.seats[seat]
        return RowStatus(seat, None, None, None, None, None, False, p.locked)

    def taken_cards(self, request: object = None, seat: int | None = None) -> dict[Card, str]:
        """Cards keyed for the other seats (a seat's own rows may be keyed again)."""
        return {c: f"seat {s.seat}" for s in self.seats.values() if s.seat != seat for c in s.cards}

    def _rows_of(self, a: NamedRows, p: Seat, what: Said) -> cp.SetHand | None:
        """Keyed rows: 3/5/5 cards, none keyed twice in the round (this seat's own earlier keying aside)."""
        hand = rows_named(a, p.seat, what)
        if hand is None:
            return None
        twice = [c.text for i, c in enumerate(hand.cards) if c in hand.cards[:i]]
        if twice:
            raise refuse(p.seat, what, say("{card} is keyed twice", card=twice[0]))
        others = {c: s.seat for s in self.seats.values() if s.seat != p.seat for c in s.cards}
        clash = next((c for c in hand.cards if c in others), None)
        if clash is not None:
            raise refuse(p.seat, what, say("{card} is already keyed for seat {seat}", card=clash.text, seat=others[clash]))
        return hand

    def _propose_declare_natural(self, a: DeclareNatural) -> list[Event]:
        """CP-9: the natural of the 13 keyed cards, recorded with rows that display it."""
        p = self.seats[a.seat or 0]
        hand = self._rows_of(a, p, DeclareNatural.VERB) or p.rows
        if hand is None:
            raise refuse(p.seat, DeclareNatural.VERB, say("key the 13 cards, in any rows of 3, 5 and 5"))
        try:
            natural = cp.declared_natural(p.seat, hand, self.revision)
        except IllegalAction as exc:
            raise refuse(p.seat, DeclareNatural.VERB, exc.said) from None
        if not shows(natural, hand.rows):
            found = rows_showing(hand.cards, natural)
            assert found is not None
            hand = cp.SetHand(*found)
        return [natural_declared(p.seat, natural, hand)]

    def _propose_deal(self, a: Deal) -> list[Event]:
        return [CardsDealt(hands={}, keyed=True)]

    def _on_cards_dealt(self, e: CardsDealt) -> None:
        self._phase = Phase.ACT

    def _on_rows_set(self, e: RowsSet) -> None:
        super()._on_rows_set(e)
        self.seats[e.seat].cards = e.hand.cards

    def _on_natural_declared(self, e: NaturalDeclared) -> None:
        super()._on_natural_declared(e)
        self.seats[e.seat].cards = e.hand.cards

