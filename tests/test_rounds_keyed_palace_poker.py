"""Palace Poker at a live table: banners keyed as dealt, each bought soldier, and the palace cards
only when a battle is called or at the showdown (docs/rules.md PP-0..PP-16; DESIGN.md "Card entry")."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_tui.audit import verify_ledger
from dealer_tui.events import typed_as
from dealer_tui.games import GAMES
from dealer_tui.games.palace_poker.events import BattleDecided, HandEnded, SoldiersKept
from dealer_tui.games.palace_poker.live_round import PalacePokerKeyedRound
from dealer_tui.games.palace_poker.steps import (
    Ante,
    Battle,
    Buy,
    Call,
    DealBanners,
    DealPalaces,
    Discard,
    DrawForDealer,
    Keep,
    Stay,
)
from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.base import Phase
from dealer_tui.rounds.cards import KeyedEntry
from dealer_tui.rounds.steps import ConfirmPayout, Reveal
from dealer_tui.rounds.table import Table
from rules.cards import parse_cards
from rules.errors import IllegalAction
from rules.profiles.loader import parse_profile
from tests.staff_support import approval, staffed_table

# small bet 10, big bet 30, limit, ante 5 (the rounds' own test profile)
LIMIT = parse_profile("game: palace-poker\ntitle: test\nbuy_in: {min: 1, max: 100000}\nsmall_bet: 10\n"
                      "big_bet: 30\nstructure: limit\nante: 5\nmax_raises: 3\nsign_off_threshold: 100000\n",
                      "test", "test-limit")


def keyed(**hands: str) -> dict[str, tuple]:
    return {label.replace("_", " "): parse_cards(text) for label, text in hands.items()}


def anted(tmp_path: Path) -> tuple[Table, PalacePokerKeyedRound]:
    table = staffed_table(SqliteLedger(tmp_path / "ledger.sqlite"), "Live P", LIMIT, KeyedEntry(), seats=10)
    for seat in (1, 2, 3):
        table.seat_player(seat, f"P{seat}", 1000)
    rnd = table.start_round()
    assert isinstance(rnd, PalacePokerKeyedRound)
    # PP-0: one card each, keyed: seat 3's 4c is the highest rank and deals
    table.act(DrawForDealer(cards=keyed(seat_1="2c", seat_2="3c", seat_3="4c")))
    assert rnd.state.dealer == 3
    for seat in (1, 2, 3):
        table.act(Ante(seat=seat))
    return table, rnd


def dealt(tmp_path: Path, banners: str) -> tuple[Table, PalacePokerKeyedRound]:
    table, rnd = anted(tmp_path)
    b1, b2, b3 = banners.split()
    table.act(DealBanners(cards=keyed(seat_1=b1, seat_2=b2, seat_3=b3)))
    table.act(DealPalaces())
    assert rnd.phase is Phase.ACT and all(not rnd.state.players[s].hand.seen for s in (1, 2, 3))  # type: ignore[union-attr]
    return table, rnd


def test_pp_1_keyed_banners_differ_in_suit_within_a_group(tmp_path: Path) -> None:
    table, rnd = anted(tmp_path)
    with pytest.raises(IllegalAction, match=r"seat 1's 7♠ and seat 2's K♠ are both spades in one group"):
        table.act(DealBanners(cards=keyed(seat_1="7s", seat_2="Ks", seat_3="Qd")))
    table.act(DealBanners(cards=keyed(seat_1="7s", seat_2="Kh", seat_3="Qd")))
    assert rnd.state.players[2].banner == parse_cards("Kh")[0] and rnd.phase is Phase.DEAL


def test_pp_9_a_called_battle_keys_both_palaces_and_compares_them(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path, "7s Kh Qd")
    table.act(Battle(seat=1, target=2))
    with pytest.raises(IllegalAction, match=r"key the cards first \(seat 1 palace 3, seat 2 palace 3\)"):
        table.act(Call(seat=2))
    with pytest.raises(IllegalAction, match=r"Kh is dealt twice"):   # seat 2's banner
        table.act(Call(seat=2, cards=keyed(seat_1_palace="Kh Ad 8c", seat_2_palace="Kd 9s 7c")))
    table.act(Call(seat=2, cards=keyed(seat_1_palace="Ah Ad 8c", seat_2_palace="Kd 9s 7c")))
    # Against seat 2's hearts seat 1's Ah does not play: 7s Ad 8c is ace high; seat 2, ignoring
    # spades, holds Kh Kd 7c, a pair of kings, and wins (PP-9)
    decided = typed_as(BattleDecided, rnd.events[-2])
    assert (decided.winner, decided.loser, decided.decided_by) == (2, 1, "hand")
    assert decided.shown == {"seat 1": parse_cards("7s Ah Ad 8c"), "seat 2": parse_cards("Kh Kd 9s 7c")}
    assert rnd.state.players[2].hand is not None and rnd.state.players[2].hand.seen   # the winner's palace stays shown
    assert isinstance(rnd.events[-1], SoldiersKept) and rnd.state.pending is None  # 7s: nothing to discard (PP-8)
    assert rnd.state.pot == 35  # antes 15 + attack (0 + 1) x 10 + call (0 + 1) x 10


def test_pp_3_a_bought_soldier_is_keyed_and_pp_16_the_showdown_keys_every_palace(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path, "As Kh Qd")
    table.act(Stay(seat=1))
    with pytest.raises(IllegalAction, match=r"As is dealt twice"):   # seat 1's banner
        table.act(Buy(seat=2, cards=keyed(seat_2="As")))
    table.act(Buy(seat=2, cards=keyed(seat_2="5h")))
    table.act(Keep(seat=2, discard=""))
    assert rnd.state.players[2].hand is not None and rnd.state.players[2].hand.soldiers == parse_cards("5h")
    for action in (Stay(seat=3), Stay(seat=1), Discard(seat=2, discard="5h")):
        table.act(action)
    assert rnd.phase is Phase.REVEAL   # stay, stay, discard: a quiet orbit (PP-16)
    request = next(s for s in rnd.legal_steps() if s.kind == "reveal").needs_cards
    assert request is not None and request.hands == (("seat 1 palace", 3), ("seat 2 palace", 3), ("seat 3 palace", 3))
    table.act(Reveal(cards=keyed(seat_1_palace="Ah 9d 7s", seat_2_palace="Kd Qs 8s",
                                           seat_3_palace="Js Th 8h")))
    outcome = rnd.outcome()
    # every own card plays at a showdown: seat 1's aces beat seat 2's kings; pot 15 + 10 + 10 = 35
    assert outcome is not None and outcome.stack_changes == {1: 35 - 5, 2: -25, 3: -5}
    shown = next(e for e in rnd.events if isinstance(e, HandEnded)).shown
    assert shown == {"1": parse_cards("As Ah 9d 7s"), "2": parse_cards("Kh Kd Qs 8s"), "3": parse_cards("Qd Js Th 8h")}
    table.act(ConfirmPayout(**approval(table)))
    assert table.session.chips_balance() == 0 and verify_ledger(table.ledger, GAMES) == []


def test_a_live_palace_hand_comes_back_after_a_restart(tmp_path: Path) -> None:
    table, _ = dealt(tmp_path, "7s Kh Qd")
    table.act(Battle(seat=1, target=2))
    again = Table.open(table.ledger, table.record, GAMES.find(table.profile.game), table.profile, KeyedEntry())
    rnd = again.round
    assert isinstance(rnd, PalacePokerKeyedRound) and rnd.state.battle is not None
    again.act(Call(seat=2, cards=keyed(seat_1_palace="Ah Ad 8c", seat_2_palace="Kd 9s 7c")))
    assert rnd.state.players[1].out == "lost a battle to seat 2"


def test_pp_12_a_card_seen_going_to_the_discard_pile_is_not_keyed_again_before_a_reshuffle(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path, "7s Kh Qd")
    table.act(Stay(seat=1))
    table.act(Buy(seat=2, cards=keyed(seat_2="5h")))
    table.act(Keep(seat=2, discard="5h"))           # the 5h goes to the discard pile
    table.act(Stay(seat=3))
    with pytest.raises(IllegalAction, match=r"5h is dealt twice"):
        table.act(Buy(seat=1, cards=keyed(seat_1="5h")))
    # 52 - 3 banners - 9 palace cards = 40 in the draw pile; one bought: 39 left, no reshuffle yet
    assert rnd.state.draw_left == 39 and rnd.turns.pool() == 40


def test_pp_9_a_palace_shown_in_a_lost_battle_is_not_keyed_again(tmp_path: Path) -> None:
    table, rnd = dealt(tmp_path, "7s Kh Qd")
    table.act(Battle(seat=1, target=2))
    table.act(Call(seat=2, cards=keyed(seat_1_palace="Ah Ad 8c", seat_2_palace="Kd 9s 7c")))
    # seat 1 is out: its palace is discarded; seat 2 keeps the 7s, nothing to discard (PP-8)
    table.act(Battle(seat=2, target=3))               # two suits left must battle (PP-15)
    with pytest.raises(IllegalAction, match=r"Ah is dealt twice"):   # seat 2's palace is shown: only seat 3's
        table.act(Call(seat=3, cards=keyed(seat_3_palace="Ah Qs 2c")))
    assert rnd.taken_cards()[parse_cards("Ad")[0]] == "the discard pile"
