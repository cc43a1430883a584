"""A settled round replayed through the rules from its events: the recorded payout, the stored
settlement rows and the chips moved against the rules' settlement, under the profile (and the
rules revision) the round was played under."""

from __future__ import annotations

from typing import Any

from dealer_tui.events import EventError, typed_as
from dealer_tui.events.codec import Recorded
from dealer_tui.events.table import (
    PayoutConfirmed,
    RoundStarted,
    SignOffRefused,
)
from dealer_tui.ledger.base import Ledger, SettlementRow, TableRecord
from dealer_tui.rounds.base import Round, RoundOutcome
from dealer_tui.rounds.game import Games
from dealer_tui.rounds.table_profiles import table_profiles
from rules.errors import RulesError
from rules.profiles.loader import LoadedProfile
from rules.said import Said, as_figure, as_said, joined, said_of, same_sentence, say


def table_words(table: TableRecord) -> Said:
    """`table 1 (Flush 1)`: a table as verify's problems name it."""
    return say("table {id} ({name})", id=str(table.id), name=table.name)


def round_words(table: Said, number: int, round_id: int) -> Said:
    """`table 1 (Flush 1), round 3 (id 17)`: a round as verify's problems name it."""
    return say("{table}, round {number} (id {id})", table=table, number=number, id=str(round_id))


def rules_revision(rnd: Round) -> int | None:
    """The docs/rules.md revision a round is settled by, for a game whose rules changed between
    revisions (Chinese Poker); None for the others."""
    return rnd.rules_revision


def resettle(ledger: Ledger, games: Games[Any], table: TableRecord, round_id: int, number: int,
             profiles: dict[str, LoadedProfile]) -> list[str]:
    return resettle_round(ledger, games, table, round_id, number, profiles)[0]


def resettle_round(ledger: Ledger, games: Games[Any], table: TableRecord, round_id: int, number: int,
                   profiles: dict[str, LoadedProfile]) -> tuple[list[str], int | None]:
    """The round's problems, and the rules revision it was re-settled by (None: not a game whose
    rules changed, or the round did not replay)."""
    events = ledger.round_events(round_id)
    return resettle_events(games, table, round_id, number, list(events), ledger.settlement(round_id), profiles)


def resettle_events(games: Games[Any], table: TableRecord, round_id: int, number: int, events: list[Recorded],
                    stored_rows: list[SettlementRow], profiles: dict[str, LoadedProfile]) -> tuple[list[str], int | None]:
    """A settled round replayed through the rules from its events: the recorded payout, the
    stored settlement rows and the chips moved against the rules' settlement."""
    where = round_words(table_words(table), number, round_id)

    def problem(what: Said) -> Said:
        return say("{where}: {what}", where=where, what=what)

    if not events or events[0].kind != RoundStarted.KIND:
        return [problem(say("does not begin with its start"))], None
    try:
        started = typed_as(RoundStarted, events[0])
        payouts = [(i, typed_as(PayoutConfirmed, e)) for i, e in enumerate(events) if e.kind == PayoutConfirmed.KIND]
    except EventError as exc:
        return [problem(say("does not read ({problem})", problem=said_of(exc)))], None
    loaded = profiles.get(started.profile_sha256)
    if loaded is None:
        return [problem(say("its profile ({profile}) is not in the ledger", profile=str(started.profile)))], None
    if len(payouts) != 1:
        return [problem(say("settled {count} times", count=len(payouts)))], None
    at, recorded = payouts[0]
    try:
        rnd = games.find(table.game).round_class(keyed=started.card_source == "entry")(loaded.profile, started.setup)
        rnd.apply_all(events[:at])
        outcome = rnd.outcome()
    except (RulesError, KeyError, ValueError, TypeError) as exc:
        return [problem(say("does not replay ({problem})", problem=said_of(exc)))], None
    revision = rules_revision(rnd)
    if outcome is None:
        return [problem(say("paid without a settlement"))], revision
    problems: list[str] = []
    expected_rows = [_row(r) for r in outcome.rows]
    if [_row(r.row()) for r in recorded.rows] != expected_rows:
        problems.append(problem(say("the recorded payout differs from the rules' settlement")))
    stored = [_row(r) for r in stored_rows]
    key = lambda r: (r["seat"], r["bet"])
    if sorted(stored, key=key) != sorted(expected_rows, key=key):
        rows = _rows_differ(stored, expected_rows)
        problems.append(problem(say("the settlement rows differ from the rules' settlement ({rows})", rows=rows)
                                if rows is not None else say("the settlement rows differ from the rules' settlement")))
    changes = {str(s): c for s, c in sorted(outcome.stack_changes.items())}
    if recorded.stack_changes != changes or recorded.house != outcome.house:
        problems.append(problem(say("the chips moved differ from the rules' settlement")))
    big = rnd.sign_off_needed()
    refused = rnd.sign_off_state()
    if big and isinstance(refused, SignOffRefused) and not recorded.override:
        problems.append(problem(say("paid after the floor refused it ({account}: {reason}) with no manager's override",
                                    account=str(refused.by), reason=refused.reason)))
    if big and not recorded.signed_off_by:
        seats = ", ".join(str(seat) for seat in big)
        problems.append(problem(say("seat {seats} was paid {threshold} or more with no supervisor's sign-off recorded",
                                    seats=seats, threshold=loaded.profile.sign_off_threshold)))
    return problems, revision


def _row(row: SettlementRow) -> dict[str, Any]:
    """A settlement row as its payout event records it (`asdict`, without its cost per row)."""
    return {"seat": row.seat, "bet": row.bet, "stake": row.stake, "result": row.result, "reason": _Reason(row.reason)}


class _Reason:
    """A row's reason as verify compares it: message and values when both sides are sentences,
    the English when one is an older record's text (`same_sentence`)."""

    __slots__ = ("said",)

    def __init__(self, said: str) -> None:
        self.said = said

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Reason) and same_sentence(self.said, other.said)

    def __hash__(self) -> int:
        return hash(str(self.said))

    def __repr__(self) -> str:
        return repr(str(self.said))


def _value(value: object) -> str:
    """A row's field as a difference shows it: a reason as the sentence it is, quoted (the reader
    reads it in their language), any other value as Python writes it."""
    if isinstance(value, _Reason):
        return say("'{reason}'", reason=as_said(value.said))
    return repr(value)


def _rows_differ(stored: list[dict[str, Any]], expected: list[dict[str, Any]]) -> Said | None:
    """`seat 2 ante: stored result 20, the rules 10; ...`: which rows differ and how (None: none
    does, as the rows' own comparison sees them)."""
    def by_key(rows: list[dict[str, Any]]) -> dict[tuple[Any, Any], dict[str, Any]]:
        return {(r["seat"], r["bet"]): r for r in rows}

    have, want = by_key(stored), by_key(expected)
    parts: list[Said] = []
    for seat, bet in sorted(set(have) | set(want), key=str):
        a, b = have.get((seat, bet)), want.get((seat, bet))
        if a == b:
            continue
        if a is None:
            parts.append(say("seat {seat} {bet}: missing", seat=as_figure(seat), bet=str(bet)))
        elif b is None:
            parts.append(say("seat {seat} {bet}: a row the rules do not give", seat=as_figure(seat), bet=str(bet)))
        else:
            differences = joined([say("stored {field} {stored}, the rules {rules}", field=k, stored=_value(a[k]),
                                      rules=_value(b[k])) for k in a if a[k] != b.get(k)], ", ")
            parts.append(say("seat {seat} {bet}: {differences}", seat=as_figure(seat), bet=str(bet),
                             differences=differences))
    return joined(parts, "; ") if parts else None


def waiting_payout(ledger: Ledger, games: Games[Any], table: TableRecord, round_id: int) -> RoundOutcome | None:
    """The payout an open round waits on (its settlement as the rules give it from its events so
    far, under the profile it was played under): what a supervisor signs off. None when the round
    has not reached its payout, or does not replay."""
    events = list(ledger.round_events(round_id))
    if not events or events[0].kind != RoundStarted.KIND:
        return None
    try:
        started = typed_as(RoundStarted, events[0])
        loaded = table_profiles(ledger, table).get(started.profile_sha256)
        if loaded is None:
            return None
        rnd = games.find(table.game).round_class(keyed=started.card_source == "entry")(loaded.profile, started.setup)
        rnd.apply_all(events)
        return rnd.outcome()
    except (EventError, RulesError, KeyError, ValueError, TypeError):
        return None
