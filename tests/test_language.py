"""The reader's language: which one the terminal speaks (`--lang`, then the locale, then English),
numbers and plurals as each language writes them, and the keys shown in it."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from dealer_tui.cli import main
from dealer_tui.language import UnknownLanguage, chosen, language, language_of, use_terminal
from dealer_tui.screens.round_screen import RoundScreen
from dealer_tui.widgets.key_bar import KeyBar
from dealer_tui.widgets.phase_track import PhaseTrack
from tests.tui_support import seated_app

NBSP = "\u00a0"


@pytest.mark.parametrize(("setting", "code"), [
    ("hu_HU.UTF-8", "hu"), ("pl_PL", "pl"), ("ru_RU.KOI8-R", "ru"), ("ru", "ru"), ("en_GB.UTF-8", "en"),
    ("sr_RS@latin", None), ("C", None), ("POSIX", None), ("C.UTF-8", None), ("de_DE.UTF-8", None)])
def test_a_locale_setting_names_a_language_the_terminal_speaks_or_none(setting: str, code: str | None) -> None:
    assert language_of(setting) == code


def test_the_language_asked_for_comes_first_then_lc_all_lc_messages_lang_then_english() -> None:
    everything = {"LC_ALL": "pl_PL.UTF-8", "LC_MESSAGES": "ru_RU.UTF-8", "LANG": "hu_HU.UTF-8"}
    assert chosen("ru", everything) == "ru"
    assert chosen(None, everything) == "pl"
    assert chosen(None, {"LC_MESSAGES": "ru_RU.UTF-8", "LANG": "hu_HU.UTF-8"}) == "ru"
    assert chosen(None, {"LC_ALL": "", "LANG": "hu_HU.UTF-8"}) == "hu"  # an empty setting is not set
    assert chosen(None, {"LANG": "C.UTF-8"}) == "en"
    assert chosen(None, {"LC_ALL": "de_DE.UTF-8", "LANG": "hu_HU.UTF-8"}) == "en"  # the first set one decides
    assert chosen(None, {}) == "en"


def test_a_language_the_terminal_does_not_speak_is_refused_with_the_ones_it_does() -> None:
    with pytest.raises(UnknownLanguage, match=r"--lang 'de': the terminal speaks en \(English\), hu \(Magyar\), "
                                              r"pl \(Polski\), ru \(Русский\)"):
        chosen("de")


def test_the_command_line_refuses_an_unknown_language_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--lang", "klingon", "history", "list"])
    assert exited.value.code == 2
    assert capsys.readouterr().err.splitlines() == [
        "error: --lang 'klingon': the terminal speaks en (English), hu (Magyar), pl (Polski), ru (Русский) "
        "(see `dealer-tui --help`)"]


def test_chips_are_grouped_as_each_language_groups_them() -> None:
    # CLDR: English groups with a comma; Hungarian, Polish and Russian with a no-break space
    assert language("en").number(1_000_000) == "1,000,000"
    for code in ("hu", "pl", "ru"):
        assert language(code).number(1_000_000) == f"1{NBSP}000{NBSP}000"
        assert language(code).number(-12_345) == f"-12{NBSP}345"
        assert language(code).number(999) == "999"


def test_a_percentage_has_the_languages_decimal_comma_and_sign() -> None:
    assert language("en").percent(0.125) == "12.5%"
    assert language("hu").percent(0.125) == "12,5%"
    assert language("pl").percent(0.125) == "12,5%"
    assert language("ru").percent(0.125) == f"12,5{NBSP}%"  # Russian sets the sign apart
    assert language("hu").percent(0.5, 0) == "50%"


@pytest.mark.parametrize(("code", "forms"), [
    # the form each count takes: Polish 1 żeton, 2-4 żetony, 5+ żetonów (12-14 too, 22-24 again the second)
    ("pl", {1: 0, 2: 1, 4: 1, 5: 2, 12: 2, 14: 2, 21: 2, 22: 1, 25: 2, 0: 2, 101: 2, 104: 1}),
    # Russian 1 фишка (21, 101 too), 2-4 фишки (not 12-14), 5+ фишек
    ("ru", {1: 0, 21: 0, 101: 0, 2: 1, 4: 1, 22: 1, 5: 2, 11: 2, 12: 2, 14: 2, 0: 2, 111: 2}),
    # Hungarian: the plural form for everything but one (the noun itself stays singular after a number)
    ("hu", {1: 0, 0: 1, 2: 1, 5: 1, 21: 1}),
])
def test_the_catalogs_plural_rules_choose_polish_and_russians_three_forms(code: str, forms: dict[int, int]) -> None:
    catalog = language(code).catalog
    assert {n: catalog.plural(n) for n in forms} == forms  # type: ignore[attr-defined]


def test_a_message_is_translated_with_its_placeholders_filled_in_their_own_order() -> None:
    assert language("hu").text("key {key}", key="F") == "F billentyű"
    assert language("ru").text("key {key}", key="F") == "клавиша F"
    assert language("en").text("key {key}", key="F") == "key F"
    assert language("pl").text("no such message, as written") == "no such message, as written"


async def test_the_keys_and_the_phase_track_are_shown_in_the_terminals_language(tmp_path: Path) -> None:
    use_terminal("hu")
    app = seated_app(tmp_path, "high-card-flush", [(1, "Ann", 1000), (2, "Bob", 1000)])
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        bar = str(screen.query_one(KeyBar).render())
        assert "Új kör" in bar and "Súgó" in bar and "Kilépés" in bar  # s New round, ? Help, ^q Quit
        assert "New round" not in bar
        track = str(screen.query_one(PhaseTrack).render())
        assert track == "ANTE ▸ OSZTÁS ▸ DÖNTÉS ▸ FELFEDÉS ▸ KIFIZETÉS"


async def test_the_prompt_names_the_keys_in_the_terminals_language(tmp_path: Path) -> None:
    use_terminal("ru")
    app = seated_app(tmp_path, "high-card-flush", [(1, "Ann", 1000), (2, "Bob", 1000), (3, "Cy", 1000)])
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        assert str(screen.query_one("#prompt", Static).render()) == "Нажмите s, чтобы начать раунд."
        await pilot.press("s", "y")  # seat 1 takes the bank (HCF-18)
        assert str(screen.query_one("#prompt", Static).render()) == (
            "Ставки ANTE: номер места — выбрать место, a — поставить ANTE; d — раздать.")


@pytest.mark.parametrize(("code", "said"), [
    ("pl", {1: "1 runda rozegrana", 3: "3 rundy rozegrane", 5: "5 rund rozegranych", 12: "12 rund rozegranych",
            22: "22 rundy rozegrane"}),
    ("ru", {1: "1 раунд сыгран", 21: "21 раунд сыгран", 3: "3 раунда сыграно", 11: "11 раундов сыграно",
            25: "25 раундов сыграно"}),
    ("hu", {1: "1 kör lejátszva", 7: "7 kör lejátszva"}),
    ("en", {1: "1 round played", 2: "2 rounds played", 1000: "1,000 rounds played"}),
])
def test_a_count_of_rounds_takes_the_plural_form_the_language_uses(code: str, said: dict[int, str]) -> None:
    speaking = language(code)
    assert {n: speaking.plural("{count} round played", "{count} rounds played", n) for n in said} == said
