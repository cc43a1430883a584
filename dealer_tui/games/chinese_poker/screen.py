"""Chinese Poker round screen: the deal, each seat's rows (set by hand or suggested), naturals,
locks with the foul confirmed, the reveal and the payments."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType

from dealer_tui.games.chinese_poker.live_round import ChinesePokerKeyedRound
from dealer_tui.games.chinese_poker.round import ChinesePokerRound
from dealer_tui.games.chinese_poker.rows import hand_named, natural_named, rows_from_data
from dealer_tui.games.chinese_poker.rows_dialog import ROW_NAMES, RowsModal
from dealer_tui.games.chinese_poker.steps import (
    DeclareNatural,
    Lock,
    SetRows,
    Suggest,
    Unlock,
    WithdrawNatural,
)
from dealer_tui.language import N_, _, told
from dealer_tui.rounds.base import LegalStep, Step
from dealer_tui.screens.card_entry_modal import CardEntryModal
from dealer_tui.screens.choice_dialog import ChoiceDialog
from dealer_tui.screens.dialog_step import DialogStep
from dealer_tui.screens.round_screen import RoundScreen
from rules.cards import Card
from rules.games.chinese_poker import rules as cp
from rules.games.chinese_poker.naturals import natural_in

RULES = N_("""Chinese Poker — the rules as played here
CP-1  Four hands of 13 are dealt whatever the number of players.
CP-2  Rows: front 3 cards, middle 5, back 5.  CP-3  Back ≥ middle > front, or the hand fouls (CP-4).
CP-5  Each row won against an opponent +1, lost −1.  CP-6  Scoop (all three): 6 (mandarin), 9 (super).
CP-7  Royalties, paid when the row wins: back SF 5, quads 4; middle SF 10, quads 8, full house 2;
      front trips 3.
CP-8  A foul pays each opponent the foul points plus their royalties, or plus their declared
      natural's points (mandarin: three flushes 6 + 4 = 10, a dragon 6 + 13 = 19); two fouls
      exchange nothing.
CP-9  Naturals, declared before the reveal on the 13 cards (the rows need not show it; the
      terminal shows rows that do): dragon 13; six pairs, three flushes, three straights 4.
CP-13 Table stakes on the nets: a net of 0 moves no chips; a loser pays at most what they hold, a
      winner wins at most their starting stack; losers pay and winners collect in order clockwise
      from the button.""")
"""The rules summary the help screen shows (translated where it is shown)."""


class ChinesePokerScreen(RoundScreen[ChinesePokerRound]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("e", "edit_rows", N_("Set rows")),
        Binding("g", "suggest", N_("Suggest")),
        Binding("n", "declare", N_("Declare natural")),
        Binding("w", "withdraw", N_("Withdraw natural")),
        Binding("k", "lock", N_("Lock")),
        Binding("o", "unlock", N_("Unlock")),
    ]
    KINDS: ClassVar[dict[str, type[Step]]] = {**RoundScreen.KINDS, "edit_rows": SetRows, "suggest": Suggest,
                                             "declare": DeclareNatural, "withdraw": WithdrawNatural,
                                             "lock": Lock, "unlock": Unlock}
    RULES_SUMMARY = RULES
    HOUSE_LABEL = N_("House (fees)")

    _acted_for: int | None = None
    """The seat the last key without a pick acted for (highlighted as picked): the next such key
    moves on from it once it has nothing left to do; a seat the dealer picks is never swapped."""

    def house_label(self) -> str:
        return _(self.HOUSE_LABEL)

    def action_select(self, seat: int) -> None:
        self._acted_for = None  # the dealer's own pick
        super().action_select(seat)

    def _seat_spec(self, kind: type[Step]) -> LegalStep | None:
        """The spec for the seat the dealer picked (one that may not do it is told why, never
        swapped for another seat); else for the seat the last key acted for, while it may; else
        for the first seat still setting."""
        if self.selected is not None and self.selected != self._acted_for:
            return self.spec_for(kind)
        found = self.specs(kind)
        mine = [s for s in found if s.seat == self.selected]
        if mine:
            return mine[0]
        waiting = rnd.waiting() if (rnd := self.round) is not None else []
        return next((s for w in waiting for s in found if s.seat == w), found[0] if found else None)

    def key_seat(self, action: str) -> int | None:
        """A refused key without a seat picked is asked of the seat its step would act for (the
        first still setting its rows), as `e`, `g` and `n` act for it."""
        if self.selected is not None:
            return self.selected
        waiting = rnd.waiting() if (rnd := self.round) is not None else []
        return waiting[0] if waiting else None

    def _do(self, kind: type[Step]) -> None:
        spec = self._seat_spec(kind)
        if spec is not None:
            if spec.seat is not None and self.selected in (None, self._acted_for):
                self.selected = self._acted_for = spec.seat
            self.perform(kind(seat=spec.seat, **spec.data))

    def action_suggest(self) -> None:
        self._do(Suggest)

    def action_declare(self) -> None:
        if self.table.keyed:
            self._key_rows(DeclareNatural)
            return
        self._do(DeclareNatural)

    def action_withdraw(self) -> None:
        self._do(WithdrawNatural)

    def action_unlock(self) -> None:
        self._do(Unlock)

    def action_lock(self) -> None:
        rnd, spec = self.round, self._seat_spec(Lock)
        if rnd is None or spec is None:
            return
        if not spec.data.get("confirm_foul"):
            self._do(Lock)
            return
        seat = spec.seat
        foul = rnd.foul(seat or 0)

        def answered(choice: str | None) -> None:
            if choice == "y":
                self.perform(Lock(seat=seat, confirm_foul=True))

        self.ask(ChoiceDialog(_("Seat {seat}'s rows FOUL ({foul}). Lock them anyway (CP-8)?", seat=seat,
                                foul=told(foul) if foul is not None else ""),
                             [("y", _("yes, the player keeps the fouled set")), ("n", _("no, reset the rows"))]),
                 answered)

    def action_edit_rows(self) -> None:
        if self.table.keyed:
            self._key_rows(SetRows)
            return
        rnd, spec = self.round, self._seat_spec(SetRows)
        if rnd is None or spec is None or spec.seat is None:
            return
        seat = spec.seat
        self.selected = seat
        rows = [list(r) for r in rows_from_data(spec.data).rows]  # the seat's rows now, or as dealt

        def picked(result: dict[str, str] | None) -> None:
            if result:
                self.perform(SetRows(seat=seat, **result))

        held = rnd.suggestion(seat).natural
        self.app.push_screen(RowsModal(seat, rows, lambda: rnd.suggestion(seat).hand.rows, rnd.terms,
                                       None if held is None else natural_named(held.value)), picked)

    def _key_rows(self, kind: type[SetRows | DeclareNatural]) -> None:
        """Live table: the dealer keys the seat's three rows as the player turns them over; the
        rows' hands and a foul show as they are typed (CP-3, CP-4)."""
        rnd, spec = self.round, self._seat_spec(kind)
        if rnd is None or spec is None or spec.seat is None:
            return
        seat = spec.seat
        self.selected = seat
        taken = rnd.taken_cards(seat=seat) if isinstance(rnd, ChinesePokerKeyedRound) else {}

        def row_data(cards: dict[str, tuple[Card, ...]]) -> dict[str, str]:
            return {name: " ".join(c.text for c in cards[name]) for name in ROW_NAMES}

        def status(cards: dict[str, tuple[Card, ...]]) -> Text:
            hand = cp.SetHand(*(cards[name] for name in ROW_NAMES))
            if kind is DeclareNatural:  # CP-9: the 13 cards are judged, whatever their rows
                natural = natural_in(hand.cards) if hand.full_size else None
                if natural is None:
                    return Text(_("no dragon, six pairs, three flushes or three straights in these cards"),
                                style="bold red")
                return Text(_("{natural}: the terminal shows rows that display it", natural=told(natural.said)),
                            style="green")
            judged = cp.judge(seat, hand, rnd.terms)
            names = " / ".join(hand_named(n) if n else "—" for n in judged.row_names)
            if judged.foul:
                return Text(_("{rows} — FOUL: {foul}", rows=names, foul=told(judged.foul)), style="bold red")
            return Text(_("{rows} — rows in order", rows=names), style="green")

        step: DialogStep[dict[str, tuple[Card, ...]]] = DialogStep(self, lambda cards: kind(seat=seat,
                                                                                       **row_data(cards)))
        title = (_("Seat {seat}: key a declared natural's 13 cards, any rows (CP-9) — front 3, middle 5, back 5",
                   seat=seat) if kind is DeclareNatural else
                 _("Seat {seat}: key the rows — front 3, middle 5, back 5", seat=seat))
        values = {name: str(spec.data.get(name, "")) for name in ROW_NAMES}
        self.app.push_screen(CardEntryModal(title,
                                            list(zip(ROW_NAMES, (3, 5, 5), strict=True)), taken, step.check,
                                            status, values), step.answered)
