"""Palace Poker as the dealer sees it: banners and soldiers face up, palaces face down, the pot."""

from __future__ import annotations

from collections.abc import Mapping

from dealer_tui.events import Event
from dealer_tui.events.table import RoundStarted
from dealer_tui.games.palace_poker.events import (
    AntePlaced,
    AnteWithdrawn,
    BannersDealt,
    BattleAnswered,
    BattleDecided,
    BattleOpened,
    DealerDrawn,
    Folded,
    HandEnded,
    PalacesDealt,
    PalacesShown,
    SoldierBought,
    SoldiersDiscarded,
    SoldiersKept,
    Stayed,
)
from dealer_tui.games.palace_poker.round import PalacePokerRound
from dealer_tui.games.palace_poker.steps import (
    Ante,
    Battle,
    Buy,
    Call,
    DealBanners,
    Discard,
    Fold,
    Keep,
    Raise,
    Stay,
)
from dealer_tui.language import _, current, n_, p_, told
from dealer_tui.rounds.base import LegalStep, Phase, Step
from dealer_tui.views import HandView, Presenter, SeatView, describe_common, payout_waits
from rules.bets import bet_label
from rules.cards import Card, format_cards, sort_cards
from rules.games.palace_poker.hand_end import hand_words


def capital(text: str) -> str:
    """A log line begins with a capital letter."""
    return text[:1].upper() + text[1:]


class PalacePokerPresenter(Presenter[PalacePokerRound]):
    LIMITS: tuple[str, ...] = ("Structure", "Small bet / big bet", "Ante (banner card)", "Buy or discard")
    """The profile's rows the table panel always shows (the table's limits)."""

    def seats(self, rnd: PalacePokerRound | None, stacks: dict[int, tuple[str, int]]) -> list[SeatView]:
        if rnd is None or rnd.phase in (Phase.DONE, Phase.VOID):
            return [SeatView(seat, name, stack) for seat, (name, stack) in sorted(stacks.items())]
        acting = self._acting(rnd)
        shown = rnd.phase is Phase.PAYOUT and rnd.state.end is not None and bool(rnd.state.end.hands)
        compared = {int(label.split()[1]) for e in rnd.events if isinstance(e, BattleDecided)
                    for label in e.shown}  # turned up in a called battle (PP-9)
        showdown = self._showdown(rnd) if shown else {}
        out = []
        for seat, (name, stack) in sorted(stacks.items()):
            p = rnd.state.players.get(seat)
            if p is None:
                out.append(SeatView(seat, name, stack, note=_("joined after the start")))
                continue
            markers = [p_("palace", "dealer")] if rnd.state.dealer == seat else []  # the seat that deals (PP-0)
            bets = [(told(bet_label(bet)), amount) for bet, amount in p.paid.items() if amount]
            hands: list[tuple[str, tuple[Card, ...], str]] = []
            if p.hand is not None:
                hands.append((_("Banner"), (p.hand.banner,), ""))
                if p.hand.soldiers:
                    hands.append((_("Soldiers"), tuple(sort_cards(p.hand.soldiers)), ""))
                if rnd.state.pending is not None and rnd.state.pending.seat == seat:
                    hands.append((_("Gained"), tuple(rnd.state.pending.gained), _("to keep or discard")))
                if shown or seat in compared or (p.hand.seen and rnd.keyed):
                    hands.append((_("Palace"), tuple(sort_cards(p.hand.palace)), _("shown")))
                elif not p.hand.seen:
                    hands.append((_("Palace"), (), "▒▒ ▒▒ ▒▒  " + _("physical, keyed when shown")))
                else:
                    hands.append((_("Palace"), (), " ".join("▒▒" for _card in p.hand.palace)))
            elif p.banner is not None and not p.out:
                hands.append((_("Banner"), (p.banner,), ""))
            note = told(p.out) if p.out else (_("no ante yet") if rnd.phase is Phase.ANTE and not p.anted else "")
            out.append(SeatView(seat, name, p.available(), bets, (), markers=markers, hand=showdown.get(seat, ""),
                                acting=acting == seat, out=bool(p.out), note=note, hands=hands))
        return out

    @staticmethod
    def _showdown(rnd: PalacePokerRound) -> dict[int, str]:
        """PP-16: every remaining player's best hand, and who takes the pot with it."""
        end = rnd.state.end
        assert end is not None
        shown = {sh.seat: told(hand_words(sh.hand)) for sh in end.hands}
        if len(end.winners) > 1:
            return {seat: _("{hand} — shares the pot", hand=hand) if seat in end.winners else hand
                    for seat, hand in shown.items()}
        return {seat: _("{hand} — takes the pot", hand=hand) if seat in end.winners else hand
                for seat, hand in shown.items()}

    @staticmethod
    def _acting(rnd: PalacePokerRound) -> int | None:
        if rnd.phase is not Phase.ACT:
            return None
        if rnd.state.pending is not None:
            return rnd.state.pending.seat
        if rnd.state.battle is not None:
            return rnd.state.battle.to_act
        return rnd.state.turn

    def banner(self, rnd: PalacePokerRound | None) -> HandView:
        if rnd is None:
            return HandView(_("Pot"))
        if rnd.phase is Phase.VOID:
            return HandView(_("Pot"),
                            lines=(_("round void: every chip in the pot went back to the seat that put it in"),))
        state = rnd.state
        lines = [_("draw and discard piles: {count} physical cards", count=rnd.turns.pool())
                 if rnd.keyed and state.remaining()
                 else _("draw pile {draw} · discards {discards}", draw=len(state.draw_pile),
                        discards=len(state.discard_pile))]
        if state.battle is not None:
            b = state.battle
            lines.append(_("battle: seat {attacker} v seat {defender}, {owed} to call, {raises} raise(s)",
                           attacker=b.attacker.seat, defender=b.defender.seat, owed=b.owed, raises=b.raises))
        if state.end is not None and not (rnd.phase is Phase.REVEAL and state.end.hands):
            lines.append(told(state.end.reason))  # a showdown's winner only once v has shown the palaces down
        return HandView(_("Pot {pot}", pot=state.pot), hand=_("{pot} chips in the pot", pot=state.pot),
                        lines=tuple(lines))

    banker = banner

    def describe(self, event: Event) -> str:
        common = describe_common(event)
        if common is not None:
            return common
        match event:
            case PalacesShown(palaces=palaces, reason=reason):
                shown = "; ".join(_("seat {seat} {cards}", seat=s, cards=format_cards(cards, symbols=True))
                                  for s, cards in palaces.items())
                return _("Palace cards keyed — {palaces}: {reason}", palaces=shown, reason=told(reason))
            case BannersDealt(keyed=True, banners=banners):
                keyed = ", ".join(_("seat {seat} {cards}", seat=s, cards=cards[0].pretty)
                                  for s, cards in banners.items())
                return _("Banners keyed as dealt (PP-1): {banners}", banners=keyed)
            case BannersDealt():
                return _("Banners dealt by groups (PP-1)")
            case SoldiersKept():  # the buy or the battle before it has said the rest
                return kept_soldiers(event)
            case DealerDrawn(drawn=drawn, reason=reason):  # each tie before it was a line of its own (PP-0)
                cards = ", ".join(_("seat {seat} {cards}", seat=label.removeprefix("seat "),
                                    cards=format_cards(c, symbols=True)) for label, c in drawn.items())
                said = told(reason).rsplit("; ", 1)[-1]
                said = said[:1].lower() + said[1:]
                return _("Draw for the deal: {cards} — {said}", cards=cards, said=said)
            case (SoldierBought(reason=reason) | SoldiersDiscarded(reason=reason)
                  | Folded(reason=reason) | BattleOpened(reason=reason) | BattleAnswered(reason=reason)
                  | BattleDecided(reason=reason) | HandEnded(reason=reason)):
                return capital(told(reason))  # a log line: no full stop
            case RoundStarted(button=button):
                return _("New hand: seat {seat} deals", seat=button) if button else _("New hand: draw for the deal")
            case AntePlaced(seat=seat, ante=ante):
                return _("Seat {seat} antes {ante} for a banner", seat=seat, ante=ante)
            case AnteWithdrawn(seat=seat):
                return _("Seat {seat} takes back the ante", seat=seat)
            case PalacesDealt():
                return _("Three palace cards each; the rest is the draw pile (PP-2)")
            case Stayed(seat=seat):
                return _("Seat {seat} stays", seat=seat)
        return event.kind.replace("_", " ")

    def prompt(self, rnd: PalacePokerRound | None) -> str:
        """What the dealer may do now, in keys (`key(action)`): each named only while the round offers it."""
        if rnd is None:
            return _("Press {start} to start a hand.")
        specs = rnd.legal_steps()
        kinds = {s.step for s in specs}
        match rnd.phase:
            case Phase.ANTE:
                if rnd.state.dealer is None:
                    return _("First hand: {deal} deals one card each, the highest rank deals (PP-0).")
                antes = _("pick a seat, {ante} antes; {ante_all} antes every seat not yet in")
                words = [w for k, w in ((Ante, antes), (DealBanners, _("{deal} deals the banners"))) if k in kinds]
                return _("Seat {seat} deals. Antes: {steps}.", seat=rnd.state.dealer,
                         steps="; ".join(words) or _("{void} voids the round"))
            case Phase.DEAL:
                return _("{deal} shuffles again and deals three palace cards each.")
            case Phase.ACT:
                seat = self._acting(rnd)
                mine = {s.step: s for s in specs if s.seat == seat}
                if Keep in mine:
                    return _("Seat {seat}: {keep} marks the soldiers to discard (the rest are kept).", seat=seat)
                if rnd.state.battle is not None:
                    return self._answer_prompt(rnd, mine)
                words = [w for k, w in ((Buy, _("{buy} buy")), (Discard, _("{discard} discard")),
                                        (Stay, _("{stay} stay")), (Battle, _("{attack} attack")),
                                        (Fold, _("{fold} fold"))) if k in mine]
                if Stay not in mine:
                    return _("Seat {seat}: {steps} (two banner suits left: attack or fold, PP-15).", seat=seat,
                             steps=", ".join(words))
                return _("Seat {seat}: {steps}.", seat=seat, steps=", ".join(words))
            case Phase.REVEAL:
                if rnd.state.end is not None and rnd.state.end.rule == "PP-16":
                    return _("The hand is over: {reveal} shows down the palaces.")
                return _("The hand is over: {reveal} awards the pot.")
            case Phase.PAYOUT:
                return payout_waits()
            case _:
                return _("Hand over: {start} starts the next hand.")

    @staticmethod
    def _answer_prompt(rnd: PalacePokerRound, mine: Mapping[type[Step], LegalStep]) -> str:
        """The seat facing an attack or a raise: the answers the round offers it (PP-8, PP-9, PP-11)."""
        battle = rnd.state.battle
        assert battle is not None and battle.to_act is not None
        seat = battle.to_act
        other = battle.defender.seat if seat == battle.attacker.seat else battle.attacker.seat
        number = current().number
        words = [_("{fold} folds")] if Fold in mine else []
        if Call in mine:
            call = number(mine[Call].min_amount or 0)
            words.append(_("{call} calls {amount} all-in", amount=call) if mine[Call].data.get("all_in")
                         else _("{call} calls {amount}", amount=call))
        if Raise in mine:
            low, high = mine[Raise].min_amount or 0, mine[Raise].max_amount or 0
            words.append(_("{raise_bet} raises by {low} to {high}", low=number(low), high=number(high)) if high != low
                         else _("{raise_bet} raises by {low}", low=number(low)))
        if battle.raises == 0:
            return _("Seat {seat} answers seat {other}'s attack: {steps}.", seat=seat, other=other,
                     steps=", ".join(words))
        return _("Seat {seat} answers seat {other}'s raise: {steps}.", seat=seat, other=other, steps=", ".join(words))


PRESENTER: Presenter[PalacePokerRound] = PalacePokerPresenter()


def kept_soldiers(kept: SoldiersKept) -> str:
    """What a seat kept after a buy or a won battle: its soldiers, and what went to the discards."""
    soldiers, seat = kept.soldiers, kept.seat
    cards = format_cards(soldiers, symbols=True)
    if kept.discarded:
        gone = format_cards(kept.discarded, symbols=True)
        if not soldiers:
            return _("Seat {seat} keeps no soldier; {discarded} to the discard pile", seat=seat, discarded=gone)
        return n_("Seat {seat} keeps {count} soldier: {cards}; {discarded} to the discard pile",
                  "Seat {seat} keeps {count} soldiers: {cards}; {discarded} to the discard pile", len(soldiers),
                  seat=seat, cards=cards, discarded=gone)
    if not soldiers:
        return _("Seat {seat} keeps no soldier", seat=seat)
    return n_("Seat {seat} keeps {count} soldier: {cards}", "Seat {seat} keeps {count} soldiers: {cards}",
              len(soldiers), seat=seat, cards=cards)


