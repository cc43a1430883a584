"""A live table's money beside its rounds (`Table.money`): the tray across its shifts (the
opener and the closer, fills and credits, each signed by the dealer on duty and witnessed by a
supervisor), colour-ups and time collections, the chips a buy-in is given, and the players' cash
and identification (the currency-transaction threshold). Each step is checked (`check_*`, what the
screens ask before anyone signs) and then recorded on the table's chain."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dealer_tui.events import Event
from dealer_tui.events.accounting import (
    CASH,
    CLOSER,
    MARKER,
    OPENER,
    ChipsColouredUp,
    TrayCounted,
    TrayCredited,
    TrayEvent,
    TrayFilled,
    chips_total,
    tray_figures,
)
from dealer_tui.events.table import PayoutConfirmed, PlayerIdentified, TimeCollected
from dealer_tui.rounds.cash import IN, needs_id
from dealer_tui.rounds.frame import Phase
from dealer_tui.rounds.tray import count_chips, describe_chips, make_up, the_tray_word, tray_word
from dealer_tui.staff import DEAL, TRAY, Approval
from rules.errors import IllegalAction
from rules.said import Said, as_said, joined, say, say_in

if TYPE_CHECKING:
    from dealer_tui.rounds.table import Table

MAX_CARD = 32
"""Characters a loyalty card number may have."""
ID_KINDS = {"passport": "passport", "id-card": "id-card", "identity-card": "id-card", "national-id": "id-card",
            "driving-licence": "driving-licence", "driving-license": "driving-licence",
            "drivers-license": "driving-licence", "residence-permit": "residence-permit",
            # as the card rooms type them (Hungarian, Polish, Russian): recorded as the codes above
            "útlevél": "passport", "személyi": "id-card", "személyi-igazolvány": "id-card",
            "jogosítvány": "driving-licence", "tartózkodási-engedély": "residence-permit",
            "paszport": "passport", "dowód": "id-card", "dowód-osobisty": "id-card", "prawo-jazdy": "driving-licence",
            "karta-pobytu": "residence-permit",
            "паспорт": "passport", "удостоверение": "id-card", "удостоверение-личности": "id-card",
            "права": "driving-licence", "водительское-удостоверение": "driving-licence",
            "вид-на-жительство": "residence-permit"}
"""The ID documents a player may show, as typed and as recorded (the record keeps the English code
whatever language the dealer typed it in)."""
ID_KIND_WORDS = {"passport": say_in("document", "passport"), "id-card": say_in("document", "id-card"),
                 "driving-licence": say_in("document", "driving-licence"),
                 "residence-permit": say_in("document", "residence-permit")}
"""Each kind as a dealer types it, in the reader's language (each translation is one the terminal takes)."""
TRAY_WITNESSED, MARKER_SIGNED = say("the tray is witnessed"), say("a marker is signed")
"""What the dealer on duty may not do themselves (`witness_problem`)."""


@dataclass(frozen=True)
class Marker:
    """A marker (credit) buy-in's paper: its number, and the supervisor who signs it (signed in to
    witness the tray)."""

    number: str
    approval: Approval


class TableMoney:
    """The money steps of a `Table`, recorded on its chain."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def ctr_problem(self, name: str, card: str, seat: int, amount: int, direction: str = IN,
                    document: str = "") -> str | None:
        """Why cash of `amount` in (a buy-in) or out (a cash-out) at this table needs the player's
        ID document first (`cash.needs_id`). None: it does not, the player showed an ID document,
        or the table is a training table (practice chips)."""
        if self.table.session.training:
            return None
        return needs_id(self.table.ledger, name, card, amount, direction, document)

    def check_ctr(self, name: str, card: str, seat: int, amount: int, direction: str = IN,
                   document: str = "") -> None:
        problem = self.ctr_problem(name, card, seat, amount, direction, document)
        if problem is not None:
            raise IllegalAction(say("{problem}; the dealer records their ID document first", problem=as_said(problem)))

    def check_card(self, card: str) -> None:
        """A loyalty card number as the ledger keeps it (`IllegalAction` says why not)."""
        card = card.strip()
        if not card or len(card) > MAX_CARD or not all(c.isascii() and (c.isalnum() or c in "-_.") for c in card):
            raise IllegalAction(say("a loyalty card number is 1 to {most} letters, digits, '-', '_' or '.'", most=MAX_CARD))

    @staticmethod
    def check_document(document: str) -> str:
        """An ID document as the ledger keeps it: its kind and its number (`passport X1234567`,
        `id-card 123456789`), spaces made single (`IllegalAction` says why not)."""
        kind, _, number = " ".join(document.split()).partition(" ")
        kind = ID_KINDS.get(kind.lower(), "")
        if not kind or not (number.isascii() and 5 <= len(number) <= MAX_CARD
                            and all(c.isalnum() or c in "-/." for c in number)
                            and sum(c.isdigit() for c in number) >= 3):
            raise IllegalAction(say("an ID document is its kind ({kinds}) and its number, with at least 3 digits: "
                                    "passport X1234567 (a loyalty card identifies nobody)",
                                    kinds=joined([ID_KIND_WORDS[k] for k in sorted(ID_KIND_WORDS)], ", ")))
        return f"{kind} {number}"

    def identify(self, seat: int, document: str) -> None:
        """The seated player's ID document (kind and number), as the dealer was shown it."""
        player = self.table.session.player(seat)
        document = self.check_document(document)
        if player.document == document:
            raise IllegalAction(say("Seat {seat} is identified by {document} already", seat=seat, document=document))
        self.table._record_table([PlayerIdentified(seat=seat, card=player.card, document=document)])

    def suggested_chips(self, amount: int) -> dict[str, int]:
        """The chips a buy-in of `amount` is given, largest denominations first."""
        return make_up(self.table.profile.profile.chip_set(), amount)

    def check_buy(self, amount: int, method: str, chips: Mapping[str, int] | None) -> dict[str, int]:
        """The chips a buy-in gives, checked now (`IllegalAction` says why not)."""
        return self.chips_sold(amount, method, chips)

    def check_marker(self, number: str) -> None:
        """A marker's number, checked before its supervisor signs (`IllegalAction` says why not)."""
        problem = self.table.tray.marker_problem(number)
        if problem is not None:
            raise IllegalAction(problem.capitalized())

    def marker_fields(self, method: str, marker: Marker | None) -> tuple[str, str, int | None]:
        """What a buy-in records of its marker (its number, the supervisor, their sign-in): nothing
        for cash; for a marker each checked (`IllegalAction` says why not)."""
        if method != MARKER:
            if marker is not None:
                raise IllegalAction(say("a cash buy-in has no marker"))
            return "", "", None
        if marker is None:
            raise IllegalAction(say("A marker buy-in needs the marker's number and a supervisor's signature"))
        self.check_marker(marker.number)
        signer = marker.approval
        if signer.act != TRAY:
            raise IllegalAction(say("A marker is signed by a supervisor signed in to witness the tray"))
        problem = self.witness_account_problem(signer.account, MARKER_SIGNED) or self.table.tray.sign_in_problem(signer.sign_in)
        if problem is not None:
            raise IllegalAction(say("No marker: {problem}", problem=as_said(problem)))
        return marker.number.strip(), signer.account, signer.sign_in

    def chips_sold(self, amount: int, method: str, chips: Mapping[str, int] | None) -> dict[str, int]:
        kept = self.table.tray.kept_problem(say("chips are sold"))
        if kept is not None:
            raise IllegalAction(kept)
        if self.table.tray.shift is not None and self.table.session.dealer is None:
            raise IllegalAction(say("No chips are sold from the tray with no dealer on duty: a dealer signs in first"))
        if method not in (CASH, MARKER):
            raise IllegalAction(say("a buy-in is paid in cash or by marker, not {method}", method=repr(method)))
        chip_set = self.table.profile.profile.chip_set()
        given = self.suggested_chips(amount) if chips is None else count_chips(chip_set, chips, say("the chips given"))
        if chips_total(given) != amount:
            raise IllegalAction(say("the chips given ({chips}) make {total:,}, not the buy-in of {amount:,}",
                                    chips=describe_chips(chip_set, given), total=chips_total(given), amount=amount))
        shift = self.table.tray.shift
        if shift is not None and amount > shift.expected:
            raise IllegalAction(say("the tray holds {held:,} by the shift's records, less than {amount:,}: "
                                    "a fill from the cage first", held=shift.expected, amount=amount))
        return given

    # -- the tray --------------------------------------------------------------------------------

    def _two_signatures(self, dealer: Approval, supervisor: Approval, what: str) -> tuple[str, int, str, int]:
        """The dealer's and the supervisor's signatures of a tray step (`what`: `fill`, `opener` …)."""
        the = the_tray_word(what)
        if dealer.act != DEAL or supervisor.act != TRAY:
            raise IllegalAction(say("{what} is signed by the dealer (signed in to deal) and a supervisor (signed in "
                                    "to witness the tray)", what=the))
        on_duty = self.table.session.dealer
        if on_duty is None:
            raise IllegalAction(say("{what} is signed by the dealer on duty: a dealer signs in first", what=the))
        if on_duty.account != dealer.account:
            raise IllegalAction(say("{what} is signed by the dealer on duty ({account})", what=the,
                                    account=on_duty.account))
        if dealer.account == supervisor.account:
            raise IllegalAction(say("{what} needs two people: the supervisor who witnesses it is not the dealer",
                                    what=the))
        return dealer.account, dealer.sign_in, supervisor.account, supervisor.sign_in

    def _record_signed(self, events: Sequence[Event], what: Said) -> None:
        self.table.check_authority(events, what)
        for event in events:
            if isinstance(event, TrayEvent):
                problem = self.table.tray.sign_in_problem(event.dealer_sign_in, event.sign_in)
                if problem is not None:
                    raise IllegalAction(say("The table may not {action}: {reason}", action=what, reason=problem))
        self.table._record_table(events)

    def check_count(self, count: str, chips: Mapping[str, int]) -> dict[str, int]:
        """The chips an opener or a closer counts, checked now (`IllegalAction` says why not)."""
        self.table._between_rounds(say("count the tray"))
        if count == OPENER:
            problem = self.table.tray.opener_problem()
            if problem is not None:
                raise IllegalAction(say("No opener now: {problem}", problem=problem))
        else:
            self.table.tray.need_shift("closer")
        counted = count_chips(self.table.profile.profile.chip_set(), chips, the_tray_word(count))
        if count == OPENER and not counted:
            raise IllegalAction(say("The opener counts the chips in the tray: none were counted"))
        return counted

    def count_figures(self, count: str, chips: Mapping[str, int]) -> str:
        """What the sign-ins for an opener or a closer of these chips sign (checked first)."""
        return tray_figures(TrayCounted.KIND, self.check_count(count, chips), count)

    def transfer_figures(self, what: str, slip: str, chips: Mapping[str, int]) -> str:
        """What the sign-ins for a fill or a credit on this slip sign (checked first)."""
        kind = TrayFilled if what == "fill" else TrayCredited
        return tray_figures(kind.KIND, self.check_transfer(what, slip, chips), slip.strip())

    def witness_account_problem(self, account: str, step: Said = TRAY_WITNESSED) -> Said | None:
        """Why `account` may not witness the tray (the dealer on duty), said before its PIN is asked;
        `step` says what is done by someone other than the dealer."""
        on_duty = self.table.session.dealer
        if on_duty is not None and on_duty.account == account:
            return say("{name} ({account}) deals at this table: {step} by someone other than the dealer",
                       name=on_duty.name, account=account, step=as_said(step))
        return None

    def check_sale(self, amount: int) -> None:
        """Whether `amount` of chips may be sold from the tray now (`IllegalAction` says why not)."""
        kept = self.table.tray.kept_problem(say("chips are sold"))
        if kept is not None:
            raise IllegalAction(kept)
        shift = self.table.tray.shift
        if shift is not None and self.table.session.dealer is None:
            raise IllegalAction(say("No chips are sold from the tray with no dealer on duty: a dealer signs in first"))
        if shift is not None and amount > shift.expected:
            raise IllegalAction(say("The tray holds {held:,} by the shift's records, less than {amount:,}: "
                                    "a fill from the cage first", held=shift.expected, amount=amount))

    def witness_problem(self, supervisor: Approval, step: Said = TRAY_WITNESSED) -> Said | None:
        """Why `supervisor` may not witness the tray with the dealer on duty (None: they may)."""
        return self.witness_account_problem(supervisor.account, step)

    def open_shift(self, chips: Mapping[str, int], dealer: Approval, supervisor: Approval) -> None:
        """The opener: the tray counted by denomination, signed by the dealer and a supervisor."""
        counted = self.check_count(OPENER, chips)
        d, ds, s, ss = self._two_signatures(dealer, supervisor, "the opener")
        self._record_signed([TrayCounted(count=OPENER, shift=len(self.table.tray.shifts) + 1, chips=counted,
                                         total=chips_total(counted), dealer=d, dealer_sign_in=ds, supervisor=s,
                                         sign_in=ss)], say("count the opener"))

    def close_shift(self, chips: Mapping[str, int], dealer: Approval, supervisor: Approval) -> None:
        """The closer: the tray counted again at the end of the shift, signed the same way."""
        counted = self.check_count(CLOSER, chips)
        shift = self.table.tray.need_shift("closer")
        d, ds, s, ss = self._two_signatures(dealer, supervisor, "the closer")
        self._record_signed([TrayCounted(count=CLOSER, shift=shift.number, chips=counted, total=chips_total(counted),
                                         dealer=d, dealer_sign_in=ds, supervisor=s, sign_in=ss,
                                         expected=shift.expected)], say("count the closer"))

    def fill(self, slip: str, chips: Mapping[str, int], dealer: Approval, supervisor: Approval) -> None:
        """Chips from the cage to the tray, on the cage's slip."""
        self._transfer(TrayFilled, "fill", slip, chips, dealer, supervisor)

    def credit(self, slip: str, chips: Mapping[str, int], dealer: Approval, supervisor: Approval) -> None:
        """Chips from the tray back to the cage, on the cage's slip."""
        self._transfer(TrayCredited, "credit", slip, chips, dealer, supervisor)

    def payout_short(self, house: int) -> int:
        """How many chips the tray lacks to pay a round whose house result is `house` (0: it covers
        it, or the table keeps no tray, or the house does not bank the game)."""
        shift = self.table.tray.shift
        if shift is None or not shift.open or not self.table.tray.banked or house >= 0:
            return 0
        return max(0, -house - shift.expected)

    def check_tray_covers(self, events: Sequence[Event]) -> None:
        """A payout the tray cannot cover by the shift's records waits for a fill (`IllegalAction`)."""
        for event in events:
            short = self.payout_short(event.house) if isinstance(event, PayoutConfirmed) else 0
            if isinstance(event, PayoutConfirmed) and short:
                shift = self.table.tray.need_shift("payout")
                raise IllegalAction(say("The tray holds {held:,} by the shift's records and this payout takes "
                                        "{taken:,} from it: {short:,} short. The payout waits for a fill from the "
                                        "cage (the tray's fill)", held=shift.expected, taken=-event.house, short=short))

    def check_slip(self, what: str, slip: str) -> None:
        if not (what == "fill" and self.table.round is not None and self.table.round.phase is Phase.PAYOUT):
            self.table._between_rounds(say("record a fill") if what == "fill" else say("record a credit"))  # a fill comes at the payout too: one the tray cannot cover
        self.table.tray.need_shift(what)
        problem = self.table.tray.slip_problem(slip)
        if problem is not None:
            raise IllegalAction(say("No {what}: {problem}", what=tray_word(what), problem=problem))

    def check_transfer(self, what: str, slip: str, chips: Mapping[str, int]) -> dict[str, int]:
        """The chips of a fill or a credit, checked now (`IllegalAction` says why not)."""
        self.check_slip(what, slip)
        shift = self.table.tray.need_shift(what)
        counted = count_chips(self.table.profile.profile.chip_set(), chips, the_tray_word(what))
        total = chips_total(counted)
        if not total:
            raise IllegalAction(say("A {what} moves chips: none were given", what=tray_word(what)))
        if what == "credit" and total > shift.expected:
            raise IllegalAction(say("A credit of {total:,} is more than the tray holds by the shift's records "
                                    "({held:,})", total=total, held=shift.expected))
        return counted

    def _transfer(self, kind: type[TrayFilled] | type[TrayCredited], what: str, slip: str, chips: Mapping[str, int],
                  dealer: Approval, supervisor: Approval) -> None:
        counted = self.check_transfer(what, slip, chips)
        shift = self.table.tray.need_shift(what)
        d, ds, s, ss = self._two_signatures(dealer, supervisor, f"the {what}")
        self._record_signed([kind(shift=shift.number, slip=slip.strip(), chips=counted, total=chips_total(counted),
                                  dealer=d, dealer_sign_in=ds, supervisor=s, sign_in=ss)],
                            say("record a fill") if what == "fill" else say("record a credit"))

    def collect_time(self) -> int:
        """A card room's time collection: each seated player pays the profile's time charge into
        the collection box. The chips collected."""
        self.table._between_rounds(say("collect time"))
        kept = self.table.tray.kept_problem(say("time is collected"))
        if kept is not None:
            raise IllegalAction(kept)
        events = self.table.session.time_events(self.table.profile.profile.time_charge)
        self.table._record_table(events)
        return sum(e.total for e in events if isinstance(e, TimeCollected))

    def check_colour_up(self, seat: int, given: Mapping[str, int],
                        taken: Mapping[str, int] | None = None) -> tuple[dict[str, int], dict[str, int]]:
        """A colour-up's chips checked now: what the player gives (no more than the stack), and
        what the tray gives back (worth the same, other chips); `taken` None checks the first."""
        self.table._between_rounds(say("colour chips up"))
        player = self.table.session.player(seat)
        chip_set = self.table.profile.profile.chip_set()
        into = count_chips(chip_set, given, say("the chips given in"))
        if not into:
            raise IllegalAction(say("A colour-up takes in the player's chips: none were given"))
        if chips_total(into) > player.stack:
            raise IllegalAction(say("Seat {seat} holds {stack:,}, less than the {given:,} given in", seat=seat,
                                    stack=player.stack, given=chips_total(into)))
        if taken is None:
            return into, {}
        out = count_chips(chip_set, taken, say("the chips given back"))
        if chips_total(into) != chips_total(out):
            raise IllegalAction(say("A colour-up gives back what it takes in: {given} ({given_total:,}) for {back} "
                                    "({back_total:,})", given=describe_chips(chip_set, into),
                                    given_total=chips_total(into), back=describe_chips(chip_set, out),
                                    back_total=chips_total(out)))
        if into == out:
            raise IllegalAction(say("A colour-up changes chips for others: these are the same chips"))
        return into, out

    def colour_up(self, seat: int, given: Mapping[str, int], taken: Mapping[str, int]) -> None:
        """A player's chips changed at the seat for others of the same worth."""
        into, out = self.check_colour_up(seat, given, taken)
        self.table._record_table([ChipsColouredUp(seat=seat, given=into, taken=out, total=chips_total(into))])

