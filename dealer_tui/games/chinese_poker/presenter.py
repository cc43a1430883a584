"""Chinese Poker as the dealer sees it: each seat's three rows with the live foul warning; and
each seat's rows as a round's story tells them (as opened, or as last set)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from dealer_tui.events import Event
from dealer_tui.events.table import RoundStarted
from dealer_tui.games.chinese_poker.events import (
    CardsDealt,
    NaturalDeclared,
    NaturalWithdrawn,
    RowsLocked,
    RowsOpened,
    RowsSet,
    RowsUnlocked,
)
from dealer_tui.games.chinese_poker.round import ChinesePokerRound
from dealer_tui.games.chinese_poker.rows import hand_named, natural_named, row_labels
from dealer_tui.language import N_, _, told
from dealer_tui.rounds.base import Phase
from dealer_tui.views import HandView, Presenter, SeatView, StoryTable, describe_common, key
from rules.cards import Card, format_cards, parse_cards, sort_cards
from rules.evaluator import evaluate
from rules.said import Said

SCORINGS = {"basic": N_("basic"), "mandarin": N_("mandarin"), "super_bonus": N_("super bonus")}
"""The profile's scorings (CP-6) as the table panel names them."""


def shown_order(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """C-7: a row listed by rank, high first, a straight from its top card down."""
    return evaluate(cards).cards if len(cards) == 5 else tuple(sort_cards(cards))


class ChinesePokerPresenter(Presenter[ChinesePokerRound]):
    LIMITS: tuple[str, ...] = ("Scoring", "Point value", "House fee")
    """The profile's rows the table panel always shows (the table's limits)."""

    def seats(self, rnd: ChinesePokerRound | None, stacks: dict[int, tuple[str, int]]) -> list[SeatView]:
        if rnd is None or rnd.phase in (Phase.DONE, Phase.VOID):
            return [SeatView(seat, name, stack) for seat, (name, stack) in sorted(stacks.items())]
        waiting = rnd.waiting() if rnd.phase is Phase.ACT else []
        out = []
        for seat, (name, stack) in sorted(stacks.items()):
            p = rnd.seats.get(seat)
            if p is None:
                out.append(SeatView(seat, name, stack, note=_("sits this hand out")))
                continue
            markers = [_("button")] if rnd.button == seat else []
            if not p.cards:
                note = _("13 cards to come")
                if rnd.keyed and rnd.phase is not Phase.ANTE:
                    note = _("physical cards: the rows are keyed as they are turned over ({edit_rows})",
                             edit_rows=key("edit_rows"))
                out.append(SeatView(seat, name, stack, markers=markers, note=note))
                continue
            status = rnd.row_status(seat)
            hands: list[tuple[str, tuple[Card, ...], str]] = []
            if status.rows is not None:
                for label, text, said in zip(row_labels(), status.rows, status.names or (None, None, None),
                                             strict=True):
                    hands.append((label, shown_order(parse_cards(text)), hand_named(said) if said else _("wrong count")))
            notes = []
            if status.locked:
                markers.append(_("locked"))
            if status.natural_declared:
                notes.append(_("declares {natural}", natural=natural_named(status.natural_declared)))
            elif status.natural_held:
                notes.append(_("holds {natural} ({declare} declares)", natural=natural_named(status.natural_held),
                               declare=key("declare")))
            if status.foul:
                notes.append(_("FOUL: {foul}", foul=told(status.foul)))
            elif status.suggested:
                notes.append(_("suggested setting"))
            out.append(SeatView(seat, name, stack, (), sort_cards(p.cards) if status.rows is None else (), markers=markers,
                                acting=seat in waiting[:1], note="; ".join(notes), hands=hands))
        return out

    def banker(self, rnd: ChinesePokerRound | None) -> HandView:
        if rnd is None:
            return HandView(_("Table"))
        scoring = rnd.profile.scoring
        lines = [_("button: seat {seat}", seat=rnd.button), _("point value {value}", value=rnd.profile.point_value),
                 _("scoring {scoring}", scoring=_(SCORINGS[scoring]) if scoring in SCORINGS else
                   scoring.replace("_", " "))]
        if rnd.phase is Phase.ACT:
            lines.append(_("waiting for {seats}", seats=", ".join(_("seat {seat}", seat=s) for s in rnd.waiting())))
        return HandView(_("Table"), lines=tuple(lines))

    def describe(self, event: Event) -> str:
        common = describe_common(event)
        if common is not None:
            return common
        match event:
            case RoundStarted(button=button):
                return _("New hand: the button is on seat {seat}", seat=button)
            case CardsDealt():
                return _("Four hands of 13 dealt (CP-1)")
            case RowsSet(seat=seat, suggested=suggested):
                return _("Seat {seat} sets its rows (suggested)", seat=seat) if suggested else _(
                    "Seat {seat} sets its rows", seat=seat)
            case NaturalDeclared(seat=seat, natural=natural, front=front, middle=middle, back=back):
                f, m, b = (format_cards(row, sort=False, symbols=True) for row in (front, middle, back))
                return _("Seat {seat} declares {natural} (CP-9), shown as front {front}, middle {middle}, back {back}",
                         seat=seat, natural=natural_named(natural), front=f, middle=m, back=b)
            case RowsLocked(seat=seat):
                return _("Seat {seat} rows locked", seat=seat)
            case RowsUnlocked(seat=seat):
                return _("Seat {seat} rows unlocked", seat=seat)
            case NaturalWithdrawn(seat=seat):
                return _("Seat {seat} natural withdrawn", seat=seat)
            case RowsOpened(verified=verified):
                if not verified:
                    return _("Rows opened")
                return _("Rows opened; naturals verified (CP-14): {verified}",
                         verified="; ".join(told(line) for line in verified))
        return event.kind.replace("_", " ")

    def story(self, events: Sequence[Event]) -> StoryTable:
        """Each seat's rows and whether they fouled or show a natural: as opened, or as last set."""
        opened, hands = story_rows(events)
        rows = []
        for seat in sorted(hands, key=lambda s: int(s) if str(s).isdigit() else 0):
            h = hands[seat]
            verdict = ((_("FOUL: {foul}", foul=told(h.foul)), "bad") if h.foul else
                       (_("natural: {natural}", natural=natural_named(h.natural)), "good") if h.natural else
                       (_("set, no foul") if opened else "", ""))
            rows.append(((str(seat), _text(h.front), _text(h.middle), _text(h.back), verdict[0]), verdict[1]))
        front, middle, back = (label.strip() for label in row_labels())
        return StoryTable(_("Rows as opened") if opened else _("Rows as set (not opened)"),
                          (_("Seat"), front, middle, back, _("Foul or natural")), tuple(rows), _("no rows were set"))

    def prompt(self, rnd: ChinesePokerRound | None) -> str:
        if rnd is None:
            return _("Press {start} to start a hand.")
        match rnd.phase:
            case Phase.ANTE:
                return _("{deal} deals four hands of 13 (unused hands are dead).")
            case Phase.ACT if rnd.keyed:
                return _("Pick a seat: {edit_rows} keys its rows as they are turned over, {declare} keys a declared "
                         "natural, {lock} locks.")
            case Phase.ACT:
                return _("Pick a seat: {edit_rows} sets its rows, {suggest} takes the suggestion, {declare} declares "
                         "a natural, {lock} locks.")
            case Phase.REVEAL:
                return _("Every seat is locked: {reveal} opens the rows (naturals verified), {unlock} unlocks a seat.")
            case Phase.PAYOUT:
                return _("{payout} shows the payments to confirm.")
            case _:
                return _("Hand over: {start} starts the next hand.")


PRESENTER: Presenter[ChinesePokerRound] = ChinesePokerPresenter()


@dataclass(frozen=True)
class SeatRows:
    """A seat's rows as a round's story shows them (C-7 playing order), with why they foul (as the
    lock or the reveal recorded it) or the natural declared."""

    front: tuple[Card, ...] = ()
    middle: tuple[Card, ...] = ()
    back: tuple[Card, ...] = ()
    foul: Said | None = None
    natural: str | None = None


def story_rows(events: Sequence[Event]) -> tuple[bool, dict[str, SeatRows]]:
    """Whether the round's rows were opened, and each seat's rows (by seat number): as opened, else
    as last set. Before the reveal a seat's foul is the one its lock recorded, and its natural the
    one declared; setting the rows again clears both, withdrawing the natural clears it."""
    hands: dict[str, SeatRows] = {}
    opened = False
    for event in events:
        if isinstance(event, RowsOpened):
            hands = {seat: SeatRows(h.front, h.middle, h.back, h.foul, h.natural) for seat, h in event.hands.items()}
            opened = True
        if opened:
            continue
        match event:
            case RowsSet(seat=seat, front=front, middle=middle, back=back):
                hands[str(seat)] = SeatRows(front, middle, back)
            case NaturalDeclared(seat=seat, natural=natural, front=front, middle=middle, back=back):
                hands[str(seat)] = SeatRows(front, middle, back, natural=natural)
            case NaturalWithdrawn(seat=seat) if str(seat) in hands:
                hands[str(seat)] = replace(hands[str(seat)], natural=None)
            case RowsLocked(seat=seat, foul=foul, natural=natural):
                hands[str(seat)] = replace(hands.get(str(seat), SeatRows()), foul=foul, natural=natural)
    return opened, hands


def _text(cards: Sequence[Card]) -> str:
    return " ".join(c.text for c in cards)
