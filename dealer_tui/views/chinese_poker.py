"""Chinese Poker as the dealer sees it: each seat's three rows with the live foul warning."""

from __future__ import annotations

from dealer_tui.ledger.base import NewEvent
from dealer_tui.rounds.base import Phase, Round
from dealer_tui.rounds.chinese_poker import ChinesePokerRound
from dealer_tui.views import HandView, SeatView, describe_common
from rules.cards import Card, parse_cards, sort_cards
from rules.evaluator import evaluate


def shown_order(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """C-7: a row listed by rank, high first, a straight from its top card down."""
    return evaluate(cards).cards if len(cards) == 5 else tuple(sort_cards(cards))


class ChinesePokerPresenter:
    LIMITS = ("Scoring", "Point value", "House fee")
    """The profile's rows the table panel always shows (the table's limits)."""

    def seats(self, rnd: Round | None, stacks: dict[int, tuple[str, int]]) -> list[SeatView]:
        if not isinstance(rnd, ChinesePokerRound) or rnd.phase in (Phase.DONE, Phase.VOID):
            return [SeatView(seat, name, stack) for seat, (name, stack) in sorted(stacks.items())]
        waiting = rnd.waiting() if rnd.phase is Phase.ACT else []
        out = []
        for seat, (name, stack) in sorted(stacks.items()):
            p = rnd.seats.get(seat)
            if p is None:
                out.append(SeatView(seat, name, stack, note="sits this hand out"))
                continue
            markers = ["button"] if rnd.button == seat else []
            if not p.cards:
                note = "13 cards to come"
                if rnd.keyed and rnd.phase is not Phase.ANTE:
                    note = "physical cards: the rows are keyed as they are turned over (e)"
                out.append(SeatView(seat, name, stack, markers=markers, note=note))
                continue
            status = rnd.row_status(seat)
            hands: list[tuple[str, tuple[Card, ...], str]] = []
            if status.rows is not None:
                for label, text, said in zip(("Front ", "Middle", "Back  "), status.rows,
                                             status.names or (None, None, None), strict=True):
                    hands.append((label, shown_order(parse_cards(text)), said or "wrong count"))
            notes = []
            if status.locked:
                markers.append("locked")
            if status.natural_declared:
                notes.append(f"declares {status.natural_declared}")
            elif status.natural_held:
                notes.append(f"holds {status.natural_held} (n declares)")
            if status.foul:
                notes.append(f"FOUL: {status.foul}")
            elif status.suggested:
                notes.append("suggested setting")
            out.append(SeatView(seat, name, stack, (), sort_cards(p.cards) if status.rows is None else (), markers=markers,
                                acting=seat in waiting[:1], note="; ".join(notes), hands=hands))
        return out

    def banker(self, rnd: Round | None) -> HandView:
        if not isinstance(rnd, ChinesePokerRound):
            return HandView("Table")
        lines = [f"button: seat {rnd.button}", f"point value {rnd.profile.point_value}",
                 f"scoring {rnd.profile.scoring.replace('_', ' ')}"]
        if rnd.phase is Phase.ACT:
            lines.append("waiting for " + ", ".join(f"seat {s}" for s in rnd.waiting()))
        return HandView("Table", lines=tuple(lines))

    def describe(self, event: NewEvent) -> str:
        common = describe_common(event)
        if common is not None:
            return common
        p = event.payload
        match event.kind:
            case "round_started":
                return f"New hand: the button is on seat {p['button']}"
            case "cards_dealt":
                return "Four hands of 13 dealt (CP-1)"
            case "rows_set":
                return f"Seat {p['seat']} sets its rows" + (" (suggested)" if p.get("suggested") else "")
            case "natural_declared":
                rows = ", ".join(f"{name} {p[name]}" for name in ("front", "middle", "back") if name in p)
                return f"Seat {p['seat']} declares {p['natural']} (CP-9), shown as {rows}"
        seat = f"Seat {p['seat']} " if "seat" in p else ""
        return seat + event.kind.replace("_", " ")

    def prompt(self, rnd: Round | None) -> str:
        if not isinstance(rnd, ChinesePokerRound):
            return "Press s to start a hand."
        match rnd.phase:
            case Phase.ANTE:
                return "d deals four hands of 13 (unused hands are dead)."
            case Phase.ACT if rnd.keyed:
                return "Pick a seat: e keys its rows as they are turned over, n keys a declared natural, k locks."
            case Phase.ACT:
                return "Pick a seat: e sets its rows, g takes the suggestion, n declares a natural, k locks."
            case Phase.REVEAL:
                return "Every seat is locked: v opens the rows (naturals verified), o unlocks a seat."
            case Phase.PAYOUT:
                return "p shows the payments to confirm."
            case _:
                return "Hand over: s starts the next hand."


PRESENTER = ChinesePokerPresenter()
