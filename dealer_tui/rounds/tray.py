"""A table's tray across its shifts: the opener, fills, credits, chips sold at buy-ins, colour-ups,
the house's result of the rounds, and the closer — what the tray should hold at every moment.

Like the seats (`session`), it is the replay of the table's events. A house-banked game's result
is the tray's (the house pays and takes at the table); a card room's rake and fees go to the
collection box, never the tray.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from dealer_tui.events import Event, Handlers, on
from dealer_tui.events.accounting import (
    MARKER,
    OPENER,
    ChipsColouredUp,
    DropCounted,
    TrayCounted,
    TrayCredited,
    TrayEvent,
    TrayFilled,
    chips_total,
)
from dealer_tui.events.codec import Recorded
from dealer_tui.events.table import (
    ChipsBought,
    DealerSignedIn,
    PayoutConfirmed,
    RoundStarted,
    SeatLeft,
    SeatTaken,
    TableChanged,
    TableOpened,
    TimeCollected,
)
from rules.errors import IllegalAction, InvalidProfile
from rules.profiles.base import MAX_CHIP_COUNT, MAX_CHIPS, Chip
from rules.profiles.loader import parse_profile
from rules.said import Said, as_said, joined, say, say_in

MAX_SLIP = 40
"""Characters a cage slip number may have."""


@dataclass
class Shift:
    """One shift of the table, from its opener to its closer."""

    number: int
    opener: int
    opener_chips: dict[str, int]
    opened_seq: int | None = None
    """The opener's place in the ledger (None: not recorded yet)."""
    fills: int = 0
    credits: int = 0
    sold_cash: int = 0
    sold_marker: int = 0
    before_cash: int = 0
    before_marker: int = 0
    """Chips sold with no shift open since the last closer (players seated as the table opened):
    their cash and markers are in this shift's drop box, their chips were out of the tray at the
    opener."""
    house: int = 0
    """The house's result of the shift's rounds that goes to the tray (a banked game's)."""
    collected: int = 0
    """The rake and fees of the shift's rounds that go to the collection box (a card room's)."""
    walked: int = 0
    """Chips that left the table with players."""
    time: int = 0
    """Time collected from the seated players (into the collection box, with the rake and fees)."""
    colour_ups: int = 0
    rounds: int = 0
    slips: set[str] = field(default_factory=set)
    staff: set[str] = field(default_factory=set)
    """Everyone who dealt in the shift or signed its tray: none of them counts its drop box."""
    closer: int | None = None
    closer_chips: dict[str, int] | None = None
    drop: DropCounted | None = None
    recounts: list[DropCounted] = field(default_factory=list)
    """The counts the last one replaced, oldest first."""

    @property
    def sold(self) -> int:
        return self.sold_cash + self.sold_marker

    @property
    def sold_before(self) -> int:
        return self.before_cash + self.before_marker

    @property
    def expected(self) -> int:
        """What the tray should hold: opener + fills − credits − chips sold + the house's result."""
        return self.opener + self.fills - self.credits - self.sold + self.house

    @property
    def open(self) -> bool:
        return self.closer is None


class Tray(Handlers):
    """The tray of one table, folded from its events."""

    def __init__(self) -> None:
        self.shifts: list[Shift] = []
        self.banked = False
        """Whether the profile in force banks the game (its result is the tray's)."""
        self.outside = 0
        """Rounds dealt with no shift open (no opener counted)."""
        self.slips: dict[str, str] = {}
        """Every slip number recorded at the table, as `slip_key` gives it (F-7, f 7 and F7 are one
        slip), with the number as recorded."""
        self.markers: dict[str, str] = {}
        """The markers' numbers taken at this table, the same way."""
        self.loose = [0, 0]
        """Chips sold (cash, marker) with no shift open, for the next shift's opener."""
        self.used: set[int] = set()
        """The sign-ins a tray event or a drop count named (each stands for one event only)."""

    @property
    def shift(self) -> Shift | None:
        """The shift open now, if one is."""
        return self.shifts[-1] if self.shifts and self.shifts[-1].open else None

    @property
    def kept(self) -> bool:
        """Whether the table keeps its tray: from its first opener on, chips move only in a shift."""
        return bool(self.shifts)

    # -- folding ---------------------------------------------------------------------------

    def apply(self, event: Recorded, seq: int | None = None) -> None:
        """Fold one event into the tray; `seq` is its place in the ledger (an opener keeps it)."""
        handled = self.handle(event)
        if isinstance(handled, TrayCounted) and handled.count == OPENER and seq is not None:
            self.shifts[-1].opened_seq = seq

    def apply_all(self, events: Iterable[Recorded]) -> None:
        for event in events:
            self.apply(event, getattr(event, "ledger_seq", None))

    @on(TableOpened)
    def _on_opened(self, e: TableOpened) -> None:
        self._profile(e.profile_text, e.profile)

    @on(TableChanged)
    def _on_changed(self, e: TableChanged) -> None:
        self._profile(e.profile_text, e.profile)

    def _profile(self, text: str, name: str) -> None:
        try:
            self.banked = parse_profile(text, "the table's profile", name).profile.house_banked()
        except InvalidProfile:  # a profile the table could not have opened with: verify names it
            self.banked = False

    def _signed(self, e: TrayEvent) -> None:
        self.used |= {e.dealer_sign_in, e.sign_in}
        if (shift := self.shift) is not None:
            shift.staff |= {e.dealer, e.supervisor}

    @on(DealerSignedIn)
    def _on_dealer(self, e: DealerSignedIn) -> None:
        self.used.add(e.sign_in)
        if (shift := self.shift) is not None:
            shift.staff.add(e.account)

    @on(TrayCounted)
    def _on_counted(self, e: TrayCounted) -> None:
        if e.count == OPENER:
            self.shifts.append(Shift(len(self.shifts) + 1, e.total, dict(e.chips), before_cash=self.loose[0],
                                     before_marker=self.loose[1]))
            self.loose = [0, 0]
            self._signed(e)
        elif (shift := self.shift) is not None:
            self._signed(e)
            shift.closer, shift.closer_chips = e.total, dict(e.chips)

    @on(TrayFilled)
    def _on_filled(self, e: TrayFilled) -> None:
        self._signed(e)
        self.slips.setdefault(slip_key(e.slip), e.slip)
        if self.shift is not None:
            self.shift.fills += e.total
            self.shift.slips.add(e.slip)

    @on(TrayCredited)
    def _on_credited(self, e: TrayCredited) -> None:
        self._signed(e)
        self.slips.setdefault(slip_key(e.slip), e.slip)
        if self.shift is not None:
            self.shift.credits += e.total
            self.shift.slips.add(e.slip)

    @on(SeatTaken)
    def _on_seated(self, e: SeatTaken) -> None:
        self._sold(e.buy_in, e.method)
        if e.method == MARKER:
            self._marker(e.marker, e.approved_by, e.sign_in)

    @on(ChipsBought)
    def _on_bought(self, e: ChipsBought) -> None:
        self._sold(e.amount, e.method)
        if e.method == MARKER:
            self._marker(e.marker, e.approved_by, e.sign_in)

    def _marker(self, number: str, approved_by: str, sign_in: int | None) -> None:
        if number:
            self.markers.setdefault(slip_key(number), number)
        if sign_in is not None:
            self.used.add(sign_in)
        if approved_by and (shift := self.shift) is not None:
            shift.staff.add(approved_by)

    def _sold(self, amount: int, method: str) -> None:
        if self.shift is None:
            self.loose[1 if method == MARKER else 0] += amount
            return
        if method == MARKER:
            self.shift.sold_marker += amount
        else:
            self.shift.sold_cash += amount

    @on(SeatLeft)
    def _on_left(self, e: SeatLeft) -> None:
        if self.shift is not None:
            self.shift.walked += e.cash_out

    @on(ChipsColouredUp)
    def _on_coloured_up(self, e: ChipsColouredUp) -> None:
        if self.shift is not None:
            self.shift.colour_ups += 1

    @on(RoundStarted)
    def _on_round(self, e: RoundStarted) -> None:
        if self.shift is None:
            self.outside += 1
        else:
            self.shift.rounds += 1
            self.shift.staff.add(e.dealer)

    @on(PayoutConfirmed)
    def _on_payout(self, e: PayoutConfirmed) -> None:
        self.settled(e.house)

    def settled(self, house: int) -> None:
        """A round's payout: the house's result to the tray (banked) or the collection box."""
        if self.shift is None:
            return
        if self.banked:
            self.shift.house += house
        else:
            self.shift.collected += house

    @on(TimeCollected)
    def _on_time(self, e: TimeCollected) -> None:
        if self.shift is not None:
            self.shift.time += e.total
            self.shift.collected += e.total

    @on(DropCounted)
    def _on_drop(self, e: DropCounted) -> None:
        self.used.add(e.sign_in)
        if 1 <= e.shift <= len(self.shifts):
            shift = self.shifts[e.shift - 1]
            if shift.drop is not None:
                shift.recounts.append(shift.drop)
            shift.drop = e

    # -- proposals (validate; the table records) ----------------------------------------------

    def opener_problem(self) -> str | None:
        if self.shift is not None:
            return say("shift {shift} is open: count the closer before the next opener", shift=self.shift.number)
        return None

    def sign_in_problem(self, *sign_ins: int) -> str | None:
        """Why a sign-in may not stand for this event: it stood for another already."""
        again = sorted(set(sign_ins) & self.used)
        if again:
            return say("sign-in {sign_in} stood for another step already: each tray count, slip, marker and drop "
                       "count is signed in for anew", sign_in=again[0])
        return None

    def kept_problem(self, what: Said) -> Said | None:
        """Why `what` (`say("round starts")`) may not happen now at a table that keeps its tray
        (None: it may)."""
        if self.kept and self.shift is None:
            return say("No {what} between shifts: the table keeps its tray from its first opener on; count the next "
                       "opener first", what=what)
        return None

    def need_shift(self, what: str) -> Shift:
        """The open shift a tray step (`fill`, `credit`, `closer`, `payout`) needs."""
        if self.shift is None:
            raise IllegalAction(say("No {what} with no shift open: count the opener first (the tray key)",
                                    what=tray_word(what)))
        return self.shift

    def slip_problem(self, slip: str) -> Said | None:
        return _number_problem(slip, self.slips, say("a fill or a credit needs the cage's slip number"), SLIP)

    def marker_problem(self, number: str) -> Said | None:
        """Why a marker's number may not be recorded (each marker is taken once)."""
        return _number_problem(number, self.markers, say("a marker buy-in needs the marker's number"), MARKER_WORD)


SLIP, MARKER_WORD = say("slip"), say("marker")
TRAY_WORDS = {"fill": say("fill"), "credit": say("credit"), "opener": say("opener"), "closer": say("closer"),
              "payout": say("payout")}
"""The tray's steps as its refusals name them."""
THE_TRAY_WORDS = {"fill": say("the fill"), "credit": say("the credit"), "opener": say("the opener"),
                  "closer": say("the closer")}


def tray_word(what: str) -> Said:
    """A tray step (`fill`) as a refusal names it."""
    return TRAY_WORDS.get(what) or Said.literal(what)


def the_tray_word(what: str) -> Said:
    """A tray step as the subject of a refusal: `the fill`."""
    return THE_TRAY_WORDS.get(what) or Said.literal(f"the {what}")


def _number_problem(number: str, seen: dict[str, str], missing: Said, what: Said) -> Said | None:
    """Why a slip's or a marker's number may not be recorded: none, too long, not letters and digits,
    or recorded at the table already."""
    number = number.strip()
    if not number:
        return missing
    if len(number) > MAX_SLIP:
        return say("a {what} number is at most {most} characters", what=what, most=MAX_SLIP)
    if not number.isprintable() or not slip_key(number):
        return say("a {what} number is letters and digits (and punctuation)", what=what)
    if slip_key(number) in seen:
        recorded = seen[slip_key(number)]
        if recorded != number:
            return say("{what} {recorded} is already recorded at this table ({number} is the same number)", what=what,
                       recorded=recorded, number=number)
        return say("{what} {recorded} is already recorded at this table", what=what, recorded=recorded)
    return None


def slip_key(slip: str) -> str:
    """A slip number as the table tells slips apart: its letters and digits in their plain forms
    (Unicode NFKC: a fullwidth Ｍ５ is M5), case folded."""
    return "".join(c for c in unicodedata.normalize("NFKC", slip).casefold() if c.isalnum())


TRAY_EVENTS: tuple[type[Event], ...] = Tray.handled()
"""The events that move the tray or say what it holds: those the tray handles."""


def count_chips(chip_set: Sequence[Chip], counts: Mapping[str, int], what: str) -> dict[str, int]:
    """Chips by denomination checked against the table's chip set (unknown denominations, negative
    or huge counts refused); denominations with no chips left out."""
    known = {str(c.value) for c in chip_set}
    out: dict[str, int] = {}
    for value, count in counts.items():
        if value not in known:
            raise IllegalAction(say("{what}: {value} is not a chip of this table (chips: {chips})", what=as_said(what),
                                    value=value, chips=joined([chip_said(c) for c in chip_set], ", ")))
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= MAX_CHIP_COUNT:
            raise IllegalAction(say("{what}: {count} chips of {value} (0 to {most:,})", what=as_said(what),
                                    count=repr(count), value=value, most=MAX_CHIP_COUNT))
        if count:
            out[value] = count
    if chips_total(out) > MAX_CHIPS:
        raise IllegalAction(say("{what}: {total:,} is past the largest amount ({most:,})", what=as_said(what),
                                total=chips_total(out), most=MAX_CHIPS))
    return out


def make_up(chip_set: Sequence[Chip], amount: int) -> dict[str, int]:
    """The chips a dealer gives for `amount`, largest denominations first (the suggestion a buy-in
    starts with; the dealer may give others)."""
    out: dict[str, int] = {}
    left = amount
    for chip in sorted(chip_set, key=lambda c: -c.value):
        n, left = divmod(left, chip.value)
        if n:
            out[str(chip.value)] = n
    if left:
        raise IllegalAction(say("{amount} cannot be made of this table's chips (smallest {smallest})", amount=amount,
                                smallest=min(c.value for c in chip_set)))
    return out


COLOURS = {"white": say_in("colour", "white"), "red": say_in("colour", "red"), "green": say_in("colour", "green"),
           "black": say_in("colour", "black"), "purple": say_in("colour", "purple"),
           "orange": say_in("colour", "orange"), "yellow": say_in("colour", "yellow"), "blue": say_in("colour", "blue"),
           "pink": say_in("colour", "pink"), "grey": say_in("colour", "grey"), "gray": say_in("colour", "gray"),
           "brown": say_in("colour", "brown")}
"""The chip colours most houses use, in the reader's words; a colour a profile names otherwise is
shown as the profile writes it."""


def colour_said(colour: str) -> Said:
    """A chip's colour as the profile names it, in the reader's words when it is a common one."""
    return COLOURS.get(colour.strip().casefold()) or Said.literal(colour)


def chip_said(chip: Chip) -> Said:
    """`100 black`: a denomination and its colour."""
    return say("{value} {colour}", value=chip.value, colour=colour_said(chip.colour))


def describe_chips(chip_set: Sequence[Chip], chips: Mapping[str, int]) -> Said:
    """`4 × 100 black, 2 × 25 green`: chips by denomination as the dealer reads them (the colours
    as the table's profile names them)."""
    colours = {str(c.value): c.colour for c in chip_set}
    parts = [say("{count} × {value} {colour}", count=n, value=int(v), colour=colour_said(colours[v])) if v in colours
             else say("{count} × {value}", count=n, value=int(v))
             for v, n in sorted(chips.items(), key=lambda x: -int(x[0])) if n]
    return joined(parts, ", ") if parts else say("no chips")
