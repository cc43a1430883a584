"""`dealer-tui staff`: the accounts of the ledger's staff register (add, set-pin, set-role,
disable, list). Every change is authorised by the manager named with `--by` — or, for a new
PIN, by the account's own current PIN — who signs in with their PIN first. PINs are read
without echo from the terminal, or one per line from standard input when it is not one."""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import TYPE_CHECKING

from dealer_tui.commands.common import add_ledger_option, fail, ledger_path, whole
from dealer_tui.language import N_, _, number, told, told_error
from rules.said import say

if TYPE_CHECKING:
    from dealer_tui.ledger import Ledger
    from dealer_tui.staff import Approval, Purpose, StaffDesk

NAME = "staff"
HELP = N_("staff accounts: add, set-pin, set-role, disable, list, and the floor's settings (a manager authorises each "
          "change)")
SETTING_WORDS = (N_("multiple-transaction log: one cash transaction from"),
                 N_("currency transaction: a player's cash in or out over a gaming day from"),
                 N_("alert: two voids at one table within"), N_("the gaming day begins at (UTC)"),
                 N_("pit: a round reaching the server this long after it ended is late"),
                 N_("chips"), N_("minutes"), N_("o'clock"))
"""The floor's settings' labels and units (`staff.floor_settings`), as `staff settings` lists them."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from dealer_tui.events.staff import ROLES
    from dealer_tui.language import LANGUAGES

    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=type(parser))
    add = sub.add_parser("add", help=_("a new account; the ledger's first is a manager's, made without --by"))
    add.add_argument("--id", required=True, help=_("the account's ID (letters, digits, - _ .), as on the badge"))
    add.add_argument("--name", required=True, help=_("the person's name"))
    add.add_argument("--role", required=True, choices=ROLES)
    add.add_argument("--by", help=_("the manager who authorises it (asked for their PIN)"))
    pin = sub.add_parser("set-pin", help=_("a new PIN: with the account's current PIN, or a manager's (--by)"))
    pin.add_argument("--id", required=True)
    pin.add_argument("--by", help=_("a manager who sets it instead (a forgotten PIN)"))
    lang = sub.add_parser("set-language",
                          help=_("the language an account reads: with its own PIN, or a manager's (--by)"))
    lang.add_argument("--id", required=True)
    lang.add_argument("--language", required=True, choices=(*LANGUAGES, "default"),
                      help=_("en, hu, pl or ru; default: the terminal's"))
    lang.add_argument("--by", help=_("a manager who sets it instead"))
    role = sub.add_parser("set-role", help=_("another role for an account"))
    role.add_argument("--id", required=True)
    role.add_argument("--role", required=True, choices=ROLES)
    role.add_argument("--by", required=True, help=_("the manager who authorises it"))
    disable = sub.add_parser("disable", help=_("an account may not sign in any more (its records stay)"))
    disable.add_argument("--id", required=True)
    disable.add_argument("--by", required=True, help=_("the manager who authorises it"))
    disable.add_argument("--reason", default="", help=_("why (kept with the record)"))
    unlock = sub.add_parser("unlock", help=_("lift an account's lock-out before it runs out (a manager, saying why)"))
    unlock.add_argument("--id", required=True)
    unlock.add_argument("--by", required=True, help=_("the manager who lifts it"))
    unlock.add_argument("--reason", required=True, help=_("why (kept with the record)"))
    sub.add_parser("list", help=_("every account: ID, name, role, active or disabled, locked"))
    settings = sub.add_parser("settings", help=_("the floor's settings (thresholds of the cash logs and the alerts, "
                                                 "the gaming day's hour); with values, a manager changes them (--by, "
                                                 "--reason)"))
    settings.add_argument("--mtl", type=whole(), dest="mtl_threshold",
                          help=_("the multiple-transaction log's threshold"))
    settings.add_argument("--ctr", type=whole(), dest="ctr_threshold", help=_("the currency-transaction threshold"))
    settings.add_argument("--void-minutes", type=whole(), dest="void_alert_minutes",
                          help=_("two voids at one table within this many minutes raise an alert"))
    settings.add_argument("--late-minutes", type=whole(), dest="late_delivery_minutes",
                          help=_("a pit: a round reaching the server this many minutes after it ended is late"))
    settings.add_argument("--day-starts", type=whole(), dest="gaming_day_starts",
                          help=_("the hour (UTC, 0-23) a gaming day begins"))
    settings.add_argument("--by", help=_("the manager who changes them (asked for their PIN)"))
    settings.add_argument("--reason", default="", help=_("why (kept with the record)"))
    for p in (add, pin, lang, role, disable, *sub.choices.values()):
        if not any(a.dest == "ledger" for a in p._actions):
            add_ledger_option(p, server=True)


def read_pin(prompt: str) -> str:
    """A PIN: typed without echo at a terminal, else the next line of standard input."""
    what = prompt.strip().rstrip(":")
    try:
        if sys.stdin.isatty():
            return getpass.getpass(prompt)
        line = sys.stdin.readline()
    except (OSError, ValueError) as exc:  # closed, or not readable (a detached process)
        raise EOFError(_("{what}: standard input cannot be read ({problem})", what=what, problem=str(exc))) from None
    if not line:
        raise EOFError(_("{what}: standard input ended before a PIN was read", what=what))
    return line.rstrip("\r\n")


def sign_in(desk: StaffDesk, account: str, purpose: Purpose) -> Approval:
    """`account` signs in for `purpose` with the PIN it is asked for (`SignInRefused`); a PIN the
    account is asked to change (`Approval.renew_pin`) is changed first."""
    from dealer_tui.staff.pins import renewal_text

    pin = read_pin(_("PIN of {account}: ", account=account))
    approval = desk.sign_in(account, pin, purpose)
    if approval.renew_pin and not desk.register().attached:
        print(_("{account}: {why}.", account=account, why=told(renewal_text(approval.renew_pin, approval.role))),
              file=sys.stderr)
        desk.renew_pin(account, pin, new_pin(account))
    return approval


def new_pin(account: str) -> str:
    from dealer_tui.staff.pins import APPROVER_DIGITS, MIN_DIGITS

    first = read_pin(_("New PIN for {account} ({least}+ digits; {approver}+ for a supervisor, manager or auditor): ",
                       account=account, least=number(MIN_DIGITS), approver=number(APPROVER_DIGITS)))
    second = read_pin(_("The same PIN again: "))
    if first != second:
        raise ValueError(_("the two PINs differ; nothing was changed"))
    return first


def open_ledger(args: argparse.Namespace) -> Ledger:
    """The ledger whose staff register the command changes: a file, or the pit server's own."""
    from dealer_tui.commands.common import server_url, witness_for
    from dealer_tui.ledger import SqliteLedger
    from dealer_tui.ledger.postgres import PgLedger

    url = server_url(args)
    if url is not None:
        return PgLedger(url)
    return SqliteLedger(ledger_path(args), witness=witness_for(args))


def run(args: argparse.Namespace) -> int:
    from dealer_tui.language import LANGUAGES
    from dealer_tui.ledger import LedgerError
    from dealer_tui.staff import (
        MANAGE,
        SET_LANGUAGE,
        SET_PIN,
        Purpose,
        SignInRefused,
        StaffDesk,
        StaffError,
    )

    try:
        ledger = open_ledger(args)
    except LedgerError as exc:
        return fail(told_error(exc))
    desk = StaffDesk(ledger)
    try:
        if args.action == "list":
            return _list(desk)
        if args.action == "settings":
            return _settings(desk, args)
        register = desk.register()
        if args.action == "add" and not register.has_accounts():
            if args.by:
                return fail(_("--by: the ledger has no accounts yet: its first account is made without --by"))
            if args.role != "manager":
                return fail(_("--role: the ledger's first account is a manager's, not a {role}'s",
                              role=role_word(args.role)))
            desk.add_first_manager(args.id, args.name, new_pin(args.id))
            print(_("ok: {name} ({account}) is the ledger's first manager", name=args.name, account=args.id))
            return 0
        if args.action == "set-pin":
            by = args.by or args.id
            act = MANAGE if args.by else SET_PIN
            approval = sign_in(desk, by, Purpose(act, say("set the PIN of {account}", account=args.id)))
            desk.set_pin(args.id, new_pin(args.id), approval)
            print(_("ok: the PIN of {account} is changed (by {by})", account=args.id, by=approval.describe()))
            return 0
        if args.action == "set-language":
            language = "" if args.language == "default" else args.language
            by = args.by or args.id
            approval = sign_in(desk, by, Purpose(MANAGE if args.by else SET_LANGUAGE,
                                                 say("set the language of {account} to {language}", account=args.id,
                                                     language=args.language)))
            desk.set_language(args.id, language, approval)
            print(_("ok: {account} reads {language} (by {by})", account=args.id, language=LANGUAGES[language],
                    by=approval.describe()) if language in LANGUAGES
                  else _("ok: {account} reads the terminal's language (by {by})", account=args.id,
                         by=approval.describe()))
            return 0
        if not args.by:
            return fail(_("--by: a manager authorises `staff {action}` (the ledger has accounts)", action=args.action))
        approval = sign_in(desk, args.by, Purpose(MANAGE, say("staff {action} {account}", action=args.action,
                                                              account=args.id)))
        if args.action == "add":
            desk.add(args.id, args.name, args.role, new_pin(args.id), approval)
            print(_("ok: {name} ({account}) added as {role} (by {by})", name=args.name, account=args.id,
                    role=role_word(args.role), by=approval.describe()))
        elif args.action == "unlock":
            desk.unlock(args.id, approval, args.reason)
            print(_("ok: the lock-out of {account} is lifted (by {by}): {reason}", account=args.id,
                    by=approval.describe(), reason=args.reason.strip()))
        elif args.action == "set-role":
            desk.set_role(args.id, args.role, approval)
            print(_("ok: {account} is a {role} now (by {by})", account=args.id, role=role_word(args.role),
                    by=approval.describe()))
        else:
            desk.disable(args.id, approval, args.reason)
            print(_("ok: {account} is disabled (by {by})", account=args.id, by=approval.describe()))
        return 0
    except (SignInRefused, StaffError, ValueError, EOFError, LedgerError) as exc:
        return fail(_("{problem}; nothing was changed", problem=told_error(exc)) if isinstance(exc, SignInRefused)
                    else told_error(exc))
    finally:
        ledger.close()


def _settings(desk: StaffDesk, args: argparse.Namespace) -> int:
    from dealer_tui.staff import MANAGE, Purpose
    from dealer_tui.staff.floor_settings import SETTINGS, setting_problem

    changes = {name: getattr(args, name) for name in SETTINGS if getattr(args, name, None) is not None}
    if not changes:
        current = desk.register().settings
        for name, setting in SETTINGS.items():
            print(f"{name:<20} {number(current[name]):>12}  {_(setting.label)} ({_(setting.unit)})")
        return 0
    for name, value in changes.items():
        problem = setting_problem(name, value)
        if problem is not None:
            return fail(told(problem))
    if not args.by:
        return fail(_("--by: a manager changes the floor's settings"))
    if not args.reason.strip():
        return fail(_("--reason: a change of the floor's settings gives its reason"))
    approval = sign_in(desk, args.by, Purpose(MANAGE, say("change the floor's settings")))
    desk.change_settings(changes, args.reason, approval)
    print(_("ok: {settings} (by {by})", settings=", ".join(f"{k} {number(v)}" for k, v in changes.items()),
            by=approval.describe()))
    return 0


def _list(desk: StaffDesk) -> int:
    register = desk.register()
    if not register.has_accounts():
        print(_("no staff accounts yet: the first is a manager's (`dealer-tui staff add --id ID --name NAME "
                "--role manager`, or the terminal's first start)"))
        return 0
    head = _("ID"), _("name"), _("role"), _("language"), _("state")
    print(f"{head[0]:<12} {head[1]:<28} {head[2]:<11} {head[3]:<9} {head[4]}")
    for account in sorted(register.accounts.values(), key=lambda a: a.id):  # the ID, role and language as codes
        locked = desk.locked_for(account.id, register)
        state = (_("disabled") if not account.active else _("locked {seconds} s", seconds=number(locked)) if locked
                 else _("active"))
        print(f"{account.id:<12} {account.name[:28]:<28} {account.role:<11} {account.language or '-':<9} {state}")
    return 0


def role_word(role: str) -> str:
    """A role as a sentence names it in the reader's language (English: its code)."""
    from dealer_tui.staff.pins import ROLE_NAMES

    return told(ROLE_NAMES.get(role) or role)
