"""A decision of the pit's floor on one of this terminal's rounds, held field by field against the
round it names before the terminal records it."""

from __future__ import annotations

from dealer_tui.events import typed_as
from dealer_tui.events.staff import FloorDecided, StaffReceived, StaffSignedIn
from dealer_tui.ledger import LedgerError, SqliteLedger
from dealer_tui.ledger.base import SIGN_OFF_KINDS, SIGN_OFF_REQUESTED, STAFF_REGISTER, StoredEvent
from dealer_tui.ledger.postgres import PgLedger
from rules.said import Said, say


def decision_problem(local: SqliteLedger, server: PgLedger, origin: str, decision: FloorDecided,
                     sign_in: StoredEvent) -> Said | None:
    """Why a decision of the pit's floor is not this terminal's to record, or None: every field is
    held against the round it names here (its table, number and waiting request, the table's id on
    the server) and against the supervisor's sign-in (for that table and round, by them, signing
    the request's figures, standing for no other approval)."""
    if decision.origin != origin:
        return say("it is for ledger {ledger}, not this one", ledger=decision.origin[:8])
    try:
        record = local.round(decision.round)
        table = local.table_record(decision.table)
    except LedgerError:
        return say("this ledger has no round {round} at table {table}", round=decision.round, table=decision.table)
    if record.table_id != decision.table or record.number != decision.number:
        return say("it names round {number} of table {table}, but round id {round} is round {found} of table {at}",
                   number=decision.number, table=decision.table, round=decision.round, found=record.number,
                   at=record.table_id)
    if server.server_table(origin, table) != decision.pit_table:
        return say("it names the server's table {server}, which is not table {table} of this terminal",
                   server=decision.pit_table, table=table.name)
    requests = [e for e in local.round_events(record.id) if e.kind in SIGN_OFF_KINDS]
    if not requests or requests[-1].kind != SIGN_OFF_REQUESTED or requests[-1].seq != decision.request:
        return say("round {number} has no sign-off waiting at request {request}", number=record.number,
                   request=decision.request)
    payload = sign_in.payload
    if sign_in.kind != StaffSignedIn.KIND or payload.get("account") != decision.by or \
            payload.get("act") != "sign_off" or payload.get("table") != decision.pit_table or \
            payload.get("round") != decision.number:
        return say("the sign-in it names (the pit's event {seq}) is not {account}'s for a sign-off of round {number} "
                   "at the server's table {table}", seq=sign_in.seq, account=decision.by, number=decision.number,
                   table=decision.pit_table)
    figures = requests[-1].payload.get("figures")
    if figures and payload.get("signs") != figures:
        return say("the sign-in it names signed other figures than the payout round {number} waits with",
                   number=record.number)
    used = {r.pit_seq for r in (typed_as(StaffReceived, e) for e in local.table_events(STAFF_REGISTER,
                                                                                        [StaffReceived.KIND]))
            if not r.origin and r.event_kind == StaffSignedIn.KIND and r.local_table != decision.table}
    if sign_in.seq in used:
        return say("the sign-in it names (the pit's event {seq}) stands for another approval already",
                   seq=sign_in.seq)
    return None
