"""The pit map, the floor's first screen: each table's status, dealer, players, rounds of the last
hour and this shift's drop, win and hold. Figures worked out by hand from the steps each test
takes."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from dealer_tui.accounting.pit_map import IN_PLAY, OPEN, WAITING, pit_map
from dealer_tui.accounting.theoretical import Theory
from dealer_tui.games import GAMES
from dealer_tui.games.high_card_flush.steps import Ante
from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.cards import VirtualShoe
from dealer_tui.rounds.steps import Void
from dealer_tui.rounds.table import Table
from dealer_tui.staff import DEAL, TRAY
from tests.accounting_support import folded_round
from tests.hcf_support import PROFILE, sent_to_floor
from tests.staff_support import (
    DEALER,
    DEALER_PIN,
    SUPERVISOR,
    SUPERVISOR_PIN,
    casino_on_shift,
    floor_review,
    staffed,
    staffed_table,
    until,
)

SIZE = (120, 36)


def casino_c1(ledger: SqliteLedger) -> Table:
    """C1 (casino, the house banks): opener 20 x 1,000; Dee buys in 5,000 cash; one round where
    she antes 10 and folds (the house wins 10)."""
    _, casino = casino_on_shift(ledger, "C1", {"1000": 20}, seed=2)
    casino.seat_player(1, "Dee", 5000)
    folded_round(casino, {1: 10})
    return casino


def two_tables(path: Path) -> SqliteLedger:
    """C1 (casino, the house banks): opener 20 x 1,000; Dee buys in 5,000 cash; one round where
    she antes 10 and folds (the house wins 10). H1 (card room): the HCF example sent to the floor
    and waiting. T3: Eve and Fay seated, a round started and in play."""
    ledger = SqliteLedger(path)
    casino_c1(ledger)
    sent_to_floor(ledger)
    playing = staffed_table(ledger, "T3", PROFILE, VirtualShoe.seeded_with(3), seats=7)
    playing.seat_player(1, "Eve", 1000)
    playing.seat_player(2, "Fay", 1000)
    playing.start_round()
    return ledger


def test_each_table_shows_its_status_dealer_players_rounds_and_shift_money(tmp_path: Path) -> None:
    ledger = two_tables(tmp_path / "l.sqlite")
    glances = {g.name: g for g in pit_map(ledger, Theory(GAMES, None, hands=2_000), datetime.now(UTC))}
    c1, h1, t3 = glances["C1"], glances["H1"], glances["T3"]
    assert (c1.status, h1.status, t3.status) == (OPEN, WAITING, IN_PLAY)
    assert c1.dealer == "Dana Dealer (D1)" and (c1.players, h1.players, t3.players) == (1, 3, 2)
    assert (c1.rounds_last_hour, h1.rounds_last_hour) == (1, 1)
    # C1's shift, not counted yet: the drop is what the buy-in put in the box (5,000), the win the
    # rounds' result (+10), the hold 10 / 5,000 = 0.2 %
    assert (c1.shift, c1.drop, c1.drop_counted, c1.win) == (1, 5000, False, 10)
    assert c1.hold == 10 / 5000
    assert (h1.shift, h1.drop, h1.win, h1.hold) == (None, None, None, None)   # a card room keeping no tray
    assert c1.limits == "ante 5–500" and h1.limits.startswith("ante ")


async def test_the_floor_opens_on_the_pit_map_and_enter_shows_the_tables_rounds(tmp_path: Path) -> None:
    from textual.widgets import DataTable, Static

    from dealer_tui.screens.floor_map import PitMapScreen
    from dealer_tui.screens.floor_rounds import RoundsScreen

    two_tables(tmp_path / "l.sqlite").close()
    app = floor_review(tmp_path / "l.sqlite", first="map")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, PitMapScreen)
        await until(pilot, lambda: screen.glances)
        grid = screen.query_one(DataTable)
        rows = {str(grid.get_row_at(i)[0]): [str(c) for c in grid.get_row_at(i)] for i in range(grid.row_count)}
        assert rows["H1"][1] == WAITING and rows["C1"][1:8] == [OPEN, "10 rounds", "0.2%", "5,000 est.", "1", "1",
                                                              "Dana Dealer (D1)"]
        assert "NEEDS THE FLOOR: H1" in str(screen.query_one("#map-sum", Static).render())
        h1 = [g.name for g in screen.glances].index("H1")
        grid.move_cursor(row=h1)
        await pilot.press("enter")
        rounds = app.screen
        assert isinstance(rounds, RoundsScreen)
        assert rounds.query_.table_id == screen.glances[h1].id


def test_a_closed_table_shows_nobody_on_duty_or_seated(tmp_path: Path) -> None:
    """C1's tray: 20,000 opener − 5,000 sold to Dee + 10 won = 15,010, counted at the close. With
    its shift closed the map shows C1 closed, with no dealer on duty and no player seated; the
    shift's money stays (win +10)."""
    from dealer_tui.accounting.pit_map import CLOSED

    ledger = SqliteLedger(tmp_path / "l.sqlite")
    casino = casino_c1(ledger)
    crew = staffed(ledger)
    casino.money.close_shift({"1000": 15, "5": 2}, crew.sign_in(DEALER, DEALER_PIN, DEAL, casino),
                       crew.sign_in(SUPERVISOR, SUPERVISOR_PIN, TRAY, casino))
    (c1,) = pit_map(ledger, Theory(GAMES, None, hands=2_000), datetime.now(UTC))
    assert (c1.status, c1.dealer, c1.players) == (CLOSED, "", 0)
    assert c1.win == 10


def test_the_map_followed_look_by_look_reads_as_the_whole_ledger_read_at_once(tmp_path: Path) -> None:
    """The floor's map reads only what each table recorded since its last look. Looked at after
    every step of two shifts (a round, a fill, a void, a dealer taking over, a shift closing and the
    next opening), it shows what a map reading the whole ledger afresh shows, figure for figure, and
    its shifts are the shift report's."""
    from dealer_tui.accounting.pit_map import PitWatch
    from dealer_tui.accounting.shifts import shift_figures
    from dealer_tui.staff import VOID
    from tests.staff_support import SUPERVISOR2, SUPERVISOR2_PIN

    ledger = SqliteLedger(tmp_path / "l.sqlite")
    theory = Theory(GAMES, None, hands=2_000)
    watch = PitWatch(ledger, theory)
    now = datetime.now(UTC)
    crew, casino = casino_on_shift(ledger, "C1", {"1000": 20}, seed=2)

    def same() -> None:
        assert watch.glances(now) == pit_map(ledger, theory, now)
        followed = [s.to_dict() for w in watch.tables.values() for s in w.shifts.shifts]
        assert followed == [s.to_dict() for s in shift_figures(ledger, theory)]

    same()
    casino.seat_player(1, "Dee", 5000)
    casino.seat_player(2, "Eli", 3000)
    same()
    for antes in ({1: 10}, {1: 25, 2: 10}):
        folded_round(casino, antes)
        same()
    casino.start_round()
    casino.act(Ante(seat=1, amount=10))
    same()                                                              # a round in play
    casino.act(Void(reason="misdeal", **crew.approval(casino, VOID)))
    same()
    casino.money.fill("F-1", {"1000": 5}, crew.sign_in(DEALER, DEALER_PIN, DEAL, casino),
                crew.sign_in(SUPERVISOR, SUPERVISOR_PIN, TRAY, casino))
    casino.sign_in_dealer(crew.sign_in(SUPERVISOR2, SUPERVISOR2_PIN, DEAL, casino))   # S2 takes over
    same()
    folded_round(casino, {2: 50})
    same()
    tray = casino.tray.shifts[-1].expected
    assert tray is not None
    casino.money.close_shift({"5": tray // 5}, crew.sign_in(SUPERVISOR2, SUPERVISOR2_PIN, DEAL, casino),
                       crew.sign_in(SUPERVISOR, SUPERVISOR_PIN, TRAY, casino))
    same()
    casino.money.open_shift({"5": tray // 5}, crew.sign_in(SUPERVISOR2, SUPERVISOR2_PIN, DEAL, casino),
                      crew.sign_in(SUPERVISOR, SUPERVISOR_PIN, TRAY, casino))
    folded_round(casino, {1: 10})
    sent_to_floor(ledger, "H2")                                         # a second table, waiting
    same()
