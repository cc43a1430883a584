"""`dealer-tui simulate`: the house edge of a game under one or more profiles, by simulation.

Heavy modules (NumPy, the simulators, Rich) are imported only when the command runs.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from dealer_tui.commands.common import add_profiles_option, fail, library, whole
from rules.games import GAMES
from rules.registry import game

if TYPE_CHECKING:
    from rich.console import Console, Group
    from rich.table import Table

    from rules.errors import BadInput
    from rules.profiles.loader import LoadedProfile, ProfileLibrary
    from rules.simulate import Options
    from rules.simulate.common import Estimate
    from rules.simulate.report import BetReport, ProfileReport, SimulationReport

NAME = "simulate"
HELP = "estimate a game's house edge by simulating seeded hands under one or more profiles"
SIMULATED = [r for r in GAMES if r.simulate is not None]
STRATEGY_HELP = "; ".join(f"{r.id}: {', '.join(r.strategies)}" for r in SIMULATED)
"""Every simulated game's strategies, as the game names them."""
HANDS_HELP = ", ".join(f"{r.title} {r.simulated_hands:,}" for r in SIMULATED)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", metavar="GAME",
                        help=f"the game's id: {', '.join(r.id for r in SIMULATED)}")
    parser.add_argument("--profile", action="append", default=[], metavar="P",
                        help="profile name or YAML path (repeat to compare on the same hands; default: the game's)")
    add_run_options(parser)
    parser.add_argument("--ante", type=whole(), metavar="CHIPS", help="the Ante (default: the first profile's minimum)")
    parser.add_argument("--bonus", type=whole(), metavar="CHIPS",
                        help="High Card Flush: each bonus bet's stake (default: the Ante, within the bonus limits; 0: none)")
    parser.add_argument("--players", type=whole(), metavar="N", help="Chinese Poker: players per deal, 2-4 (default 4)")
    add_profiles_option(parser)


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """Options shared with `paytables compare`."""
    parser.add_argument("--strategy", metavar="S", help=f"the player's strategy (default: the game's first; {STRATEGY_HELP})")
    parser.add_argument("--hands", type=whole(), metavar="N",
                        help=f"hands to simulate (Chinese Poker: deals; default {HANDS_HELP})")
    parser.add_argument("--seed", type=whole(), default=1, metavar="X", help="the random seed (default 1)")
    parser.add_argument("--workers", type=whole(), default=1, metavar="K",
                        help="processes to share the hands (the result does not depend on K)")
    parser.add_argument("--json", action="store_true", help="print one JSON line instead of tables")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on standard error")


def run(args: argparse.Namespace) -> int:
    from rules.errors import BadInput
    from rules.simulate import Options, simulator

    lib = library(args)
    try:
        simulator(args.game)
        profiles = find_profiles(lib, args.game, args.profile)
        report, seconds = run_simulation(args, args.game, profiles,
                                         Options(args.ante, args.bonus, args.players))
    except BadInput as exc:
        return fail(option_error(exc))
    if args.json:
        sys.stdout.write(json.dumps(json_line(report, seconds)) + "\n")
    else:
        wide_console().print(render(report, seconds))
    return 0


def wide_console() -> Console:
    """Standard output; 160 columns wide when it is not a terminal (a file, a pipe)."""
    from rich.console import Console

    console = Console()
    return console if console.is_terminal else Console(width=160)


def option_error(exc: BadInput) -> str:
    """`--strategy: unknown strategy ...`; the positional game keeps its own name."""
    return f"{exc.field if exc.field == 'game' else '--' + exc.field}: {exc.problem}"


def find_profiles(lib: ProfileLibrary, game_id: str, names: Sequence[str]) -> list[LoadedProfile]:
    """The named profiles of the game (its default profile when none is named)."""
    from rules.errors import BadInput, InvalidProfile

    wanted = list(names) or [game(game_id).default_profile]
    found = []
    for name in wanted:
        try:
            found.append(lib.find(name, game=game_id))
        except InvalidProfile as exc:
            raise BadInput("profile", str(exc)) from None
    return found


def run_simulation(args: argparse.Namespace, game_id: str, profiles: list[LoadedProfile],
                   options: Options | None = None) -> tuple[SimulationReport, float]:
    """Check the request, then simulate with a progress bar on standard error; the report and
    the seconds it took. Bad input raises `BadInput` before anything is shown."""
    from rules.simulate import Options, execute, plan

    hands = args.hands if args.hands is not None else game(game_id).simulated_hands
    checked = plan(game_id, profiles, args.strategy, hands, args.seed, workers=args.workers,
                   options=options or Options())
    started = time.perf_counter()
    with progress_bar(hands, checked.sim.unit, enabled=not args.no_progress) as advance:
        report = execute(checked, advance)
    return report, time.perf_counter() - started


@contextmanager
def progress_bar(total: int, unit: str, *, enabled: bool) -> Iterator[Callable[[int], None]]:
    """A Rich progress bar (count, hands/s, ETA) on standard error; yields the advance callback."""
    if not enabled:
        yield lambda n: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class CountColumn(ProgressColumn):
        """`120,000/1,000,000` and the items per second."""

        def render(self, task: Task) -> Text:
            elapsed = task.finished_time if task.finished else task.elapsed
            speed = task.speed or (task.completed / elapsed if elapsed else None)
            rate = f"{speed:,.0f} {unit}/s" if speed else f"- {unit}/s"
            return Text(f"{task.completed:,.0f}/{task.total or 0:,.0f} {rate}", style="progress.data.speed")

    console = Console(stderr=True)
    columns = (TextColumn("simulating"), BarColumn(), CountColumn(),
               TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=console.is_terminal) as progress:
        task = progress.add_task("simulate", total=total)
        yield lambda n: progress.advance(task, n)


# Output -------------------------------------------------------------------------------------


def json_line(report: SimulationReport, seconds: float) -> dict[str, Any]:
    out = report.to_dict()
    out["seconds"] = round(seconds, 3)
    out["hands_per_second"] = round(report.hands / seconds) if seconds > 0 else None
    return out


def pct(e: Estimate, places: int = 3) -> str:
    """`2.750% ±0.280%` (half the 95% interval's width), or the bare value when exact."""
    value = e.value + 0.0  # no "-0.000%"
    if e.low == e.high:
        return f"{value:.{places}%}"
    return f"{value:.{places}%} ±{(e.high - e.low) / 2:.{places}%}"


def amount(e: Estimate) -> str:
    if e.low == e.high:
        return f"{e.value + 0.0:,.4g}"
    return f"{e.value:,.4f} ±{(e.high - e.low) / 2:,.4f}"


def lines_note(bet: BetReport) -> str:
    """What a bet's line contributions count."""
    return "return per chip staked" if bet.unit == "fraction" else f"{bet.unit} per {bet.per}"


def figure_text(value: Estimate, unit: str) -> str:
    return pct(value) if unit == "fraction" else amount(value)


def _summary(report: SimulationReport) -> Table:
    from rich.table import Table

    profiles = report.profiles
    table = Table(title=f"{report.game}: strategy {report.strategy} — edges with 95% intervals", title_justify="left")
    table.add_column("")
    for p in profiles:
        table.add_column(p.profile, justify="right")
    table.add_row("house edge", *(figure_text(p.house_edge, p.unit) for p in profiles), style="bold")
    for key in _bet_keys(profiles):
        bets = [_bet(p, key) for p in profiles]
        label = next(b for b in bets if b is not None)
        table.add_row(f"{label.label}: {'edge' if label.unit == 'fraction' else label.unit} per {label.per}",
                      *("—" if b is None else figure_text(b.edge, b.unit) for b in bets))
    figures = {f.key: f for p in reversed(profiles) for f in p.figures}
    for key in dict.fromkeys(f.key for p in profiles for f in p.figures):
        cells = [next((g for g in p.figures if g.key == key), None) for p in profiles]
        table.add_row(figures[key].label, *("—" if g is None else figure_text(g.value, g.unit) for g in cells))
    return table


def _bet_keys(profiles: Sequence[ProfileReport]) -> list[str]:
    keys: list[str] = []
    for p in profiles:
        keys += [b.key for b in p.bets if b.key not in keys]
    return keys


def _bet(profile: ProfileReport, key: str) -> BetReport | None:
    return next((b for b in profile.bets if b.key == key), None)


def bet_lines_table(title: str, profiles: Sequence[ProfileReport], key: str) -> Table:
    """One bet's lines side by side: odds, frequency and return per chip staked for each profile."""
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    table.add_column("line", no_wrap=True)
    for p in profiles:
        table.add_column(f"{p.profile}\nodds", justify="right")
        table.add_column("frequency", justify="right")
        table.add_column("return", justify="right")
    labels: list[str] = []
    for p in profiles:
        bet = _bet(p, key)
        labels += [line.label for line in (bet.lines if bet else ()) if line.label not in labels]
    for label in labels:
        cells: list[str] = []
        for p in profiles:
            bet = _bet(p, key)
            line = next((x for x in bet.lines if x.label == label), None) if bet else None
            if line is None:
                cells += ["—", "—", "—"]
            else:
                odds = "" if line.odds is None else f"{line.odds} to 1"
                cells += [odds, f"{line.frequency.value:.6f}", f"{line.contribution + 0.0:+.5f}"]
        table.add_row(label, *cells)
    return table


def render(report: SimulationReport, seconds: float) -> Group:
    from rich.console import Group

    from rules.simulate import simulator

    parts: list[Any] = [_summary(report)]
    for key in _bet_keys(report.profiles):
        label = next(b for p in report.profiles if (b := _bet(p, key)) is not None)
        parts.append(bet_lines_table(f"{label.label}: lines ({lines_note(label)})", report.profiles, key))
    rate = report.hands / seconds if seconds > 0 else 0.0
    unit = simulator(report.game).unit
    parts.append(f"{report.hands:,} {unit}, seed {report.seed}, in {seconds:.1f} s ({rate:,.0f} {unit}/s)")
    parts.append(f"strategy {report.strategy}: {report.strategy_text}")
    parts += [f"note: {note}" for note in report.notes]
    return Group(*parts)
