"""The shift report as a printable master game report: a summary of every live shift by game
with each game's and the pit's totals (training shifts apart, marked, in no total), then a page
per table and shift — its gaming date, its drop box, the opener, fills, credits and closer by
denomination, the chips that walked, the big payouts and voids of the shift, its figures, its
dealers and flags — and the lines the dealer, the supervisor, the cage, security and each member
of the count team sign. Every cell wraps its text: no figure overruns its cell.

It is written in the reader's language (the language shown now, `dealer_tui.language`): every word,
the figures as that language writes them, the dates as the record has them (ISO, UTC); DejaVu Sans
draws every letter of it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from dealer_tui.accounting.report import (
    decimal,
    figure_rows,
    money,
    percent,
    signed_money,
    write_file,
)
from dealer_tui.accounting.shifts import OVERRIDDEN, ShiftFigures, status_text, totals
from dealer_tui.language import N_, _, number, told
from dealer_tui.rounds.cash import gaming_day

GRID = (0.6, 0.6, 0.6)
SUMMARY = (N_("Table"), N_("Shift"), N_("Gaming day"), N_("Status"), N_("Rounds"), N_("Drop"), N_("Opener"),
           N_("Fills"), N_("Credits"), N_("Closer"), N_("Win"), N_("Hold"), "!")
"""The summary's columns (`!`: the shift's flags, a mark in every language)."""
DEALERS = (N_("Dealer"), N_("Rounds"), N_("Per hour"), N_("s/round"), N_("Handle"), N_("Result"), N_("Voids"),
           N_("Corr."), N_("Refused"), N_("Rotation"))
"""The columns of a shift's dealers."""
TRAY_RECORD = (N_("Tray record"), N_("Chips"), N_("Slip / seat"), N_("Dealer"), N_("Witness"), N_("At (UTC)"))
"""The columns of a shift's tray record."""
MOVEMENTS = {"opener": N_("opener"), "closer": N_("closer"), "fill": N_("fill"), "credit": N_("credit"),
             "colour-up": N_("colour-up"), "marker": N_("marker")}
"""The tray record's kinds of movement (codes) as the report names them."""
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
    """A time as the record has it (ISO, UTC) in every language."""
    return ts[:19].replace("T", " ") + " UTC"


def slip_column(what: str, slip: str) -> str:
    """A fill's or a credit's column of chips, named with its slip."""
    if what == "fill":
        return _("Fill {slip}", slip=slip) if slip else _("Fill")
    return _("Credit {slip}", slip=slip) if slip else _("Credit")


def pdf_file(shifts: Sequence[ShiftFigures], target: Path, title: str, period: str,
             notes: Sequence[str] = (), names: Mapping[str, str] | None = None) -> int:
    """Write the report to `target` (through a `.part` file); the number of pages. `names` gives
    the staff's names by account, for the signature lines. The report is in the reader's language;
    `title`, `period` and `notes` are told in it (a text as written, a sentence, `rules.said`, in
    the reader's words)."""
    title, period = told(title), told(period)
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
        canvas.drawRightString(A4[0] - 15 * mm, 10 * mm, _("page {page}", page=canvas.getPageNumber()))
        canvas.restoreState()

    from reportlab.lib.styles import ParagraphStyle

    in_cell = ParagraphStyle("cell", parent=body, fontSize=7.5, leading=9)
    in_head = ParagraphStyle("head", parent=in_cell, fontName=BOLD, fontSize=6.5, leading=8)
    in_number = ParagraphStyle("number", parent=in_cell, alignment=2)

    from reportlab.pdfbase.pdfmetrics import stringWidth

    fitted: dict[tuple[str, float], ParagraphStyle] = {}

    def fit(text: str, style: ParagraphStyle, width: float) -> ParagraphStyle:
        """`style`, in a smaller size if a word of `text` (a figure with its no-break spaces, a long
        word of another language's) would not fit the cell's `width`: a word is never cut."""
        need = max((stringWidth(word, style.fontName, style.fontSize) for word in text.split(" ")), default=0.0)
        room = width - 5  # the cell's padding, and a point to spare
        if need <= room:
            return style
        size = round(max(style.fontSize * room / need, 4.5), 1)
        if (style.name, size) not in fitted:
            fitted[style.name, size] = ParagraphStyle(f"{style.name}-{size}", parent=style, fontSize=size,
                                                      leading=size * style.leading / style.fontSize)
        return fitted[style.name, size]

    def grid(data: list[list[str]], widths: list[float], head: bool = True) -> Table:
        """A table whose every cell wraps (a long name or figure takes another line, never the next cell)."""
        wrapped = [[Paragraph(_escape(str(v)), fit(str(v), in_head if head and r == 0 else in_cell if c == 0
                                                   else in_number, widths[c]))
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
    head = [_(column) for column in SUMMARY]
    widths = [m * mm for m in (25, 9, 17, 15, 11, 15, 15, 14, 14, 15, 14, 11, 5)]   # 180 mm: A4 less its margins

    def line(s: ShiftFigures) -> list[str]:
        return [s.table, str(s.shift), gaming_day(s.opened_at), status_text(s.status, short=True), number(s.rounds),
                money(s.drop),
                money(s.opener), money(s.tray.fills), money(s.tray.credits), money(s.closer), money(s.win),
                percent(s.hold), str(len(s.flags)) if s.flags else ""]

    def total(label: str, group: Sequence[ShiftFigures]) -> list[str]:
        t = totals(group)
        counted = bool(t["counted"])
        whole = {k: v if isinstance(v, int) else 0 for k, v in t.items()}
        return [label, number(len(group)), "", _("{count} counted", count=number(whole["counted"])),
                number(whole["rounds"]), number(whole["drop"]) if counted else "—",
                money(sum(s.opener for s in group)),
                money(sum(s.tray.fills for s in group)), money(sum(s.tray.credits for s in group)),
                money(sum(s.closer or 0 for s in group)), number(whole["win"]) if counted else "—",
                percent(t["hold"] if isinstance(t["hold"], float) else None),
                number(whole["flags"]) if whole["flags"] else ""]

    def denominations(s: ShiftFigures) -> list[object]:
        """The opener, each fill and credit, and the closer, by denomination (chips of each value)."""
        columns = [(_("Opener"), s.tray.opener_chips)]
        columns += [(slip_column(str(m["what"]), str(m["slip"] or "")), m["chips"]) for m in s.movements
                    if m["what"] in ("fill", "credit") and isinstance(m["chips"], dict)]
        if s.tray.closer_chips is not None:
            columns.append((_("Closer"), s.tray.closer_chips))
        values = sorted({int(v) for _name, chips in columns for v in chips}, reverse=True)
        if not values or len(columns) > 8:
            return []
        rows = [[_("Chip"), *(name for name, _chips in columns)]]
        rows += [[number(v), *(number(chips.get(str(v), 0)) for _name, chips in columns)] for v in values]
        rows.append([_("Total"), *(number(sum(int(v) * n for v, n in chips.items())) for _name, chips in columns)])
        return [grid(rows, [20 * mm] + [min(28, 160 // len(columns)) * mm] * len(columns)), Spacer(1, 3 * mm)]

    live = [s for s in shifts if not s.training]
    training = [s for s in shifts if s.training]
    summary = [head]
    for game in sorted({s.game for s in live}):
        of_game = [s for s in live if s.game == game]
        summary += [line(s) for s in of_game]
        summary.append(total(_("Total {game}", game=game), of_game))
    if live:
        summary.append(total(_("Total of the pit"), live))
    story.append(grid(summary, widths) if live else Paragraph(_escape(_("No live shift in this period.")), body))
    if training:
        story += [Spacer(1, 3 * mm), Paragraph(_escape(_("Training shifts (demos: in no total above)")),
                                               styles["Heading3"]),
                  grid([head, *[line(s) for s in training]], widths)]
    story.append(Paragraph(_escape(_("Win = drop + closer + credits − opener − fills (− chips sold before the "
                                     "opener; + the collection box at a card room); hold = win / drop; Result = the "
                                     "rounds' own result; Theoretical = each stake × the profile's simulated house "
                                     "edge on its bet type.")), small))
    for note in notes:
        story.append(Paragraph(_escape(_("Note: {note}", note=told(note))), small))
    for s in shifts:
        about = {"game": s.game, "profile": s.profile, "status": status_text(s.status)}
        if s.banked:
            kind = (_("{game}, profile {profile} (house-banked) · training table · {status}", **about) if s.training
                    else _("{game}, profile {profile} (house-banked) · {status}", **about))
        else:
            kind = (_("{game}, profile {profile} (card room) · training table · {status}", **about) if s.training
                    else _("{game}, profile {profile} (card room) · {status}", **about))
        story += [PageBreak(), Paragraph(_escape(_("{table} — shift {shift}", table=s.table, shift=s.shift)),
                                         styles["Heading1"]),
                  Paragraph(_escape(kind), body),
                  Paragraph(_escape(_("Opened {at} (opener by {dealer}, witnessed by {supervisor})",
                                      at=_when(s.opened_at), dealer=who(s.opened_by[0]),
                                      supervisor=who(s.opened_by[1]))), body)]
        if s.closed_at:
            story.append(Paragraph(_escape(_("Closed {at} (closer by {dealer}, witnessed by {supervisor})",
                                             at=_when(s.closed_at), dealer=who(s.closed_by[0]),
                                             supervisor=who(s.closed_by[1]))), body))
        story.append(Paragraph(_escape(_("Gaming day {day} · drop box of {table}, shift {shift}",
                                         day=gaming_day(s.opened_at), table=s.table, shift=s.shift)), body))
        if s.tray.drop is not None:
            counted_by = who(s.tray.drop.by)
            story.append(Paragraph(_escape(_("Drop box counted by {staff}: {note}", staff=counted_by,
                                             note=s.tray.drop.note) if s.tray.drop.note
                                           else _("Drop box counted by {staff}", staff=counted_by)), body))
        story.append(Spacer(1, 3 * mm))
        story += denominations(s)
        if s.tray.walked:
            story.append(Paragraph(_escape(_("Chips that walked with players: {chips}", chips=number(s.tray.walked))),
                                   body))
        if s.big_payouts or s.voided:
            events = [[_("Round"), _("Big payout or void"), _("Chips / reason")]]
            events += [[str(n), _("payout on a manager's override") if how == OVERRIDDEN else _("payout signed off"),
                        number(paid)] for n, paid, how in s.big_payouts]
            events += [[str(n), _("void"), told(reason)] for n, reason in s.voided]
            story.append(grid(events, [m * mm for m in (18, 50, 112)]))
        story.append(Spacer(1, 3 * mm))
        rows = [[_("Figure"), _("Counted"), _("By the records"), _("Difference")]]
        rows += [list(r) for r in figure_rows(s)]
        story.append(grid(rows, [62 * mm, 32 * mm, 42 * mm, 32 * mm]))
        story.append(Paragraph(_escape(_("Theoretical win: {basis}; the band is the range of the rounds' result by "
                                         "chance (95%).", basis=s.theory_basis)), small))
        story.append(Spacer(1, 3 * mm))
        if s.dealers:
            dealers = [[_(column) for column in DEALERS]]
            for d in s.dealers.values():
                rph, avg = d.rounds_per_hour, d.average_round_seconds
                dealers.append([who(d.account), number(d.rounds), "—" if rph is None else decimal(rph),
                                "—" if avg is None else number(round(avg)), number(d.handle),
                                signed_money(d.rounds_win),
                                number(d.voids), number(d.corrections), number(d.refused),
                                _("followed") if not d.rotation_missed
                                else _("missed {count}", count=number(d.rotation_missed))])
            story.append(grid(dealers, [m * mm for m in (38, 14, 16, 15, 20, 18, 13, 12, 15, 19)]))
            story.append(Spacer(1, 3 * mm))
        if s.movements:
            record = [[_(column) for column in TRAY_RECORD]]
            for m in s.movements:
                where = str(m["slip"] or "") or (_("seat {seat}", seat=m["seat"]) if m["seat"] is not None else "")
                what = str(m["what"])
                moved = m["total"]
                record.append([_(MOVEMENTS[what]) if what in MOVEMENTS else what,
                               number(moved) if isinstance(moved, int) else str(moved), where[:20],
                               who(str(m["dealer"] or ""))[:30],
                               who(str(m["supervisor"] or ""))[:30], str(m["at"])[11:19]])
            story.append(grid(record, [m * mm for m in (24, 22, 26, 42, 42, 24)]))
            story.append(Spacer(1, 3 * mm))
        if s.flags:
            flags = _("Flags")
            story.append(Paragraph(f"<b>{_escape(flags)}</b>", body))
            story += [Paragraph(_escape(f"• {told(f)}"), body) for f in s.flags]
        else:
            story.append(Paragraph(_escape(_("No differences.")), body))
        story.append(Spacer(1, 14 * mm))
        counters = list(dict.fromkeys([*(r.by for r in s.tray.recounts),
                                       *([s.tray.drop.by] if s.tray.drop is not None else [])])) or [""]
        signers = [(_("Dealer"), s.closed_by[0] or s.opened_by[0]),
                   (_("Supervisor"), s.closed_by[1] or s.opened_by[1]),
                   (_("Cage"), ""), (_("Security"), ""), *((_("Count team"), c) for c in counters)]
        lines: list[object] = []
        for row in range(0, len(signers), 3):
            part = signers[row:row + 3]
            sign = Table([["_" * 30] * len(part),
                          [Paragraph(_escape(_("{role}: {name}", role=role, name=who(account)) if account
                                             else _("{role}:", role=role)), in_cell)
                           for role, account in part], [_("Date: {line}", line="_" * 12)] * len(part)],
                         colWidths=[58 * mm] * len(part))
            sign.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), FONT), ("FONTSIZE", (0, 0), (-1, -1), 9),
                                      ("TOPPADDING", (0, 2), (-1, 2), 8)]))
            lines += [sign, Spacer(1, 8 * mm)]
        story.append(KeepTogether(lines))  # the lines stay with their names, on one page

    def write(part: Path) -> None:
        doc = SimpleDocTemplate(str(part), pagesize=A4, title=title, author="dealer-tui", leftMargin=15 * mm,
                                rightMargin=15 * mm, topMargin=15 * mm, bottomMargin=18 * mm)
        doc.build(story, onFirstPage=footer, onLaterPages=footer)

    write_file(target, write)
    return pages["n"]
