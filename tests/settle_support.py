"""High Card Flush `settle` requests for the settle tests: hands, the docs/settle.md example round,
one player's entry, and the check that the brief settler's JSON line is the full settler's."""

from __future__ import annotations

import copy
from typing import Any

from rules.errors import BadInput
from rules.games.high_card_flush.settle import settle_high_card_flush
from rules.profiles.loader import ProfileLibrary
from rules.settle import encode, settle_json, without_explanations

LIB = ProfileLibrary([])
DP_AK9 = "As Ks 9s 2h 3h 4d 5c"
ROYAL = "Ah Kh Qh Jh Th 3c 4s"
LOSER = "Qc Tc 8c 2d 6d 7h 9h"  # 3-card flush Q-T-8: loses to A-K-9

EXAMPLE_IN: dict[str, Any] = {
    "game": "high-card-flush",
    "seats": 7,
    "banker": {"seat": 4, "stack": 1000, "cards": DP_AK9},
    "players": [
        {"seat": 1, "ante": 10, "raise": 20, "flush": 5, "straight_flush": 5, "cards": ROYAL},
        {"seat": 2, "ante": 10, "raise": 0},
    ],
}


def player(seat: int, ante: int = 10, raised: int = 0, cards: str | None = None, **more: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": seat, "ante": ante, "raise": raised, **more}
    if cards is not None:
        out["cards"] = cards
    return out


def full_line(req: Any) -> str:
    """The reference: the full settler's result less its explanations, encoded."""
    return encode(without_explanations(settle_high_card_flush(req, LIB)))


def outcome(fn: Any, req: Any) -> tuple[str, str]:
    try:
        return "ok", fn(req)
    except BadInput as exc:
        return "error", str(exc)


def assert_same_line(req: dict[str, Any]) -> None:
    assert outcome(lambda r: settle_json(r, LIB, explain=False), copy.deepcopy(req)) == outcome(full_line, req)
