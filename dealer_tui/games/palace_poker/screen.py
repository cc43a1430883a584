"""Palace Poker round screen: antes and banners, turns (buy, discard, stay, fold, attack), the
battle sub-flow (fold, call, raise) and choosing which soldiers to keep."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from dealer_tui.games.palace_poker.round import PalacePokerRound
from dealer_tui.ledger.base import LedgerError
from dealer_tui.rounds.base import Action, ActionSpec, Phase
from dealer_tui.screens.amount_dialog import AmountField
from dealer_tui.screens.card_pick_modal import CardPickModal
from dealer_tui.screens.choice_dialog import ChoiceDialog
from dealer_tui.screens.round_screen import RoundScreen
from rules.cards import Card, parse_cards
from rules.errors import RulesError

RULES = """Palace Poker — the rules as played here
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
PP-18 Short of chips: all-in for what one holds."""


class PalacePokerScreen(RoundScreen[PalacePokerRound]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "ante", "Ante"),
        Binding("A", "ante_all", "Ante all"),
        Binding("a", "attack", "Attack"),
        Binding("u", "withdraw", "Withdraw ante"),
        Binding("b", "buy", "Buy"),
        Binding("k", "keep", "Mark soldiers to discard"),
        Binding("t", "discard", "Discard"),
        Binding("w", "stay", "Stay"),
        Binding("f", "fold", "Fold"),
        Binding("c", "call", "Call"),
        Binding("r", "raise_bet", "Raise"),
    ]
    KINDS: ClassVar[dict[str, str]] = {**RoundScreen.KINDS, "ante": "ante", "ante_all": "ante", "attack": "battle",
                                       "withdraw": "withdraw",
                                       "buy": "buy", "keep": "keep", "discard": "discard", "stay": "stay",
                                       "fold": "fold", "call": "call", "raise_bet": "raise"}
    RULES_SUMMARY = RULES
    HOUSE_LABEL = "House (no rake)"

    def key_legal(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "deal":
            return bool(self._deal_kind())
        return super().key_legal(action, parameters)

    # -- whose step a key is ------------------------------------------------------------------

    def seat_to_act(self, kind: str) -> int | None:
        """The seat the round waits for when `kind` answers it: the player facing an attack or a
        raise folds, calls or raises (PP-8, PP-9, PP-11), the player who bought or captured keeps
        (PP-3, PP-8). None for any other step, which goes to the selected seat."""
        rnd = self.round
        if rnd is None or rnd.phase is not Phase.ACT:
            return None
        if kind == "keep" and rnd.state.pending is not None:
            return rnd.state.pending.seat
        if kind in ("fold", "call", "raise") and rnd.state.battle is not None and rnd.state.pending is None:
            return rnd.state.battle.to_act
        return None

    def spec_for(self, kind: str) -> ActionSpec | None:
        """An answer in a battle, or the soldiers kept, belong to the seat the round waits for,
        whichever seat is selected; every other step is the selected seat's."""
        seat = self.seat_to_act(kind)
        if seat is None:
            return super().spec_for(kind)
        return next((s for s in self.specs(kind) if s.seat == seat), None)

    def key_seat(self, action: str) -> int | None:
        if action == "ante_all":
            return None  # every seat's ante: the round says why none is left
        seat = self.seat_to_act(self.KINDS.get(action, ""))
        return seat if seat is not None else super().key_seat(action)

    def performed(self, action: Action, failed: RulesError | LedgerError | None) -> bool:
        """A step taken (by its key or a dialog's Enter); when it leaves soldiers to choose (a buy,
        or a capture with more than 5), the question is asked at once."""
        done = super().performed(action, failed)
        if done and action.kind != "keep" and self.specs("keep"):
            self.action_keep()
        return done

    def _deal_kind(self) -> str | None:
        for kind in ("draw_for_dealer", "deal_banners", "deal_palaces"):
            if self.specs(kind):
                return kind
        return None

    def action_deal(self) -> None:
        kind = self._deal_kind()
        if kind:
            self.perform(Action(kind))

    def _simple(self, kind: str) -> None:
        spec = self.spec_for(kind)
        if spec is not None:
            self.perform(Action(kind, spec.seat, spec.min_amount if spec.min_amount == spec.max_amount else None,
                                data=dict(spec.data)))

    def action_ante(self) -> None:
        self._simple("ante")

    def action_ante_all(self) -> None:
        """PP-1: the ante for every player who has not anted and can, each its own ante (and event),
        clockwise from the dealer's left."""
        for spec in self.specs("ante"):
            if not self.perform(Action("ante", spec.seat, spec.min_amount)):
                return

    def action_withdraw(self) -> None:
        self._simple("withdraw")

    def action_buy(self) -> None:
        self._simple("buy")

    def action_stay(self) -> None:
        self._simple("stay")

    def action_fold(self) -> None:
        self._simple("fold")

    def action_call(self) -> None:
        self._simple("call")

    def action_attack(self) -> None:
        specs = self.specs("battle")
        if not specs:
            return

        def attack(index: int) -> None:
            spec = specs[index]
            low, high = spec.min_amount or 0, spec.max_amount or 0
            target = spec.data.get("target")
            if low == high:
                self.perform(Action("battle", spec.seat, low, data=dict(spec.data)))
            else:
                self.ask_step(f"Seat {spec.seat} attacks seat {target}", [AmountField("bet", "Attack", low, high, low)],
                              lambda v: Action("battle", spec.seat, v["bet"], data=dict(spec.data)))

        if len(specs) == 1:
            attack(0)
            return
        by_seat = {str(s.data.get("target")): i for i, s in enumerate(specs)}
        choices = [(seat, specs[i].label) for seat, i in by_seat.items()]
        self.ask(ChoiceDialog("Attack which seat? (its seat number)", choices),
                 lambda c: attack(by_seat[c]) if c in by_seat else None)

    def action_raise_bet(self) -> None:
        spec = self.spec_for("raise")
        if spec is None:
            return
        low, high = spec.min_amount or 0, spec.max_amount or 0
        seat, data = spec.seat, dict(spec.data)
        if low == high:
            self.perform(Action("raise", seat, low, data=data))
            return
        self.ask_step(f"Seat {seat} raises", [AmountField("by", "Raise by", low, high, low)],
                      lambda v: Action("raise", seat, v["by"], data=data))

    def _pick(self, kind: str, title: str, pool: list[Card], counts: list[int]) -> None:
        spec = self.spec_for(kind)
        if spec is None:
            return
        seat, amount, data = spec.seat, spec.min_amount, dict(spec.data)

        def picked(cards: list[Card] | None) -> None:
            if cards is None:
                return
            self.perform(Action(kind, seat, amount, data={**data, "discard": " ".join(c.text for c in cards)}))

        self.app.push_screen(CardPickModal(title, pool, counts), picked)

    def action_keep(self) -> None:
        spec = self.spec_for("keep")
        if spec is None:
            return
        pool = list(parse_cards(str(spec.data.get("soldiers", ""))))
        low, high = int(spec.data.get("min_discard", 0)), int(spec.data.get("max_discard", len(pool)))
        self._pick("keep", f"Seat {spec.seat}: mark the soldiers to discard; the rest are kept (at most 5)", pool,
                   list(range(low, high + 1)))

    def action_discard(self) -> None:
        spec = self.spec_for("discard")
        if spec is None:
            return
        pool = list(parse_cards(str(spec.data.get("soldiers", ""))))
        self._pick("discard", f"Seat {spec.seat}: soldiers to discard (costs {spec.min_amount})", pool,
                   list(range(1, len(pool) + 1)))
