"""`dealer-tui floor`: the supervisor's review of the ledger (rounds, stories, totals, export) and
the sign-off queue, after a supervisor's, manager's or auditor's sign-in. It reads the ledger
beside the dealer's terminal; only sign-ins and sign-off decisions are written."""

from __future__ import annotations

import argparse
from pathlib import Path

from dealer_tui.commands.common import add_ledger_option, fail, ledger_path, server_url
from dealer_tui.language import N_, _, current, told_error

NAME = "floor"
HELP = N_("the floor supervisor's review of the ledger and sign-off queue (may run beside the dealer's terminal)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_ledger_option(parser, server=True)
    parser.add_argument("--first", choices=("map", "rounds"), default="map",
                        help=_("the screen the review opens on: the pit map (the default) or the rounds list"))
    parser.add_argument("--serve", metavar="HOST:PORT", default=None,
                        help=_("serve the floor review to browsers (tablets on the floor) at this address instead of "
                               "opening it here; each browser signs in as here. An address other than this machine's "
                               "own (127.0.0.1, localhost) needs --certificate and --key: PINs cross the network"))
    parser.add_argument("--certificate", metavar="FILE", type=Path, default=None,
                        help=_("with --serve: the server's TLS certificate (PEM, its chain): HTTPS and WSS"))
    parser.add_argument("--key", metavar="FILE", type=Path, default=None,
                        help=_("with --serve: the certificate's key (PEM)"))
    parser.add_argument("--insecure", action="store_true",
                        help=_("with --serve: serve plain HTTP on the network all the same (PINs readable on the "
                               "wire)"))


def address(text: str) -> tuple[str, int]:
    """HOST:PORT (a port alone: every interface)."""
    host, _colon, port = text.rpartition(":")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(_("--serve: {address} is not HOST:PORT (a port 1-65535)", address=repr(text)))
    return host or "0.0.0.0", int(port)


def serve(args: argparse.Namespace, host: str, port: int) -> int:
    """The floor review in a browser: each browser's session runs this command without --serve."""
    import shlex
    import ssl
    import sys

    from dealer_tui.commands.floor_serve import FloorServer, loopback, tls_context

    if (args.certificate is None) != (args.key is None):
        return fail(_("--certificate and --key go together: the certificate and its key"))
    tls = None
    if args.certificate is not None and args.key is not None:
        try:
            tls = tls_context(args.certificate, args.key)
        except (OSError, ssl.SSLError) as exc:
            return fail(_("--certificate/--key: the certificate does not load ({problem})",
                          problem=str(getattr(exc, "strerror", None) or exc)))
    elif not loopback(host) and not args.insecure:
        return fail(_("--serve {host}:{port}: tablets on the network would send PINs in the clear; give "
                      "--certificate and --key (HTTPS), or --insecure to serve plain HTTP all the same",
                      host=host, port=str(port)))
    argv = [sys.executable, "-m", "dealer_tui.cli", "--lang", current().code, "floor"]  # this terminal's language
    if args.ledger is not None:
        argv += ["--ledger", str(args.ledger)]
    argv += ["--first", args.first]
    print(_("the floor review is served at {address} (Ctrl+C stops it)",
            address=f"{'https' if tls else 'http'}://{host}:{port}"), flush=True)
    FloorServer(shlex.join(argv), host, port, tls).serve()
    return 0


def run(args: argparse.Namespace) -> int:
    from dealer_tui.floor_app import FloorApp
    from dealer_tui.games import GAMES
    from dealer_tui.ledger import LedgerError, SqliteLedger
    from dealer_tui.ledger.postgres import PgLedger
    from dealer_tui.staff import StaffDesk

    url = server_url(args)
    path = url or ledger_path(args)
    try:
        ledger = PgLedger(url) if url else SqliteLedger(path, readonly=True)
    except LedgerError as exc:
        return fail(told_error(exc))
    try:
        writer = PgLedger(url) if url else SqliteLedger(path)  # the sign-ins and decisions, and nothing else
    except LedgerError as exc:
        ledger.close()
        return fail(_("{problem}: the floor signs its users in on the ledger, which must be writable",
                      problem=told_error(exc)))
    try:
        if not StaffDesk(writer).register().has_accounts():
            return fail(_("{ledger}: the ledger has no staff accounts yet: the dealer terminal's first start makes "
                          "the first manager, or `dealer-tui staff add` does (for a pit server: `dealer-tui pit init`)",
                          ledger=str(path)))
        if args.serve is not None:
            try:
                host, port = address(args.serve)
            except ValueError as exc:
                return fail(str(exc))
            return serve(args, host, port)
        FloorApp(ledger, GAMES, StaffDesk(writer), first=args.first).run()
    finally:
        writer.close()
        ledger.close()
    return 0
