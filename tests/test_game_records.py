"""One record per game names its parts in every layer (`rules.registry.GAMES`): each reference
loads, and each part is the game's own."""

from __future__ import annotations

import subprocess
import sys

import pytest

from dealer_tui.rounds.base import Round
from rules.profiles.base import ProfileBase
from rules.registry import GAMES, installed, load, record
from rules.settle import settler
from rules.simulate import simulator


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_part_of_a_game_record_is_that_games(game) -> None:  # type: ignore[no-untyped-def]
    from dealer_tui.screens.round_screen import RoundScreen

    model = load(game.profile_model)
    assert issubclass(model, ProfileBase) and model.model_fields["game"].default == game.id
    rnd = load(game.round)
    assert issubclass(rnd, Round) and (rnd.game_id, rnd.keyed) == (game.id, False)
    if game.keyed_round is not None:
        keyed = load(game.keyed_round)
        assert issubclass(keyed, rnd) and keyed.keyed
    assert issubclass(load(game.screen), RoundScreen)
    presenter = load(game.presenter)
    assert callable(presenter.describe) and callable(presenter.seats)
    assert callable(load(game.demo))
    assert settler(game.id) is not None
    if game.simulator is not None:
        assert simulator(game.id).game == game.id


def test_a_part_this_build_lacks_is_not_installed_and_a_broken_one_is_not_hidden(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    assert not installed("dealer_tui.screens.no_such_screen:Screen")
    assert not installed("dealer_tui.no_such_package.screen:Screen")
    assert not installed(None)
    monkeypatch.delitem(sys.modules, "dealer_tui.games.palace_poker.screen", raising=False)  # put back after
    assert installed("dealer_tui.games.palace_poker.screen:PalacePokerScreen")
    assert "dealer_tui.games.palace_poker.screen" not in sys.modules   # found, not imported: a start stays quick
    assert installed("dealer_tui.games.high_card_flush.round:NoSuchRound")  # the module is there ...
    with pytest.raises(AttributeError):
        load("dealer_tui.games.high_card_flush.round:NoSuchRound")          # ... and loading it says what is wrong


def test_an_unknown_game_names_the_known_ones() -> None:
    from rules.errors import BadInput

    with pytest.raises(BadInput, match="unknown game 'poker' \\(known: high-card-flush, one-or-five"):
        record("poker")


def test_reading_the_records_imports_nothing_of_the_terminal() -> None:
    code = ("import sys; from rules.registry import GAMES, games; games(); "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'dealer_tui', 'textual', 'sqlite3'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
