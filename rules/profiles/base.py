"""Common pieces of every game profile: frozen pydantic models that forbid unknown keys."""

from __future__ import annotations

from typing import Annotated, Self

from pydantic import BaseModel, ConfigDict, Field, StrictInt, model_validator

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

    def posted_limits(self) -> str:
        """The table's limits in a few words, as a pit map shows them: by default the buy-in."""
        return f"buy-in {self.buy_in.min:,}–{self.buy_in.max:,}"

    def house_banked(self) -> bool:
        """Whether the house banks the game, its result going to the tray; False for a card-room
        game, where the house takes rake and fees into the collection box."""
        return False

    def posting(self) -> list[Section]:
        """The profile as a table posting: titled sections of (label, value) rows."""
        return [self._common_section()]

    def max_seats(self) -> int:
        """Seats a table of this profile may have."""
        return 7

    def _common_section(self) -> Section:
        return Section(
            "Table",
            [
                ("Buy-in", str(self.buy_in)),
                ("Supervisor sign-off from", f"{self.sign_off_threshold} paid to one seat"),
                *([("Time collection", f"{self.time_charge} from each seated player")] if self.time_charge else []),
            ],
        )


class Section(tuple[str, list[tuple[str, str]]]):
    """A titled list of (label, value) rows."""

    def __new__(cls, title: str, rows: list[tuple[str, str]]) -> Section:
        return super().__new__(cls, (title, rows))

    @property
    def title(self) -> str:
        return self[0]

    @property
    def rows(self) -> list[tuple[str, str]]:
        return self[1]
