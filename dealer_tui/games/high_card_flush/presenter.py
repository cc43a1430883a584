"""High Card Flush as the dealer sees it."""

from __future__ import annotations

from dealer_tui.events import Event
from dealer_tui.events.table import RoundStarted
from dealer_tui.games.high_card_flush.events import (
    AntePlaced,
    AnteWithdrawn,
    BankerRevealed,
    CardsDealt,
    PlayerActed,
)
from dealer_tui.games.high_card_flush.round import HighCardFlushRound
from dealer_tui.games.high_card_flush.steps import Raise
from dealer_tui.language import _, current
from dealer_tui.rounds.base import Phase
from dealer_tui.views import HandView, Presenter, SeatView, describe_common, payout_waits
from rules.cards import format_cards, sort_cards
from rules.games.high_card_flush import rules as hcf


class HighCardFlushPresenter(Presenter[HighCardFlushRound]):
    LIMITS: tuple[str, ...] = ("Banker", "Ante", "Flush bet", "Straight Flush bet", "Rake")
    """The profile's rows the table panel always shows (the table's limits)."""

    def seats(self, rnd: HighCardFlushRound | None, stacks: dict[int, tuple[str, int]]) -> list[SeatView]:
        if rnd is None or rnd.phase in (Phase.DONE, Phase.VOID):
            views = [SeatView(seat, name, stack) for seat, (name, stack) in sorted(stacks.items())]
            if rnd is not None and rnd.banker is not None:
                views = [v if v.seat != rnd.banker else SeatView(v.seat, v.name, v.stack, markers=("DP",))
                         for v in views]
            return views
        out = []
        acting = rnd.to_act()
        for seat, (name, stack) in sorted(stacks.items()):
            if seat == rnd.banker:
                out.append(SeatView(seat, name, stack, markers=("DP", "button"), note="banks this round",
                                    hidden_cards=7 if rnd.banker_cards and not rnd.revealed else 0,
                                    cards=tuple(sort_cards(rnd.banker_cards)) if rnd.revealed else ()))
                continue
            p = rnd.seats.get(seat)
            if p is None or not p.playing:
                out.append(SeatView(seat, name, stack, note="no ante this hand" if rnd.phase is not Phase.ANTE else "no ante yet"))
                continue
            bets = [("Ante", p.ante)]
            if p.flush:
                bets.append(("Flush", p.flush))
            if p.straight_flush:
                bets.append(("SF", p.straight_flush))
            if p.raised:
                bets.append(("Raise", p.raised))
            hand = ""
            if p.cards:
                reading = hcf.read_hand(p.cards)
                hand = reading.describe_flush()
                if reading.straight_flush:
                    hand += f"; {reading.describe_straight_flush()}"
            note = "folded" if p.raised == 0 else ""
            hidden = 0
            if rnd.keyed and not p.cards and rnd.phase in (Phase.ACT, Phase.REVEAL):
                hidden, note = (0, note) if p.raised == 0 else (7, "physical cards: keyed at the reveal")
            out.append(SeatView(seat, name, stack - rnd.committed(seat), bets, sort_cards(p.cards), hand=hand,
                                acting=acting is not None and acting.seat == seat, out=p.raised == 0, note=note,
                                hidden_cards=hidden))
        return out

    def banker(self, rnd: HighCardFlushRound | None) -> HandView:
        if rnd is None:
            return HandView("Banker")
        title = f"DP — seat {rnd.banker} banks" if rnd.banker is not None else "Dealer (house banks)"
        if not rnd.banker_cards and rnd.keyed and rnd.phase in (Phase.ACT, Phase.REVEAL):
            return HandView(title, hidden_cards=7, lines=("physical cards: keyed at the reveal",))
        if not rnd.banker_cards:
            return HandView(title, lines=("cards not dealt" if not rnd.revealed else "not needed: every hand folded",))
        if rnd.phase is Phase.VOID:
            return HandView(title, lines=("round void: no reveal, every bet returned",))
        if not rnd.revealed:
            return HandView(title, hidden_cards=7, lines=("face down until the reveal",))
        reading = hcf.read_hand(rnd.banker_cards)
        verdict = "qualifies" if reading.qualifies else "does not qualify (needs 3-card flush 9-high)"
        return HandView(title, tuple(sort_cards(rnd.banker_cards)), hand=reading.describe_flush(), lines=(verdict,))

    def describe(self, event: Event) -> str:
        common = describe_common(event)
        if common is not None:
            return common
        match event:
            case RoundStarted(number=number, banker=banker):
                return f"Round {number} — " + (f"seat {banker} banks" if banker else "the house banks")
            case AntePlaced(seat=seat, ante=ante, flush=flush, straight_flush=straight_flush):
                extra = "".join(f", {name} {amount}" for name, amount in (("flush", flush),
                                                                           ("straight flush", straight_flush)) if amount)
                return f"Seat {seat} antes {ante}{extra}"
            case AnteWithdrawn(seat=seat):
                return f"Seat {seat} takes the bets back"
            case CardsDealt(keyed=keyed):
                return "Seven cards dealt to each hand" + (" (physical cards)" if keyed else "")
            case PlayerActed(seat=seat, raised=raised):
                return f"Seat {seat} folds" if raised == 0 else f"Seat {seat} raises {raised}"
            case BankerRevealed(cards=cards, hand_cards=hands, raise_corrections=fixes):
                shown = f"Banker shows {format_cards(cards, symbols=True)}" if cards else "No banker's hand needed"
                entered = [f"{label} keyed {format_cards(hand, symbols=True)}" for label, hand in (hands or {}).items()]
                cut = [f"seat {seat} raised {f.declared}: its {f.flush}-card flush caps it at {f.cap}, "
                       f"{f.returned} returned (HCF-6)" for seat, f in (fixes or {}).items()]
                return "; ".join([shown, *entered, *cut])
        return event.kind.replace("_", " ")

    def prompt(self, rnd: HighCardFlushRound | None) -> str:
        if rnd is None:
            return _("Press {start} to start a round.")
        match rnd.phase:
            case Phase.ANTE:
                return _("Antes: a seat's number picks it, {ante} antes it; {deal} deals.")
            case Phase.ACT:
                p = rnd.to_act()
                spec = next((s for s in rnd.legal_steps() if s.step is Raise), None)
                if p is None or spec is None:
                    return ""
                said = current()
                low, high = said.number(spec.min_amount or 0), said.number(spec.max_amount or 0)
                if rnd.keyed and not p.cards:
                    return _("Seat {seat}: {raise_bet} raise ({low}–{high} as declared, checked at the reveal) or "
                             "{fold} fold.", seat=p.seat, low=low, high=high)
                return _("Seat {seat}: {raise_bet} raise ({low}–{high}, {length}-card flush) or {fold} fold.",
                         seat=p.seat, low=low, high=high, length=rnd.flush_length(p.seat))
            case Phase.REVEAL:
                if rnd.keyed:
                    return _("Everyone has acted: {reveal} keys the hands and reveals the banker's.")
                return _("Everyone has acted: {reveal} reveals the banker's hand.")
            case Phase.PAYOUT:
                return payout_waits()
            case _:
                return _("Round over: {start} starts the next round.")


PRESENTER: Presenter[HighCardFlushRound] = HighCardFlushPresenter()
