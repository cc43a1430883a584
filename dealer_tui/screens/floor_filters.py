"""The rounds list's dialogs: filters and search (dates, seat, minimum payout, text), and the path
an export is written to. A bad value gets one message under the fields; nothing is applied."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from dealer_tui.language import N_, _, told_error
from dealer_tui.ledger import RowQuery

DATE_FORMS = ("%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d")
LEDGER_TIME = "%Y-%m-%dT%H:%M:%S"


class FilterError(ValueError):
    """A filter value that does not read; the message names the field and the expected form."""


def parse_when(text: str, field: str, *, end: bool = False) -> str | None:
    """A typed date (`2026-11-29`) or time (`2026-11-29 18:00`) as the ledger's UTC time text.
    A date alone as the end of a range takes in that whole day."""
    text = text.strip()
    if not text:
        return None
    for form in DATE_FORMS:
        try:
            when = datetime.strptime(text, form)
        except ValueError:
            continue
        if end and form == "%Y-%m-%d":
            when += timedelta(days=1)
        return when.strftime(LEDGER_TIME)
    raise FilterError(_("{field}: {text} is not a date like 2026-11-29 or a time like 2026-11-29 18:00", field=field,
                        text=repr(text)))


def parse_count(text: str, field: str, *, least: int) -> int | None:
    text = text.strip()
    if not text:
        return None
    if not text.isdigit() or int(text) < least:
        raise FilterError(_("{field}: {text} is not a whole number of at least {least}", field=field, text=repr(text),
                            least=least))
    return int(text)


@dataclass(frozen=True)
class Typed:
    """What the dialog's fields hold, as typed."""

    since: str = ""
    until: str = ""
    seat: str = ""
    min_payout: str = ""
    search: str = ""
    area: str = ""


def apply_typed(query: RowQuery, typed: Typed) -> RowQuery:
    """The query with the typed filters in place of its own; FilterError names the first bad field."""
    since = parse_when(typed.since, _("From"))
    until = parse_when(typed.until, _("To"), end=True)
    if since is not None and until is not None and since >= until:
        raise FilterError(_("From ({since}) must come before To ({until})", since=typed.since, until=typed.until))
    fields = {**query.__dict__, "since": since, "until": until, "seat": parse_count(typed.seat, _("Seat"), least=1),
              "min_payout": parse_count(typed.min_payout, _("Minimum payout"), least=1),
              "search": typed.search.strip() or None, "area": typed.area.strip() or None}
    return RowQuery(**fields)


def typed_of(query: RowQuery) -> Typed:
    """The fields as the dialog shows them for a query already in force."""
    def shown(value: str | None) -> str:
        return value.replace("T", " ")[:16] if value else ""

    return Typed(shown(query.since), shown(query.until), str(query.seat or ""), str(query.min_payout or ""),
                 query.search or "", query.area or "")


FIELDS = (("search", N_("Find (Main 1 37)")), ("since", N_("From (UTC)")),
          ("until", N_("To (UTC)")), ("seat", N_("Seat or box")), ("min_payout", N_("Minimum payout")))
"""Finding one round comes first: `/`, the table and the round's number, Enter."""
PIT_FIELDS = (*FIELDS, ("area", N_("Pit area")))
"""A pit server's floor filters by the area a table stands in too."""


class FilterModal(ModalScreen[RowQuery | None]):
    """Dismisses with the new query, or None (Esc)."""

    CSS_PATH = ["modal.tcss", "floor.tcss"]
    BINDINGS = [Binding("escape", "cancel", N_("Back"))]

    def __init__(self, query: RowQuery, pit: bool = False) -> None:
        super().__init__()
        self.query_, self.typed = query, typed_of(query)
        self.fields = PIT_FIELDS if pit else FIELDS

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog"):  # scrolls on a short terminal (80x24)
            yield Static(_("Filters and search"), classes="title")
            for name, label in self.fields:
                with Horizontal(classes="row"):
                    yield Label(_(label))
                    yield Input(getattr(self.typed, name), id=f"filter-{name}", placeholder=_("any"))
            yield Static("", id="filter-error", classes="error")
            yield Static(_("Find: a table's name (or part of it) and a round's number — Main 1 37 — for that round; a "
                           "round number or id; or part of a table's or player's name. "
                           "Times: 2026-11-29 or 2026-11-29 18:00 (a date alone as To takes in the whole day). "
                           "Minimum payout: one seat's payout in a round (its winning bets with their stakes, a DP's "
                           "take, a pot's share; stakes back on a push are not paid).")
                         + (_(" Pit area: the area a table stands in.") if self.fields is PIT_FIELDS else ""),
                         classes="hint")
            yield Static(_("Enter applies · Tab moves between fields · an empty field filters nothing · Esc backs out"),
                         classes="hint")

    def on_mount(self) -> None:
        self.query_one("#filter-search", Input).focus()

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        typed = Typed(**{name: self.query_one(f"#filter-{name}", Input).value for name, _label in self.fields})
        try:
            query = apply_typed(self.query_, typed)
        except FilterError as exc:
            self.query_one("#filter-error", Static).update(told_error(exc))
            return
        self.dismiss(query)


class PathModal(ModalScreen[str | None]):
    """Ask for a file path (with a default); `attempt` writes it and returns (done, message). A
    failure keeps the dialog open with its one message; success dismisses with the message."""

    CSS_PATH = ["modal.tcss", "floor.tcss"]
    BINDINGS = [Binding("escape", "cancel", N_("Back"))]

    def __init__(self, title: str, default: str, attempt: Callable[[str], tuple[bool, str]]) -> None:
        super().__init__()
        self.title_text, self.default, self.attempt = title, default, attempt

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.title_text, classes="title")
            yield Input(self.default, id="path")
            yield Static("", id="path-error", classes="error")
            yield Static(_("Enter writes the file · Esc backs out"), classes="hint")

    def on_mount(self) -> None:
        self.query_one("#path", Input).focus()

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        done, message = self.attempt(event.value.strip())
        if not done:
            self.query_one("#path-error", Static).update(message)
            return
        self.dismiss(message)
