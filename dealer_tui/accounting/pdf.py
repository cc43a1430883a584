"""The shift report as a printable master game report: a summary of every live shift by game
with each game's and the pit's totals (training shifts apart, marked, in no total), then a page
per table and shift — its gaming date, its drop box, the opener, fills, credits and closer by
denomination, the chips that walked, the big payouts and voids of the shift, its figures, its
dealers and flags — and the lines the dealer, the supervisor, the cage, security and each member
of the count team sign. Every cell wraps its text: no figure overruns its cell."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from dealer_tui.accounting.report import figure_rows, money, percent, signed_money, write_file
from dealer_tui.accounting.shifts import ShiftFigures, totals
from dealer_tui.rounds.cash import gaming_day

GRID = (0.6, 0.6, 0.6)
FONT, BOLD, ITALIC = "DejaVuSans", "DejaVuSans-Bold", "DejaVuSans-Oblique"
"""The report's fonts (DejaVu Sans, shipped with the terminal, `fonts/LICENSE`): they draw every
letter of English, Hungarian (ő, ű), Polish (ą, ł, ż …) and Russian, which the PDF's own base fonts
do not."""


def _register_fonts() -> None:
    """The report's fonts, registered with ReportLab once (a family, so <b> and <i> find theirs)."""
    from importlib.resources import as_file, files

    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    if FONT in pdfmetrics.getRegisteredFontNames():
        return
    for name in (FONT, BOLD, ITALIC):
        with as_file(files("dealer_tui") / "fonts" / f"{name}.ttf") as path:
            pdfmetrics.registerFont(TTFont(name, str(path)))
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=BOLD, italic=ITALIC, boldItalic=BOLD)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _when(ts: str) -> str:
    return ts[:19].replace("T", " ") + " UTC"


def pdf_file(shifts: Sequence[ShiftFigures], target: Path, title: str, period: str,
             notes: Sequence[str] = (), names: Mapping[str, str] | None = None) -> int:
    """Write the report to `target` (through a `.part` file); the number of pages. `names` gives
    the staff's names by account, for the signature lines."""
    known = dict(names or {})

    def who(account: str) -> str:
        return f"{known[account]} ({account})" if account in known else account
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.lib.units import mm
    from reportlab.platypus import (
        KeepTogether,
        PageBreak,
        Paragraph,
        SimpleDocTemplate,
        Spacer,
        Table,
        TableStyle,
    )

    _register_fonts()
    styles = getSampleStyleSheet()
    for style in styles.byName.values():
        was = getattr(style, "fontName", None)
        if isinstance(was, str):
            style.fontName = BOLD if "Bold" in was else ITALIC if "Oblique" in was or "Italic" in was else FONT
    body, small = styles["BodyText"], styles["Italic"]
    pages = {"n": 0}

    def footer(canvas: object, doc: object) -> None:
        from reportlab.pdfgen.canvas import Canvas

        assert isinstance(canvas, Canvas)
        pages["n"] = canvas.getPageNumber()
        canvas.saveState()
        canvas.setFont(FONT, 8)
        canvas.drawString(15 * mm, 10 * mm, f"{title} · {period}")
        canvas.drawRightString(A4[0] - 15 * mm, 10 * mm, f"page {canvas.getPageNumber()}")
        canvas.restoreState()

    from reportlab.lib.styles import ParagraphStyle

    in_cell = ParagraphStyle("cell", parent=body, fontSize=7.5, leading=9)
    in_head = ParagraphStyle("head", parent=in_cell, fontName=BOLD, fontSize=6.5, leading=8)
    in_number = ParagraphStyle("number", parent=in_cell, alignment=2)

    def grid(data: list[list[str]], widths: list[float], head: bool = True) -> Table:
        """A table whose every cell wraps (a long name or figure takes another line, never the next cell)."""
        wrapped = [[Paragraph(_escape(str(v)), in_head if head and r == 0 else in_cell if c == 0 else in_number)
                    for c, v in enumerate(row)] for r, row in enumerate(data)]
        table = Table(wrapped, colWidths=widths, repeatRows=1 if head else 0)
        style = [("GRID", (0, 0), (-1, -1), 0.4, colors.Color(*GRID)), ("FONTSIZE", (0, 0), (-1, -1), 8),
                 ("LEFTPADDING", (0, 0), (-1, -1), 2), ("RIGHTPADDING", (0, 0), (-1, -1), 2),
                 ("ALIGN", (1, 0), (-1, -1), "RIGHT"), ("VALIGN", (0, 0), (-1, -1), "MIDDLE")]
        if head:
            style += [("BACKGROUND", (0, 0), (-1, 0), colors.Color(0.88, 0.88, 0.88)),
                      ("FONTNAME", (0, 0), (-1, 0), BOLD)]
        table.setStyle(TableStyle(style))
        return table

    story: list[object] = [Paragraph(_escape(title), styles["Title"]), Paragraph(_escape(period), body),
                           Spacer(1, 4 * mm)]
    head = ["Table", "Shift", "Gaming day", "Status", "Rounds", "Drop", "Opener", "Fills", "Credits", "Closer", "Win",
            "Hold", "!"]
    widths = [m * mm for m in (25, 9, 17, 15, 11, 15, 15, 14, 14, 15, 14, 11, 5)]   # 180 mm: A4 less its margins

    def line(s: ShiftFigures) -> list[str]:
        return [s.table, str(s.shift), gaming_day(s.opened_at), s.status.split(",")[0], str(s.rounds), money(s.drop),
                money(s.opener), money(s.tray.fills), money(s.tray.credits), money(s.closer), money(s.win),
                percent(s.hold), str(len(s.flags)) if s.flags else ""]

    def total(label: str, group: Sequence[ShiftFigures]) -> list[str]:
        t = totals(group)
        counted = bool(t["counted"])
        return [label, str(len(group)), "", f"{t['counted']} counted", str(t["rounds"]),
                f"{t['drop']:,}" if counted else "—", money(sum(s.opener for s in group)),
                money(sum(s.tray.fills for s in group)), money(sum(s.tray.credits for s in group)),
                money(sum(s.closer or 0 for s in group)), f"{t['win']:,}" if counted else "—",
                percent(t["hold"] if isinstance(t["hold"], float) else None), str(t["flags"] or "")]

    def denominations(s: ShiftFigures) -> list[object]:
        """The opener, each fill and credit, and the closer, by denomination (chips of each value)."""
        columns = [("Opener", s.tray.opener_chips)]
        columns += [(f"{m['what'].capitalize()} {m['slip'] or ''}".strip(), m["chips"]) for m in s.movements
                    if m["what"] in ("fill", "credit") and isinstance(m["chips"], dict)]
        if s.tray.closer_chips is not None:
            columns.append(("Closer", s.tray.closer_chips))
        values = sorted({int(v) for _, chips in columns for v in chips}, reverse=True)
        if not values or len(columns) > 8:
            return []
        rows = [["Chip", *(name for name, _ in columns)]]
        rows += [[f"{v:,}", *(f"{chips.get(str(v), 0):,}" for _, chips in columns)] for v in values]
        rows.append(["Total", *(f"{sum(int(v) * n for v, n in chips.items()):,}" for _, chips in columns)])
        return [grid(rows, [20 * mm] + [min(28, 160 // len(columns)) * mm] * len(columns)), Spacer(1, 3 * mm)]

    live = [s for s in shifts if not s.training]
    training = [s for s in shifts if s.training]
    summary = [head]
    for game in sorted({s.game for s in live}):
        of_game = [s for s in live if s.game == game]
        summary += [line(s) for s in of_game]
        summary.append(total(f"Total {game}", of_game))
    if live:
        summary.append(total("Total of the pit", live))
    story.append(grid(summary, widths) if live else Paragraph("No live shift in this period.", body))
    if training:
        story += [Spacer(1, 3 * mm), Paragraph("Training shifts (demos: in no total above)", styles["Heading3"]),
                  grid([head, *[line(s) for s in training]], widths)]
    story.append(Paragraph("Win = drop + closer + credits − opener − fills (− chips sold before the opener; + the "
                           "collection box at a card room); "
                           "hold = win / drop; Result = the rounds' own result; Theoretical = each stake × the "
                           "profile's simulated house edge on its bet type.", small))
    for note in notes:
        story.append(Paragraph(_escape(f"Note: {note}"), small))
    for s in shifts:
        story += [PageBreak(), Paragraph(_escape(f"{s.table} — shift {s.shift}"), styles["Heading1"]),
                  Paragraph(_escape(f"{s.game}, profile {s.profile} ({'house-banked' if s.banked else 'card room'})"
                                    f"{' · training table' if s.training else ''} · {s.status}"), body),
                  Paragraph(_escape(f"Opened {_when(s.opened_at)} (opener by {who(s.opened_by[0])}, witnessed by "
                                    f"{who(s.opened_by[1])})"), body)]
        if s.closed_at:
            story.append(Paragraph(_escape(f"Closed {_when(s.closed_at)} (closer by {who(s.closed_by[0])}, "
                                           f"witnessed by {who(s.closed_by[1])})"), body))
        story.append(Paragraph(_escape(f"Gaming day {gaming_day(s.opened_at)} · drop box of {s.table}, shift "
                                       f"{s.shift}"), body))
        if s.tray.drop is not None:
            story.append(Paragraph(_escape(f"Drop box counted by {who(s.tray.drop.by)}"
                                           + (f": {s.tray.drop.note}" if s.tray.drop.note else "")), body))
        story.append(Spacer(1, 3 * mm))
        story += denominations(s)
        if s.tray.walked:
            story.append(Paragraph(_escape(f"Chips that walked with players: {s.tray.walked:,}"), body))
        if s.big_payouts or s.voided:
            events = [["Round", "Big payout or void", "Chips / reason"]]
            events += [[str(n), f"payout {how}", f"{paid:,}"] for n, paid, how in s.big_payouts]
            events += [[str(n), "void", reason] for n, reason in s.voided]
            story.append(grid(events, [m * mm for m in (18, 50, 112)]))
        story.append(Spacer(1, 3 * mm))
        rows = [["Figure", "Counted", "By the records", "Difference"]]
        rows += [list(r) for r in figure_rows(s)]
        story.append(grid(rows, [62 * mm, 32 * mm, 42 * mm, 32 * mm]))
        story.append(Paragraph(_escape(f"Theoretical win: {s.theory_basis}; the band is the 95% range of the "
                                       "rounds' result by chance."), small))
        story.append(Spacer(1, 3 * mm))
        if s.dealers:
            dealers = [["Dealer", "Rounds", "Per hour", "s/round", "Handle", "Result", "Voids", "Corr.",
                        "Refused", "Rotation"]]
            for d in s.dealers.values():
                rph, avg = d.rounds_per_hour, d.average_round_seconds
                dealers.append([who(d.account), str(d.rounds), "—" if rph is None else f"{rph:.1f}",
                                "—" if avg is None else f"{avg:.0f}", f"{d.handle:,}", signed_money(d.rounds_win),
                                str(d.voids), str(d.corrections), str(d.refused),
                                "followed" if not d.rotation_missed else f"missed {d.rotation_missed}"])
            story.append(grid(dealers, [m * mm for m in (38, 14, 16, 15, 20, 18, 13, 12, 15, 19)]))
            story.append(Spacer(1, 3 * mm))
        if s.movements:
            record = [["Tray record", "Chips", "Slip / seat", "Dealer", "Witness", "At (UTC)"]]
            for m in s.movements:
                where = str(m["slip"] or "") or (f"seat {m['seat']}" if m["seat"] is not None else "")
                record.append([str(m["what"]), f"{m['total']:,}", where[:20], who(str(m["dealer"] or ""))[:30],
                               who(str(m["supervisor"] or ""))[:30], str(m["at"])[11:19]])
            story.append(grid(record, [m * mm for m in (24, 22, 26, 42, 42, 24)]))
            story.append(Spacer(1, 3 * mm))
        if s.flags:
            story.append(Paragraph("<b>Flags</b>", body))
            story += [Paragraph(_escape(f"• {f}"), body) for f in s.flags]
        else:
            story.append(Paragraph("No differences.", body))
        story.append(Spacer(1, 14 * mm))
        counters = list(dict.fromkeys([*(r.by for r in s.tray.recounts),
                                       *([s.tray.drop.by] if s.tray.drop is not None else [])])) or [""]
        signers = [("Dealer", s.closed_by[0] or s.opened_by[0]), ("Supervisor", s.closed_by[1] or s.opened_by[1]),
                   ("Cage", ""), ("Security", ""), *(("Count team", c) for c in counters)]
        lines: list[object] = []
        for row in range(0, len(signers), 3):
            part = signers[row:row + 3]
            sign = Table([["_" * 30] * len(part),
                          [Paragraph(_escape(f"{role}: {who(account)}" if account else f"{role}:"), in_cell)
                           for role, account in part], ["Date: ____________"] * len(part)],
                         colWidths=[58 * mm] * len(part))
            sign.setStyle(TableStyle([("FONTSIZE", (0, 0), (-1, -1), 9), ("TOPPADDING", (0, 2), (-1, 2), 8)]))
            lines += [sign, Spacer(1, 8 * mm)]
        story.append(KeepTogether(lines))  # the lines stay with their names, on one page

    def write(part: Path) -> None:
        doc = SimpleDocTemplate(str(part), pagesize=A4, title=title, author="dealer-tui", leftMargin=15 * mm,
                                rightMargin=15 * mm, topMargin=15 * mm, bottomMargin=18 * mm)
        doc.build(story, onFirstPage=footer, onLaterPages=footer)

    write_file(target, write)
    return pages["n"]
