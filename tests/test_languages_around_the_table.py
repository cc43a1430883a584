"""What the table, the staff desk and the pit say outside the games' own sentences — where cards are
keyed, the chips' colours, an ID document's kind, a round's flags, the pit link, an authority
problem — in the reader's language, while the record keeps its codes and its English."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_tui.games import GAMES
from dealer_tui.language import told, told_error, use
from dealer_tui.pit.delivery import LinkState, link_state
from dealer_tui.rounds.steps import Reveal
from dealer_tui.rounds.table_money import TableMoney
from dealer_tui.rounds.tray import describe_chips
from dealer_tui.views.record_words import flags_text
from rules.errors import IllegalAction
from rules.profiles.base import STANDARD_CHIPS
from tests.hcf_support import BANKER, SEAT2, SEAT3, acted, keyed, live_table


def test_hcf_19_a_misdeal_refusal_names_the_hand_in_the_readers_words(tmp_path: Path) -> None:
    """HCF-19: seat 2 keyed with 6 cards of its 7 is a misdeal; the refusal names seat 2 as the
    reader says it, and its figures."""
    table = live_table(tmp_path)
    acted(table, 20, 10)
    short = keyed({"seat 2": SEAT2[:-3], "seat 3": SEAT3, "banker": BANKER})
    with pytest.raises(IllegalAction) as refused:
        table.act(Reveal(cards=short))
    assert "seat 2 needs 7 cards, got 6 (misdeal, HCF-19)" in str(refused.value)   # English: the code itself
    use("hu")
    assert "2. hely" in told_error(refused.value) and "seat 2" not in told_error(refused.value)
    use("pl")
    assert "miejsce 2" in told_error(refused.value)


def test_the_cards_still_to_key_are_named_in_the_readers_words(tmp_path: Path) -> None:
    """A reveal without its keyed hands says which hands to key: seat 2, seat 3 and the banker,
    7 cards each (HCF-1)."""
    table = live_table(tmp_path)
    acted(table, 20, 10)
    with pytest.raises(IllegalAction) as refused:
        table.act(Reveal())
    assert str(refused.value).endswith("Reveal: key the cards first (seat 2 7, seat 3 7, banker 7)")
    use("ru")
    said = told_error(refused.value)
    assert said == "Открытие: сначала введите карты (место 2: 7, место 3: 7, банкир: 7)"


def test_chips_are_told_in_the_readers_colours_with_their_figures() -> None:
    chips = {"1000": 2, "100": 4, "25": 0}
    assert describe_chips(STANDARD_CHIPS, chips) == "2 × 1000 orange, 4 × 100 black"
    use("pl")
    assert told(describe_chips(STANDARD_CHIPS, chips)) == "2 × 1\xa0000 pomarańczowy, 4 × 100 czarny"  # grouped
    use("ru")
    assert told(describe_chips(STANDARD_CHIPS, chips)).endswith("4 × 100 чёрная")


def test_an_id_document_is_typed_in_the_rooms_words_and_recorded_as_its_code() -> None:
    """A Hungarian, Polish or Russian dealer types the document's kind in their word; the record
    keeps the English code, so the cash log and the alerts read one kind whatever was typed."""
    assert TableMoney.check_document("Útlevél  AB1234567") == "passport AB1234567"
    assert TableMoney.check_document("dowód ABC123456") == "id-card ABC123456"
    assert TableMoney.check_document("паспорт 4510123456") == "passport 4510123456"
    assert TableMoney.check_document("jogosítvány PK123456") == "driving-licence PK123456"
    with pytest.raises(IllegalAction) as refused:
        TableMoney.check_document("loyalty 12")
    use("pl")
    said = told_error(refused.value)
    assert "dowód, paszport, karta-pobytu, prawo-jazdy" in said or all(
        word in said for word in ("paszport", "dowód", "prawo-jazdy", "karta-pobytu"))
    assert "passport" not in said and "id-card" not in said


def test_a_rounds_flags_read_as_codes_in_english_and_as_words_in_the_other_languages() -> None:
    flags = {"signed_off", "dead_hands", "seeded"}
    words = GAMES.flag_words()
    assert flags_text(flags, words) == "dead_hands, seeded, signed_off"
    use("hu")
    assert flags_text(flags, words) == "halott lap, rögzített keverés, jóváhagyva"   # sorted by code
    assert flags_text({"made_up_flag"}, words) == "made_up_flag"   # a flag not known here: as recorded


def test_the_pit_links_state_reads_in_the_readers_language_with_its_figures() -> None:
    offline = LinkState("pit", online=False, since=1.0, behind=1234)
    assert "1234 to send" in offline.describe()
    use("ru")
    assert "1\xa0234" in told(offline.describe()) and "to send" not in told(offline.describe())  # grouped
    assert told(link_state("2026-12-07 10:00:00", 45.0)) == "НЕТ СВЯЗИ с 2026-12-07 10:00:00 UTC"  # 45 s > 30 s


async def test_the_command_palette_speaks_the_readers_language_and_lists_no_english_key_panel(
        tmp_path: Path) -> None:
    """ctrl+p in Polish: the search line, the theme picker's and Textual's own commands are Polish;
    Textual's key panel, which would list every key in English, is not offered (the key bar and `?`
    list them), nor its screenshot to a downloads folder."""
    from textual.command import CommandInput, CommandPalette

    from dealer_tui.language import use_terminal
    from tests.tui_support import on_top, seated_app

    app = seated_app(tmp_path, "high-card-flush", [(1, "Ann", 500)])
    use_terminal("pl")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Motyw" in titles and "Zakończ" in titles and "Theme" not in titles
        assert not {"Keys", "Klawisze", "Screenshot", "Zrzut ekranu"} & set(titles)
        await pilot.press("ctrl+p")
        await pilot.pause()
        palette = on_top(app)
        assert isinstance(palette, CommandPalette)
        assert palette.query_one(CommandInput).placeholder == "Szukaj polecenia…"
        await pilot.press("escape")
        app.search_themes()
        await pilot.pause()
        assert on_top(app).query_one(CommandInput).placeholder == "Szukaj motywu…"


def test_an_alarm_the_pit_keeps_in_english_reads_back_into_its_sentence() -> None:
    """The pit keeps its alarms as the terminal raised them and the server stamped them (English);
    read back, each is the same English, and a sentence a reader of another language reads in
    theirs, its table, terminal and login as recorded."""
    from dealer_tui.ledger.pit_words import alarm_said

    kept = ("table T1: event 5 does not link to the server's event 4 (terminal vm2 on vm2) "
            "[raised by login t1] (alarm 3)")
    said = alarm_said(kept)
    assert said == kept and not said.is_literal
    unknown = "a text the server never said"
    assert alarm_said(unknown) == unknown and alarm_said(unknown).is_literal
    use("pl")
    shown = told(said)
    assert "T1" in shown and "vm2" in shown and "t1" in shown and "3" in shown
    assert "does not link" not in shown and "raised by login" not in shown


def test_a_file_the_system_cannot_write_is_said_in_the_readers_language() -> None:
    """An export to a folder that does not exist: the system's English words in English, the
    reader's words otherwise; an error the program does not know is shown as the system says it."""
    import errno

    from dealer_tui.language import os_problem

    missing = FileNotFoundError(errno.ENOENT, "No such file or directory")
    assert os_problem(missing) == "No such file or directory"
    use("pl")
    assert os_problem(missing) == "Nie ma takiego pliku ani katalogu"
    assert os_problem(OSError(errno.ENAMETOOLONG, "File name too long")) == "File name too long"
