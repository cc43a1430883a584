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
from dealer_tui.language import _, current, p_, told
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
                views = [v if v.seat != rnd.banker else SeatView(v.seat, v.name, v.stack, markers=(_("DP"),))
                         for v in views]
            return views
        out = []
        acting = rnd.to_act()
        for seat, (name, stack) in sorted(stacks.items()):
            if seat == rnd.banker:
                out.append(SeatView(seat, name, stack, markers=(_("DP"), _("button")), note=_("banks this round"),
                                    hidden_cards=7 if rnd.banker_cards and not rnd.revealed else 0,
                                    cards=tuple(sort_cards(rnd.banker_cards)) if rnd.revealed else ()))
                continue
            p = rnd.seats.get(seat)
            if p is None or not p.playing:
                out.append(SeatView(seat, name, stack,
                                    note=_("no ante this hand") if rnd.phase is not Phase.ANTE else _("no ante yet")))
                continue
            bets = [(_("Ante"), p.ante)]
            if p.flush:
                bets.append((_("Flush"), p.flush))
            if p.straight_flush:
                bets.append((_("SF"), p.straight_flush))
            if p.raised:
                bets.append((p_("bet", "Raise"), p.raised))  # the bet, not the key's verb
            hand = ""
            if p.cards:
                reading = hcf.read_hand(p.cards)
                hand = told(reading.describe_flush())
                if reading.straight_flush:
                    hand += f"; {told(reading.describe_straight_flush())}"
            note = _("folded") if p.raised == 0 else ""
            hidden = 0
            if rnd.keyed and not p.cards and rnd.phase in (Phase.ACT, Phase.REVEAL):
                hidden, note = (0, note) if p.raised == 0 else (7, _("physical cards: keyed at the reveal"))
            out.append(SeatView(seat, name, stack - rnd.committed(seat), bets, sort_cards(p.cards), hand=hand,
                                acting=acting is not None and acting.seat == seat, out=p.raised == 0, note=note,
                                hidden_cards=hidden))
        return out

    def banker(self, rnd: HighCardFlushRound | None) -> HandView:
        if rnd is None:
            return HandView(_("Banker"))
        title = (_("DP — seat {seat} banks", seat=rnd.banker) if rnd.banker is not None
                 else _("Dealer (house banks)"))
        if not rnd.banker_cards and rnd.keyed and rnd.phase in (Phase.ACT, Phase.REVEAL):
            return HandView(title, hidden_cards=7, lines=(_("physical cards: keyed at the reveal"),))
        if not rnd.banker_cards:
            return HandView(title, lines=(_("cards not dealt") if not rnd.revealed
                                          else _("not needed: every hand folded"),))
        if rnd.phase is Phase.VOID:
            return HandView(title, lines=(_("round void: no reveal, every bet returned"),))
        if not rnd.revealed:
            return HandView(title, hidden_cards=7, lines=(_("face down until the reveal"),))
        reading = hcf.read_hand(rnd.banker_cards)
        verdict = _("qualifies") if reading.qualifies else _("does not qualify (needs 3-card flush 9-high)")
        return HandView(title, tuple(sort_cards(rnd.banker_cards)), hand=told(reading.describe_flush()),
                        lines=(verdict,))

    def describe(self, event: Event) -> str:
        common = describe_common(event)
        if common is not None:
            return common
        match event:
            case RoundStarted(number=number, banker=banker):
                if banker:
                    return _("Round {number} — seat {seat} banks", number=number, seat=banker)
                return _("Round {number} — the house banks", number=number)
            case AntePlaced(seat=seat, ante=ante, flush=flush, straight_flush=straight_flush):
                if flush and straight_flush:
                    return _("Seat {seat} antes {ante}, flush {flush}, straight flush {straight_flush}", seat=seat,
                             ante=ante, flush=flush, straight_flush=straight_flush)
                if flush:
                    return _("Seat {seat} antes {ante}, flush {flush}", seat=seat, ante=ante, flush=flush)
                if straight_flush:
                    return _("Seat {seat} antes {ante}, straight flush {straight_flush}", seat=seat, ante=ante,
                             straight_flush=straight_flush)
                return _("Seat {seat} antes {ante}", seat=seat, ante=ante)
            case AnteWithdrawn(seat=seat):
                return _("Seat {seat} takes the bets back", seat=seat)
            case CardsDealt(keyed=keyed):
                return _("Seven cards dealt to each hand (physical cards)") if keyed else _("Seven cards dealt to each hand")
            case PlayerActed(seat=seat, raised=raised):
                return _("Seat {seat} folds", seat=seat) if raised == 0 else _("Seat {seat} raises {amount}", seat=seat,
                                                                                 amount=raised)
            case BankerRevealed(cards=cards, hand_cards=hands, raise_corrections=fixes):
                shown = (_("Banker shows {cards}", cards=format_cards(cards, symbols=True)) if cards
                         else _("No banker's hand needed"))
                entered = [_("seat {seat} keyed {cards}", seat=int(label.split()[1]),  # every hand but the banker's
                             cards=format_cards(hand, symbols=True)) for label, hand in (hands or {}).items()]
                cut = [_("seat {seat} raised {declared}: its {length}-card flush caps it at {cap}, {returned} returned "
                         "(HCF-6)", seat=seat, declared=f.declared, length=f.flush, cap=f.cap, returned=f.returned)
                       for seat, f in (fixes or {}).items()]
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
