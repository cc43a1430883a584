"""One typed object per game on each side (`rules.games.GAMES`, `dealer_tui.games.GAMES`): the
two lists name the same games in the same order, and each part is the game's own."""

from __future__ import annotations

import subprocess
import sys

import pytest

from dealer_tui.games import GAMES
from dealer_tui.rounds.base import Round
from dealer_tui.screens.registry import round_screen
from dealer_tui.screens.round_screen import RoundScreen
from rules.errors import BadInput, IllegalAction
from rules.games import GAMES as RULES_GAMES
from rules.profiles.base import ProfileBase
from rules.settle import settler
from rules.simulate import simulator


def test_both_sides_list_the_same_games_in_the_same_order() -> None:
    assert [g.rules for g in GAMES] == list(RULES_GAMES)
    assert GAMES.ids() == ["high-card-flush", "one-or-five", "chinese-poker", "palace-poker"]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_part_of_a_game_is_that_games(game) -> None:  # type: ignore[no-untyped-def]
    model = game.rules.profile_model
    assert issubclass(model, ProfileBase) and model.model_fields["game"].default == game.id
    assert issubclass(game.round, Round) and (game.round.game_id, game.round.keyed) == (game.id, False)
    if game.keyed_round is not None:
        assert issubclass(game.keyed_round, game.round) and game.keyed_round.keyed
    screen = round_screen(game)
    assert issubclass(screen, RoundScreen) and screen.__module__.startswith(game.round.__module__.rpartition(".")[0])
    assert callable(game.presenter.describe) and callable(game.presenter.seats)
    assert game.demo.__module__ == f"{game.round.__module__.rpartition('.')[0]}.demo"
    assert settler(game.id) is not None
    if game.rules.simulate is not None:
        assert simulator(game.id).game == game.id


def test_an_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(BadInput, match="unknown game 'poker' \\(known: high-card-flush, one-or-five"):
        GAMES.find("poker")


def test_a_game_with_no_live_table_round_refuses_keyed_cards_by_name() -> None:
    from dataclasses import replace

    hcf = replace(GAMES.find("high-card-flush"), keyed_round=None)
    assert hcf.round_class() is hcf.round
    with pytest.raises(IllegalAction, match="High Card Flush cannot be played with keyed cards yet"):
        hcf.round_class(keyed=True)


def test_a_screen_named_wrongly_is_refused_with_the_game_named() -> None:
    from dataclasses import replace

    wrong = replace(GAMES.find("palace-poker"), screen="dealer_tui.games.palace_poker.round:PalacePokerRound")
    with pytest.raises(TypeError, match="palace-poker: .* is not a round screen"):
        round_screen(wrong)


def test_reading_the_games_rules_imports_nothing_of_the_terminal() -> None:
    code = ("import sys; from rules.registry import games; games(); "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'dealer_tui', 'textual', 'sqlite3'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_listing_the_games_imports_none_and_a_game_is_imported_when_asked_for_or_its_events_read() -> None:
    """A terminal's start imports the game it opens, not every game; a game's events read from a
    ledger import the game; and no game's screen is imported but by the app (headless commands
    never load Textual)."""
    code = ("import sys\n"
            "from dealer_tui.games import GAMES\n"
            "from dealer_tui.events.codec import event_type\n"
            "games = lambda: sorted({m.split('.')[2] for m in sys.modules if m.startswith('dealer_tui.games.')})\n"
            "print(games(), GAMES.rules('palace-poker').title)\n"
            "GAMES.find('palace-poker')\n"
            "print(games())\n"
            "print(event_type('rows_set', 'chinese-poker').__module__, games())\n"
            "print(sorted(m for m in sys.modules if m == 'textual' or m.endswith('.screen')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["[] Palace Poker", "['palace_poker']",
                                "dealer_tui.games.chinese_poker.events ['chinese_poker', 'palace_poker']", "[]"]


def test_each_game_declares_its_own_flags_and_the_floor_offers_them_after_every_games() -> None:
    """HCF-16's dead hands and the live table's raise over the cap are High Card Flush's flags, a
    split pot and an all-in Palace Poker's; the ledger keeps only the flags of any game's round."""
    from dealer_tui.ledger.base import FLAGS

    assert set(GAMES.find("high-card-flush").round.FLAGS) == {"dead_hands", "over_cap_raise"}
    assert set(GAMES.find("palace-poker").round.FLAGS) == {"split_pot", "all_in"}
    assert not GAMES.find("one-or-five").round.FLAGS and not GAMES.find("chinese-poker").round.FLAGS
    assert not {"dead_hands", "over_cap_raise", "split_pot", "all_in"} & FLAGS.keys()
    assert list(GAMES.flags()) == [*FLAGS, "dead_hands", "over_cap_raise", "split_pot", "all_in"]
