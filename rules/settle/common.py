"""Helpers every game's settler uses: request models, card fields, profile lookup."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from rules.cards import Card, parse_cards
from rules.errors import BadCards, BadInput, InvalidProfile
from rules.profiles.base import ProfileBase
from rules.profiles.loader import LoadedProfile, ProfileLibrary
from rules.profiles.messages import field_path, first_error

M = TypeVar("M", bound=BaseModel)


class Request(BaseModel):
    """Base of settle request models: frozen, strict types, unknown keys refused."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True, defer_build=True)


def parse_request(model: type[M], data: dict[str, Any], prefix: str = "") -> M:
    """Validate decoded JSON; the first problem becomes `BadInput(field, problem)`."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        loc, problem = first_error(exc)
        field = field_path(loc)
        if prefix:
            field = f"{prefix}.{field}" if field else prefix
        raise BadInput(field or "round", problem) from None


def cards_field(text: str | None, field: str, count: int | None = None) -> tuple[Card, ...]:
    """Parse a card string for `field`; with `count`, exactly that many cards."""
    if text is None:
        raise BadInput(field, "is required")
    try:
        cards = parse_cards(text)
    except BadCards as exc:
        raise BadInput(field, str(exc)) from None
    if count is not None and len(cards) != count:
        raise BadInput(field, f"needs {count} cards, got {len(cards)}")
    return cards


def check_distinct(groups: Iterable[tuple[str, Iterable[Card]]]) -> None:
    """No card may appear twice across the round; names the field where the repeat is."""
    seen: dict[Card, str] = {}
    for field, cards in groups:
        for card in cards:
            if card in seen:
                where = "" if seen[card] == field else f" (also in {seen[card]})"
                raise BadInput(field, f"duplicate card {card.text}{where}")
            seen[card] = field


def resolve_profile(request: dict[str, Any], library: ProfileLibrary, game_id: str) -> LoadedProfile:
    """The request's `profile` (name or path), or the game's default."""
    from rules.registry import game

    name = request.get("profile", game(game_id).default_profile)
    if not isinstance(name, str) or not name:
        raise BadInput("profile", "must be a profile name or a path to a YAML file")
    try:
        return library.find(name, game=game_id)
    except InvalidProfile as exc:
        raise BadInput("profile", str(exc)) from None


def profile_of(loaded: LoadedProfile, model: type[ProfileBase]) -> Any:
    """The loaded profile as the game's model (the game's profile model guarantees the type)."""
    assert isinstance(loaded.profile, model)
    return loaded.profile
