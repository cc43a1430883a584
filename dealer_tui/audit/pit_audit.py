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
from dealer_tui.ledger.pit_words import alarm_said
from dealer_tui.ledger.postgres import PgLedger
from dealer_tui.ledger.sqlite import SqliteLedger
from dealer_tui.rounds.game import Games
from dealer_tui.staff.authority import claim_problem
from dealer_tui.staff.pins import key_checks
from dealer_tui.staff.register import StaffRegister
from rules.said import Said, said_of, say


def verify_pit(conninfo: str, games: Games[Any]) -> Verification:
    report = Verification()
    pit = PgLedger(conninfo)
    try:
        origins = pit.origins()
        alarms = pit.alarms(limit=None, acknowledged=True)
        standing = standing_acknowledgements(pit)
        alarms = [a for a in alarms if alarm_number(a[3]) not in standing]
        for number, (by, why) in sorted(standing.items()):
            report.notes.append(say("alarm {number}: acknowledged by {by}: {why}", number=str(number), by=by, why=why))
        owners = pit.owners()
        for origin, logins in owners.items():
            if len(logins) > 1:
                report.problems.append(say("terminal {terminal}: its tables were registered by {count} logins "
                                           "({logins}): one poses as another terminal", terminal=origin[:8],
                                           count=len(logins), logins=", ".join(sorted(logins))))
        for login, ledgers in pit.ledgers_of_logins().items():
            if len(ledgers) > 1:
                report.problems.append(say("login {login} registered the tables of {count} ledgers ({ledgers}): a "
                                           "terminal's login delivers one ledger (a copy of a ledger given another "
                                           "id?)", login=login, count=len(ledgers),
                                           ledgers=", ".join(o[:8] for o in sorted(ledgers))))
        report.problems += [say("{where}: {what}", where=where, what=say(
                                "written at {ts}, after the server received it at {received} UTC: a time made up",
                                ts=ts, received=received)) for where, ts, received in pit.future_events()]
        report.problems += [say("terminal {copy}: its chains share {count} event(s) with terminal {original}'s: one "
                                "ledger is a copy of the other (under a new id)", copy=b[:8], count=n, original=a[:8])
                            for a, b, n in pit.shared_chains()]
        report.problems += pit_signature_problems(pit.pit_key(), pit.account_signatures())
        report.notes += [say("table {table}, round {number}: reached the server {late:,} minutes after it ended at "
                             "{ended} (the floor allows {limit:,}): flagged late_delivery", table=name, number=number,
                             late=round(late), ended=ended, limit=round(limit))
                         for _, name, number, ended, late, limit in pit.late_rounds()]
        before = pit.pit_key_from()
        if before:
            report.notes.append(say("the pit's staff register: its first {count} event(s) came before the pit's key, "
                                    "and were signed with it by the pit's owner when the key was made", count=before))
    finally:
        pit.close()
    for origin, names in origins:
        label = say("the pit's staff register") if origin == PIT_ORIGIN else \
            say("terminal {terminal} ({tables})", terminal=origin[:8], tables=names or say("no table"))
        view = PgLedger(conninfo, origin=origin)
        try:
            part = verify(view, games)
            if origin != PIT_ORIGIN:
                part.problems += received_problems(conninfo, view)
            else:
                part.problems += [say("{where}: {what}", where=say("staff register, event {seq}", seq=str(e.seq)),
                                      what=say("a staff_received event on the pit's own chain (the pit receives from "
                                               "no one): it stands for nothing"))
                                  for e in view.table_events(STAFF_REGISTER, [StaffReceived.KIND])]
        finally:
            view.close()
        report.problems += [say("{where}: {what}", where=label, what=p) for p in part.problems]
        report.notes += [say("{where}: {what}", where=label, what=n) for n in part.notes]
        report.rounds += part.rounds
    for when, origin, table, message in reversed(alarms):
        said = alarm_said(message)
        report.problems.append(say("the pit's own alarm at {when} UTC: {message}", when=when, message=said)
                               if origin == PIT_ORIGIN else
                               say("terminal {terminal}, table {table}: the server refused its delivery at {when} UTC: "
                                   "{message}", terminal=origin[:8], table=table, when=when, message=said))
    return report


def pit_signature_problems(pit_key: str, events: list[tuple[int, str, dict[str, object], str]]) -> list[str]:
    """The pit's own account events its key did not sign (a pit without a key yet: none asked)."""
    if not pit_key:
        return []
    return [say("{where}: {what}", where=say("{where}, event {seq} ({kind})", where=say("the pit's staff register"),
                                             seq=str(seq), kind=kind),
                what=say("not signed with the pit's key {key} (no terminal takes it)", key=key_fingerprint(pit_key)))
            for seq, kind, payload, signature in events
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
            where = say("staff register, event {seq}", seq=str(stored.seq))
            try:
                got = typed_as(StaffReceived, stored)
            except EventError as exc:
                problems.append(_at(where, say("does not read: {problem}", problem=said_of(exc))))
                continue
            if got.origin == PIT_CLOCK:
                if not pit.lock_began(got.account, got.pit_seq):
                    problems.append(_at(where, say("a lock-out of {account} said to be the pit's from {seq}, when no "
                                                   "wrong PIN of theirs reached the server: made up at the terminal",
                                                   account=got.account, seq=str(got.pit_seq))))
                continue
            source = pit.chain_event(got.origin or PIT_ORIGIN, got.pit_seq)
            if source is None or (source.hash, source.kind, redacted(source.payload)) != (got.pit_hash, got.event_kind,
                                                                                          redacted(got.event)):
                problems.append(_at(where, say(
                    "a {kind} said to be received from terminal {terminal}'s staff register (its event {seq}) that "
                    "the server does not hold so: an account or lock-out made up at the terminal",
                    kind=got.event_kind, terminal=got.origin[:8], seq=str(got.pit_seq)) if got.origin else say(
                    "a {kind} said to be received from the pit's staff register (its event {seq}) that the server "
                    "does not hold so: an account or lock-out made up at the terminal", kind=got.event_kind,
                    seq=str(got.pit_seq))))
            elif got.event_kind == "staff_signed_in" and (source.ledger_seq, got.local_table) not in decided:
                problems.append(_at(where, say(
                    "a supervisor's sign-in at the pit's floor (its event {seq}) received for table {table}, but the "
                    "pit's floor decided nothing of this terminal's with it: a sign-in taken for a sign-off it was not "
                    "given for", seq=str(got.pit_seq), table=str(got.local_table))))
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
            label = say("the staff register") if table_id == STAFF_REGISTER else \
                say("table {id} ({name})", id=str(table_id), name=names[table_id])
            held = {e.seq: e.hash for e in ledger.table_events(table_id)} if table_id == STAFF_REGISTER or \
                table_id in {t.id for t in ledger.tables()} else {}
            server = view.table_events(table_id)
            compared += len(server)
            missing = [e.seq for e in server if e.seq not in held]
            changed = [e.seq for e in server if e.seq in held and held[e.seq] != e.hash]
            if missing:
                problems.append(_at(label, say("{count} event(s) the pit server holds are not in the ledger (from "
                                               "event {seq}): the ledger was cut short or rolled back",
                                               count=len(missing), seq=str(missing[0]))))
            if changed:
                problems.append(_at(label, say("{count} event(s) differ from the ones the pit server holds (from event "
                                               "{seq}): the ledger was rewritten after they were delivered",
                                               count=len(changed), seq=str(changed[0]))))
    finally:
        view.close()
    if compared == 0 and ledger.chain_length(STAFF_REGISTER) + sum(ledger.chain_length(t.id) for t in ledger.tables()):
        problems.append(say("the pit server holds no event of this ledger (id {ledger}): it was never delivered "
                            "there, or its id was changed", ledger=str(origin)))
    problems += received_problems(conninfo, ledger)
    return problems, compared


def _at(where: Said, what: Said) -> Said:
    """`where: what`: a problem and the place it is found."""
    return say("{where}: {what}", where=where, what=what)
