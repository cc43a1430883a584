"""The shift report's forms: the JSON object, the CSV rows, the lines of text a terminal shows
(the PDF is `accounting.pdf`). Every form reads the same `ShiftFigures`.

What a person reads is in the reader's language (`dealer_tui.language`, the language shown now):
the words, and the figures as that language writes them (`1,500` / `1 500`, a decimal comma),
the times as the record has them (ISO, UTC). The CSV is read by programs: its header row is the
machine keys and its figures plain numbers in every language; only its cells that are sentences
for a person (a shift's flags) are in the reader's language. The JSON is the record's figures as
they are (a shift's flags and the notes in the reader's language, as in the CSV)."""

from __future__ import annotations

import csv
import os
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from dealer_tui.accounting.dealers import DealerFigures, dealer_totals
from dealer_tui.accounting.shifts import ShiftFigures, status_text, totals
from dealer_tui.language import ENGLISH, N_, _, current, n_, number, signed, told
from dealer_tui.printable import csv_cell

CSV_COLUMNS = ("table", "game", "profile", "shift", "status", "training", "opened_at", "closed_at", "rounds",
               "rounds_per_hour", "handle", "drop", "drop_cash", "drop_markers", "expected_drop", "drop_difference",
               "collection", "expected_collection", "collection_difference", "opener", "closer", "fills",
               "credits", "chips_sold_cash", "chips_sold_marker", "chips_sold_before_opener", "chips_walked",
               "expected_closer", "closer_difference", "win",
               "hold", "rounds_win", "win_difference", "theoretical_win", "theoretical_band", "dealers", "flags")
"""One row per table and shift. It reconciles on its own: win = drop + closer + credits − opener
− fills − chips_sold_before_opener (+ collection at a card room), every term a column.

The figures are plain numbers in every language (`1500`, `0.125`), the status its code
(`counted`): a CSV is read by programs too. The header row is these machine keys in English (what a
program reads: `--lang en`), and the columns' names (`CSV_HEADERS`) in another language; the
`flags` cell, sentences for a person, is in the reader's language."""
CSV_HEADERS = {
    "table": N_("Table"), "game": N_("Game"), "profile": N_("Profile"), "shift": N_("Shift"), "status": N_("Status"),
    "training": N_("Training"), "opened_at": N_("Opened at"), "closed_at": N_("Closed at"), "rounds": N_("Rounds"),
    "rounds_per_hour": N_("Rounds per hour"), "handle": N_("Handle"), "drop": N_("Drop"),
    "drop_cash": N_("Drop: cash"), "drop_markers": N_("Drop: markers"), "expected_drop": N_("Expected drop"),
    "drop_difference": N_("Drop difference"), "collection": N_("Collection box"),
    "expected_collection": N_("Expected collection"), "collection_difference": N_("Collection difference"),
    "opener": N_("Opener"), "closer": N_("Closer"), "fills": N_("Fills"), "credits": N_("Credits"),
    "chips_sold_cash": N_("Chips sold: cash"), "chips_sold_marker": N_("Chips sold: marker"),
    "chips_sold_before_opener": N_("Sold before the opener"), "chips_walked": N_("Chips walked"),
    "expected_closer": N_("Expected closer"), "closer_difference": N_("Closer difference"), "win": N_("Win"),
    "hold": N_("Hold"), "rounds_win": N_("Rounds' win"), "win_difference": N_("Win difference"),
    "theoretical_win": N_("Theoretical win"), "theoretical_band": N_("Theoretical band"), "dealers": N_("Dealers"),
    "flags": N_("Flags"),
}
"""Each column's name for a person reading the CSV in their language (not English: there the
header is the machine keys)."""


def report_dict(shifts: Sequence[ShiftFigures], since: str | None, until: str | None,
                notes: Sequence[str] = ()) -> dict[str, object]:
    """The `--json` object: `tables` (one entry per table and shift), `dealers` (each dealer over
    the report's shifts) and `totals`."""
    return {"from": since, "to": until, "tables": [s.to_dict() for s in shifts],
            "dealers": [d.to_dict() for d in dealer_totals(shifts)], "totals": totals(shifts), "notes": list(notes)}


def decimal(value: float, digits: int = 1) -> str:
    """A figure with `digits` decimals (rounds per hour) as the reader's language writes it
    (`12.5` / `12,5`)."""
    if current().code == ENGLISH:
        return f"{value:.{digits}f}"
    from babel.numbers import format_decimal

    # Babel's locale data is read only for a language that needs it
    return str(format_decimal(round(value, digits), format="#,##0." + "0" * digits, locale=current().code))


def plus(value: int) -> str:
    """A result always signed (`+0`, `+1,500`, `-20`), as the reader's language writes the number."""
    return ("+" if value >= 0 else "-") + number(abs(value))


def dealer_line(d: DealerFigures) -> str:
    """One dealer's figures in words (the reader's language)."""
    rph, avg = d.rounds_per_hour, d.average_round_seconds
    dealt = (n_("{count} round at {tables}", "{count} rounds at {tables}", d.rounds,
                tables=", ".join(shown(t) for t in sorted(d.tables))) if len(d.tables) > 1
             else n_("{count} round", "{count} rounds", d.rounds))
    refused = (n_("{count} payout refused ({overridden} paid on a manager's override)",
                  "{count} payouts refused ({overridden} paid on a manager's override)", d.refused,
                  overridden=number(d.overridden)) if d.overridden
               else n_("{count} payout refused", "{count} payouts refused", d.refused))
    parts = [dealt,
             _("{rate}/hour", rate=decimal(rph)) if rph is not None else _("time on duty not on record"),
             _("{seconds} s a round", seconds=number(round(avg))) if avg is not None else "",
             _("handle {handle}", handle=number(d.handle)), _("result {result}", result=plus(d.rounds_win)),
             n_("{count} void", "{count} voids", d.voids),
             n_("{count} correction", "{count} corrections", d.corrections),
             refused]
    if d.rotation_missed:
        parts.append(n_("rotation not followed in {count} round", "rotation not followed in {count} rounds",
                        d.rotation_missed))
    if d.passed_over:
        parts.append(n_("bank declined {count} time", "bank declined {count} times", d.passed_over))
    if d.on_duty_since:
        parts.append(_("on duty since {time} UTC", time=d.on_duty_since[11:16]))
    return _("dealer {account}: {figures}", account=d.account, figures=", ".join(p for p in parts if p))


def write_csv(shifts: Sequence[ShiftFigures], out: TextIO) -> int:
    """The report's rows under the machine keys of `CSV_COLUMNS` in English, under the columns'
    names (`CSV_HEADERS`) in another language; the figures plain numbers; the number of rows."""
    writer = csv.writer(out)
    english = current().code == ENGLISH
    writer.writerow(CSV_COLUMNS if english else [_(CSV_HEADERS[c]) for c in CSV_COLUMNS])
    for s in shifts:
        d = s.to_dict()
        sold = d["chips_sold"]
        assert isinstance(sold, dict)
        before = d["chips_sold_before_opener"]
        assert isinstance(before, dict)
        row = {**d, "chips_sold_cash": sold["cash"], "chips_sold_marker": sold["marker"],
               "chips_sold_before_opener": before["cash"] + before["marker"],
               "dealers": ";".join(f"{x.account}:{x.rounds}" for x in s.dealers.values()),
               "flags": "; ".join(told(f) for f in s.flags)}   # sentences for a person: the reader's language
        writer.writerow([csv_cell(row.get(c)) for c in CSV_COLUMNS])
    return len(shifts)


def write_file(target: Path, write: Callable[[Path], None]) -> None:
    """Write `target` through a `.part` file, so nothing is ever half-written; OSError (with a
    plain `strerror`) when it cannot be written."""
    if not str(target).strip():
        raise OSError(0, _("a file name is needed"))
    if target.is_dir():
        raise OSError(0, _("is a folder: add a file name"))
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
    """A name as a terminal may print it: control characters (an escape sequence) as `?`; spaces
    stay spaces (the no-break space groups a figure's thousands in Hungarian, Polish, Russian)."""
    return "".join(c if c.isprintable() or unicodedata.category(c) == "Zs" else "?" for c in text)


def money(value: int | None) -> str:
    """Chips as the reader's language writes them; — unknown."""
    return "—" if value is None else number(value)


def signed_money(value: int | None) -> str:
    """A difference, signed (0 plain); — unknown."""
    return "—" if value is None else signed(value) if value else number(0)


def percent(value: float | None) -> str:
    """A share as a percentage with two decimals, as the reader's language writes it; — unknown."""
    return "—" if value is None else current().percent(value, 2)


def figure_rows(s: ShiftFigures) -> list[tuple[str, str, str, str]]:
    """(figure, counted, by the records, difference): the shift's numbers at a glance, in the
    reader's language."""
    t = s.tray
    rph = s.rounds_per_hour
    theory = f"{number(round(s.theoretical))} ± {number(round(s.band))}" if s.theory_known else "—"
    return [
        (_("Opener"), money(s.opener), money(s.previous_closer) if s.previous_closer is not None else "",
         signed_money(s.opener - s.previous_closer) if s.previous_closer is not None else ""),
        (_("Fills"), money(t.fills), "", ""),
        (_("Credits"), money(t.credits), "", ""),
        (_("Chips sold (cash / marker)"), "", f"{number(t.sold_cash)} / {number(t.sold_marker)}", ""),
        *([(_("Sold before the opener"), "", f"{number(t.before_cash)} / {number(t.before_marker)}", "")]
          if t.sold_before else []),
        (_("Closer"), money(s.closer), money(s.expected_closer), signed_money(s.closer_difference)),
        (_("Drop (cash + markers)"), money(s.drop), money(s.expected_drop), signed_money(s.drop_difference)),
        (_("Collection box (rake, fees, time)"), money(s.collection), money(s.expected_collection),
         signed_money(s.collection_difference)),
        *([(_("Time collected"), "", money(t.time), "")] if t.time else []),
        (_("Win"), money(s.win), money(s.rounds_win), signed_money(s.win_difference)),
        (_("Hold (win / drop)"), percent(s.hold), "", ""),
        (_("Handle (wagered)"), "", money(s.handle), ""),
        (_("Theoretical win"), "", theory, ""),
        (_("Rounds (per hour)"), "", f"{number(s.rounds)} ({'—' if rph is None else decimal(rph)})", ""),
    ]


def text_lines(shifts: Sequence[ShiftFigures], notes: Sequence[str] = ()) -> list[str]:
    """The report as a terminal shows it, in the reader's language (`notes`: texts or sentences,
    `rules.said`, told in it)."""
    if not shifts:
        return [_("no shifts: a table's shift begins when its opener is counted"),
                *[_("note: {note}", note=shown(told(n))) for n in notes]]
    lines: list[str] = []
    for s in shifts:
        values = {"table": shown(s.table), "game": s.game, "profile": shown(s.profile), "shift": str(s.shift),
                  "status": status_text(s.status)}
        lines.append(_("{table} · {game} ({profile}) · shift {shift} · {status} · training", **values) if s.training
                     else _("{table} · {game} ({profile}) · shift {shift} · {status}", **values))
        opened = {"at": s.opened_at[:19], "dealer": s.opened_by[0], "supervisor": s.opened_by[1]}
        lines.append("  " + (_("opened {at} by {dealer} with {supervisor}; closed {closed_at} by {closer} with "
                               "{closer_supervisor}", **opened, closed_at=(s.closed_at or "")[:19],
                               closer=s.closed_by[0], closer_supervisor=s.closed_by[1]) if s.closed_at
                             else _("opened {at} by {dealer} with {supervisor}", **opened)))
        counted_, records, difference = _("counted"), _("records"), _("difference")
        lines.append(f"  {'':34} {counted_:>12} {records:>16} {difference:>11}")
        for label, counted, recorded, diff in figure_rows(s):
            lines.append(f"  {label:34} {counted:>12} {recorded:>16} {diff:>11}")
        lines.append("  " + _("theoretical win: {basis}", basis=s.theory_basis))
        for d in s.dealers.values():
            lines.append(f"  {dealer_line(d)}")
        lines += ["  " + _("FLAG: {flag}", flag=told(f)) for f in s.flags]
        lines.append("")
    t = totals(shifts)
    whole = {k: v if isinstance(v, int) else 0 for k, v in t.items()}
    counted = (_("drop {drop}, win {win}", drop=number(whole["drop"]), win=number(whole["win"])) if t["counted"]
               else _("drop —, win — (no drop box counted)"))
    flags = n_("{count} flag(s) in {shifts}", "{count} flag(s) in {shifts}", whole["flags"],
               shifts=n_("{count} shift(s)", "{count} shift(s)", whole["flagged"]))
    summary = {"counted": number(whole["counted"]), "rounds": number(whole["rounds"]),
               "handle": number(whole["handle"]), "drop_win": counted, "result": number(whole["rounds_win"]),
               "flags": flags}
    if t["training"]:  # only training shifts: none is left out
        lines.append(n_("{count} shift(s) at training tables, {counted} counted; over the counted: {rounds} rounds, "
                        "handle {handle}, {drop_win}, rounds' result {result}; {flags}",
                        "{count} shift(s) at training tables, {counted} counted; over the counted: {rounds} rounds, "
                        "handle {handle}, {drop_win}, rounds' result {result}; {flags}", whole["shifts"], **summary))
    elif t["training_shifts_left_out"]:
        lines.append(n_("{count} shift(s), {counted} counted; over the counted: {rounds} rounds, handle {handle}, "
                        "{drop_win}, rounds' result {result}; {flags} ({left_out} training shift(s) left out)",
                        "{count} shift(s), {counted} counted; over the counted: {rounds} rounds, handle {handle}, "
                        "{drop_win}, rounds' result {result}; {flags} ({left_out} training shift(s) left out)",
                        whole["shifts"], left_out=number(whole["training_shifts_left_out"]), **summary))
    else:
        lines.append(n_("{count} shift(s), {counted} counted; over the counted: {rounds} rounds, handle {handle}, "
                        "{drop_win}, rounds' result {result}; {flags}",
                        "{count} shift(s), {counted} counted; over the counted: {rounds} rounds, handle {handle}, "
                        "{drop_win}, rounds' result {result}; {flags}", whole["shifts"], **summary))
    lines += ["", _("dealers over these shifts:")] + [f"  {dealer_line(d)}" for d in dealer_totals(shifts)]
    lines += [_("note: {note}", note=shown(told(n))) for n in notes]
    return lines
