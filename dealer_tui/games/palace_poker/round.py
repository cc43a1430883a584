"""Palace Poker round (docs/rules.md PP-0..PP-18), the hand's state machine: the draw for the first
dealer and the antes for banners (ANTE), the banner deal, the palace deal (DEAL), the turns and
battles (ACT, played by the round's `Turns` over its `HandState`), the pot awarded (REVEAL) and
paid out (PAYOUT).

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
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, ClassVar

from dealer_tui.events import Event, on
from dealer_tui.events.table import PayoutConfirmed, RoundVoided
from dealer_tui.games.palace_poker.battle_flow import ACT_STEPS, Turns, take_cards
from dealer_tui.games.palace_poker.events import (
    AntePlaced,
    AnteWithdrawn,
    BannersDealt,
    DealerDrawn,
    HandEnded,
    PalacesDealt,
)
from dealer_tui.games.palace_poker.hand_state import HandState, Player
from dealer_tui.games.palace_poker.steps import (
    Ante,
    Battle,
    Buy,
    Call,
    DealBanners,
    DealPalaces,
    Discard,
    DrawForDealer,
    Fold,
    Keep,
    Raise,
    Stay,
    Withdraw,
)
from dealer_tui.ledger.base import SettlementRow
from dealer_tui.rounds.base import (
    CardRequest,
    ConfirmPayout,
    LegalStep,
    Phase,
    Reveal,
    Round,
    RoundOutcome,
    Step,
    Void,
    cards_payload,
    proposes,
    refuse,
)
from dealer_tui.rounds.session import TableSession
from rules.cards import DECK, Card
from rules.errors import BadCards, IllegalAction
from rules.games.palace_poker import rules as pp
from rules.games.palace_poker.profile import PalacePokerProfile
from rules.games.palace_poker.rules import PalaceHand, clockwise_from, seats_text
from rules.profiles.base import ProfileBase
from rules.said import Said, as_said, joined, say, say_in

BET_NAMES = ("ante", "buy", "discard", "battle", "pot")
START = say("start a round")
"""How starting a round reads in its refusals."""


class PalacePokerRound(Round):
    game_id = "palace-poker"
    VERBS: ClassVar[Mapping[type[Step], Said]] = {Reveal: say("award the pot")}
    BET_STEP = Ante
    FLAGS = {"split_pot": "the pot was split (Palace Poker)", "all_in": "a player was all in (Palace Poker)"}
    FLAG_WORDS = {"split_pot": say_in("flag", "split_pot"), "all_in": say_in("flag", "all_in")}
    profile: PalacePokerProfile
    TURNS: ClassVar[type[Turns]] = Turns
    """How the act phase is played (a live table's turns key the cards as they are seen)."""

    def __init__(self, profile: ProfileBase, setup: Mapping[str, Any]) -> None:
        assert isinstance(profile, PalacePokerProfile)
        super().__init__(profile, setup)
        players = {int(s): Player(int(s), p["name"], p["stack"]) for s, p in setup["players"].items()}
        self.state = HandState(players, setup["button"])
        self.turns = self.TURNS(profile, self.state)
        self.drawing: list[int] = sorted(players) if self.state.dealer is None else []
        self.drawn: list[Card] = []  # PP-0 cards, back in the deck for the banner deal
        self.deck: tuple[Card, ...] = ()
        self._phase = Phase.ANTE

    @classmethod
    def setup_from(cls, session: TableSession, profile: ProfileBase, **choices: Any) -> dict[str, Any]:
        """The players seated now; the dealer one seat clockwise from the last button (PP-0)."""
        assert isinstance(profile, PalacePokerProfile)
        seated = session.playing
        if len(seated) < profile.min_players:
            raise refuse(None, START, say("Palace Poker needs {players} players, {counted}",
                                          players=profile.min_players, counted=as_said(session.counted())))
        if len(seated) > profile.max_players:
            raise refuse(None, START, say("at most {players} players play this table, {counted}",
                                          players=profile.max_players, counted=as_said(session.counted())))
        able = sum(p.stack >= profile.ante for p in seated.values())
        if able < profile.min_players:
            raise refuse(None, START, say("only {count} seated player(s) hold the ante of {ante} (PP-1)", count=able,
                                          ante=profile.ante))
        button = None if session.button is None else clockwise_from(session.button, seated)[0]
        return {"seats": session.seat_count, "button": button,
                "players": {str(s): {"name": p.name, "stack": p.stack} for s, p in sorted(seated.items())}}

    # -- state: the hand's (`state`); who plays, deals and acts, for those who ask the round ------

    @property
    def players(self) -> dict[int, Player]:
        """The hand's players, by seat."""
        return self.state.players

    @property
    def dealer(self) -> int | None:
        """The hand's dealer (None until the draw chooses one, PP-0)."""
        return self.state.dealer

    @property
    def turn(self) -> int | None:
        """The seat whose turn it is (None before the palace deal and once the hand is over)."""
        return self.state.turn

    def anted(self) -> list[int]:
        """Seats that have anted, clockwise from the dealer's left."""
        if self.state.dealer is None:
            return []
        return list(clockwise_from(self.state.dealer, [s for s, p in self.state.players.items() if p.anted]))

    # -- legal steps ------------------------------------------------------------------------

    def on_the_table(self) -> dict[int, int]:
        """Every ante and bet in the pot so far (PP-2, PP-4)."""
        return {seat: p.put_in() for seat, p in self.state.players.items() if p.put_in()}

    def _legal_steps(self) -> list[LegalStep]:
        specs: list[LegalStep] = []
        if self._phase is Phase.ANTE:
            specs += self._ante_specs()
        elif self._phase is Phase.DEAL:
            specs.append(LegalStep(DealPalaces, None, label="Shuffle again and deal 3 palace cards each",
                                    needs_cards=self._palace_request()))
        elif self._phase is Phase.ACT:
            specs += self.turns.specs()
        elif self._phase is Phase.REVEAL:
            end = self.state.end
            label = "Show down the palaces" if end and end.rule == "PP-16" else "Award the pot"
            specs.append(LegalStep(Reveal, None, label=label))
        elif self._phase is Phase.PAYOUT:
            specs.append(LegalStep(ConfirmPayout, None, label="Confirm the payout"))
        if self._phase in (Phase.ANTE, Phase.DEAL, Phase.ACT, Phase.REVEAL):
            specs.append(LegalStep(Void, None, label="Misdeal: void the round and return every chip"))
        return specs

    def _ante_specs(self) -> list[LegalStep]:
        if self.state.dealer is None:
            return [LegalStep(DrawForDealer, None, label="Deal one card each: the highest rank deals",
                               needs_cards=self._draw_request())]
        specs = []
        ante = self.profile.ante
        for seat in clockwise_from(self.state.dealer, self.state.players):
            p = self.state.players[seat]
            if p.anted:
                specs.append(LegalStep(Withdraw, seat, label=f"Seat {seat}: take back the ante"))
            elif p.stack >= ante:
                specs.append(LegalStep(Ante, seat, ante, ante, f"Seat {seat}: ante {ante} for a banner"))
        if len(self.anted()) >= self.profile.min_players:
            specs.append(LegalStep(DealBanners, None, label="Deal the banners",
                                    needs_cards=self._banner_request()))
        return specs

    def _draw_request(self) -> CardRequest:
        return CardRequest("first dealer", tuple((f"seat {s}", 1) for s in self.drawing), tuple(self.drawn))

    def _banner_request(self) -> CardRequest:
        return CardRequest("banners", (("deck", len(DECK)),), tuple(self.drawn))

    def _palace_request(self) -> CardRequest:
        rest = tuple(c for c in self.deck if c not in {p.banner for p in self.state.players.values()})
        palace = pp.PALACE_CARDS * len(self.state.order)
        return CardRequest("palaces", (("palace", palace), ("draw pile", len(rest) - palace)), rest)

    # -- proposing --------------------------------------------------------------------------

    def _why_not(self, a: Step) -> Said:
        if self._phase in (Phase.DONE, Phase.VOID, Phase.PAYOUT) and isinstance(a, Void):
            return say("the round is in the {phase}", phase=self._phase.named)
        if self._phase is Phase.ANTE:
            return self._why_not_ante(a)
        if self._phase is Phase.ACT and isinstance(a, ACT_STEPS):
            return self.turns.why_not(a)
        return as_said(super()._why_not(a))

    def _why_not_ante(self, a: Step) -> Said:
        if self.state.dealer is None:
            return say("the first dealer is not chosen yet: deal one card each first (PP-0)")
        if isinstance(a, Ante) and a.seat is None:
            return self._nobody_to_ante()
        if isinstance(a, (Ante, Withdraw)):
            p = self.state.players.get(a.seat or 0)
            if p is None:
                return say("the seat is not playing this round")
            if isinstance(a, Withdraw):
                return say("the seat has not anted")
            if p.anted:
                return say("the seat has already anted")
            return say("it holds {stack}, the ante is {ante}: it sits this hand out (PP-1)", stack=p.stack,
                       ante=self.profile.ante)
        if isinstance(a, DealBanners):
            return say("at least {players} players must ante first (PP-1)", players=self.profile.min_players)
        return as_said(super()._why_not(a))

    def _nobody_to_ante(self) -> Said:
        """Why no seat may ante now: each has anted or holds less than the ante (PP-1)."""
        anted = sorted(self.anted())
        players = self.state.players
        waiting = [s for s, p in sorted(players.items()) if not p.anted]
        short = [s for s in waiting if players[s].stack < self.profile.ante]
        if len(short) < len(waiting):
            may = [s for s in waiting if s not in short]
            return say("name the seat that antes ({seats} may)", seats=seats_text(may))
        if not short:
            return say("every player has anted ({seats})", seats=seats_text(anted))
        said = []
        if len(anted) == 1:
            said.append(say("{seats} has anted", seats=seats_text(anted)))
        elif anted:
            said.append(say("{seats} have anted", seats=seats_text(anted)))
        said += [say("seat {seat} holds {stack}, short of the ante of {ante}", seat=s, stack=players[s].stack,
                     ante=self.profile.ante) for s in short]
        return say("{reasons} (PP-1)", reasons=joined(said, "; "))

    @proposes(DrawForDealer)
    def _propose_draw_for_dealer(self, a: DrawForDealer) -> list[Event]:
        got = take_cards(a, self._draw_request(), set(DECK) - set(self.drawn), a.VERB)
        new = [(s, got[f"seat {s}"][0]) for s in self.drawing]
        try:
            draw = pp.draw_for_dealer(sorted(self.state.players), [*self.drawn, *(c for _, c in new)])
            dealer, tied, said = draw.dealer, [], draw.reason
        except BadCards:  # the draw needs more cards: the top rank is tied
            top = max(c.rank for _, c in new)
            tied = [s for s, c in new if c.rank == top]
            shown = " ".join(c.pretty for s, c in new if s in tied)
            dealer, said = None, say("{seats} tie with {cards} and draw again", seats=seats_text(tied), cards=shown)
        reason = say("{reason} (PP-0)", reason=said)
        return [DealerDrawn(drawn={f"seat {s}": (c,) for s, c in new}, dealer=dealer, tied=tuple(tied),
                            reason=reason)]

    @proposes(Ante)
    def _propose_ante(self, a: Ante) -> list[Event]:
        ante = self.profile.ante
        if a.amount is not None and a.amount != ante:
            raise refuse(a.seat, say("ante {amount}", amount=a.amount), say("the ante is {ante} (PP-1)", ante=ante))
        return [AntePlaced(seat=a.seat or 0, ante=ante)]

    @proposes(Withdraw)
    def _propose_withdraw(self, a: Withdraw) -> list[Event]:
        return [AnteWithdrawn(seat=a.seat or 0)]

    @proposes(DealBanners)
    def _propose_deal_banners(self, a: DealBanners) -> list[Event]:
        deck = take_cards(a, self._banner_request(), set(DECK), a.VERB)["deck"]
        order = self.anted()
        try:
            deal = pp.deal_banners(order, deck, random.Random(cards_payload(deck)))
        except (BadCards, IllegalAction) as exc:
            raise refuse(None, a.VERB, exc.said) from None
        return [BannersDealt(deck=deck, order=tuple(order), banners={str(s): (deal.banners[s],) for s in order},
                             refused=deal.refused, turned=deal.turned, reshuffles=deal.reshuffles,
                             reasons=deal.reasons)]

    @proposes(DealPalaces)
    def _propose_deal_palaces(self, a: DealPalaces) -> list[Event]:
        request = self._palace_request()
        got = take_cards(a, request, set(request.refill), a.VERB)
        order = self.state.order
        deal = pp.deal_palaces_from(order, (*got["palace"], *got["draw pile"]))
        return [PalacesDealt(palaces={str(s): deal.palaces[s] for s in order}, draw_pile=deal.draw_pile)]

    @proposes(Reveal)
    def _propose_reveal(self, a: Reveal) -> list[Event]:
        end = self.state.end
        assert end is not None
        return [HandEnded(rule=end.rule, winners=tuple(end.winners),
                          shares={str(s.seat): s.amount for s in end.shares}, reason=end.reason,
                          shown={str(sh.seat): self.state.players[sh.seat].cards() for sh in end.hands})]

    # -- the act phase's steps (PP-3..PP-11): the turns propose them --------------------------

    @proposes(Buy)
    def _propose_buy(self, a: Buy) -> list[Event]:
        return self.turns.propose_buy(a)

    @proposes(Keep)
    def _propose_keep(self, a: Keep) -> list[Event]:
        return self.turns.propose_keep(a)

    @proposes(Discard)
    def _propose_discard(self, a: Discard) -> list[Event]:
        return self.turns.propose_discard(a)

    @proposes(Stay)
    def _propose_stay(self, a: Stay) -> list[Event]:
        return self.turns.propose_stay(a)

    @proposes(Fold)
    def _propose_fold(self, a: Fold) -> list[Event]:
        return self.turns.propose_fold(a)

    @proposes(Battle)
    def _propose_battle(self, a: Battle) -> list[Event]:
        return self.turns.propose_battle(a)

    @proposes(Call)
    def _propose_call(self, a: Call) -> list[Event]:
        return self.turns.propose_call(a)

    @proposes(Raise)
    def _propose_raise(self, a: Raise) -> list[Event]:
        return self.turns.propose_raise(a)

    def _propose_confirm_payout(self, a: ConfirmPayout) -> list[Event]:
        return self._with_button(self.payout_events(a))

    def _propose_void(self, a: Void) -> list[Event]:
        return self._with_button(super()._propose_void(a))

    def _with_button(self, events: list[Event]) -> list[Event]:
        """Round-ending events also carry the hand's dealer, for the next hand's button (PP-0)."""
        return [replace(e, button=self.state.dealer) if isinstance(e, (PayoutConfirmed, RoundVoided)) else e
                for e in events]

    # -- folding ----------------------------------------------------------------------------

    def handler_for(self, event: Event) -> Callable[[Any], None] | None:
        """The round's own folder of `event`, else the act phase's: the turns fold their steps."""
        own = super().handler_for(event)
        return own if own is not None or not self.turns.folds(event) else self._on_turn_step

    def _on_turn_step(self, e: Event) -> None:
        """A step of the act phase: the turns fold it; once the hand is over the pot is awarded in
        the reveal phase."""
        self.turns.apply(e)
        if self._phase is Phase.ACT and self.state.end is not None:
            self._phase = Phase.REVEAL

    @on(DealerDrawn)
    def _on_dealer_drawn(self, e: DealerDrawn) -> None:
        self.drawn += [e.drawn[f"seat {s}"][0] for s in self.drawing]
        self.state.dealer = e.dealer
        self.drawing = [] if e.dealer is not None else list(e.tied)

    @on(AntePlaced)
    def _on_ante_placed(self, e: AntePlaced) -> None:
        player = self.state.players[e.seat]
        player.anted, player.paid["ante"] = True, e.ante

    @on(AnteWithdrawn)
    def _on_ante_withdrawn(self, e: AnteWithdrawn) -> None:
        player = self.state.players[e.seat]
        player.anted = False
        player.paid.pop("ante", None)

    @on(BannersDealt)
    def _on_banners_dealt(self, e: BannersDealt) -> None:
        self.deck = e.deck
        self.state.order = e.order
        for seat, card in e.banner_by_seat.items():
            self.state.players[seat].banner = card
        self._phase = Phase.DEAL

    @on(PalacesDealt)
    def _on_palaces_dealt(self, e: PalacesDealt) -> None:
        for seat in self.state.order:
            player = self.state.players[seat]
            assert player.banner is not None
            player.hand = PalaceHand(seat, player.banner, e.palaces[str(seat)])
        self.state.draw_pile = list(e.draw_pile)
        self.turns.start()
        self._phase = Phase.ACT

    @on(HandEnded)
    def _on_hand_ended(self, e: HandEnded) -> None:
        self._phase = Phase.PAYOUT

    # -- outcome ----------------------------------------------------------------------------

    def outcome(self) -> RoundOutcome | None:
        end = self.state.end
        if end is None or self._phase not in (Phase.PAYOUT, Phase.DONE):
            return None
        rows: list[SettlementRow] = []
        changes: dict[int, int] = {}
        for seat in self.state.order:
            player = self.state.players[seat]
            for bet in BET_NAMES[:-1]:
                stake = player.paid.get(bet, 0)
                if stake:
                    rows.append(SettlementRow(seat, bet, stake, -stake, self.bet_reason(player, bet)))
            share = end.share_of(seat)
            if share:
                said = next(s.reason for s in end.shares if s.seat == seat)
                reason = (end.reason if len(end.winners) == 1
                          else say("{reason}: {share}", reason=end.reason, share=said))
                rows.append(SettlementRow(seat, "pot", 0, share, reason))
            changes[seat] = share - player.put_in()
        flags = {"split_pot"} if len(end.winners) > 1 else set()
        if self.state.all_ins:
            flags.add("all_in")
        return RoundOutcome(tuple(rows), changes, 0, frozenset(flags))

    def bet_reason(self, player: Player, bet: str) -> Said:
        stake, small = player.paid[bet], self.profile.small_bet
        if bet == "ante":
            return say("ante {stake} into the pot for a banner (PP-1)", stake=stake)
        times = stake // small
        if bet == "buy" and times > 1:
            return say("{times} buys × {small} = {stake} into the pot (PP-3)", times=times, small=small, stake=stake)
        if bet == "buy":
            return say("{times} buy × {small} = {stake} into the pot (PP-3)", times=times, small=small, stake=stake)
        if bet == "discard" and times > 1:
            return say("{times} discards × {small} = {stake} into the pot (PP-4)", times=times, small=small,
                       stake=stake)
        if bet == "discard":
            return say("{times} discard × {small} = {stake} into the pot (PP-4)", times=times, small=small,
                       stake=stake)
        return say("battle bets {stake} into the pot (PP-7, PP-9, PP-11): {bets}", stake=stake,
                   bets=joined(player.bets, "; "))
