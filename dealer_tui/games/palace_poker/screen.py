"""Palace Poker round screen: antes and banners, turns (buy, discard, stay, fold, attack), the
battle sub-flow (fold, call, raise) and choosing which soldiers to keep."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from dealer_tui.games.palace_poker.round import PalacePokerRound
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
from dealer_tui.language import N_, _, told
from dealer_tui.ledger.base import LedgerError
from dealer_tui.rounds.base import LegalStep, Phase, Step
from dealer_tui.screens.amount_dialog import AmountField
from dealer_tui.screens.card_pick_modal import CardPickModal
from dealer_tui.screens.choice_dialog import ChoiceDialog
from dealer_tui.screens.round_screen import RoundScreen
from rules.cards import Card, parse_cards
from rules.errors import RulesError

RULES = N_("""Palace Poker — the rules as played here
PP-0 First dealer by high card; the button moves one seat clockwise each hand.
PP-1 Ante for a banner; within each group of seats (1-4, 5-8, 9-10) banners differ in suit.
PP-2 Three palace cards each, face down; the rest is the draw pile.
PP-3 Buy: one small bet for a soldier (face up); never more than 5 soldiers.
PP-4 Discard: one small bet to throw soldiers.  PP-5 Stay.  PP-6 Fold.
PP-7 Attack a player of another banner suit: (your soldiers + 1) × small bet.
PP-8 Defender folds: the attacker takes the banner and soldiers.
PP-9 Call: (defender's soldiers + 1) × small bet; best hands compared, each ignoring the
     opponent's banner suit.  PP-10 Ties: more cards of one's own banner suit wins.
PP-11 Raises: a big bet (limit) or at least one (no limit), at most max_raises per battle.
PP-14 Only one banner suit left: split.  PP-15 Two suits left: the player to act must attack.
PP-16 A quiet orbit (stays and discards) ends in a showdown.  PP-17 Odd chips clockwise.
PP-18 Short of chips: all-in for what one holds.""")
"""The rules summary the help screen shows (translated where it is shown)."""


class PalacePokerScreen(RoundScreen[PalacePokerRound]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "ante", N_("Ante")),
        Binding("A", "ante_all", N_("Ante all")),
        Binding("a", "attack", N_("Attack")),
        Binding("u", "withdraw", N_("Withdraw ante")),
        Binding("b", "buy", N_("Buy")),
        Binding("k", "keep", N_("Mark soldiers to discard")),
        Binding("t", "discard", N_("Discard")),
        Binding("w", "stay", N_("Stay")),
        Binding("f", "fold", N_("Fold")),
        Binding("c", "call", N_("Call")),
        Binding("r", "raise_bet", N_("Raise")),
    ]
    KINDS: ClassVar[dict[str, type[Step]]] = {**RoundScreen.KINDS, "ante": Ante, "ante_all": Ante, "attack": Battle,
                                             "withdraw": Withdraw, "buy": Buy, "keep": Keep, "discard": Discard,
                                             "stay": Stay, "fold": Fold, "call": Call, "raise_bet": Raise}
    RULES_SUMMARY = RULES
    HOUSE_LABEL = N_("House (no rake)")

    def house_label(self) -> str:
        return _(self.HOUSE_LABEL)

    def key_legal(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "deal":
            return self._deal_kind() is not None
        return super().key_legal(action, parameters)

    # -- whose step a key is ------------------------------------------------------------------

    def seat_to_act(self, kind: type[Step] | None) -> int | None:
        """The seat the round waits for when `kind` answers it: the player facing an attack or a
        raise folds, calls or raises (PP-8, PP-9, PP-11), the player who bought or captured keeps
        (PP-3, PP-8). None for any other step, which goes to the selected seat."""
        rnd = self.round
        if rnd is None or rnd.phase is not Phase.ACT:
            return None
        if kind is Keep and rnd.state.pending is not None:
            return rnd.state.pending.seat
        if kind in (Fold, Call, Raise) and rnd.state.battle is not None and rnd.state.pending is None:
            return rnd.state.battle.to_act
        return None

    def spec_for(self, kind: type[Step]) -> LegalStep | None:
        """An answer in a battle, or the soldiers kept, belong to the seat the round waits for,
        whichever seat is selected; every other step is the selected seat's."""
        seat = self.seat_to_act(kind)
        if seat is None:
            return super().spec_for(kind)
        return next((s for s in self.specs(kind) if s.seat == seat), None)

    def key_seat(self, action: str) -> int | None:
        if action == "ante_all":
            return None  # every seat's ante: the round says why none is left
        seat = self.seat_to_act(self.KINDS.get(action))
        return seat if seat is not None else super().key_seat(action)

    def performed(self, action: Step, failed: RulesError | LedgerError | None) -> bool:
        """A step taken (by its key or a dialog's Enter); when it leaves soldiers to choose (a buy,
        or a capture with more than 5), the question is asked at once."""
        done = super().performed(action, failed)
        if done and not isinstance(action, Keep) and self.specs(Keep):
            self.action_keep()
        return done

    def _deal_kind(self) -> type[DrawForDealer | DealBanners | DealPalaces] | None:
        for kind in (DrawForDealer, DealBanners, DealPalaces):
            if self.specs(kind):
                return kind
        return None

    def action_deal(self) -> None:
        kind = self._deal_kind()
        if kind is not None:
            self.perform(kind())

    def _simple(self, kind: type[Withdraw | Stay | Fold]) -> None:
        spec = self.spec_for(kind)
        if spec is not None:
            self.perform(kind(seat=spec.seat))

    def _staked(self, kind: type[Ante | Buy | Call]) -> None:
        """A step whose amount the rules fix (named when the bounds say it) or leave to the round."""
        spec = self.spec_for(kind)
        if spec is not None:
            self.perform(kind(seat=spec.seat, amount=spec.min_amount if spec.min_amount == spec.max_amount else None))

    def action_ante(self) -> None:
        self._staked(Ante)

    def action_ante_all(self) -> None:
        """PP-1: the ante for every player who has not anted and can, each its own ante (and event),
        clockwise from the dealer's left."""
        for spec in self.specs(Ante):
            if not self.perform(Ante(seat=spec.seat, amount=spec.min_amount)):
                return

    def action_withdraw(self) -> None:
        self._simple(Withdraw)

    def action_buy(self) -> None:
        self._staked(Buy)

    def action_stay(self) -> None:
        self._simple(Stay)

    def action_fold(self) -> None:
        self._simple(Fold)

    def action_call(self) -> None:
        self._staked(Call)

    def action_attack(self) -> None:
        specs = self.specs(Battle)
        if not specs:
            return

        def attack(index: int) -> None:
            spec = specs[index]
            low, high = spec.min_amount or 0, spec.max_amount or 0
            target = spec.data["target"]
            if low == high:
                self.perform(Battle(seat=spec.seat, amount=low, target=target))
            else:
                self.ask_step(_("Seat {seat} attacks seat {target}", seat=spec.seat, target=target),
                              [AmountField("bet", _("Attack"), low, high, low)],
                              lambda v: Battle(seat=spec.seat, amount=v["bet"], target=target))

        if len(specs) == 1:
            attack(0)
            return
        by_seat = {str(s.data["target"]): i for i, s in enumerate(specs)}
        choices = [(seat, told(specs[i].label)) for seat, i in by_seat.items()]
        self.ask(ChoiceDialog(_("Attack which seat? (its seat number)"), choices),
                 lambda c: attack(by_seat[c]) if c in by_seat else None)

    def action_raise_bet(self) -> None:
        spec = self.spec_for(Raise)
        if spec is None:
            return
        low, high = spec.min_amount or 0, spec.max_amount or 0
        seat = spec.seat
        if low == high:
            self.perform(Raise(seat=seat, amount=low))
            return
        self.ask_step(_("Seat {seat} raises", seat=seat), [AmountField("by", _("Raise by"), low, high, low)],
                      lambda v: Raise(seat=seat, amount=v["by"]))

    def _pick(self, kind: type[Keep | Discard], title: str, pool: list[Card], counts: list[int]) -> None:
        spec = self.spec_for(kind)
        if spec is None:
            return
        seat, amount = spec.seat, spec.min_amount

        def picked(cards: list[Card] | None) -> None:
            if cards is None:
                return
            named = " ".join(c.text for c in cards)
            self.perform(Keep(seat=seat, discard=named) if kind is Keep
                         else Discard(seat=seat, amount=amount, discard=named))

        self.app.push_screen(CardPickModal(title, pool, counts), picked)

    def action_keep(self) -> None:
        spec = self.spec_for(Keep)
        if spec is None:
            return
        pool = list(parse_cards(str(spec.data.get("soldiers", ""))))
        low, high = int(spec.data.get("min_discard", 0)), int(spec.data.get("max_discard", len(pool)))
        self._pick(Keep, _("Seat {seat}: mark the soldiers to discard; the rest are kept (at most 5)", seat=spec.seat),
                   pool,
                   list(range(low, high + 1)))

    def action_discard(self) -> None:
        spec = self.spec_for(Discard)
        if spec is None:
            return
        pool = list(parse_cards(str(spec.data.get("soldiers", ""))))
        self._pick(Discard, _("Seat {seat}: soldiers to discard (costs {cost})", seat=spec.seat, cost=spec.min_amount),
                   pool,
                   list(range(1, len(pool) + 1)))
