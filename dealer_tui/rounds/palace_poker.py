"""Palace Poker round (RULES.md PP-0..PP-18): the draw for the first dealer, antes for banners,
the banner and palace deals, turns and battles (in `palace_battle_flow`), the pot paid out.

Where the cards come from: the banner deal asks the card source for the whole deck in one
request; the round deals the banners from it with the rules' PP-1 dealing, and the event records
all 52 cards in the order they came. Every other card (refused banners included) goes back to the
source as its refill and comes out shuffled again (PP-2) as the palace cards and the draw pile,
which the round then holds. An empty draw pile is rebuilt the same way from the discard pile
(PP-12). After the banner deal the source is always empty, so a round recovered after a crash
asks for exactly what it asked for before. (Keyed card entry will ask instead for each banner as
dealt, each bought soldier, and the palace cards only at a battle or the showdown.)

Rulings made here:
- PP-0: every seated player draws, in seat order; the draw happens when the table has no button.
- PP-1: a player who cannot pay the ante sits the hand out; any player may sit out by not anting.
- PP-1: should the deck run out while banners are dealt, the banner discard pile is shuffled by
  a generator seeded with the recorded deck order (so proposing the deal is repeatable); the
  event records the banners that result.
- PP-3, PP-8: after a buy or a capture the player chooses what to keep (an action): after a buy
  any soldiers may go, at least the excess over 5 (PP-3), so a buy always asks; after a capture
  exactly the excess, any of the player's soldiers old or captured (PP-8). A capture with no
  excess has nothing to choose: the battle's deciding step records the soldiers kept itself.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from dealer_tui.events import RoundEvent, on
from dealer_tui.events.palace_poker import (
    AntePlaced,
    AnteWithdrawn,
    BannersDealt,
    DealerDrawn,
    HandEnded,
    PalacesDealt,
)
from dealer_tui.events.table import PayoutConfirmed, RoundVoided
from dealer_tui.ledger.base import SettlementRow
from dealer_tui.rounds.base import (
    Action,
    ActionSpec,
    AnyEvent,
    CardRequest,
    Phase,
    RoundOutcome,
    cards_payload,
    refuse,
)
from dealer_tui.rounds.palace_battle_flow import PalaceTurns
from dealer_tui.rounds.palace_hand_state import ACT_KINDS, Player
from dealer_tui.rounds.session import TableSession
from rules import palace_poker as pp
from rules.cards import DECK, Card
from rules.errors import BadCards, IllegalAction
from rules.palace_poker import PalaceHand, clockwise_from, seats_text
from rules.profiles.base import ProfileBase
from rules.profiles.palace_poker import PalacePokerProfile

BET_NAMES = ("ante", "buy", "discard", "battle", "pot")
VERBS = {"draw_for_dealer": "draw for the dealer", "ante": "ante", "withdraw": "take back the ante",
         "deal_banners": "deal the banners", "deal_palaces": "deal the palace cards",
         "buy": "buy", "discard": "discard", "stay": "stay", "fold": "fold", "battle": "attack",
         "call": "call", "raise": "raise", "keep": "keep soldiers", "reveal": "award the pot",
         "confirm_payout": "confirm the payout", "void": "void the round"}


class PalacePokerRound(PalaceTurns):
    game_id = "palace-poker"
    profile: PalacePokerProfile

    def __init__(self, profile: ProfileBase, setup: Mapping[str, Any]) -> None:
        assert isinstance(profile, PalacePokerProfile)
        super().__init__(profile, setup)
        self.players: dict[int, Player] = {
            int(s): Player(int(s), p["name"], p["stack"]) for s, p in setup["players"].items()}
        self.dealer: int | None = setup["button"]
        self.drawing: list[int] = sorted(self.players) if self.dealer is None else []
        self.drawn: list[Card] = []  # PP-0 cards, back in the deck for the banner deal
        self.deck: tuple[Card, ...] = ()
        self.order: tuple[int, ...] = ()  # the players in the hand, from the dealer's left
        self._phase = Phase.ANTE
        self.reset_act()

    @classmethod
    def setup_from(cls, session: TableSession, profile: ProfileBase, **choices: Any) -> dict[str, Any]:
        """The players seated now; the dealer one seat clockwise from the last button (PP-0)."""
        assert isinstance(profile, PalacePokerProfile)
        seated = session.players
        if len(seated) < profile.min_players:
            raise refuse(None, "start a round", f"Palace Poker needs {profile.min_players} players, "
                                                f"{len(seated)} seated")
        if len(seated) > profile.max_players:
            raise refuse(None, "start a round", f"at most {profile.max_players} players play this table, "
                                                f"{len(seated)} seated")
        able = sum(p.stack >= profile.ante for p in seated.values())
        if able < profile.min_players:
            raise refuse(None, "start a round", f"only {able} seated player(s) hold the ante of "
                                                f"{profile.ante} (PP-1)")
        button = None if session.button is None else clockwise_from(session.button, seated)[0]
        return {"seats": session.seat_count, "button": button,
                "players": {str(s): {"name": p.name, "stack": p.stack} for s, p in sorted(seated.items())}}

    # -- state ------------------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self._phase

    def anted(self) -> list[int]:
        """Seats that have anted, clockwise from the dealer's left."""
        if self.dealer is None:
            return []
        return list(clockwise_from(self.dealer, [s for s, p in self.players.items() if p.anted]))

    # -- legal actions ----------------------------------------------------------------------

    def on_the_table(self) -> dict[int, int]:
        """Every ante and bet in the pot so far (PP-2, PP-4)."""
        return {seat: p.put_in() for seat, p in self.players.items() if p.put_in()}

    def _legal_actions(self) -> list[ActionSpec]:
        specs: list[ActionSpec] = []
        if self._phase is Phase.ANTE:
            specs += self._ante_specs()
        elif self._phase is Phase.DEAL:
            specs.append(ActionSpec("deal_palaces", None, label="Shuffle again and deal 3 palace cards each",
                                    needs_cards=self._palace_request()))
        elif self._phase is Phase.ACT:
            specs += self.act_specs()
        elif self._phase is Phase.REVEAL:
            label = "Show down the palaces" if self.end and self.end.rule == "PP-16" else "Award the pot"
            specs.append(ActionSpec("reveal", None, label=label))
        elif self._phase is Phase.PAYOUT:
            specs.append(ActionSpec("confirm_payout", None, label="Confirm the payout"))
        if self._phase in (Phase.ANTE, Phase.DEAL, Phase.ACT, Phase.REVEAL):
            specs.append(ActionSpec("void", None, label="Misdeal: void the round and return every chip"))
        return specs

    def _ante_specs(self) -> list[ActionSpec]:
        if self.dealer is None:
            return [ActionSpec("draw_for_dealer", None, label="Deal one card each: the highest rank deals",
                               needs_cards=self._draw_request())]
        specs = []
        ante = self.profile.ante
        for seat in clockwise_from(self.dealer, self.players):
            p = self.players[seat]
            if p.anted:
                specs.append(ActionSpec("withdraw", seat, label=f"Seat {seat}: take back the ante"))
            elif p.stack >= ante:
                specs.append(ActionSpec("ante", seat, ante, ante, f"Seat {seat}: ante {ante} for a banner"))
        if len(self.anted()) >= self.profile.min_players:
            specs.append(ActionSpec("deal_banners", None, label="Deal the banners",
                                    needs_cards=self._banner_request()))
        return specs

    def _draw_request(self) -> CardRequest:
        return CardRequest("first dealer", tuple((f"seat {s}", 1) for s in self.drawing), tuple(self.drawn))

    def _banner_request(self) -> CardRequest:
        return CardRequest("banners", (("deck", len(DECK)),), tuple(self.drawn))

    def _palace_request(self) -> CardRequest:
        rest = tuple(c for c in self.deck if c not in {p.banner for p in self.players.values()})
        palace = pp.PALACE_CARDS * len(self.order)
        return CardRequest("palaces", (("palace", palace), ("draw pile", len(rest) - palace)), rest)

    # -- proposing --------------------------------------------------------------------------

    def propose(self, action: Action) -> list[AnyEvent]:
        handler = getattr(self, f"_propose_{action.kind}", None)
        verb = VERBS.get(action.kind, action.kind.replace("_", " "))
        if handler is None:
            raise refuse(action.seat, verb, "there is no such step in Palace Poker")
        legal = {(s.kind, s.seat) for s in self.legal_actions()}
        if (action.kind, action.seat) not in legal and (action.kind, None) not in legal:
            raise refuse(action.seat, verb, self._why_not(action))
        events: list[AnyEvent] = handler(action)
        return events

    def _why_not(self, a: Action) -> str:
        if self._phase in (Phase.DONE, Phase.VOID, Phase.PAYOUT) and a.kind == "void":
            return f"the round is in the {self._phase.value} phase"
        if self._phase is Phase.ANTE:
            return self._why_not_ante(a)
        if self._phase is Phase.ACT and a.kind in ACT_KINDS:
            return self.why_not_act(a)
        return f"not allowed in the {self._phase.value} phase"

    def _why_not_ante(self, a: Action) -> str:
        if self.dealer is None:
            return "the first dealer is not chosen yet: deal one card each first (PP-0)"
        if a.kind == "ante" and a.seat is None:
            return self._nobody_to_ante()
        if a.kind in ("ante", "withdraw"):
            p = self.players.get(a.seat or 0)
            if p is None:
                return "the seat is not playing this round"
            if a.kind == "withdraw":
                return "the seat has not anted"
            if p.anted:
                return "the seat has already anted"
            return f"it holds {p.stack}, the ante is {self.profile.ante}: it sits this hand out (PP-1)"
        if a.kind == "deal_banners":
            return f"at least {self.profile.min_players} players must ante first (PP-1)"
        return "not allowed in the ante phase"

    def _nobody_to_ante(self) -> str:
        """Why no seat may ante now: each has anted or holds less than the ante (PP-1)."""
        anted = sorted(self.anted())
        waiting = [s for s, p in sorted(self.players.items()) if not p.anted]
        short = [s for s in waiting if self.players[s].stack < self.profile.ante]
        if len(short) < len(waiting):
            return f"name the seat that antes ({seats_text([s for s in waiting if s not in short])} may)"
        if not short:
            return f"every player has anted ({seats_text(anted)})"
        said = [f"{seats_text(anted)} {'has' if len(anted) == 1 else 'have'} anted"] if anted else []
        said += [f"seat {s} holds {self.players[s].stack}, short of the ante of {self.profile.ante}" for s in short]
        return "; ".join(said) + " (PP-1)"

    def _propose_draw_for_dealer(self, a: Action) -> list[AnyEvent]:
        got = self.take_cards(a, self._draw_request(), set(DECK) - set(self.drawn), VERBS[a.kind])
        new = [(s, got[f"seat {s}"][0]) for s in self.drawing]
        try:
            draw = pp.draw_for_dealer(sorted(self.players), [*self.drawn, *(c for _, c in new)])
            dealer, tied, reason = draw.dealer, [], draw.reason + " (PP-0)"
        except BadCards:  # the draw needs more cards: the top rank is tied
            top = max(c.rank for _, c in new)
            tied = [s for s, c in new if c.rank == top]
            shown = " ".join(c.pretty for s, c in new if s in tied)
            dealer, reason = None, f"{seats_text(tied)} tie with {shown} and draw again (PP-0)"
        return [DealerDrawn(drawn={f"seat {s}": (c,) for s, c in new}, dealer=dealer, tied=tuple(tied),
                            reason=reason)]

    def _propose_ante(self, a: Action) -> list[AnyEvent]:
        ante = self.profile.ante
        if a.amount is not None and a.amount != ante:
            raise refuse(a.seat, f"ante {a.amount}", f"the ante is {ante} (PP-1)")
        return [AntePlaced(seat=a.seat or 0, ante=ante)]

    def _propose_withdraw(self, a: Action) -> list[AnyEvent]:
        return [AnteWithdrawn(seat=a.seat or 0)]

    def _propose_deal_banners(self, a: Action) -> list[AnyEvent]:
        deck = self.take_cards(a, self._banner_request(), set(DECK), VERBS[a.kind])["deck"]
        order = self.anted()
        try:
            deal = pp.deal_banners(order, deck, random.Random(cards_payload(deck)))
        except (BadCards, IllegalAction) as exc:
            raise refuse(None, "deal the banners", str(exc)) from None
        return [BannersDealt(deck=deck, order=tuple(order), banners={str(s): (deal.banners[s],) for s in order},
                             refused=deal.refused, turned=deal.turned, reshuffles=deal.reshuffles,
                             reasons=deal.reasons)]

    def _propose_deal_palaces(self, a: Action) -> list[AnyEvent]:
        request = self._palace_request()
        got = self.take_cards(a, request, set(request.refill), VERBS[a.kind])
        deal = pp.deal_palaces_from(self.order, (*got["palace"], *got["draw pile"]))
        return [PalacesDealt(palaces={str(s): deal.palaces[s] for s in self.order}, draw_pile=deal.draw_pile)]

    def _propose_reveal(self, a: Action) -> list[AnyEvent]:
        end = self.end
        assert end is not None
        return [HandEnded(rule=end.rule, winners=tuple(end.winners),
                          shares={str(s.seat): s.amount for s in end.shares}, reason=end.reason,
                          shown={str(sh.seat): self.players[sh.seat].cards() for sh in end.hands})]

    def _propose_confirm_payout(self, a: Action) -> list[AnyEvent]:
        return self._with_button(self.payout_events(a))

    def _propose_void(self, a: Action) -> list[AnyEvent]:
        return self._with_button(self.void_events(str(a.data.get("reason", ""))))

    def _with_button(self, events: list[RoundEvent]) -> list[AnyEvent]:
        """Round-ending events also carry the hand's dealer, for the next hand's button (PP-0)."""
        return [replace(e, button=self.dealer) if isinstance(e, (PayoutConfirmed, RoundVoided)) else e
                for e in events]

    # -- folding ----------------------------------------------------------------------------

    @on(DealerDrawn)
    def _on_dealer_drawn(self, e: DealerDrawn) -> None:
        self.drawn += [e.drawn[f"seat {s}"][0] for s in self.drawing]
        self.dealer = e.dealer
        self.drawing = [] if self.dealer is not None else list(e.tied)

    @on(AntePlaced)
    def _on_ante_placed(self, e: AntePlaced) -> None:
        player = self.players[e.seat]
        player.anted, player.paid["ante"] = True, e.ante

    @on(AnteWithdrawn)
    def _on_ante_withdrawn(self, e: AnteWithdrawn) -> None:
        player = self.players[e.seat]
        player.anted = False
        player.paid.pop("ante", None)

    @on(BannersDealt)
    def _on_banners_dealt(self, e: BannersDealt) -> None:
        self.deck = e.deck
        self.order = e.order
        for seat, card in e.banner_by_seat.items():
            self.players[seat].banner = card
        self._phase = Phase.DEAL

    @on(PalacesDealt)
    def _on_palaces_dealt(self, e: PalacesDealt) -> None:
        for seat in self.order:
            player = self.players[seat]
            assert player.banner is not None
            player.hand = PalaceHand(seat, player.banner, e.palaces[str(seat)])
        self.draw_pile = list(e.draw_pile)
        self.start_turns()
        self._phase = Phase.ACT

    @on(HandEnded)
    def _on_hand_ended(self, e: HandEnded) -> None:
        self._phase = Phase.PAYOUT

    def finish(self) -> None:
        """The hand is over (`self.end` is set): the pot is awarded in the reveal phase."""
        self._phase = Phase.REVEAL

    # -- outcome ----------------------------------------------------------------------------

    def outcome(self) -> RoundOutcome | None:
        end = self.end
        if end is None or self._phase not in (Phase.PAYOUT, Phase.DONE):
            return None
        rows: list[SettlementRow] = []
        changes: dict[int, int] = {}
        for seat in self.order:
            player = self.players[seat]
            for bet in BET_NAMES[:-1]:
                stake = player.paid.get(bet, 0)
                if stake:
                    rows.append(SettlementRow(seat, bet, stake, -stake, self.bet_reason(player, bet)))
            share = end.share_of(seat)
            if share:
                said = next(s.reason for s in end.shares if s.seat == seat)
                reason = end.reason if len(end.winners) == 1 else f"{end.reason}: {said}"
                rows.append(SettlementRow(seat, "pot", 0, share, reason))
            changes[seat] = share - player.put_in()
        flags = {"split_pot"} if len(end.winners) > 1 else set()
        if self.all_ins:
            flags.add("all_in")
        return RoundOutcome(tuple(rows), changes, 0, frozenset(flags))

    def bet_reason(self, player: Player, bet: str) -> str:
        stake, small = player.paid[bet], self.profile.small_bet
        if bet == "ante":
            return f"ante {stake} into the pot for a banner (PP-1)"
        if bet in ("buy", "discard"):
            times = stake // small
            rule = "PP-3" if bet == "buy" else "PP-4"
            return f"{times} {bet}{'s' if times > 1 else ''} × {small} = {stake} into the pot ({rule})"
        return f"battle bets {stake} into the pot (PP-7, PP-9, PP-11): " + "; ".join(player.bets)
