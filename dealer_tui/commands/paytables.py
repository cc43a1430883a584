"""`dealer-tui paytables`: list, show and check table profiles."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from dealer_tui.commands.common import add_ledger_option, add_profiles_option, fail, figure, library
from dealer_tui.commands.simulate import add_run_options
from dealer_tui.language import N_, _, current, told, told_error

if TYPE_CHECKING:
    from rich.console import Console, Group

    from rules.profiles.loader import LoadedProfile
    from rules.simulate.report import SimulationReport

NAME = "paytables"
HELP = N_("list, show and check the table profiles (paytables, limits, house options)")
COLUMNS = (N_("Profile"), N_("Game"), N_("Title"), N_("File"))
"""`paytables list`'s columns."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=type(parser))
    lst = sub.add_parser("list", help=_("every profile, by game, with where it comes from"))
    lst.add_argument("--game", help=_("only this game's profiles"))
    show = sub.add_parser("show", help=_("a profile as it is posted at the table"))
    show.add_argument("name", metavar="NAME", help=_("profile name or path to a YAML file"))
    check = sub.add_parser("check", help=_("validate a profile file (exit 2 with file:line: field: problem)"))
    check.add_argument("file", metavar="FILE", type=Path)
    for p in (lst, show, check):
        add_profiles_option(p)
    approve = sub.add_parser("approve", help=_("a manager approves a casino profile's exact text for tables "
                                               "(recorded in the ledger with its SHA-256; an edit needs a new "
                                               "approval)"))
    approve.add_argument("file", metavar="FILE", type=Path)
    approve.add_argument("--by", required=True, help=_("the manager who approves it (asked for their PIN)"))
    add_ledger_option(approve, server=True)
    compare = sub.add_parser("compare", help=_("two profiles of one game simulated on the same hands: "
                                               "their edges and line-by-line differences"))
    compare.add_argument("a", metavar="A", help=_("profile name or path to a YAML file"))
    compare.add_argument("b", metavar="B", help=_("profile name or path to a YAML file"))
    add_run_options(compare)
    add_profiles_option(compare)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from rules.errors import InvalidProfile
    from rules.profiles.loader import load_profile_file

    if args.action == "compare":
        return _compare(args)
    if args.action == "approve":
        return _approve(args)
    console = Console()
    try:
        if args.action == "list":
            return _list(args, console)
        if args.action == "show":
            return _show(args, console)
        loaded = load_profile_file(args.file)
    except InvalidProfile as exc:
        return fail(told_error(exc))
    console.print(_("ok: {file}: {game} profile {name} ({title})", file=str(loaded.source), game=loaded.game,
                    name=repr(loaded.name), title=loaded.profile.title))
    return 0


def _approve(args: argparse.Namespace) -> int:
    """The manager signs in, and the file's exact text is recorded as approved."""
    from dealer_tui.commands.staff import open_ledger, sign_in
    from dealer_tui.ledger import LedgerError
    from dealer_tui.staff import MANAGE, Purpose, SignInRefused, StaffDesk, StaffError
    from rules.errors import InvalidProfile
    from rules.profiles.loader import is_shipped, load_profile_file, shipped_digests
    from rules.said import say

    try:
        loaded = load_profile_file(args.file)
    except InvalidProfile as exc:
        return fail(told_error(exc))
    if is_shipped(loaded):
        print(_("ok: {file} is the shipped profile {name} as installed: it needs no approval", file=str(loaded.source),
                name=repr(shipped_digests()[loaded.sha256])))
        return 0
    try:
        ledger = open_ledger(args)
    except LedgerError as exc:
        return fail(told_error(exc))
    try:
        desk = StaffDesk(ledger)
        approval = sign_in(desk, args.by, Purpose(MANAGE, say("approve profile {profile} ({digest})",
                                                              profile=loaded.name, digest=loaded.sha256[:12])))
        shadows = loaded.name in shipped_digests().values()
        new = desk.approve_profile(loaded.name, loaded.game, loaded.sha256, loaded.source, approval, shadows)
    except (SignInRefused, StaffError, EOFError, LedgerError) as exc:
        return fail(_("{problem}; nothing was approved", problem=told_error(exc)))
    finally:
        ledger.close()
    values = {"file": str(loaded.source), "game": loaded.game, "name": repr(loaded.name), "by": approval.describe(),
              "sha256": loaded.sha256}
    said = (_("ok: {file}: {game} profile {name} approved by {by}, sha256 {sha256}", **values) if new
            else _("ok: {file}: {game} profile {name} was approved already by {by}, sha256 {sha256}", **values))
    if shadows:
        said = _("{approval} (it is named like a shipped profile: tables opened with that name use this text)",
                 approval=said)
    print(said)
    return 0


def _list(args: argparse.Namespace, console: Console) -> int:
    """Every profile; a file that does not load is listed with its one-line problem (exit 1),
    the others still are. Texts from the files are shown as they are, never read as markup."""
    from rich.table import Table
    from rich.text import Text

    from dealer_tui.commands.common import one_line
    from rules.errors import InvalidProfile
    from rules.profiles.loader import shipped_dir
    from rules.registry import games

    known = games()
    if args.game is not None and args.game not in known:
        return fail(_("--game: unknown game {game} (known: {games})", game=repr(args.game), games=", ".join(known)))
    table = Table(title=_("Table profiles"))
    for column in COLUMNS:
        table.add_column(_(column))
    broken = 0
    shipped = shipped_dir().resolve()
    for entry in library(args).entries():
        if isinstance(entry, InvalidProfile):
            broken += 1
            table.add_row(Text("—", style="red"), "", Text(_("does not load"), style="red"),
                          Text(one_line(told_error(entry))))
        elif args.game in (None, entry.game):
            where = _("shipped") if Path(entry.source).resolve().parent == shipped else entry.source
            table.add_row(Text(entry.name), Text(entry.game), Text(one_line(entry.profile.title)),
                          Text(one_line(where)))
    console.print(table)
    return 1 if broken else 0


def _show(args: argparse.Namespace, console: Console) -> int:
    loaded = library(args).find(args.name)
    from dealer_tui.views.posting import render

    console.print(render(loaded))
    return 0


# compare -----------------------------------------------------------------------------------


def _compare(args: argparse.Namespace) -> int:
    """`paytables compare A B`: both profiles simulated on the same hands (`dealer-tui simulate`)."""
    import json
    import sys

    from dealer_tui.commands.simulate import option_error, run_simulation, wide_console
    from rules.errors import BadInput, InvalidProfile
    from rules.simulate import simulator

    lib = library(args)
    try:
        a, b = lib.find(args.a), lib.find(args.b)
    except InvalidProfile as exc:
        return fail(told_error(exc))
    if a.game != b.game:
        return fail(_("{given}: {b} is a {b_game} profile and {a} a {a_game} one; compare two profiles of one game",
                      given=args.b, b=repr(b.name), b_game=b.game, a=repr(a.name), a_game=a.game))
    try:
        simulator(a.game)
        report, seconds = run_simulation(args, a.game, [a, b])
    except BadInput as exc:
        return fail(option_error(exc))
    differences = posting_differences(a, b)
    if args.json:
        sys.stdout.write(json.dumps(compare_json(report, differences)) + "\n")
    else:
        wide_console().print(render_compare(report, differences, seconds))
    return 0


Difference = tuple[str, str, str, str]
"""(section, line, A's value, B's value) of a posting line that differs."""


def posting_differences(a: LoadedProfile, b: LoadedProfile) -> list[Difference]:
    """The lines of the two postings that differ (`—` where one profile has no such line)."""
    def rows(loaded: LoadedProfile) -> dict[tuple[str, str], str]:
        return {(section.title, label): value for section in loaded.profile.posting() for label, value in section.rows}

    mine, theirs = rows(a), rows(b)
    keys = list(mine) + [k for k in theirs if k not in mine]
    return [(section, label, mine.get((section, label), "—"), theirs.get((section, label), "—"))
            for section, label in keys if mine.get((section, label)) != theirs.get((section, label))]


def compare_json(report: SimulationReport, differences: list[Difference]) -> dict[str, object]:
    first, second = report.profiles
    bets: dict[str, object] = {}
    for bet in second.bets:
        mine = next((x for x in first.bets if x.key == bet.key), None)
        if mine is None:
            continue
        theirs_lines = {line.label: line for line in bet.lines}
        lines = []
        for line in mine.lines + tuple(x for x in bet.lines if x.label not in {y.label for y in mine.lines}):
            old = next((x for x in mine.lines if x.label == line.label), None)
            new = theirs_lines.get(line.label)
            lines.append({"line": line.label, "a_odds": old.odds if old else None, "b_odds": new.odds if new else None,
                          "a_contribution": round(old.contribution, 8) if old else None,
                          "b_contribution": round(new.contribution, 8) if new else None,
                          "difference": round((new.contribution if new else 0.0) - (old.contribution if old else 0.0), 8)})
        diff = bet.difference
        bets[bet.key] = {
            "label": bet.label, "per": bet.per,
            "a": round(mine.edge.value, 8), "a_ci95": [round(mine.edge.low, 8), round(mine.edge.high, 8)],
            "b": round(bet.edge.value, 8), "b_ci95": [round(bet.edge.low, 8), round(bet.edge.high, 8)],
            "difference": round(bet.edge.value - mine.edge.value, 8),
            "difference_ci95": None if diff is None else [round(diff.low, 8), round(diff.high, 8)],
            "lines": lines,
        }
    return {
        "game": report.game, "a": first.profile, "b": second.profile, "strategy": report.strategy,
        "hands": report.hands, "seed": report.seed,
        "house_edge": {"a": round(first.house_edge.value, 8), "b": round(second.house_edge.value, 8),
                       "difference": round(second.house_edge.value - first.house_edge.value, 8)},
        "posting_differences": [{"section": s, "line": line, "a": x, "b": y} for s, line, x, y in differences],
        "bets": bets,
    }


def render_compare(report: SimulationReport, differences: list[Difference], seconds: float) -> Group:
    from rich.console import Group, RenderableType
    from rich.table import Table

    from dealer_tui.commands.simulate import figure_text, lines_note, odds_text
    from dealer_tui.language import n_
    from rules.simulate import simulator
    from rules.simulate.common import Estimate

    first, second = report.profiles
    posting = Table(title=_("Posting: {a} (A) against {b} (B), lines that differ", a=first.profile, b=second.profile),
                    title_justify="left")
    for column in (_("section"), _("line"), "A", "B"):
        posting.add_column(column)
    for row in differences:
        posting.add_row(*row)
    if not differences:
        posting.add_row("", _("the postings are identical"), "", "")
    unit = simulator(report.game).unit
    values = {"seed": str(report.seed), "strategy": report.strategy, "share": current().percent(0.95, 0)}
    title = (n_("Edges on the same {count} hands (seed {seed}, strategy {strategy}), {share} intervals",
                "Edges on the same {count} hands (seed {seed}, strategy {strategy}), {share} intervals", report.hands,
                **values) if unit == "hands"
             else n_("Edges on the same {count} deals (seed {seed}, strategy {strategy}), {share} intervals",
                     "Edges on the same {count} deals (seed {seed}, strategy {strategy}), {share} intervals",
                     report.hands, **values) if unit == "deals"
             else f"Edges on the same {report.hands:,} {unit} (seed {report.seed}, strategy {report.strategy}), "
                  "95% intervals")
    edges = Table(title=title, title_justify="left")
    for index, column in enumerate((_("bet"), "A", "B", _("B − A (paired)"))):
        edges.add_column(column, justify="left" if index == 0 else "right")
    parts: list[RenderableType] = [posting, edges]
    for bet in second.bets:
        mine = next((x for x in first.bets if x.key == bet.key), None)
        if mine is None:
            continue
        if bet.difference is not None:
            diff = figure_text(bet.difference, bet.unit)
        else:
            diff = figure_text(Estimate.exact(bet.edge.value - mine.edge.value), bet.unit)
        edges.add_row(_("{bet} (per {per})", bet=told(bet.label), per=told(bet.per)), figure_text(mine.edge, bet.unit),
                      figure_text(bet.edge, bet.unit), diff)
        lines = Table(title=_("{bet}: lines ({note})", bet=told(bet.label), note=lines_note(bet)), title_justify="left")
        for index, column in enumerate((_("line"), _("A odds"), _("B odds"), _("A return"), _("B return"), "B − A")):
            lines.add_column(column, justify="left" if index == 0 else "right", no_wrap=index == 0)
        ours = {x.label: x for x in mine.lines}
        theirs = {x.label: x for x in bet.lines}
        for label in list(ours) + [k for k in theirs if k not in ours]:
            old, new = ours.get(label), theirs.get(label)
            odds = [("" if x is None else odds_text(x.odds)) for x in (old, new)]
            ret = [(x.contribution if x is not None else 0.0) for x in (old, new)]
            lines.add_row(told(label), *odds, *(figure(f"{r:+.5f}") for r in (ret[0], ret[1], ret[1] - ret[0])))
        parts.append(lines)
    seconds_text = figure(f"{seconds:.1f}")
    values = {"seconds": seconds_text, "strategy": report.strategy, "text": told(report.strategy_text)}
    parts.append(n_("{count} hands in {seconds} s; strategy {strategy}: {text}",
                    "{count} hands in {seconds} s; strategy {strategy}: {text}", report.hands, **values)
                 if unit == "hands"
                 else n_("{count} deals in {seconds} s; strategy {strategy}: {text}",
                         "{count} deals in {seconds} s; strategy {strategy}: {text}", report.hands, **values)
                 if unit == "deals"
                 else f"{report.hands:,} {unit} in {seconds_text} s; strategy {report.strategy}: {values['text']}")
    return Group(*parts)
