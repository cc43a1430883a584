"""Table profiles: shipped files load, bad files fail with file:line: field: problem, and the
casino's own directory comes first (DESIGN.md "Paytables and profiles")."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from rules.errors import InvalidProfile
from rules.games.chinese_poker.profile import ChinesePokerProfile
from rules.games.high_card_flush.profile import HighCardFlushProfile
from rules.games.one_or_five.profile import OneOrFiveProfile
from rules.games.palace_poker.profile import PalacePokerProfile
from rules.profiles.loader import ProfileLibrary, load_profile_file, parse_profile, shipped_dir

SHIPPED = shipped_dir()


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _shipped_text(name: str) -> str:
    return (SHIPPED / f"{name}.yaml").read_text(encoding="utf-8")


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), start=1) if needle in line)


def test_shipped_profiles_all_load_with_their_games() -> None:
    lib = ProfileLibrary()
    games = {name: lib.find(name).game for name in lib.paths()}
    assert games == {
        "high-card-flush": "high-card-flush",
        "high-card-flush-casino": "high-card-flush",
        "one-or-five": "one-or-five",
        "chinese-poker": "chinese-poker",
        "palace-poker": "palace-poker",
    }


def test_hcf_14_seed_paytables_in_the_card_room_profile() -> None:
    profile = ProfileLibrary().find("high-card-flush").profile
    assert isinstance(profile, HighCardFlushProfile)
    assert profile.banker == "designated_player"
    assert profile.paytables.straight_flush == {7: 1000, 6: 500, 5: 100, 4: 60, 3: 8}
    assert profile.paytables.flush == {7: 200, 6: 50, 5: 10, 4: 2}
    assert profile.bonus_cap is None
    assert (profile.rake.mode, profile.rake.amount) == ("all", 0)


def test_hcf_20_casino_profile_paytables_and_house_bank() -> None:
    profile = ProfileLibrary().find("high-card-flush-casino").profile
    assert isinstance(profile, HighCardFlushProfile)
    assert profile.banker == "house"
    assert profile.paytables.flush == {7: 300, 6: 100, 5: 10, 4: 1}
    assert profile.paytables.straight_flush == {7: 8000, 6: 1000, 5: 100, 4: 60, 3: 7}
    assert profile.max_players == 6


def test_hcf_at_most_7_hands_the_table_has_6_seats_when_the_house_banks_and_7_with_a_dp() -> None:
    """At most 7 hands are dealt: 6 players and the DP (7 seats, the DP sits in one), or 6 players
    and the dealer (6 seats: the dealer's hand is not a seat)."""
    casino = ProfileLibrary().find("high-card-flush-casino").profile
    room = ProfileLibrary().find("high-card-flush").profile
    assert (casino.max_seats(), room.max_seats()) == (6, 7)


def test_r_8_seed_paytable_and_r_3_exchange_in_one_or_five() -> None:
    profile = ProfileLibrary().find("one-or-five").profile
    assert isinstance(profile, OneOrFiveProfile)
    odds = {name: profile.payouts.odds(name) for name in (
        "ace-king", "one pair", "two pair", "three of a kind", "straight", "flush",
        "full house", "four of a kind", "straight flush", "royal flush")}
    assert list(odds.values()) == [1, 1, 2, 3, 4, 5, 7, 20, 50, 100]
    assert profile.exchange.counts == [1, 5] and profile.exchange.fee == 1
    assert profile.ante_unpaid_hands == ["two pair"]


def test_cp_6_cp_7_cp_8_chinese_poker_profile() -> None:
    profile = ProfileLibrary().find("chinese-poker").profile
    assert isinstance(profile, ChinesePokerProfile)
    assert profile.scoring == "mandarin"
    assert profile.scorings["mandarin"].scoop_points == 6
    assert profile.scorings["super_bonus"].foul_points == 9
    assert profile.scorings["basic"].royalties is False
    assert profile.royalties.middle.straight_flush == 10
    assert profile.full_buy_in == 20 * 5


def test_pp_1_palace_ante_defaults_to_half_the_small_bet_rounded_down(tmp_path: Path) -> None:
    text = _shipped_text("palace-poker").replace("small_bet: 10", "small_bet: 15").replace("ante: 5\n", "")
    loaded = load_profile_file(_write(tmp_path, "p.yaml", text))
    assert isinstance(loaded.profile, PalacePokerProfile)
    assert loaded.profile.ante == 7  # 15 // 2


def test_bad_value_names_file_line_and_field(tmp_path: Path) -> None:
    text = _shipped_text("one-or-five").replace("  flush: 5", "  flush: 0")
    path = _write(tmp_path, "one-or-five.yaml", text)
    with pytest.raises(InvalidProfile) as err:
        load_profile_file(path)
    line = _line_of(text, "  flush: 0")
    assert str(err.value).endswith(f"one-or-five.yaml:{line}: payouts.flush: must be a positive integer")


def test_misspelt_key_is_named_as_unknown_at_its_line(tmp_path: Path) -> None:
    text = _shipped_text("high-card-flush").replace("dp_min_bank:", "dp_minimum_bank:")
    with pytest.raises(InvalidProfile) as err:
        load_profile_file(_write(tmp_path, "h.yaml", text))
    line = _line_of(text, "dp_minimum_bank")
    assert f"h.yaml:{line}: dp_minimum_bank: is not a known field" in str(err.value)


def test_missing_key_is_named(tmp_path: Path) -> None:
    text = "\n".join(l for l in _shipped_text("palace-poker").splitlines() if not l.startswith("big_bet"))
    with pytest.raises(InvalidProfile, match=r"p\.yaml:\d+: big_bet: is required"):
        load_profile_file(_write(tmp_path, "p.yaml", text))


def test_wrong_enum_value_lists_the_choices(tmp_path: Path) -> None:
    text = _shipped_text("high-card-flush").replace("mode: all ", "mode: everyone ")
    with pytest.raises(InvalidProfile) as err:
        load_profile_file(_write(tmp_path, "h.yaml", text))
    assert f"h.yaml:{_line_of(text, 'mode: everyone')}: rake.mode: must be one of" in str(err.value)
    assert "'dp_only'" in str(err.value)


def test_broken_yaml_syntax_names_the_line(tmp_path: Path) -> None:
    text = "game: one-or-five\ntitle: x\npayouts: {ace_king: 1\nlimits: {}\n"
    with pytest.raises(InvalidProfile, match=r"b\.yaml:\d+: "):
        load_profile_file(_write(tmp_path, "b.yaml", text))


def test_duplicate_key_is_refused(tmp_path: Path) -> None:
    text = _shipped_text("palace-poker") + "small_bet: 20\n"
    with pytest.raises(InvalidProfile) as err:
        load_profile_file(_write(tmp_path, "p.yaml", text))
    assert f"p.yaml:{len(text.splitlines())}: small_bet: key given twice" in str(err.value)


def test_unknown_game_and_missing_game(tmp_path: Path) -> None:
    with pytest.raises(InvalidProfile, match=r"g\.yaml:1: game: unknown game 'baccarat'"):
        load_profile_file(_write(tmp_path, "g.yaml", "game: baccarat\n"))
    with pytest.raises(InvalidProfile, match=r"n\.yaml:1: game: is required"):
        load_profile_file(_write(tmp_path, "n.yaml", "title: x\n"))


def test_non_mapping_and_empty_files(tmp_path: Path) -> None:
    with pytest.raises(InvalidProfile, match="must be a mapping"):
        load_profile_file(_write(tmp_path, "l.yaml", "- 1\n- 2\n"))
    with pytest.raises(InvalidProfile, match="empty"):
        load_profile_file(_write(tmp_path, "e.yaml", ""))


def test_strict_types_refuse_text_and_fractions_for_chips(tmp_path: Path) -> None:
    for bad in ("small_bet: '10'", "small_bet: 10.5", "small_bet: true"):
        text = _shipped_text("palace-poker").replace("small_bet: 10", bad)
        with pytest.raises(InvalidProfile, match=r"small_bet: must be a whole number"):
            load_profile_file(_write(tmp_path, "p.yaml", text))


def test_huge_number_is_refused(tmp_path: Path) -> None:
    text = _shipped_text("palace-poker").replace("small_bet: 10", "small_bet: 100000000000000000000000")
    with pytest.raises(InvalidProfile, match=r"small_bet: must be at most"):
        load_profile_file(_write(tmp_path, "p.yaml", text))


def test_hcf_20_house_banked_profile_refuses_a_rake(tmp_path: Path) -> None:
    text = _shipped_text("high-card-flush-casino").replace("rake: {mode: all, amount: 0}", "rake: {mode: all, amount: 2}")
    with pytest.raises(InvalidProfile, match="takes no rake"):
        load_profile_file(_write(tmp_path, "c.yaml", text))


def test_hcf_14_paytable_lines_outside_card_counts_refused(tmp_path: Path) -> None:
    text = _shipped_text("high-card-flush").replace("flush: {7: 200,", "flush: {3: 1, 7: 200,")
    with pytest.raises(InvalidProfile, match=r"paytables\.flush: card counts must be 4 to 7, not 3"):
        load_profile_file(_write(tmp_path, "h.yaml", text))


def test_casino_directory_is_searched_before_the_shipped_profiles(tmp_path: Path) -> None:
    own = _shipped_text("one-or-five").replace("title: Poker \"1 or 5\"", "title: House Rules 1 or 5")
    _write(tmp_path, "one-or-five.yaml", own)
    _write(tmp_path, "my-palace.yaml", _shipped_text("palace-poker"))
    lib = ProfileLibrary([tmp_path])
    assert lib.find("one-or-five").profile.title == "House Rules 1 or 5"
    assert lib.find("my-palace").game == "palace-poker"
    assert ProfileLibrary().find("one-or-five").profile.title == 'Poker "1 or 5"'


def test_find_by_path_and_by_wrong_game(tmp_path: Path) -> None:
    path = _write(tmp_path, "x.yaml", _shipped_text("palace-poker"))
    lib = ProfileLibrary()
    assert lib.find(str(path)).name == "x"
    with pytest.raises(InvalidProfile, match="is for palace-poker, not chinese-poker"):
        lib.find(str(path), game="chinese-poker")
    with pytest.raises(InvalidProfile, match="unknown profile 'nope'"):
        lib.find("nope")


def test_a_broken_casino_file_is_listed_as_an_error_not_hidden(tmp_path: Path) -> None:
    _write(tmp_path, "broken.yaml", "game: palace-poker\nsmall_bet: -1\n")
    entries = list(ProfileLibrary([tmp_path]).entries())
    errors = [e for e in entries if isinstance(e, InvalidProfile)]
    assert len(errors) == 1 and "broken.yaml" in str(errors[0])
    assert "broken" not in ProfileLibrary([tmp_path]).names()


def test_profiles_are_frozen() -> None:
    profile = ProfileLibrary().find("palace-poker").profile
    with pytest.raises(ValidationError, match="frozen"):
        profile.small_bet = 1  # type: ignore[misc]


def test_a_huge_alias_name_is_named_in_a_message_of_one_short_line() -> None:
    """A profile may not use aliases; the alias named in the refusal is cut to 40 characters, so a
    hostile file cannot make a message of thousands of characters."""
    with pytest.raises(InvalidProfile) as caught:
        parse_profile("*a" + "9" * 5000, "fuzz.yaml", "fuzz")
    message = str(caught.value)
    assert message.endswith("a profile may not use aliases; write the value out") and len(message) < 150
    assert "*a" + "9" * 38 + "…:" in message
