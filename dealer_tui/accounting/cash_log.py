"""The cash-transaction logs the law asks for: the multiple-transaction log (each cash buy-in or
cash-out at or over its threshold) and the currency-transaction entries (a player's cash in, or
out, over a gaming day reaching its threshold), from every table's cash transactions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dealer_tui.rounds.cash import CashTransaction, people


@dataclass(frozen=True)
class CurrencyEntry:
    """A player's cash in (or out) over one gaming day that reached the threshold."""

    day: str
    key: str
    player: str
    card: str
    direction: str
    total: int
    transactions: tuple[CashTransaction, ...]
    reached_at: str
    """When the day's total reached the threshold (the transaction that took it there)."""
    document: str = ""
    """The ID document the player showed ("": not identified; a loyalty card identifies nobody)."""

    def to_dict(self) -> dict[str, object]:
        return {"day": self.day, "player": self.player, "card": self.card or None,
                "id_document": self.document or None, "identified": bool(self.document),
                "direction": self.direction, "total": self.total, "reached_at": self.reached_at,
                "transactions": [t.to_dict() for t in self.transactions]}


def multiple_transaction_log(transactions: Sequence[CashTransaction], threshold: int,
                             day: str | None = None) -> list[CashTransaction]:
    """Each transaction at or over the threshold (of one gaming day, when given)."""
    return [t for t in transactions if t.amount >= threshold and (day is None or t.day == day)]


def currency_entries(transactions: Sequence[CashTransaction], threshold: int,
                     day: str | None = None) -> list[CurrencyEntry]:
    """Per person (`cash.people`: every name, card and ID document of theirs), gaming day and
    direction, the cash that reached the threshold. An entry is keyed by its first transaction's
    player key (an acknowledged alert stays acknowledged as the day goes on)."""
    days: dict[tuple[str, str], list[CashTransaction]] = {}
    for t in transactions:
        if day is None or t.day == day:
            days.setdefault((t.day, t.direction), []).append(t)
    groups = {(d, moves[0].key, direction): moves
              for (d, direction), day_moves in days.items() for moves in people(day_moves)}
    out: list[CurrencyEntry] = []
    for (d, key, direction), moves in groups.items():
        running, reached = 0, ""
        for t in moves:
            running += t.amount
            if not reached and running >= threshold:
                reached = t.at
        if reached:
            last = moves[-1]
            out.append(CurrencyEntry(d, key, last.player, last.card, direction, running, tuple(moves), reached,
                                     next((t.document for t in reversed(moves) if t.document), "")))
    return sorted(out, key=lambda e: (e.day, e.reached_at))
