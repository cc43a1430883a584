"""What the screens show of a round, as plain data: one presenter per game, found by game id.

No Textual here: a presenter turns a round into seat views, the banker's hand and plain-words
event lines; the widgets only draw them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from dealer_tui.events import Event
from dealer_tui.events.table import (
    CardsCorrected,
    PayoutConfirmed,
    RoundRecovered,
    RoundVoided,
    SignOffApproved,
    SignOffRefused,
    SignOffRequested,
    StepTakenBack,
)
from dealer_tui.language import _, number, told
from dealer_tui.ledger.payouts import seat_payouts
from dealer_tui.rounds.base import Round
from dealer_tui.rounds.frame import Phase
from rules.cards import Card, format_cards, parse_cards
from rules.errors import RulesError


def shown_cards(text: str) -> str:
    """Cards recorded as text (`Ah Kd`) as every screen shows them (`A♥ K♦`); text that does not
    read as cards, as it is."""
    try:
        return format_cards(parse_cards(text, distinct=False), symbols=True, sort=False)
    except RulesError:
        return text


@dataclass(frozen=True)
class SeatView:
    seat: int
    name: str
    stack: int
    bets: Sequence[tuple[str, int]] = ()
    cards: Sequence[Card] = ()
    hidden_cards: int = 0
    hand: str = ""
    markers: Sequence[str] = ()
    acting: bool = False
    out: bool = False
    note: str = ""
    hands: Sequence[tuple[str, Sequence[Card], str]] = ()
    """Several hands of one seat (boxes): label, cards, what they make."""


@dataclass(frozen=True)
class HandView:
    title: str
    cards: Sequence[Card] = ()
    hidden_cards: int = 0
    hand: str = ""
    lines: Sequence[str] = field(default_factory=tuple)


_KEY = re.compile(r"\{([a-z_]+)\}")


def payout_waits() -> str:
    """The prompt of a round whose payout waits for the dealer's confirming: true with the payout
    shown over the table and with it backed out of."""
    return _("The payout waits to be confirmed ({payout} shows it).")


def key(action: str) -> str:
    """Where a prompt (or a seat's note) names the key for one of the round screen's actions
    (`key("raise_bet")`): the screen puts in the key its bindings give that action (`with_keys`),
    so a key bound anew is named anew."""
    return f"{{{action}}}"


def with_keys(text: str, keys: Mapping[str, str]) -> str:
    """`text` as the dealer reads it: each key named by `key(action)` the one bound to the action
    (an action with no key stays as written)."""
    return _KEY.sub(lambda m: keys.get(m.group(1), m.group(0)), text) if "{" in text else text


@dataclass(frozen=True)
class StoryTable:
    """A game's own part of a round's story on the floor: a titled table of plain text. Each row's
    last cell is its verdict, `bad` or `good` marking it for the floor to colour."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[tuple[str, ...], str], ...]
    """Each row: its cells, and its verdict's mark (`bad`, `good` or "")."""
    empty: str
    """The last column's text when there is no row."""


RoundT_contra = TypeVar("RoundT_contra", bound=Round, contravariant=True)


class Presenter(Protocol[RoundT_contra]):
    """What the screens show of one game's rounds (`RoundT_contra`); None: no round yet at the table.
    A game's presenter subclasses it, and so takes `story` as it is unless the game has a part of
    its own to tell."""

    LIMITS: tuple[str, ...]
    def seats(self, rnd: RoundT_contra | None, stacks: dict[int, tuple[str, int]]) -> list[SeatView]: ...
    def banker(self, rnd: RoundT_contra | None) -> HandView: ...
    def describe(self, event: Event) -> str: ...
    def prompt(self, rnd: RoundT_contra | None) -> str:
        """What the dealer may do now, the keys named by `key(action)`."""
        ...
    def story(self, events: Sequence[Event]) -> StoryTable | None:
        """The game's own part of a finished round's story (its events as recorded); None: the
        events and the settlement tell it all."""
        return None


def describe_common(event: Event) -> str | None:
    """The events every game shares, in plain words (None for a game's own events)."""
    match event:
        case PayoutConfirmed(paid=paid, signed_off_by=by, override=override, rows=rows):
            banks = {r.seat for r in rows if r.bet == "bank"}
            take = sum(chips for seat, chips in seat_payouts(r.row() for r in rows).items() if seat in banks)
            what = (_("{paid} paid to the players, {take} to the DP", paid=number(paid - take), take=number(take))
                    if take else _("{paid} paid out", paid=number(paid)))
            if override:
                return _("Payout confirmed: {what} on {account}'s override of the floor's refusal: {why}", what=what,
                         account=by, why=override)
            if by:
                return _("Payout confirmed: {what}, signed off by {account}", what=what, account=by)
            return _("Payout confirmed: {what}", what=what)
        case RoundVoided(reason=reason, by=by, returned=returned):
            said = _("Round void: {reason}", reason=reason)
            back = ", ".join(_("seat {seat} {chips}", seat=seat, chips=number(chips)) for seat, chips in returned.items())
            if back:
                said += _("; returned {chips}", chips=back)
            return said + (_("; approved by {account}", account=by) if by else "")
        case SignOffRequested(seats=seats):
            return _("Payout sent to the floor for sign-off (seat {seats})", seats=", ".join(str(s) for s in seats))
        case SignOffApproved(by=by):
            return _("Floor approved the payout ({account})", account=by)
        case SignOffRefused(by=by, reason=reason):
            return _("Floor refused the payout ({account}): {reason}", account=by, reason=reason)
        case CardsCorrected(previous=previous, corrected=corrected, reason=reason, supervisor=supervisor):
            changed = "; ".join(f"{label} {shown_cards(previous[label])} → {shown_cards(text)}"
                                for label, text in corrected.items())
            return _("Cards corrected: {changed} ({reason}; approved by {account})", changed=changed, reason=reason,
                     account=supervisor)
        case StepTakenBack(what=what, taken_back=kind):
            return _("Taken back: {what} (the dealer's correction)", what=told(what) if what else kind)
        case RoundRecovered(phase=phase):
            return _("Round reopened after a restart ({phase})", phase=_phase_named(phase))
    return None



def _phase_named(phase: str) -> str:
    """A recorded phase (`deal`) as the reader says it: `deal phase`."""
    try:
        return told(Phase(phase).named)
    except ValueError:
        return phase
