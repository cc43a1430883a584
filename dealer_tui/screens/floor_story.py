"""One round's story: every event with its time, the cards, and per seat per bet the settlement
with the rule that decided it."""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Header, Static

from dealer_tui.ledger import Ledger, NewEvent, RoundRecord
from dealer_tui.screens.payout_screen import BET_LABELS
from dealer_tui.views import presenter
from dealer_tui.widgets.screen_keys import ScreenKeys


class StoryScreen(Screen[None]):
    CSS_PATH = "floor.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "back", "Back to the list")]

    def __init__(self, ledger: Ledger, record: RoundRecord) -> None:
        super().__init__()
        self.ledger, self.record = ledger, record

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with VerticalScroll(id="story"):
            yield Static(self._story())
        yield ScreenKeys()

    def on_mount(self) -> None:
        r = self.record
        self.title = f"Round {r.number} (id {r.id}) — {r.game}"

    def _story(self) -> Group:
        r = self.record
        head = Text()
        head.append(f"{r.game} · profile {r.profile} · {r.status}", style="bold")
        head.append(f" · started {r.started_at[:19].replace('T', ' ')}")
        if r.ended_at:
            head.append(f" · ended {r.ended_at[:19].replace('T', ' ')}")
        if r.flags:
            head.append(f"\nflags: {', '.join(sorted(r.flags))}", style="yellow")
        head.append(f"\nwagered {r.wagered} · paid {r.paid} · house {r.house_result:+}")
        events = Table(title="Events", title_justify="left", show_lines=False, expand=True)
        for column in ("#", "Time", "What happened", "Cards and details"):
            events.add_column(column, overflow="fold")
        describe = presenter(r.game).describe
        confirmed = ""
        recorded = self.ledger.round_events(r.id)
        source = recorded[0].payload.get("card_source") if recorded else None
        seeded = bool(recorded and recorded[0].payload.get("seeded"))
        head.append("\ncards: " + CARD_SOURCES.get(str(source), str(source)) + (" — seeded, for training" if seeded else ""))
        for e in recorded:
            try:
                said = describe(NewEvent(e.kind, e.payload))
            except (KeyError, TypeError, ValueError, IndexError):  # an event this program cannot word
                said = f"{e.kind.replace('_', ' ')} (as recorded)"
            details = "; ".join(f"{k}: {v}" for k, v in _cards(e.payload))
            events.add_row(str(e.seq), e.ts[11:19], said, details)
            if e.kind == "payout_confirmed":
                confirmed = f"confirmed at {e.ts[11:19]}" + (
                    f", signed off by {e.payload['signed_off_by']}" if e.payload.get("signed_off_by") else "")
        rows = Table(title="Settlement, per seat and bet" + (f" ({confirmed})" if confirmed else ""),
                     title_justify="left", expand=True)
        for column in ("Seat", "Bet", "Stake", "Result", "Why"):
            rows.add_column(column, overflow="fold", justify="right" if column in ("Stake", "Result") else "left")
        for row in self.ledger.settlement(r.id):
            rows.add_row(str(row.seat), BET_LABELS.get(row.bet, row.bet.replace("_", " ")), str(row.stake),
                         f"{row.result:+}", row.reason)
        return Group(head, events, rows)

    def action_back(self) -> None:
        self.app.pop_screen()


CARD_SOURCES = {"entry": "keyed by the dealer at a live table (the keyed cards are in the events below)",
                "shoe": "dealt by the terminal's virtual shoe", "scripted": "a scripted deck (tests, replays)"}


def _cards(payload: object, key: str = "") -> list[tuple[str, str]]:
    """Every card text in an event's payload, labelled by where it sits."""
    found: list[tuple[str, str]] = []
    if isinstance(payload, dict):
        for k, v in payload.items():
            label = f"{key} {k}".strip() if key else str(k)
            found += _cards(v, label)
    elif isinstance(payload, str) and (key.endswith("cards") or "cards " in key) and payload:
        found.append((key.replace("_cards", "").replace("cards", "").strip() or "cards", payload))
    return found
