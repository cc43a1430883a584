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
from dealer_tui.language import N_, _, n_, number, told, told_error
from rules.said import say

NAME = "pit"
HELP = N_("the pit server (PostgreSQL): init (schema, roles, first manager), status (terminals, tables, alarms)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=type(parser))
    init = sub.add_parser("init", help=_("create or bring up to date the pit's schema, its roles and first manager"))
    status = sub.add_parser("status",
                            help=_("every terminal and table the server knows, and the deliveries it refused"))
    area = sub.add_parser("area",
                          help=_("the pit area a table stands in (the floor filters by it; a manager's change)"))
    area.add_argument("--table", required=True, metavar="ID|NAME",
                      help=_("the table: its id on the server (pit status lists them), or its name when no other has "
                             "it"))
    area.add_argument("--area", required=True, help=_("the area's name (empty: none)"))
    area.add_argument("--by", required=True, help=_("the manager who makes the change (asked for their PIN)"))
    ack = sub.add_parser("acknowledge", help=_("a manager's word on an alarm, looked into (it is kept, and leaves "
                                               "verify's problems for its notes)"))
    ack.add_argument("--alarm", required=True, type=whole(), metavar="N", help=_("the alarm's number (pit status)"))
    ack.add_argument("--reason", required=True, help=_("what was found"))
    ack.add_argument("--by", required=True, help=_("the manager (asked for their PIN)"))
    bind = sub.add_parser("bind", help=_("take this terminal's staff from the pit whose key is shown (a manager of "
                                         "this terminal, or, on one with none, a manager of the pit with their PIN)"))
    bind.add_argument("--by", default="", help=_("the manager who binds it (asked for their PIN); not needed when it "
                                                 "is bound already"))
    bind.add_argument("--pit-manager", default="", metavar="ID",
                      help=_("a manager of the pit who confirms this terminal's key for the pit's PINs (asked for "
                             "their PIN; the manager who binds a terminal with no manager of its own confirms it by "
                             "binding)"))
    bind.add_argument("--expect", metavar="FINGERPRINT", default="",
                      help=_("the pit's key as `pit status` shows it at the pit: refused if the server's differs"))
    add_ledger_option(bind)
    add_witness_option(bind)
    forget = sub.add_parser("forget-key", help=_("let a terminal's login take a new key for the pit's PINs (another "
                                                 "machine took one with it first, or the terminal was replaced); the "
                                                 "pit owner's login"))
    forget.add_argument("--login", required=True, help=_("the terminal's PostgreSQL login"))
    forget.add_argument("--by", required=True, help=_("the manager who lifts it (asked for their PIN)"))
    for p in (init, status, area, ack, bind, forget):
        p.add_argument("--server", required=True, metavar="URL", help=_("the pit server (postgresql://...)"))
    init.add_argument("--manager-id", required=True, help=_("the first manager's account ID"))
    init.add_argument("--manager-name", required=True, help=_("the first manager's name"))


def run(args: argparse.Namespace) -> int:
    from dealer_tui.ledger import LedgerError
    from dealer_tui.ledger.postgres import is_server

    if not is_server(args.server):
        return fail(_("--server: {url} is not a postgresql:// URL", url=repr(args.server)))
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
        return fail(told_error(exc))


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
            print(_("ok: {server}: the pit's schema is up to date; its staff accounts were kept (a manager adds more "
                    "with `dealer-tui staff add --ledger URL`); the pit's key: {key}", server=shown(args.server),
                    key=key_fingerprint(key)))
            return 0
        try:
            desk.add_first_manager(args.manager_id, args.manager_name, new_pin(args.manager_id))
        except (StaffError, ValueError, EOFError) as exc:
            return fail(_("the schema is made; the first manager is not: {problem}", problem=told_error(exc)))
    finally:
        pit.close()
    print(_("ok: {server}: the pit's schema, its roles (pit_terminal, pit_floor, pit_auditor) and its first manager "
            "{account} ({name}); the pit's key: {key} (a manager compares it at each terminal: `dealer-tui pit bind`)",
            server=shown(args.server), account=args.manager_id, name=args.manager_name, key=key_fingerprint(key)))
    return 0


def _status(url: str) -> int:
    from dealer_tui.ledger.base import key_fingerprint
    from dealer_tui.ledger.pit_words import alarm_said
    from dealer_tui.ledger.postgres import PgLedger
    from dealer_tui.pit.delivery import link_state

    pit = PgLedger(url)
    try:
        key = pit.pit_key()
        print(_("The pit's key: {key}", key=key_fingerprint(key)) if key
              else _("The pit's key: none (its owner runs `pit init` again)"))
        links, areas, counts = pit.table_links(), pit.areas(), pit.round_counts()
        head = _("Id"), _("Table"), _("Area"), _("Game"), _("Rounds"), _("Terminal")
        print(f"{head[0]:>4}  {head[1]:<20} {head[2]:<12} {head[3]:<16} {head[4]:>14}  {head[5]}")
        for table in pit.tables():
            at, ago, closed = links.get(table.id, ("", None, False))
            state = told(link_state(at, ago, closed))
            rounds = counts.get(table.id, 0)
            area = areas.get(table.id, "") or "-"
            played = n_("{padded} rounds", "{padded} rounds", rounds, padded=f"{number(rounds):>7}")
            print(f"{table.id:>4}  {table.name:<20} {area:<12} {table.game:<16} {played}  {state}")
        alarms = pit.alarms()
        for when, origin, table_name, message in alarms:
            sys.stdout.write(_("ALARM {when} UTC  terminal {terminal}  table {table}: {what}", when=str(when),
                               terminal=origin[:8], table=table_name, what=told(alarm_said(message))) + "\n")
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
            return fail(_("--table: no table {table} on the server (`dealer-tui pit status` lists them)",
                          table=repr(args.table)) if not named
                        else n_("--table: {count} tables are named {table} (ids {ids}): give the id",
                                "--table: {count} tables are named {table} (ids {ids}): give the id", len(named),
                                table=repr(args.table), ids=found))
        table = named[0]
        try:
            who = sign_in(StaffDesk(pit), args.by, Purpose(MANAGE, area_purpose(table.id, args.area)))
        except (SignInRefused, EOFError) as exc:
            return fail(told_error(exc))
        pit.set_area(table.id, args.area, who.account, who.sign_in)
    finally:
        pit.close()
    print(_("ok: table {table} ({id}) stands in area {area}", table=table.name, id=str(table.id), area=args.area.strip())
          if args.area.strip() else _("ok: table {table} ({id}) stands in area (none)", table=table.name,
                                      id=str(table.id)))
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
            return fail(told_error(exc))
        pit.acknowledge(args.alarm, args.reason, who.account, who.sign_in)
    finally:
        pit.close()
    print(_("ok: alarm {alarm} acknowledged by {account}: {reason}", alarm=str(args.alarm), account=args.by,
            reason=args.reason.strip()))
    return 0


def _forget_key(args: argparse.Namespace) -> int:
    from dealer_tui.commands.staff import sign_in
    from dealer_tui.ledger.postgres import PgLedger
    from dealer_tui.staff import MANAGE, Purpose, SignInRefused, StaffDesk

    pit = PgLedger(args.server)
    try:
        try:
            sign_in(StaffDesk(pit), args.by, Purpose(MANAGE, say("forget the pit key of login {login}",
                                                                 login=args.login)))
        except (SignInRefused, EOFError) as exc:
            return fail(told_error(exc))
        taken = pit.forget_login_key(args.login)
    finally:
        pit.close()
    if taken is None:
        return fail(_("--login: login {login} holds no key on the pit", login=repr(args.login)))
    print(_("ok: login {login}'s key (taken {taken} UTC) is forgotten: the next terminal to deliver with it takes a "
            "new one", login=args.login, taken=str(taken)))
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
            return fail(_("{server} has no key: its owner runs `dealer-tui pit init` again to make one",
                          server=shown(args.server)))
        fingerprint = key_fingerprint(key)
        wanted = "".join(args.expect.split()).lower()
        if wanted and wanted != fingerprint.replace(" ", ""):
            return fail(_("--expect: the server's key is {key}, not {expected}: it is not that pit", key=fingerprint,
                          expected=repr(args.expect)))
        pit_register = StaffRegister.read(pit)
    finally:
        pit.close()
    path = ledger_path(args)
    ledger = SqliteLedger(path, witness=witness_for(args))
    try:
        desk = StaffDesk(ledger)
        what = say("bind this terminal to pit {pit}", pit=fingerprint)
        terminal_key = ledger.pit_login_key()
        print(_("The pit's key: {key}", key=fingerprint))
        binding = desk.register().binding
        confirmed_key = False
        try:
            if binding is not None and binding.pit_key == key and binding.confirmed:
                print(_("This terminal is bound to pit {pit} already.", pit=fingerprint))
            elif not args.by:
                return fail(_("--by: a manager binds the terminal (of this terminal, or, on one with no manager of "
                              "its own, of the pit)"))
            elif desk.register().vouched_managers():
                desk.bind_pit(key, shown(args.server), sign_in(desk, args.by, Purpose(MANAGE, what)))
            else:
                pin = read_pin(_("PIN of the pit's manager {account}: ", account=args.by))
                desk.bind_pit(key, shown(args.server), desk.confirm_pit_manager(
                    args.by, pin, pit_register, what, unsealer(args.server, terminal_key)), at_pit=True)
                confirmed_key = True
            if args.pit_manager and not confirmed_key:
                pin = read_pin(_("PIN of the pit's manager {account}: ", account=args.pit_manager))
                desk.confirm_pit_manager(args.pit_manager, pin, pit_register,
                                         say("confirm this terminal's key for the pit's PINs"),
                                         unsealer(args.server, terminal_key))
        except (SignInRefused, StaffError, EOFError, LedgerError) as exc:
            return fail(told_error(exc))
    finally:
        ledger.close()
    delivery = Delivery(path, args.server)
    try:
        received = delivery.receive_staff()
    finally:
        delivery.close()
    if delivery.unbound:
        return fail(_("this terminal is bound to pit {pit}, but takes no staff from it yet: {problem}", pit=fingerprint,
                      problem=told(delivery.unbound)))
    print(n_("ok: this terminal takes its staff from pit {pit} ({count} events of its register received)",
             "ok: this terminal takes its staff from pit {pit} ({count} events of its register received)", received,
             pit=fingerprint))
    return 0
