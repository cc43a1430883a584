"""Poker "1 or 5" round (docs/rules.md R-1..R-12): antes on boxes, the cut and deal with the dealer's
last card up, each box in order (exchange, close with 2x Ante, pass, insurance), reveal, payout."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from dealer_tui.events import Event, on
from dealer_tui.games.one_or_five.events import (
    AntePlaced,
    AnteWithdrawn,
    BoxClosed,
    BoxExchanged,
    BoxFolded,
    CardsDealt,
    DealerRevealed,
    InsuranceTaken,
    OpenBoxMarked,
)
from dealer_tui.games.one_or_five.steps import (
    Ante,
    AtBox,
    Bet,
    CutAndDeal,
    Exchange,
    Fold,
    Insure,
    NoInsurance,
    OpenBox,
    Withdraw,
)
from dealer_tui.ledger.base import SettlementRow
from dealer_tui.rounds.base import (
    CardRequest,
    ConfirmPayout,
    Deal,
    LegalStep,
    Phase,
    Reveal,
    Round,
    RoundOutcome,
    Step,
    Void,
    WithCards,
    proposes,
    refuse,
)
from dealer_tui.rounds.session import TableSession
from rules.cards import Card, parse_cards
from rules.errors import BadCards, IllegalAction
from rules.games.one_or_five import rules as rules
from rules.games.one_or_five.profile import OneOrFiveProfile
from rules.profiles.base import ProfileBase
from rules.said import Said, say

BET_NAMES = ("ante", "bet", "exchange", "insurance")


@dataclass
class Box:
    number: int
    seat: int
    ante: int
    cards: tuple[Card, ...] = ()
    status: str = "waiting"  # waiting | exchanged | closed | folded
    exchanged: int = 0
    insurance: int | None = None  # None: not decided (only asked of closed, eligible boxes)

    @property
    def bet(self) -> int:
        return rules.BET_MULTIPLE * self.ante if self.status == "closed" else 0


CUT_BY = say("the cut is made by the player or the dealer (R-10)")


def _at_most(boxes: int) -> Said:
    """Why a player may not ante one more box."""
    return say("a player may play at most {boxes} boxes", boxes=boxes)


def _all_taken(boxes: int) -> Said:
    """Why no box is left to ante."""
    return say("all {boxes} boxes are taken", boxes=boxes)


def _already(box: Box) -> Said:
    """Why a box that has acted may not close or pass again."""
    if box.status == "closed":
        return say("box {box} is already closed", box=box.number)
    return say("box {box} is already folded", box=box.number)


def insure(amount: int) -> Said:
    """`insure 10`: the insurance step as a refusal names it."""
    return say("insure {amount}", amount=amount)


def only_free(chips: int) -> Said:
    """Why a premium over the player's free chips is refused."""
    return say("only {chips} chips are free", chips=chips)


class OneOrFiveRound(Round):
    game_id = "one-or-five"
    BET_STEP = Ante
    UNDOABLE = {AntePlaced: Said.literal("ante"), AnteWithdrawn: Said.literal("taking back of the ante"),
                OpenBoxMarked: Said.literal("open box"), BoxClosed: Said.literal("close"),
                BoxFolded: Said.literal("pass"), InsuranceTaken: Said.literal("insurance decision")}
    """The steps the dealer may take back; `undo_label` says each whole, whose it is with it."""
    ROW_OWNERS = (AntePlaced.KIND,)
    profile: OneOrFiveProfile

    @classmethod
    def row_owners(cls, events: Sequence[Event]) -> dict[int, int]:
        """Rows are per box (R-1): each box is the seat's that last anted it."""
        return {e.box: e.seat for e in events if isinstance(e, AntePlaced)}

    def __init__(self, profile: ProfileBase, setup: Mapping[str, Any]) -> None:
        assert isinstance(profile, OneOrFiveProfile)
        super().__init__(profile, setup)
        self.players: dict[int, dict[str, Any]] = {int(s): p for s, p in setup["players"].items()}
        self.boxes: dict[int, Box] = {}
        self.open_boxes: dict[int, int] = {}  # seat -> its open box
        self.dealer: tuple[Card, ...] = ()
        self.cut_by = ""
        self.exchanged_out: list[Card] = []
        self.revealed = False
        self.settlement: rules.Settlement | None = None
        self._phase = Phase.ANTE

    @classmethod
    def setup_from(cls, session: TableSession, profile: ProfileBase, **choices: Any) -> dict[str, Any]:
        if not session.playing:
            raise refuse(None, say("start a round"), session.nobody_plays())
        return {"players": {str(seat): {"name": p.name, "stack": p.stack} for seat, p in session.playing.items()}}

    # -- state ------------------------------------------------------------------------------

    def player_of(self, row_seat: int) -> int:
        """Settlement rows are per box (R-1): a box's player sits at the box's seat."""
        box = self.boxes.get(row_seat)
        return box.seat if box is not None else row_seat

    def on_the_table(self) -> dict[int, int]:
        return {seat: self.committed(seat) for seat in sorted({b.seat for b in self.boxes.values()})}

    def committed(self, seat: int) -> int:
        """Chips the seat has on its boxes now (antes, bets, fees, premiums)."""
        total = 0
        for box in self.boxes.values():
            if box.seat == seat:
                fee = rules.exchange_fee(self.profile, box.ante) if box.exchanged else 0
                total += box.ante + box.bet + fee + (box.insurance or 0)
        return total

    def available(self, seat: int) -> int:
        return int(self.players[seat]["stack"]) - self.committed(seat)

    def holds(self, seat: int, besides: Box | None = None) -> int:
        """What the player holds beyond their boxes' bets (R-4): the stack less each box's Ante,
        fee and premium paid, and Bet made or still possibly needed (a box that has not acted
        may close). `besides`: a box of the player's that counts its Ante only."""
        boxes = [b for b in self.boxes.values() if b.seat == seat and b is not besides]
        commitments = [self.commitment(b) for b in boxes]
        own = besides.ante if besides is not None else 0
        return rules.held_beyond(int(self.players[seat]["stack"]), commitments) - own

    def commitment(self, box: Box) -> int:
        """The chips the box ties up (R-4), by `rules.box_commitment`."""
        action = {"closed": rules.Action.BET, "folded": rules.Action.FOLD}.get(box.status)
        return rules.box_commitment(self.profile, box.ante, action, exchanged=box.exchanged > 0,
                                    insurance=box.insurance or 0)

    def exchange_short(self, box: Box) -> Said | None:
        """Why the box's exchange is not offered for want of chips (R-4), or None."""
        return rules.exchange_stakes_problem(self.profile, box.ante, self.holds(box.seat, box))

    def order(self) -> list[int]:
        return sorted(self.boxes)

    def current_box(self) -> Box | None:
        """The box whose turn it is (R-2: strictly in box order, no going back)."""
        for number in self.order():
            box = self.boxes[number]
            if box.status in ("waiting", "exchanged"):
                return box
            if box.status == "closed" and box.insurance is None and self._may_insure(box):
                return box
        return None

    def insurance_bounds(self, box: Box, hand: Sequence[Card] = ()) -> tuple[int, int]:
        """The premium the box may be insured for (R-9): 1x Ante to half the Bet's win with its
        cards (or, at a live table before they are known, `hand` as keyed), and no more than its
        player has free."""
        low, high = rules.insurance_bounds(self.profile, box.ante, rules.hand_of(box.cards or tuple(hand)))
        return low, min(high, self.available(box.seat))

    def _may_insure(self, box: Box) -> bool:
        hand = rules.hand_of(box.cards)
        return rules.can_insure(self.profile, box.ante, rules.Action.BET, hand) and self.available(box.seat) >= box.ante

    # -- legal steps ------------------------------------------------------------------------

    def _legal_steps(self) -> list[LegalStep]:
        specs: list[LegalStep] = []
        if self._phase is Phase.ANTE:
            limits = self.profile.limits.ante
            free = [n for n in range(1, self.profile.limits.boxes + 1) if n not in self.boxes]
            for seat in sorted(self.players):
                held = sum(1 for b in self.boxes.values() if b.seat == seat)
                most = self.holds(seat) // rules.box_needs(1)  # three times the Ante
                if free and held < self.profile.limits.boxes_per_player and most >= limits.min:
                    specs.append(LegalStep(Ante, seat, limits.min, min(limits.max, most),
                                            f"Ante on box {free[0]}", data={"box": free[0]}))
            for number in self.order():
                seat = self.boxes[number].seat
                specs.append(LegalStep(Withdraw, seat, label=f"Take back box {number}", data={"box": number}))
            for seat in sorted({b.seat for b in self.boxes.values()}):
                mine = [n for n in self.order() if self.boxes[n].seat == seat]
                open_now = self.open_boxes.get(seat)
                after = mine.index(open_now) + 1 if open_now in mine else 0
                for number in mine[after:] + mine[:after]:  # o again moves to the next box, round the seat's boxes
                    if number != open_now:
                        specs.append(LegalStep(OpenBox, seat, label=f"Play box {number} open",
                                                data={"box": number}))
            if self.boxes:
                specs.append(LegalStep(CutAndDeal, None, label="Cut and deal", needs_cards=self._deal_request()))
        elif self._phase is Phase.ACT:
            box = self.current_box()
            if box is not None:
                specs += self._box_steps(box)
        elif self._phase is Phase.REVEAL:
            specs.append(LegalStep(Reveal, None, label="Reveal the dealer's hand"))
        elif self._phase is Phase.PAYOUT:
            specs.append(LegalStep(ConfirmPayout, None, label="Confirm the payout"))
        if self._phase not in (Phase.DONE, Phase.VOID, Phase.PAYOUT):
            specs.append(LegalStep(Void, None, label="Misdeal: void the round"))
        return specs

    def _box_steps(self, box: Box) -> list[LegalStep]:
        seat, n = box.seat, box.number
        if box.status == "closed":
            low, high = rules.insurance_bounds(self.profile, box.ante, rules.hand_of(box.cards))
            high = min(high, self.available(seat))
            return [LegalStep(Insure, seat, low, high, f"Insure box {n}"),
                    LegalStep(NoInsurance, seat, label=f"Box {n}: no insurance")]
        specs = []
        open_box = self.open_boxes.get(seat) == n
        if box.status == "waiting" and open_box and self.exchange_short(box) is None:
            for count in self.profile.exchange.counts:
                specs.append(LegalStep(Exchange, seat, count, count, f"Box {n}: exchange {count}",
                                        CardRequest("exchange", ((f"box {n}", count),), tuple(self.exchanged_out))))
        if self.available(seat) >= rules.BET_MULTIPLE * box.ante:
            specs.append(LegalStep(Bet, seat, label=f"Box {n}: close with {rules.BET_MULTIPLE * box.ante}"))
        specs.append(LegalStep(Fold, seat, label=f"Box {n}: pass"))
        return specs

    def _deal_request(self) -> CardRequest:
        return CardRequest("deal", tuple((f"box {n}", rules.BOX_CARDS) for n in self.order())
                           + (("dealer", rules.BOX_CARDS),))

    # -- proposing --------------------------------------------------------------------------

    def refusal(self, action: Step, what: str) -> IllegalAction:
        found = self.proposer(type(action))
        assert found is not None
        handler = found[1]
        if self._phase is Phase.ACT and (box := self.current_box()) is not None and box.seat == action.seat:
            handler(action)  # the step's own check names the reason
        if self._phase is Phase.ANTE and isinstance(action, Ante) and action.seat in self.players:
            least = self.profile.limits.ante.min  # no amount given: why not even the smallest Ante
            handler(action if action.amount is not None else replace(action, amount=least))
        return super().refusal(action, what)

    def repeat_bets(self, earlier: Sequence[Event], seat: int) -> list[Step]:
        """R-1: an Ante on each box the player had in that round, the same amount on the same box."""
        antes: dict[int, int] = {}
        open_box: int | None = None
        for e in self.effective_events(earlier):
            if isinstance(e, AntePlaced) and e.seat == seat:
                antes[e.box] = e.ante
            elif isinstance(e, AnteWithdrawn):
                antes.pop(e.box, None)
            elif isinstance(e, OpenBoxMarked) and e.seat == seat:
                open_box = e.box
        actions: list[Step] = [Ante(seat=seat, amount=amount, box=box) for box, amount in sorted(antes.items())]
        if open_box in antes and open_box != min(antes):  # the box played open, again (the first is by default)
            actions.append(OpenBox(seat=seat, box=open_box))
        return actions

    def undo_label(self) -> Said | None:
        """What taking back the last step takes back: the seat's ante or open box, or the box's
        taking back of its ante, close, pass or insurance decision."""
        match self.undoable():
            case AntePlaced(seat=seat):
                return say("seat {seat}'s ante", seat=seat)
            case OpenBoxMarked(seat=seat):
                return say("seat {seat}'s open box", seat=seat)
            case AnteWithdrawn(box=box):
                return say("box {box}'s taking back of the ante", box=box)
            case BoxClosed(box=box):
                return say("box {box}'s close", box=box)
            case BoxFolded(box=box):
                return say("box {box}'s pass", box=box)
            case InsuranceTaken(box=box):
                return say("box {box}'s insurance decision", box=box)
        return super().undo_label()

    def _why_not(self, action: Step) -> Said:
        if self._phase is Phase.ACT and (box := self.current_box()) is not None:
            return say("it is box {box}'s turn ({phase})", box=box.number, phase=self._phase.named)
        if self._phase is Phase.ANTE:
            seat, limits = action.seat, self.profile.limits
            mine = [b.number for b in self.boxes.values() if b.seat == seat]
            if isinstance(action, Deal) and not self.boxes:
                return say("no box has an ante yet: pick a seat (its number), then a antes a box")
            if isinstance(action, (OpenBox, Withdraw)) and seat is None:
                return say("pick the seat first (its number)")
            if isinstance(action, OpenBox) and seat is not None and not mine:
                return say("seat {seat} has no box yet: ante a box first; o marks one of its boxes to play open (R-4)",
                           seat=seat)
            if isinstance(action, Withdraw) and seat is not None and not mine:
                return say("seat {seat} has no box yet: ante a box first; there is no ante to take back", seat=seat)
            if isinstance(action, OpenBox) and seat is not None and self.open_boxes.get(seat) in mine and len(mine) == 1:
                return say("box {box} already plays open (one open box per player, R-4)", box=mine[0])
            if isinstance(action, Ante) and seat is not None:
                if seat not in self.players:
                    return say("no player sits there")
                if len(mine) >= limits.boxes_per_player:
                    return _at_most(limits.boxes_per_player)
                if len(self.boxes) >= limits.boxes:
                    return _all_taken(limits.boxes)
                return say("the seat holds {holds} chips beyond its other boxes; an Ante of {ante} needs {need} "
                           "(three times it, R-4)", holds=self.holds(seat), ante=limits.ante.min,
                           need=rules.box_needs(limits.ante.min))
        return say("not allowed in the {phase}", phase=self._phase.named)

    @proposes(Ante)
    def _propose_ante(self, a: Ante) -> list[Event]:
        seat, amount, verb = a.seat, a.amount, a.verb()
        if seat not in self.players or amount is None:
            raise refuse(seat, verb, say("an ante needs a seated player and an amount"))
        free = [n for n in range(1, self.profile.limits.boxes + 1) if n not in self.boxes]
        if not free:
            raise refuse(seat, verb, _all_taken(self.profile.limits.boxes))
        box = a.box or free[0]
        if box in self.boxes or not 1 <= box <= self.profile.limits.boxes:
            raise refuse(seat, verb, say("box {box} is not free", box=box))
        held = sum(1 for b in self.boxes.values() if b.seat == seat)
        if held >= self.profile.limits.boxes_per_player:
            raise refuse(seat, verb, _at_most(self.profile.limits.boxes_per_player))
        problem = rules.ante_problem(self.profile, amount, holds=self.holds(seat))
        if problem:
            raise refuse(seat, say("ante {amount}", amount=amount), say("an ante {problem}", problem=problem))
        return [AntePlaced(seat=seat, box=box, ante=amount)]

    @proposes(Withdraw)
    def _propose_withdraw(self, a: Withdraw) -> list[Event]:
        box = a.box or 0
        if box not in self.boxes:
            raise refuse(a.seat, a.verb(), say("box {box} has no ante", box=box))
        return [AnteWithdrawn(box=box)]

    @proposes(OpenBox)
    def _propose_open_box(self, a: OpenBox) -> list[Event]:
        box = a.box or 0
        if self._phase is not Phase.ANTE or box not in self.boxes or self.boxes[box].seat != a.seat:
            raise refuse(a.seat, a.verb(), say("box {box} is not one of the seat's boxes", box=box))
        return [OpenBoxMarked(seat=self.boxes[box].seat, box=box)]

    @proposes(CutAndDeal)
    def _propose_deal(self, a: CutAndDeal) -> list[Event]:
        cut_by = a.cut
        if cut_by not in ("player", "dealer"):
            raise refuse(None, a.verb(), CUT_BY)
        return [CardsDealt(cut_by=cut_by, hands=self._check_cards(a, self._deal_request()))]

    def _check_cards(self, a: WithCards, request: CardRequest) -> dict[str, tuple[Card, ...]]:
        in_play = set(self.dealer) | {c for b in self.boxes.values() for c in b.cards} | set(self.exchanged_out)
        return self.dealt_cards(a, request, "R-12", in_play - set(request.refill))

    @proposes(Exchange)
    def _propose_exchange(self, a: Exchange) -> list[Event]:
        box = self._my_box(a)
        if box.status == "closed":
            raise refuse(a.seat, a.verb(), say("box {box} is closed: an exchange comes before closing (R-3)",
                                               box=box.number))
        discard_text = a.discard
        try:
            discard = parse_cards(str(discard_text))
        except BadCards as exc:
            raise refuse(a.seat, a.verb(), exc.said) from None
        self.verify_exchange(a, box, len(discard))
        stray = [c.text for c in discard if c not in box.cards]
        if stray:
            raise refuse(a.seat, a.verb(), say("box {box} does not hold {cards}", box=box.number, cards=" ".join(stray)))
        fee = rules.exchange_fee(self.profile, box.ante)
        request = CardRequest("exchange", ((f"box {box.number}", len(discard)),), tuple(self.exchanged_out))
        drawn = self._check_cards(a, request)[f"box {box.number}"]
        return [BoxExchanged(box=box.number, discarded=discard, drawn=drawn, fee=fee)]

    def verify_exchange(self, a: Exchange, box: Box, count: int) -> None:
        """R-3, R-4: the open box, once, the profile's counts, and the fee with the Bet after it."""
        try:
            rules.verify_exchange(self.profile, box.number, count,
                                  open_box=self.open_boxes.get(box.seat) == box.number,
                                  exchanged_before=box.exchanged > 0, ante=box.ante,
                                  holds=self.holds(box.seat, box))
        except IllegalAction as exc:
            raise refuse(a.seat, a.verb(), exc.said) from None

    def _my_box(self, a: AtBox) -> Box:
        box = self.current_box()
        if box is None or box.seat != a.seat or (a.box if a.box is not None else box.number) != box.number:
            raise refuse(a.seat, a.verb(), self._why_not(a))
        return box

    @proposes(Bet)
    def _propose_bet(self, a: Bet) -> list[Event]:
        box = self._my_box(a)
        if box.status not in ("waiting", "exchanged"):
            raise refuse(a.seat, a.verb(), _already(box))
        return [BoxClosed(box=box.number, bet=rules.BET_MULTIPLE * box.ante)]

    @proposes(Fold)
    def _propose_fold(self, a: Fold) -> list[Event]:
        box = self._my_box(a)
        if box.status not in ("waiting", "exchanged"):
            raise refuse(a.seat, a.verb(), _already(box))
        return [BoxFolded(box=box.number)]

    @proposes(Insure)
    def _propose_insure(self, a: Insure) -> list[Event]:
        box = self._my_box(a)
        amount = a.amount or 0
        try:
            rules.verify_insurance(self.profile, box.number, box.ante, rules.Action.BET, rules.hand_of(box.cards), amount)
        except IllegalAction as exc:
            raise refuse(a.seat, insure(amount), exc.said) from None
        if amount > self.available(box.seat):
            raise refuse(a.seat, insure(amount), only_free(self.available(box.seat)))
        return [InsuranceTaken(box=box.number, premium=amount)]

    @proposes(NoInsurance)
    def _propose_no_insurance(self, a: NoInsurance) -> list[Event]:
        box = self._my_box(a)
        return [InsuranceTaken(box=box.number, premium=0)]

    @proposes(Reveal)
    def _propose_reveal(self, a: Reveal) -> list[Event]:
        hand = rules.hand_of(self.dealer)
        return [DealerRevealed(cards=self.dealer, hand=hand.name, qualified=hand.qualifies)]

    # -- folding ----------------------------------------------------------------------------

    @on(AntePlaced)
    def _on_ante_placed(self, e: AntePlaced) -> None:
        self.boxes[e.box] = Box(e.box, e.seat, e.ante)
        self.open_boxes.setdefault(e.seat, e.box)

    @on(AnteWithdrawn)
    def _on_ante_withdrawn(self, e: AnteWithdrawn) -> None:
        box = self.boxes.pop(e.box)
        if self.open_boxes.get(box.seat) == box.number:
            del self.open_boxes[box.seat]
            mine = [n for n in self.order() if self.boxes[n].seat == box.seat]
            if mine:
                self.open_boxes[box.seat] = mine[0]

    @on(OpenBoxMarked)
    def _on_open_box_marked(self, e: OpenBoxMarked) -> None:
        self.open_boxes[e.seat] = e.box

    @on(CardsDealt)
    def _on_cards_dealt(self, e: CardsDealt) -> None:
        self.cut_by = e.cut_by
        for label, cards in e.hands.items():
            if label == "dealer":
                self.dealer = cards
            else:
                self.boxes[int(label.split()[1])].cards = cards
        self._phase = Phase.ACT
        self._end_act_if_done()

    @on(BoxExchanged)
    def _on_box_exchanged(self, e: BoxExchanged) -> None:
        box = self.boxes[e.box]
        self.exchanged_out = [c for c in self.exchanged_out if c not in e.drawn] + list(e.discarded)
        box.cards = tuple(c for c in box.cards if c not in e.discarded) + e.drawn
        box.exchanged = len(e.discarded)
        box.status = "exchanged"

    @on(BoxClosed)
    def _on_box_closed(self, e: BoxClosed) -> None:
        box = self.boxes[e.box]
        box.status = "closed"
        if not self._may_insure(box):
            box.insurance = 0
        self._end_act_if_done()

    @on(BoxFolded)
    def _on_box_folded(self, e: BoxFolded) -> None:
        self.boxes[e.box].status = "folded"
        self._end_act_if_done()

    @on(InsuranceTaken)
    def _on_insurance_taken(self, e: InsuranceTaken) -> None:
        self.boxes[e.box].insurance = e.premium
        self._end_act_if_done()

    def _end_act_if_done(self) -> None:
        if self._phase is Phase.ACT and self.current_box() is None:
            self._phase = Phase.REVEAL

    @on(DealerRevealed)
    def _on_dealer_revealed(self, e: DealerRevealed) -> None:
        self.revealed = True
        plays = [rules.BoxPlay(b.number, b.ante, rules.Action.BET if b.status == "closed" else rules.Action.FOLD,
                               b.cards, b.exchanged, b.insurance or 0) for b in self.boxes.values()]
        self.settlement = rules.settle(self.profile, self.dealer, plays)
        self._phase = Phase.PAYOUT


    # -- outcome ----------------------------------------------------------------------------

    def outcome(self) -> RoundOutcome | None:
        if self.settlement is None:
            return None
        rows: list[SettlementRow] = []
        changes: dict[int, int] = {seat: 0 for seat in {b.seat for b in self.boxes.values()}}
        for result in self.settlement.boxes:
            seat = self.boxes[result.box].seat
            for name, bet in result.bets.items():
                if bet.stake or bet.result:
                    rows.append(SettlementRow(result.box, name, bet.stake, bet.result, bet.reason))
            changes[seat] += result.net
        capped = any("maximum payout" in bet.reason for r in self.settlement.boxes for bet in r.bets.values())
        return RoundOutcome(tuple(rows), changes, self.settlement.dealer_net,
                            frozenset({"capped"}) if capped else frozenset())
