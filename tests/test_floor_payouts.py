"""One payout, everywhere the floor looks: rounds played through the real table runner at five
tables (a DP paying a big winner, a DP taking the round, a house-banked round with pushes, a voided
round, a Chinese Poker round with a foul), every figure worked out by hand. The rounds list, the
big-payout filter, a round's story, the totals, `history list`, the sign-off threshold and the
schema upgrade all give the same payouts, and wagered + from stacks = paid + returned + house."""

from __future__ import annotations

import io
import json
import re
import sqlite3
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from rich.text import Text
from textual.widgets import DataTable, Static

from dealer_tui import floor_app
from dealer_tui.cli import main
from dealer_tui.floor_app import FloorApp
from dealer_tui.games.chinese_poker.steps import Lock, SetRows
from dealer_tui.games.high_card_flush.steps import Ante, Fold, Raise
from dealer_tui.games.one_or_five import steps as oof
from dealer_tui.ledger import NewEvent, SqliteLedger
from dealer_tui.ledger.base import ROUND_SETTLED, HourTotals, RoundUpdate, SettlementRow
from dealer_tui.ledger.schema import SCHEMA_VERSION
from dealer_tui.rounds.cards import ScriptedDeck
from dealer_tui.rounds.steps import ConfirmPayout, Deal, Reveal, SendToFloor, Void
from dealer_tui.rounds.table import Table
from dealer_tui.screens.floor_rounds import RoundsScreen
from dealer_tui.screens.floor_signoff import SignOffScreen
from dealer_tui.screens.floor_story import StoryScreen
from dealer_tui.screens.floor_totals import TotalsScreen, hour_bars
from dealer_tui.staff import VOID
from rules.cards import DECK, parse_cards
from rules.errors import IllegalAction
from rules.profiles.loader import ProfileLibrary, shipped_dir
from tests.floor_support import FixedClock, plain, rewind
from tests.staff_support import floor_review, staffed, staffed_table

SIZE = (170, 50)
CARD_ROOM = ProfileLibrary().find("high-card-flush")
ONE_OR_FIVE = ProfileLibrary().find("one-or-five")
CHINESE = ProfileLibrary().find("chinese-poker")
# High Card Flush, dealt seat 2, seat 3, then the DP (seat 1)
SEAT2 = "Ah Kh Qh Jh 9h 2c 3d"   # 5-card heart flush A-K-Q-J-9; straight flush A-K-Q-J (4 cards)
SEAT3 = "Kc 9c 4c 2s 5d 7h Jd"   # 3-card club flush K-9-4
DP = "As 8s 3s 6d Qd 4d 5c"      # 3-card spade flush A-8-3: qualifies (HCF-7), no straight flush
# "1 or 5", dealt box 1, box 2, the dealer: the dealer holds queen-high, no game
BOXES_AND_DEALER = "9s 9d 5c 4d 3s Kh Th 8c 6d 3c Qd Jc 7c 6s 2h"
# Chinese Poker, two players, the button on seat 1: dealt seat 2, seat 1, then the dead hands
CP_SEAT2 = "Jh Td 8c 9s 9d 7c 6s 3s Th Ts 7d 6d 2d"
CP_SEAT1 = "Ah Ad 2c Kh Ks Kd 3c 4d Qh Qs Qd Qc 5c"


def hcf_table(ledger: SqliteLedger, name: str, profile=CARD_ROOM) -> Table:  # type: ignore[no-untyped-def]
    table = staffed_table(ledger, name, profile, ScriptedDeck([parse_cards(f"{SEAT2} {SEAT3} {DP}")]), seats=7)
    for seat, player, stack in ((1, "Ann", 5000), (2, "Bob", 1000), (3, "Cy", 1000)):
        table.seat_player(seat, player, stack)
    return table


def hcf_dealt(table: Table) -> None:
    table.start_round()
    table.act(Ante(seat=2, amount=10, flush=5, straight_flush=5))
    table.act(Ante(seat=3, amount=10))
    table.act(Deal())


def big_winner(table: Table) -> None:
    """Seat 2 raises 20 and beats the DP: Ante 10 + 10, Raise 20 + 20, Flush bet 5 + 5 x 10 = 50 (5-card
    flush), Straight Flush bet 5 + 5 x 60 = 300 (4 cards, the DP has none): paid 20 + 40 + 55 + 305 = 420,
    a net win of 380. Seat 3 raises 10 and loses 10 + 10 to the DP's A-8-3. The DP pays 380 - 20 = 360."""
    hcf_dealt(table)
    table.act(Raise(seat=2, amount=20))
    table.act(Raise(seat=3, amount=10))
    table.act(Reveal())


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("floorpayouts")
    ledger = SqliteLedger(where / "l.sqlite", clock=FixedClock())
    big_winner(a := hcf_table(ledger, "Card room A"))
    a.act(ConfirmPayout())
    b = hcf_table(ledger, "Card room B")                 # seat 2 folds, seat 3 raises 10 and loses:
    hcf_dealt(b)                                         # the DP takes 10 + 5 + 5 + 10 + 10 = 40
    b.act(Fold(seat=2))
    b.act(Raise(seat=3, amount=10))
    b.act(Reveal())
    b.act(ConfirmPayout())
    r = staffed_table(ledger, "Russian", ONE_OR_FIVE, ScriptedDeck([parse_cards(BOXES_AND_DEALER)]), seats=6)
    r.seat_player(1, "Dee", 1000)
    r.seat_player(2, "Eve", 1000)
    r.start_round()
    r.act(oof.Ante(seat=1, amount=10))
    r.act(oof.Ante(seat=2, amount=10))
    r.act(oof.CutAndDeal(cut="player"))
    for action in (oof.Bet(seat=1), oof.Bet(seat=2), Reveal(), ConfirmPayout()):
        r.act(action)                                    # each box: Ante 10 + 10 paid, Bet 20 returned
    c = hcf_table(ledger, "Card room C")                 # a misdeal, voided with the supervisor's PIN
    hcf_dealt(c)
    c.act(Void(reason="shuffler red light", **staffed(ledger).approval(c, VOID)))
    cards = [card for hand in (CP_SEAT2, CP_SEAT1) for card in parse_cards(hand)]
    cp = staffed_table(ledger, "Chinese", CHINESE, ScriptedDeck([cards + [x for x in DECK if x not in cards]]), seats=4)
    cp.seat_player(1, "Flo", 100)
    cp.seat_player(2, "Gus", 100)
    cp.start_round()
    cp.act(Deal())
    cp.act(SetRows(seat=1, front="4d 3c 2c", middle="Kh Ks Kd Ah Ad", back="Qh Qs Qd Qc 5c"))
    cp.act(SetRows(seat=2, front="Th Ts 7d", middle="Jh Td 8c 6s 3s", back="9s 9d 7c 6d 2d"))
    cp.act(Lock(seat=1))
    cp.act(Lock(seat=2, confirm_foul=True))
    cp.act(Reveal())
    cp.act(ConfirmPayout())                     # the foul: 6 + seat 1's royalties 6 = 12 points x 5 = 60
    ledger.close()
    return where / "l.sqlite"


def review(path: Path) -> FloorApp:
    return floor_review(path)


def cells_by_table(screen: RoundsScreen) -> dict[str, tuple[str, ...]]:
    table = screen.query_one(DataTable)
    rows = [tuple(str(c) for c in table.get_row_at(i)) for i in range(table.row_count)]
    return {row[1]: row for row in rows}


async def test_the_rounds_list_shows_paid_returned_and_what_came_from_the_stacks(played: Path) -> None:
    app = review(played)
    async with app.run_test(size=SIZE):
        screen = app.screen
        assert isinstance(screen, RoundsScreen)
        rows = cells_by_table(screen)
    # columns: time, table, round, status, paid, house, wagered, flags, from stacks, returned, seats, ...
    def chips(name: str) -> tuple[str, ...]:
        """seats, wagered, from stacks, paid, returned, house, status"""
        row = rows[name]
        return row[10], row[6], row[8], row[4], row[9], row[5], row[3]
    # A: wagered 10 + 5 + 5 + 20 + 10 + 10 = 60, the DP pays 360: 60 + 360 = 420 paid + 0 returned + house 0
    assert chips("Card room A")[:6] == ("2", "60", "360", "420", "0", "+0")
    # B: wagered 40 = paid 40 (the DP's take) + returned 0 + house 0
    assert chips("Card room B")[:6] == ("2", "40", "0", "40", "0", "+0")
    # Russian: wagered 2 x (10 + 20) = 60 = paid 2 x 20 = 40 + returned 2 x 20 = 40 + house -20
    assert chips("Russian")[:6] == ("2", "60", "0", "40", "40", "-20")
    # the void returned seat 2's Ante 10, Flush 5, SF 5 and seat 3's Ante 10: 2 seats, 30 wagered and returned
    assert chips("Card room C") == ("2", "30", "0", "0", "30", "+0", "voided")
    # Chinese: seat 2 pays seat 1 60 from its stack: 0 + 60 = 60 paid
    assert chips("Chinese")[:6] == ("2", "0", "60", "60", "0", "+0")


async def test_the_big_payout_filter_compares_one_seats_payout(played: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # 400: only card room A's seat 2 is paid that much (420; no single bet of its won more than 300)
    monkeypatch.setattr(floor_app, "BIG_PAYOUT", 400)
    app = review(played)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, RoundsScreen)
        await pilot.press("b")
        assert list(cells_by_table(screen)) == ["Card room A"]
    # 40: also B's DP (40) and Chinese's seat 1 (60); not a "1 or 5" box (20 each)
    monkeypatch.setattr(floor_app, "BIG_PAYOUT", 40)
    app = review(played)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("b")
        assert isinstance(app.screen, RoundsScreen)
        assert sorted(cells_by_table(app.screen)) == ["Card room A", "Card room B", "Chinese"]


async def _story_of(played: Path, table_name: str) -> str:
    app = review(played)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, RoundsScreen)
        row = next(i for i, r in enumerate(screen.rows) if screen.tables.name(r.table_id) == table_name)
        screen.query_one(DataTable).move_cursor(row=row)
        await pilot.press("enter")
        story = app.screen
        assert isinstance(story, StoryScreen)
        return plain(story.query_one("#story-text", Static).content)


async def test_a_voided_rounds_story_shows_the_bets_returned_and_who_approved(played: Path) -> None:
    text = await _story_of(played, "Card room C")
    assert "voided at" in text and "shuffler red light" in text
    assert re.search(r"by Sam Super \(S1, supervisor\), signed in with their PIN at \d\d:\d\d:\d\d \(for “void \(test\)”\)",
                     text)
    assert re.search(r"│ 2 +│ Bob +│ Ante 10, Flush 5, SF 5 +│ +20 │", text)
    assert re.search(r"│ 3 +│ Cy +│ Ante 10 +│ +10 │", text)
    assert "wagered 30 = paid 0 + returned 30 + house +0" in text


async def test_a_chinese_poker_story_shows_each_seats_rows_and_the_foul(played: Path) -> None:
    text = await _story_of(played, "Chinese")
    assert "Rows as opened" in text
    # the rows as recorded: high card first, suits in s h d c order
    assert re.search(r"│ 1 +│ 4d 3c 2c +│ Ah Ad Ks Kh Kd +│ Qs Qh Qd Qc 5c +│ set, no foul", text)
    assert re.search(r"│ 2 +│ Ts Th 7d +│ Jh Td 8c 6s 3s +│ 9s 9d 7c 6d 2d +│ FOUL: middle high card does not beat"
                     r" front one pair", text)
    # seat 1 is paid 60: wagered 0 + from stacks 60 = paid 60 + returned 0 + house 0
    assert "wagered 0 + from stacks 60 = paid 60 + returned 0 + house +0" in text


async def test_a_dp_rounds_story_shows_each_seats_payout(played: Path) -> None:
    text = await _story_of(played, "Card room A")
    assert "wagered 60 + from stacks 360 = paid 420 + returned 0 + house +0" in text
    # per seat: wagered, from stack, paid, returned, net (= paid + returned - wagered - from stack)
    assert re.search(r"│ +1 │ +0 │ +360 │ +0 │ +0 │ +-360 │", text)      # the DP
    assert re.search(r"│ +2 │ +40 │ +0 │ +420 │ +0 │ +\+380 │", text)     # 420 - 40
    assert re.search(r"│ +3 │ +20 │ +0 │ +0 │ +0 │ +-20 │", text)


async def test_totals_keep_each_kind_apart_and_fill_the_all_row(played: Path) -> None:
    app = review(played)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t")
        totals = app.screen
        assert isinstance(totals, TotalsScreen)
        table = totals.query_one(DataTable)
        rows = [tuple(str(c) for c in table.get_row_at(i)) for i in range(table.row_count)]
        chart = totals.query_one("#totals-chart", Static).content
        summary = plain(totals.query_one("#totals-sum", Static).content)
    # table, result, % of handle, handle, rounds, banking, game, paid, returned, from stacks, rake/fees, biggest payout
    assert rows == [
        ("Russian", "-20", "-33.33%", "60", "1", "house-banked", "one-or-five", "40", "40", "0", "0", "20"),
        ("Card room A", "+0", "0.00%", "60", "1", "DP-banked", "high-card-flush", "420", "0", "360", "0", "420"),
        ("Card room B", "+0", "0.00%", "40", "1", "DP-banked", "high-card-flush", "40", "0", "0", "0", "40"),
        # the DP-banked tables together: 60 + 40 = 100 handle, 420 + 40 = 460 paid, 0 / 100
        ("all", "+0", "0.00%", "100", "2", "DP-banked", "", "460", "0", "360", "0", "420"),
        # Chinese Poker puts nothing in a pot: no % of handle
        ("Chinese", "+0", "—", "0", "1", "pot and peer", "chinese-poker", "60", "0", "60", "0", "60"),
        # every kind: 4 rounds, 60 + 100 + 0 = 160 handle, 360 + 60 = 420 from stacks, 40 + 460 + 60 = 560
        # paid, 40 returned, -20 result; no % blends the kinds; the biggest payout 420
        ("all", "-20", "by kind", "160", "4", "all", "", "560", "40", "420", "0", "420"),
    ]
    # 160 + 420 = 580 = 560 + 40 - 20
    assert "handle 160 + from stacks 420 = paid 560 + returned 40 + result -20  (580 = 580)" in summary
    assert isinstance(chart, Text)
    loss = next(line for line in chart.split() if "-20" in line.plain)
    left, right = loss.plain.split("│")
    assert left.rstrip().endswith("█" * 16) and "█" not in right      # the whole bar left of the axis
    assert {span.style for span in loss.spans if "█" in loss.plain[span.start:span.end]} == {"red"}


def test_hour_bars_draw_a_loss_below_the_axis_and_a_win_above() -> None:
    # the biggest hour (+40) fills 8 cells; -10 is a quarter of it: 2 cells, left of the axis
    hours = [HourTotals("2026-03-06T18", "house", 3, 200, 40), HourTotals("2026-03-06T19", "house", 2, 100, -10),
             HourTotals("2026-03-06T20", "house", 1, 0, 0)]
    lines = hour_bars(hours, width=8).plain.splitlines()
    assert lines == [
        "  2026-03-06 18h          │████████      +40   20.00%  3 rounds, handle 200",   # 40 / 200
        "  2026-03-06 19h        ██│              -10  -10.00%  2 rounds, handle 100",   # -10 / 100
        "  2026-03-06 20h          │               +0        —  1 round, handle 0",
    ]


def test_history_list_gives_the_same_payouts(played: Path) -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["history", "list", "--ledger", str(played), "--json"]) == 0
    by_table = {r["table"]: r for r in map(json.loads, out.getvalue().splitlines())}
    figures = {name: (r["wagered"], r["from_stacks"], r["paid"], r["returned"], r["house_result"], r["max_payout"])
               for name, r in by_table.items()}
    assert figures == {"Card room A": (60, 360, 420, 0, 0, 420), "Card room B": (40, 0, 40, 0, 0, 40),
                       "Russian": (60, 0, 40, 40, -20, 20),
                       "Card room C": (30, 0, 0, 30, 0, 0),   # the void handed back its 30 wagered
                       "Chinese": (0, 60, 60, 0, 0, 60)}
    assert {r["banking"] for r in by_table.values() if r["status"] == "settled"} == {"dp", "house", "pool"}


def test_sign_off_is_needed_when_a_seats_payout_reaches_the_threshold(tmp_path: Path) -> None:
    own = tmp_path / "profiles"
    own.mkdir()
    text = (shipped_dir() / "high-card-flush.yaml").read_text().replace("sign_off_threshold: 5000",
                                                                         "sign_off_threshold: 400")
    (own / "card-room-400.yaml").write_text(text)
    ledger = SqliteLedger(tmp_path / "l.sqlite")
    table = hcf_table(ledger, "Card room 400", ProfileLibrary([own]).find("card-room-400"))
    big_winner(table)
    assert table.round is not None
    # seat 2 is paid 420 >= 400 (its net win, 380, is below the threshold); the DP is paid nothing
    assert table.round.sign_off_needed() == [2]
    with pytest.raises(IllegalAction, match="a supervisor must sign off"):
        table.act(ConfirmPayout())
    table.act(SendToFloor())
    request = ledger.round_events(table.round_id or 0)[-1]
    assert request.kind == "sign_off_requested"
    assert (request.payload["payouts"], request.payload["paid"]) == ({"2": 420}, 420)


async def test_the_sign_off_queue_names_a_table_opened_after_the_floor_started(played: Path, tmp_path: Path) -> None:
    copy = tmp_path / "live.sqlite"
    src, dst = sqlite3.connect(played), sqlite3.connect(copy)
    src.backup(dst)
    src.close()
    dst.close()
    writer = SqliteLedger(copy)
    app = review(copy)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        queue = app.screen
        assert isinstance(queue, SignOffScreen)
        late = writer.create_table("High roller 9", "high-card-flush", "high-card-flush", "0" * 64, "shoe")
        rnd = writer.open_round(late.id, "high-card-flush", "high-card-flush", [NewEvent("round_started", {})])
        writer.append(late.id, rnd.id, [NewEvent("sign_off_requested", {"seats": [2], "payouts": {"2": 420},
                                                                         "paid": 420, "threshold": 400,
                                                                         "wagered": 100})])
        await pilot.press("r")
        row = [str(c) for c in queue.query_one(DataTable).get_row_at(0)]
    assert row[0] == "High roller 9"
    assert row[3:6] == ["seat 2 420", "—", "420"]          # a request that does not replay: no net to show


def test_the_upgrade_works_out_paid_again_with_the_dps_take(tmp_path: Path) -> None:
    path = tmp_path / "l.sqlite"
    ledger = SqliteLedger(path, clock=FixedClock())
    table = ledger.create_table("T", "high-card-flush", "high-card-flush", "0" * 64, "shoe")
    rnd = ledger.open_round(table.id, "high-card-flush", "high-card-flush", [NewEvent("round_started", {})])
    # HCF-9: seats 2 and 3 lose 10 + 10 and 10 to the DP, who pays 1 of rake: the DP is paid 29
    rows = [SettlementRow(2, "ante", 10, -10, ""), SettlementRow(2, "raise", 10, -10, ""),
            SettlementRow(3, "ante", 10, -10, ""), SettlementRow(1, "bank", 0, 30, ""), SettlementRow(1, "rake", 1, -1, "")]
    ledger.append(table.id, rnd.id, [NewEvent("payout_confirmed", {})],
                  RoundUpdate(status=ROUND_SETTLED, settlement=rows, totals=(3, 30, 0, 1)))
    ledger.close()
    rewind(path, 3)   # as schema 3 recorded it: paid 0 (no player bet won)
    db = sqlite3.connect(path)
    assert db.execute("SELECT paid FROM rounds").fetchall() == [(0,)]
    db.close()
    SqliteLedger(path, readonly=True).close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    # 30 wagered + 0 from stacks = 29 paid + 0 returned + 1 house
    assert db.execute("SELECT wagered, from_stacks, paid, returned, house_result, max_payout, banking FROM rounds"
                      ).fetchall() == [(30, 0, 29, 0, 1, 29, "dp")]
    assert db.execute("SELECT banking, rounds, wagered, from_stacks, paid, returned, house, biggest, fees"
                      " FROM hourly_totals").fetchall() == [("dp", 1, 30, 0, 29, 0, 1, 29, 1)]
    db.close()


async def test_an_open_rounds_story_hides_its_cards_until_the_round_ends(tmp_path: Path) -> None:
    """The floor may sit beside the table: a round in play shows what happened, never the cards
    dealt face down (the banker's hand before the reveal, a seat's hand)."""
    ledger = SqliteLedger(tmp_path / "l.sqlite", clock=FixedClock())
    hcf_dealt(hcf_table(ledger, "Open table"))
    ledger.close()
    db = sqlite3.connect(tmp_path / "l.sqlite")
    dealt = json.loads(db.execute("SELECT payload FROM events WHERE kind = 'cards_dealt'").fetchone()[0])["cards"]
    db.close()
    text = await _story_of(tmp_path / "l.sqlite", "Open table")
    assert "Events (cards hidden while the round is in play)" in text
    assert "hidden until the round ends" in text
    for hand in dealt.values():
        assert hand not in text and hand.split()[0] + " " + hand.split()[1] not in text
