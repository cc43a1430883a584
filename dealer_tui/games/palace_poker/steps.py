"""Palace Poker's own steps (PP-0..PP-11); the reveal (the pot awarded) and the table's steps are
every game's (`rounds.steps`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from dealer_tui.rounds.steps import Staked, Step, WithCards
from rules.said import Said, say


@dataclass(frozen=True, kw_only=True)
class DrawForDealer(WithCards):
    """One card to each player: the highest rank deals the first hand (PP-0)."""

    VERB: ClassVar[Said] = say("draw for the dealer")


@dataclass(frozen=True, kw_only=True)
class Ante(Staked):
    """A seat's ante for a banner (PP-1)."""

    VERB: ClassVar[Said] = say("ante")


@dataclass(frozen=True, kw_only=True)
class Withdraw(Step):
    """A seat takes its ante back before the banners are dealt."""

    VERB: ClassVar[Said] = say("take back the ante")


@dataclass(frozen=True, kw_only=True)
class DealBanners(WithCards):
    """The banners dealt from the shuffled deck (PP-2)."""

    VERB: ClassVar[Said] = say("deal the banners")


@dataclass(frozen=True, kw_only=True)
class DealPalaces(WithCards):
    """The palace cards dealt, the rest the draw pile (PP-2)."""

    VERB: ClassVar[Said] = say("deal the palace cards")


@dataclass(frozen=True, kw_only=True)
class Buy(Staked, WithCards):
    """A soldier bought for one small bet (PP-3); the cards, when the discard pile becomes the
    new draw pile (PP-12)."""

    VERB: ClassVar[Said] = say("buy")


@dataclass(frozen=True, kw_only=True)
class Keep(Step):
    """The soldiers kept after a buy or a capture: `discard` names the ones that go (PP-3, PP-8)."""

    VERB: ClassVar[Said] = say("keep soldiers")
    discard: str = ""


@dataclass(frozen=True, kw_only=True)
class Discard(Staked):
    """Soldiers discarded for one small bet (PP-4): `discard` names them."""

    VERB: ClassVar[Said] = say("discard")
    discard: str = ""


@dataclass(frozen=True, kw_only=True)
class Stay(Step):
    """The seat stays (PP-5)."""

    VERB: ClassVar[Said] = say("stay")


@dataclass(frozen=True, kw_only=True)
class Fold(Step):
    """The seat folds its hand (PP-6), or to a bet in a battle (PP-9)."""

    VERB: ClassVar[Said] = say("fold")


@dataclass(frozen=True, kw_only=True)
class Battle(Staked):
    """The seat attacks `target` for the amount (PP-7)."""

    VERB: ClassVar[Said] = say("attack")
    target: int | None = None


@dataclass(frozen=True, kw_only=True)
class Call(Staked, WithCards):
    """The seat calls the bet in a battle (PP-9); at a live table, with the cards the battle shows."""

    VERB: ClassVar[Said] = say("call")


@dataclass(frozen=True, kw_only=True)
class Raise(Staked):
    """The seat calls and raises by the amount in a battle (PP-11)."""

    VERB: ClassVar[Said] = say("raise")
