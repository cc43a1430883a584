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

from dealer_tui.commands.common import add_profiles_option, fail, figure, library, whole
from dealer_tui.language import N_, _, current, n_, number, told
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
HELP = N_("estimate a game's house edge by simulating seeded hands under one or more profiles")
SIMULATED = [r for r in GAMES if r.simulate is not None]
STRATEGY_HELP = "; ".join(f"{r.id}: {', '.join(r.strategies)}" for r in SIMULATED)
"""Every simulated game's strategies, as the game names them."""
HANDS_HELP = ", ".join(f"{r.title} {r.simulated_hands:,}" for r in SIMULATED)
RATES = {"hands": N_("{rate} hands/s"), "deals": N_("{rate} deals/s")}
"""How fast a simulation goes, by what it simulates (`GameSimulator.unit`)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", metavar="GAME",
                        help=_("the game's id: {games}", games=", ".join(r.id for r in SIMULATED)))
    parser.add_argument("--profile", action="append", default=[], metavar="P",
                        help=_("profile name or YAML path (repeat to compare on the same hands; default: the game's)"))
    add_run_options(parser)
    parser.add_argument("--ante", type=whole(), metavar="CHIPS",
                        help=_("the Ante (default: the first profile's minimum)"))
    parser.add_argument("--bonus", type=whole(), metavar="CHIPS",
                        help=_("High Card Flush: each bonus bet's stake (default: the Ante, within the bonus limits; "
                               "0: none)"))
    parser.add_argument("--players", type=whole(), metavar="N",
                        help=_("Chinese Poker: players per deal, 2-4 (default 4)"))
    add_profiles_option(parser)


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """Options shared with `paytables compare`."""
    parser.add_argument("--strategy", metavar="S",
                        help=_("the player's strategy (default: the game's first; {strategies})",
                               strategies=STRATEGY_HELP))
    parser.add_argument("--hands", type=whole(), metavar="N",
                        help=_("hands to simulate (Chinese Poker: deals; default {defaults})",
                               defaults=", ".join(f"{r.title} {number(r.simulated_hands)}" for r in SIMULATED)))
    parser.add_argument("--seed", type=whole(), default=1, metavar="X", help=_("the random seed (default 1)"))
    parser.add_argument("--workers", type=whole(), default=1, metavar="K",
                        help=_("processes to share the hands (the result does not depend on K)"))
    parser.add_argument("--json", action="store_true", help=_("print one JSON line instead of tables"))
    parser.add_argument("--no-progress", action="store_true", help=_("no progress bar on standard error"))


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
    return f"{exc.field if exc.field == 'game' else '--' + exc.field}: {told(exc.problem)}"


def find_profiles(lib: ProfileLibrary, game_id: str, names: Sequence[str]) -> list[LoadedProfile]:
    """The named profiles of the game (its default profile when none is named)."""
    from rules.errors import BadInput, InvalidProfile

    wanted = list(names) or [game(game_id).default_profile]
    found = []
    for name in wanted:
        try:
            found.append(lib.find(name, game=game_id))
        except InvalidProfile as exc:
            raise BadInput("profile", exc.said) from None
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
            rate = per_second(unit, figure(f"{speed:,.0f}") if speed else "-")
            return Text(f"{number(int(task.completed))}/{number(int(task.total or 0))} {rate}",
                        style="progress.data.speed")

    console = Console(stderr=True)
    columns = (TextColumn(_("simulating")), BarColumn(), CountColumn(),
               TimeElapsedColumn(), TextColumn(_("ETA")), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=console.is_terminal) as progress:
        task = progress.add_task("simulate", total=total)
        yield lambda n: progress.advance(task, n)


# Output -------------------------------------------------------------------------------------


def per_second(unit: str, rate: str) -> str:
    """`1,234 hands/s`: how fast `unit`s are simulated."""
    return _(RATES[unit], rate=rate) if unit in RATES else f"{rate} {unit}/s"


def json_line(report: SimulationReport, seconds: float) -> dict[str, Any]:
    out = report.to_dict()
    out["seconds"] = round(seconds, 3)
    out["hands_per_second"] = round(report.hands / seconds) if seconds > 0 else None
    return out


def pct(e: Estimate, places: int = 3) -> str:
    """`2.750% ±0.280%` (half the 95% interval's width), or the bare value when exact."""
    value = e.value + 0.0  # no "-0.000%"
    shown = current().percent
    if e.low == e.high:
        return shown(value, places)
    return f"{shown(value, places)} ±{shown((e.high - e.low) / 2, places)}"


def amount(e: Estimate) -> str:
    if e.low == e.high:
        return figure(f"{e.value + 0.0:,.4g}")
    return figure(f"{e.value:,.4f} ±{(e.high - e.low) / 2:,.4f}")


def lines_note(bet: BetReport) -> str:
    """What a bet's line contributions count."""
    if bet.unit == "fraction":
        return _("return per chip staked")
    if bet.unit == "points":
        return _("points per {per}", per=told(bet.per))
    return f"{bet.unit} per {told(bet.per)}"


def odds_text(odds: object) -> str:
    """A line's odds (`200 to 1`); "" when it has none."""
    return "" if odds is None else _("{odds} to 1", odds=str(odds))


def counted(unit: str, count: int, seed: int, seconds: float, rate: float) -> str:
    """How many hands (or deals) were simulated, with which seed, and how fast."""
    values = {"seed": str(seed), "seconds": figure(f"{seconds:.1f}"), "rate": figure(f"{rate:,.0f}")}
    if unit == "hands":
        return n_("{count} hands, seed {seed}, in {seconds} s ({rate} hands/s)",
                  "{count} hands, seed {seed}, in {seconds} s ({rate} hands/s)", count, **values)
    if unit == "deals":
        return n_("{count} deals, seed {seed}, in {seconds} s ({rate} deals/s)",
                  "{count} deals, seed {seed}, in {seconds} s ({rate} deals/s)", count, **values)
    return f"{number(count)} {unit}, seed {seed}, in {values['seconds']} s ({values['rate']} {unit}/s)"


def figure_text(value: Estimate, unit: str) -> str:
    return pct(value) if unit == "fraction" else amount(value)


def _summary(report: SimulationReport) -> Table:
    from rich.table import Table

    profiles = report.profiles
    table = Table(title=_("{game}: strategy {strategy} — edges with {share} intervals", game=report.game,
                          strategy=report.strategy, share=current().percent(0.95, 0)), title_justify="left")
    table.add_column("")
    for p in profiles:
        table.add_column(p.profile, justify="right")
    table.add_row(_("house edge"), *(figure_text(p.house_edge, p.unit) for p in profiles), style="bold")
    for key in _bet_keys(profiles):
        bets = [_bet(p, key) for p in profiles]
        label = next(b for b in bets if b is not None)
        table.add_row(_edge_per(label), *("—" if b is None else figure_text(b.edge, b.unit) for b in bets))
    figures = {f.key: f for p in reversed(profiles) for f in p.figures}
    for key in dict.fromkeys(f.key for p in profiles for f in p.figures):
        cells = [next((g for g in p.figures if g.key == key), None) for p in profiles]
        table.add_row(told(figures[key].label), *("—" if g is None else figure_text(g.value, g.unit) for g in cells))
    return table


def _edge_per(bet: BetReport) -> str:
    """A bet's row: what its figure is, per what (`Flush: edge per Flush bet stake`)."""
    label, per = told(bet.label), told(bet.per)
    if bet.unit == "fraction":
        return _("{bet}: edge per {per}", bet=label, per=per)
    if bet.unit == "points":
        return _("{bet}: points per {per}", bet=label, per=per)
    return f"{label}: {bet.unit} per {per}"


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
    table.add_column(_("line"), no_wrap=True)
    for p in profiles:
        table.add_column(_("{profile}\nodds", profile=p.profile), justify="right")
        table.add_column(_("frequency"), justify="right")
        table.add_column(_("return"), justify="right")
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
                cells += [odds_text(line.odds), figure(f"{line.frequency.value:.6f}"),
                          figure(f"{line.contribution + 0.0:+.5f}")]
        table.add_row(told(label), *cells)
    return table


def render(report: SimulationReport, seconds: float) -> Group:
    from rich.console import Group

    from rules.simulate import simulator

    parts: list[Any] = [_summary(report)]
    for key in _bet_keys(report.profiles):
        label = next(b for p in report.profiles if (b := _bet(p, key)) is not None)
        parts.append(bet_lines_table(_("{bet}: lines ({note})", bet=told(label.label), note=lines_note(label)),
                                     report.profiles, key))
    rate = report.hands / seconds if seconds > 0 else 0.0
    unit = simulator(report.game).unit
    parts.append(counted(unit, report.hands, report.seed, seconds, rate))
    parts.append(_("strategy {strategy}: {text}", strategy=report.strategy, text=told(report.strategy_text)))
    parts += [_("note: {note}", note=told(note)) for note in report.notes]
    return Group(*parts)
