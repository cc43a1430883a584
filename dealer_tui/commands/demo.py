"""`dealer-tui demo`: play rounds through the real state machines and ledger with built-in players."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from dealer_tui.commands.common import (
    add_ledger_option,
    add_pit_option,
    add_profiles_option,
    add_witness_option,
    fail,
    ledger_path,
    library,
    whole,
    witness_for,
)
from dealer_tui.language import N_, _, n_, number, told, told_error
from rules.said import say

if TYPE_CHECKING:
    from pathlib import Path

    from rich.console import Console

    from dealer_tui.demo.shift import DemoShift, Signatures, Witness
    from dealer_tui.ledger import TableLedger
    from dealer_tui.rounds.cards import CardSource
    from dealer_tui.rounds.steps import ConfirmPayout
    from dealer_tui.rounds.table import Table
    from dealer_tui.staff import Approval

NAME = "demo"
HELP = N_("play rounds with built-in players through the real rounds and ledger (training, demos)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", required=True, help=_("the game's id (dealer-tui --help lists them)"))
    parser.add_argument("--profile", help=_("profile name or YAML path (default: the game's)"))
    parser.add_argument("--rounds", type=whole(), default=10, help=_("rounds to play (default 10)"))
    parser.add_argument("--players", type=whole(), default=4, help=_("players to seat (default 4)"))
    parser.add_argument("--seed", type=whole(), default=None,
                        help=_("seed the shoe and the players (marked as seeded)"))
    parser.add_argument("--table", default=None,
                        help=_("table name (default: Demo <game>, a new table); a table of this name in the ledger "
                               "is played on, unless another terminal has it open"))
    parser.add_argument("--dealer", required=True, help=_("the account that deals (asked for its PIN)"))
    parser.add_argument("--supervisor", required=True,
                        help=_("the account that signs off big payouts (asked for its PIN once; each sign-off is "
                               "recorded as its own sign-in)"))
    parser.add_argument("--count-team", metavar="ACCOUNT", default=None,
                        help=_("a manager or an auditor who counts the drop box when the demo's shift closes (asked "
                               "for its PIN after the supervisor's); without it the shift closes with its drop box to "
                               "count (`dealer-tui shift count`)"))
    add_ledger_option(parser, help=_("the ledger file (default: training.sqlite, the training ledger, in the user data "
                                     "directory)"))
    add_pit_option(parser)
    add_witness_option(parser)
    add_profiles_option(parser)


def run(args: argparse.Namespace) -> int:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    from dealer_tui.demo import play, seat_players
    from dealer_tui.demo.shift import DemoShift
    from dealer_tui.games import GAMES
    from dealer_tui.ledger import LedgerError, SqliteLedger
    from dealer_tui.rounds.cards import VirtualShoe
    from dealer_tui.rounds.table import Table
    from dealer_tui.staff import SignInRefused
    from rules.errors import RulesError
    if args.game not in GAMES:
        return fail(_("--game: unknown game {game} (known: {games})", game=repr(args.game), games=", ".join(GAMES.ids())))
    if args.rounds < 1:
        return fail(_("--rounds: must be at least 1"))
    if args.ledger is None:  # its own ledger, never the live one by accident
        from dealer_tui.ledger.sqlite import default_training_ledger_path

        args.ledger = default_training_ledger_path()
    try:
        loaded = library(args).find(args.profile or GAMES.rules(args.game).default_profile, game=args.game)
        ledger = SqliteLedger(ledger_path(args), witness=witness_for(args))
    except (RulesError, LedgerError) as exc:
        return fail(told_error(exc))
    if args.pit is not None:  # the pit's staff first: the dealer and the supervisor are the pit's
        from dealer_tui.pit.delivery import Delivery

        delivery = Delivery(ledger_path(args), args.pit, "demo")
        try:
            delivery.receive_staff()
        except LedgerError as exc:
            ledger.close()
            return fail(_("--pit: {problem}", problem=told_error(exc)))
        finally:
            delivery.close()
    rng = random.Random(args.seed)
    shoe = VirtualShoe.seeded_with(args.seed) if args.seed is not None else VirtualShoe()
    seats = loaded.profile.max_seats()
    if not 1 <= args.players <= seats:
        return fail(_("--players: 1 to {seats} at a {game} table", seats=number(seats), game=args.game))
    try:
        table = _existing(ledger, args, shoe)
        if table is None:
            table = Table.create(ledger, args.table or f"Demo {args.game}", GAMES.find(args.game), loaded, shoe,
                                 seats=seats, training=True)
        approve, sign, witness, count_team = _sign_in_staff(table, args)
        shift = DemoShift(table, sign, witness)
        opened = shift.open(args.players)
        seat_players(table, args.players, shift)
        progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TextColumn(_("{rate} rounds/s", rate="{task.fields[rate]}")), TimeRemainingColumn(),
                            console=_stderr_console(), transient=False)
        with progress:
            task = progress.add_task(_("{game} demo", game=args.game), total=args.rounds, rate="-")

            def advance(played: int) -> None:
                elapsed = progress.tasks[0].elapsed or 1e-9
                progress.update(task, advance=1, rate=f"{played / elapsed:.0f}")

            played = play(table, args.rounds, rng, advance, approve, shift)
        closing = _close_shift(table, shift, count_team) if opened else []
    except (RulesError, LedgerError, SignInRefused, EOFError) as exc:
        return fail(told_error(exc))
    finally:
        ledger.close()
    print(n_("played {count} rounds of {game} at training table {table} in {ledger}",
             "played {count} rounds of {game} at training table {table} in {ledger}", played, game=args.game,
             table=repr(table.record.name), ledger=str(ledger.path)))
    for line in closing:
        print(line)
    if ledger.witness is not None and ledger.witness.error:
        sys.stderr.write(_("warning: {problem}", problem=told(ledger.witness.error)) + "\n")
    return _deliver(ledger_path(args), args.pit) if args.pit is not None else 0


def _deliver(path: Path, url: str) -> int:
    """`--pit`: the ledger delivered to the pit server once the rounds are played."""
    from dealer_tui.ledger import LedgerError
    from dealer_tui.ledger.postgres import shown
    from dealer_tui.pit.delivery import Delivery

    delivery = Delivery(path, url, "demo")
    try:
        result = delivery.once()
    except LedgerError as exc:
        return fail(_("--pit: {problem}; the rounds are in {ledger} and are delivered by the next run with --pit",
                      problem=told_error(exc), ledger=str(path)))
    finally:
        delivery.close(said=True)
    for line in result.refused:
        sys.stderr.write(_("error: {problem}", problem=_("the pit server refused {what}", what=line)) + "\n")
    if result.refused:
        return 1
    print(n_("delivered {count} new event(s) to {server}", "delivered {count} new event(s) to {server}",
             result.added, server=shown(url)))
    return 0


def _existing(ledger: TableLedger, args: argparse.Namespace, shoe: CardSource) -> Table | None:
    """The training table named with `--table`, reopened under its latest profile (`TableInUse`
    while another terminal has it open); None when there is none. A live table is refused: demo
    players never play into a live table's records."""
    from dealer_tui.events import typed, typed_as
    from dealer_tui.events.table import TableChanged, TableOpened
    from dealer_tui.games import GAMES
    from dealer_tui.ledger import LedgerError
    from dealer_tui.rounds.table import Table
    from dealer_tui.rounds.table_profiles import table_profiles

    if args.table is None:
        return None
    found = [t for t in ledger.tables() if t.name == args.table]
    if not found:
        return None
    record = found[-1]
    if record.game != args.game:
        raise LedgerError(_("--table: {table} is a {game} table, not {asked}", table=repr(args.table),
                            game=record.game, asked=args.game))
    changes = ledger.table_events(record.id, [TableOpened.KIND, TableChanged.KIND])
    if not changes:
        raise LedgerError(_("--table: {table} has no opening record: its creation never completed",
                            table=repr(args.table)))
    opened, latest = typed_as(TableOpened, changes[0]), typed(changes[-1])
    if not opened.training:
        raise LedgerError(_("--table: {table} is a live table; demo players play only at training tables",
                            table=repr(args.table)))
    assert isinstance(latest, (TableOpened, TableChanged))
    profile = table_profiles(ledger, record)[latest.profile_sha256]
    return Table.open(ledger, record, GAMES.find(record.game), profile, shoe)


def _sign_in_staff(table: Table, args: argparse.Namespace) -> tuple[
        Callable[[Table, ConfirmPayout], ConfirmPayout], Signatures, Witness, Approval | None]:
    """The dealer signs in at the table; the supervisor's PIN is asked once, and each payout that
    needs a sign-off is its own recorded sign-in for that round, as is each tray count, fill and
    credit (the dealer's and the supervisor's) and each marker (the supervisor's); the count
    team's sign-in, with `--count-team`."""
    from dealer_tui.commands.staff import read_pin
    from dealer_tui.staff import COUNT_DROP, DEAL, SIGN_OFF, TRAY, Purpose, StaffDesk

    desk = StaffDesk(table.ledger)
    where = say("table {table}", table=table.record.name)
    dealer_pin = read_pin(_("PIN of {account} (dealer): ", account=args.dealer))
    dealer = desk.sign_in(args.dealer, dealer_pin, Purpose(DEAL, say("deal at {where}", where=where), table.record.id))
    table.sign_in_dealer(dealer)
    pin = read_pin(_("PIN of {account} (supervisor): ", account=args.supervisor))
    desk.sign_in(args.supervisor, pin, Purpose(SIGN_OFF, say("sign off the demo's payouts at {where}", where=where),
                                               table.record.id))  # a wrong PIN stops the demo before it plays
    count_team = None
    if args.count_team is not None:
        count_team = desk.sign_in(args.count_team, read_pin(_("PIN of {account} (count team): ", account=args.count_team)),
                                  Purpose(COUNT_DROP, say("count the drop box of {where}", where=where), table.record.id))

    def approve(at: Table, step: ConfirmPayout) -> ConfirmPayout:
        started = at.session.rounds_started
        figures = at.round.payout_figures() if at.round is not None else ""
        approval = desk.sign_in(args.supervisor, pin, Purpose(SIGN_OFF, say("sign off the payout of round {number} at "
                                                                            "{where}", number=started, where=where),
                                                              at.record.id, started, signs=figures))
        return replace(step, supervisor=approval.account, sign_in=approval.sign_in)

    def sign() -> tuple[Approval, Approval]:
        return (desk.sign_in(args.dealer, dealer_pin, Purpose(DEAL, say("sign the tray at {where}", where=where),
                                                              table.record.id)),
                desk.sign_in(args.supervisor, pin, Purpose(TRAY, say("witness the tray at {where}", where=where),
                                                           table.record.id)))

    def witness(text: str) -> Approval:
        return desk.sign_in(args.supervisor, pin, Purpose(TRAY, text, table.record.id))

    return approve, sign, witness, count_team


def _close_shift(table: Table, shift: DemoShift, count_team: Approval | None) -> list[str]:
    """The demo's shift closed: a credit, the closer, and with the count team the drop box counted
    as the buy-ins filled it (an honest count). What is said of it."""
    from dealer_tui.accounting.count import record_drop

    shift.credit()
    shift.close()
    closed = table.tray.shifts[-1]
    lines = [_("shift {shift}: opener {opener}, fills {fills}, credits {credits}, closer {closer} (expected {expected})",
               shift=str(closed.number), opener=number(closed.opener), fills=number(closed.fills),
               credits=number(closed.credits), closer=number(closed.closer or 0), expected=number(closed.expected))]
    if count_team is None:
        lines.append(_("the drop box of shift {shift} is to be counted: {command}", shift=str(closed.number),
                       command=f"dealer-tui shift count --table {table.record.name!r} ..."))
        return lines
    drop = record_drop(table.ledger, table.record, closed.sold_cash + closed.before_cash,
                       closed.sold_marker + closed.before_marker, closed.collected, count_team, closed.number)
    lines.append(_("drop box counted by {account}: {cash} cash, {markers} in markers, {collection} in the collection "
                   "box", account=drop.by, cash=number(drop.cash), markers=number(drop.markers),
                   collection=number(drop.collection)))
    return lines


def _stderr_console() -> Console:
    from rich.console import Console

    return Console(file=sys.stderr)
