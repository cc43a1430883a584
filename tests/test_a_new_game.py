"""Adding a game is two folders, an entry in each side's list of games and a YAML profile: a
throwaway game ("Throwaway Poker", the "1 or 5" game's parts under a new name) added to a copy of
the project that way is seen everywhere (its profile, bets, settle contract, round, presenter and
screen), deals and pays rounds that verify, and keeps every import contract."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow

CHECK = """
import random, sys
from pathlib import Path
from rules.bets import bet_types
from rules.registry import games
from rules.profiles.loader import ProfileLibrary
from rules.settle import settle_round
from dealer_tui.audit import verify_ledger
from dealer_tui.demo import play, seat_players
from dealer_tui.games import GAMES
from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.cards import VirtualShoe
from dealer_tui.rounds.table import Table
from dealer_tui.screens.registry import round_screen
from tests.staff_support import quick_pins, staffed

quick_pins()
assert games()["throwaway-poker"].title == "Throwaway Poker"
game = GAMES.find("throwaway-poker")
assert game.rules is games()["throwaway-poker"]
profile = ProfileLibrary([]).find("throwaway-poker")
assert profile.profile.game == "throwaway-poker"
assert {"ante", "bet", "exchange", "insurance"} <= set(bet_types())
assert game.round.__module__ == "dealer_tui.games.throwaway_poker.round"
assert type(game.presenter).__module__ == "dealer_tui.games.throwaway_poker.presenter"
assert round_screen(game).__module__ == "dealer_tui.games.throwaway_poker.screen"
# the settle contract: docs/settle.md's "1 or 5" example under the new game's id
settled = settle_round({"game": "throwaway-poker", "dealer": {"cards": "Ah Kd 7c 5s 2h"}, "boxes": [
    {"box": 1, "ante": 10, "action": "bet", "exchanged": 1, "insurance": 0, "cards": "Qs Qd 4c 4h 9s"},
    {"box": 2, "ante": 10, "action": "fold", "cards": "2c 3c 8d 9h Js"}]}, ProfileLibrary([]))
assert (settled["game"], [b["net"] for b in settled["boxes"]], settled["dealer"]["net"]) == ("throwaway-poker", [30, -10], -20)
ledger = SqliteLedger(Path(sys.argv[1]))
crew = staffed(ledger)
table = Table.create(ledger, "Sixth 1", game, profile, VirtualShoe.seeded_with(5), seats=6)
crew.deal(table)
seat_players(table, 3)
play(table, 8, random.Random(5), None, crew.approver())
rounds = ledger.table_rounds(table.record.id)
assert len(rounds) == 8 and {r.game for r in rounds} == {"throwaway-poker"}, rounds
table.close()
assert verify_ledger(ledger, GAMES) == []
ledger.close()
print("throwaway-poker plays")
"""


def copy_project(where: Path) -> None:
    for part in ("rules", "dealer_tui", "paytables", "tests"):
        shutil.copytree(ROOT / part, where / part, ignore=shutil.ignore_patterns("__pycache__", "__snapshots__"))
    shutil.copy(ROOT / "pyproject.toml", where / "pyproject.toml")


def add_a_game(where: Path) -> list[str]:
    """The game added as a developer adds one; the files it touched outside its two folders."""
    for side in ("rules/games", "dealer_tui/games"):
        shutil.copytree(where / side / "one_or_five", where / side / "throwaway_poker")
        for path in (where / side / "throwaway_poker").glob("*.py"):
            text = path.read_text(encoding="utf-8").replace("games.one_or_five", "games.throwaway_poker")
            text = text.replace('"one-or-five"', '"throwaway-poker"').replace("""'Poker "1 or 5"'""", '"Throwaway Poker"')
            path.write_text(text, encoding="utf-8")
    yaml = (where / "paytables" / "one-or-five.yaml").read_text(encoding="utf-8")
    (where / "paytables" / "throwaway-poker.yaml").write_text(
        yaml.replace("game: one-or-five", "game: throwaway-poker").replace('title: Poker "1 or 5"', "title: Throwaway Poker"),
        encoding="utf-8")
    rules_list = where / "rules" / "games" / "__init__.py"
    text = rules_list.read_text(encoding="utf-8")
    text = text.replace("one_or_five, palace_poker\n", "one_or_five, palace_poker, throwaway_poker\n", 1)
    rules_list.write_text(text.replace("palace_poker.GAME)", "palace_poker.GAME, throwaway_poker.GAME)", 1),
                          encoding="utf-8")
    table_list = where / "dealer_tui" / "games" / "__init__.py"
    text = table_list.read_text(encoding="utf-8")
    text = text.replace("one_or_five, palace_poker\n", "one_or_five, palace_poker, throwaway_poker\n", 1)
    text = text.replace("\n\nGAMES: ", """

def _throwaway_poker() -> TableGame:
    from dealer_tui.games.throwaway_poker import GAME

    return GAME


GAMES: """, 1)
    table_list.write_text(text.replace("    Listed(palace_poker.GAME, _palace_poker),\n",
                                       "    Listed(palace_poker.GAME, _palace_poker),\n"
                                       "    Listed(throwaway_poker.GAME, _throwaway_poker),\n", 1), encoding="utf-8")
    return ["paytables/throwaway-poker.yaml", "rules/games/__init__.py", "dealer_tui/games/__init__.py"]


def test_a_new_game_is_two_folders_two_list_entries_and_a_yaml_profile(tmp_path: Path) -> None:
    project = tmp_path / "project"
    copy_project(project)
    assert add_a_game(project) == ["paytables/throwaway-poker.yaml", "rules/games/__init__.py",
                                   "dealer_tui/games/__init__.py"]
    env = {"PYTHONPATH": str(project), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    played = subprocess.run([sys.executable, "-c", CHECK, str(tmp_path / "l.sqlite")], cwd=project, env=env,
                            capture_output=True, text=True, timeout=300)
    assert played.returncode == 0 and "throwaway-poker plays" in played.stdout, played.stderr
    linter = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    contracts = subprocess.run([linter], cwd=project, env=env, capture_output=True, text=True, timeout=300)
    assert contracts.returncode == 0, contracts.stdout
    assert "11 kept, 0 broken" in contracts.stdout
    # the contracts cover the new game as they stand: its round borrowing another game's is refused
    round_module = project / "dealer_tui" / "games" / "throwaway_poker" / "round.py"
    round_module.write_text(round_module.read_text(encoding="utf-8") + "\nimport dealer_tui.games.one_or_five.round\n",
                            encoding="utf-8")
    broken = subprocess.run([linter], cwd=project, env=env, capture_output=True, text=True, timeout=300)
    assert broken.returncode != 0
    assert "Each game at the table is its own: no game imports another BROKEN" in broken.stdout
