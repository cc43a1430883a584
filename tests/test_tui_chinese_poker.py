"""Chinese Poker at the terminal by keys: a natural declared on the 13 cards without setting the
rows (docs/rules.md CP-9, revision 2), and the payout on the nets (CP-13) as `settle` makes it."""

from __future__ import annotations

from pathlib import Path

from dealer_tui.games.chinese_poker.events import NaturalDeclared
from dealer_tui.games.chinese_poker.round import ChinesePokerRound
from dealer_tui.rounds.base import Phase
from rules.games.chinese_poker.naturals import is_flush_row
from rules.profiles.loader import ProfileLibrary
from rules.settle import settle_round
from tests.tui_support import seated_app

SIZE = (120, 36)


async def test_cp_9_n_declares_a_natural_without_the_rows_set_and_shows_rows_that_display_it(
        tmp_path: Path) -> None:
    # Seed 48: seat 2's 13 cards hold three flushes (checked below); its rows are not set.
    app = seated_app(tmp_path, "chinese-poker", [(1, "Ann", 100), (2, "Bob", 100), (3, "Cy", 100)], seats=4,
                     seed=48)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "d")
        rnd = app.table.round  # type: ignore[union-attr]
        assert isinstance(rnd, ChinesePokerRound) and rnd.phase is Phase.ACT
        assert rnd.seats[2].rows is None and rnd.row_status(2).natural_held == "three flushes"
        await pilot.press("2", "n")                 # no rows set first
        seat2 = rnd.seats[2]
        assert seat2.natural is not None and seat2.natural.value == "three flushes"
        assert seat2.rows is not None and all(is_flush_row(row) for row in seat2.rows.rows)
        assert isinstance(rnd.events[-1], NaturalDeclared)
        for keys in (("2", "k"), ("1", "g", "k"), ("3", "g", "k")):
            await pilot.press(*keys)
        await pilot.press("v", "enter")
        assert rnd.phase is Phase.DONE
        request = {"game": "chinese-poker", "button": rnd.button, "players": [
            {"seat": s, "stack": p.stack, "natural": p.natural is not None,
             **{name: " ".join(c.text for c in row)
                for name, row in zip(("front", "middle", "back"), p.rows.rows, strict=True)}}  # type: ignore[union-attr]
            for s, p in sorted(rnd.seats.items())]}
        expected = {p["seat"]: p["net"] for p in settle_round(request, ProfileLibrary())["players"]}
        assert app.table.session.stacks() == {s: 100 + expected[s] for s in (1, 2, 3)}  # type: ignore[union-attr]


async def test_o_with_a_seat_picked_unlocks_that_seat_or_says_why_it_may_not(tmp_path: Path) -> None:
    """Seat 2's rows are set and locked; seat 3 is picked, its rows not set: `o` does not unlock
    seat 2's rows in its place, it says why seat 3 may not, and seat 2 stays locked."""
    from dealer_tui.widgets.notice import Notice

    app = seated_app(tmp_path, "chinese-poker", [(1, "Ann", 100), (2, "Bob", 100), (3, "Cy", 100)], seats=4, seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "d", "2", "g", "k")
        rnd = app.table.round  # type: ignore[union-attr]
        assert isinstance(rnd, ChinesePokerRound) and rnd.seats[2].locked
        await pilot.press("3", "o")
        assert rnd.seats[2].locked and not rnd.seats[3].locked
        said = app.screen.query_one(Notice).message
        assert said is not None and said.startswith("Seat 3")


async def test_g_and_k_without_a_pick_set_and_lock_each_seat_in_turn(tmp_path: Path) -> None:
    """No seat picked: `g` takes the suggestion for the first seat still setting and `k` locks
    it; the next `g` moves on to the next seat. Three times, and all three set their rows (CP-2)."""
    app = seated_app(tmp_path, "chinese-poker", [(1, "Ann", 100), (2, "Bob", 100), (3, "Cy", 100)], seats=4, seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "d", "g", "k", "g", "k", "g", "k")
        rnd = app.table.round  # type: ignore[union-attr]
        assert isinstance(rnd, ChinesePokerRound)
        assert [rnd.seats[s].locked for s in (1, 2, 3)] == [True, True, True]
        await pilot.press("v", "enter")
        assert rnd.phase is Phase.DONE
