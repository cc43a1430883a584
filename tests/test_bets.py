"""Each game declares its bets (kind, label, role) and everything that adds rows up by what they
are asks the roles: the banker's rows (HCF-8..HCF-17), the house's take (HCF-17, CP-12, R-4) and
the chips won from other seats (CP-13, PP-17)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.bets import banker_kinds, bet_label, bet_types, fee_kinds, pool_kinds
from rules.game import BetRole
from rules.games import GAMES
from tests.floor_support import live_table, sql_rows


def test_hcf_17_the_dps_bank_and_the_rake_are_the_bankers_rows_never_a_wager() -> None:
    assert banker_kinds() == {"bank", "rake"}


def test_hcf_17_cp_12_r_4_the_houses_take_is_the_rake_the_fee_and_the_exchange_fee() -> None:
    assert fee_kinds() == {"rake", "fee", "exchange"}


def test_cp_13_pp_17_points_and_a_pots_share_are_won_from_the_other_seats() -> None:
    assert pool_kinds() == {"points", "pot"}


def test_c_1_the_ante_three_games_share_is_one_wager_labelled_alike() -> None:
    declaring = [r.id for r in GAMES if any(b.kind == "ante" for b in r.bets)]
    assert declaring == ["high-card-flush", "one-or-five", "palace-poker"]
    assert (bet_types()["ante"].role, bet_label("ante")) == (BetRole.WAGER, "Ante")


def test_every_declared_bet_reads_as_a_capitalised_name_on_the_payout_and_the_story() -> None:
    """Palace Poker's buys, discards, battles and pot and Chinese Poker's points and house fee read
    as the other games' bets do ("Ante", "Exchange fee")."""
    assert [bet_label(k) for k in ("buy", "discard", "battle", "pot", "points", "fee")] == [
        "Buy", "Discard", "Battle", "Pot", "Points", "House fee"]
    assert all(b.label[:1].isupper() for b in bet_types().values())


def test_a_bet_no_game_declares_is_shown_as_recorded() -> None:
    assert bet_label("side_bet") == "side_bet"


@pytest.mark.slow
@pytest.mark.parametrize(("game", "profile", "seed"), [("high-card-flush", "high-card-flush", 3),
                                                       ("high-card-flush", "high-card-flush-casino", 3),
                                                       ("one-or-five", "one-or-five", 3),
                                                       ("chinese-poker", "chinese-poker", 3),
                                                       ("palace-poker", "palace-poker", 1)])
def test_every_settlement_row_a_game_writes_is_a_bet_it_declares(tmp_path: Path, game: str, profile: str,
                                                                 seed: int) -> None:
    path = tmp_path / "l.sqlite"
    live_table(path, game, 12, seed, profile)
    written = {str(bet) for (bet,) in sql_rows(path, "SELECT DISTINCT bet FROM settlements")}
    declared = {b.kind for r in GAMES if r.id == game for b in r.bets}
    assert written and written <= declared, written - declared
