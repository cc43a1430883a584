"""Re-checking a ledger: every hash, and every finished round re-settled through the rules."""

from __future__ import annotations

from dataclasses import asdict

from dealer_tui.ledger.base import ROUND_SETTLED, Ledger, NewEvent, TableRecord
from dealer_tui.rounds.registry import round_class
from rules.errors import RulesError
from rules.profiles.loader import LoadedProfile, parse_profile


def verify_ledger(ledger: Ledger) -> list[str]:
    """One line per problem, each naming its table and round; empty when all agree."""
    problems = list(ledger.chain_problems())
    for table in ledger.tables():
        try:
            profiles = table_profiles(ledger, table)
        except RulesError as exc:
            problems.append(f"table {table.id} ({table.name}): its profile does not load: {exc}")
            continue
        for record in ledger.table_rounds(table.id):
            if record.status == ROUND_SETTLED:
                problems += resettle(ledger, table, record.id, record.number, profiles)
    return problems


def table_profiles(ledger: Ledger, table: TableRecord) -> dict[str, LoadedProfile]:
    """Every profile the table has run under, by its sha256, from the texts the ledger keeps."""
    found: dict[str, LoadedProfile] = {}
    for event in ledger.table_events(table.id, ["table_opened", "table_changed"]):
        text = event.payload.get("profile_text")
        if isinstance(text, str):
            loaded = parse_profile(text, f"ledger table {table.id}", str(event.payload.get("profile")))
            found[loaded.sha256] = loaded
    return found


def resettle(ledger: Ledger, table: TableRecord, round_id: int, number: int,
             profiles: dict[str, LoadedProfile]) -> list[str]:
    where = f"table {table.id} ({table.name}), round {number} (id {round_id})"
    events = [NewEvent(e.kind, e.payload) for e in ledger.round_events(round_id)]
    if not events or events[0].kind != "round_started":
        return [f"{where}: does not begin with its start"]
    started = events[0].payload
    loaded = profiles.get(str(started.get("profile_sha256")))
    if loaded is None:
        return [f"{where}: its profile ({started.get('profile')}) is not in the ledger"]
    payouts = [i for i, e in enumerate(events) if e.kind == "payout_confirmed"]
    if len(payouts) != 1:
        return [f"{where}: settled {len(payouts)} times"]
    cls = round_class(table.game, keyed=started.get("card_source") == "entry")
    try:
        rnd = cls(loaded.profile, started["setup"])
        rnd.apply_all(events[: payouts[0]])
        outcome = rnd.outcome()
    except (RulesError, KeyError, ValueError, TypeError) as exc:
        return [f"{where}: does not replay ({exc})"]
    if outcome is None:
        return [f"{where}: paid without a settlement"]
    recorded = events[payouts[0]].payload
    problems = []
    expected_rows = [asdict(r) for r in outcome.rows]
    if recorded.get("rows") != expected_rows:
        problems.append(f"{where}: the recorded payout differs from the rules' settlement")
    stored = [asdict(r) for r in ledger.settlement(round_id)]
    key = lambda r: (r["seat"], r["bet"])
    if sorted(stored, key=key) != sorted(expected_rows, key=key):
        problems.append(f"{where}: the settlement rows differ from the rules' settlement")
    changes = {str(s): c for s, c in sorted(outcome.stack_changes.items())}
    if recorded.get("stack_changes") != changes or recorded.get("house") != outcome.house:
        problems.append(f"{where}: the chips moved differ from the rules' settlement")
    return problems
