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
from dealer_tui.language import N_, _, current, told
from dealer_tui.rounds.base import Phase
from dealer_tui.views import HandView, Presenter, SeatView, describe_common, payout_waits
from rules.cards import format_cards, sort_cards
from rules.games.one_or_five import rules as rules

STATUS = {"exchanged": N_("exchanged"), "closed": N_("closed"), "folded": N_("folded")}
"""A box's status as its seat's panel shows it (a box still waiting shows none)."""


def box_tag(number: int) -> str:
    """A box as its seat's panel tags it: `B2`."""
    return _("B{box}", box=number)


def with_status(hand: str, status: str) -> str:
    """What a box holds, and how it stands: `two pair — closed`."""
    if status == "waiting":
        return hand
    return _("{hand} — {status}", hand=hand, status=_(STATUS.get(status, status)))


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
                out.append(SeatView(seat, name, stack, note=_("joined after the start")))
                continue
            bets: list[tuple[str, int]] = []
            hands = []
            for box in boxes:
                bets.append((box_tag(box.number), box.ante + box.bet + (box.insurance or 0)))
                tag = f"{'▶' if current is box else ' '}{box_tag(box.number)}{'*' if rnd.open_boxes.get(seat) == box.number else ''}"
                if box.cards:
                    hand = rules.hand_of(box.cards)
                    hands.append((tag, sort_cards(box.cards), with_status(told(hand.said()), box.status)))
                elif isinstance(rnd, OneOrFiveKeyedRound) and rnd.phase is not Phase.ANTE:
                    drawn = rnd.drawn.get(box.number, ())
                    seen = (_("drew {cards}; physical cards", cards=format_cards(drawn, symbols=True)) if drawn
                            else _("physical cards"))
                    hands.append((tag, [], with_status(seen, box.status)))
            acting = current is not None and current.seat == seat
            note = "" if boxes else _("no box yet")
            if boxes and not hands:
                open_box = rnd.open_boxes.get(seat)
                note = _("box {box} plays open", box=open_box) if open_box else ""
            out.append(SeatView(seat, name, stack - rnd.committed(seat), bets, (),
                                markers=tuple(_("box {box}", box=b.number) for b in boxes), acting=acting, note=note,
                                hands=hands))
        return out

    def banker(self, rnd: OneOrFiveRound | None) -> HandView:
        dealer = _("Dealer")
        if rnd is None or not rnd.dealer:
            return HandView(dealer, lines=(_("cards not dealt"),))
        if rnd.phase is Phase.VOID:
            return HandView(dealer, lines=(_("round void: no reveal, every bet and fee returned (R-12)"),))
        if not rnd.revealed and rnd.keyed:
            return HandView(dealer, rnd.dealer[:1], hidden_cards=4, lines=(_("up card keyed; the rest at the reveal"),))
        if not rnd.revealed:
            return HandView(dealer, rnd.dealer[-1:], hidden_cards=4, lines=(_("shown: the last card dealt (R-1)"),))
        hand = rules.hand_of(rnd.dealer)
        verdict = _("has a game") if hand.qualifies else _("no game: antes pay 1:1, bets returned")
        return HandView(dealer, sort_cards(rnd.dealer), hand=told(hand.said()), lines=(verdict,))

    def describe(self, event: Event) -> str:
        common = describe_common(event)
        if common is not None:
            return common
        match event:
            case RoundStarted():
                return _("New round: antes on the boxes")
            case AntePlaced(seat=seat, box=box, ante=ante):
                return _("Seat {seat} antes {ante} on box {box}", seat=seat, ante=ante, box=box)
            case AnteWithdrawn(box=box):
                return _("Box {box}: ante taken back", box=box)
            case OpenBoxMarked(seat=seat, box=box):
                return _("Seat {seat} plays box {box} open", seat=seat, box=box)
            case CardsDealt(cut_by=cut_by, hands=hands, keyed=keyed):
                if keyed:
                    up = format_cards(hands["dealer up"], symbols=True)
                    if cut_by == "player":
                        return _("Cut by the player; five physical cards each; the dealer's up card {up}", up=up)
                    if cut_by == "dealer":
                        return _("Cut by the dealer; five physical cards each; the dealer's up card {up}", up=up)
                    return f"Cut by the {cut_by}; five physical cards each; the dealer's up card {up}"
                if cut_by == "player":
                    return _("Cut by the player; five cards to each box and the dealer")
                if cut_by == "dealer":
                    return _("Cut by the dealer; five cards to each box and the dealer")
                return f"Cut by the {cut_by}; five cards to each box and the dealer"  # not a cut the round records
            case BoxExchanged(box=box, drawn=drawn, fee=fee, count=count):
                if count:
                    return _("Box {box} exchanges {count} (fee {fee}), drew {cards}", box=box, count=event.exchanged,
                             fee=fee, cards=format_cards(drawn, symbols=True))
                return _("Box {box} exchanges {count} (fee {fee})", box=box, count=event.exchanged, fee=fee)
            case BoxClosed(box=box, bet=bet):
                return _("Box {box} closes with {bet}", box=box, bet=bet)
            case BoxFolded(box=box):
                return _("Box {box} passes", box=box)
            case InsuranceTaken(box=box, premium=premium):
                if premium:
                    return _("Box {box} insures {premium}", box=box, premium=premium)
                return _("Box {box}: no insurance", box=box)
            case DealerRevealed(cards=cards, hand=hand):
                return _("Dealer shows {cards}: {hand}", cards=format_cards(cards, symbols=True),
                         hand=told(rules.hand_named(hand)))
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
