"""One snapshot per change: a key press works out the round's legal actions once per event it
records, however many parts of the screen (key bar, checks, prompts, panels) ask for them; and
it proposes its step once: the table's own check is the one that refuses or records it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from dealer_tui.events import Event
from dealer_tui.games.high_card_flush.round import HighCardFlushRound
from dealer_tui.games.palace_poker.round import PalacePokerRound
from dealer_tui.rounds.base import Phase, Round, Step
from dealer_tui.screens.round_screen import RoundScreen
from tests.tui_support import seated_app

SIZE = (120, 36)


async def test_a_whole_round_works_out_legal_actions_once_per_recorded_event(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    worked: list[int] = []
    original = HighCardFlushRound._legal_steps

    def counted(self: HighCardFlushRound) -> list:  # type: ignore[type-arg]
        worked.append(len(self.events))
        return original(self)

    monkeypatch.setattr(HighCardFlushRound, "_legal_steps", counted)
    app = seated_app(tmp_path, "high-card-flush", [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cy", 5000)])
    async with app.run_test(size=SIZE) as pilot:
        # the bank accepted (the round starts), two antes, the deal, a raise, a fold, the reveal,
        # the payout confirmed: 8 events
        await pilot.press("s", "y", "2", "a", "enter", "3", "a", "2", "0", "enter", "d", "r", "enter", "f",
                          "v", "enter")
        rnd = app.table.round  # type: ignore[union-attr]
        assert isinstance(rnd, HighCardFlushRound) and rnd.phase is Phase.DONE
        recorded = len(rnd.events)
    assert recorded == 8
    assert len(worked) == len(set(worked)), f"legal actions worked out again for the same state: {worked}"
    assert len(worked) <= recorded + 1


def count_proposals(monkeypatch: pytest.MonkeyPatch, game: type[Round] = Round) -> list[int]:
    """Every `propose` of the game's rounds (a game with its own, Palace Poker's) from here on,
    counted into a one-item list."""
    proposed = [0]
    original = game.propose

    def counted(self: Round, action: Step) -> list[Event]:
        proposed[0] += 1
        return original(self, action)

    monkeypatch.setattr(game, "propose", counted)
    return proposed


async def proposals_per_key(pilot: Pilot[Any], proposed: list[int], keys: list[tuple[str, int]]) -> None:
    """Press each key in turn; each proposes as many times as it says. Cards (`kd`, `5c 6d`) are
    typed as the dealer types them, and propose together as the one key."""
    got = []
    for key, _ in keys:
        before = proposed[0]
        typed = [key] if len(key) == 1 or key == "enter" else ["space" if ch == " " else ch for ch in key]
        await pilot.press(*typed)
        await pilot.pause()
        got.append((key, proposed[0] - before))
    assert got == keys


async def test_hcf_each_key_proposes_its_step_once_and_the_table_records_it(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    proposed = count_proposals(monkeypatch)
    app = seated_app(tmp_path, "high-card-flush", [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cy", 5000)])
    async with app.run_test(size=SIZE) as pilot:
        await proposals_per_key(pilot, proposed, [
            ("s", 0), ("y", 0),                  # the bank offered and taken: the round starts, nothing proposed
            ("2", 0), ("a", 0), ("enter", 1),    # the ante dialog's Enter: the table takes the ante, checked once
            ("3", 0), ("a", 0), ("2", 0), ("0", 0), ("enter", 1),
            ("d", 1),                            # the deal
            ("v", 1),                            # not now: the round is asked once why (the notice line)
            ("r", 0), ("enter", 1),              # seat 2 raises
            ("f", 1),                            # seat 3 folds (no bonus bet to confirm)
            ("v", 1),                            # the reveal
            ("p", 0), ("enter", 1),              # the payout shown, then confirmed
        ])
        rnd = app.table.round  # type: ignore[union-attr]
        assert rnd is not None and rnd.phase is Phase.DONE and len(rnd.events) == 8


async def test_one_or_five_each_key_proposes_its_step_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    proposed = count_proposals(monkeypatch)
    app = seated_app(tmp_path, "one-or-five", [(1, "Ann", 1000), (2, "Bob", 1000)], seats=6)
    async with app.run_test(size=SIZE) as pilot:
        await proposals_per_key(pilot, proposed, [
            ("s", 0),                            # the round starts
            ("1", 0), ("a", 0), ("enter", 1),    # an ante on box 1
            ("2", 0), ("a", 0), ("enter", 1),    # and on box 2
            ("d", 0), ("p", 1),                  # who cuts (a question), then the cut and deal
            ("e", 0), ("1", 0), ("enter", 1),    # box 1 exchanges its first card
            ("b", 1), ("f", 1),                  # box 1 closes, box 2 passes
            ("v", 1), ("p", 0), ("enter", 1),    # the reveal, the payout confirmed
        ])
        rnd = app.table.round  # type: ignore[union-attr]
        assert rnd is not None and rnd.phase is Phase.DONE


async def test_one_or_five_live_keyed_steps_are_checked_once_each(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """At a live table the cards are keyed in a dialog: its Enter hands the step, cards and all, to
    the table (one proposal); a card the round refuses keeps the dialog open, nothing recorded."""
    proposed = count_proposals(monkeypatch)
    app = seated_app(tmp_path, "one-or-five", [(1, "Ann", 1000), (2, "Bob", 1000)], seats=6, keyed=True)
    async with app.run_test(size=SIZE) as pilot:
        await proposals_per_key(pilot, proposed, [
            ("s", 0), ("1", 0), ("a", 0), ("enter", 1), ("2", 0), ("a", 0), ("enter", 1),
            ("d", 0), ("d", 0),                  # the dealer cuts: the up card is keyed
            ("kd", 0), ("enter", 1),             # the deal, with the keyed up card
            ("e", 0), ("1", 0),                  # box 1 exchanges one card: the card drawn is keyed
            ("9c", 0), ("enter", 1),
            ("b", 1), ("b", 1),                  # both boxes close
            ("2", 0), ("i", 0),                  # seat 2 insures box 2: its hand is keyed ...
            ("5c 6d 7h 8s 9d", 0), ("enter", 1),  # ... and the round judges it insurable
            ("enter", 1),                        # the premium: the insurance, with the keyed hand
            ("v", 0), ("ks 4c 3d 2s", 0), ("enter", 0),  # the dealer's hole cards; Enter: the next line
            ("9c 9h 9s qh 2d", 0), ("enter", 1),  # box 1's hand: the reveal
            ("p", 0), ("enter", 1),
        ])
        rnd = app.table.round  # type: ignore[union-attr]
        assert rnd is not None and rnd.phase is Phase.DONE
        assert app.table.session.stacks() == {1: 1030, 2: 1040}  # type: ignore[union-attr]


async def test_every_keys_check_and_the_key_bar_share_one_reading_of_the_legal_actions(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    asked = [0]
    original = Round.legal_steps

    def counted(self: Round) -> list:  # type: ignore[type-arg]
        asked[0] += 1
        return original(self)

    app = seated_app(tmp_path, "one-or-five", [(1, "Ann", 1000), (2, "Bob", 1000)], seats=6)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "1", "a", "enter")
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        monkeypatch.setattr(Round, "legal_steps", counted)
        screen._legal_now = None  # as after a change: the next look reads the round again
        for _ in range(3):
            screen.active_keys()  # every key the screen binds, checked
        assert asked[0] == 1
        assert {b.action for b in screen.active_keys()} >= {"ante", "withdraw", "deal", "void"}


def no_limit_palace(tmp_path: Path) -> Path:
    """The shipped Palace Poker profile played with no limit: the attack and the raise are amounts
    the dialog asks for."""
    own = tmp_path / "profiles"
    own.mkdir()
    shipped = (Path(__file__).parents[1] / "paytables" / "palace-poker.yaml").read_text()
    (own / "palace-no-limit.yaml").write_text(shipped.replace("structure: limit", "structure: no_limit"))
    return own


async def test_palace_each_key_proposes_its_step_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 1, four players: seat 3 deals, turns 4, 1, 2, 3 (as in tests/test_tui_palace_poker.py)."""
    proposed = count_proposals(monkeypatch, PalacePokerRound)
    players = [(1, "Ann", 1000), (2, "Bob", 1000), (3, "Cy", 1000), (4, "Dee", 1000)]
    app = seated_app(tmp_path, "palace-no-limit", players, seats=10, seed=1, profiles=no_limit_palace(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await proposals_per_key(pilot, proposed, [
            ("s", 0),                            # the hand starts
            ("d", 1),                            # the draw for the deal (PP-0)
            ("a", 1), ("a", 1), ("a", 1), ("a", 1),  # four antes, each the one amount it can be
            ("d", 1), ("d", 1),                  # the banners, the palaces
            ("w", 1), ("w", 1),                  # seats 4 and 1 stay
            ("a", 0), ("4", 0), ("enter", 1),    # seat 2 attacks: which seat, then the dialog's Enter
            ("r", 0), ("enter", 1),              # seat 4 raises: the dialog's Enter
            ("c", 1),                            # seat 2 calls and loses; seat 4 keeps the banner, nothing asked
            ("w", 1), ("w", 1), ("w", 1),        # seats 3, 4 and 1 stay: a quiet orbit, the showdown (PP-16)
            ("w", 1),                            # not now: the round is asked once why (the notice line)
            ("v", 1), ("p", 0), ("enter", 1),    # the showdown shown, the payout confirmed
        ])
        rnd = app.table.round  # type: ignore[union-attr]
        assert rnd is not None and rnd.phase is Phase.DONE
