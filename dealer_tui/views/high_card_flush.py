"""High Card Flush as the dealer sees it."""

from __future__ import annotations

from dealer_tui.ledger.base import NewEvent
from dealer_tui.rounds.base import Phase, Round
from dealer_tui.rounds.high_card_flush import HighCardFlushRound
from dealer_tui.views import HandView, SeatView, describe_common
from rules import high_card_flush as hcf
from rules.cards import format_cards, parse_cards, sort_cards


class HighCardFlushPresenter:
    LIMITS = ("Banker", "Ante", "Flush bet", "Straight Flush bet", "Rake")
    """The profile's rows the table panel always shows (the table's limits)."""

    def seats(self, rnd: Round | None, stacks: dict[int, tuple[str, int]]) -> list[SeatView]:
        if not isinstance(rnd, HighCardFlushRound) or rnd.phase in (Phase.DONE, Phase.VOID):
            views = [SeatView(seat, name, stack) for seat, (name, stack) in sorted(stacks.items())]
            if isinstance(rnd, HighCardFlushRound) and rnd.banker is not None:
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
                out.append(SeatView(seat, name, stack, note="sitting out" if rnd.phase is not Phase.ANTE else "no ante yet"))
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

    def banker(self, rnd: Round | None) -> HandView:
        if not isinstance(rnd, HighCardFlushRound):
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

    def describe(self, event: NewEvent) -> str:
        common = describe_common(event)
        if common is not None:
            return common
        p = event.payload
        match event.kind:
            case "round_started":
                banker = f"seat {p['banker']} banks" if p.get("banker") else "the house banks"
                return f"Round {p['number']} — {banker}"
            case "ante_placed":
                extra = "".join(f", {k.replace('_', ' ')} {v}" for k, v in p.items() if k in ("flush", "straight_flush") and v)
                return f"Seat {p['seat']} antes {p['ante']}{extra}"
            case "ante_withdrawn":
                return f"Seat {p['seat']} takes the bets back"
            case "cards_dealt":
                return "Seven cards dealt to each hand" + (" (physical cards)" if p.get("keyed") else "")
            case "player_acted":
                return f"Seat {p['seat']} folds" if p["raise"] == 0 else f"Seat {p['seat']} raises {p['raise']}"
            case "banker_revealed":
                shown = f"Banker shows {format_cards(parse_cards(p['cards']), symbols=True)}" if p["cards"] else \
                    "No banker's hand needed"
                keyed = [f"{label} keyed {format_cards(parse_cards(text), symbols=True)}"
                         for label, text in p.get("hand_cards", {}).items()]
                fixes = [f"seat {seat} raised {f['declared']}: its {f['flush']}-card flush caps it at {f['cap']}, "
                         f"{f['returned']} returned (HCF-6)" for seat, f in p.get("raise_corrections", {}).items()]
                return "; ".join([shown, *keyed, *fixes])
        return event.kind.replace("_", " ")

    def prompt(self, rnd: Round | None) -> str:
        if not isinstance(rnd, HighCardFlushRound):
            return "Press s to start a round."
        match rnd.phase:
            case Phase.ANTE:
                return "Antes: a seat's number picks it, a antes it; d deals."
            case Phase.ACT:
                p = rnd.to_act()
                if p is None:
                    return ""
                low, high = rnd.raise_bounds(p.seat)
                if rnd.keyed and not p.cards:
                    return f"Seat {p.seat}: r raise ({low}–{high} as declared, checked at the reveal) or f fold."
                length = rnd.flush_length(p.seat)
                return f"Seat {p.seat}: r raise ({low}–{high}, {length}-card flush) or f fold."
            case Phase.REVEAL:
                if rnd.keyed:
                    return "Everyone has acted: v keys the hands and reveals the banker's."
                return "Everyone has acted: v reveals the banker's hand."
            case Phase.PAYOUT:
                return "p shows the payout to confirm."
            case _:
                return "Round over: s starts the next round."


PRESENTER = HighCardFlushPresenter()
