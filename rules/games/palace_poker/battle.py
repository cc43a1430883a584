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
    seat_says,
    suit_word,
)
from rules.said import Said, say

# ------------------------------------------------------------- Buy and Discard (PP-3, PP-4, PP-18)


def _short_of_buy(stack: int, cost: int) -> Said | None:
    return say("holds {stack}, a buy costs {cost} (PP-18)", stack=stack, cost=cost) if stack < cost else None


def _short_of_discard(stack: int, cost: int) -> Said | None:
    return say("holds {stack}, a discard costs {cost} (PP-18)", stack=stack, cost=cost) if stack < cost else None


def buy_problem(stack: int, profile: PalacePokerProfile, *, draw_pile: int,
                discard_pile: int) -> Said | None:
    """Why Buy is not possible now (PP-12, PP-18), or None."""
    if draw_pile == 0 and discard_pile == 0:
        return say("the draw and discard piles are both empty (PP-12)")
    return _short_of_buy(stack, profile.small_bet)


def discard_problem(hand: PalaceHand, stack: int, profile: PalacePokerProfile) -> Said | None:
    """Why Discard is not possible now (PP-4, PP-18), or None."""
    if not hand.soldiers:
        return say("has no soldiers to discard (PP-4)")
    return _short_of_discard(stack, profile.small_bet)


def cannot(action: Action | str, why: Said) -> Said:
    """`cannot buy: <why>`: why a seat may not take an action of its turn, or attack or raise."""
    match action:
        case Action.BUY:
            return say("cannot buy: {why}", why=why)
        case Action.DISCARD:
            return say("cannot discard: {why}", why=why)
        case Action.STAY:
            return say("cannot stay: {why}", why=why)
        case Action.FOLD:
            return say("cannot fold: {why}", why=why)
        case Action.BATTLE:
            return say("cannot battle: {why}", why=why)
        case "attack":
            return say("cannot attack: {why}", why=why)
        case "raise":
            return say("cannot raise: {why}", why=why)
    raise ValueError(f"no refusal for {action!r}")


def buy(hand: PalaceHand, card: Card, discard: Iterable[Card], *, stack: int,
        profile: PalacePokerProfile) -> SoldierChange:
    """PP-3: pay one small bet, take `card` (the top of the draw pile), discard down to 5."""
    problem = _short_of_buy(stack, profile.small_bet)
    if problem:
        raise IllegalAction(seat_says(hand.seat, cannot(Action.BUY, problem)))
    return regroup(hand, (card,), discard, cost=profile.small_bet, what=buys_for(profile.small_bet))


def buys_for(cost: int) -> Said:
    """How a buy reads in the soldiers kept after it (`seat 3 buys for 10, takes …`)."""
    return say("buys for {cost}", cost=cost)


def discard_soldiers(hand: PalaceHand, discard: Iterable[Card], *, stack: int,
                     profile: PalacePokerProfile) -> SoldierChange:
    """PP-4: pay one small bet and discard one or more soldiers, drawing none."""
    dropped = tuple(discard)
    problem = discard_problem(hand, stack, profile)
    if not problem and not dropped:
        problem = say("names no soldier (PP-4)")
    if problem:
        raise IllegalAction(seat_says(hand.seat, cannot(Action.DISCARD, problem)))
    return regroup(hand, (), dropped, cost=profile.small_bet,
                   what=say("pays {cost} to discard", cost=profile.small_bet))


# ------------------------------------------------------------------- bet sizes (PP-7, PP-9, PP-11)

@dataclass(frozen=True, slots=True)
class Stake:
    """Any whole amount from `low` to `high`."""

    low: int
    high: int

    def __str__(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low} to {self.high}"

    def said(self) -> int | Said:
        """The stake in a sentence: the amount, or `10 to 20`."""
        return self.low if self.low == self.high else say("{low} to {high}", low=self.low, high=self.high)


def soldier_formula(soldiers: int, profile: PalacePokerProfile) -> tuple[int, Said]:
    """(soldiers + 1) x small bet, with the arithmetic spelt out (PP-7, PP-9)."""
    amount = (soldiers + 1) * profile.small_bet
    if soldiers == 1:
        return amount, say("({soldiers} soldier + 1) × {small_bet} = {amount}", soldiers=soldiers,
                           small_bet=profile.small_bet, amount=amount)
    return amount, say("({soldiers} soldiers + 1) × {small_bet} = {amount}", soldiers=soldiers,
                       small_bet=profile.small_bet, amount=amount)


def structure_words(profile: PalacePokerProfile) -> Said:
    """The betting structure in a sentence: `limit` or `no limit` (PP-7, PP-11)."""
    return say("limit") if profile.structure == "limit" else say("no limit")


def attack_costs(stack: int, formula: Said) -> Said:
    """Why a seat cannot attack: it cannot pay the attack in full (PP-18)."""
    return say("holds {stack}, an attack costs {formula} (PP-18)", stack=stack, formula=formula)


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


def _raise_words(raiser_soldiers: int, profile: PalacePokerProfile) -> Said:
    if profile.structure == "no_limit":
        return say("at least one big bet")
    return say("one big bet") if raiser_soldiers else say("two small bets: no soldiers")


# -------------------------------------------------------------------- the turn (PP-3..PP-7, PP-15)

@dataclass(frozen=True, slots=True)
class TurnOptions:
    """What `seat` may do now; `refused` says why each missing action is not offered."""

    seat: int
    actions: tuple[Action, ...]
    targets: tuple[int, ...]
    attack: Stake | None
    forced_battle: bool
    refused: tuple[tuple[Action, Said], ...]

    def verify(self, action: Action) -> None:
        """Raise `IllegalAction` naming the seat, the action and the reason, unless offered."""
        if action not in self.actions:
            why = dict(self.refused).get(action, NOT_OFFERED)
            raise IllegalAction(seat_says(self.seat, cannot(action, why)))


NOT_OFFERED = say("not offered now")


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
    refused: dict[Action, Said]
    if forced:
        why = say("two players of different banner suits remain and must battle (PP-15)")
        refused = dict.fromkeys((Action.BUY, Action.DISCARD, Action.STAY), why)
    else:
        problems = {Action.BUY: buy_problem(stack, profile, draw_pile=draw_pile,
                                            discard_pile=discard_pile),
                    Action.DISCARD: discard_problem(actor, stack, profile)}
        refused = {action: problem for action, problem in problems.items() if problem}
    if not targets:
        refused[Action.BATTLE] = say("every opponent left flies the same banner suit (PP-7)")
    elif attack is None:
        formula = soldier_formula(len(actor.soldiers), profile)[1]
        refused[Action.BATTLE] = attack_costs(stack, formula)
        if forced:
            refused[Action.BATTLE] = say("{why}: only Fold remains (PP-15)", why=refused[Action.BATTLE])
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
    reason: Said


@dataclass(frozen=True, slots=True)
class AnswerOptions:
    """What the player to act may do: fold, call for `call` chips, raise by `raise_by`."""

    seat: int
    call: int
    call_all_in: bool
    raise_by: Stake | None
    no_raise: Said


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
        raise IllegalAction(seat_says(a, say("cannot attack itself")))
    if attacker.banner_suit == defender.banner_suit:
        raise IllegalAction(seat_says(a, say("cannot attack seat {defender}: both banners are {suit} (PP-7)",
                                             defender=d, suit=suit_word(attacker.banner_suit))))
    minimum, formula = soldier_formula(len(attacker.soldiers), profile)
    stake = attack_stake(len(attacker.soldiers), attacker_stack, profile)
    if stake is None:
        raise IllegalAction(seat_says(a, cannot("attack", attack_costs(attacker_stack, formula))))
    if not stake.low <= amount <= stake.high:
        raise IllegalAction(seat_says(a, say("attacks for {stake}, not {amount}: {formula} ({structure}, PP-7)",
                                             stake=stake.said(), amount=amount, formula=formula,
                                             structure=structure_words(profile))))
    if amount > minimum:
        reason = say("seat {attacker} attacks seat {defender} for {amount}: at least {formula}", attacker=a,
                     defender=d, amount=amount, formula=formula)
    else:
        reason = say("seat {attacker} attacks seat {defender}: {formula}", attacker=a, defender=d, formula=formula)
    event = BetEvent(a, "attack", amount, False, reason)
    owed, _ = soldier_formula(len(defender.soldiers), profile)
    return Battle(Fighter(a, len(attacker.soldiers), attacker_stack - amount, amount),
                  Fighter(d, len(defender.soldiers), defender_stack), d, owed, 0, None, (event,))


def answer_options(battle: Battle, profile: PalacePokerProfile) -> AnswerOptions:
    """PP-8, PP-9, PP-11, PP-18: the call (all-in when short) and the raise, if any."""
    if battle.to_act is None:
        raise IllegalAction(say("the battle's betting is over"))
    me = battle.fighter(battle.to_act)
    no_raise = Said.literal("")
    raise_by = None
    if battle.raises >= profile.max_raises:
        no_raise = say("at most {most} raises per battle (PP-11)", most=profile.max_raises)
    elif me.stack < battle.owed:
        no_raise = say("holds {stack}, short of the call of {owed} (PP-18)", stack=me.stack, owed=battle.owed)
    else:
        raise_by = raise_stake(me.soldiers, me.stack - battle.owed, profile)
        if raise_by is None:
            no_raise = say("holds {stack}: the call of {owed} plus a raise of {size} cannot be paid in full (PP-18)",
                           stack=me.stack, owed=battle.owed, size=_raise_words(me.soldiers, profile))
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
        event = BetEvent(me.seat, "fold", 0, False, say("seat {seat} folds: seat {other} takes the banner and "
                                                        "soldiers ({rule})", seat=me.seat, other=other.seat,
                                                        rule=rule))
        return battle._record(me, event, None)
    call_words = (soldier_formula(me.soldiers, profile)[1] if first
                  else say("the raise of {owed}", owed=battle.owed))
    if choice is Answer.CALL:
        if options.call_all_in:
            reason = say("seat {seat} is all-in for {amount}, short of the call of {owed} (PP-18)", seat=me.seat,
                         amount=options.call, owed=battle.owed)
        else:
            reason = say("seat {seat} calls {call}", seat=me.seat, call=call_words)
        event = BetEvent(me.seat, "call", options.call, options.call_all_in, reason)
        return battle._record(me.pays(options.call), event, None)
    stake = options.raise_by
    if stake is None:
        raise IllegalAction(seat_says(me.seat, cannot("raise", options.no_raise)))
    size = stake.low if raise_by is None and stake.low == stake.high else raise_by
    if size is None or not stake.low <= size <= stake.high:
        raise IllegalAction(seat_says(me.seat, say("raises by {stake} ({size}, PP-11), not {amount}",
                                                   stake=stake.said(), size=_raise_words(me.soldiers, profile),
                                                   amount=str(raise_by) if raise_by is None else raise_by)))
    paid = battle.owed + size
    if first:
        reason = say("seat {seat} raises: call {call} + raise {size} = {paid}", seat=me.seat, call=call_words,
                     size=size, paid=paid)
    else:
        reason = say("seat {seat} re-raises: call {call} + raise {size} = {paid}", seat=me.seat, call=call_words,
                     size=size, paid=paid)
    event = BetEvent(me.seat, "raise", paid, False, reason)
    return battle._record(me.pays(paid), event, other.seat, size)
