"""Poker "1 or 5" profile (docs/rules.md R-3, R-4, R-7, R-8, R-9)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictBool, StrictInt, field_validator

from rules.profiles.base import NONE, Model, PositiveChips, ProfileBase, Range, Section, figures
from rules.said import Said, joined, say, say_in

GAME_ID: Literal["one-or-five"] = "one-or-five"

PaidHand = Literal[
    "ace-king", "one pair", "two pair", "three of a kind", "straight", "flush",
    "full house", "four of a kind", "straight flush", "royal flush",
]


class OneOrFivePayouts(Model):
    """Bet paytable, odds "to 1" by the player's hand (R-8)."""

    ace_king: PositiveChips
    one_pair: PositiveChips
    two_pair: PositiveChips
    three_of_a_kind: PositiveChips
    straight: PositiveChips
    flush: PositiveChips
    full_house: PositiveChips
    four_of_a_kind: PositiveChips
    straight_flush: PositiveChips
    royal_flush: PositiveChips

    def odds(self, hand_name: str) -> int:
        """Odds for a hand name as docs/settle.md spells it (`three of a kind`)."""
        return int(getattr(self, hand_name.replace(" ", "_").replace("-", "_")))


class Exchange(Model):
    """The one exchange per box (R-3)."""

    counts: list[StrictInt] = Field(description="card counts that may be exchanged")
    fee: StrictInt = Field(ge=0, le=100, description="fee in antes, paid to the house")

    @field_validator("counts")
    @classmethod
    def _counts(cls, v: list[int]) -> list[int]:
        if not v:
            raise ValueError("needs at least one count")
        for n in v:
            if not 1 <= n <= 5:
                raise ValueError(f"an exchange count must be 1 to 5, not {n}")
        if len(set(v)) != len(v):
            raise ValueError("a count is listed twice")
        return sorted(v)


class Insurance(Model):
    """Insurance on a closed box (R-9): premium from 1x Ante to half the Bet's paytable win."""

    enabled: StrictBool = True
    min_hand: PaidHand = Field("straight", description="the weakest hand that may be insured")


class OneOrFiveLimits(Model):
    ante: Range
    boxes: StrictInt = Field(ge=1, le=9, description="boxes (betting spots) at the table")
    boxes_per_player: StrictInt = Field(ge=1, le=9, description="boxes one player may play")


class OneOrFiveProfile(ProfileBase):
    """A Poker "1 or 5" table, banked by the house."""

    game: Literal["one-or-five"] = GAME_ID
    payouts: OneOrFivePayouts
    limits: OneOrFiveLimits
    exchange: Exchange
    insurance: Insurance = Insurance(enabled=True, min_hand="straight")
    ante_on_win: Literal["even_money"] = Field(
        "even_money", description="how the Ante is paid when a closed box wins (R-7)"
    )
    ante_unpaid_hands: list[PaidHand] = Field(
        default_factory=lambda: list[PaidHand](["two pair"]),
        description="winning hands whose Ante is returned unpaid (R-7)",
    )
    max_box_payout: PositiveChips | None = Field(
        None, description="most one box may win in a round (R-8); none = no cap"
    )

    def max_seats(self) -> int:
        """A seat for each box: every player seated can play at least one (R-1)."""
        return self.limits.boxes

    def posted_limits(self) -> Said:
        return say("ante {low:,}–{high:,}", low=self.limits.ante.min, high=self.limits.ante.max)

    def house_banked(self) -> bool:
        return True

    def posting(self) -> list[Section]:
        names = OneOrFivePayouts.model_fields
        pays: list[tuple[str, str]] = [(_HANDS[name.replace("_", " ").replace("ace king", "ace-king")],
                                        say("{odds} to 1", odds=getattr(self.payouts, name))) for name in names]
        pays.reverse()
        counts = figures("{count}", count=self.exchange.counts[0])
        for n in self.exchange.counts[1:]:
            counts = say("{counts} or {count}", counts=counts, count=n)
        rules: list[tuple[str, str]] = [
            (say("Ante"), self.limits.ante.posted()),
            (say("Close the box"), say("Bet of 2x Ante")),
            (say("Exchange"), say("{counts} card(s) for {fee}x Ante, once, on the open box", counts=counts,
                                  fee=self.exchange.fee)),
            (say("Dealer qualifies with"), say("Ace-King or better")),
            (say("No game"), say("Ante wins 1:1, Bet returned")),
            (say("Ante unpaid on a win with"),
             joined([_HANDS[hand] for hand in self.ante_unpaid_hands], ", ") if self.ante_unpaid_hands else NONE),
            (
                say_in("bet", "Insurance"),
                say("{hand} or better: 1x Ante to half the Bet's win", hand=_HANDS[self.insurance.min_hand])
                if self.insurance.enabled
                else say("not offered"),
            ),
            (say("Maximum payout per box"),
             figures("{chips}", chips=self.max_box_payout) if self.max_box_payout else NONE),
            (say("Boxes"), say("{boxes}, at most {per_player} per player", boxes=self.limits.boxes,
                               per_player=self.limits.boxes_per_player)),
        ]
        return [Section(say("Bet pays"), pays), Section(say("Rules"), rules), self._common_section()]


_HANDS: dict[str, Said] = {
    "ace-king": say("ace-king"), "one pair": say("one pair"), "two pair": say("two pair"),
    "three of a kind": say("three of a kind"), "straight": say("straight"), "flush": say("flush"),
    "full house": say("full house"), "four of a kind": say("four of a kind"), "straight flush": say("straight flush"),
    "royal flush": say("royal flush"),
}
"""The paid hands (`PaidHand`) by name, as the paytable, the Ante's and the insurance's lines post
them (`rules.HAND_SAID` says them too; this module cannot import it)."""
