"""Chinese Poker round (docs/rules.md CP-1..CP-15): four hands of 13 dealt, each player sets three rows
(or takes the suggested setting), may declare a natural, and locks; the dealer opens the rows and
verifies naturals; points are scored pair by pair and paid under table stakes from the button.

Rulings made here:
- CP-15: the button moves clockwise each hand to the next player who has played a hand at this
  table; when every player is new (a table's first hand: the lowest seat) it moves among them all.
- A seated player with no chips sits the hand out (table stakes, CP-13: they could win nothing).
- Rows keyed at the terminal must be exactly 3/5/5 of the seat's 13 cards: a wrong count is an
  entry error refused at once, so a hand fouls only by its row order (CP-3, CP-4).
- A natural is declared on the seat's 13 cards (CP-9): the rows need not be set, nor show it.
  The round records rows that display it — the rows named or set, when they do, else a split the
  terminal finds — and they stay fixed until the natural is withdrawn.
- The house fee (profile) is taken by the settlement, as `rules.games.chinese_poker.payments` does;
  nothing is staked, so the `points` and `fee` rows carry no stake.
- A round records the docs/rules.md revision it is played under (`rules_revision` in its setup); a
  round recorded without one was played under revision 1 and is settled, and re-settled from the
  ledger, by revision 1 (pair-by-pair table stakes; a natural paid only its points by a foul).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from dealer_tui.events import Event, on
from dealer_tui.games.chinese_poker.events import (
    CardsDealt,
    NaturalDeclared,
    NaturalWithdrawn,
    OpenedRows,
    RowsLocked,
    RowsOpened,
    RowsSet,
    RowsUnlocked,
)
from dealer_tui.games.chinese_poker.rows import (
    RowStatus,
    dealt_rows,
    in_playing_order,
    row_text,
    rows_data,
)
from dealer_tui.games.chinese_poker.steps import (
    DeclareNatural,
    Lock,
    NamedRows,
    SetRows,
    Suggest,
    Unlock,
    WithdrawNatural,
)
from dealer_tui.language import N_
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
from dealer_tui.rounds.session import SeatedPlayer, TableSession
from rules.cards import Card, parse_cards
from rules.errors import BadCards, IllegalAction
from rules.games.chinese_poker import rules as cp
from rules.games.chinese_poker.naturals import Natural, rows_showing, shows
from rules.games.chinese_poker.payments import (
    MoneySettlement,
    PairSettlement,
    buy_decision,
    clockwise_from,
    debts_of,
    dues_of,
    pay_table_stakes,
    pay_table_stakes_revision_1,
)
from rules.games.chinese_poker.profile import ChinesePokerProfile
from rules.profiles.base import ProfileBase
from rules.said import Said, joined, say

if TYPE_CHECKING:
    from rules.games.chinese_poker.setting import Suggestion

HANDS_DEALT = 4  # CP-1
HAND_CARDS = 13
SEAT_STEPS = (SetRows, Suggest, DeclareNatural, WithdrawNatural, Lock, Unlock)


@dataclass
class Seat:
    seat: int
    name: str
    stack: int
    cards: tuple[Card, ...] = ()
    rows: cp.SetHand | None = None
    suggested: bool = False
    natural: Natural | None = None  # declared (CP-9)
    locked: bool = False


def next_button(session: TableSession, players: Mapping[int, SeatedPlayer]) -> int:
    """CP-15: clockwise from the last button to the next player who has played a hand here."""
    veterans = [s for s, p in players.items() if p.joined_round < session.rounds_started]
    return clockwise_from(session.button or 0, veterans or players)[0]


_SUGGESTED: dict[tuple[tuple[Card, ...], int], tuple[ChinesePokerProfile, Suggestion]] = {}


def suggestion_for(cards: tuple[Card, ...], profile: ChinesePokerProfile) -> Suggestion:
    """`suggest`, remembered for the hands of the last few rounds (a replayed round asks again)."""
    known = _SUGGESTED.get((cards, id(profile)))
    if known is None or known[0] is not profile:
        if len(_SUGGESTED) >= 256:
            _SUGGESTED.clear()
        from rules.games.chinese_poker.setting import suggest  # NumPy: at the first one

        known = _SUGGESTED[(cards, id(profile))] = (profile, suggest(cards, profile))
    return known[1]


def natural_declared(seat: int, natural: Natural, hand: cp.SetHand) -> NaturalDeclared:
    """The seat's natural declared with rows that display it, as the round records them (C-7 order)."""
    rows = in_playing_order(hand)
    return NaturalDeclared(seat=seat, natural=natural.value, front=rows.front, middle=rows.middle, back=rows.back)


def rows_named(a: NamedRows, seat: int, what: Said) -> cp.SetHand | None:
    """The rows a step names (front, middle, back) with 3/5/5 cards (CP-2), or None if it names none."""
    named = a.rows()
    if all(text is None for text in named.values()):
        return None
    rows: list[tuple[Card, ...]] = []
    for name, word, size in zip(cp.ROWS, cp.ROW_WORDS, cp.ROW_SIZES, strict=True):
        text = named[name]
        if not isinstance(text, str):
            raise refuse(seat, what, say("the {row} row is missing", row=word))
        try:
            rows.append(parse_cards(text, distinct=False))
        except BadCards as exc:
            raise refuse(seat, what, say("{row}: {problem}", row=word, problem=exc.said)) from None
        if len(rows[-1]) != size:
            raise refuse(seat, what, say("the {row} row needs {size} cards, got {count} (CP-2)", row=word, size=size,
                                         count=len(rows[-1])))
    return cp.SetHand(rows[0], rows[1], rows[2])


class ChinesePokerRound(Round):
    game_id = "chinese-poker"
    VERBS: ClassVar[Mapping[type[Step], Said]] = {Reveal: say("open the rows")}
    profile: ChinesePokerProfile

    PHASE_TRACK = ((Phase.DEAL.label, frozenset({Phase.ANTE, Phase.DEAL})), (N_("SET ROWS"), frozenset({Phase.ACT})),
                   (Phase.REVEAL.label, frozenset({Phase.REVEAL})), (Phase.PAYOUT.label, frozenset({Phase.PAYOUT})))
    """CP-1, CP-2: no antes; the hands are dealt, the rows set, then opened."""

    def __init__(self, profile: ProfileBase, setup: Mapping[str, Any]) -> None:
        assert isinstance(profile, ChinesePokerProfile)
        super().__init__(profile, setup)
        self.button: int = setup["button"]
        self.revision: int = int(setup.get("rules_revision", 1))  # rounds recorded before it: 1
        self.seats = {int(s): Seat(int(s), p["name"], p["stack"]) for s, p in setup["players"].items()}
        self.dead_hands: dict[str, tuple[Card, ...]] = {}
        self.terms = cp.ScoringTerms.of(profile, revision=self.revision)
        self.score: cp.TableScore | None = None
        self.money: MoneySettlement | PairSettlement | None = None
        self._phase = Phase.ANTE

    RULES_REVISION = cp.RULES_REVISION

    @property
    def rules_revision(self) -> int | None:
        return self.revision

    @classmethod
    def buy_rule(cls, profile: ProfileBase, history: Sequence[int], amount: int) -> tuple[Said | None, bool]:
        """CP-12: a full buy, or one short buy after each full buy."""
        assert isinstance(profile, ChinesePokerProfile)
        decision = buy_decision(history, amount, profile)
        return (None if decision.allowed else decision.reason), not decision.full

    @classmethod
    def setup_from(cls, session: TableSession, profile: ProfileBase, **choices: Any) -> dict[str, Any]:
        assert isinstance(profile, ChinesePokerProfile)
        players = {s: p for s, p in session.playing.items() if p.stack > 0}
        low, high = profile.min_players, profile.max_players
        if not low <= len(players) <= high:
            away = len(session.players) - len(session.playing)
            if away:
                why = say("Chinese Poker needs {low} to {high} players with chips; the table has {count} "
                          "({away} sitting out)", low=low, high=high, count=len(players), away=away)
            else:
                why = say("Chinese Poker needs {low} to {high} players with chips; the table has {count}", low=low,
                          high=high, count=len(players))
            raise refuse(None, say("start a round"), why)
        return {"seats": session.seat_count, "button": next_button(session, players),
                "rules_revision": cp.RULES_REVISION,
                "players": {str(s): {"name": p.name, "stack": p.stack} for s, p in players.items()}}

    # -- state ------------------------------------------------------------------------------

    def order(self) -> tuple[int, ...]:
        """The players clockwise from the button, the button last (C-5, CP-13)."""
        return clockwise_from(self.button, self.seats)

    def suggestion(self, seat: int) -> Suggestion:
        """The setting helper's choice for the seat's 13 cards, and the natural they hold."""
        return suggestion_for(self.seats[seat].cards, self.profile)

    def foul(self, seat: int) -> Said | None:
        """Why the seat's rows foul now; a declared natural's row order is not checked (CP-9)."""
        p = self.seats[seat]
        return None if p.rows is None or p.natural is not None else cp.foul_reason(p.rows)

    def row_status(self, seat: int) -> RowStatus:
        p = self.seats[seat]
        held = self.suggestion(seat).natural if p.cards else None
        rows, names = None, None
        if p.rows is not None:
            f, m, b = (row_text(r) for r in p.rows.rows)
            rows = (f, m, b)
            names = cp.judge(seat, p.rows, self.terms).row_names
        return RowStatus(seat, rows, names, self.foul(seat), None if held is None else held.value,
                         None if p.natural is None else p.natural.value, p.suggested, p.locked)

    def waiting(self) -> list[int]:
        return [s for s in self.order() if not self.seats[s].locked]

    # -- legal steps ------------------------------------------------------------------------

    def _legal_steps(self) -> list[LegalStep]:
        specs: list[LegalStep] = []
        if self._phase is Phase.ANTE:
            specs.append(LegalStep(Deal, None, label="Deal four hands of 13 (CP-1)",
                                    needs_cards=self._deal_request()))
        elif self._phase in (Phase.ACT, Phase.REVEAL):
            for seat in self.order():
                specs += self._seat_steps(self.seats[seat])
            if self._phase is Phase.REVEAL:
                specs.append(LegalStep(Reveal, None, label="Open the rows and verify naturals (CP-14)"))
        elif self._phase is Phase.PAYOUT:
            specs.append(LegalStep(ConfirmPayout, None, label="Confirm the payout"))
        if self._phase in (Phase.ANTE, Phase.ACT, Phase.REVEAL):
            specs.append(LegalStep(Void, None, label="Misdeal: void the round (CP-11)"))
        return specs

    def _seat_steps(self, p: Seat) -> list[LegalStep]:
        n = p.seat
        if p.locked:
            return [LegalStep(Unlock, n, label=f"Seat {n}: unlock the rows")]
        if p.natural is None:
            specs = self._setting_specs(p)
        else:
            specs = [LegalStep(WithdrawNatural, n, label=f"Seat {n}: withdraw {p.natural.value}")]
        if p.rows is not None:
            foul = self.foul(n)
            label = f"Seat {n}: lock the FOULED rows ({foul})" if foul else f"Seat {n}: lock the rows"
            specs.append(LegalStep(Lock, n, label=label, data={"confirm_foul": True} if foul else {}))
        return specs

    def _setting_specs(self, p: Seat) -> list[LegalStep]:
        """Setting the rows of a seat with no natural declared: by hand, the suggestion, a natural held."""
        n = p.seat
        specs = [LegalStep(SetRows, n, label=f"Seat {n}: set the rows (3/5/5 of its 13 cards)",
                            data=rows_data(p.rows or dealt_rows(p.cards))),
                 LegalStep(Suggest, n, label=f"Seat {n}: take the suggested setting")]
        held = self.suggestion(n)
        if held.natural is not None:
            specs.append(LegalStep(DeclareNatural, n, label=f"Seat {n}: declare {held.natural.value} (CP-9)",
                                    data=rows_data(self.natural_rows(p, held.natural, p.rows))))
        return specs

    def natural_rows(self, p: Seat, natural: Natural, rows: cp.SetHand | None) -> cp.SetHand:
        """Rows that display the seat's natural (CP-9): `rows` when they do, else a split found."""
        if rows is not None and shows(natural, rows.rows):
            return rows
        held = self.suggestion(p.seat)
        if held.natural is natural and held.natural_hand is not None:
            return held.natural_hand
        found = rows_showing(p.cards, natural)
        assert found is not None
        return cp.SetHand(*found)

    def _deal_request(self) -> CardRequest:
        hands = [(f"seat {s}", HAND_CARDS) for s in self.order()]
        dead = [(f"dead {i}", HAND_CARDS) for i in range(1, HANDS_DEALT - len(hands) + 1)]
        return CardRequest("deal", (*hands, *dead))

    # -- proposing --------------------------------------------------------------------------

    def _why_not(self, a: Step) -> str:
        seat = a.seat
        if isinstance(a, SEAT_STEPS) and self._phase in (Phase.ACT, Phase.REVEAL):
            if seat not in self.seats:
                return say("pick the seat first (its number)") if seat is None else say(
                    "the seat is not playing this hand")
            p = self.seats[seat]
            if p.locked:
                return say("seat {seat} has locked its rows: unlock them first", seat=seat)
            if isinstance(a, Unlock):
                return say("the rows are not locked")
            if isinstance(a, WithdrawNatural):
                return say("no natural is declared")
            if p.natural is not None:
                return say("seat {seat} has declared {natural}: withdraw it first (CP-9)", seat=seat,
                           natural=p.natural.said)
            if isinstance(a, DeclareNatural):
                hand = self._rows_of(a, p, DeclareNatural.VERB) or p.rows or dealt_rows(p.cards)
                try:
                    cp.declared_natural(seat, hand, self.revision)
                except IllegalAction as exc:
                    return exc.said
            if isinstance(a, Lock):
                return say("the rows are not set yet")
        if isinstance(a, Reveal) and self._phase is Phase.ACT:
            waiting = self.waiting()
            if len(waiting) == 1:
                return say("seat {seat} has not locked the rows", seat=waiting[0])
            return say("seat {seats} have not locked the rows", seats=", ".join(str(s) for s in waiting))
        if isinstance(a, Void) and self._phase is Phase.PAYOUT:
            return say("the rows are open and the payout computed: a misdeal voids the round before that (CP-11)")
        if isinstance(a, Deal) and self._phase is not Phase.ANTE:
            return say("the cards are already dealt")
        return super()._why_not(a)

    @proposes(Deal)
    def _propose_deal(self, a: Deal) -> list[Event]:
        return [CardsDealt(hands=self.dealt_cards(a, self._deal_request(), "CP-11"))]

    def _rows_of(self, a: NamedRows, p: Seat, what: Said) -> cp.SetHand | None:
        """The rows a step names (front, middle, back): exactly 3/5/5 of the seat's 13 cards."""
        hand = rows_named(a, p.seat, what)
        if hand is None:
            return None
        stray = [c.text for c in hand.cards if c not in p.cards]
        if stray:
            raise refuse(p.seat, what, say("seat {seat} does not hold {cards}", seat=p.seat, cards=" ".join(stray)))
        twice = [c.text for i, c in enumerate(hand.cards) if c in hand.cards[:i]]
        if twice:
            raise refuse(p.seat, what, say("{card} is set twice", card=twice[0]))
        return hand

    @proposes(SetRows)
    def _propose_set_rows(self, a: SetRows) -> list[Event]:
        p = self.seats[a.seat or 0]
        hand = self._rows_of(a, p, SetRows.VERB)
        if hand is None:
            raise refuse(p.seat, SetRows.VERB, say("name the front, middle and back rows"))
        rows = in_playing_order(hand)
        return [RowsSet(seat=p.seat, front=rows.front, middle=rows.middle, back=rows.back, suggested=False)]

    @proposes(Suggest)
    def _propose_suggest(self, a: Suggest) -> list[Event]:
        p = self.seats[a.seat or 0]
        s = self.suggestion(p.seat)
        rows = in_playing_order(s.hand)
        return [RowsSet(seat=p.seat, front=rows.front, middle=rows.middle, back=rows.back, suggested=True,
                        reason=s.reason)]

    @proposes(DeclareNatural)
    def _propose_declare_natural(self, a: DeclareNatural) -> list[Event]:
        """CP-9: the natural of the seat's 13 cards, recorded with rows that display it."""
        p = self.seats[a.seat or 0]
        named = self._rows_of(a, p, DeclareNatural.VERB) or p.rows
        try:
            natural = cp.declared_natural(p.seat, named or dealt_rows(p.cards), self.revision)
        except IllegalAction as exc:
            raise refuse(p.seat, DeclareNatural.VERB, exc.said) from None
        return [natural_declared(p.seat, natural, self.natural_rows(p, natural, named))]

    @proposes(WithdrawNatural)
    def _propose_withdraw_natural(self, a: WithdrawNatural) -> list[Event]:
        return [NaturalWithdrawn(seat=a.seat or 0)]

    @proposes(Lock)
    def _propose_lock(self, a: Lock) -> list[Event]:
        p = self.seats[a.seat or 0]
        foul = self.foul(p.seat)
        if foul is not None and not a.confirm_foul:
            raise refuse(p.seat, Lock.VERB, say("the rows are fouled: {foul} (CP-4); confirm the foul to lock them "
                                                "anyway (the seat then pays every opponent, CP-8)", foul=foul))
        return [RowsLocked(seat=p.seat, fouled=foul is not None, foul=foul,
                           natural=None if p.natural is None else p.natural.value)]

    @proposes(Unlock)
    def _propose_unlock(self, a: Unlock) -> list[Event]:
        return [RowsUnlocked(seat=a.seat or 0)]

    @proposes(Reveal)
    def _propose_reveal(self, a: Reveal) -> list[Event]:
        hands: dict[str, OpenedRows] = {}
        verified: list[Said] = []
        for seat in self.order():
            p = self.seats[seat]
            assert p.rows is not None
            if p.natural is not None:  # CP-14: the dealer opens and verifies a declared natural
                natural = cp.declared_natural(seat, p.rows, self.revision)
                verified.append(say("seat {seat}: {natural} verified (CP-14)", seat=seat, natural=natural.said))
            rows = in_playing_order(p.rows)
            hands[str(seat)] = OpenedRows(front=rows.front, middle=rows.middle, back=rows.back,
                                          natural=None if p.natural is None else p.natural.value,
                                          foul=self.foul(seat))
        return [RowsOpened(hands=hands, verified=tuple(verified))]

    # -- folding ----------------------------------------------------------------------------

    @on(CardsDealt)
    def _on_cards_dealt(self, e: CardsDealt) -> None:
        for label, cards in e.hands.items():
            if label.startswith("seat "):
                self.seats[int(label.split()[1])].cards = cards
            else:
                self.dead_hands[label] = cards
        self._phase = Phase.ACT

    @on(RowsSet)
    def _on_rows_set(self, e: RowsSet) -> None:
        seat = self.seats[e.seat]
        seat.rows, seat.suggested = e.hand, e.suggested

    @on(NaturalDeclared)
    def _on_natural_declared(self, e: NaturalDeclared) -> None:
        seat = self.seats[e.seat]
        seat.rows, seat.natural, seat.suggested = e.hand, e.declared, False

    @on(NaturalWithdrawn)
    def _on_natural_withdrawn(self, e: NaturalWithdrawn) -> None:
        self.seats[e.seat].natural = None

    @on(RowsLocked)
    def _on_rows_locked(self, e: RowsLocked) -> None:
        self.seats[e.seat].locked = True
        if not self.waiting():
            self._phase = Phase.REVEAL

    @on(RowsUnlocked)
    def _on_rows_unlocked(self, e: RowsUnlocked) -> None:
        self.seats[e.seat].locked = False
        self._phase = Phase.ACT

    @on(RowsOpened)
    def _on_rows_opened(self, e: RowsOpened) -> None:
        hands = []
        for seat in sorted(self.seats):
            s = self.seats[seat]
            assert s.rows is not None
            hands.append(cp.judge(seat, s.rows, self.terms, declares_natural=s.natural is not None))
        self.score = cp.score_table(hands, self.terms)
        stacks = {seat: s.stack for seat, s in self.seats.items()}
        value, fee = self.profile.point_value, self.profile.house_fee
        if self.revision >= 2:
            self.money = pay_table_stakes(stacks, dues_of(self.score.points, value), self.button, fee)
        else:
            owed = debts_of(self.score.pairs, value)
            self.money = pay_table_stakes_revision_1(stacks, owed, self.button, fee)
        self._phase = Phase.PAYOUT


    # -- outcome ----------------------------------------------------------------------------

    def outcome(self) -> RoundOutcome | None:
        score, money = self.score, self.money
        if score is None or money is None:
            return None
        rows: list[SettlementRow] = []
        for seat in sorted(self.seats):
            fee = money.fees[seat]
            rows.append(SettlementRow(seat, "points", 0, money.nets[seat] + fee, self._points_reason(seat)))
            if fee:
                rows.append(SettlementRow(seat, "fee", 0, -fee, say("House fee per player per hand: {fee}", fee=fee)))
        flags = frozenset({"capped"}) if money.unpaid else frozenset()
        return RoundOutcome(tuple(rows), dict(money.nets), money.house_fees, flags)

    def payments(self) -> tuple[Said, ...]:
        """CP-13 step 4: each loser's chips to the winners, clockwise from the button."""
        return tuple(m.reason for m in self.money.payments) if self.money is not None else ()

    def _points_reason(self, seat: int) -> Said:
        """Points pair by pair, then who pays whom on the nets from the button (CP-5..CP-13)."""
        assert self.score is not None and self.money is not None
        points, value = self.score.points[seat], self.profile.point_value
        pairs = joined([say("{points:+d} against seat {seat} — {reason}",  # its own side first
                            points=p.points if p.seats[0] == seat else -p.points,
                            seat=p.seats[1] if p.seats[0] == seat else p.seats[0], reason=p.reason)
                        for p in self.score.pairs if seat in p.seats], "; ")
        head = say("{points:+d} points × {value} = {chips:+d} ({pairs})", points=points, value=value,
                   chips=points * value, pairs=pairs)
        moves = [say("received {amount} from seat {seat}", amount=m.amount, seat=m.payer) if m.receiver == seat
                 else say("paid seat {seat} {amount}", seat=m.receiver, amount=m.amount)
                 for m in self.money.payments if seat in (m.payer, m.receiver)]
        chips = self.money.nets[seat] + self.money.fees[seat]
        money = self.money
        if isinstance(money, PairSettlement):  # revision 1: pair by pair, as such rounds recorded it
            moves += [m.reason for m in money.unpaid if seat in (m.payer, m.receiver)]
            if not moves:
                return head
            return say("{head}; {moves} = {chips:+d}", head=head, moves=joined(moves, ", "), chips=chips)
        stake = money.stakes[seat]
        if stake.short:
            moves.append(stake.reason)
        if not stake.due:
            moves.append(say("a net of 0 moves no chips"))
        return say("{head}; on the nets (CP-13): {moves} = {chips:+d}", head=head, moves=joined(moves, ", "),
                   chips=chips)
