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
from rules.said import same_sentence


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
    where = f"table {table.id} ({table.name}), round {number} (id {round_id})"
    if not events or events[0].kind != RoundStarted.KIND:
        return [f"{where}: does not begin with its start"], None
    try:
        started = typed_as(RoundStarted, events[0])
        payouts = [(i, typed_as(PayoutConfirmed, e)) for i, e in enumerate(events) if e.kind == PayoutConfirmed.KIND]
    except EventError as exc:
        return [f"{where}: does not read ({exc})"], None
    loaded = profiles.get(started.profile_sha256)
    if loaded is None:
        return [f"{where}: its profile ({started.profile}) is not in the ledger"], None
    if len(payouts) != 1:
        return [f"{where}: settled {len(payouts)} times"], None
    at, recorded = payouts[0]
    try:
        rnd = games.find(table.game).round_class(keyed=started.card_source == "entry")(loaded.profile, started.setup)
        rnd.apply_all(events[:at])
        outcome = rnd.outcome()
    except (RulesError, KeyError, ValueError, TypeError) as exc:
        return [f"{where}: does not replay ({exc})"], None
    revision = rules_revision(rnd)
    if outcome is None:
        return [f"{where}: paid without a settlement"], revision
    problems = []
    expected_rows = [_row(r) for r in outcome.rows]
    if [_row(r.row()) for r in recorded.rows] != expected_rows:
        problems.append(f"{where}: the recorded payout differs from the rules' settlement")
    stored = [_row(r) for r in stored_rows]
    key = lambda r: (r["seat"], r["bet"])
    if sorted(stored, key=key) != sorted(expected_rows, key=key):
        problems.append(f"{where}: the settlement rows differ from the rules' settlement"
                        f"{_rows_differ(stored, expected_rows)}")
    changes = {str(s): c for s, c in sorted(outcome.stack_changes.items())}
    if recorded.stack_changes != changes or recorded.house != outcome.house:
        problems.append(f"{where}: the chips moved differ from the rules' settlement")
    big = rnd.sign_off_needed()
    refused = rnd.sign_off_state()
    if big and isinstance(refused, SignOffRefused) and not recorded.override:
        problems.append(f"{where}: paid after the floor refused it ({refused.by}: {refused.reason}) with no manager's "
                        "override")
    if big and not recorded.signed_off_by:
        seats = ", ".join(str(seat) for seat in big)
        problems.append(f"{where}: seat {seats} was paid {loaded.profile.sign_off_threshold} or more with no "
                        "supervisor's sign-off recorded")
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


def _rows_differ(stored: list[dict[str, Any]], expected: list[dict[str, Any]]) -> str:
    """` (seat 2 ante: stored result 20, the rules 10; ...)`: which rows differ and how."""
    def by_key(rows: list[dict[str, Any]]) -> dict[tuple[Any, Any], dict[str, Any]]:
        return {(r["seat"], r["bet"]): r for r in rows}

    have, want = by_key(stored), by_key(expected)
    parts = []
    for seat, bet in sorted(set(have) | set(want), key=str):
        a, b = have.get((seat, bet)), want.get((seat, bet))
        if a == b:
            continue
        if a is None:
            parts.append(f"seat {seat} {bet}: missing")
        elif b is None:
            parts.append(f"seat {seat} {bet}: a row the rules do not give")
        else:
            parts.append(f"seat {seat} {bet}: " + ", ".join(f"stored {k} {a[k]!r}, the rules {b[k]!r}"
                                                            for k in a if a[k] != b.get(k)))
    return f" ({'; '.join(parts)})" if parts else ""


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
