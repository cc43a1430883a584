"""Palace Poker at a live table: the dealer keys the physical cards as the table sees them.

The draw for the first dealer keys one card a player (PP-0). The banners are keyed as dealt, one
a player, and must differ in suit within each group (PP-1); the cards refused on the way never
reach the terminal. The palace cards stay face down, unkeyed, until a battle is called (both
palaces are turned over and keyed, PP-9) or the showdown (every palace still unseen, PP-16). A
bought soldier is keyed as it is turned up (PP-3). The draw and discard piles are physical: Buy is
offered while any card is outside the players' hands (PP-12).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace

from dealer_tui.events import on
from dealer_tui.events.palace_poker import (
    BannersDealt,
    HandEnded,
    PalacesDealt,
    PalacesShown,
    SoldierBought,
)
from dealer_tui.rounds.base import (
    Action,
    ActionSpec,
    AnyEvent,
    CardRequest,
    Phase,
    refuse,
)
from dealer_tui.rounds.palace_hand_state import Pending
from dealer_tui.rounds.palace_poker import PalacePokerRound
from rules import palace_hand_end as ends
from rules import palace_poker as pp
from rules.cards import DECK, Card
from rules.palace_battle import TurnOptions, turn_options
from rules.palace_hand_end import HandEnd
from rules.palace_poker import PalaceHand, suit_word

SHOWDOWN_PENDING = "the palace cards are keyed at the reveal (PP-16)"
CALLED = "the battle is called: both palaces turned over (PP-9)"
SHOWDOWN = "the showdown: every palace turned over (PP-16)"


class PalacePokerKeyedRound(PalacePokerRound):
    keyed = True
    draw_left = 0
    """Cards left in the physical draw pile: the deck less banners and palaces, less each buy."""

    # -- what is in play ----------------------------------------------------------------------

    def held(self) -> list[tuple[int, Card]]:
        """Every card a player in the hand holds face up or has shown, with its seat."""
        out = [(h.seat, c) for h in self.remaining() for c in h.cards]
        if self.pending is not None:
            out += [(self.pending.seat, c) for c in self.pending.gained if c not in {c for _, c in out}]
        return out

    def taken_cards(self, request: CardRequest | None = None) -> dict[Card, str]:
        """Cards in the players' hands, and cards seen going to the discard pile since it was last
        shuffled into the draw pile (PP-12): none of them can turn up again before that."""
        if self._phase is Phase.ANTE:  # the cards drawn for the dealer go back into the deck (PP-0)
            first_dealer = request is not None and request.purpose == "first dealer"
            return {card: "drawn for the dealer" for card in self.drawn} if first_dealer else {}
        reshuffled = self.draw_left == 0 and request is not None and request.purpose == "soldier"
        taken = {} if reshuffled else {card: "the discard pile" for card in self.discard_pile}
        taken.update({card: f"seat {seat}" for seat, card in self.held()})
        return taken

    def pool(self) -> int:
        """Cards in the draw and discard piles together: the deck less the cards in the players' hands."""
        unseen = sum(pp.PALACE_CARDS for h in self.remaining() if not h.seen)
        return len(DECK) - len(self.held()) - unseen

    def options(self, seat: int) -> TurnOptions:
        player = self.players[seat]
        assert player.hand is not None
        return turn_options(player.hand, self.remaining(), stack=player.available(), draw_pile=self.pool(),
                            discard_pile=0, profile=self.profile)

    def refill_request(self) -> CardRequest | None:
        return None

    def _unseen_palaces(self, seats: tuple[int, ...], purpose: str) -> CardRequest | None:
        hands = tuple((f"seat {s} palace", pp.PALACE_CARDS) for s in seats if not self._hand(s).seen)
        return CardRequest(purpose, hands) if hands else None

    # -- legal actions --------------------------------------------------------------------------

    def _banner_request(self) -> CardRequest:
        return CardRequest("banners", tuple((f"seat {s}", 1) for s in self.anted()))

    def _palace_request(self) -> CardRequest:
        return CardRequest("palaces", ())

    def _legal_actions(self) -> list[ActionSpec]:
        specs = []
        for spec in super()._legal_actions():
            if spec.kind == "deal_palaces":
                spec = ActionSpec("deal_palaces", None, label="Deal 3 palace cards each (physical, face down)")
            elif spec.kind == "reveal" and self.end is not None and not self.end.winners:
                seats = tuple(h.seat for h in self.remaining())
                spec = ActionSpec("reveal", None, label="Key the palace cards and show down (PP-16)",
                                  needs_cards=self._unseen_palaces(seats, SHOWDOWN))
            specs.append(spec)
        return specs

    def act_specs(self) -> list[ActionSpec]:
        specs = []
        for spec in super().act_specs():
            if spec.kind == "buy" and spec.seat is not None:
                spec = replace(spec, needs_cards=CardRequest("soldier", ((f"seat {spec.seat}", 1),)))
            elif spec.kind == "call" and self.battle is not None:
                seats = (self.battle.attacker.seat, self.battle.defender.seat)
                spec = replace(spec, needs_cards=self._unseen_palaces(seats, CALLED))
            specs.append(spec)
        return specs

    # -- proposing ------------------------------------------------------------------------------

    def _propose_deal_banners(self, a: Action) -> list[AnyEvent]:
        request = self._banner_request()
        order = self.anted()
        got = self.dealt_cards(a, request, "PP-1")
        banners = {s: got[f"seat {s}"][0] for s in order}
        for position, seat in enumerate(order):
            for earlier in order[:position]:
                same_group = pp.banner_group(order.index(earlier)) == pp.banner_group(position)
                if same_group and banners[earlier].suit == banners[seat].suit:
                    raise refuse(None, "deal the banners", f"seat {earlier}'s {banners[earlier].pretty} and seat "
                                 f"{seat}'s {banners[seat].pretty} are both {suit_word(banners[seat].suit)} in one "
                                 f"group: seat {seat}'s card is refused and the next one dealt (PP-1)")
        return [BannersDealt(deck=(), order=tuple(order), banners={str(s): (banners[s],) for s in order},
                             refused=(), turned=(), reshuffles=0, reasons=(), keyed=True)]

    def _propose_deal_palaces(self, a: Action) -> list[AnyEvent]:
        return [PalacesDealt(palaces={}, draw_pile=(), keyed=True)]

    def _propose_buy(self, a: Action) -> list[AnyEvent]:
        cost, seat = self._cost(a, "buy"), a.seat or 0
        request = CardRequest("soldier", ((f"seat {seat}", 1),))
        card = self.dealt_cards(a, request, "PP-3", self.taken_cards(request))[f"seat {seat}"][0]
        return [SoldierBought(seat=seat, cost=cost, soldier=(card,), refilled=False, draw_pile=(),
                              reason=f"seat {seat} pays {cost} and turns up {card.pretty} from the draw pile (PP-3)")]

    @contextmanager
    def _shown(self, palaces: Mapping[int, tuple[Card, ...]]) -> Iterator[None]:
        """The hands as they would be with these palaces turned over (to propose, not to change)."""
        saved = {s: self.players[s].hand for s in palaces}
        try:
            for s, palace in palaces.items():
                self.players[s].hand = replace(self._hand(s), palace=palace, seen=True)
            yield
        finally:
            for s, hand in saved.items():
                self.players[s].hand = hand

    def _keyed_palaces(self, a: Action, request: CardRequest | None, rule: str) -> dict[int, tuple[Card, ...]]:
        if request is None:
            return {}
        got = self.dealt_cards(a, request, rule, self.taken_cards(request))
        return {int(label.split()[1]): cards for label, cards in got.items()}

    def _palaces_event(self, palaces: Mapping[int, tuple[Card, ...]], why: str) -> PalacesShown:
        return PalacesShown(palaces={str(s): p for s, p in palaces.items()}, reason=why)

    def _propose_call(self, a: Action) -> list[AnyEvent]:
        battle = self.battle
        assert battle is not None
        seats = (battle.attacker.seat, battle.defender.seat)
        palaces = self._keyed_palaces(a, self._unseen_palaces(seats, CALLED), "PP-9")
        with self._shown(palaces):
            events = super()._propose_call(a)
        if not palaces:
            return events
        shown = ", ".join(f"seat {s}" for s in palaces)
        return [self._palaces_event(palaces, f"the battle is called: {shown} turn over the palace cards (PP-9)"),
                *events]

    def _propose_reveal(self, a: Action) -> list[AnyEvent]:
        end = self.end
        assert end is not None
        if end.winners:
            return super()._propose_reveal(a)
        remaining = tuple(h.seat for h in self.remaining())
        palaces = self._keyed_palaces(a, self._unseen_palaces(remaining, SHOWDOWN), "PP-16")
        with self._shown(palaces):
            self.end = ends.showdown(self.remaining(), self.pot, self._dealer())
            try:
                events = super()._propose_reveal(a)
            finally:
                self.end = end
        return [self._palaces_event(palaces, "the showdown: every palace is turned over (PP-16)"), *events]

    # -- folding --------------------------------------------------------------------------------

    def _on_palaces_dealt(self, e: PalacesDealt) -> None:
        for seat in self.order:
            player = self.players[seat]
            assert player.banner is not None
            player.hand = PalaceHand(seat, player.banner, (), seen=False)
        self.draw_pile = []
        self.draw_left = len(DECK) - (1 + pp.PALACE_CARDS) * len(self.order)  # refused banners went back (PP-2)
        self.start_turns()
        self._phase = Phase.ACT

    def _on_soldier_bought(self, e: SoldierBought) -> None:
        if self.draw_left == 0:  # PP-12: the discard pile was shuffled into a new draw pile
            self.draw_left, self.discard_pile = self.pool(), []
        self.draw_left -= 1
        self.players[e.seat].pay("buy", e.cost)
        self.recent.append(pp.Action.BUY)
        self.pending = Pending(e.seat, (e.card,))

    @on(PalacesShown)
    def _on_palaces_shown(self, e: PalacesShown) -> None:
        for seat, palace in e.palaces.items():
            hand = self._hand(int(seat))
            self.players[int(seat)].hand = replace(hand, palace=palace, seen=True)

    def _end_turn(self, actor: int) -> None:
        remaining = self.remaining()
        quiet = ends.quiet_orbit(self.recent, len(remaining))
        if ends.hand_over(remaining, self.pot, self._dealer()) is None and quiet and not all(h.seen for h in remaining):
            self._close(HandEnd("PP-16", (), (), SHOWDOWN_PENDING))
            return
        super()._end_turn(actor)

    def _on_hand_ended(self, e: HandEnded) -> None:
        if self.end is not None and not self.end.winners:
            self.end = ends.showdown(self.remaining(), self.pot, self._dealer())
        super()._on_hand_ended(e)
