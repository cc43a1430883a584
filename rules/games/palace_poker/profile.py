"""Palace Poker profile (docs/rules.md PP-1, PP-7, PP-11)."""

from __future__ import annotations

from typing import Any, Literal, Self

from pydantic import Field, StrictInt, model_validator

from rules.profiles.base import Chips, PositiveChips, ProfileBase, Section, figures
from rules.said import say, say_in

GAME_ID: Literal["palace-poker"] = "palace-poker"


class PalacePokerProfile(ProfileBase):
    """A Palace Poker table: a pot game of head-to-head battles."""

    game: Literal["palace-poker"] = GAME_ID
    small_bet: PositiveChips
    big_bet: PositiveChips
    structure: Literal["limit", "no_limit"] = Field(description="battle bet sizing (PP-7, PP-11)")
    ante: Chips = Field(description="ante for a banner card; default half the small bet (PP-1)")
    max_raises: StrictInt = Field(3, ge=1, le=100, description="raises per battle (PP-11)")
    min_players: StrictInt = Field(2, ge=2, le=10)
    max_players: StrictInt = Field(10, ge=2, le=10)

    @model_validator(mode="before")
    @classmethod
    def _default_ante(cls, data: Any) -> Any:
        if isinstance(data, dict) and "ante" not in data and isinstance(data.get("small_bet"), int):
            return {**data, "ante": data["small_bet"] // 2}
        return data

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.big_bet < self.small_bet:
            raise ValueError("big_bet is below small_bet")
        if self.min_players > self.max_players:
            raise ValueError("min_players is above max_players")
        return self

    def max_seats(self) -> int:
        return self.max_players

    def posting(self) -> list[Section]:
        limit = self.structure == "limit"
        rules: list[tuple[str, str]] = [
            (say("Structure"), say("limit") if limit else say("no limit")),
            (say("Small bet / big bet"), figures("{small} / {big}", small=self.small_bet, big=self.big_bet)),
            (say("Ante (banner card)"), figures("{chips}", chips=self.ante)),
            (say("Buy or discard"), say("{chips} (one small bet)", chips=self.small_bet)),
            (say_in("bet", "Attack"),
             say("(own soldiers + 1) x small bet") if limit else say("(own soldiers + 1) x small bet or more")),
            (say_in("bet", "Call"), say("(own soldiers + 1) x small bet")),
            (say_in("bet", "Raise"),
             say("one big bet; at most {raises} per battle", raises=self.max_raises) if limit
             else say("at least one big bet; at most {raises} per battle", raises=self.max_raises)),
            (say("Players"), figures("{min}-{max}", min=self.min_players, max=self.max_players)),
        ]
        return [Section(say("Betting"), rules), self._common_section()]
