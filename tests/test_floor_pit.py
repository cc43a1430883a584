"""The floor on a pit server, as a supervisor meets it: every terminal's rounds, the pit area
filter in the filters dialog (which a single table's floor does not offer) giving what plain SQL
gives, the dialog whole at 80x24 (it scrolls), and the line on the tables' links."""

from __future__ import annotations

from pathlib import Path

import psycopg
from textual.containers import VerticalScroll
from textual.widgets import Input, Static

from dealer_tui.events.staff import area_purpose
from dealer_tui.floor_app import FloorApp
from dealer_tui.games import GAMES
from dealer_tui.ledger.postgres import PgLedger, init_schema
from dealer_tui.pit.delivery import Delivery
from dealer_tui.screens.floor_filters import FilterModal
from dealer_tui.screens.floor_rounds import RoundsScreen
from dealer_tui.staff import FLOOR, MANAGE, Purpose, StaffDesk
from tests.pit_support import played
from tests.staff_support import until


def pit_floor(tmp_path: Path, pit_db: str, first: str = "rounds") -> FloorApp:
    init_schema(pit_db)
    for n in (1, 2):
        played(tmp_path / f"t{n}.sqlite", rounds=2 + n, name=f"Main {n}").close()
        Delivery(tmp_path / f"t{n}.sqlite", pit_db, f"T{n}").once()
    pit = PgLedger(pit_db)
    desk = StaffDesk(pit)
    desk.add_first_manager("PM", "Pat Pitboss", "424242424")
    by = desk.sign_in("PM", "424242424", Purpose(MANAGE, "staff"))
    desk.add("S7", "Sid Super", "supervisor", "717171717", by)
    main2 = next(t.id for t in pit.tables() if t.name == "Main 2")
    area_by = desk.sign_in("PM", "424242424", Purpose(MANAGE, area_purpose(main2, "Pit 2")))
    pit.set_area(main2, "Pit 2", area_by.account, area_by.sign_in)
    user = desk.sign_in("S7", "717171717", Purpose(FLOOR, "the pit's floor (test)"))
    return FloorApp(PgLedger(pit_db), GAMES, desk, user, first=first)


async def test_the_pits_floor_filters_by_area_as_plain_sql_does(tmp_path: Path, pit_db: str) -> None:
    app = pit_floor(tmp_path, pit_db)
    with psycopg.connect(pit_db) as db:
        everyone = db.execute("SELECT COUNT(*) FROM pit_rounds").fetchone()
        in_area = db.execute("SELECT COUNT(*) FROM pit_rounds r JOIN pit_tables t ON t.id = r.table_id"
                             " WHERE pit_area(t.id) = 'Pit 2'").fetchone()
    assert everyone == (7,) and in_area == (4,)                         # 3 + 4 rounds; Main 2's are in Pit 2
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RoundsScreen)
        assert len(screen.rows) == 7
        line = str(screen.query_one("#floor-filters", Static).render())
        assert "pit: 2 tables" in line and "no alarm" in line
        await pilot.press("slash")
        modal = app.screen
        assert isinstance(modal, FilterModal)
        modal.query_one("#filter-area", Input).value = "pit 2"            # any case
        await pilot.press("enter")
        await pilot.pause()
        assert len(screen.rows) == 4 and {screen.tables.name(r.table_id) for r in screen.rows} == {"Main 2"}


async def test_the_filters_dialog_scrolls_whole_at_80x24(tmp_path: Path, pit_db: str) -> None:
    app = pit_floor(tmp_path, pit_db)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("slash")
        await pilot.pause()
        modal = app.screen
        assert isinstance(modal, FilterModal)
        box = modal.query_one(VerticalScroll)
        assert box.region.bottom <= 24                                  # the dialog fits the screen
        box.scroll_end(animate=False)
        await pilot.pause()
        last = modal.query(".hint").last()
        assert last.region.bottom <= 24 and last.region.height > 0      # its last line reached by scrolling


async def test_the_pits_floor_opens_on_the_pit_map_with_each_tables_area_and_link(tmp_path: Path,
                                                                                 pit_db: str) -> None:
    """Main 1 (3 rounds) and Main 2 (4 rounds, in Pit 2), both delivered just now: open, their
    rounds of the last hour, Main 2's area; Esc goes to the rounds list."""
    from dealer_tui.screens.floor_map import PitMapScreen

    app = pit_floor(tmp_path, pit_db, first="map")
    async with app.run_test(size=(120, 36)) as pilot:
        screen = app.screen
        assert isinstance(screen, PitMapScreen)
        await until(pilot, lambda: screen.glances)
        shown = {g.name: (g.status, g.rounds_last_hour, g.area) for g in screen.glances}
        assert shown == {"Main 1": ("open", 3, ""), "Main 2": ("open", 4, "Pit 2")}
        await pilot.press("escape")
        assert isinstance(app.screen, RoundsScreen)
