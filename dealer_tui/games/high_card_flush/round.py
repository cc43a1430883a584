"""High Card Flush round (docs/rules.md HCF-4..HCF-20): a Designated Player (or the house) banks;
antes and bonus bets, seven cards each, fold or raise in turn, the banker's reveal, payout."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dealer_tui.events import Event, on
from dealer_tui.games.high_card_flush.events import (
    AntePlaced,
    AnteWithdrawn,
    BankerRevealed,
    CardsDealt,
    PlayerActed,
)
from dealer_tui.games.high_card_flush.steps import Ante, Fold, Raise, Withdraw
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
    proposes,
    refuse,
)
from dealer_tui.rounds.session import TableSession
from rules.cards import Card
from rules.games.high_card_flush import rules as hcf
from rules.games.high_card_flush import settlement as settle
from rules.games.high_card_flush.profile import HighCardFlushProfile
from rules.profiles.base import ProfileBase
from rules.said import Said, as_said, say, say_in

HAND_CARDS = 7
BANKER = "banker"
START = say("start a round")
"""How starting a round reads in its refusals."""


@dataclass
class Seat:
    seat: int
    name: str
    stack: int
    ante: int = 0
    flush: int = 0
    straight_flush: int = 0
    cards: tuple[Card, ...] = ()
    raised: int | None = None  # None: not acted; 0: folded

    @property
    def playing(self) -> bool:
        return self.ante > 0


class HighCardFlushRound(Round):
    game_id = "high-card-flush"
    FLAGS = {"dead_hands": "a hand was dead: the DP could not cover it (HCF-16)",
             "over_cap_raise": "a keyed raise was over the cap (High Card Flush, live table)"}
    FLAG_WORDS = {"dead_hands": say_in("flag", "dead_hands"), "over_cap_raise": say_in("flag", "over_cap_raise")}
    BET_STEP = Ante
    UNDOABLE = {AntePlaced: Said.literal("ante"), AnteWithdrawn: Said.literal("taking back of the bets"),
                PlayerActed: Said.literal("raise or fold")}
    """The steps the dealer may take back; `undo_label` says each whole, as one sentence."""
    profile: HighCardFlushProfile

    def __init__(self, profile: ProfileBase, setup: Mapping[str, Any]) -> None:
        assert isinstance(profile, HighCardFlushProfile)
        super().__init__(profile, setup)
        self.table_seats: int = setup["seats"]
        self.banker: int | None = setup["banker"]
        self.banker_stack: int | None = setup.get("banker_stack")
        self.button: int | None = setup["button"]
        self.seats: dict[int, Seat] = {int(s): Seat(int(s), p["name"], p["stack"]) for s, p in setup["players"].items()}
        self.banker_cards: tuple[Card, ...] = ()
        self.revealed = False
        self.settlement: settle.Settlement | None = None
        self._phase = Phase.ANTE

    @classmethod
    def setup_from(cls, session: TableSession, profile: ProfileBase, **choices: Any) -> dict[str, Any]:
        assert isinstance(profile, HighCardFlushProfile)
        problem = cls.start_problem(session, profile)
        if problem is not None:
            raise refuse(None, START, problem)
        stacks = session.stacks()
        banker = None
        declined = [int(s) for s in choices.get("declined", ())]
        if profile.banker == "designated_player":
            banker = hcf.next_designated_player(session.seat_count, session.banker, stacks,
                                                profile.dp_min_bank, declined)
            if banker is None:
                raise refuse(None, START, say("no seat will bank (a Designated Player needs {chips} chips and must "
                                              "accept, HCF-18)", chips=profile.dp_min_bank))
        players = {seat: p for seat, p in session.playing.items() if seat != banker}
        if not players:
            raise refuse(None, START, say("no player is seated"))
        if len(players) > profile.max_players:
            raise refuse(None, START, say("at most {players} players play this table", players=profile.max_players))
        return {
            "seats": session.seat_count, "banker": banker, "button": banker,
            "banker_stack": stacks.get(banker) if banker is not None else None,
            "declined": declined,
            "players": {str(s): {"name": p.name, "stack": p.stack} for s, p in sorted(players.items())},
        }

    @classmethod
    def rotation_problem(cls, profile: ProfileBase, previous: Mapping[str, Any] | None,
                         setup: Mapping[str, Any]) -> Said | None:
        """HCF-18: the bank goes to the next seat clockwise from the last banker that accepts and
        holds the minimum bank."""
        assert isinstance(profile, HighCardFlushProfile)
        if profile.banker != "designated_player" or setup.get("banker") is None:
            return None
        banks = {int(seat): int(p.get("stack", 0)) for seat, p in dict(setup.get("players", {})).items()}
        banker = int(setup["banker"])
        banks[banker] = int(setup.get("banker_stack") or 0)
        last = previous.get("banker") if previous is not None else None
        expected = hcf.next_designated_player(int(setup.get("seats", 7)), last if last is None else int(last), banks,
                                              profile.dp_min_bank, [int(s) for s in setup.get("declined", ())])
        if expected != banker:
            if expected is None:
                return say("seat {seat} banked where HCF-18 gives no seat", seat=banker)
            return say("seat {seat} banked where HCF-18 gives seat {expected}", seat=banker, expected=expected)
        return None

    @classmethod
    def start_problem(cls, session: TableSession, profile: ProfileBase) -> Said | None:
        """Why no round may start whoever banks: nobody plays, or (a Designated Player banks) no
        one plays against the DP."""
        assert isinstance(profile, HighCardFlushProfile)
        if not session.playing:
            return as_said(session.nobody_plays())
        if profile.banker == "designated_player" and len(session.playing) < 2:
            return say("a Designated Player's round needs a player besides the DP: {players} (HCF-18)",
                       players=as_said(session.counted()))
        return None

    @classmethod
    def passed_over(cls, setup: Mapping[str, Any]) -> int:
        return len(setup.get("declined", ()))

    @classmethod
    def next_banker(cls, session: TableSession, profile: ProfileBase, declined: Sequence[int] = ()) -> int | None:
        """The seat the bank is offered to next (HCF-18): clockwise from the last banker, past the
        seats that declined or hold less than the minimum bank. None when the house banks, or when
        no seat can (the round is then refused, `setup_from` says why)."""
        assert isinstance(profile, HighCardFlushProfile)
        if profile.banker != "designated_player":
            return None
        return hcf.next_designated_player(session.seat_count, session.banker, session.stacks(),
                                          profile.dp_min_bank, declined)

    # -- state ------------------------------------------------------------------------------

    def clockwise_from_button(self) -> list[int]:
        """Seats clockwise from the button's left (HCF-5, C-5); by seat when the house deals."""
        start = self.button if self.button is not None else self.table_seats
        ring = [(start + step - 1) % self.table_seats + 1 for step in range(1, self.table_seats + 1)]
        return [s for s in ring if s in self.seats]

    def playing(self) -> list[int]:
        return [s for s in self.clockwise_from_button() if self.seats[s].playing]

    def to_act(self) -> Seat | None:
        return next((self.seats[s] for s in self.playing() if self.seats[s].raised is None), None)

    def on_the_table(self) -> dict[int, int]:
        return {s: self.committed(s) for s in self.playing()}

    def committed(self, seat: int) -> int:
        p = self.seats[seat]
        return p.ante + p.flush + p.straight_flush + (p.raised or 0)

    def flush_length(self, seat: int) -> int:
        return hcf.flush_length_of(self.seats[seat].cards)

    def raise_bounds(self, seat: int) -> tuple[int, int]:
        p = self.seats[seat]
        return hcf.raise_bounds(p.ante, self.flush_length(seat))

    # -- legal steps ------------------------------------------------------------------------

    def repeat_bets(self, earlier: Sequence[Event], seat: int) -> list[Step]:
        """HCF-4: the seat's Ante and bonus bets as they stood when that round's antes closed."""
        placed: AntePlaced | None = None
        for e in self.effective_events(earlier):
            if isinstance(e, AntePlaced) and e.seat == seat:
                placed = e
            elif isinstance(e, AnteWithdrawn) and e.seat == seat:
                placed = None
        if placed is None:
            return []
        return [Ante(seat=seat, amount=placed.ante, flush=placed.flush, straight_flush=placed.straight_flush)]

    def undo_label(self) -> Said | None:
        last = self.undoable()
        if isinstance(last, PlayerActed):
            if last.raised:
                return say("seat {seat}'s raise of {amount}", seat=last.seat, amount=last.raised)
            return say("seat {seat}'s fold", seat=last.seat)
        if isinstance(last, AntePlaced):
            return say("seat {seat}'s ante", seat=last.seat)
        if isinstance(last, AnteWithdrawn):
            return say("seat {seat}'s taking back of the bets", seat=last.seat)
        return None

    def _legal_steps(self) -> list[LegalStep]:
        specs: list[LegalStep] = []
        if self._phase is Phase.ANTE:
            limits = self.profile.limits.ante
            for s in self.clockwise_from_button():
                p = self.seats[s]
                if not p.playing and hcf.can_post(p.stack, limits.min):
                    most = min(limits.max, p.stack // 4)  # HCF-4: Ante + 3x Ante must be covered
                    specs.append(LegalStep(Ante, s, limits.min, most, f"Seat {s}: ante"))
                elif p.playing:
                    specs.append(LegalStep(Withdraw, s, label=f"Seat {s}: take back the bets"))
            if self.playing():
                specs.append(LegalStep(Deal, None, label="Deal seven cards each",
                                        needs_cards=self._deal_request()))
        elif self._phase is Phase.ACT:
            acting = self.to_act()
            if acting is not None:
                p = acting
                low, high = self.raise_bounds(p.seat)
                specs += [LegalStep(Raise, p.seat, low, high, f"Seat {p.seat}: raise {low}–{high}"),
                          LegalStep(Fold, p.seat, label=f"Seat {p.seat}: fold")]
        elif self._phase is Phase.REVEAL:
            specs.append(LegalStep(Reveal, None, label="Reveal the banker's hand"))
        elif self._phase is Phase.PAYOUT:
            specs.append(LegalStep(ConfirmPayout, None, label="Confirm the payout"))
        if self._may_void():
            specs.append(LegalStep(Void, None, label="Misdeal: void the round"))
        return specs

    def _may_void(self) -> bool:
        """HCF-19: a misdeal voids the round before anyone acts."""
        acted = any(p.raised is not None for p in self.seats.values())
        return self._phase in (Phase.ANTE, Phase.ACT) and not acted

    def _deal_request(self) -> CardRequest:
        hands = [(f"seat {s}", HAND_CARDS) for s in self.playing()]
        return CardRequest("deal", (*hands, (BANKER, HAND_CARDS)))

    # -- proposing --------------------------------------------------------------------------

    def _why_not(self, action: Step) -> Said:
        if isinstance(action, Void):
            return say("a misdeal is declared before anyone acts (HCF-19)")
        if self._phase is Phase.ACT and (p := self.to_act()) is not None:
            return say("it is seat {seat}'s turn", seat=p.seat)
        if isinstance(action, Ante) and action.seat in self.seats and self.seats[action.seat].playing:
            return say("the seat has already put its ante")
        if isinstance(action, Ante) and action.seat is not None and action.seat == self.banker:
            return say("the seat banks this round as the Designated Player: the others ante against it")
        if isinstance(action, Ante) and action.seat not in self.seats:
            return say("the seat is not playing this round")
        if self._phase is Phase.ANTE and isinstance(action, Deal) and not self.playing():
            return say("no ante is placed yet: pick a seat (its number), then a antes it")
        if self._phase is Phase.ANTE and isinstance(action, Ante) and action.seat in self.seats:
            low = self.profile.limits.ante.min
            return say("the seat holds {stack} chips; an Ante of {ante} needs {need} (Ante + 3x Ante, HCF-4)",
                       stack=self.seats[action.seat].stack, ante=low, need=hcf.chips_to_post(low, 0, 0))
        return as_said(super()._why_not(action))

    @proposes(Ante)
    def _propose_ante(self, a: Ante) -> list[Event]:
        seat = a.seat or 0
        p = self.seats[seat]
        ante = a.amount or 0
        flush, sf = a.flush, a.straight_flush
        limits = self.profile.limits
        if not limits.ante.contains(ante):
            raise refuse(seat, say("ante {amount}", amount=ante), say("the ante must be within the table limits "
                                                                      "{low}–{high}", low=limits.ante.min,
                                                                      high=limits.ante.max))
        for name, amount, rng in ((settle.FLUSH_BET, flush, limits.flush),
                                  (settle.STRAIGHT_FLUSH_BET, sf, limits.straight_flush)):
            if amount and not rng.contains(amount):
                raise refuse(seat, say("bet {amount} on the {bet}", amount=amount, bet=name),
                             say("the {bet} must be within {low}–{high}", bet=name, low=rng.min, high=rng.max))
        need = hcf.chips_to_post(ante, flush, sf)
        if p.stack < need:
            raise refuse(seat, say("ante {amount}", amount=ante), say("the seat holds {stack} chips; Ante + bonus bets "
                                                                      "+ 3× Ante = {need} must be covered (HCF-4)",
                                                                      stack=p.stack, need=need))
        return [AntePlaced(seat=seat, ante=ante, flush=flush, straight_flush=sf)]

    @proposes(Withdraw)
    def _propose_withdraw(self, a: Withdraw) -> list[Event]:
        return [AnteWithdrawn(seat=a.seat or 0)]

    @proposes(Deal)
    def _propose_deal(self, a: Deal) -> list[Event]:
        return [CardsDealt(hands=self.dealt_cards(a, self._deal_request(), "HCF-19"))]

    @proposes(Raise)
    def _propose_raise(self, a: Raise) -> list[Event]:
        seat, amount = a.seat or 0, a.amount or 0
        p = self.seats[seat]
        hcf.verify_raise(p.ante, amount, self.flush_length(seat), seat)
        return [PlayerActed(seat=seat, raised=amount)]

    @proposes(Fold)
    def _propose_fold(self, a: Fold) -> list[Event]:
        return [PlayerActed(seat=a.seat or 0, raised=0)]

    @proposes(Reveal)
    def _propose_reveal(self, a: Reveal) -> list[Event]:
        return [BankerRevealed(cards=self.banker_cards)]

    # -- folding ----------------------------------------------------------------------------

    @on(AntePlaced)
    def _on_ante_placed(self, e: AntePlaced) -> None:
        seat = self.seats[e.seat]
        seat.ante, seat.flush, seat.straight_flush = e.ante, e.flush, e.straight_flush

    @on(AnteWithdrawn)
    def _on_ante_withdrawn(self, e: AnteWithdrawn) -> None:
        seat = self.seats[e.seat]
        seat.ante = seat.flush = seat.straight_flush = 0

    @on(CardsDealt)
    def _on_cards_dealt(self, e: CardsDealt) -> None:
        for label, cards in e.hands.items():
            if label == BANKER:
                self.banker_cards = cards
            else:
                self.seats[int(label.split()[1])].cards = cards
        self._phase = Phase.ACT

    @on(PlayerActed)
    def _on_player_acted(self, e: PlayerActed) -> None:
        self.seats[e.seat].raised = e.raised
        if self.to_act() is None:
            self._phase = Phase.REVEAL

    @on(BankerRevealed)
    def _on_banker_revealed(self, e: BankerRevealed) -> None:
        self.revealed = True
        hands = [settle.PlayerHand(s.seat, s.ante, s.raised or 0, s.flush, s.straight_flush, s.cards)
                 for s in (self.seats[n] for n in self.playing())]
        banker = settle.BankerHand(self.banker_cards, self.banker, self.banker_stack)
        self.settlement = settle.settle(self.profile, self.table_seats, banker, hands)
        self._phase = Phase.PAYOUT


    # -- outcome ----------------------------------------------------------------------------

    def settlement_order(self) -> tuple[int, ...]:
        """HCF-10: the folded hands, collected as they folded, then the raised hands from the seat
        to the right of the button counter-clockwise (by seat under the casino profile), then the
        DP's bank."""
        s = self.settlement
        if s is None:
            return ()
        folded = [e.seat for e in self.events if isinstance(e, PlayerActed) and e.raised == 0]  # in folding order
        settled = [seat for seat in s.order if seat != s.banker.seat and seat not in folded]
        folded += [r.seat for r in s.players if r.seat not in settled and r.seat not in folded
                   and r.seat != s.banker.seat]  # a hand that never acted
        return (*folded, *settled, *(() if s.banker.seat is None else (s.banker.seat,)))

    def outcome(self) -> RoundOutcome | None:
        s = self.settlement
        if s is None:
            return None
        rows: list[SettlementRow] = []
        changes: dict[int, int] = {}
        for result in s.players:
            for name, bet in zip(settle.BET_NAMES, result.bets, strict=True):
                if bet.stake or bet.result:
                    rows.append(SettlementRow(result.seat, name, bet.stake, bet.result, bet.reason))
            if result.rake:
                rows.append(SettlementRow(result.seat, "rake", result.rake, -result.rake, say("House rake per hand (HCF-17)")))
            changes[result.seat] = result.net
        house = s.house_rake
        if s.banker.seat is not None:
            rows.append(SettlementRow(s.banker.seat, "bank", 0, s.banker.net + s.banker.rake, s.banker.reason))
            if s.banker.rake:
                rows.append(SettlementRow(s.banker.seat, "rake", s.banker.rake, -s.banker.rake,
                                          say("House rake per hand, from what the DP holds (HCF-17)")))
            changes[s.banker.seat] = s.banker.net
        else:
            house = s.banker.net
        flags = set()
        if any(r.dead for r in s.players):
            flags.add("dead_hands")
        if any("cut by" in bet.reason for r in s.players for bet in r.bets):
            flags.add("capped")
        return RoundOutcome(tuple(rows), changes, house, frozenset(flags))
