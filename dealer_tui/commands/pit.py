"""`dealer-tui pit`: the pit server (PostgreSQL) every table's terminal delivers to.

`pit init` creates (or brings up to date) the schema, the roles `pit_terminal`, `pit_floor` and
`pit_auditor`, and the pit's first manager, whose PIN is read without echo from the terminal, or
from standard input when it is not one. `pit status` lists every terminal and table the server
knows, when each was last heard from, and the deliveries it refused; `pit area` puts a table in a
pit area (a manager signs in for it)."""

from __future__ import annotations

import argparse
import sys

from dealer_tui.commands.common import add_ledger_option, add_witness_option, fail, whole

NAME = "pit"
HELP = "the pit server (PostgreSQL): init (schema, roles, first manager), status (terminals, tables, alarms)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=type(parser))
    init = sub.add_parser("init", help="create or bring up to date the pit's schema, its roles and first manager")
    status = sub.add_parser("status", help="every terminal and table the server knows, and the deliveries it refused")
    area = sub.add_parser("area", help="the pit area a table stands in (the floor filters by it; a manager's change)")
    area.add_argument("--table", required=True, metavar="ID|NAME",
                      help="the table: its id on the server (pit status lists them), or its name when no other has it")
    area.add_argument("--area", required=True, help="the area's name (empty: none)")
    area.add_argument("--by", required=True, help="the manager who makes the change (asked for their PIN)")
    ack = sub.add_parser("acknowledge", help="a manager's word on an alarm, looked into (it is kept, and leaves "
                         "verify's problems for its notes)")
    ack.add_argument("--alarm", required=True, type=whole(), metavar="N", help="the alarm's number (pit status)")
    ack.add_argument("--reason", required=True, help="what was found")
    ack.add_argument("--by", required=True, help="the manager (asked for their PIN)")
    bind = sub.add_parser("bind", help="take this terminal's staff from the pit whose key is shown (a manager of "
                          "this terminal, or, on one with none, a manager of the pit with their PIN)")
    bind.add_argument("--by", default="", help="the manager who binds it (asked for their PIN); not needed when it is "
                      "bound already")
    bind.add_argument("--pit-manager", default="", metavar="ID",
                      help="a manager of the pit who confirms this terminal's key for the pit's PINs (asked for their "
                      "PIN; the manager who binds a terminal with no manager of its own confirms it by binding)")
    bind.add_argument("--expect", metavar="FINGERPRINT", default="",
                      help="the pit's key as `pit status` shows it at the pit: refused if the server's differs")
    add_ledger_option(bind)
    add_witness_option(bind)
    forget = sub.add_parser("forget-key", help="let a terminal's login take a new key for the pit's PINs (another "
                            "machine took one with it first, or the terminal was replaced); the pit owner's login")
    forget.add_argument("--login", required=True, help="the terminal's PostgreSQL login")
    forget.add_argument("--by", required=True, help="the manager who lifts it (asked for their PIN)")
    for p in (init, status, area, ack, bind, forget):
        p.add_argument("--server", required=True, metavar="URL", help="the pit server (postgresql://...)")
    init.add_argument("--manager-id", required=True, help="the first manager's account ID")
    init.add_argument("--manager-name", required=True, help="the first manager's name")


def run(args: argparse.Namespace) -> int:
    from dealer_tui.ledger import LedgerError
    from dealer_tui.ledger.postgres import is_server

    if not is_server(args.server):
        return fail(f"--server: {args.server!r} is not a postgresql:// URL")
    try:
        if args.action == "area":
            return _area(args)
        if args.action == "acknowledge":
            return _acknowledge(args)
        if args.action == "bind":
            return _bind(args)
        if args.action == "forget-key":
            return _forget_key(args)
        return _init(args) if args.action == "init" else _status(args.server)
    except LedgerError as exc:
        return fail(str(exc))


def _init(args: argparse.Namespace) -> int:
    from dealer_tui.commands.staff import new_pin
    from dealer_tui.ledger.base import key_fingerprint
    from dealer_tui.ledger.postgres import PgLedger, init_schema, shown
    from dealer_tui.staff import StaffDesk, StaffError

    init_schema(args.server)
    pit = PgLedger(args.server)
    try:
        key = pit.pit_key()
        desk = StaffDesk(pit)
        if desk.register().has_accounts():
            print(f"ok: {shown(args.server)}: the pit's schema is up to date; its staff accounts were kept "
                  "(a manager adds more with `dealer-tui staff add --ledger URL`); the pit's key: "
                  f"{key_fingerprint(key)}")
            return 0
        try:
            desk.add_first_manager(args.manager_id, args.manager_name, new_pin(args.manager_id))
        except (StaffError, ValueError, EOFError) as exc:
            return fail(f"the schema is made; the first manager is not: {exc}")
    finally:
        pit.close()
    print(f"ok: {shown(args.server)}: the pit's schema, its roles (pit_terminal, pit_floor, pit_auditor) and its "
          f"first manager {args.manager_id} ({args.manager_name}); the pit's key: {key_fingerprint(key)} (a manager "
          "compares it at each terminal: `dealer-tui pit bind`)")
    return 0


def _status(url: str) -> int:
    from dealer_tui.ledger.base import key_fingerprint
    from dealer_tui.ledger.postgres import PgLedger
    from dealer_tui.pit.delivery import link_state

    pit = PgLedger(url)
    try:
        key = pit.pit_key()
        print(f"The pit's key: {key_fingerprint(key) if key else 'none (its owner runs `pit init` again)'}")
        links, areas, counts = pit.table_links(), pit.areas(), pit.round_counts()
        print(f"{'Id':>4}  {'Table':<20} {'Area':<12} {'Game':<16} {'Rounds':>14}  Terminal")
        for table in pit.tables():
            at, ago, closed = links.get(table.id, ("", None, False))
            state = link_state(at, ago, closed)
            rounds = counts.get(table.id, 0)
            area = areas.get(table.id, "") or "-"
            print(f"{table.id:>4}  {table.name:<20} {area:<12} {table.game:<16} {rounds:>7} rounds  {state}")
        alarms = pit.alarms()
        for when, origin, table_name, message in alarms:
            sys.stdout.write(f"ALARM {when} UTC  terminal {origin[:8]}  table {table_name}: {message}\n")
    finally:
        pit.close()
    return 1 if alarms else 0


def _area(args: argparse.Namespace) -> int:
    from dealer_tui.commands.staff import sign_in
    from dealer_tui.events.staff import area_purpose
    from dealer_tui.ledger.postgres import PgLedger
    from dealer_tui.staff import MANAGE, Purpose, SignInRefused, StaffDesk

    pit = PgLedger(args.server)
    try:
        named = [t for t in pit.tables() if str(t.id) == args.table or t.name == args.table]
        if len(named) != 1:
            found = ", ".join(f"{t.id} ({t.game})" for t in named)
            return fail(f"--table: no table {args.table!r} on the server (`dealer-tui pit status` lists them)"
                        if not named else f"--table: {len(named)} tables are named {args.table!r} (ids {found}): "
                        "give the id")
        table = named[0]
        try:
            who = sign_in(StaffDesk(pit), args.by, Purpose(MANAGE, area_purpose(table.id, args.area)))
        except (SignInRefused, EOFError) as exc:
            return fail(str(exc))
        pit.set_area(table.id, args.area, who.account, who.sign_in)
    finally:
        pit.close()
    print(f"ok: table {table.name} ({table.id}) stands in area {args.area.strip() or '(none)'}")
    return 0


def _acknowledge(args: argparse.Namespace) -> int:
    from dealer_tui.commands.staff import sign_in
    from dealer_tui.events.staff import alarm_purpose
    from dealer_tui.ledger.postgres import PgLedger
    from dealer_tui.staff import MANAGE, Purpose, SignInRefused, StaffDesk

    pit = PgLedger(args.server)
    try:
        try:
            who = sign_in(StaffDesk(pit), args.by, Purpose(MANAGE, alarm_purpose(args.alarm)))
        except (SignInRefused, EOFError) as exc:
            return fail(str(exc))
        pit.acknowledge(args.alarm, args.reason, who.account, who.sign_in)
    finally:
        pit.close()
    print(f"ok: alarm {args.alarm} acknowledged by {args.by}: {args.reason.strip()}")
    return 0


def _forget_key(args: argparse.Namespace) -> int:
    from dealer_tui.commands.staff import sign_in
    from dealer_tui.ledger.postgres import PgLedger
    from dealer_tui.staff import MANAGE, Purpose, SignInRefused, StaffDesk

    pit = PgLedger(args.server)
    try:
        try:
            sign_in(StaffDesk(pit), args.by, Purpose(MANAGE, f"forget the pit key of login {args.login}"))
        except (SignInRefused, EOFError) as exc:
            return fail(str(exc))
        taken = pit.forget_login_key(args.login)
    finally:
        pit.close()
    if taken is None:
        return fail(f"--login: login {args.login!r} holds no key on the pit")
    print(f"ok: login {args.login}'s key (taken {taken} UTC) is forgotten: the next terminal to deliver with it takes "
          "a new one")
    return 0


def _bind(args: argparse.Namespace) -> int:
    from dealer_tui.commands.common import ledger_path, witness_for
    from dealer_tui.commands.staff import read_pin, sign_in
    from dealer_tui.ledger import LedgerError, SqliteLedger
    from dealer_tui.ledger.base import key_fingerprint
    from dealer_tui.ledger.postgres import PgLedger, shown, unsealer
    from dealer_tui.pit.delivery import Delivery
    from dealer_tui.staff import (
        MANAGE,
        Purpose,
        SignInRefused,
        StaffDesk,
        StaffError,
        StaffRegister,
    )

    pit = PgLedger(args.server)
    try:
        key = pit.pit_key()
        if not key:
            return fail(f"{shown(args.server)} has no key: its owner runs `dealer-tui pit init` again to make one")
        fingerprint = key_fingerprint(key)
        wanted = "".join(args.expect.split()).lower()
        if wanted and wanted != fingerprint.replace(" ", ""):
            return fail(f"--expect: the server's key is {fingerprint}, not {args.expect!r}: it is not that pit")
        pit_register = StaffRegister.read(pit)
    finally:
        pit.close()
    path = ledger_path(args)
    ledger = SqliteLedger(path, witness=witness_for(args))
    try:
        desk = StaffDesk(ledger)
        what = f"bind this terminal to pit {fingerprint}"
        terminal_key = ledger.pit_login_key()
        print(f"The pit's key: {fingerprint}")
        binding = desk.register().binding
        confirmed_key = False
        try:
            if binding is not None and binding.pit_key == key and binding.confirmed:
                print(f"This terminal is bound to pit {fingerprint} already.")
            elif not args.by:
                return fail("--by: a manager binds the terminal (of this terminal, or, on one with no manager of its "
                            "own, of the pit)")
            elif desk.register().vouched_managers():
                desk.bind_pit(key, shown(args.server), sign_in(desk, args.by, Purpose(MANAGE, what)))
            else:
                pin = read_pin(f"PIN of the pit's manager {args.by}: ")
                desk.bind_pit(key, shown(args.server), desk.confirm_pit_manager(
                    args.by, pin, pit_register, what, unsealer(args.server, terminal_key)), at_pit=True)
                confirmed_key = True
            if args.pit_manager and not confirmed_key:
                pin = read_pin(f"PIN of the pit's manager {args.pit_manager}: ")
                desk.confirm_pit_manager(args.pit_manager, pin, pit_register, "confirm this terminal's key for the "
                                         "pit's PINs", unsealer(args.server, terminal_key))
        except (SignInRefused, StaffError, EOFError, LedgerError) as exc:
            return fail(str(exc))
    finally:
        ledger.close()
    delivery = Delivery(path, args.server)
    try:
        received = delivery.receive_staff()
    finally:
        delivery.close()
    if delivery.unbound:
        return fail(f"this terminal is bound to pit {fingerprint}, but takes no staff from it yet: {delivery.unbound}")
    print(f"ok: this terminal takes its staff from pit {fingerprint} ({received} events of its register received)")
    return 0
