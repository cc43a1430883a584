"""Palace Poker's act phase, its state and what it offers (RULES.md PP-3..PP-18): the players'
chips and cards, the piles, whose turn it is, the battle on, and every action legal now with the
reason any other is refused. The actions themselves are in `palace_battle_flow`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from dealer_tui.rounds.base import Action, ActionSpec, CardRequest, Round, refuse
from dealer_tui.rounds.base import cards_payload as text_of
from rules import palace_poker as pp
from rules.cards import Card, parse_cards, sort_cards
from rules.errors import BadCards
from rules.palace_battle import Battle, TurnOptions, answer_options, turn_options
from rules.palace_hand_end import HandEnd
from rules.palace_poker import PalaceHand
from rules.profiles.palace_poker import PalacePokerProfile

TURN_KINDS = {"buy": pp.Action.BUY, "discard": pp.Action.DISCARD, "stay": pp.Action.STAY,
              "fold": pp.Action.FOLD, "battle": pp.Action.BATTLE}
ACT_KINDS = frozenset({*TURN_KINDS, "call", "raise", "keep"})


@dataclass
class Player:
    """One seat in the hand: chips at the start, what it has put in the pot, the cards it holds."""

    seat: int
    name: str
    stack: int
    anted: bool = False
    banner: Card | None = None
    hand: PalaceHand | None = None  # None before the palace deal and once out of the hand
    out: str = ""  # why the player left the hand
    paid: dict[str, int] = field(default_factory=dict)  # bet name -> chips put in the pot
    bets: list[str] = field(default_factory=list)  # each battle bet, in words

    @property
    def in_hand(self) -> bool:
        return self.hand is not None

    def put_in(self) -> int:
        return sum(self.paid.values())

    def available(self) -> int:
        return self.stack - self.put_in()

    def cards(self) -> tuple[Card, ...]:
        return self.hand.cards if self.hand is not None else ()

    def pay(self, bet: str, amount: int) -> None:
        if amount:
            self.paid[bet] = self.paid.get(bet, 0) + amount


@dataclass(frozen=True)
class Pending:
    """Soldiers `seat` has just gained (a buy, or a beaten `loser`'s): it chooses what to keep."""

    seat: int
    gained: tuple[Card, ...]
    loser: PalaceHand | None = None


def plain(message: object, seat: int | None) -> str:
    """A rules message without its leading `seat N cannot ...:`, to follow `Seat N may not ...:`."""
    text = str(message)
    text = re.sub(r"^cannot \w+: ", "", text.removeprefix(f"seat {seat} "))
    return f"it {text}" if text.startswith(("holds", "has ")) else text


class PalaceHandState(Round):
    """The act phase's state and legal actions (a base of `PalacePokerRound`)."""

    profile: PalacePokerProfile
    players: dict[int, Player]
    dealer: int | None
    order: tuple[int, ...]

    def reset_act(self) -> None:
        self.draw_pile: list[Card] = []  # top card first
        self.discard_pile: list[Card] = []
        self.turn: int | None = None
        self.recent: list[pp.Action] = []  # every turn's action, for the quiet orbit (PP-16)
        self.battle: Battle | None = None
        self.pending: Pending | None = None
        self.end: HandEnd | None = None
        self.all_ins = 0

    def finish(self) -> None:
        """Called once `end` is set (the round moves to its reveal phase)."""
        raise NotImplementedError

    # -- state ------------------------------------------------------------------------------

    @property
    def pot(self) -> int:
        return sum(p.put_in() for p in self.players.values())

    def remaining(self) -> list[PalaceHand]:
        """The hands still in, clockwise from the dealer's left."""
        return [h for h in (self.players[s].hand for s in self.order) if h is not None]

    def start_turns(self) -> None:
        self.turn = self.order[0]

    def options(self, seat: int) -> TurnOptions:
        player = self.players[seat]
        assert player.hand is not None
        return turn_options(player.hand, self.remaining(), stack=player.available(),
                            draw_pile=len(self.draw_pile), discard_pile=len(self.discard_pile),
                            profile=self.profile)

    def refill_request(self) -> CardRequest | None:
        """PP-12: with the draw pile empty, the discard pile is shuffled into a new one."""
        if self.draw_pile:
            return None
        return CardRequest("draw pile", (("draw pile", len(self.discard_pile)),), tuple(self.discard_pile))

    # -- legal actions ----------------------------------------------------------------------

    def act_specs(self) -> list[ActionSpec]:
        if self.pending is not None:
            return [self._keep_spec(self.pending)]
        if self.battle is not None:
            return self._answer_specs(self.battle)
        if self.turn is None:
            return []
        seat, small = self.turn, self.profile.small_bet
        opts = self.options(seat)
        soldiers = [c.text for c in self._hand(seat).soldiers]
        specs = []
        for action in opts.actions:
            if action is pp.Action.BUY:
                refill = self.refill_request()
                note = " (the discard pile is shuffled into a new draw pile, PP-12)" if refill else ""
                specs.append(ActionSpec("buy", seat, small, small, f"Seat {seat}: buy a soldier for {small}{note}",
                                        needs_cards=refill))
            elif action is pp.Action.DISCARD:
                specs.append(ActionSpec("discard", seat, small, small, f"Seat {seat}: pay {small} to discard soldiers",
                                        data={"soldiers": " ".join(soldiers), "discard": soldiers[-1]}))
            elif action is pp.Action.BATTLE and opts.attack is not None:
                stake = opts.attack
                note = " (must battle, PP-15)" if opts.forced_battle else ""
                for target in opts.targets:
                    specs.append(ActionSpec("battle", seat, stake.low, stake.high,
                                            f"Seat {seat}: attack seat {target} for {stake}{note}",
                                            data={"target": target, "forced": opts.forced_battle}))
            else:
                specs.append(ActionSpec(action.value, seat, label=f"Seat {seat}: {action.value}"))
        return specs

    def _answer_specs(self, battle: Battle) -> list[ActionSpec]:
        opts = answer_options(battle, self.profile)
        seat, other = opts.seat, self._opponent(battle, opts.seat)
        bet = "attack" if battle.raises == 0 else "raise"
        specs = [ActionSpec("fold", seat, label=f"Seat {seat}: fold to seat {other}'s {bet}"),
                 ActionSpec("call", seat, opts.call, opts.call,
                            f"Seat {seat}: call {opts.call}" + (" all-in (PP-18)" if opts.call_all_in else ""),
                            data={"all_in": opts.call_all_in})]
        if opts.raise_by is not None:
            specs.append(ActionSpec("raise", seat, opts.raise_by.low, opts.raise_by.high,
                                    f"Seat {seat}: call {battle.owed} and raise by {opts.raise_by}",
                                    data={"call": battle.owed}))
        return specs

    def _keep_spec(self, pending: Pending) -> ActionSpec:
        """After a buy any soldiers may go, at least the excess over 5 (PP-3); after a capture
        exactly the excess, the winner choosing which (PP-8)."""
        hand = self.players[pending.seat].hand
        assert hand is not None
        pool = (*hand.soldiers, *pending.gained)
        must = max(0, len(pool) - pp.MAX_SOLDIERS)
        lowest = sort_cards(pool)[len(pool) - must:]
        if pending.loser is not None:
            most, rule = must, f"discard exactly {must}, PP-8" if must else "none to discard, PP-8"
        else:
            most, rule = len(pool), f"discard {must} or more, PP-3" if must else "any may be discarded, PP-3"
        return ActionSpec("keep", pending.seat, label=f"Seat {pending.seat}: keep soldiers ({rule})",
                          data={"soldiers": text_of(pool), "gained": text_of(pending.gained),
                                "min_discard": must, "max_discard": most, "discard": text_of(lowest)})

    @staticmethod
    def _opponent(battle: Battle, seat: int) -> int:
        return battle.defender.seat if seat == battle.attacker.seat else battle.attacker.seat

    def why_not_act(self, a: Action) -> str:
        if self.pending is not None:
            p = self.pending
            after = f"beating seat {p.loser.seat}" if p.loser else "buying"
            return f"seat {p.seat} first chooses which soldiers to keep after {after} (PP-3, PP-8)"
        if self.battle is not None:
            opts = answer_options(self.battle, self.profile)
            other = self._opponent(self.battle, opts.seat)
            if a.seat != opts.seat:
                return f"seat {opts.seat} must first answer seat {other}'s bet"
            if a.kind == "raise":
                return plain(opts.no_raise, None)
            return f"it is in a battle with seat {other}: fold, call or raise"
        if self.turn is None:
            return "the hand is over"
        if a.seat != self.turn:
            return f"it is seat {self.turn}'s turn"
        if a.kind in TURN_KINDS:
            refused = dict(self.options(self.turn).refused)
            return plain(refused.get(TURN_KINDS[a.kind], "not offered now"), None)
        return "no battle is on" if a.kind in ("call", "raise") else "there are no soldiers to keep now"

    # -- proposing --------------------------------------------------------------------------

    def take_cards(self, a: Action, request: CardRequest, allowed: set[Card], verb: str) -> dict[str, tuple[Card, ...]]:
        """The action's cards for `request`: the right counts, each card once, all from `allowed`."""
        seen: set[Card] = set()
        out = {}
        for label, count in request.hands:
            got = tuple(a.cards.get(label, ()))
            if len(got) != count:
                raise refuse(a.seat, verb, f"{label} needs {count} cards, got {len(got)}")
            for card in got:
                if card in seen:
                    raise refuse(a.seat, verb, f"{card.text} is given twice")
                if card not in allowed:
                    raise refuse(a.seat, verb, f"{card.text} is not one of the cards for the {request.purpose}")
                seen.add(card)
            out[label] = got
        return out

    def _named_cards(self, a: Action, verb: str) -> tuple[Card, ...]:
        given = a.data.get("discard", "")
        try:
            if isinstance(given, str):
                return parse_cards(given)
            return tuple(c if isinstance(c, Card) else parse_cards(str(c))[0] for c in given)
        except (BadCards, IndexError, TypeError) as exc:
            raise refuse(a.seat, verb, f"the soldiers to discard: {exc}") from None

    def _cost(self, a: Action, verb: str) -> int:
        cost = self.profile.small_bet
        if a.amount is not None and a.amount != cost:
            raise refuse(a.seat, f"{verb} for {a.amount}", f"it costs one small bet, {cost} (PP-3, PP-4)")
        return cost

    def _hand(self, seat: int | None) -> PalaceHand:
        hand = self.players[seat or 0].hand
        assert hand is not None
        return hand
