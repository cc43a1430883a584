"""Alerts for the floor, raised from what the ledger records and kept until a supervisor (or a
manager) acknowledges each by name: a payout at or over the sign-off threshold sent for sign-off
(closed by its approval), a refused payout paid on a manager's override (for the supervisor who
refused it),
a keyed raise over the cap, two voids at one table within the floor's minutes, a PIN lock-out, a
shift's rounds outside the band chance allows, a player's cash in or out reaching the
currency-transaction threshold; on a pit server also each delivery it refused and each table whose
terminal has gone silent. Each alert has an id that names what raised it, so an acknowledgement names exactly one.

An alert is worked out from the record each time the alerts are read: nothing of its text is
stored with it (an acknowledgement records the alert's id and the supervisor's own note). Its text
is a sentence all the same (`rules.said`: reading as its English, told in the reader's language
where it is shown, `dealer_tui.language.told`), for it travels: the floor's sign-in to acknowledge
an alert names it in the purpose the sign-in records."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime

from dealer_tui.accounting.cash_log import CurrencyEntry, currency_entries
from dealer_tui.accounting.shifts import shift_figures
from dealer_tui.accounting.theoretical import Theory
from dealer_tui.accounting.times import seconds_between
from dealer_tui.events import EventError, typed
from dealer_tui.events.staff import AlertAcknowledged
from dealer_tui.events.table import PayoutConfirmed, RoundVoided, SignOffRefused, SignOffRequested
from dealer_tui.language import N_
from dealer_tui.ledger.base import STAFF_REGISTER, Ledger
from dealer_tui.ledger.pg_status import PitStatus
from dealer_tui.ledger.pit_words import alarm_said
from dealer_tui.rounds.cash import IN, OUT, cash_transactions, settings, training_table
from dealer_tui.staff import ACKNOWLEDGE, Approval, StaffRegister, claim_problem
from rules.errors import IllegalAction
from rules.profiles.base import MAX_TEXT
from rules.said import Said, as_said, joined, say

KINDS = {
    "big payout": N_("big payout"), "refusal overridden": N_("refusal overridden"), "voids": N_("voids"),
    "over-cap raise": N_("over-cap raise"), "PIN lock-out": N_("PIN lock-out"),
    "hold outside its band": N_("hold outside its band"), "closer difference": N_("closer difference"),
    "drop difference": N_("drop difference"), "currency transaction": N_("currency transaction"),
    "refused delivery": N_("refused delivery"), "late delivery": N_("late delivery"), "table offline": N_("table offline"),
}
"""Each kind of alert (a code, as an alert records it and `alerts list --json` gives it) as the
floor and the command line name it."""


@dataclass(frozen=True)
class Alert:
    id: str
    kind: str
    at: str
    table: str
    text: str
    """What happened, as a sentence (`rules.said.Said`: its English, or told in the reader's language)."""
    closed: str = ""
    """What closed the alert without anyone acknowledging it ("": open): a big payout's approval (a
    sentence too)."""

    def to_dict(self) -> dict[str, object]:
        return {"id": self.id, "kind": self.kind, "at": self.at, "table": self.table or None, "text": self.text,
                "closed": self.closed or None}


def raised(ledger: Ledger, theory: Theory | None = None) -> list[Alert]:
    """Every alert the ledger's records raise, oldest first (acknowledged or not)."""
    out: list[Alert] = []
    floor = settings(ledger)
    within = floor["void_alert_minutes"] * 60
    for table in ledger.tables():
        if training_table(ledger, table):
            continue  # play for practice: nothing for the floor to look into
        voids: list[str] = []
        requests: dict[int, Alert] = {}
        refusals: dict[int, SignOffRefused] = {}
        rounds = ledger.table_rounds(table.id)
        numbers = {r.id: r.number for r in rounds}
        for stored in ledger.table_events(table.id, [SignOffRequested.KIND, RoundVoided.KIND, SignOffRefused.KIND,
                                                     PayoutConfirmed.KIND]):
            if stored.kind == PayoutConfirmed.KIND and (stored.round_id or 0) not in requests:
                continue  # a payout no sign-off was asked for: nothing to close, nothing overridden
            try:
                event = typed(stored, table.game)
            except EventError:
                continue
            round_id = stored.round_id or 0
            if isinstance(event, SignOffRequested):
                paid = [say("seat {seat} {chips:,}", seat=str(s), chips=p)
                        for s, p in sorted(event.big_payouts.items())]
                seats = joined(paid, ", ") if paid else say("a seat")
                requests[round_id] = Alert(f"payout:{table.id}:{stored.seq}", "big payout", stored.ts, table.name,
                                           say("round {round}: {seats} at or over the sign-off threshold "
                                               "({threshold:,}), sent for sign-off",
                                               round=str(numbers.get(round_id, "?")), seats=seats,
                                               threshold=event.threshold))
                out.append(requests[round_id])
            elif isinstance(event, SignOffRefused):
                refusals[round_id] = event
            elif isinstance(event, PayoutConfirmed):
                request = requests.get(round_id)
                refused = refusals.get(round_id)
                if request is not None and event.signed_off_by:  # closed by its approval, or the override
                    how = (say("paid on the override of {account}", account=event.signed_off_by) if event.override
                           else say("approved by {account}", account=event.signed_off_by))
                    out[out.index(request)] = replace(request, closed=how)
                if event.override and refused is not None:
                    out.append(Alert(f"override:{table.id}:{stored.seq}", "refusal overridden", stored.ts, table.name,
                                     say("for {refused_by}: round {round}'s payout ({paid:,} chips out, stakes back "
                                         "included), which {refused_by} refused ({reason}), was paid on {manager}'s "
                                         "override: {override}", refused_by=refused.by,
                                         round=str(numbers.get(round_id, "?")), paid=event.paid,
                                         reason=as_said(refused.reason), manager=event.signed_off_by or "",
                                         override=as_said(event.override))))
            else:
                if voids and seconds_between(voids[-1], stored.ts, float("inf")) <= within:
                    out.append(Alert(f"voids:{table.id}:{stored.seq}", "voids", stored.ts, table.name,
                                     say("two voids at this table within {minutes} minutes",
                                         minutes=floor["void_alert_minutes"])))
                voids.append(stored.ts)
        for record in rounds:
            if "over_cap_raise" in record.flags:
                out.append(Alert(f"raise:{table.id}:{record.id}", "over-cap raise", record.started_at, table.name,
                                 say("round {round}: a keyed raise over the cap", round=str(record.number))))
    for stored in ledger.table_events(STAFF_REGISTER, ["staff_locked"]):
        account = str(stored.payload.get("account", ""))
        out.append(Alert(f"lockout:{stored.ledger_seq or stored.seq}", "PIN lock-out", stored.ts, "",
                         say("{account} locked out after wrong PINs", account=account)))
    if theory is not None:
        for shift in (s for s in shift_figures(ledger, theory) if not s.training):
            at = shift.closed_at or shift.last_at or shift.opened_at
            if shift.outside_band:
                bands = int(abs(shift.rounds_win - shift.theoretical) // shift.band) if shift.band > 0 else 1
                band: dict[str, int | str | Said] = {"shift": str(shift.shift), "result": shift.rounds_win,
                                                     "theoretical": round(shift.theoretical), "band": round(shift.band)}
                out.append(Alert(worse(f"band:{shift.table_id}:{shift.shift}", bands), "hold outside its band", at,
                                 shift.table,
                                 say("shift {shift}: the rounds' result {result:,} is outside {theoretical:,} ± "
                                     "{band:,} ({bands} bands out)", bands=bands, **band) if bands > 1
                                 else say("shift {shift}: the rounds' result {result:,} is outside {theoretical:,} ± "
                                          "{band:,}", **band)))
            for label, diff in (("closer", shift.closer_difference), ("drop", shift.drop_difference)):
                if diff:
                    out.append(Alert(f"{label}:{shift.table_id}:{shift.shift}", f"{label} difference", at, shift.table,
                                     _difference(label, shift.shift, diff)))
    if isinstance(ledger, PitStatus):
        out += _pit_alerts(ledger)
    for entry in currency_entries(cash_transactions(ledger), floor["ctr_threshold"]):
        tables = sorted({t.table for t in entry.transactions})
        out.append(Alert(worse(f"ctr:{entry.day}:{entry.key}:{entry.direction}", entry.total // floor["ctr_threshold"]),
                         "currency transaction", entry.reached_at, ", ".join(tables), _currency(entry)))
    return sorted(out, key=lambda a: a.at)


def _difference(label: str, shift: int, diff: int) -> Said:
    """A shift's closer (`label` "closer") or drop ("drop") over or short by `diff` against the records."""
    values: dict[str, int | str | Said] = {"shift": str(shift), "chips": abs(diff)}
    if label == "closer":
        return (say("shift {shift}: the closer is over by {chips:,} against what the tray should hold", **values)
                if diff > 0 else
                say("shift {shift}: the closer is short by {chips:,} against what the tray should hold", **values))
    return (say("shift {shift}: the drop is over by {chips:,} against what the shift's buy-ins put in the box",
                **values) if diff > 0 else
            say("shift {shift}: the drop is short by {chips:,} against what the shift's buy-ins put in the box",
                **values))


def _currency(entry: CurrencyEntry) -> Said:
    """A currency-transaction entry's alert: who, identified or not, and the day's cash in or out."""
    values: dict[str, int | str | Said] = {"player": entry.player, "total": entry.total, "day": entry.day}
    if entry.document and entry.direction == IN:
        return say("{player} (ID {document}): cash in {total:,} on gaming day {day}", document=entry.document,
                   **values)
    if entry.document and entry.direction == OUT:
        return say("{player} (ID {document}): cash out {total:,} on gaming day {day}", document=entry.document,
                   **values)
    if entry.direction == IN:
        return say("{player} (not identified): cash in {total:,} on gaming day {day}", **values)
    if entry.direction == OUT:
        return say("{player} (not identified): cash out {total:,} on gaming day {day}", **values)
    who = f"{entry.player} (ID {entry.document})" if entry.document else f"{entry.player} (not identified)"
    return Said.literal(f"{who}: cash {entry.direction} {entry.total:,} on gaming day {entry.day}")


def worse(alert_id: str, level: int) -> str:
    """The id of an alert whose condition has grown to `level` (1: as first raised): an
    acknowledgement covers the condition as it was seen, and a worse one — another band out, the
    threshold passed again — is a new alert to acknowledge."""
    return alert_id if level <= 1 else f"{alert_id}:x{level}"


OFFLINE_AFTER_S = 120
"""A terminal silent this long (and not closed cleanly) is offline: what a lease's takeover waits too."""


def _pit_alerts(pit: PitStatus) -> list[Alert]:
    """The pit server's own: each delivery it refused (a history conflict, a second terminal), and
    each table whose terminal has gone silent without closing."""
    out = [Alert(f"pit:{number}", "refused delivery", f"{when}+00:00", table,
                 say("from {origin}: {what}", origin=origin, what=alarm_said(what)))
           for number, when, origin, table, what in pit.alarm_rows()]
    out += [Alert(f"late:{round_id}", "late delivery", ended, name,
                  say("round {round} reached the pit {late:,} minutes after it ended (the floor allows {limit:,})",
                      round=str(number), late=round(late), limit=round(limit)))
            for round_id, name, number, ended, late, limit in pit.late_rounds()]
    out += [Alert(f"pitlock:{account}:{start}", "PIN lock-out", datetime.fromtimestamp(start, UTC).isoformat(), "",
                  say("{account} locked out at the pit after wrong PINs at its terminals or its floor",
                      account=account))
            for account, (start, _until) in sorted(pit.server_lockouts().items())]
    names = {t.id: t.name for t in pit.tables()} if isinstance(pit, Ledger) else {}
    for table_id, (contact, ago, closed) in sorted(pit.table_links().items()):
        if contact and ago is not None and ago > OFFLINE_AFTER_S and not closed:
            out.append(Alert(f"offline:{table_id}:{contact}", "table offline", contact.replace(" ", "T") + "+00:00",
                             names.get(table_id, str(table_id)),
                             say("its terminal has not been heard from since {contact} UTC ({minutes} minutes)",
                                 contact=contact, minutes=round(ago / 60))))
    return out


def acknowledgements(ledger: Ledger) -> dict[str, AlertAcknowledged]:
    """Each acknowledged alert's acknowledgement, by the alert's id."""
    out: dict[str, AlertAcknowledged] = {}
    for stored in ledger.table_events(STAFF_REGISTER, [AlertAcknowledged.KIND]):
        try:
            event = typed(stored)
        except EventError:
            continue
        if isinstance(event, AlertAcknowledged):
            out.setdefault(event.alert, event)
    return out


def open_alerts(ledger: Ledger, theory: Theory | None = None) -> list[Alert]:
    """The alerts nobody has acknowledged yet, oldest first."""
    done = acknowledgements(ledger)
    return [a for a in raised(ledger, theory) if a.id not in done and not a.closed]


def acknowledge(ledger: Ledger, alert: str, by: Approval, note: str = "",
                theory: Theory | None = None) -> AlertAcknowledged:
    """A supervisor's (or a manager's) word that the alert was looked into, recorded by name; the
    alert must be raised (`theory`: the shifts' bands too) and not acknowledged yet. `IllegalAction`
    says why not."""
    if len(note) > MAX_TEXT:
        raise IllegalAction(say("a note is at most {most} characters", most=MAX_TEXT))
    event = AlertAcknowledged(alert=alert, by=by.account, sign_in=by.sign_in, note=note.strip())
    if by.act != ACKNOWLEDGE:
        raise IllegalAction(say("an alert is acknowledged by a supervisor signed in to acknowledge it"))
    problem = claim_problem(StaffRegister.read(ledger), event.claim())
    if problem is not None:
        raise IllegalAction(say("The alert may not be acknowledged: {problem}", problem=as_said(problem)))
    if alert in acknowledgements(ledger):
        raise IllegalAction(say("alert {alert} is acknowledged already", alert=alert))
    if alert not in {a.id for a in raised(ledger, theory)}:
        raise IllegalAction(say("no alert {alert} is raised in this ledger", alert=alert))
    ledger.append(STAFF_REGISTER, None, [event.record()])
    return event
