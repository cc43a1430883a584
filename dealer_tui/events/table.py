"""The events every table records, whatever its game: opening and profile changes, seats and chips,
a round's start and end, sign-offs, the dealer's and the supervisor's corrections, and what the
terminal and the supervisor's PIN record about themselves."""

from __future__ import annotations

from dataclasses import field

from dealer_tui.events.codec import Event, Json, Record, key, optional
from dealer_tui.events.staff import Claim, figures_of, payout_figures
from dealer_tui.ledger.base import SettlementRow
from rules.bets import role_of
from rules.said import Said, say

# -- the table ----------------------------------------------------------------------------------


class TableOpened(Event, kind="table_opened"):
    seats: int
    profile: str
    profile_sha256: str
    profile_text: str
    card_source: str
    seeded: bool = False
    training: bool = optional(default=False)
    """A training table (demos): its rounds are marked so and left out of the floor's totals."""


class TableChanged(Event, kind="table_changed"):
    profile: str
    profile_sha256: str
    profile_text: str
    reason: str
    approved_by: str
    from_round: int
    sign_in: int | None = optional(default=None)
    """The approver's sign-in (the ledger-wide number of its `staff_signed_in`)."""

    def claim(self) -> Claim:
        return Claim("change_profile", self.approved_by, self.sign_in)


class SeatTaken(Event, kind="seat_taken"):
    seat: int
    player: str
    buy_in: int
    short: bool = False
    method: str = optional(default="cash")
    """How the player paid: `cash` (into the drop box) or `marker` (credit, its slip into the box)."""
    chips: dict[str, int] = optional(default_factory=dict)
    """The chips given from the tray, by denomination (older buy-ins did not record them)."""
    card: str = optional(default="")
    """The player's loyalty card number (empty: an anonymous player, known by name only)."""
    document: str = optional(default="")
    """The ID document the player showed for a cash buy-in at the currency-transaction threshold
    (its kind and number: `passport X1234567`); a loyalty card identifies nobody."""
    marker: str = optional(default="")
    """A marker buy-in: the marker's number."""
    approved_by: str = optional(default="")
    """A marker buy-in: the supervisor who signed the marker (signed in to witness the tray)."""
    sign_in: int | None = optional(default=None)

    def claim(self) -> Claim | None:
        return marker_claim(self.method, self.marker, self.buy_in, self.approved_by, self.sign_in)


class ChipsBought(Event, kind="chips_bought"):
    seat: int
    amount: int
    short: bool = False
    method: str = optional(default="cash")
    chips: dict[str, int] = optional(default_factory=dict)
    marker: str = optional(default="")
    approved_by: str = optional(default="")
    sign_in: int | None = optional(default=None)

    def claim(self) -> Claim | None:
        return marker_claim(self.method, self.marker, self.amount, self.approved_by, self.sign_in)


def marker_purpose(number: str, amount: int) -> Said:
    """What a supervisor signs in for to sign a marker: its number and amount (the sign-in's own
    words, which its signature covers: the record keeps its English; the sign-in shows it in the
    reader's language)."""
    return say("sign marker {number} for {amount:,} chips", number=number.strip(), amount=amount)


def marker_claim(method: str, number: str, amount: int, approved_by: str, sign_in: int | None) -> Claim | None:
    """A marker (credit) is issued on a supervisor's signature, signed in to witness the tray for
    that marker (its number and amount); a cash buy-in claims no authority."""
    if method != "marker":
        return None
    return Claim("tray", approved_by, sign_in, purpose=marker_purpose(number, amount), label="marker")


class PlayerIdentified(Event, kind="player_identified"):
    """The seated player's ID document, recorded when the dealer is shown it: from now on the
    seat's cash transactions are this player's, identified."""

    seat: int
    card: str
    """The player's loyalty card (as it was: an identification changes no card). Recorded before
    ID documents were told apart: the number shown, a card or an ID, taken as the identification."""
    document: str = optional(default="")
    """The ID document's kind and number (`passport X1234567`)."""

    def identification(self) -> str:
        """What identifies the player from now on: the document (an older event: the number shown)."""
        return self.document or self.card


class SeatAway(Event, kind="seat_away"):
    """The seated player sits out (`away`), keeping the seat and the chips, or comes back: no round
    deals them in while they are away, and their rating session's time stops."""

    seat: int
    away: bool


class TimeCollected(Event, kind="time_collected"):
    """A card room's time collection between hands: what each seated player paid (their seat as
    text), into the collection box."""

    paid: dict[str, int]
    total: int


class SeatLeft(Event, kind="seat_left"):
    seat: int
    cash_out: int


class TerminalTakenOver(Event, kind="terminal_taken_over"):
    """A terminal took the table over from one that had stopped (its lease ran out)."""

    terminal: str
    pid: int
    host: str
    reason: str
    previous: Json = key("from")


class DealerSignedIn(Event, kind="dealer_signed_in"):
    """The dealer on duty from now on (a dealer change signs the one before out)."""

    account: str
    name: str
    sign_in: int

    def claim(self) -> Claim:
        return Claim("deal", self.account, self.sign_in)


class DealerSignedOut(Event, kind="dealer_signed_out"):
    """The dealer left the table (a break, the end of a shift): no round starts until one signs in."""

    account: str
    reason: Said = Said.literal("")
    """Why, as a sentence (an older record: its English)."""


class SupervisorSignedIn(Event, kind="supervisor_signed_in"):
    """Before staff accounts: the one shared supervisor PIN was keyed (read, never written now)."""

    purpose: str


class SupervisorRefused(Event, kind="supervisor_refused"):
    purpose: str
    failures: int


class SupervisorLocked(Event, kind="supervisor_locked"):
    until: float
    seconds: int


# -- a round's frame ----------------------------------------------------------------------------


class RoundStarted(Event, kind="round_started"):
    number: int
    setup: Json
    """The round's starting facts, as the game's round reads them (`Round.setup_from`)."""
    profile: str
    profile_sha256: str
    card_source: str
    button: int | None = None
    banker: int | None = None
    seeded: bool = False
    training: bool = optional(default=False)
    dealer: str = optional(default="")
    """The account of the dealer on duty when the round started."""


class RoundRecovered(Event, kind="round_recovered"):
    """A restart reopened the round where it stopped."""

    phase: str


class PayoutRow(Record):
    """One seat's result on one bet, as the payout recorded it."""

    seat: int
    bet: str
    stake: int
    result: int
    reason: Said
    """How the row was settled, as the sentence's message and values (an older record: its English)."""

    def row(self) -> SettlementRow:
        """The row as the ledger records it, with its bet's role."""
        return SettlementRow(self.seat, self.bet, self.stake, self.result, self.reason, role_of(self.bet))


class PayoutConfirmed(Event, kind="payout_confirmed"):
    rows: tuple[PayoutRow, ...]
    stack_changes: dict[str, int]
    house: int
    seats: int
    wagered: int
    paid: int
    flags: tuple[str, ...] = ()
    signed_off_by: str | None = None
    button: int | None = optional(default=None)
    """The hand's dealer, for the next hand's button (Palace Poker, PP-0)."""
    sign_in: int | None = optional(default=None)
    """The sign-off's sign-in (at the table, or the one the floor's approval names)."""
    override: str = optional(default="")
    """Why a manager paid a payout the floor refused (`signed_off_by` is that manager)."""

    def claim(self) -> Claim | None:
        act = "override" if self.override else "sign_off"
        return Claim(act, self.signed_off_by, self.sign_in, figures=self.figures()) if self.signed_off_by else None

    def figures(self) -> str:
        """What the sign-off signed: the amount paid and every row."""
        return payout_figures(self.paid, [(r.seat, r.bet, r.stake, r.result) for r in self.rows])


def void_figures(returned: dict[str, int]) -> str:
    """What a void's sign-in signs: what each seat gets back."""
    return figures_of("void", {seat: chips for seat, chips in sorted(returned.items()) if chips})


class RoundVoided(Event, kind="round_voided"):
    reason: str
    by: str = ""
    returned: dict[str, int] = field(default_factory=dict)
    """What each seat got back (older voids did not record it)."""
    button: int | None = optional(default=None)
    sign_in: int | None = optional(default=None)

    def claim(self) -> Claim:
        return Claim("void", self.by, self.sign_in, figures=void_figures(self.returned))


class SignOffRequested(Event, kind="sign_off_requested"):
    seats: tuple[int, ...]
    threshold: int
    paid: int
    wagered: int
    payouts: dict[str, int] | None = optional(default=None)
    """Each seat's payout that reaches the threshold (None: a request sent before they were named so)."""
    wins: dict[str, int] | None = optional(default=None)
    """What older requests recorded instead: each seat's winnings."""
    figures: str = optional(default="")
    """The payout's figures (`payout_figures`): what the floor's sign-in signs ("": an older request)."""

    @property
    def big_payouts(self) -> dict[str, int]:
        """The seats' payouts the request is for, as it recorded them."""
        return self.payouts if self.payouts is not None else (self.wins or {})


class SignOffApproved(Event, kind="sign_off_approved"):
    by: str
    sign_in: int | None = optional(default=None)

    def claim(self) -> Claim:
        return Claim("sign_off", self.by, self.sign_in)


class SignOffRefused(Event, kind="sign_off_refused"):
    by: str
    reason: str
    sign_in: int | None = optional(default=None)

    def claim(self) -> Claim:
        return Claim("sign_off", self.by, self.sign_in)


class StepTakenBack(Event, kind="step_taken_back"):
    """The dealer took back their last step (a mis-key): the step's kind and stored form."""

    taken_back: str = key("kind")
    step: Json = key("payload")
    what: Said = Said.literal("")
    """What was taken back, as the log says it (`seat 2's raise`; an older record: its English)."""


class CardsCorrected(Event, kind="cards_corrected"):
    """The supervisor's correction of cards keyed at a live table: the hands' old and new cards,
    why, who approved, and the keyed step as it reads with the corrected cards."""

    event: str
    reason: str
    supervisor: str
    previous: dict[str, str]
    corrected: dict[str, str] = key("cards")
    step: Json = key("payload")
    sign_in: int | None = optional(default=None)

    def claim(self) -> Claim:
        return Claim("correct_cards", self.supervisor, self.sign_in)
