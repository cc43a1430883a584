"""A decision of the pit's floor on one of this terminal's rounds, held field by field against the
round it names before the terminal records it."""

from __future__ import annotations

from dealer_tui.events import typed_as
from dealer_tui.events.staff import FloorDecided, StaffReceived, StaffSignedIn
from dealer_tui.ledger import LedgerError, SqliteLedger
from dealer_tui.ledger.base import SIGN_OFF_KINDS, SIGN_OFF_REQUESTED, STAFF_REGISTER, StoredEvent
from dealer_tui.ledger.postgres import PgLedger


def decision_problem(local: SqliteLedger, server: PgLedger, origin: str, decision: FloorDecided,
                     sign_in: StoredEvent) -> str | None:
    """Why a decision of the pit's floor is not this terminal's to record, or None: every field is
    held against the round it names here (its table, number and waiting request, the table's id on
    the server) and against the supervisor's sign-in (for that table and round, by them, signing
    the request's figures, standing for no other approval)."""
    if decision.origin != origin:
        return f"it is for ledger {decision.origin[:8]}, not this one"
    try:
        record = local.round(decision.round)
        table = local.table_record(decision.table)
    except LedgerError:
        return f"this ledger has no round {decision.round} at table {decision.table}"
    if record.table_id != decision.table or record.number != decision.number:
        return (f"it names round {decision.number} of table {decision.table}, but round id {decision.round} is round "
                f"{record.number} of table {record.table_id}")
    if server.server_table(origin, table) != decision.pit_table:
        return f"it names the server's table {decision.pit_table}, which is not table {table.name} of this terminal"
    requests = [e for e in local.round_events(record.id) if e.kind in SIGN_OFF_KINDS]
    if not requests or requests[-1].kind != SIGN_OFF_REQUESTED or requests[-1].seq != decision.request:
        return f"round {record.number} has no sign-off waiting at request {decision.request}"
    payload = sign_in.payload
    if sign_in.kind != StaffSignedIn.KIND or payload.get("account") != decision.by or \
            payload.get("act") != "sign_off" or payload.get("table") != decision.pit_table or \
            payload.get("round") != decision.number:
        return (f"the sign-in it names (the pit's event {sign_in.seq}) is not {decision.by}'s for a sign-off of round "
                f"{decision.number} at the server's table {decision.pit_table}")
    figures = requests[-1].payload.get("figures")
    if figures and payload.get("signs") != figures:
        return f"the sign-in it names signed other figures than the payout round {record.number} waits with"
    used = {r.pit_seq for r in (typed_as(StaffReceived, e) for e in local.table_events(STAFF_REGISTER,
                                                                                        [StaffReceived.KIND]))
            if not r.origin and r.event_kind == StaffSignedIn.KIND and r.local_table != decision.table}
    if sign_in.seq in used:
        return f"the sign-in it names (the pit's event {sign_in.seq}) stands for another approval already"
    return None
