"""A seated player sits out (keeping the seat and the chips) and comes back: no round deals them in
meanwhile, in any game; the step is taken between hands only, once; a record that deals in a seat
whose player sits out is named by verify."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_tui.events.table import RoundStarted
from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.cards import VirtualShoe
from dealer_tui.rounds.session import TableSession
from dealer_tui.rounds.table import Table
from rules.errors import IllegalAction
from rules.profiles.loader import ProfileLibrary
from tests.insider_support import fails
from tests.staff_support import staffed_table

BUY_IN = {"chinese-poker": 100}
"""A buy-in each profile takes (Chinese Poker's is at most 100 at once)."""


def table_of(tmp_path: Path, profile: str, seats: int = 6) -> Table:
    ledger = SqliteLedger(tmp_path / "l.sqlite")
    return staffed_table(ledger, "T1", ProfileLibrary().find(profile), VirtualShoe.seeded_with(3), seats=seats)


def dealt_in(table: Table) -> list[int]:
    """The seats the last round's start dealt in."""
    started = table.ledger.table_events(table.record.id, [RoundStarted.KIND])[-1]
    setup = started.payload["setup"]
    assert isinstance(setup, dict)
    return sorted(int(seat) for seat in setup["players"])


@pytest.mark.parametrize("profile", ["high-card-flush-casino", "one-or-five", "palace-poker", "chinese-poker"])
def test_a_player_sitting_out_is_dealt_into_no_round(tmp_path: Path, profile: str) -> None:
    table = table_of(tmp_path, profile)
    for seat, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")):
        table.seat_player(seat, name, BUY_IN.get(profile, 1000))
    table.sit_out(2)
    table.start_round()
    assert dealt_in(table) == [1, 3]
    assert table.session.players[2].stack == BUY_IN.get(profile, 1000)   # the seat and the chips are kept


def test_a_player_who_comes_back_is_dealt_in_from_the_next_round(tmp_path: Path) -> None:
    table = table_of(tmp_path, "one-or-five")
    table.seat_player(1, "Ann", 1000)
    table.seat_player(2, "Bob", 1000)
    table.sit_out(2)
    table.sit_out(2, away=False)
    table.start_round()
    assert dealt_in(table) == [1, 2]


def test_sitting_out_is_refused_during_a_hand(tmp_path: Path) -> None:
    table = table_of(tmp_path, "one-or-five")
    table.seat_player(1, "Ann", 1000)
    table.seat_player(2, "Bob", 1000)
    table.start_round()
    with pytest.raises(IllegalAction, match="No one may sit out during a hand"):
        table.sit_out(2)
    assert not table.session.players[2].away             # nothing recorded: the hand goes on with Bob


def test_sitting_out_twice_or_coming_back_unseated_is_refused(tmp_path: Path) -> None:
    table = table_of(tmp_path, "one-or-five")
    table.seat_player(1, "Ann", 1000)
    table.sit_out(1)
    with pytest.raises(IllegalAction, match=r"Seat 1 \(Ann\) is already sitting out"):
        table.sit_out(1)
    table.sit_out(1, away=False)
    with pytest.raises(IllegalAction, match=r"Seat 1 \(Ann\) is not sitting out"):
        table.sit_out(1, away=False)
    with pytest.raises(IllegalAction, match="Seat 4 is empty"):
        table.sit_out(4)


@pytest.mark.parametrize("profile", ["one-or-five", "high-card-flush-casino"])
def test_a_round_with_every_player_sitting_out_is_refused_with_the_reason(tmp_path: Path, profile: str) -> None:
    table = table_of(tmp_path, profile)
    table.seat_player(1, "Ann", 1000)
    table.sit_out(1)
    with pytest.raises(IllegalAction, match="every seated player is sitting out"):
        table.start_round()


def test_chinese_poker_counts_only_the_players_in_play(tmp_path: Path) -> None:
    # CP needs 2 to 4 players: Ann and Bob seated, Bob away, one player in play
    table = table_of(tmp_path, "chinese-poker", seats=4)
    table.seat_player(1, "Ann", 100)
    table.seat_player(2, "Bob", 100)
    table.sit_out(2)
    with pytest.raises(IllegalAction, match=r"the table has 1 \(1 sitting out\)"):
        table.start_round()


def test_palace_poker_says_how_many_play_and_sit_out(tmp_path: Path) -> None:
    table = table_of(tmp_path, "palace-poker")
    table.seat_player(1, "Ann", 1000)
    table.seat_player(2, "Bob", 1000)
    table.sit_out(1)
    with pytest.raises(IllegalAction, match="Palace Poker needs 2 players, 1 playing, 1 sitting out"):
        table.start_round()


def test_hcf_18_a_player_sitting_out_is_not_offered_the_bank(tmp_path: Path) -> None:
    # the card room's High Card Flush: the DP needs 1000 (dp_min_bank); seat 1 would bank first
    # (HCF-18) but sits out, so the bank goes clockwise to seat 2
    table = table_of(tmp_path, "high-card-flush", seats=7)
    for seat, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")):
        table.seat_player(seat, name, 2000)
    table.sit_out(1)
    rnd = table.start_round()
    assert rnd.banker == 2                                # type: ignore[attr-defined]
    assert dealt_in(table) == [3]


def test_verify_names_a_round_that_deals_in_a_seat_sitting_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A terminal that deals a seat in while its player sits out (here one whose session forgets
    who is away) leaves a chain verify names."""
    table = table_of(tmp_path, "one-or-five")
    table.seat_player(1, "Ann", 1000)
    table.seat_player(2, "Bob", 1000)
    table.sit_out(2)
    monkeypatch.setattr(TableSession, "playing", property(lambda self: dict(sorted(self.players.items()))))
    table.start_round()
    monkeypatch.undo()
    table.close()
    table.ledger.close()
    capsys.readouterr()
    fails(tmp_path / "l.sqlite", capsys, "seat 2 (Bob) is dealt in while its player sits out")


def test_hcf_18_a_dps_round_needs_a_player_in_play_besides_the_dp(tmp_path: Path) -> None:
    # the card room's High Card Flush: Ann and Bob hold the minimum bank; Bob sits out, so Ann would
    # bank against nobody
    table = table_of(tmp_path, "high-card-flush", seats=7)
    table.seat_player(1, "Ann", 2000)
    table.seat_player(2, "Bob", 2000)
    table.sit_out(2)
    with pytest.raises(IllegalAction, match=r"a Designated Player's round needs a player besides the DP: "
                                            r"1 playing, 1 sitting out \(HCF-18\)"):
        table.start_round()
