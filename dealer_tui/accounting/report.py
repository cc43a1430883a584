"""The shift report's forms: the JSON object, the CSV rows, the lines of text a terminal shows
(the PDF is `accounting.pdf`). Every form reads the same `ShiftFigures`."""

from __future__ import annotations

import csv
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from dealer_tui.accounting.dealers import DealerFigures, dealer_totals
from dealer_tui.accounting.shifts import ShiftFigures, totals
from dealer_tui.printable import csv_cell

CSV_COLUMNS = ("table", "game", "profile", "shift", "status", "training", "opened_at", "closed_at", "rounds",
               "rounds_per_hour", "handle", "drop", "drop_cash", "drop_markers", "expected_drop", "drop_difference",
               "collection", "expected_collection", "collection_difference", "opener", "closer", "fills",
               "credits", "chips_sold_cash", "chips_sold_marker", "chips_sold_before_opener", "chips_walked",
               "expected_closer", "closer_difference", "win",
               "hold", "rounds_win", "win_difference", "theoretical_win", "theoretical_band", "dealers", "flags")
"""One row per table and shift. It reconciles on its own: win = drop + closer + credits − opener
− fills − chips_sold_before_opener (+ collection at a card room), every term a column."""


def report_dict(shifts: Sequence[ShiftFigures], since: str | None, until: str | None,
                notes: Sequence[str] = ()) -> dict[str, object]:
    """The `--json` object: `tables` (one entry per table and shift), `dealers` (each dealer over
    the report's shifts) and `totals`."""
    return {"from": since, "to": until, "tables": [s.to_dict() for s in shifts],
            "dealers": [d.to_dict() for d in dealer_totals(shifts)], "totals": totals(shifts), "notes": list(notes)}


def dealer_line(d: DealerFigures) -> str:
    """One dealer's figures in words."""
    rph, avg = d.rounds_per_hour, d.average_round_seconds
    parts = [f"{d.rounds} round{'s' if d.rounds != 1 else ''}"
             + (f" at {', '.join(shown(t) for t in sorted(d.tables))}" if len(d.tables) > 1 else ""),
             f"{rph:.1f}/hour" if rph is not None else "time on duty not on record",
             f"{avg:.0f} s a round" if avg is not None else "",
             f"handle {d.handle:,}", f"result {d.rounds_win:+,}",
             f"{d.voids} void{'s' if d.voids != 1 else ''}", f"{d.corrections} correction{'s' if d.corrections != 1 else ''}",
             f"{d.refused} payout{'s' if d.refused != 1 else ''} refused"
             + (f" ({d.overridden} paid on a manager's override)" if d.overridden else "")]
    if d.rotation_missed:
        parts.append(f"rotation not followed in {d.rotation_missed} round{'s' if d.rotation_missed != 1 else ''}")
    if d.passed_over:
        parts.append(f"bank declined {d.passed_over} time{'s' if d.passed_over != 1 else ''}")
    if d.on_duty_since:
        parts.append(f"on duty since {d.on_duty_since[11:16]} UTC")
    return f"dealer {d.account}: " + ", ".join(p for p in parts if p)


def write_csv(shifts: Sequence[ShiftFigures], out: TextIO) -> int:
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for s in shifts:
        d = s.to_dict()
        sold = d["chips_sold"]
        assert isinstance(sold, dict)
        before = d["chips_sold_before_opener"]
        assert isinstance(before, dict)
        row = {**d, "chips_sold_cash": sold["cash"], "chips_sold_marker": sold["marker"],
               "chips_sold_before_opener": before["cash"] + before["marker"],
               "dealers": ";".join(f"{x.account}:{x.rounds}" for x in s.dealers.values()),
               "flags": "; ".join(s.flags)}
        writer.writerow([csv_cell(row.get(c)) for c in CSV_COLUMNS])
    return len(shifts)


def write_file(target: Path, write: Callable[[Path], None]) -> None:
    """Write `target` through a `.part` file, so nothing is ever half-written; OSError (with a
    plain `strerror`) when it cannot be written."""
    if not str(target).strip():
        raise OSError(0, "a file name is needed")
    if target.is_dir():
        raise OSError(0, "is a folder: add a file name")
    part = target.with_name(target.name + ".part")
    try:
        write(part)
        os.replace(part, target)
    except OSError:
        part.unlink(missing_ok=True)
        raise


def csv_file(shifts: Sequence[ShiftFigures], target: Path) -> None:
    def write(part: Path) -> None:
        with open(part, "w", newline="", encoding="utf-8") as out:
            write_csv(shifts, out)

    write_file(target, write)


def shown(text: str) -> str:
    """A name as a terminal may print it: control characters (an escape sequence) as `?`."""
    return "".join(c if c.isprintable() else "?" for c in text)


def money(value: int | None) -> str:
    return "—" if value is None else f"{value:,}"


def signed_money(value: int | None) -> str:
    return "—" if value is None else ("0" if value == 0 else f"{value:+,}")


def percent(value: float | None) -> str:
    return "—" if value is None else f"{value * 100:.2f}%"


def figure_rows(s: ShiftFigures) -> list[tuple[str, str, str, str]]:
    """(figure, counted, by the records, difference): the shift's numbers at a glance."""
    t = s.tray
    rph = s.rounds_per_hour
    theory = f"{s.theoretical:,.0f} ± {s.band:,.0f}" if s.theory_known else "—"
    return [
        ("Opener", money(s.opener), money(s.previous_closer) if s.previous_closer is not None else "",
         signed_money(s.opener - s.previous_closer) if s.previous_closer is not None else ""),
        ("Fills", money(t.fills), "", ""),
        ("Credits", money(t.credits), "", ""),
        ("Chips sold (cash / marker)", "", f"{t.sold_cash:,} / {t.sold_marker:,}", ""),
        *([("Sold before the opener", "", f"{t.before_cash:,} / {t.before_marker:,}", "")] if t.sold_before else []),
        ("Closer", money(s.closer), money(s.expected_closer), signed_money(s.closer_difference)),
        ("Drop (cash + markers)", money(s.drop), money(s.expected_drop), signed_money(s.drop_difference)),
        ("Collection box (rake, fees, time)", money(s.collection), money(s.expected_collection),
         signed_money(s.collection_difference)),
        *([("Time collected", "", money(t.time), "")] if t.time else []),
        ("Win", money(s.win), money(s.rounds_win), signed_money(s.win_difference)),
        ("Hold (win / drop)", percent(s.hold), "", ""),
        ("Handle (wagered)", "", money(s.handle), ""),
        ("Theoretical win", "", theory, ""),
        ("Rounds (per hour)", "", f"{s.rounds} ({'—' if rph is None else f'{rph:.1f}'})", ""),
    ]


def text_lines(shifts: Sequence[ShiftFigures], notes: Sequence[str] = ()) -> list[str]:
    """The report as a terminal shows it."""
    if not shifts:
        return ["no shifts: a table's shift begins when its opener is counted", *[f"note: {n}" for n in notes]]
    lines: list[str] = []
    for s in shifts:
        head = f"{shown(s.table)} · {s.game} ({shown(s.profile)}) · shift {s.shift} · {s.status}"
        lines += [head + (" · training" if s.training else ""),
                  f"  opened {s.opened_at[:19]} by {s.opened_by[0]} with {s.opened_by[1]}"
                  + (f"; closed {s.closed_at[:19]} by {s.closed_by[0]} with {s.closed_by[1]}" if s.closed_at else "")]
        lines.append(f"  {'':34} {'counted':>12} {'records':>16} {'difference':>11}")
        for label, counted, recorded, diff in figure_rows(s):
            lines.append(f"  {label:34} {counted:>12} {recorded:>16} {diff:>11}")
        lines.append(f"  theoretical win: {s.theory_basis}")
        for d in s.dealers.values():
            lines.append(f"  {dealer_line(d)}")
        lines += [f"  FLAG: {f}" for f in s.flags]
        lines.append("")
    t = totals(shifts)
    counted = f"drop {t['drop']:,}, win {t['win']:,}" if t["counted"] else "drop —, win — (no drop box counted)"
    left_out = f" ({t['training_shifts_left_out']} training shift(s) left out)" if t["training_shifts_left_out"] else ""
    lines.append(f"{t['shifts']} shift(s){' at training tables' if t['training'] else ''}, {t['counted']} counted; "
                 f"over the counted: {t['rounds']} rounds, handle {t['handle']:,}, {counted}, rounds' result "
                 f"{t['rounds_win']:,}; {t['flags']} flag(s) in {t['flagged']} shift(s){left_out}")
    lines += ["", "dealers over these shifts:"] + [f"  {dealer_line(d)}" for d in dealer_totals(shifts)]
    lines += [f"note: {shown(n)}" for n in notes]
    return lines
