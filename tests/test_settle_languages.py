"""`settle` in the reader's language: its contract (codes and figures) is the same byte for byte
whatever the language asked for or the locale, and `--explain --lang` gives the reasons in that
language, the figures in them as the language writes them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dealer_tui.cli import main

# HCF-7..HCF-10: seat 2's 5-card heart flush A-K-Q-J-9 beats the DP's 3-card spade flush A-8-3,
# which qualifies; Ante 500 and Raise 1000 (2x: a 5-card flush, HCF-6) each win 1 to 1; the DP,
# holding 5000, pays 1500 and holds 3500 after the hand.
ROUND = {"game": "high-card-flush", "profile": "high-card-flush", "seats": 7,
         "banker": {"seat": 1, "stack": 5000, "cards": "As 8s 3s 6d Qd 4d 5c"},
         "players": [{"seat": 2, "ante": 500, "raise": 1000, "cards": "Ah Kh Qh Jh 9h 2c 3d"}]}


def settled(tmp_path: Path, capsys: pytest.CaptureFixture[str], *options: str) -> str:
    request = tmp_path / "round.json"
    request.write_text(json.dumps(ROUND))
    capsys.readouterr()
    assert main(["settle", str(request), *options]) == 0
    return capsys.readouterr().out


def without_reasons(result: dict[str, object]) -> dict[str, object]:
    text = json.dumps(result)
    data = json.loads(text)
    data["banker"].pop("reason")
    for player in data["players"]:
        player.pop("reasons")
    return data


def test_the_settle_contract_is_the_same_in_every_language(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    english = settled(tmp_path, capsys)
    for code in ("hu", "pl", "ru"):
        assert settled(tmp_path, capsys, "--lang", code) == english
        assert main(["--lang", code, "settle", str(tmp_path / "round.json")]) == 0
        assert capsys.readouterr().out == english
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    assert settled(tmp_path, capsys) == english
    assert settled(tmp_path, capsys, "--explain") == settled(tmp_path, capsys, "--explain", "--lang", "en")


def test_explain_in_hungarian_says_the_reasons_in_hungarian_with_the_same_figures(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    english = json.loads(settled(tmp_path, capsys, "--explain"))
    hungarian = json.loads(settled(tmp_path, capsys, "--explain", "--lang", "hu"))
    assert without_reasons(hungarian) == without_reasons(english)
    ante = english["players"][0]["reasons"]["ante"]
    assert ante == "Ante: 5-card flush A-K-Q-J-9 beats the DP's 3-card flush A-8-3 — wins 500 (1 to 1)"
    said = hungarian["players"][0]["reasons"]["ante"]
    assert "flöss" in said and "A-K-Q-J-9" in said and "A-8-3" in said and "beats" not in said
    assert "1\N{NO-BREAK SPACE}000" in hungarian["players"][0]["reasons"]["raise"]  # thousands grouped with a space
    assert "3\N{NO-BREAK SPACE}500" in hungarian["banker"]["reason"]  # what the DP holds after the hand
