"""The shift report as a printable PDF: a summary page of every shift, then a page per table and
shift with its figures, its dealers, its flags and the lines the dealer, the supervisor and the
count team sign."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from dealer_tui.accounting.report import figure_rows, money, percent, signed_money, write_file
from dealer_tui.accounting.shifts import ShiftFigures, totals

GRID = (0.6, 0.6, 0.6)


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
    from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    styles = getSampleStyleSheet()
    body, small = styles["BodyText"], styles["Italic"]
    pages = {"n": 0}

    def footer(canvas: object, doc: object) -> None:
        from reportlab.pdfgen.canvas import Canvas

        assert isinstance(canvas, Canvas)
        pages["n"] = canvas.getPageNumber()
        canvas.saveState()
        canvas.setFont("Helvetica", 8)
        canvas.drawString(15 * mm, 10 * mm, f"{title} · {period}")
        canvas.drawRightString(A4[0] - 15 * mm, 10 * mm, f"page {canvas.getPageNumber()}")
        canvas.restoreState()

    def grid(data: list[list[str]], widths: list[float], head: bool = True) -> Table:
        table = Table(data, colWidths=widths, repeatRows=1 if head else 0)
        style = [("GRID", (0, 0), (-1, -1), 0.4, colors.Color(*GRID)), ("FONTSIZE", (0, 0), (-1, -1), 8),
                 ("ALIGN", (1, 0), (-1, -1), "RIGHT"), ("VALIGN", (0, 0), (-1, -1), "MIDDLE")]
        if head:
            style += [("BACKGROUND", (0, 0), (-1, 0), colors.Color(0.88, 0.88, 0.88)),
                      ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold")]
        table.setStyle(TableStyle(style))
        return table

    story: list[object] = [Paragraph(_escape(title), styles["Title"]), Paragraph(_escape(period), body),
                           Spacer(1, 4 * mm)]
    summary = [["Table", "Shift", "Status", "Rounds", "Handle", "Drop", "Win", "Hold", "Result",
                "Theoretical", "Flags"]]
    for s in shifts:
        summary.append([s.table[:24], str(s.shift), s.status.split(",")[0], str(s.rounds), money(s.handle),
                        money(s.drop), money(s.win), percent(s.hold), money(s.rounds_win),
                        f"{s.theoretical:,.0f}" if s.theory_known else "—", str(len(s.flags)) if s.flags else ""])
    t = totals(shifts)
    counted = bool(t["counted"])
    summary.append(["Total (counted)", str(t["counted"]), "", str(t["rounds"]), f"{t['handle']:,}",
                    f"{t['drop']:,}" if counted else "—", f"{t['win']:,}" if counted else "—", percent(t["hold"] if isinstance(t["hold"], float) else None),
                    f"{t['rounds_win']:,}", f"{t['theoretical_win']:,.0f}", str(t["flags"] or "")])
    widths = [m * mm for m in (32, 10, 17, 13, 17, 17, 16, 14, 16, 18, 10)]
    story.append(grid(summary, widths) if shifts else Paragraph("No shifts in this period.", body))
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
        if s.tray.drop is not None:
            story.append(Paragraph(_escape(f"Drop box counted by {who(s.tray.drop.by)}"
                                           + (f": {s.tray.drop.note}" if s.tray.drop.note else "")), body))
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
        signers = [("Dealer", s.closed_by[0] or s.opened_by[0]), ("Supervisor", s.closed_by[1] or s.opened_by[1]),
                   ("Count team", s.tray.drop.by if s.tray.drop is not None else "")]
        sign = Table([["_" * 30] * 3, [f"{role}: {who(account)}" if account else f"{role}:"
                                       for role, account in signers], ["Date: ____________"] * 3],
                     colWidths=[58 * mm] * 3)
        sign.setStyle(TableStyle([("FONTSIZE", (0, 0), (-1, -1), 9), ("TOPPADDING", (0, 2), (-1, 2), 8)]))
        story.append(sign)

    def write(part: Path) -> None:
        doc = SimpleDocTemplate(str(part), pagesize=A4, title=title, author="dealer-tui", leftMargin=15 * mm,
                                rightMargin=15 * mm, topMargin=15 * mm, bottomMargin=18 * mm)
        doc.build(story, onFirstPage=footer, onLaterPages=footer)

    write_file(target, write)
    return pages["n"]
