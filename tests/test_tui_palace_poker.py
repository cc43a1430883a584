"""Palace Poker driven by key presses (Textual Pilot): whose step a key is, one meaning a key,
the prompt as the round offers, questions only where there is a choice, everyone's ante at once.

The shipped profile: limit, small bet 10, big bet 20, ante 5, at most 3 raises per battle. With
seed 1 and four players the draw makes seat 3 the dealer (turns 4, 1, 2, 3); the banners are
seat 1 5s, seat 2 Jh, seat 3 8c, seat 4 6d; the palaces seat 1 9s 8s Ad, seat 2 9d 9c 2h,
seat 3 7d Qs Ac, seat 4 Kd Ks 6s; the draw pile starts Td 6h Qd.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import Static

from dealer_tui.games.chinese_poker.screen import ChinesePokerScreen
from dealer_tui.games.high_card_flush.screen import HighCardFlushScreen
from dealer_tui.games.one_or_five.screen import OneOrFiveScreen
from dealer_tui.games.palace_poker.events import (
    AntePlaced,
    BattleAnswered,
    BattleDecided,
    SoldiersKept,
)
from dealer_tui.games.palace_poker.round import PalacePokerRound
from dealer_tui.games.palace_poker.screen import PalacePokerScreen
from dealer_tui.rounds.base import Phase
from dealer_tui.screens.card_pick_modal import CardPickModal
from dealer_tui.screens.round_screen import RoundScreen
from dealer_tui.widgets.notice import Notice
from rules.cards import parse_cards
from tests.tui_support import seated_app

SIZE = (120, 36)
FOUR = [(1, "Ann", 1000), (2, "Bob", 1000), (3, "Cy", 1000), (4, "Dee", 1000)]


def prompt(screen: RoundScreen[Any]) -> str:
    return str(screen.query_one("#prompt", Static).content)


def notice(screen: RoundScreen[Any]) -> str | None:
    return screen.query_one(Notice).message


def answers(rnd: PalacePokerRound) -> list[tuple[int, str, int]]:
    return [(e.seat, e.answer, e.paid) for e in rnd.events if isinstance(e, BattleAnswered)]


async def test_pp_battle_response_keys_act_for_the_seat_to_act(tmp_path: Path) -> None:
    app = seated_app(tmp_path, "palace-poker", FOUR, seats=10, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, PalacePokerScreen)
        await pilot.press("s", "d")
        rnd = screen.round
        assert rnd is not None and rnd.state.dealer == 3
        await pilot.press("a", "a", "a", "a", "d", "d")  # four antes, banners, palaces
        assert rnd.phase is Phase.ACT and rnd.state.turn == 4
        await pilot.press("w", "w", "a", "4")  # seats 4 and 1 stay; seat 2 attacks seat 4
        # seat 2 has no soldiers: the attack is (0 + 1) x 10 = 10
        assert answers(rnd) == [] and rnd.state.battle is not None and rnd.state.battle.to_act == 4
        await pilot.press("4", "r")  # seat 4 picked: call (0 + 1) x 10 = 10 + two small bets 20 = 30
        assert screen.selected is None and rnd.state.battle.to_act == 2   # seat 4 acted: let go
        await pilot.press("r")  # seat 2 re-raises: the raise 20 + 20 = 40
        await pilot.press("r")  # seat 4's third raise: 20 + 20 = 40
        assert answers(rnd) == [(4, "raise", 30), (2, "raise", 40), (4, "raise", 40)]
        assert notice(screen) is None
        # three raises made: seat 2 may fold or call the last raise of 20, and is told no more
        assert prompt(screen) == "Seat 2 answers seat 4's raise: f folds, c calls 20."
        assert {b.key for b in screen.active_keys()} >= {"f", "c"} and "r" not in {b.key for b in screen.active_keys()}
        await pilot.press("r")
        assert notice(screen) == "Seat 2 may not raise: at most 3 raises per battle (PP-11)"
        assert len(answers(rnd)) == 3
        await pilot.press("c")  # the call is seat 2's, the seat to act
        assert answers(rnd)[-1] == (2, "call", 20)
        # seat 2 ignoring diamonds: J♥ 9♣ 2♥, high card; seat 4 ignoring hearts: K♦ K♠ 6♦ 6♠, two
        # pair: seat 4 wins and takes the banner J♥, one soldier, so nothing is asked (PP-8)
        decided = next(e for e in rnd.events if isinstance(e, BattleDecided))
        assert (decided.winner, decided.loser) == (4, 2)
        assert not isinstance(app.screen, CardPickModal) and rnd.state.pending is None
        kept = rnd.events[-1]
        assert isinstance(kept, SoldiersKept) and kept.discarded == ()
        assert rnd.state.players[4].hand is not None and rnd.state.players[4].hand.soldiers == parse_cards("Jh")
        # pot: antes 4 x 5 = 20 + seat 2's 10 + 40 + 20 + seat 4's 30 + 40 = 160; seat 3 is next
        assert rnd.state.pot == 160 and rnd.state.turn == 3


async def test_pp_a_key_has_one_meaning_between_hands_and_in_a_battle(tmp_path: Path) -> None:
    app = seated_app(tmp_path, "palace-poker", FOUR, seats=10, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        between = {b.key: b.action for b in screen.active_keys()}
        assert between["P"] == "change_profile" and "c" not in between
        await pilot.press("c")  # c is Call, and no hand is in play
        assert notice(screen) == "no hand is in play: s starts one"
        await pilot.press("s", "d", "a", "a", "a", "a", "d", "d", "w", "w", "a", "4")
        keys = [b.key for b in screen.active_keys()]
        assert len(keys) == len(set(keys))
        assert {b.key: b.action for b in screen.active_keys()}["c"] == "call"


def test_table_keys_are_not_a_games_keys() -> None:
    """The keys every round screen has (new round, deal, ..., change profile) are taken by no game."""
    table = {b.key for b in RoundScreen.BINDINGS if hasattr(b, "key")}
    assert {"s", "d", "v", "p", "x", "P", "j", "m", "l", "F", "question_mark"} <= table and "c" not in table
    for screen in (HighCardFlushScreen, OneOrFiveScreen, ChinesePokerScreen, PalacePokerScreen):
        own = {b.key for b in screen.BINDINGS if hasattr(b, "key")}
        assert not own & table, (screen.__name__, own & table)


async def test_pp_buy_asks_what_to_keep_at_once(tmp_path: Path) -> None:
    app = seated_app(tmp_path, "palace-poker", FOUR, seats=10, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "d", "a", "a", "a", "a", "d", "d")
        rnd = app.table.round  # type: ignore[union-attr]
        assert isinstance(rnd, PalacePokerRound) and rnd.state.turn == 4
        await pilot.press("b")  # seat 4 pays 10 for the T♦; PP-3 lets it keep or throw it: asked at once
        assert isinstance(app.screen, CardPickModal)
        await pilot.press("enter")  # none marked: the soldier is kept
        assert not isinstance(app.screen, CardPickModal)
        kept = rnd.events[-1]
        assert isinstance(kept, SoldiersKept) and (kept.seat, kept.soldiers) == (4, parse_cards("Td"))
        assert rnd.state.turn == 1 and rnd.state.pot == 4 * 5 + 10


async def test_pp_all_ante(tmp_path: Path) -> None:
    app = seated_app(tmp_path, "palace-poker", FOUR, seats=10, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, PalacePokerScreen)
        await pilot.press("s", "d")
        rnd = screen.round
        assert rnd is not None and rnd.state.dealer == 3
        assert "ante_all" in {b.action for b in screen.active_keys()}
        await pilot.press("1", "a")  # seat 1 antes on its own
        await pilot.press("A")  # seat 1 still picked: the rest ante, clockwise from the dealer's left
        antes = [(e.seat, e.ante) for e in rnd.events if isinstance(e, AntePlaced)]
        assert antes == [(1, 5), (4, 5), (2, 5), (3, 5)]
        recorded = [e.payload["seat"] for e in app.ledger.round_events(app.table.round_id or 0)  # type: ignore[union-attr]
                    if e.kind == "ante_placed"]
        assert recorded == [1, 4, 2, 3] and rnd.state.pot == 20
        assert prompt(screen) == "Seat 3 deals. Antes: d deals the banners."
        assert "ante_all" not in {b.action for b in screen.active_keys()}
        await pilot.press("A")  # nobody is left to ante
        assert notice(screen) == "The table may not ante: every player has anted (seats 1, 2, 3 and 4)"
        assert len([e for e in rnd.events if isinstance(e, AntePlaced)]) == 4


def stacks(screen: RoundScreen[Any]) -> dict[int, tuple[str, int]]:
    return {s: (p.name, p.stack) for s, p in screen.table.session.players.items()}


async def test_pp_16_the_palaces_and_the_pots_winner_stay_hidden_until_v_shows_them_down(tmp_path: Path) -> None:
    app = seated_app(tmp_path, "palace-poker", [(1, "Ann", 1000), (2, "Bob", 1000), (4, "Dee", 1000)], seats=10,
                     seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "d", "A", "d", "d", "w", "w", "w")  # everyone stays: the hand is over
        screen = app.screen
        assert isinstance(screen, PalacePokerScreen) and screen.round is not None
        assert screen.round.phase is Phase.REVEAL
        seats = screen.presenter.seats(screen.round, stacks(screen))
        assert [[h for h in view.hands if h[0] == "Palace"] for view in seats] == [[("Palace", (), "▒▒ ▒▒ ▒▒")]] * 3
        assert all(view.hand == "" for view in seats)               # no hand named, no winner
        assert not any("wins the pot" in line for line in screen.presenter.banner(screen.round).lines)
        await pilot.press("v")                                      # shown down: the payout comes up with them
        seats = screen.presenter.seats(screen.round, stacks(screen))
        # seed 1: seat 2's K♦ 5♥ 3♣ with its banner K♣ is one pair of kings, the best hand (PP-16)
        assert seats[1].hand == "one pair K♦ K♣ 5♥ 3♣ — takes the pot"
        assert ("Palace", tuple(parse_cards("Kd 5h 3c")), "shown") in seats[1].hands
        assert any("seat 2 wins the pot of 15 with one pair" in line
                   for line in screen.presenter.banner(screen.round).lines)
