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

from dealer_tui.events import Event, on
from dealer_tui.games.palace_poker.battle_flow import Turns
from dealer_tui.games.palace_poker.events import (
    BannersDealt,
    HandEnded,
    PalacesDealt,
    PalacesShown,
    SoldierBought,
)
from dealer_tui.games.palace_poker.hand_state import HandState, Pending
from dealer_tui.games.palace_poker.round import PalacePokerRound
from dealer_tui.games.palace_poker.steps import Buy, Call, DealBanners, DealPalaces
from dealer_tui.rounds.base import (
    CardRequest,
    LegalStep,
    Phase,
    Reveal,
    WithCards,
    refuse,
)
from rules.cards import DECK, Card
from rules.games.palace_poker import hand_end as ends
from rules.games.palace_poker import rules as pp
from rules.games.palace_poker.battle import TurnOptions, turn_options
from rules.games.palace_poker.hand_end import HandEnd
from rules.games.palace_poker.rules import PalaceHand, suit_word
from rules.said import Said, joined, say

SHOWDOWN_PENDING = say("the palace cards are keyed at the reveal (PP-16)")
CALLED = say("the battle is called: both palaces turned over (PP-9)")
SHOWDOWN = say("the showdown: every palace turned over (PP-16)")


def unseen_palaces(state: HandState, seats: tuple[int, ...], purpose: str) -> CardRequest | None:
    """The palaces of these seats the table has not seen yet, to key as they are turned over."""
    hands = tuple((f"seat {s} palace", pp.PALACE_CARDS) for s in seats if not state.hand(s).seen)
    return CardRequest(purpose, hands) if hands else None


def soldier_request(seat: int) -> CardRequest:
    """The soldier a buy turns up (PP-3)."""
    return CardRequest("soldier", ((f"seat {seat}", 1),))


@contextmanager
def palaces_shown(state: HandState, palaces: Mapping[int, tuple[Card, ...]]) -> Iterator[None]:
    """The hand as it would be with these palaces turned over (to propose, not to change)."""
    saved = {s: state.players[s].hand for s in palaces}
    try:
        for s, palace in palaces.items():
            state.players[s].hand = replace(state.hand(s), palace=palace, seen=True)
        yield
    finally:
        for s, held in saved.items():
            state.players[s].hand = held


class KeyedTurns(Turns):
    """The turns at a live table: the draw and discard piles are physical, a bought soldier and a
    called battle's palaces are keyed, and a quiet orbit waits for the palaces to be keyed."""

    def pool(self) -> int:
        """Cards in the draw and discard piles together: the deck less the cards in the players' hands."""
        unseen = sum(pp.PALACE_CARDS for h in self.state.remaining() if not h.seen)
        return len(DECK) - len(self.state.held()) - unseen

    def options(self, seat: int) -> TurnOptions:
        player = self.state.players[seat]
        assert player.hand is not None
        return turn_options(player.hand, self.state.remaining(), stack=player.available(), draw_pile=self.pool(),
                            discard_pile=0, profile=self.profile)

    def refill_request(self) -> CardRequest | None:
        return None

    def specs(self) -> list[LegalStep]:
        battle = self.state.battle
        specs = []
        for spec in super().specs():
            if spec.step is Buy and spec.seat is not None:
                spec = replace(spec, needs_cards=soldier_request(spec.seat))
            elif spec.step is Call and battle is not None:
                seats = (battle.attacker.seat, battle.defender.seat)
                spec = replace(spec, needs_cards=unseen_palaces(self.state, seats, CALLED))
            specs.append(spec)
        return specs

    def bought(self, seat: int, cost: int, card: Card) -> SoldierBought:
        """The buy of a keyed soldier (PP-3)."""
        return SoldierBought(seat=seat, cost=cost, soldier=(card,), refilled=False, draw_pile=(),
                             reason=say("seat {seat} pays {cost} and turns up {card} from the draw pile (PP-3)",
                                        seat=seat, cost=cost, card=card.pretty))

    def _on_soldier_bought(self, e: SoldierBought) -> None:
        state = self.state
        if state.draw_left == 0:  # PP-12: the discard pile was shuffled into a new draw pile
            state.draw_left, state.discard_pile = self.pool(), []
        state.draw_left -= 1
        state.players[e.seat].pay("buy", e.cost)
        state.recent.append(pp.Action.BUY)
        state.pending = Pending(e.seat, (e.card,))

    @on(PalacesShown)
    def _on_palaces_shown(self, e: PalacesShown) -> None:
        for seat, palace in e.palaces.items():
            self.state.players[int(seat)].hand = replace(self.state.hand(int(seat)), palace=palace, seen=True)

    def _end_turn(self, actor: int) -> None:
        remaining = self.state.remaining()
        quiet = ends.quiet_orbit(self.state.recent, len(remaining))
        over = ends.hand_over(remaining, self.state.pot, self.state.dealer_seat())
        if over is None and quiet and not all(h.seen for h in remaining):
            self._close(HandEnd("PP-16", (), (), SHOWDOWN_PENDING))
            return
        super()._end_turn(actor)


class PalacePokerKeyedRound(PalacePokerRound):
    keyed = True
    TURNS = KeyedTurns
    turns: KeyedTurns

    def taken_cards(self, request: CardRequest | None = None) -> dict[Card, str]:
        """Cards in the players' hands, and cards seen going to the discard pile since it was last
        shuffled into the draw pile (PP-12): none of them can turn up again before that."""
        if self._phase is Phase.ANTE:  # the cards drawn for the dealer go back into the deck (PP-0)
            first_dealer = request is not None and request.purpose == "first dealer"
            return {card: say("drawn for the dealer") for card in self.drawn} if first_dealer else {}
        reshuffled = self.state.draw_left == 0 and request is not None and request.purpose == "soldier"
        taken: dict[Card, str] = {} if reshuffled else {card: say("the discard pile") for card in self.state.discard_pile}
        taken.update({card: f"seat {seat}" for seat, card in self.state.held()})
        return taken

    # -- legal steps ----------------------------------------------------------------------------

    def _banner_request(self) -> CardRequest:
        return CardRequest("banners", tuple((f"seat {s}", 1) for s in self.anted()))

    def _palace_request(self) -> CardRequest:
        return CardRequest("palaces", ())

    def _legal_steps(self) -> list[LegalStep]:
        end = self.state.end
        specs = []
        for spec in super()._legal_steps():
            if spec.step is DealPalaces:
                spec = LegalStep(DealPalaces, None, label="Deal 3 palace cards each (physical, face down)")
            elif spec.step is Reveal and end is not None and not end.winners:
                seats = tuple(h.seat for h in self.state.remaining())
                spec = LegalStep(Reveal, None, label="Key the palace cards and show down (PP-16)",
                                  needs_cards=unseen_palaces(self.state, seats, SHOWDOWN))
            specs.append(spec)
        return specs

    # -- proposing: the keyed cards ---------------------------------------------------------------

    def _propose_deal_banners(self, a: DealBanners) -> list[Event]:
        request = self._banner_request()
        order = self.anted()
        got = self.dealt_cards(a, request, "PP-1")
        banners = {s: got[f"seat {s}"][0] for s in order}
        for position, seat in enumerate(order):
            for earlier in order[:position]:
                same_group = pp.banner_group(order.index(earlier)) == pp.banner_group(position)
                if same_group and banners[earlier].suit == banners[seat].suit:
                    raise refuse(None, a.VERB, say(
                        "seat {earlier}'s {earlier_card} and seat {seat}'s {card} are both {suit} in one group: seat "
                        "{seat}'s card is refused and the next one dealt (PP-1)", earlier=earlier,
                        earlier_card=banners[earlier].pretty, seat=seat, card=banners[seat].pretty,
                        suit=suit_word(banners[seat].suit)))
        return [BannersDealt(deck=(), order=tuple(order), banners={str(s): (banners[s],) for s in order},
                             refused=(), turned=(), reshuffles=0, reasons=(), keyed=True)]

    def _propose_deal_palaces(self, a: DealPalaces) -> list[Event]:
        return [PalacesDealt(palaces={}, draw_pile=(), keyed=True)]

    def _propose_buy(self, a: Buy) -> list[Event]:
        cost, seat = self.turns.cost(a), a.seat or 0
        request = soldier_request(seat)
        card = self.dealt_cards(a, request, "PP-3", self.taken_cards(request))[f"seat {seat}"][0]
        return [self.turns.bought(seat, cost, card)]

    def _keyed_palaces(self, a: WithCards, request: CardRequest | None, rule: str) -> dict[int, tuple[Card, ...]]:
        if request is None:
            return {}
        got = self.dealt_cards(a, request, rule, self.taken_cards(request))
        return {int(label.split()[1]): cards for label, cards in got.items()}

    def _propose_call(self, a: Call) -> list[Event]:
        battle = self.state.battle
        assert battle is not None
        seats = (battle.attacker.seat, battle.defender.seat)
        palaces = self._keyed_palaces(a, unseen_palaces(self.state, seats, CALLED), "PP-9")
        with palaces_shown(self.state, palaces):
            events = self.turns.propose_call(a)
        if not palaces:
            return events
        shown = joined([say("seat {seat}", seat=s) for s in palaces], ", ")
        return [_shown(palaces, say("the battle is called: {seats} turn over the palace cards (PP-9)", seats=shown)),
                *events]

    def _propose_reveal(self, a: Reveal) -> list[Event]:
        end = self.state.end
        assert end is not None
        if end.winners:
            return super()._propose_reveal(a)
        remaining = tuple(h.seat for h in self.state.remaining())
        palaces = self._keyed_palaces(a, unseen_palaces(self.state, remaining, SHOWDOWN), "PP-16")
        with palaces_shown(self.state, palaces):
            self.state.end = ends.showdown(self.state.remaining(), self.state.pot, self.state.dealer_seat())
            try:
                events = super()._propose_reveal(a)
            finally:
                self.state.end = end
        return [_shown(palaces, say("the showdown: every palace is turned over (PP-16)")), *events]

    # -- folding --------------------------------------------------------------------------------

    def _on_palaces_dealt(self, e: PalacesDealt) -> None:
        for seat in self.state.order:
            player = self.state.players[seat]
            assert player.banner is not None
            player.hand = PalaceHand(seat, player.banner, (), seen=False)
        self.state.draw_pile = []
        self.state.draw_left = len(DECK) - (1 + pp.PALACE_CARDS) * len(self.state.order)  # refused banners went back
        self.turns.start()
        self._phase = Phase.ACT

    def _on_hand_ended(self, e: HandEnded) -> None:
        end = self.state.end
        if end is not None and not end.winners:
            self.state.end = ends.showdown(self.state.remaining(), self.state.pot, self.state.dealer_seat())
        super()._on_hand_ended(e)


def _shown(palaces: Mapping[int, tuple[Card, ...]], why: Said) -> PalacesShown:
    return PalacesShown(palaces={str(s): p for s, p in palaces.items()}, reason=why)
