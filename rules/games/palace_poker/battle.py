"""Palace Poker turns and battles (docs/rules.md PP-3..PP-12, PP-15, PP-18): what a player may do on
a turn, what each bet costs, who wins a battle and what the winner takes.

Rulings made here:
- PP-7: under `no_limit` an attack above the minimum does not change the defender's call, which
  is always the PP-9 amount.
- PP-11 with PP-18: a raise is made only when paid in full (the call plus the whole raise); a
  player who cannot pay it may still call, all-in when short of the call.
- PP-15 with PP-18: a player who must battle but cannot pay the attack in full is not offered
  Battle (PP-18: an attack only if paid in full; all-in is for a defender, or an attacker facing
  a raise); with Buy, Discard and Stay not offered either (PP-15), Fold is all that remains.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from rules.cards import Card
from rules.errors import IllegalAction
from rules.games.palace_poker.hand_end import must_battle
from rules.games.palace_poker.profile import PalacePokerProfile
from rules.games.palace_poker.rules import (
    Action,
    PalaceHand,
    SoldierChange,
    regroup,
    suit_word,
)

# ------------------------------------------------------------- Buy and Discard (PP-3, PP-4, PP-18)


def _short(stack: int, cost: int, what: str) -> str | None:
    return f"holds {stack}, {what} costs {cost} (PP-18)" if stack < cost else None


def buy_problem(stack: int, profile: PalacePokerProfile, *, draw_pile: int,
                discard_pile: int) -> str | None:
    """Why Buy is not possible now (PP-12, PP-18), or None."""
    if draw_pile == 0 and discard_pile == 0:
        return "the draw and discard piles are both empty (PP-12)"
    return _short(stack, profile.small_bet, "a buy")


def discard_problem(hand: PalaceHand, stack: int, profile: PalacePokerProfile) -> str | None:
    """Why Discard is not possible now (PP-4, PP-18), or None."""
    if not hand.soldiers:
        return "has no soldiers to discard (PP-4)"
    return _short(stack, profile.small_bet, "a discard")


def buy(hand: PalaceHand, card: Card, discard: Iterable[Card], *, stack: int,
        profile: PalacePokerProfile) -> SoldierChange:
    """PP-3: pay one small bet, take `card` (the top of the draw pile), discard down to 5."""
    problem = _short(stack, profile.small_bet, "a buy")
    if problem:
        raise IllegalAction(f"seat {hand.seat} cannot buy: {problem}")
    return regroup(hand, (card,), discard, cost=profile.small_bet,
                   what=f"buys for {profile.small_bet}")


def discard_soldiers(hand: PalaceHand, discard: Iterable[Card], *, stack: int,
                     profile: PalacePokerProfile) -> SoldierChange:
    """PP-4: pay one small bet and discard one or more soldiers, drawing none."""
    dropped = tuple(discard)
    problem = discard_problem(hand, stack, profile)
    if not problem and not dropped:
        problem = "names no soldier (PP-4)"
    if problem:
        raise IllegalAction(f"seat {hand.seat} cannot discard: {problem}")
    return regroup(hand, (), dropped, cost=profile.small_bet,
                   what=f"pays {profile.small_bet} to discard")


# ------------------------------------------------------------------- bet sizes (PP-7, PP-9, PP-11)

@dataclass(frozen=True, slots=True)
class Stake:
    """Any whole amount from `low` to `high`."""

    low: int
    high: int

    def __str__(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low} to {self.high}"


def soldier_formula(soldiers: int, profile: PalacePokerProfile) -> tuple[int, str]:
    """(soldiers + 1) x small bet, with the arithmetic spelt out (PP-7, PP-9)."""
    amount = (soldiers + 1) * profile.small_bet
    noun = "soldier" if soldiers == 1 else "soldiers"
    return amount, f"({soldiers} {noun} + 1) × {profile.small_bet} = {amount}"


def attack_stake(soldiers: int, stack: int, profile: PalacePokerProfile) -> Stake | None:
    """PP-7: exactly the formula under `limit`, at least it under `no_limit`; None when `stack`
    cannot pay it in full (PP-18), even for a player who must battle (PP-15)."""
    minimum, _ = soldier_formula(soldiers, profile)
    if stack < minimum:
        return None
    return Stake(minimum, minimum if profile.structure == "limit" else stack)


def raise_stake(raiser_soldiers: int, spare: int, profile: PalacePokerProfile) -> Stake | None:
    """PP-11: the raise on top of the call, given `spare` chips left after calling; None when
    it cannot be paid in full. `limit`: one big bet, two small bets without soldiers."""
    if profile.structure == "limit":
        size = profile.big_bet if raiser_soldiers else 2 * profile.small_bet
        return Stake(size, size) if spare >= size else None
    return Stake(profile.big_bet, spare) if spare >= profile.big_bet else None


def _raise_words(raiser_soldiers: int, profile: PalacePokerProfile) -> str:
    if profile.structure == "no_limit":
        return "at least one big bet"
    return "one big bet" if raiser_soldiers else "two small bets: no soldiers"


# -------------------------------------------------------------------- the turn (PP-3..PP-7, PP-15)

@dataclass(frozen=True, slots=True)
class TurnOptions:
    """What `seat` may do now; `refused` says why each missing action is not offered."""

    seat: int
    actions: tuple[Action, ...]
    targets: tuple[int, ...]
    attack: Stake | None
    forced_battle: bool
    refused: tuple[tuple[Action, str], ...]

    def verify(self, action: Action) -> None:
        """Raise `IllegalAction` naming the seat, the action and the reason, unless offered."""
        if action not in self.actions:
            why = dict(self.refused).get(action, "not offered now")
            raise IllegalAction(f"seat {self.seat} cannot {action.value}: {why}")


def legal_targets(actor: PalaceHand, remaining: Sequence[PalaceHand]) -> tuple[int, ...]:
    """PP-7: opponents still in the hand whose banner suit differs from the actor's."""
    return tuple(sorted(h.seat for h in remaining
                        if h.seat != actor.seat and h.banner_suit != actor.banner_suit))


def turn_options(actor: PalaceHand, remaining: Sequence[PalaceHand], *, stack: int, draw_pile: int,
                 discard_pile: int, profile: PalacePokerProfile) -> TurnOptions:
    """The actions offered to `actor` (one of `remaining`, the players still in the hand)."""
    forced = must_battle(remaining)
    targets = legal_targets(actor, remaining)
    attack = attack_stake(len(actor.soldiers), stack, profile) if targets else None
    if forced:
        why = "two players of different banner suits remain and must battle (PP-15)"
        refused = dict.fromkeys((Action.BUY, Action.DISCARD, Action.STAY), why)
    else:
        problems = {Action.BUY: buy_problem(stack, profile, draw_pile=draw_pile,
                                            discard_pile=discard_pile),
                    Action.DISCARD: discard_problem(actor, stack, profile)}
        refused = {action: problem for action, problem in problems.items() if problem}
    if not targets:
        refused[Action.BATTLE] = "every opponent left flies the same banner suit (PP-7)"
    elif attack is None:
        formula = soldier_formula(len(actor.soldiers), profile)[1]
        refused[Action.BATTLE] = f"holds {stack}, an attack costs {formula} (PP-18)"
        if forced:
            refused[Action.BATTLE] += ": only Fold remains (PP-15)"
    actions = tuple(action for action in Action if action not in refused)
    return TurnOptions(actor.seat, actions, targets, attack, forced, tuple(refused.items()))


# ------------------------------------------------------------- battle betting (PP-7..PP-11, PP-18)

class Answer(StrEnum):
    """What the player facing an attack or a raise does (PP-8, PP-9, PP-11)."""

    FOLD = "fold"
    CALL = "call"
    RAISE = "raise"


@dataclass(frozen=True, slots=True)
class Fighter:
    """One side of a battle's betting: chips still held (`stack`) and put in this battle."""

    seat: int
    soldiers: int
    stack: int
    put_in: int = 0

    def pays(self, amount: int) -> Fighter:
        return replace(self, stack=self.stack - amount, put_in=self.put_in + amount)


@dataclass(frozen=True, slots=True)
class BetEvent:
    """One bet of a battle: the chips it put in the pot and why that amount."""

    seat: int
    action: str
    amount: int
    all_in: bool
    reason: str


@dataclass(frozen=True, slots=True)
class AnswerOptions:
    """What the player to act may do: fold, call for `call` chips, raise by `raise_by`."""

    seat: int
    call: int
    call_all_in: bool
    raise_by: Stake | None
    no_raise: str


@dataclass(frozen=True, slots=True)
class Battle:
    """A battle's betting. `to_act` answers and owes `owed` to call; None once it is over."""

    attacker: Fighter
    defender: Fighter
    to_act: int | None
    owed: int
    raises: int
    folded: int | None
    history: tuple[BetEvent, ...]

    @property
    def over(self) -> bool:
        return self.to_act is None

    @property
    def hands_compared(self) -> bool:
        """The betting ended in a call (or an all-in): the hands are compared (PP-9, PP-18)."""
        return self.over and self.folded is None

    @property
    def pot_added(self) -> int:
        return self.attacker.put_in + self.defender.put_in

    def fighter(self, seat: int) -> Fighter:
        return self.attacker if seat == self.attacker.seat else self.defender

    def _other(self, seat: int) -> Fighter:
        return self.defender if seat == self.attacker.seat else self.attacker

    def _record(self, fighter: Fighter, event: BetEvent, to_act: int | None,
                owed: int = 0) -> Battle:
        """The battle after `event`, made by `fighter` (shown with their chips after it)."""
        if fighter.seat == self.attacker.seat:
            attacker, defender = fighter, self.defender
        else:
            attacker, defender = self.attacker, fighter
        folded = fighter.seat if event.action == "fold" else None
        return Battle(attacker, defender, to_act, owed, self.raises + (event.action == "raise"),
                      folded, (*self.history, event))


def open_battle(attacker: PalaceHand, defender: PalaceHand, amount: int, *, attacker_stack: int,
                defender_stack: int, profile: PalacePokerProfile) -> Battle:
    """PP-7: `attacker` names `defender` and bets `amount`, paid in full (PP-18); the defender
    then answers."""
    a, d = attacker.seat, defender.seat
    if a == d:
        raise IllegalAction(f"seat {a} cannot attack itself")
    if attacker.banner_suit == defender.banner_suit:
        raise IllegalAction(f"seat {a} cannot attack seat {d}: both banners are "
                            f"{suit_word(attacker.banner_suit)} (PP-7)")
    minimum, formula = soldier_formula(len(attacker.soldiers), profile)
    stake = attack_stake(len(attacker.soldiers), attacker_stack, profile)
    if stake is None:
        raise IllegalAction(f"seat {a} cannot attack: holds {attacker_stack}, an attack costs "
                            f"{formula} (PP-18)")
    if not stake.low <= amount <= stake.high:
        raise IllegalAction(f"seat {a} attacks for {stake}, not {amount}: {formula} "
                            f"({profile.structure.replace('_', ' ')}, PP-7)")
    if amount > minimum:
        reason = f"seat {a} attacks seat {d} for {amount}: at least {formula}"
    else:
        reason = f"seat {a} attacks seat {d}: {formula}"
    event = BetEvent(a, "attack", amount, False, reason)
    owed, _ = soldier_formula(len(defender.soldiers), profile)
    return Battle(Fighter(a, len(attacker.soldiers), attacker_stack - amount, amount),
                  Fighter(d, len(defender.soldiers), defender_stack), d, owed, 0, None, (event,))


def answer_options(battle: Battle, profile: PalacePokerProfile) -> AnswerOptions:
    """PP-8, PP-9, PP-11, PP-18: the call (all-in when short) and the raise, if any."""
    if battle.to_act is None:
        raise IllegalAction("the battle's betting is over")
    me = battle.fighter(battle.to_act)
    no_raise = ""
    raise_by = None
    if battle.raises >= profile.max_raises:
        no_raise = f"at most {profile.max_raises} raises per battle (PP-11)"
    elif me.stack < battle.owed:
        no_raise = f"holds {me.stack}, short of the call of {battle.owed} (PP-18)"
    else:
        raise_by = raise_stake(me.soldiers, me.stack - battle.owed, profile)
        if raise_by is None:
            no_raise = (f"holds {me.stack}: the call of {battle.owed} plus a raise of "
                        f"{_raise_words(me.soldiers, profile)} cannot be paid in full (PP-18)")
    return AnswerOptions(me.seat, min(battle.owed, me.stack), me.stack < battle.owed, raise_by,
                         no_raise)


def answer(battle: Battle, choice: Answer, profile: PalacePokerProfile,
           raise_by: int | None = None) -> Battle:
    """The player to act folds, calls or raises; returns the battle with the bet recorded."""
    options = answer_options(battle, profile)
    me = battle.fighter(options.seat)
    other = battle._other(me.seat)
    first = battle.raises == 0
    if choice is Answer.FOLD:
        rule = "PP-8" if me.seat == battle.defender.seat else "PP-11"
        event = BetEvent(me.seat, "fold", 0, False, f"seat {me.seat} folds: seat {other.seat} "
                         f"takes the banner and soldiers ({rule})")
        return battle._record(me, event, None)
    call_words = (soldier_formula(me.soldiers, profile)[1] if first
                  else f"the raise of {battle.owed}")
    if choice is Answer.CALL:
        if options.call_all_in:
            reason = (f"seat {me.seat} is all-in for {options.call}, short of the call of "
                      f"{battle.owed} (PP-18)")
        else:
            reason = f"seat {me.seat} calls {call_words}"
        event = BetEvent(me.seat, "call", options.call, options.call_all_in, reason)
        return battle._record(me.pays(options.call), event, None)
    stake = options.raise_by
    if stake is None:
        raise IllegalAction(f"seat {me.seat} cannot raise: {options.no_raise}")
    size = stake.low if raise_by is None and stake.low == stake.high else raise_by
    if size is None or not stake.low <= size <= stake.high:
        raise IllegalAction(f"seat {me.seat} raises by {stake} "
                            f"({_raise_words(me.soldiers, profile)}, PP-11), not {raise_by}")
    paid = battle.owed + size
    verb = "raises" if first else "re-raises"
    reason = f"seat {me.seat} {verb}: call {call_words} + raise {size} = {paid}"
    event = BetEvent(me.seat, "raise", paid, False, reason)
    return battle._record(me.pays(paid), event, other.seat, size)
