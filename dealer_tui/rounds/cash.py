"""Cash transactions at the tables: each cash buy-in and each cash-out, against the seat's player,
read from every table's events; and the thresholds the law sets on them — a single transaction at
or over the multiple-transaction-log threshold is logged (MTL), a player's cash in (or out) over a
gaming day reaching the currency-transaction threshold needs the player identified (CTR). The
thresholds and the gaming day's hour are the floor's settings (`staff.floor_settings`)."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from dealer_tui.events import EventError, typed, typed_as
from dealer_tui.events.accounting import CASH
from dealer_tui.events.table import ChipsBought, PlayerIdentified, SeatLeft, SeatTaken, TableOpened
from dealer_tui.ledger.base import Ledger, TableRecord
from dealer_tui.staff import StaffRegister
from dealer_tui.staff.floor_settings import SETTINGS
from rules.said import say

IN, OUT = "in", "out"


def settings(ledger: Ledger) -> dict[str, int]:
    """The floor's settings as the staff register holds them now (`staff.floor_settings`)."""
    return StaffRegister.read(ledger).settings


def gaming_day(ts: str, starts: int = SETTINGS["gaming_day_starts"].default) -> str:
    """The gaming day (`2026-12-01`) of a moment: the calendar day, less the hours before the day
    starts (at `starts` o'clock, UTC)."""
    moment = datetime.fromisoformat(ts).replace(tzinfo=None)
    return (moment - timedelta(hours=starts)).date().isoformat()


LOOKALIKES = str.maketrans("аеорсухіјѕкмтнвαεικνορτυχ", "aeopcyxijskmthbaeikvoptux")
"""Cyrillic and Greek letters drawn as Latin ones ("Bоb" with a Cyrillic о is Bob to the eye)."""


def as_compared(text: str) -> str:
    """A name or a card number as a person compares them: one Unicode form, case folded, accents
    and zero-width and other invisible characters removed, letters that look Latin read as Latin,
    runs of spaces made one ("Ann Lee", "ann  lee", "Ann Lee\u200b" and "Ánn Lее" are one)."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text).casefold())
    kept = "".join(c for c in folded if unicodedata.category(c) not in ("Cf", "Mn"))
    return " ".join(kept.translate(LOOKALIKES).split())


def player_key(name: str, card: str, table: str, seat: int, document: str = "") -> str:
    """Who a cash transaction is against: the ID document when the player showed one, else the
    loyalty card when they gave one; else, anonymous, the player by name wherever they sit ("Ann
    Lee", "ann  lee" and "Ann Lee\u200b" are one player: a name spread over seats or tables in its
    variants is one person to the cash logs)."""
    if document:
        return f"id {as_compared(document)}"
    return f"card {as_compared(card)}" if card else f"name {as_compared(name)}"


@dataclass(frozen=True)
class CashTransaction:
    at: str
    table: str
    seat: int
    player: str
    card: str
    direction: str
    """`in` (a cash buy-in) or `out` (chips cashed out at the table)."""
    amount: int
    day: str
    """The gaming day it belongs to."""
    document: str = ""
    """The ID document the player showed (its kind and number; "": not identified)."""

    @property
    def key(self) -> str:
        return player_key(self.player, self.card, self.table, self.seat, self.document)

    def to_dict(self) -> dict[str, object]:
        return {"at": self.at, "day": self.day, "table": self.table, "seat": self.seat, "player": self.player,
                "card": self.card or None, "id_document": self.document or None, "direction": self.direction,
                "amount": self.amount}


@dataclass
class _Seating:
    name: str
    card: str
    document: str
    moves: list[tuple[str, str, int]] = field(default_factory=list)
    """(when, direction, amount) of each cash transaction so far."""


def training_table(ledger: Ledger, table: TableRecord) -> bool:
    """Whether the table was opened for training (demos): its play stays out of every figure a
    regulator or a host reads — the cash logs, the currency alerts, the players' ratings — unless
    asked for."""
    return any(typed_as(TableOpened, e).training for e in ledger.table_events(table.id, [TableOpened.KIND]))


def cash_transactions(ledger: Ledger, training: bool = False) -> list[CashTransaction]:
    """Every live table's cash transactions (`training`: the training tables' too), oldest first.
    A player identified while seated carries the ID for the whole seating: the cash they had
    bought in before it is theirs too."""
    kinds = [SeatTaken.KIND, ChipsBought.KIND, SeatLeft.KIND, PlayerIdentified.KIND]
    starts = settings(ledger)["gaming_day_starts"]
    out: list[CashTransaction] = []
    for table in ledger.tables():
        if not training and training_table(ledger, table):
            continue
        seated: dict[int, _Seating] = {}

        def flush(seat: int) -> None:
            s = seated.pop(seat)
            out.extend(CashTransaction(at, table.name, seat, s.name, s.card, direction, amount, gaming_day(at, starts),
                                       s.document) for at, direction, amount in s.moves)

        for stored in ledger.table_events(table.id, kinds):
            try:
                event = typed(stored, table.game)
            except EventError:
                continue  # verify names an event that does not read
            if isinstance(event, SeatTaken):
                if event.seat in seated:
                    flush(event.seat)
                seated[event.seat] = _Seating(event.player, event.card, event.document)
                if event.method == CASH:
                    seated[event.seat].moves.append((stored.ts, IN, event.buy_in))
            elif isinstance(event, PlayerIdentified) and event.seat in seated:
                seated[event.seat].card, seated[event.seat].document = event.card, event.identification()
            elif isinstance(event, ChipsBought) and event.method == CASH and event.seat in seated:
                seated[event.seat].moves.append((stored.ts, IN, event.amount))
            elif isinstance(event, SeatLeft) and event.seat in seated:
                if event.cash_out:
                    seated[event.seat].moves.append((stored.ts, OUT, event.cash_out))
                flush(event.seat)
        for seat in list(seated):
            flush(seat)
    return sorted(out, key=lambda t: t.at)


def needs_id(ledger: Ledger, name: str, card: str, amount: int, direction: str = IN, document: str = "") -> str | None:
    """Why cash of `amount` in (a buy-in) or out (a cash-out) needs the player's ID document first:
    it brings their cash that way over the gaming day, at every live table, under any of their
    names, cards and IDs, to the currency-transaction threshold (the cash logs count it at every
    live table, whoever keeps the chips). A loyalty card identifies nobody. None: it does not, or
    the player showed an ID document (`document`)."""
    if document:
        return None
    floor = settings(ledger)
    today = gaming_day(datetime.now(UTC).isoformat(), floor["gaming_day_starts"])
    total = day_total(ledger, today, direction, name, card) + amount
    if total >= floor["ctr_threshold"]:
        if direction == IN:
            return say("Identification needed: {name}'s cash in today comes to {total:,}, at or over the "
                       "currency-transaction threshold ({threshold:,})", name=name, total=total,
                       threshold=floor["ctr_threshold"])
        return say("Identification needed: {name}'s cash out today comes to {total:,}, at or over the "
                   "currency-transaction threshold ({threshold:,})", name=name, total=total,
                   threshold=floor["ctr_threshold"])
    return None


def identities(t: CashTransaction) -> set[str]:
    """What ties a cash transaction to a person: its name, and its loyalty card and ID document
    when it has them (each as the cash logs compare it)."""
    found = {f"name {as_compared(t.player)}"}
    if t.card:
        found.add(f"card {as_compared(t.card)}")
    if t.document:
        found.add(f"id {as_compared(t.document)}")
    return found


def people(moves: Sequence[CashTransaction]) -> list[list[CashTransaction]]:
    """`moves` by person: transactions sharing a name, a card or an ID document are one person's,
    and so on through each of theirs (an ID shown at one table joins the name used at another).
    Each person's transactions keep their order; people are listed by their first transaction."""
    owner: dict[str, int] = {}
    groups: list[list[CashTransaction] | None] = []
    for t in moves:
        joined = sorted({owner[i] for i in identities(t) if i in owner})
        if not joined:
            groups.append([t])
            target = len(groups) - 1
        else:
            target = joined[0]
            into = groups[target]
            assert into is not None
            for other in joined[1:]:  # t ties two people seen apart so far: one person
                moved = groups[other]
                assert moved is not None
                into.extend(moved)
                groups[other] = None
                for key, at in owner.items():
                    if at == other:
                        owner[key] = target
            into.append(t)
            into.sort(key=lambda m: m.at)
        for i in identities(t):
            owner[i] = target
    return [g for g in groups if g is not None]


def day_total(ledger: Ledger, day: str, direction: str, name: str, card: str = "", document: str = "") -> int:
    """A player's cash in (or out) over a gaming day, every live table of the ledger: every
    transaction made under their name, their loyalty card or their ID document, whichever of
    them it was recorded under (an ID shown does not start a card, or a name, again from zero)."""
    moves = [t for t in cash_transactions(ledger) if t.day == day and t.direction == direction]
    probe = CashTransaction("", "", 0, name, card, direction, 0, day, document)
    person = next(g for g in people([*moves, probe]) if any(t is probe for t in g))
    return sum(t.amount for t in person)