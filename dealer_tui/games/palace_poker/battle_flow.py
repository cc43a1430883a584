"""Palace Poker's turns and battles (docs/rules.md PP-3..PP-18), over a hand's state: what the player
to act may do and why anything else is refused, the events a step records, and how each recorded
step changes the hand — the turn moving clockwise from the dealer's left, battles with their
betting, captures, the draw pile, and the end of the hand.

Proposing validates through `rules.games.palace_poker.battle` and changes nothing; folding (the methods
marked `@on(EventType)`) replays the same rules on the recorded choices.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from dealer_tui.events import Event, Handlers, on
from dealer_tui.games.palace_poker.events import (
    BattleAnswered,
    BattleDecided,
    BattleOpened,
    Folded,
    SoldierBought,
    SoldiersDiscarded,
    SoldiersKept,
    Stayed,
)
from dealer_tui.games.palace_poker.hand_state import HandState, Pending
from dealer_tui.games.palace_poker.steps import Battle, Buy, Call, Discard, Fold, Keep, Raise, Stay
from dealer_tui.rounds.base import (
    CardRequest,
    LegalStep,
    Staked,
    Step,
    WithCards,
    cards_payload,
    refuse,
)
from rules.cards import Card, parse_cards, sort_cards
from rules.errors import BadCards, IllegalAction, RulesError
from rules.games.palace_poker import hand_end as ends
from rules.games.palace_poker import rules as pp
from rules.games.palace_poker.battle import (
    NOT_OFFERED,
    Answer,
    TurnOptions,
    answer,
    answer_options,
    buys_for,
    discard_soldiers,
    open_battle,
    soldier_formula,
    structure_words,
    turn_options,
)
from rules.games.palace_poker.battle import (
    Battle as HandBattle,
)
from rules.games.palace_poker.battle_result import BOTH_OUT, SPLIT, WON, capture, compare_battle
from rules.games.palace_poker.hand_end import HandEnd
from rules.games.palace_poker.profile import PalacePokerProfile
from rules.games.palace_poker.rules import SoldierChange, clockwise_from, regroup, suit_word
from rules.said import Said, as_said, say

TURN_STEPS: dict[type[Step], pp.Action] = {Buy: pp.Action.BUY, Discard: pp.Action.DISCARD, Stay: pp.Action.STAY,
                                            Fold: pp.Action.FOLD, Battle: pp.Action.BATTLE}
"""A turn's steps, each as the rules name it."""
STEP_OF = {action: step for step, action in TURN_STEPS.items()}
ACT_STEPS = (*TURN_STEPS, Call, Raise, Keep)
"""The steps of the act phase: a turn's, a battle's answers, and the soldiers kept."""


ANSWER_VERBS: dict[Answer, Said] = {Answer.FOLD: Fold.verb(), Answer.CALL: Call.verb(), Answer.RAISE: Raise.verb()}
"""How a battle's answer reads in its refusals."""
_CANNOT = re.compile(r"^cannot \w+: \{why\}$")


def plain(message: object, seat: int | None) -> Said:
    """A rules message without its leading `seat N cannot ...:`, to follow `Seat N may not ...:`: the
    sentence's own parts (`seat_says`, `cannot`), or an older text's words."""
    said = message.said if isinstance(message, RulesError) else as_said(message if isinstance(message, str)
                                                                         else str(message))
    if said.is_literal:
        said = Said.literal(re.sub(r"^cannot \w+: ", "", str(said).removeprefix(f"seat {seat} ")))
    else:
        values = said.values or {}
        predicate = values.get("predicate")
        if said.message == "seat {seat} {predicate}" and values.get("seat") == seat and isinstance(predicate, Said):
            said, values = predicate, predicate.values or {}
        why = values.get("why")
        if _CANNOT.match(said.message) and isinstance(why, Said):
            said = why
    return say("it {reason}", reason=said) if said.startswith(("holds", "has ")) else said


def take_cards(a: WithCards, request: CardRequest, allowed: set[Card], verb: Said) -> dict[str, tuple[Card, ...]]:
    """The step's cards for `request`: the right counts, each card once, all from `allowed`."""
    seen: set[Card] = set()
    out = {}
    for label, count in request.hands:
        got = tuple(a.cards.get(label, ()))
        if len(got) != count:
            raise refuse(a.seat, verb, say("{hand} needs {count} cards, got {got}", hand=label, count=count,
                                           got=len(got)))
        for card in got:
            if card in seen:
                raise refuse(a.seat, verb, say("{card} is given twice", card=card.text))
            if card not in allowed:
                raise refuse(a.seat, verb, say("{card} is not one of the cards for the {purpose}", card=card.text,
                                               purpose=request.purpose))
            seen.add(card)
        out[label] = got
    return out


class Turns(Handlers):
    """The act phase of one hand: its offers, its steps' events, and their effect on the hand."""

    def __init__(self, profile: PalacePokerProfile, state: HandState) -> None:
        self.profile = profile
        self.state = state

    # -- the piles --------------------------------------------------------------------------

    def pool(self) -> int:
        """Cards in the draw and discard piles together."""
        return len(self.state.draw_pile) + len(self.state.discard_pile)

    def options(self, seat: int) -> TurnOptions:
        player = self.state.players[seat]
        assert player.hand is not None
        return turn_options(player.hand, self.state.remaining(), stack=player.available(),
                            draw_pile=len(self.state.draw_pile), discard_pile=len(self.state.discard_pile),
                            profile=self.profile)

    def refill_request(self) -> CardRequest | None:
        """PP-12: with the draw pile empty, the discard pile is shuffled into a new one."""
        if self.state.draw_pile:
            return None
        pile = tuple(self.state.discard_pile)
        return CardRequest("draw pile", (("draw pile", len(pile)),), pile)

    # -- what is offered ----------------------------------------------------------------------

    def specs(self) -> list[LegalStep]:
        """Every step legal now: the soldiers to keep, a battle's answers, or the turn's actions."""
        state = self.state
        if state.pending is not None:
            return [self.keep_spec(state.pending)]
        if state.battle is not None:
            return self._answer_specs(state.battle)
        if state.turn is None:
            return []
        seat, small = state.turn, self.profile.small_bet
        opts = self.options(seat)
        soldiers = [c.text for c in state.hand(seat).soldiers]
        specs = []
        for action in opts.actions:
            if action is pp.Action.BUY:
                refill = self.refill_request()
                note = " (the discard pile is shuffled into a new draw pile, PP-12)" if refill else ""
                specs.append(LegalStep(Buy, seat, small, small, f"Seat {seat}: buy a soldier for {small}{note}",
                                        needs_cards=refill))
            elif action is pp.Action.DISCARD:
                specs.append(LegalStep(Discard, seat, small, small, f"Seat {seat}: pay {small} to discard soldiers",
                                        data={"soldiers": " ".join(soldiers), "discard": soldiers[-1]}))
            elif action is pp.Action.BATTLE and opts.attack is not None:
                stake = opts.attack
                for target in opts.targets:  # the attack dialog shows the label: a sentence
                    if opts.forced_battle:
                        label = say("Seat {seat}: attack seat {target} for {stake} (must battle, PP-15)", seat=seat,
                                    target=target, stake=stake.said())
                    else:
                        label = say("Seat {seat}: attack seat {target} for {stake}", seat=seat, target=target,
                                    stake=stake.said())
                    specs.append(LegalStep(Battle, seat, stake.low, stake.high, label,
                                            data={"target": target, "forced": opts.forced_battle}))
            else:
                specs.append(LegalStep(STEP_OF[action], seat, label=f"Seat {seat}: {action.value}"))
        return specs

    def _answer_specs(self, battle: HandBattle) -> list[LegalStep]:
        opts = answer_options(battle, self.profile)
        seat, other = opts.seat, _opponent(battle, opts.seat)
        bet = "attack" if battle.raises == 0 else "raise"
        specs = [LegalStep(Fold, seat, label=f"Seat {seat}: fold to seat {other}'s {bet}"),
                 LegalStep(Call, seat, opts.call, opts.call,
                            f"Seat {seat}: call {opts.call}" + (" all-in (PP-18)" if opts.call_all_in else ""),
                            data={"all_in": opts.call_all_in})]
        if opts.raise_by is not None:
            specs.append(LegalStep(Raise, seat, opts.raise_by.low, opts.raise_by.high,
                                    f"Seat {seat}: call {battle.owed} and raise by {opts.raise_by}",
                                    data={"call": battle.owed}))
        return specs

    def keep_spec(self, pending: Pending) -> LegalStep:
        """After a buy any soldiers may go, at least the excess over 5 (PP-3); after a capture
        exactly the excess, the winner choosing which (PP-8)."""
        hand = self.state.hand(pending.seat)
        pool = (*hand.soldiers, *pending.gained)
        must = max(0, len(pool) - pp.MAX_SOLDIERS)
        lowest = sort_cards(pool)[len(pool) - must:]
        if pending.loser is not None:
            most, rule = must, f"discard exactly {must}, PP-8" if must else "none to discard, PP-8"
        else:
            most, rule = len(pool), f"discard {must} or more, PP-3" if must else "any may be discarded, PP-3"
        return LegalStep(Keep, pending.seat, label=f"Seat {pending.seat}: keep soldiers ({rule})",
                          data={"soldiers": cards_payload(pool), "gained": cards_payload(pending.gained),
                                "min_discard": must, "max_discard": most, "discard": cards_payload(lowest)})

    def why_not(self, a: Step) -> Said:
        """Why an act-phase step is not legal now."""
        state = self.state
        if state.pending is not None:
            p = state.pending
            if p.loser:
                return say("seat {seat} first chooses which soldiers to keep after beating seat {loser} (PP-3, PP-8)",
                           seat=p.seat, loser=p.loser.seat)
            return say("seat {seat} first chooses which soldiers to keep after buying (PP-3, PP-8)", seat=p.seat)
        if state.battle is not None:
            opts = answer_options(state.battle, self.profile)
            other = _opponent(state.battle, opts.seat)
            if a.seat != opts.seat:
                return say("seat {seat} must first answer seat {other}'s bet", seat=opts.seat, other=other)
            if isinstance(a, Raise):
                return plain(opts.no_raise, None)
            return say("it is in a battle with seat {other}: fold, call or raise", other=other)
        if state.turn is None:
            return say("the hand is over")
        if a.seat != state.turn:
            return say("it is seat {seat}'s turn", seat=state.turn)
        turn = TURN_STEPS.get(type(a))
        if turn is not None:
            refused = dict(self.options(state.turn).refused)
            return plain(refused.get(turn, NOT_OFFERED), None)
        return say("no battle is on") if isinstance(a, (Call, Raise)) else say("there are no soldiers to keep now")

    # -- proposing --------------------------------------------------------------------------

    def cost(self, a: Buy | Discard) -> int:
        """A buy or a discard costs one small bet (PP-3, PP-4)."""
        cost = self.profile.small_bet
        if a.amount is not None and a.amount != cost:
            what = (say("buy for {amount}", amount=a.amount) if isinstance(a, Buy)
                    else say("discard for {amount}", amount=a.amount))
            raise refuse(a.seat, what, say("it costs one small bet, {cost} (PP-3, PP-4)", cost=cost))
        return cost

    def propose_buy(self, a: Buy) -> list[Event]:
        cost, seat = self.cost(a), a.seat or 0
        refill = self.refill_request()
        pile = take_cards(a, refill, set(self.state.discard_pile), a.VERB)["draw pile"] if refill else ()
        top = pile[0] if pile else self.state.draw_pile[0]
        if refill:
            reason = say("seat {seat} pays {cost} and takes {card} from the draw pile (PP-3); the discard pile "
                         "({count} cards) became the new draw pile (PP-12)", seat=seat, cost=cost, card=top.pretty,
                         count=len(pile))
        else:
            reason = say("seat {seat} pays {cost} and takes {card} from the draw pile (PP-3)", seat=seat, cost=cost,
                         card=top.pretty)
        return [SoldierBought(seat=seat, cost=cost, soldier=(top,), refilled=bool(refill), draw_pile=pile,
                              reason=reason)]

    def propose_keep(self, a: Keep) -> list[Event]:
        pending = self.state.pending
        assert pending is not None
        return [self._kept(pending, _named_cards(a, a.VERB))]

    def _kept(self, pending: Pending, discard: Sequence[Card]) -> SoldiersKept:
        change = self._regroup(pending, discard)
        return SoldiersKept(seat=pending.seat, gained=pending.gained, discarded=change.discarded,
                            soldiers=change.soldiers, reason=change.reason)

    def _capture_kept(self, winner: int, loser: int) -> SoldiersKept | None:
        """PP-8: a capture that leaves the winner 5 soldiers or fewer has nothing to choose, so its
        soldiers are kept in the battle's own step, the event the same as had the dealer answered.
        None when the capture asks which to discard, or the hand ends with the battle."""
        left = [h for h in self.state.remaining() if h.seat != loser]
        if ends.hand_over(left, self.state.pot, self.state.dealer_seat()) is not None:
            return None
        beaten = self.state.hand(loser)
        pending = Pending(winner, (beaten.banner, *beaten.soldiers), beaten)
        if self.keep_spec(pending).data["max_discard"]:
            return None
        return self._kept(pending, ())

    def _regroup(self, pending: Pending, discard: Sequence[Card]) -> SoldierChange:
        hand = self.state.hand(pending.seat)
        try:
            if pending.loser is not None:
                return capture(hand, pending.loser, discard).change
            small = self.profile.small_bet
            return regroup(hand, pending.gained, discard, cost=small, what=buys_for(small))
        except IllegalAction as exc:
            raise refuse(pending.seat, say("keep these soldiers"), plain(exc, pending.seat)) from None

    def propose_discard(self, a: Discard) -> list[Event]:
        cost, seat = self.cost(a), a.seat or 0
        try:
            change = discard_soldiers(self.state.hand(seat), _named_cards(a, a.VERB),
                                      stack=self.state.players[seat].available(), profile=self.profile)
        except IllegalAction as exc:
            raise refuse(seat, a.VERB, plain(exc, seat)) from None
        return [SoldiersDiscarded(seat=seat, cost=cost, discarded=change.discarded, soldiers=change.soldiers,
                                  reason=change.reason)]

    def propose_stay(self, a: Stay) -> list[Event]:
        return [Stayed(seat=a.seat or 0)]

    def propose_fold(self, a: Fold) -> list[Event]:
        if self.state.battle is not None:
            return self._answer(a, Answer.FOLD)
        seat = a.seat or 0
        return [Folded(seat=seat, discarded=tuple(pp.fold_cards(self.state.hand(seat))),
                       reason=say("seat {seat} folds: every card it holds goes to the discard pile (PP-6)", seat=seat))]

    def propose_battle(self, a: Battle) -> list[Event]:
        seat = a.seat or 0
        opts = self.options(seat)
        target = a.target or 0
        if target not in opts.targets:
            raise refuse(seat, say("attack seat {target}", target=target), self._bad_target(seat, target))
        stake = opts.attack
        assert stake is not None
        amount = a.amount if a.amount is not None else stake.low if stake.low == stake.high else None
        if amount is None or not stake.low <= amount <= stake.high:
            formula = soldier_formula(len(self.state.hand(seat).soldiers), self.profile)[1]
            what = (say("attack seat {target}", target=target) if amount is None
                    else say("attack seat {target} for {amount}", target=target, amount=amount))
            raise refuse(seat, what, say("an attack is {stake} here: {formula} ({structure}, PP-7)",
                                         stake=stake.said(), formula=formula, structure=structure_words(self.profile)))
        players = self.state.players
        try:
            battle = open_battle(self.state.hand(seat), self.state.hand(target), amount,
                                 attacker_stack=players[seat].available(), defender_stack=players[target].available(),
                                 profile=self.profile)
        except IllegalAction as exc:
            raise refuse(seat, say("attack for {amount}", amount=amount), plain(exc, seat)) from None
        return [BattleOpened(attacker=seat, defender=target, amount=amount, forced=opts.forced_battle,
                             reason=battle.history[0].reason)]

    def _bad_target(self, seat: int, target: int) -> Said:
        other = self.state.players.get(target)
        if target == seat:
            return say("a player cannot attack itself")
        if other is None or other.hand is None:
            return say("seat {seat} is not in the hand", seat=target)
        return say("seat {seat} also flies a {suit} banner: a same-suit opponent cannot be attacked (PP-7)",
                   seat=target, suit=suit_word(other.hand.banner_suit))

    def propose_call(self, a: Call) -> list[Event]:
        return self._answer(a, Answer.CALL)

    def propose_raise(self, a: Raise) -> list[Event]:
        return self._answer(a, Answer.RAISE)

    def _answer(self, a: Fold | Call | Raise, choice: Answer) -> list[Event]:
        battle = self.state.battle
        assert battle is not None
        opts = answer_options(battle, self.profile)
        amount = a.amount if isinstance(a, Staked) else None
        if choice is Answer.CALL and amount is not None and amount != opts.call:
            raise refuse(a.seat, say("call {amount}", amount=amount), say("the call is {call} (PP-9, PP-11)",
                                                                          call=opts.call))
        stake, size = opts.raise_by, None
        if choice is Answer.RAISE and stake is not None:
            size = amount if amount is not None else stake.low if stake.low == stake.high else None
            if size is None or not stake.low <= size <= stake.high:
                what = ANSWER_VERBS[Answer.RAISE] if amount is None else say("raise by {amount}", amount=amount)
                raise refuse(a.seat, what, say("a raise is {stake} here, on top of the call of {owed} (PP-11)",
                                               stake=stake.said(), owed=battle.owed))
        try:
            after = answer(battle, choice, self.profile, size)
        except IllegalAction as exc:
            raise refuse(a.seat, ANSWER_VERBS[choice], plain(exc, a.seat)) from None
        bet = after.history[-1]
        raised = bet.amount - battle.owed if choice is Answer.RAISE else None
        events: list[Event] = [BattleAnswered(seat=a.seat or 0, answer=choice.value, raise_by=raised,
                                                 paid=bet.amount, all_in=bet.all_in, reason=bet.reason)]
        if after.over:
            winner, loser, outcome, decided_by, reason = self._battle_result(after)
            shown = {} if after.folded is not None else {
                f"seat {s}": self.state.hand(s).cards for s in (after.attacker.seat, after.defender.seat)}
            events.append(BattleDecided(attacker=after.attacker.seat, defender=after.defender.seat, winner=winner,
                                        loser=loser, outcome=outcome, decided_by=decided_by, reason=reason,
                                        shown=shown))
            kept = self._capture_kept(winner, loser) if outcome == WON and winner and loser else None
            events += [kept] if kept is not None else []
        return events

    def _battle_result(self, battle: HandBattle) -> tuple[int | None, int | None, str, str, Said]:
        """(winner, loser, outcome, decided by, reason) of a battle whose betting is over."""
        a, d = battle.attacker.seat, battle.defender.seat
        if battle.folded is not None:  # the fold's own reason is the answer's: this one says the result
            winner, rule = (d, "PP-11") if battle.folded == a else (a, "PP-8")
            return (winner, battle.folded, WON, "fold",
                    say("seat {winner} wins the battle and seat {loser} is out of the hand ({rule})", winner=winner,
                        loser=battle.folded, rule=rule))
        result = compare_battle(self.state.hand(a), self.state.hand(d), last_two=len(self.state.remaining()) == 2)
        return result.winner, result.loser, result.outcome, result.decided_by, result.reason

    # -- folding ----------------------------------------------------------------------------

    def folds(self, event: Event) -> bool:
        """Whether `event` is a step of the act phase."""
        return self.handler_for(event) is not None

    def apply(self, event: Event) -> None:
        """Fold a recorded step of the act phase into the hand."""
        fold = self.handler_for(event)
        assert fold is not None, event.kind
        fold(event)

    def start(self) -> None:
        """The palaces are dealt: the player on the dealer's left acts first (PP-3)."""
        self.state.turn = self.state.order[0]

    @on(SoldierBought)
    def _on_soldier_bought(self, e: SoldierBought) -> None:
        state = self.state
        if e.refilled:
            state.draw_pile, state.discard_pile = list(e.draw_pile), []
        card = state.draw_pile.pop(0)
        state.players[e.seat].pay("buy", e.cost)
        state.recent.append(pp.Action.BUY)
        state.pending = Pending(e.seat, (card,))

    @on(SoldiersKept)
    def _on_soldiers_kept(self, e: SoldiersKept) -> None:
        state, pending = self.state, self.state.pending
        assert pending is not None and state.turn is not None
        hand = state.hand(pending.seat)
        if pending.loser is not None:
            taken = capture(hand, pending.loser, e.discarded)
            state.players[pending.seat].hand, gone = taken.winner, taken.to_discard
        else:
            change = self._regroup(pending, e.discarded)
            state.players[pending.seat].hand, gone = replace(hand, soldiers=change.soldiers), change.discarded
        state.discard_pile += gone
        state.pending = None
        self._end_turn(state.turn)

    @on(SoldiersDiscarded)
    def _on_soldiers_discarded(self, e: SoldiersDiscarded) -> None:
        player = self.state.players[e.seat]
        change = discard_soldiers(self.state.hand(e.seat), e.discarded, stack=player.available(),
                                  profile=self.profile)
        player.hand = replace(self.state.hand(e.seat), soldiers=change.soldiers)
        player.pay("discard", e.cost)
        self.state.discard_pile += change.discarded
        self.state.recent.append(pp.Action.DISCARD)
        self._end_turn(e.seat)

    @on(Stayed)
    def _on_stayed(self, e: Stayed) -> None:
        self.state.recent.append(pp.Action.STAY)
        self._end_turn(e.seat)

    @on(Folded)
    def _on_folded(self, e: Folded) -> None:
        self.state.knock_out(e.seat, say("folded on its turn (PP-6)"))
        self.state.recent.append(pp.Action.FOLD)
        self._end_turn(e.seat)

    @on(BattleOpened)
    def _on_battle_opened(self, e: BattleOpened) -> None:
        attacker, defender = self.state.players[e.attacker], self.state.players[e.defender]
        battle = open_battle(self.state.hand(e.attacker), self.state.hand(e.defender), e.amount,
                             attacker_stack=attacker.available(), defender_stack=defender.available(),
                             profile=self.profile)
        self._record_bet(battle)
        self.state.recent.append(pp.Action.BATTLE)

    @on(BattleAnswered)
    def _on_battle_answered(self, e: BattleAnswered) -> None:
        assert self.state.battle is not None
        self._record_bet(answer(self.state.battle, e.choice, self.profile, e.raise_by))

    def _record_bet(self, battle: HandBattle) -> None:
        bet = battle.history[-1]
        player = self.state.players[bet.seat]
        player.pay("battle", bet.amount)
        player.bets.append(bet.reason)
        self.state.all_ins += bet.all_in
        self.state.battle = battle

    @on(BattleDecided)
    def _on_battle_decided(self, e: BattleDecided) -> None:
        state, battle = self.state, self.state.battle
        assert battle is not None and state.turn is not None
        winner, loser, outcome, _, reason = self._battle_result(battle)
        a, d = battle.attacker.seat, battle.defender.seat
        state.battle = None
        if outcome == SPLIT:
            self._close(HandEnd("PP-10", (min(a, d), max(a, d)),
                                ends.split_pot(state.pot, (a, d), state.dealer_seat()), reason))
            return
        if outcome == BOTH_OUT:
            for seat in (a, d):
                state.knock_out(seat, say("out on a tied battle (PP-10)"))
            self._end_turn(state.turn)
            return
        assert winner is not None and loser is not None
        beaten = state.hand(loser)
        how = (say("folded in a battle with seat {seat}", seat=winner) if battle.folded is not None
               else say("lost a battle to seat {seat}", seat=winner))
        state.players[loser].hand, state.players[loser].out = None, how
        end = ends.hand_over(state.remaining(), state.pot, state.dealer_seat())
        if end is not None:
            state.discard_pile += beaten.cards
            self._close(end)
        else:
            state.pending = Pending(winner, (beaten.banner, *beaten.soldiers), beaten)

    def _end_turn(self, actor: int) -> None:
        """The turn is over: the hand may end (PP-13, PP-14, PP-16); else the next seat acts."""
        remaining = self.state.remaining()
        end = ends.hand_over(remaining, self.state.pot, self.state.dealer_seat())
        if end is None and ends.quiet_orbit(self.state.recent, len(remaining)):
            end = ends.showdown(remaining, self.state.pot, self.state.dealer_seat())
        if end is not None:
            self._close(end)
        else:
            self.state.turn = clockwise_from(actor, [h.seat for h in remaining])[0]

    def _close(self, end: HandEnd) -> None:
        """The hand is over: the pot is awarded in the round's reveal phase."""
        self.state.end, self.state.turn = end, None


def _opponent(battle: HandBattle, seat: int) -> int:
    return battle.defender.seat if seat == battle.attacker.seat else battle.attacker.seat


def _named_cards(a: Keep | Discard, verb: Said) -> tuple[Card, ...]:
    """The soldiers a step names to discard (card text)."""
    try:
        return parse_cards(a.discard)
    except BadCards as exc:
        raise refuse(a.seat, verb, say("the soldiers to discard: {problem}", problem=exc.said)) from None
