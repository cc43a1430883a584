"""What the pit server says when it refuses a delivery, in the reader's language.

The server's checks (`ledger/pit_schema.sql`) refuse in English: the text a PostgreSQL exception
carries. A terminal shows that text to its dealer and keeps it as the pit's alarm; here each of the
server's sentences is read back into its message and values, so that a reader of another language
sees it in theirs. A text the server says that is not known here is shown as it came."""

from __future__ import annotations

import re
from collections.abc import Callable

from rules.said import Said, say

_N = r"(\d+)"
_W = r"(\S+)"
_T = r"(.+?)"
"""A table's name or a login: it may hold spaces (`Main 1`)."""
SERVER_SAYS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], Said]], ...] = tuple(
    (re.compile(f"^{pattern}$"), build) for pattern, build in (
        (rf"event {_N} is not JSON", lambda m: say("event {seq} is not JSON", seq=m[1])),
        (rf"event {_N} differs from the one the server holds \(the terminal's history was rewritten, or another "
         r"terminal delivers the same ledger\)",
         lambda m: say("event {seq} differs from the one the server holds (the terminal's history was rewritten, or "
                       "another terminal delivers the same ledger)", seq=m[1])),
        (rf"event {_N} does not follow the server's last \({_N}\)",
         lambda m: say("event {seq} does not follow the server's last ({last})", seq=m[1], last=m[2])),
        (rf"event {_N} does not link to the server's event {_N}",
         lambda m: say("event {seq} does not link to the server's event {last}", seq=m[1], last=m[2])),
        (rf"event {_N} is on the server already, in table {_T} of ledger {_W}: this ledger is a copy of that one "
         r"\(a new id does not make a chain new\)",
         lambda m: say("event {seq} is on the server already, in table {table} of ledger {ledger}: this ledger is a "
                       "copy of that one (a new id does not make a chain new)", seq=m[1], table=m[2], ledger=m[3])),
        (rf"event {_N} names sign-in {_W}, which the server does not hold in this ledger's register",
         lambda m: say("event {seq} names sign-in {sign_in}, which the server does not hold in this ledger's "
                       "register", seq=m[1], sign_in=m[2])),
        (rf"event {_N} is a sign-in the server holds already, in ledger {_W}: a sign-in copied from another ledger "
         r"\(a copy of it, re-hashed\)",
         lambda m: say("event {seq} is a sign-in the server holds already, in ledger {ledger}: a sign-in copied from "
                       "another ledger (a copy of it, re-hashed)", seq=m[1], ledger=m[2])),
        (rf"event {_N} is a lock-out no three wrong PINs before it made, or one that lasts other than 300 s: the pit "
         r"takes no lock-out it did not see made \(it locks on its own count and clock\)",
         lambda m: say("event {seq} is a lock-out no three wrong PINs before it made, or one that lasts other than "
                       "300 s: the pit takes no lock-out it did not see made (it locks on its own count and clock)",
                       seq=m[1])),
        (rf"event {_N} names a round the table does not have on the server",
         lambda m: say("event {seq} names a round the table does not have on the server", seq=m[1])),
        (rf"table {_T} is not one this login \({_T}\) registered: a terminal delivers its own tables only",
         lambda m: say("table {table} is not one this login ({login}) registered: a terminal delivers its own tables "
                       "only", table=m[1], login=m[2])),
        (rf"a {_W} is the pit's own act: it is signed with the pit's key, by the pit owner's login",
         lambda m: say("a {kind} is the pit's own act: it is signed with the pit's key, by the pit owner's login",
                       kind=m[1])),
        (rf"a {_W} event has no place on the pit's own chain",
         lambda m: say("a {kind} event has no place on the pit's own chain", kind=m[1])),
        (rf"a {_W} is no account event", lambda m: say("a {kind} is no account event", kind=m[1])),
        (r"a terminal's key is 32 bytes in hex", lambda m: say("a terminal's key is 32 bytes in hex")),
        (rf"login {_T} has no key on the pit", lambda m: say("login {login} has no key on the pit", login=m[1])),
        (rf"the tables of ledger {_W} are another login's",
         lambda m: say("the tables of ledger {ledger} are another login's", ledger=m[1])),
        (rf"table {_T} of ledger {_W} is another login's",
         lambda m: say("table {table} of ledger {ledger} is another login's", table=m[1], ledger=m[2])),
        (rf"table {_T} is not this login's", lambda m: say("table {table} is not this login's", table=m[1])),
        (rf"round {_W} is not this login's", lambda m: say("round {round} is not this login's", round=m[1])),
        (r"pit: the server's events and alarms are never (\w+) \((\w+)\)",
         lambda m: say("pit: the server's events and alarms are never changed ({done}, {table})", done=m[1],
                       table=m[2])),
    ))
"""Each sentence the pit server refuses with, as its check words it, and the sentence it is."""


def server_said(text: str) -> Said:
    """What the server said (`DeliveryRefused`'s text), as a sentence when it is one of its checks';
    a text not known here as it came."""
    for pattern, build in SERVER_SAYS:
        found = pattern.match(text.strip())
        if found is not None:
            return build(found)
    return Said.literal(text)


_RAISED = re.compile(r"^(?P<what>.*?)(?: \(terminal (?P<terminal>\S+)(?: on (?P<host>\S+))?\))?"
                     r"(?: \[raised by login (?P<login>[^\]]+)\])?$", re.S)
_NUMBERED = re.compile(r"^(?P<what>.*) \(alarm (?P<number>\d+)\)$", re.S)
_TABLE = re.compile(r"^table (?P<table>.+?): (?P<problem>.*)$", re.S)
_REFUSED = "the server refused this terminal: "
_DECISION = re.compile(r"^the pit floor's decision at its event (?P<seq>\d+) is not taken: (?P<problem>.*)$", re.S)
_NEW_KEY = re.compile(r"^login (?P<login>\S+): manager (?P<manager>\S+) confirmed a new terminal key; the key it replaces "
                      r"\(taken (?P<taken>.+?) from (?P<host>\S+), confirmed by (?P<by>\S+)\) was handed every PIN of "
                      r"the pit's register: if that was not this terminal, the staff choose new PINs$", re.S)


def alarm_said(text: str) -> Said:
    """An alarm the pit keeps (English, as the terminal raised it and the server stamped it) read
    back into its sentence, for a reader of any language; a text not known here as it is."""
    numbered = _NUMBERED.match(text)  # as the floor lists it: its number at its end
    if numbered is not None:
        return say("{what} (alarm {number})", what=alarm_said(numbered["what"]), number=numbered["number"])
    raised = _RAISED.match(text)
    if raised is None:
        return Said.literal(text)
    what = _problem(raised["what"])
    if raised["terminal"] and raised["host"]:
        what = say("{what} (terminal {terminal} on {host})", what=what, terminal=raised["terminal"],
                   host=raised["host"])
    elif raised["terminal"]:
        what = say("{what} (terminal {terminal})", what=what, terminal=raised["terminal"])
    if raised["login"]:
        what = say("{what} [raised by login {login}]", what=what, login=raised["login"])
    return what


def _problem(text: str) -> Said:
    if text.startswith(_REFUSED):
        return say("the server refused this terminal: {problem}", problem=server_said(text[len(_REFUSED):]))
    table = _TABLE.match(text)
    if table is not None:
        return say("table {table}: {problem}", table=table["table"], problem=server_said(table["problem"]))
    decision = _DECISION.match(text)
    if decision is not None:
        return say("the pit floor's decision at its event {seq} is not taken: {problem}", seq=decision["seq"],
                   problem=Said.literal(decision["problem"]))
    new_key = _NEW_KEY.match(text)
    if new_key is not None:
        return say("login {login}: manager {manager} confirmed a new terminal key; the key it replaces (taken {taken} "
                   "from {host}, confirmed by {by}) was handed every PIN of the pit's register: if that was not this "
                   "terminal, the staff choose new PINs", **{k: v for k, v in new_key.groupdict().items()})
    return server_said(text)
