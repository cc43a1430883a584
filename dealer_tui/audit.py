"""Re-checking a ledger: every hash, and every finished round re-settled through the rules.

A round is re-settled by the rules it was played under. Chinese Poker rounds record the RULES.md
revision in their setup (`rules_revision`); one recorded without it was played under revision 1
and is re-settled by revision 1's rules, which are kept for that, and the report says which
rounds those are. Nothing in the ledger is rewritten. The other games' revision 2 changes settle
an existing round alike (a per-round bonus cap a profile did not have is none; table stakes for
an Ante or an exchange only refuse actions), so their rounds carry no revision.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from dealer_tui.ledger.base import ROUND_SETTLED, Ledger, NewEvent, TableRecord
from dealer_tui.rounds.base import Round
from dealer_tui.rounds.chinese_poker import ChinesePokerRound
from dealer_tui.rounds.registry import round_class
from rules.chinese_poker import RULES_REVISION
from rules.errors import RulesError
from rules.profiles.loader import LoadedProfile, parse_profile


@dataclass
class Verification:
    """What `history verify` reports: the problems (none when all agree) and plain notes, such as
    the rounds re-settled by an earlier revision of the rules."""

    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def verify_ledger(ledger: Ledger) -> list[str]:
    """One line per problem, each naming its table and round; empty when all agree."""
    return verify(ledger).problems


def verify(ledger: Ledger) -> Verification:
    """Every hash checked and every finished round re-settled by the rules it was played under."""
    report = Verification(list(ledger.chain_problems()))
    for table in ledger.tables():
        try:
            profiles = table_profiles(ledger, table)
        except RulesError as exc:
            report.problems.append(
                f"table {table.id} ({table.name}): its profile does not load: {exc}")
            continue
        earlier: dict[int, list[int]] = {}
        for record in ledger.table_rounds(table.id):
            if record.status == ROUND_SETTLED:
                problems, revision = resettle_round(
                    ledger, table, record.id, record.number, profiles)
                report.problems += problems
                if revision is not None and revision < RULES_REVISION:
                    earlier.setdefault(revision, []).append(record.number)
        for revision, numbers in sorted(earlier.items()):
            report.notes.append(
                f"table {table.id} ({table.name}): {_rounds(numbers)} settled under rules "
                f"revision {revision}, re-settled by revision {revision}'s rules, not revision "
                f"{RULES_REVISION}'s")
    return report


def _rounds(numbers: list[int]) -> str:
    """`round 3`, `rounds 1-4, 7` (round numbers in order, runs joined)."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    text = ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)
    return f"round{'s' if len(numbers) > 1 else ''} {text}"


def rules_revision(rnd: Round) -> int | None:
    """The RULES.md revision a round is settled by, for a game whose rules changed between
    revisions (Chinese Poker); None for the others."""
    return rnd.revision if isinstance(rnd, ChinesePokerRound) else None


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
    return resettle_round(ledger, table, round_id, number, profiles)[0]


def resettle_round(ledger: Ledger, table: TableRecord, round_id: int, number: int,
                   profiles: dict[str, LoadedProfile]) -> tuple[list[str], int | None]:
    """The round's problems, and the rules revision it was re-settled by (None: not a game whose
    rules changed, or the round did not replay)."""
    where = f"table {table.id} ({table.name}), round {number} (id {round_id})"
    events = [NewEvent(e.kind, e.payload) for e in ledger.round_events(round_id)]
    if not events or events[0].kind != "round_started":
        return [f"{where}: does not begin with its start"], None
    started = events[0].payload
    loaded = profiles.get(str(started.get("profile_sha256")))
    if loaded is None:
        return [f"{where}: its profile ({started.get('profile')}) is not in the ledger"], None
    payouts = [i for i, e in enumerate(events) if e.kind == "payout_confirmed"]
    if len(payouts) != 1:
        return [f"{where}: settled {len(payouts)} times"], None
    cls = round_class(table.game, keyed=started.get("card_source") == "entry")
    try:
        rnd = cls(loaded.profile, started["setup"])
        rnd.apply_all(events[: payouts[0]])
        outcome = rnd.outcome()
    except (RulesError, KeyError, ValueError, TypeError) as exc:
        return [f"{where}: does not replay ({exc})"], None
    revision = rules_revision(rnd)
    if outcome is None:
        return [f"{where}: paid without a settlement"], revision
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
    return problems, revision
