"""Palace Poker's act phase (RULES.md PP-3..PP-18): turns clockwise from the dealer's left, battles
with their betting, captures, the draw pile, and the end of the hand.

The `_propose_<kind>` handlers validate through `rules.palace_battle` and return events; the
folders marked `@on(EventType)` replay the same rules on the recorded choices.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from dealer_tui.events import on
from dealer_tui.events.palace_poker import (
    BattleAnswered,
    BattleDecided,
    BattleOpened,
    Folded,
    SoldierBought,
    SoldiersDiscarded,
    SoldiersKept,
    Stayed,
)
from dealer_tui.rounds.base import Action, AnyEvent, refuse
from dealer_tui.rounds.palace_hand_state import PalaceHandState, Pending, plain
from rules import palace_hand_end as ends
from rules import palace_poker as pp
from rules.cards import Card
from rules.errors import IllegalAction
from rules.palace_battle import (
    Answer,
    Battle,
    answer,
    answer_options,
    discard_soldiers,
    open_battle,
    soldier_formula,
)
from rules.palace_battle_result import BOTH_OUT, SPLIT, WON, capture, compare_battle
from rules.palace_hand_end import HandEnd
from rules.palace_poker import SoldierChange, clockwise_from, regroup, suit_word


class PalaceTurns(PalaceHandState):
    """Turns and battles: a base of `PalacePokerRound`."""

    # -- proposing --------------------------------------------------------------------------

    def _propose_buy(self, a: Action) -> list[AnyEvent]:
        cost, seat = self._cost(a, "buy"), a.seat or 0
        refill = self.refill_request()
        pile = self.take_cards(a, refill, set(self.discard_pile), "buy")["draw pile"] if refill else ()
        top = pile[0] if pile else self.draw_pile[0]
        reason = f"seat {seat} pays {cost} and takes {top.pretty} from the draw pile (PP-3)"
        if refill:
            reason += f"; the discard pile ({len(pile)} cards) became the new draw pile (PP-12)"
        return [SoldierBought(seat=seat, cost=cost, soldier=(top,), refilled=bool(refill), draw_pile=pile,
                              reason=reason)]

    def _propose_keep(self, a: Action) -> list[AnyEvent]:
        pending = self.pending
        assert pending is not None
        return [self._kept(pending, self._named_cards(a, "keep soldiers"))]

    def _kept(self, pending: Pending, discard: Sequence[Card]) -> SoldiersKept:
        change = self._regroup(pending, discard)
        return SoldiersKept(seat=pending.seat, gained=pending.gained, discarded=change.discarded,
                            soldiers=change.soldiers, reason=change.reason)

    def _capture_kept(self, winner: int, loser: int) -> SoldiersKept | None:
        """PP-8: a capture that leaves the winner 5 soldiers or fewer has nothing to choose, so its
        soldiers are kept in the battle's own step, the event the same as had the dealer answered.
        None when the capture asks which to discard, or the hand ends with the battle."""
        left = [h for h in self.remaining() if h.seat != loser]
        if ends.hand_over(left, self.pot, self._dealer()) is not None:
            return None
        beaten = self._hand(loser)
        pending = Pending(winner, (beaten.banner, *beaten.soldiers), beaten)
        if self._keep_spec(pending).data["max_discard"]:
            return None
        return self._kept(pending, ())

    def _regroup(self, pending: Pending, discard: Sequence[Card]) -> SoldierChange:
        hand = self._hand(pending.seat)
        try:
            if pending.loser is not None:
                return capture(hand, pending.loser, discard).change
            small = self.profile.small_bet
            return regroup(hand, pending.gained, discard, cost=small, what=f"buys for {small}")
        except IllegalAction as exc:
            raise refuse(pending.seat, "keep these soldiers", plain(exc, pending.seat)) from None

    def _propose_discard(self, a: Action) -> list[AnyEvent]:
        cost, seat = self._cost(a, "discard"), a.seat or 0
        try:
            change = discard_soldiers(self._hand(seat), self._named_cards(a, "discard"),
                                      stack=self.players[seat].available(), profile=self.profile)
        except IllegalAction as exc:
            raise refuse(seat, "discard", plain(exc, seat)) from None
        return [SoldiersDiscarded(seat=seat, cost=cost, discarded=change.discarded, soldiers=change.soldiers,
                                  reason=change.reason)]

    def _propose_stay(self, a: Action) -> list[AnyEvent]:
        return [Stayed(seat=a.seat or 0)]

    def _propose_fold(self, a: Action) -> list[AnyEvent]:
        if self.battle is not None:
            return self._answer(a, Answer.FOLD)
        seat = a.seat or 0
        return [Folded(seat=seat, discarded=tuple(pp.fold_cards(self._hand(seat))),
                       reason=f"seat {seat} folds: every card it holds goes to the discard pile (PP-6)")]

    def _propose_battle(self, a: Action) -> list[AnyEvent]:
        seat = a.seat or 0
        opts = self.options(seat)
        try:
            target = int(a.data.get("target", 0))
        except (TypeError, ValueError):
            raise refuse(seat, "attack", f"the target {a.data.get('target')!r} is not a seat") from None
        if target not in opts.targets:
            raise refuse(seat, f"attack seat {target}", self._bad_target(seat, target))
        stake = opts.attack
        assert stake is not None
        amount = a.amount if a.amount is not None else stake.low if stake.low == stake.high else None
        if amount is None or not stake.low <= amount <= stake.high:
            formula = soldier_formula(len(self._hand(seat).soldiers), self.profile)[1]
            sizing = f"{self.profile.structure.replace('_', ' ')}, PP-7"
            what = f"attack seat {target}" + ("" if amount is None else f" for {amount}")
            raise refuse(seat, what, f"an attack is {stake} here: {formula} ({sizing})")
        try:
            battle = open_battle(self._hand(seat), self._hand(target), amount, attacker_stack=self.players[seat].available(),
                                 defender_stack=self.players[target].available(), profile=self.profile)
        except IllegalAction as exc:
            raise refuse(seat, f"attack for {amount}", plain(exc, seat)) from None
        return [BattleOpened(attacker=seat, defender=target, amount=amount, forced=opts.forced_battle,
                             reason=battle.history[0].reason)]

    def _bad_target(self, seat: int, target: int) -> str:
        other = self.players.get(target)
        if target == seat:
            return "a player cannot attack itself"
        if other is None or other.hand is None:
            return f"seat {target} is not in the hand"
        return (f"seat {target} also flies a {suit_word(other.hand.banner_suit)} banner: a same-suit opponent "
                "cannot be attacked (PP-7)")

    def _propose_call(self, a: Action) -> list[AnyEvent]:
        return self._answer(a, Answer.CALL)

    def _propose_raise(self, a: Action) -> list[AnyEvent]:
        return self._answer(a, Answer.RAISE)

    def _answer(self, a: Action, choice: Answer) -> list[AnyEvent]:
        battle = self.battle
        assert battle is not None
        opts = answer_options(battle, self.profile)
        if choice is Answer.CALL and a.amount is not None and a.amount != opts.call:
            raise refuse(a.seat, f"call {a.amount}", f"the call is {opts.call} (PP-9, PP-11)")
        stake, size = opts.raise_by, None
        if choice is Answer.RAISE and stake is not None:
            size = a.amount if a.amount is not None else stake.low if stake.low == stake.high else None
            if size is None or not stake.low <= size <= stake.high:
                what = "raise" if a.amount is None else f"raise by {a.amount}"
                raise refuse(a.seat, what, f"a raise is {stake} here, on top of the call of {battle.owed} (PP-11)")
        try:
            after = answer(battle, choice, self.profile, size)
        except IllegalAction as exc:
            raise refuse(a.seat, choice.value, plain(exc, a.seat)) from None
        bet = after.history[-1]
        raised = bet.amount - battle.owed if choice is Answer.RAISE else None
        events: list[AnyEvent] = [BattleAnswered(seat=a.seat or 0, answer=choice.value, raise_by=raised,
                                                 paid=bet.amount, all_in=bet.all_in, reason=bet.reason)]
        if after.over:
            winner, loser, outcome, decided_by, reason = self._battle_result(after)
            shown = {} if after.folded is not None else {
                f"seat {s}": self._hand(s).cards for s in (after.attacker.seat, after.defender.seat)}
            events.append(BattleDecided(attacker=after.attacker.seat, defender=after.defender.seat, winner=winner,
                                        loser=loser, outcome=outcome, decided_by=decided_by, reason=reason,
                                        shown=shown))
            kept = self._capture_kept(winner, loser) if outcome == WON and winner and loser else None
            events += [kept] if kept is not None else []
        return events

    def _battle_result(self, battle: Battle) -> tuple[int | None, int | None, str, str, str]:
        """(winner, loser, outcome, decided by, reason) of a battle whose betting is over."""
        a, d = battle.attacker.seat, battle.defender.seat
        if battle.folded is not None:  # the fold's own reason is the answer's: this one says the result
            winner, rule = (d, "PP-11") if battle.folded == a else (a, "PP-8")
            return (winner, battle.folded, WON, "fold",
                    f"seat {winner} wins the battle and seat {battle.folded} is out of the hand ({rule})")
        result = compare_battle(self._hand(a), self._hand(d), last_two=len(self.remaining()) == 2)
        return result.winner, result.loser, result.outcome, result.decided_by, result.reason

    # -- folding ----------------------------------------------------------------------------

    @on(SoldierBought)
    def _on_soldier_bought(self, e: SoldierBought) -> None:
        if e.refilled:
            self.draw_pile, self.discard_pile = list(e.draw_pile), []
        card = self.draw_pile.pop(0)
        self.players[e.seat].pay("buy", e.cost)
        self.recent.append(pp.Action.BUY)
        self.pending = Pending(e.seat, (card,))

    @on(SoldiersKept)
    def _on_soldiers_kept(self, e: SoldiersKept) -> None:
        pending = self.pending
        assert pending is not None and self.turn is not None
        hand = self._hand(pending.seat)
        discard = e.discarded
        if pending.loser is not None:
            taken = capture(hand, pending.loser, discard)
            self.players[pending.seat].hand, gone = taken.winner, taken.to_discard
        else:
            change = self._regroup(pending, discard)
            self.players[pending.seat].hand, gone = replace(hand, soldiers=change.soldiers), change.discarded
        self.discard_pile += gone
        self.pending = None
        self._end_turn(self.turn)

    @on(SoldiersDiscarded)
    def _on_soldiers_discarded(self, e: SoldiersDiscarded) -> None:
        player = self.players[e.seat]
        change = discard_soldiers(self._hand(player.seat), e.discarded, stack=player.available(),
                                  profile=self.profile)
        player.hand = replace(self._hand(player.seat), soldiers=change.soldiers)
        player.pay("discard", e.cost)
        self.discard_pile += change.discarded
        self.recent.append(pp.Action.DISCARD)
        self._end_turn(player.seat)

    @on(Stayed)
    def _on_stayed(self, e: Stayed) -> None:
        self.recent.append(pp.Action.STAY)
        self._end_turn(e.seat)

    @on(Folded)
    def _on_folded(self, e: Folded) -> None:
        self._knock_out(e.seat, "folded on its turn (PP-6)")
        self.recent.append(pp.Action.FOLD)
        self._end_turn(e.seat)

    def _knock_out(self, seat: int, why: str) -> None:
        """The player leaves the hand; every card it still holds goes to the discard pile."""
        player = self.players[seat]
        self.discard_pile += player.cards()
        player.hand, player.out = None, why

    @on(BattleOpened)
    def _on_battle_opened(self, e: BattleOpened) -> None:
        attacker, defender = self.players[e.attacker], self.players[e.defender]
        battle = open_battle(self._hand(attacker.seat), self._hand(defender.seat), e.amount,
                             attacker_stack=attacker.available(), defender_stack=defender.available(),
                             profile=self.profile)
        self._record_bet(battle)
        self.recent.append(pp.Action.BATTLE)

    @on(BattleAnswered)
    def _on_battle_answered(self, e: BattleAnswered) -> None:
        assert self.battle is not None
        self._record_bet(answer(self.battle, e.choice, self.profile, e.raise_by))

    def _record_bet(self, battle: Battle) -> None:
        bet = battle.history[-1]
        player = self.players[bet.seat]
        player.pay("battle", bet.amount)
        player.bets.append(bet.reason)
        self.all_ins += bet.all_in
        self.battle = battle

    @on(BattleDecided)
    def _on_battle_decided(self, e: BattleDecided) -> None:
        battle = self.battle
        assert battle is not None and self.turn is not None
        winner, loser, outcome, _, reason = self._battle_result(battle)
        a, d = battle.attacker.seat, battle.defender.seat
        self.battle = None
        if outcome == SPLIT:
            self._close(HandEnd("PP-10", (min(a, d), max(a, d)), ends.split_pot(self.pot, (a, d), self._dealer()),
                                reason))
            return
        if outcome == BOTH_OUT:
            for seat in (a, d):
                self._knock_out(seat, "out on a tied battle (PP-10)")
            self._end_turn(self.turn)
            return
        assert winner is not None and loser is not None
        beaten = self._hand(loser)
        how = "folded in a battle with" if battle.folded is not None else "lost a battle to"
        self.players[loser].hand, self.players[loser].out = None, f"{how} seat {winner}"
        end = ends.hand_over(self.remaining(), self.pot, self._dealer())
        if end is not None:
            self.discard_pile += beaten.cards
            self._close(end)
        else:
            self.pending = Pending(winner, (beaten.banner, *beaten.soldiers), beaten)

    def _end_turn(self, actor: int) -> None:
        """The turn is over: the hand may end (PP-13, PP-14, PP-16); else the next seat acts."""
        remaining = self.remaining()
        end = ends.hand_over(remaining, self.pot, self._dealer())
        if end is None and ends.quiet_orbit(self.recent, len(remaining)):
            end = ends.showdown(remaining, self.pot, self._dealer())
        if end is not None:
            self._close(end)
        else:
            self.turn = clockwise_from(actor, [h.seat for h in remaining])[0]

    def _close(self, end: HandEnd) -> None:
        self.end, self.turn = end, None
        self.finish()

    def _dealer(self) -> int:
        assert self.dealer is not None
        return self.dealer
