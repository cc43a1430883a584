"""Steps built from a round's legal steps, and a dealer keying cards at random for a live
table's requests (the stateful tests and the crash driver)."""

from __future__ import annotations

import random
from dataclasses import fields
from typing import Any

from dealer_tui.rounds.base import CardRequest, LegalStep, Round, Step
from rules.cards import DECK, Card


def keyed_cards(rnd: Round, request: CardRequest, rng: random.Random) -> dict[str, tuple[Card, ...]]:
    """Cards a dealer could key for `request`: unseen ones, a box keeping the cards it drew."""
    free = [c for c in DECK if c not in rnd.taken_cards(request)]
    drawn: dict[int, tuple[Card, ...]] = getattr(rnd, "drawn", {})
    rng.shuffle(free)
    out = {}
    for label, count in request.hands:
        keep = drawn.get(int(label.split()[1]), ()) if label.startswith("box ") else ()
        fresh = [c for c in free if c not in keep][: count - len(keep)]
        free = [c for c in free if c not in fresh]
        out[label] = (*keep, *fresh)
    return out


def keyed_action(rnd: Round, spec: LegalStep, rng: random.Random) -> Step:
    amount = None
    if spec.min_amount is not None:
        amount = rng.randint(spec.min_amount, spec.max_amount if spec.max_amount is not None else spec.min_amount)
    data: dict[str, object] = dict(spec.data)
    if spec.kind in ("set_rows", "declare_natural"):
        taken = rnd.taken_cards(seat=spec.seat)  # type: ignore[call-arg]
        cards = rng.sample([c for c in DECK if c not in taken], 13)
        data = {"front": " ".join(c.text for c in cards[:3]), "middle": " ".join(c.text for c in cards[3:8]),
                "back": " ".join(c.text for c in cards[8:])}
    elif spec.kind == "lock":
        data["confirm_foul"] = True
    elif spec.kind == "confirm_payout":
        data["supervisor"] = "floor 1"
    elif spec.kind == "deal":
        data["cut"] = rng.choice(["player", "dealer"])
    cards = keyed_cards(rnd, spec.needs_cards, rng) if spec.needs_cards is not None else {}
    return step_from(spec, amount, **data, cards=cards)


def step_from(spec: LegalStep, amount: int | None = None, **details: Any) -> Step:
    """A step of `spec`'s type for its seat: the amount, and the details (the spec's own, then
    `details`) the step has fields for."""
    names = {f.name for f in fields(spec.step)}
    values = {name: value for name, value in {**spec.data, **details}.items() if name in names}
    if amount is not None and "amount" in names:
        values["amount"] = amount
    return spec.step(seat=spec.seat, **values)
