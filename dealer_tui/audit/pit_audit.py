"""The pit server verified: each terminal's tables read as that terminal's own ledger (the ids
its events were hashed with) and checked as `history verify` checks a ledger file — every hash
and link, the ledger-wide sequence, every row against the events, every finished round
re-settled — and every delivery the server refused, which stands as a problem."""

from __future__ import annotations

from dealer_tui.audit.ledger_audit import Verification, verify
from dealer_tui.ledger.pit import PIT_ORIGIN
from dealer_tui.ledger.postgres import PgLedger


def verify_pit(conninfo: str) -> Verification:
    report = Verification()
    pit = PgLedger(conninfo)
    try:
        origins = pit.origins()
        alarms = pit.alarms(limit=1000)
    finally:
        pit.close()
    for origin, names in origins:
        label = "the pit's staff register" if origin == PIT_ORIGIN else f"terminal {origin[:8]} ({names or 'no table'})"
        view = PgLedger(conninfo, origin=origin)
        try:
            part = verify(view)
        finally:
            view.close()
        report.problems += [f"{label}: {p}" for p in part.problems]
        report.notes += [f"{label}: {n}" for n in part.notes]
        report.rounds += part.rounds
    for when, origin, table, message in reversed(alarms):
        report.problems.append(f"terminal {origin[:8]}, table {table}: the server refused its delivery at {when} UTC: "
                               f"{message}")
    return report
