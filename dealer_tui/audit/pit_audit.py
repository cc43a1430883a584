"""The pit server verified: each terminal's tables read as that terminal's own ledger (the ids
its events were hashed with) and checked as `history verify` checks a ledger file — every hash
and link, the ledger-wide sequence, every row against the events, every finished round
re-settled — and every delivery the server refused, which stands as a problem.

And the other way round: the server as the witness of a terminal's own ledger (`server_witness`)."""

from __future__ import annotations

from typing import Any

from dealer_tui.audit.ledger_audit import Verification, verify
from dealer_tui.events import EventError, typed_as
from dealer_tui.events.staff import AlarmAcknowledged, StaffReceived
from dealer_tui.ledger.base import STAFF_REGISTER, key_fingerprint, pit_signed_text
from dealer_tui.ledger.kept import redacted
from dealer_tui.ledger.pit_schema import PIT_CLOCK, PIT_ORIGIN
from dealer_tui.ledger.postgres import PgLedger
from dealer_tui.ledger.sqlite import SqliteLedger
from dealer_tui.rounds.game import Games
from dealer_tui.staff.authority import claim_problem
from dealer_tui.staff.pins import key_checks
from dealer_tui.staff.register import StaffRegister


def verify_pit(conninfo: str, games: Games[Any]) -> Verification:
    report = Verification()
    pit = PgLedger(conninfo)
    try:
        origins = pit.origins()
        alarms = pit.alarms(limit=None, acknowledged=True)
        standing = standing_acknowledgements(pit)
        alarms = [a for a in alarms if alarm_number(a[3]) not in standing]
        for number, (by, why) in sorted(standing.items()):
            report.notes.append(f"alarm {number}: acknowledged by {by}: {why}")
        owners = pit.owners()
        for origin, logins in owners.items():
            if len(logins) > 1:
                report.problems.append(f"terminal {origin[:8]}: its tables were registered by {len(logins)} logins "
                                       f"({', '.join(sorted(logins))}): one poses as another terminal")
        for login, ledgers in pit.ledgers_of_logins().items():
            if len(ledgers) > 1:
                report.problems.append(f"login {login} registered the tables of {len(ledgers)} ledgers "
                                       f"({', '.join(o[:8] for o in sorted(ledgers))}): a terminal's login delivers "
                                       "one ledger (a copy of a ledger given another id?)")
        report.problems += [f"{where}: written at {ts}, after the server received it at {received} UTC: a time "
                            "made up" for where, ts, received in pit.future_events()]
        report.problems += [f"terminal {b[:8]}: its chains share {n} event(s) with terminal {a[:8]}'s: one ledger is a "
                            "copy of the other (under a new id)" for a, b, n in pit.shared_chains()]
        report.problems += pit_signature_problems(pit.pit_key(), pit.account_signatures())
        report.notes += [f"table {name}, round {number}: reached the server {late:,.0f} minutes after it ended at "
                         f"{ended} (the floor allows {limit:,.0f}): flagged late_delivery"
                         for _, name, number, ended, late, limit in pit.late_rounds()]
        before = pit.pit_key_from()
        if before:
            report.notes.append(f"the pit's staff register: its first {before} event(s) came before the pit's key, "
                                "and were signed with it by the pit's owner when the key was made")
    finally:
        pit.close()
    for origin, names in origins:
        label = "the pit's staff register" if origin == PIT_ORIGIN else f"terminal {origin[:8]} ({names or 'no table'})"
        view = PgLedger(conninfo, origin=origin)
        try:
            part = verify(view, games)
            if origin != PIT_ORIGIN:
                part.problems += received_problems(conninfo, view)
            else:
                part.problems += [f"staff register, event {e.seq}: a staff_received event on the pit's own chain "
                                  "(the pit receives from no one): it stands for nothing"
                                  for e in view.table_events(STAFF_REGISTER, [StaffReceived.KIND])]
        finally:
            view.close()
        report.problems += [f"{label}: {p}" for p in part.problems]
        report.notes += [f"{label}: {n}" for n in part.notes]
        report.rounds += part.rounds
    for when, origin, table, message in reversed(alarms):
        report.problems.append(f"the pit's own alarm at {when} UTC: {message}" if origin == PIT_ORIGIN else
                               f"terminal {origin[:8]}, table {table}: the server refused its delivery at {when} UTC: "
                               f"{message}")
    return report


def pit_signature_problems(pit_key: str, events: list[tuple[int, str, dict[str, object], str]]) -> list[str]:
    """The pit's own account events its key did not sign (a pit without a key yet: none asked)."""
    if not pit_key:
        return []
    return [f"the pit's staff register, event {seq} ({kind}): not signed with the pit's key "
            f"{key_fingerprint(pit_key)} (no terminal takes it)" for seq, kind, payload, signature in events
            if not signature or not key_checks(pit_key, pit_signed_text(pit_key, seq, kind, payload), signature)]


def alarm_number(message: str) -> int | None:
    """The alarm's number from its line (`... (alarm N)`)."""
    tail = message.rsplit("(alarm ", 1)
    return int(tail[1].rstrip(")")) if len(tail) == 2 and tail[1].rstrip(")").isdigit() else None


def standing_acknowledgements(pit: PgLedger) -> dict[int, tuple[str, str]]:
    """The acknowledgements on the pit's chain made by a manager signed in for it (others stand
    for nothing: the pit's register names them, and their alarms stay problems)."""
    events = pit.table_events(STAFF_REGISTER)
    register = StaffRegister()
    register.fold(events)
    out: dict[int, tuple[str, str]] = {}
    for stored in events:
        if stored.kind != AlarmAcknowledged.KIND:
            continue
        try:
            ack = typed_as(AlarmAcknowledged, stored)
        except EventError:
            continue
        if claim_problem(register, ack.claim(), at=stored.ledger_seq) is None:
            out[ack.alarm] = (ack.by, ack.reason)
    return out


def received_problems(conninfo: str, view: PgLedger | SqliteLedger) -> list[str]:
    """The server's check of what a terminal says it received: each account event in its register
    must be the pit register's own at that place, each lock-out another terminal's own."""
    problems: list[str] = []
    pit = PgLedger(conninfo)
    origin = view.origin if isinstance(view, PgLedger) else view.ledger_id()
    decided = {(int(e.payload.get("sign_in", 0)), int(e.payload.get("table", 0)))
               for e in pit.floor_decisions(str(origin), 0)}
    try:
        for stored in view.table_events(STAFF_REGISTER, [StaffReceived.KIND]):
            try:
                got = typed_as(StaffReceived, stored)
            except EventError as exc:
                problems.append(f"staff register, event {stored.seq}: does not read: {exc}")
                continue
            if got.origin == PIT_CLOCK:
                if not pit.lock_began(got.account, got.pit_seq):
                    problems.append(f"staff register, event {stored.seq}: a lock-out of {got.account} said to be the "
                                    f"pit's from {got.pit_seq}, when no wrong PIN of theirs reached the server: "
                                    "made up at the terminal")
                continue
            source = pit.chain_event(got.origin or PIT_ORIGIN, got.pit_seq)
            if source is None or (source.hash, source.kind, redacted(source.payload)) != (got.pit_hash, got.event_kind,
                                                                                          redacted(got.event)):
                whose = f"terminal {got.origin[:8]}'s" if got.origin else "the pit's"
                problems.append(f"staff register, event {stored.seq}: a {got.event_kind} said to be received from "
                                f"{whose} staff register (its event {got.pit_seq}) that the server does not hold so: "
                                "an account or lock-out made up at the terminal")
            elif got.event_kind == "staff_signed_in" and (source.ledger_seq, got.local_table) not in decided:
                problems.append(f"staff register, event {stored.seq}: a supervisor's sign-in at the pit's floor (its "
                                f"event {got.pit_seq}) received for table {got.local_table}, but the pit's floor "
                                "decided nothing of this terminal's with it: a sign-in taken for a sign-off it was "
                                "not given for")
    finally:
        pit.close()
    return problems


def server_witness(ledger: SqliteLedger, conninfo: str) -> tuple[list[str], int]:
    """The pit server as the witness of a terminal's ledger: every event the server took from it
    must still be in the ledger, unchanged (a ledger rewritten after delivery, re-hashed to look
    whole, or rolled back, is found). The problems, and the events compared."""
    origin = ledger.ledger_id()
    view = PgLedger(conninfo, origin=origin)
    problems: list[str] = []
    compared = 0
    try:
        names = {t.id: t.name for t in view.tables()}
        for table_id in [STAFF_REGISTER, *sorted(t for t in names if t != STAFF_REGISTER)]:
            label = "the staff register" if table_id == STAFF_REGISTER else f"table {table_id} ({names[table_id]})"
            held = {e.seq: e.hash for e in ledger.table_events(table_id)} if table_id == STAFF_REGISTER or \
                table_id in {t.id for t in ledger.tables()} else {}
            server = view.table_events(table_id)
            compared += len(server)
            missing = [e.seq for e in server if e.seq not in held]
            changed = [e.seq for e in server if e.seq in held and held[e.seq] != e.hash]
            if missing:
                problems.append(f"{label}: {len(missing)} event(s) the pit server holds are not in the ledger (from "
                                f"event {missing[0]}): the ledger was cut short or rolled back")
            if changed:
                problems.append(f"{label}: {len(changed)} event(s) differ from the ones the pit server holds (from "
                                f"event {changed[0]}): the ledger was rewritten after they were delivered")
    finally:
        view.close()
    if compared == 0 and ledger.chain_length(STAFF_REGISTER) + sum(ledger.chain_length(t.id) for t in ledger.tables()):
        problems.append(f"the pit server holds no event of this ledger (id {origin}): it was never delivered there, "
                        "or its id was changed")
    problems += received_problems(conninfo, ledger)
    return problems, compared
