"""A broken or hostile casino profile never stops the terminal: the table setup lists the
profiles that load, and "change profile" at the table offers them, the others left out."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Select

from dealer_tui.app import Options, make_app
from dealer_tui.screens.choice_dialog import ChoiceDialog
from dealer_tui.screens.round_screen import RoundScreen
from dealer_tui.screens.setup_screen import SetupScreen
from rules.profiles.loader import load_profile_file, shipped_dir
from tests.staff_support import approved, staffed_path
from tests.tui_support import PIN_KEYS, on_top, seated_app

SIZE = (120, 36)
NO_ALIAS = "a profile may not use aliases; write the value out"


def hostile_profiles(tmp_path: Path, game: str) -> Path:
    """One good profile of the game beside a recursive alias, a billion laughs, a deep nesting and
    a file name that would be read as markup, each claiming the same game."""
    own = tmp_path / "profiles"
    own.mkdir()
    text = (shipped_dir() / f"{game}.yaml").read_text(encoding="utf-8")
    (own / "house-limits.yaml").write_text(text.replace("title: ", "title: House "))
    (own / "loop.yaml").write_text(f"game: {game}\ntitle: Loop\nrows: &rows\n  - 1\n  - *rows\n")
    (own / "laughs.yaml").write_text(f"game: {game}\na: &a [lol, lol, lol, lol, lol]\n" + "".join(
        f"{b}: &{b} [*{a}, *{a}, *{a}, *{a}, *{a}, *{a}, *{a}, *{a}, *{a}]\n"
        for a, b in zip("abcdefgh", "bcdefghi")))
    (own / "deep.yaml").write_text(f"game: {game}\nx: " + "[" * 5000 + "\n")
    (own / "[@click=app.quit]x.yaml").write_text(text)
    return own


def options(select: Select[str]) -> list[str]:
    return [value for _, value in select._options if isinstance(value, str)]


async def test_setup_lists_the_profiles_that_load_beside_a_hostile_one(tmp_path: Path) -> None:
    own = hostile_profiles(tmp_path, "palace-poker")
    app = make_app(staffed_path(tmp_path / "l.sqlite"), profiles=[own],
                   options=Options(game="palace-poker"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = on_top(app)
        assert isinstance(screen, SetupScreen)
        select = screen.query_one("#profile", Select)
        assert options(select) == ["house-limits", "palace-poker"]
        assert select.value == "palace-poker"  # the game's default, as without the casino's files
    problems = sorted(str(p).split(": ", 1)[1] for p in app.library.problems())
    assert problems == [
        "a profile's file name may not hold brackets or control characters",
        f"b[0]: alias *a: {NO_ALIAS}",
        f"rows[1]: alias *rows: {NO_ALIAS}",
        f"x{'[0]' * 15}: nested more than 16 levels deep",
    ]


async def test_change_profile_at_the_table_offers_only_the_profiles_that_load(
    tmp_path: Path,
) -> None:
    own = hostile_profiles(tmp_path, "high-card-flush")
    players = [(1, "Ann", 5000), (2, "Bob", 5000)]
    app = seated_app(tmp_path, "high-card-flush", players, profiles=own)
    approved(app.ledger, load_profile_file(own / "house-limits.yaml"))  # the manager approved it
    async with app.run_test(size=SIZE) as pilot:
        screen = on_top(app)
        assert isinstance(screen, RoundScreen)
        await pilot.press("P")
        modal = on_top(app)
        assert isinstance(modal, ChoiceDialog)
        assert modal.choices == [("1", "house-limits"), ("2", "high-card-flush-casino")]
        await pilot.press("1", *PIN_KEYS, *"house limits", "enter")
        assert app.table is not None and app.table.profile.name == "house-limits"
