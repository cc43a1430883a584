"""Poker "1 or 5" as the dealer sees it: one panel per player, their boxes inside."""

from __future__ import annotations

from dealer_tui.events import Event
from dealer_tui.events.table import RoundStarted
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
from dealer_tui.games.one_or_five.live_round import OneOrFiveKeyedRound
from dealer_tui.games.one_or_five.round import OneOrFiveRound
from dealer_tui.games.one_or_five.steps import Bet, Exchange, Fold
from dealer_tui.language import _, current
from dealer_tui.rounds.base import Phase
from dealer_tui.views import HandView, Presenter, SeatView, describe_common, payout_waits
from rules.cards import format_cards, sort_cards
from rules.games.one_or_five import rules as rules


class OneOrFivePresenter(Presenter[OneOrFiveRound]):
    LIMITS: tuple[str, ...] = ("Ante", "Close the box", "Maximum payout per box")
    """The profile's rows the table panel always shows (the table's limits)."""

    def seats(self, rnd: OneOrFiveRound | None, stacks: dict[int, tuple[str, int]]) -> list[SeatView]:
        if rnd is None or rnd.phase in (Phase.DONE, Phase.VOID):
            return [SeatView(seat, name, stack) for seat, (name, stack) in sorted(stacks.items())]
        current = rnd.current_box()
        out = []
        for seat, (name, stack) in sorted(stacks.items()):
            boxes = [b for n, b in sorted(rnd.boxes.items()) if b.seat == seat]
            if seat not in rnd.players:
                out.append(SeatView(seat, name, stack, note="joined after the start"))
                continue
            bets: list[tuple[str, int]] = []
            hands = []
            for box in boxes:
                bets.append((f"B{box.number}", box.ante + box.bet + (box.insurance or 0)))
                status = "" if box.status == "waiting" else f" — {box.status}"
                tag = f"{'▶' if current is box else ' '}B{box.number}{'*' if rnd.open_boxes.get(seat) == box.number else ''}"
                if box.cards:
                    hand = rules.hand_of(box.cards)
                    hands.append((tag, sort_cards(box.cards), f"{hand.said()}{status}"))
                elif isinstance(rnd, OneOrFiveKeyedRound) and rnd.phase is not Phase.ANTE:
                    drawn = rnd.drawn.get(box.number, ())
                    seen = f"drew {format_cards(drawn, symbols=True)}; " if drawn else ""
                    hands.append((tag, [], f"{seen}physical cards{status}"))
            acting = current is not None and current.seat == seat
            note = "" if boxes else "no box yet"
            if boxes and not hands:
                open_box = rnd.open_boxes.get(seat)
                note = f"box {open_box} plays open" if open_box else ""
            out.append(SeatView(seat, name, stack - rnd.committed(seat), bets, (),
                                markers=tuple(f"box {b.number}" for b in boxes), acting=acting, note=note,
                                hands=hands))
        return out

    def banker(self, rnd: OneOrFiveRound | None) -> HandView:
        if rnd is None or not rnd.dealer:
            return HandView("Dealer", lines=("cards not dealt",))
        if rnd.phase is Phase.VOID:
            return HandView("Dealer", lines=("round void: no reveal, every bet and fee returned (R-12)",))
        if not rnd.revealed and rnd.keyed:
            return HandView("Dealer", rnd.dealer[:1], hidden_cards=4, lines=("up card keyed; the rest at the reveal",))
        if not rnd.revealed:
            return HandView("Dealer", rnd.dealer[-1:], hidden_cards=4, lines=("shown: the last card dealt (R-1)",))
        hand = rules.hand_of(rnd.dealer)
        verdict = "has a game" if hand.qualifies else "no game: antes pay 1:1, bets returned"
        return HandView("Dealer", sort_cards(rnd.dealer), hand=hand.said(), lines=(verdict,))

    def describe(self, event: Event) -> str:
        common = describe_common(event)
        if common is not None:
            return common
        match event:
            case RoundStarted():
                return "New round: antes on the boxes"
            case AntePlaced(seat=seat, box=box, ante=ante):
                return f"Seat {seat} antes {ante} on box {box}"
            case AnteWithdrawn(box=box):
                return f"Box {box}: ante taken back"
            case OpenBoxMarked(seat=seat, box=box):
                return f"Seat {seat} plays box {box} open"
            case CardsDealt(cut_by=cut_by, hands=hands, keyed=keyed):
                if keyed:
                    up = format_cards(hands["dealer up"], symbols=True)
                    return f"Cut by the {cut_by}; five physical cards each; the dealer's up card {up}"
                return f"Cut by the {cut_by}; five cards to each box and the dealer"
            case BoxExchanged(box=box, drawn=drawn, fee=fee, count=count):
                drew = f", drew {format_cards(drawn, symbols=True)}" if count else ""
                return f"Box {box} exchanges {event.exchanged} (fee {fee}){drew}"
            case BoxClosed(box=box, bet=bet):
                return f"Box {box} closes with {bet}"
            case BoxFolded(box=box):
                return f"Box {box} passes"
            case InsuranceTaken(box=box, premium=premium):
                return f"Box {box} insures {premium}" if premium else f"Box {box}: no insurance"
            case DealerRevealed(cards=cards, hand=hand):
                return f"Dealer shows {format_cards(cards, symbols=True)}: {hand}"
        return event.kind.replace("_", " ")

    def prompt(self, rnd: OneOrFiveRound | None) -> str:
        if rnd is None:
            return _("Press {start} to start a round.")
        match rnd.phase:
            case Phase.ANTE:
                return _("Antes: a seat's number picks it, {ante} antes a box, {open_box} plays it open; {deal} cuts "
                         "and deals.")
            case Phase.ACT:
                box = rnd.current_box()
                if box is None:
                    return ""
                if box.status == "closed":
                    return _("Box {box}: {insure} insures, {no_insurance} declines insurance.", box=box.number)
                number = current().number
                kinds = {s.step for s in rnd.legal_steps()}
                words = [w for k, w in ((Exchange, _("{exchange} exchange")),
                                        (Bet, _("{close_box} close (bet {bet})",
                                                bet=number(rules.BET_MULTIPLE * box.ante))),
                                        (Fold, _("{fold} pass"))) if k in kinds]
                said = _("Box {box}: {steps}.", box=box.number, steps=", ".join(words))
                open_box = rnd.open_boxes.get(box.seat) == box.number
                if box.status == "waiting" and open_box and rnd.exchange_short(box):
                    # the box could not close after an exchange
                    fee = rules.exchange_fee(rnd.profile, box.ante)
                    bet, held = rules.BET_MULTIPLE * box.ante, rnd.holds(box.seat, box)
                    said += " " + _("No exchange: fee {fee} + Bet {bet} = {total}, {held} held (R-4).",
                                    fee=number(fee), bet=number(bet), total=number(fee + bet), held=number(held))
                return said
            case Phase.REVEAL:
                if rnd.keyed:
                    return _("Every box has acted: {insure} insures a closed box; {reveal} keys the hands and "
                             "reveals the dealer's.")
                return _("Every box has acted: {reveal} reveals the dealer's hand.")
            case Phase.PAYOUT:
                return payout_waits()
            case _:
                return _("Round over: {start} starts the next round.")


PRESENTER: Presenter[OneOrFiveRound] = OneOrFivePresenter()
