"""Common pieces of every game profile: frozen pydantic models that forbid unknown keys."""

from __future__ import annotations

from typing import Annotated, Self

from pydantic import BaseModel, ConfigDict, Field, StrictInt, model_validator

from rules.said import Said, say

MAX_CHIPS = 10**12
"""No amount in a profile may exceed this (a typo of many zeros fails at load time)."""
MAX_DIGITS = 18
"""No number in a settle request may be written with more digits: room for every amount up to
`MAX_CHIPS` (13 digits), and far below the 4300 digits past which Python will not read one."""
MAX_TITLE = 100
"""Characters a profile's title may have (it is posted at the table)."""
MAX_TEXT = 1000
"""Characters any text in a profile may have, its description included."""

Chips = Annotated[StrictInt, Field(ge=0, le=MAX_CHIPS)]
PositiveChips = Annotated[StrictInt, Field(gt=0, le=MAX_CHIPS)]
Count = Annotated[StrictInt, Field(gt=0, le=1000)]


class Model(BaseModel):
    """Frozen, strict about types, unknown keys refused."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True, defer_build=True)


class Range(Model):
    """An inclusive amount range, in chips."""

    min: PositiveChips = Field(description="smallest amount accepted")
    max: PositiveChips = Field(description="largest amount accepted")

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if self.min > self.max:
            raise ValueError(f"min ({self.min}) is above max ({self.max})")
        return self

    def contains(self, amount: int) -> bool:
        return self.min <= amount <= self.max

    def __str__(self) -> str:
        return f"{self.min}–{self.max}"

    def posted(self) -> Said:
        """The range as a posting shows it (`5–500`), its figures as the reader's language writes
        numbers."""
        return figures("{min}–{max}", min=self.min, max=self.max)


def figures(template: str, /, **values: int) -> Said:
    """Figures with no word between them (`5–500`, `10 / 20`, `1500`): no message to translate, the
    numbers written as the reader's language writes them (as English always wrote them here)."""
    return Said(template, values)


NONE = say("none")
"""A posting's value where the profile sets nothing (no cap, no fee): the screens leave such a row out."""


MAX_CHIP_COUNT = 100_000
"""No count of one denomination (a tray, a fill, a buy-in) may exceed this."""


class Chip(Model):
    """One denomination of the table's chip set."""

    value: PositiveChips = Field(description="what one chip is worth, in the house's minor unit")
    colour: str = Field(min_length=1, max_length=20, description="the chip's colour, as the tray shows it")

    def label(self) -> str:
        return f"{self.value} {self.colour}"


STANDARD_CHIPS: tuple[Chip, ...] = (
    Chip(value=1, colour="white"), Chip(value=5, colour="red"), Chip(value=25, colour="green"),
    Chip(value=100, colour="black"), Chip(value=500, colour="purple"), Chip(value=1000, colour="orange"),
)
"""The chip set of a profile that names none: the denominations and colours most houses use."""


class ProfileBase(Model):
    """What every table profile states, whatever the game."""

    game: str = Field(description="the game's id, e.g. high-card-flush")
    title: str = Field(max_length=MAX_TITLE, description="the name posted at the table")
    description: str = Field("", max_length=MAX_TEXT,
                             description="a line on where this profile comes from")
    buy_in: Range = Field(description="chips a player may bring to the table in one buy")
    sign_off_threshold: PositiveChips = Field(
        description="one seat's payout in one round (its winning bets with their stakes; a DP's "
        "take) at or above this needs a supervisor"
    )

    time_charge: Chips = Field(0, description="chips each seated player pays at a time collection (a card room's "
                               "seat rental, to the collection box); 0: the table collects no time")
    chips: list[Chip] = Field(default_factory=lambda: list(STANDARD_CHIPS), min_length=1, max_length=12,
                                    description="the table's chip set, one line per denomination")
    idle_sign_out_minutes: int = Field(20, ge=0, le=240, description="minutes without a key at the terminal after "
                                       "which the dealer on duty is signed out (0: never)")

    @model_validator(mode="after")
    def _distinct_chips(self) -> Self:
        values = [c.value for c in self.chips]
        if len(set(values)) != len(values):
            raise ValueError(f"chips: each denomination once (given {', '.join(map(str, values))})")
        colours = [c.colour.casefold() for c in self.chips]
        if len(set(colours)) != len(colours):
            raise ValueError("chips: each colour once (a tray tells denominations apart by colour)")
        return self

    def chip_set(self) -> tuple[Chip, ...]:
        """The denominations, largest first (as a tray is counted)."""
        return tuple(sorted(self.chips, key=lambda c: -c.value))

    def posted_limits(self) -> Said:
        """The table's limits in a few words, as a pit map shows them: by default the buy-in."""
        return say("buy-in {low:,}–{high:,}", low=self.buy_in.min, high=self.buy_in.max)

    def house_banked(self) -> bool:
        """Whether the house banks the game, its result going to the tray; False for a card-room
        game, where the house takes rake and fees into the collection box."""
        return False

    def posting(self) -> list[Section]:
        """The profile as a table posting: titled sections of (label, value) rows, each a sentence
        (`rules.said`) a screen shows in the reader's language; it matches a row by its English."""
        return [self._common_section()]

    def max_seats(self) -> int:
        """Seats a table of this profile may have."""
        return 7

    def _common_section(self) -> Section:
        return Section(
            say("Table"),
            [
                (say("Buy-in"), self.buy_in.posted()),
                (say("Supervisor sign-off from"), say("{chips} paid to one seat", chips=self.sign_off_threshold)),
                *([(say("Time collection"), say("{chips} from each seated player", chips=self.time_charge))]
                  if self.time_charge else []),
            ],
        )


class Section(tuple[str, list[tuple[str, str]]]):
    """A titled list of (label, value) rows: sentences (`Said`), each reading as its English."""

    def __new__(cls, title: str, rows: list[tuple[str, str]]) -> Section:
        return super().__new__(cls, (title, rows))

    @property
    def title(self) -> str:
        return self[0]

    @property
    def rows(self) -> list[tuple[str, str]]:
        return self[1]
