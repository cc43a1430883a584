"""Chinese Poker profile (docs/rules.md CP-6..10, CP-12)."""

from __future__ import annotations

from typing import Literal, Self

from pydantic import Field, StrictBool, StrictInt, model_validator

from rules.profiles.base import NONE, Chips, Model, PositiveChips, ProfileBase, Section
from rules.said import Said, say, say_in

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
        scoring: list[tuple[str, str]] = [
            (say("Scoring"), _SCORINGS[self.scoring]),
            (say("Each row won"), say("1 point")),
            (say("Scoop (all three rows)"), say("{points} points", points=rules.scoop_points or 3)),
            (say("Foul pays each opponent"),
             say("{points} points + their royalties or natural", points=rules.foul_points)),
            (say("Point value"), say("{chips} chips", chips=self.point_value)),
            (say("Buy-in"), say("{chips} chips ({points} points)", chips=self.full_buy_in, points=self.buy_in_points)),
            (say_in("bet", "House fee"),
             say("{fee} per player per hand", fee=self.house_fee) if self.house_fee else NONE),
        ]
        royalties: list[tuple[str, str]] = []
        if rules.royalties:
            for row in ("back", "middle", "front"):
                for hand, points in getattr(self.royalties, row).model_dump().items():
                    royalties.append((_ROYALTIES[row, hand], say("{points} points", points=points)))
        naturals: list[tuple[str, str]] = [(_NATURALS[k], say("{points} points", points=v))
                                           for k, v in self.naturals.model_dump().items()]
        out = [Section(say("Scoring"), scoring)]
        if royalties:
            out.append(Section(say("Royalties (row must win)") if self.royalty_needs_row_win else say("Royalties"),
                               royalties))
        title, rows = self._common_section()
        table: list[tuple[str, str]] = [
            (label, say("{buy_in}; the first buy is a full {full}, then one short buy per full one (CP-12)",
                        buy_in=value, full=self.full_buy_in) if label == "Buy-in" else value)
            for label, value in rows
        ]
        out += [Section(say("Naturals"), naturals), Section(title, table)]
        return out


_SCORINGS: dict[Scoring, Said] = {"basic": say("basic"), "mandarin": say("mandarin"),
                                  "super_bonus": say("super bonus")}
"""The scoring profiles as posted."""

_ROYALTIES: dict[tuple[str, str], Said] = {
    ("back", "straight_flush"): say("Back straight flush"),
    ("back", "four_of_a_kind"): say("Back four of a kind"),
    ("middle", "straight_flush"): say("Middle straight flush"),
    ("middle", "four_of_a_kind"): say("Middle four of a kind"),
    ("middle", "full_house"): say("Middle full house"),
    ("front", "three_of_a_kind"): say("Front three of a kind"),
}
"""Each royalty's line of the posting, by row and hand (the fields of `Royalties`)."""

_NATURALS: dict[str, Said] = {"dragon": say("dragon"), "six_pairs": say("six pairs"),
                              "three_flushes": say("three flushes"), "three_straights": say("three straights")}
"""Each natural's line of the posting, by its field of `Naturals`."""
