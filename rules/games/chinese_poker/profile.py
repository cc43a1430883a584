"""Chinese Poker profile (docs/rules.md CP-6..10, CP-12)."""

from __future__ import annotations

from typing import Literal, Self

from pydantic import Field, StrictBool, StrictInt, model_validator

from rules.profiles.base import Chips, Model, PositiveChips, ProfileBase, Section

GAME_ID: Literal["chinese-poker"] = "chinese-poker"

Scoring = Literal["basic", "mandarin", "super_bonus"]
_POINTS = Field(ge=0, le=1000)


class ScoringRules(Model):
    """One scoring profile (CP-6, CP-8)."""

    scoop_points: StrictInt | None = Field(
        description="points for winning all three rows against one opponent; none = 3 (rows only)",
        ge=1,
        le=1000,
    )
    royalties: StrictBool = Field(description="whether royalties (CP-7) are paid")
    foul_points: StrictInt = Field(ge=0, le=1000, description="what a fouled hand pays (CP-8)")


class FrontRoyalties(Model):
    three_of_a_kind: StrictInt = _POINTS


class MiddleRoyalties(Model):
    straight_flush: StrictInt = _POINTS
    four_of_a_kind: StrictInt = _POINTS
    full_house: StrictInt = _POINTS


class BackRoyalties(Model):
    straight_flush: StrictInt = _POINTS
    four_of_a_kind: StrictInt = _POINTS


class Royalties(Model):
    """Royalty points by row and hand (CP-7); only a row's highest counts."""

    front: FrontRoyalties
    middle: MiddleRoyalties
    back: BackRoyalties


class Naturals(Model):
    """Points a declared natural collects (CP-9, CP-10)."""

    dragon: StrictInt = _POINTS
    six_pairs: StrictInt = _POINTS
    three_flushes: StrictInt = _POINTS
    three_straights: StrictInt = _POINTS


class ChinesePokerProfile(ProfileBase):
    """A Chinese Poker table: 2-4 players, points settled between every pair."""

    game: Literal["chinese-poker"] = GAME_ID
    scoring: Scoring = Field("mandarin", description="the scoring profile in force")
    scorings: dict[Scoring, ScoringRules] = Field(description="the scoring profiles (CP-6)")
    royalties: Royalties
    royalty_needs_row_win: StrictBool = Field(
        True, description="a royalty is collected only when its row wins (CP-7 ruling)"
    )
    naturals: Naturals
    point_value: PositiveChips = Field(description="chips per point (CP-12)")
    buy_in_points: StrictInt = Field(20, ge=1, le=10_000, description="full buy-in in points")
    house_fee: Chips = Field(0, description="fee per player per hand")
    min_players: StrictInt = Field(2, ge=2, le=4)
    max_players: StrictInt = Field(4, ge=2, le=4)

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.scoring not in self.scorings:
            raise ValueError(f"scoring: {self.scoring!r} is not defined under scorings")
        if self.min_players > self.max_players:
            raise ValueError("min_players is above max_players")
        return self

    @property
    def full_buy_in(self) -> int:
        return self.buy_in_points * self.point_value

    def max_seats(self) -> int:
        return self.max_players

    def posting(self) -> list[Section]:
        rules = self.scorings[self.scoring]
        scoring = [
            ("Scoring", self.scoring.replace("_", " ")),
            ("Each row won", "1 point"),
            ("Scoop (all three rows)", f"{rules.scoop_points} points" if rules.scoop_points else "3 points"),
            ("Foul pays each opponent", f"{rules.foul_points} points + their royalties or natural"),
            ("Point value", f"{self.point_value} chips"),
            ("Buy-in", f"{self.full_buy_in} chips ({self.buy_in_points} points)"),
            ("House fee", f"{self.house_fee} per player per hand" if self.house_fee else "none"),
        ]
        royalties = []
        if rules.royalties:
            for row in ("back", "middle", "front"):
                for hand, points in getattr(self.royalties, row).model_dump().items():
                    royalties.append((f"{row.title()} {hand.replace('_', ' ')}", f"{points} points"))
        naturals = [(k.replace("_", " "), f"{v} points") for k, v in self.naturals.model_dump().items()]
        out = [Section("Scoring", scoring)]
        if royalties:
            out.append(Section("Royalties (row must win)" if self.royalty_needs_row_win else "Royalties", royalties))
        title, rows = self._common_section()
        first = f"; the first buy is a full {self.full_buy_in}, then one short buy per full one (CP-12)"
        table = [(label, value + first if label == "Buy-in" else value) for label, value in rows]
        out += [Section("Naturals", naturals), Section(title, table)]
        return out
