"""The games: one record per game names every part of it, in every layer, and everything finds a
game's parts here, by the game's id, never through `if` chains.

A record's parts are lazy references, `"module:attribute"` (or a module alone, for a module that
registers what it holds when imported): nothing is imported until it is asked for, so the headless
commands never import a screen, and the rules never import the terminal. Adding a game is one
record here and the game's two packages: `rules/games/<game>/` and `dealer_tui/games/<game>/`.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from importlib.util import find_spec
from typing import TYPE_CHECKING, Any

from rules.errors import BadInput

if TYPE_CHECKING:
    from rules.profiles.base import ProfileBase


@dataclass(frozen=True)
class GameRecord:
    """Every part of one game, by layer."""

    id: str
    title: str
    default_profile: str
    profile_model: str
    """rules: the profile's pydantic model."""
    settler: str
    """rules: the `settle` contract's module (it registers its settlers)."""
    simulator: str | None
    """rules: the simulator's module (it registers the simulator); None: not simulated."""
    strategies: tuple[str, ...]
    """The simulator's strategies, its default first (named here, so that `--help` loads no
    simulator: they load NumPy; a test holds them to the simulator's own)."""
    simulated_hands: int
    """Hands (deals) `simulate` plays when `--hands` is not given."""
    bets: str
    """rules: the game's bet types (`rules.bets.BetType`), each with its label and role."""
    events: str
    """events: the module of the game's typed events (it registers them)."""
    round: str
    """rounds: the round's state machine."""
    keyed_round: str | None
    """rounds: the live-table round (the dealer keys the cards); None: none yet."""
    presenter: str
    """views: what the screens show of a round."""
    screen: str
    """screens: the round screen."""
    demo: str
    """demo: the built-in players' `choose(round, rng)`."""


GAMES: tuple[GameRecord, ...] = (
    GameRecord(
        "high-card-flush", "High Card Flush", "high-card-flush",
        profile_model="rules.games.high_card_flush.profile:HighCardFlushProfile",
        bets="rules.games.high_card_flush.bets:BETS",
        strategies=("mousseau", "never-fold"), simulated_hands=1_000_000,
        settler="rules.games.high_card_flush.settle", simulator="rules.games.high_card_flush.simulate",
        events="dealer_tui.games.high_card_flush.events",
        round="dealer_tui.games.high_card_flush.round:HighCardFlushRound",
        keyed_round="dealer_tui.games.high_card_flush.live_round:HighCardFlushKeyedRound",
        presenter="dealer_tui.games.high_card_flush.presenter:PRESENTER",
        screen="dealer_tui.games.high_card_flush.screen:HighCardFlushScreen",
        demo="dealer_tui.games.high_card_flush.demo:choose"),
    GameRecord(
        "one-or-five", 'Poker "1 or 5"', "one-or-five",
        profile_model="rules.games.one_or_five.profile:OneOrFiveProfile",
        bets="rules.games.one_or_five.bets:BETS",
        strategies=("basic", "never-fold"), simulated_hands=1_000_000,
        settler="rules.games.one_or_five.settle", simulator="rules.games.one_or_five.simulate",
        events="dealer_tui.games.one_or_five.events",
        round="dealer_tui.games.one_or_five.round:OneOrFiveRound",
        keyed_round="dealer_tui.games.one_or_five.live_round:OneOrFiveKeyedRound",
        presenter="dealer_tui.games.one_or_five.presenter:PRESENTER",
        screen="dealer_tui.games.one_or_five.screen:OneOrFiveScreen",
        demo="dealer_tui.games.one_or_five.demo:choose"),
    GameRecord(
        "chinese-poker", "Chinese Poker", "chinese-poker",
        profile_model="rules.games.chinese_poker.profile:ChinesePokerProfile",
        bets="rules.games.chinese_poker.bets:BETS",
        strategies=("suggest",), simulated_hands=200,
        settler="rules.games.chinese_poker.settle", simulator="rules.games.chinese_poker.simulate",
        events="dealer_tui.games.chinese_poker.events",
        round="dealer_tui.games.chinese_poker.round:ChinesePokerRound",
        keyed_round="dealer_tui.games.chinese_poker.live_round:ChinesePokerKeyedRound",
        presenter="dealer_tui.games.chinese_poker.presenter:PRESENTER",
        screen="dealer_tui.games.chinese_poker.screen:ChinesePokerScreen",
        demo="dealer_tui.games.chinese_poker.demo:choose"),
    GameRecord(
        "palace-poker", "Palace Poker", "palace-poker",
        profile_model="rules.games.palace_poker.profile:PalacePokerProfile",
        bets="rules.games.palace_poker.bets:BETS",
        strategies=(), simulated_hands=0,
        settler="rules.games.palace_poker.settle", simulator=None,
        events="dealer_tui.games.palace_poker.events",
        round="dealer_tui.games.palace_poker.round:PalacePokerRound",
        keyed_round="dealer_tui.games.palace_poker.live_round:PalacePokerKeyedRound",
        presenter="dealer_tui.games.palace_poker.presenter:PRESENTER",
        screen="dealer_tui.games.palace_poker.screen:PalacePokerScreen",
        demo="dealer_tui.games.palace_poker.demo:choose"),
)
_RECORDS = {record.id: record for record in GAMES}


def load(ref: str) -> Any:
    """What a record's reference names: `module:attribute`, or the module itself."""
    module, _, attribute = ref.partition(":")
    found = import_module(module)
    return getattr(found, attribute) if attribute else found


def installed(ref: str | None) -> bool:
    """Whether this build has the part a reference names (a build may leave a game's screen or
    live-table round out): found on the path, not imported (a terminal's start imports only the
    game it opens); an import error inside the part shows when the part is loaded."""
    if ref is None:
        return False
    try:
        return find_spec(ref.partition(":")[0]) is not None
    except ModuleNotFoundError:  # a package on the way is missing
        return False


def imported(ref: str | None) -> bool:
    """Import the part a reference names if this build has it (a module that registers what it
    defines, when imported): whether it has it."""
    if ref is None or not installed(ref):
        return False
    load(ref)
    return True


def record(game_id: object, field: str = "game") -> GameRecord:
    """The record of a game, or `BadInput` naming the known ones."""
    if isinstance(game_id, str) and game_id in _RECORDS:
        return _RECORDS[game_id]
    raise BadInput(field, f"unknown game {game_id!r} (known: {', '.join(_RECORDS)})")


@dataclass(frozen=True)
class GameInfo:
    """A game as the rules know it: its record, with the profile model loaded."""

    id: str
    title: str
    profile_model: type[ProfileBase]
    default_profile: str


_INFO: dict[str, GameInfo] = {}


def games() -> dict[str, GameInfo]:
    """Every game by id, in the records' order."""
    if len(_INFO) < len(GAMES):
        for r in GAMES:
            _INFO[r.id] = GameInfo(r.id, r.title, load(r.profile_model), r.default_profile)
    return dict(_INFO)


def game(game_id: object, field: str = "game") -> GameInfo:
    """The game with this id, or `BadInput` naming the known ones."""
    return games()[record(game_id, field).id]
