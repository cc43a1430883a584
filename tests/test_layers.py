"""The layers stay apart: `rules` never loads Textual, SQLite or the terminal; headless
commands never load Textual (DESIGN.md "Layers")."""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import rules

ROOT = Path(__file__).resolve().parent.parent


def _loaded_after(code: str) -> set[str]:
    probe = code + "\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))\n"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def _top_levels(modules: set[str]) -> set[str]:
    return {m.split(".")[0] for m in modules}


def test_design_every_rules_module_imports_without_textual_sqlite_or_dealer_tui() -> None:
    names = [m.name for m in pkgutil.walk_packages(rules.__path__, "rules.")]
    assert "rules.evaluator" in names and "rules.settle" in names
    imports = "\n".join(f"import {name}" for name in names if not name.endswith("__main__"))
    loaded = _top_levels(_loaded_after(imports + "\nfrom rules.registry import games\ngames()"))
    assert not loaded & {"textual", "sqlite3", "dealer_tui", "_sqlite3"}


def test_design_settle_and_paytables_commands_never_import_textual() -> None:
    code = (
        "import io, sys, contextlib\n"
        "from dealer_tui.cli import main\n"
        "sys.stdin = io.StringIO('{\"game\": \"no-such-game\"}')\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
        "    main(['paytables', 'list'])\n"
        "    main(['paytables', 'show', 'high-card-flush'])\n"
        "    main(['settle'])\n"
    )
    loaded = _top_levels(_loaded_after(code))
    assert "dealer_tui" in loaded  # the probe really ran the commands
    assert "textual" not in loaded


def test_design_rounds_and_ledger_never_import_textual() -> None:
    import dealer_tui.ledger
    import dealer_tui.rounds

    names = [m.name for pkg in (dealer_tui.rounds, dealer_tui.ledger)
             for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + ".")]
    assert "dealer_tui.rounds.table" in names and "dealer_tui.ledger.sqlite" in names
    imports = "\n".join(f"import {name}" for name in names)
    loaded = _loaded_after(imports + "\nfrom dealer_tui.games import GAMES\nGAMES.find('palace-poker').round_class(keyed=True)")
    assert "textual" not in _top_levels(loaded)


def test_design_the_ledger_imports_no_game_code() -> None:
    """The ledger knows the bets' roles (`rules.bets`), never a game's rules or rounds: adding up a
    round's rows by role reads the games' declarations (each game's bets, beside its profile
    model), and nothing else of them."""
    import dealer_tui.ledger

    names = [m.name for m in pkgutil.walk_packages(dealer_tui.ledger.__path__, "dealer_tui.ledger.")]
    loaded = _loaded_after("\n".join(f"import {name}" for name in names))
    assert not {m for m in loaded if m.startswith(("dealer_tui.rounds", "dealer_tui.games"))}
    assert "textual" not in _top_levels(loaded)
    games = {m for m in loaded if m.startswith("rules.games.")}
    each = ("high_card_flush", "one_or_five", "chinese_poker", "palace_poker")
    assert games == {f"rules.games.{g}{part}" for g in each for part in ("", ".bets", ".profile")}
