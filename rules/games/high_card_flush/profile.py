"""High Card Flush profile (docs/rules.md HCF-4, HCF-14, HCF-17, HCF-18, HCF-20)."""

from __future__ import annotations

from typing import Literal, Self

from pydantic import Field, StrictInt, field_validator, model_validator

from rules.profiles.base import (
    NONE,
    Chips,
    Model,
    PositiveChips,
    ProfileBase,
    Range,
    Section,
    figures,
)
from rules.said import Said, say, say_in

GAME_ID: Literal["high-card-flush"] = "high-card-flush"


class HcfPaytables(Model):
    """Bonus paytables, odds "to 1" by the hand's card count (HCF-14)."""

    straight_flush: dict[StrictInt, PositiveChips] = Field(
        description="Straight Flush bet: straight-flush length (3-7) -> odds"
    )
    flush: dict[StrictInt, PositiveChips] = Field(
        description="Flush bet: flush length (4-7) -> odds"
    )

    @field_validator("straight_flush")
    @classmethod
    def _sf_lengths(cls, v: dict[int, int]) -> dict[int, int]:
        return _check_lengths(v, 3)

    @field_validator("flush")
    @classmethod
    def _flush_lengths(cls, v: dict[int, int]) -> dict[int, int]:
        return _check_lengths(v, 4)


def _check_lengths(table: dict[int, int], shortest: int) -> dict[int, int]:
    bad = sorted(k for k in table if not shortest <= k <= 7)
    if bad:
        raise ValueError(f"card counts must be {shortest} to 7, not {bad[0]}")
    if not table:
        raise ValueError("needs at least one line")
    return dict(sorted(table.items(), reverse=True))


class Rake(Model):
    """House rake per hand (HCF-17)."""

    mode: Literal["all", "players", "dp_only"] = Field(description="who pays the rake")
    amount: Chips = Field(0, description="chips per hand")


class HcfLimits(Model):
    """Table limits for each bet spot (HCF-4)."""

    ante: Range
    flush: Range
    straight_flush: Range


class HighCardFlushProfile(ProfileBase):
    """A High Card Flush table: card room (DP banks) or casino (house banks, HCF-20)."""

    game: Literal["high-card-flush"] = GAME_ID
    banker: Literal["designated_player", "house"] = Field(
        description="designated_player: a seated player banks (HCF-15); house: HCF-20"
    )
    paytables: HcfPaytables
    limits: HcfLimits
    max_players: StrictInt = Field(6, ge=1, le=6, description="players besides the banker")
    rake: Rake = Field(Rake(mode="all", amount=0), description="HCF-17")
    bonus_cap: PositiveChips | None = Field(
        None, description="most one hand's bonus bets may win together (HCF-14); none = no cap"
    )
    round_bonus_cap: PositiveChips | None = Field(
        None, description="most the bonus bets of all the round's hands may win together, hand by "
        "hand in the settlement order (HCF-14); none = no cap"
    )
    dp_min_bank: Chips = Field(0, description="chips a Designated Player must hold (HCF-18)")

    @model_validator(mode="after")
    def _casino_has_no_rake(self) -> Self:
        if self.banker == "house" and self.rake.amount:
            raise ValueError("rake: a house-banked table takes no rake (HCF-20)")
        return self

    def max_seats(self) -> int:
        # the players and the Designated Player; at a house-banked table the dealer's hand is the 7th
        return self.max_players + (0 if self.house_banked() else 1)

    def posted_limits(self) -> Said:
        return say("ante {low:,}–{high:,}", low=self.limits.ante.min, high=self.limits.ante.max)

    def house_banked(self) -> bool:
        return self.banker == "house"

    def posting(self) -> list[Section]:
        banker = say("Designated Player") if self.banker == "designated_player" else say("House")
        sf: list[tuple[str, str]] = [(say("{count}-card straight flush", count=n), say("{odds} to 1", odds=odds))
                                     for n, odds in self.paytables.straight_flush.items()]
        fl: list[tuple[str, str]] = [(say("{count}-card flush", count=n), say("{odds} to 1", odds=odds))
                                     for n, odds in self.paytables.flush.items()]
        rake = NONE if not self.rake.amount else _rake(self.rake)
        rules: list[tuple[str, str]] = [
            (say("Banker"), banker),
            (say("Ante"), self.limits.ante.posted()),
            (say("Flush bet"), self.limits.flush.posted()),
            (say("Straight Flush bet"), self.limits.straight_flush.posted()),
            (say_in("bet", "Raise"), say("1x ante (4-card flush or less), 2x (5 cards), 3x (6-7 cards)")),
            (say("Banker qualifies with"), say("3-card flush 9-high or better")),
            (say("Players"), say("at most {count}", count=self.max_players)),
            (say_in("bet", "Rake"), rake),
            (say("Maximum bonus payout per hand"),
             figures("{chips}", chips=self.bonus_cap) if self.bonus_cap else NONE),
            (say("Maximum bonus payout per round"),
             figures("{chips}", chips=self.round_bonus_cap) if self.round_bonus_cap else NONE),
        ]
        if self.banker == "designated_player":
            rules.append((say("Designated Player must hold"), figures("{chips}", chips=self.dp_min_bank)))
        return [
            Section(say("Straight Flush bet"), sf),
            Section(say("Flush bet"), fl),
            Section(say("Rules"), rules),
            self._common_section(),
        ]


def _rake(rake: Rake) -> Said:
    """The rake as posted, by who pays it (`Rake.mode`, a code the English shows as it is)."""
    if rake.mode == "players":
        return say("{amount} per hand (players)", amount=rake.amount)
    if rake.mode == "dp_only":
        return say("{amount} per hand (dp_only)", amount=rake.amount)
    return say("{amount} per hand (all)", amount=rake.amount)
