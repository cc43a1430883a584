"""Theoretical win per bet type: each stake times the house edge of its bet type (the Ante's
counting the Raise, the Bet and the exchange fee the strategy makes on it; each bonus bet's and
the insurance's own), worked by hand for given edges; the edges' cache read back, and a cache
that does not read as edges simulated again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dealer_tui.accounting import theoretical
from dealer_tui.accounting.ratings import rating_sessions
from dealer_tui.accounting.theoretical import Edge, Theory
from dealer_tui.games import GAMES
from dealer_tui.games.high_card_flush.steps import Ante, Raise
from dealer_tui.games.one_or_five.round import BET_NAMES as ONE_OR_FIVE_BETS
from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.cards import VirtualShoe
from dealer_tui.rounds.steps import ConfirmPayout, Deal, Reveal
from rules.games.high_card_flush.settlement import BET_NAMES as HCF_BETS
from rules.profiles.loader import LoadedProfile, ProfileLibrary
from rules.simulate import simulator
from tests.staff_support import staffed_table

HCF_EDGES = Edge(0.05, 1.0, "test", 0, 0, bets={"ante": 0.03, "raise": None, "flush": 0.08, "straight_flush": 0.13})
"""Given edges: 3% per Ante (the Raise in it), 8% on the Flush bet, 13% on the Straight Flush bet;
5% hold on handle for any other bet."""


class GivenEdges(Theory):
    def __init__(self) -> None:
        super().__init__(GAMES, None)

    def edge(self, loaded: LoadedProfile) -> Edge | None:
        return HCF_EDGES if loaded.profile.house_banked() else None


def test_each_bet_type_takes_its_own_edge() -> None:
    # Ante 10 × 3% = 0.30; Raise 20: in the Ante's edge, 0; Flush 5 × 8% = 0.40; Straight Flush 5
    # × 13% = 0.65: 1.35 in all (the hold on handle would give 40 × 5% = 2.00)
    assert HCF_EDGES.theoretical({"ante": 10, "raise": 20, "flush": 5, "straight_flush": 5}) == pytest.approx(1.35)


def test_a_bet_type_the_simulator_does_not_rate_takes_the_hold_on_handle() -> None:
    # a side bet of 10 the edges do not name: 10 × 5%; a rake is no wager
    assert HCF_EDGES.theoretical({"ante": 10, "side": 10, "rake": 5}) == pytest.approx(0.30 + 0.50)


def test_every_settlement_bet_of_the_house_banked_games_is_rated() -> None:
    """No bet a round settles falls to the hold on handle: the High Card Flush Raise and the "1 or
    5" Bet and exchange fee are the strategy's, in the Ante's edge."""
    hcf = simulator("high-card-flush").rated
    assert set(hcf) == set(HCF_BETS)
    assert (hcf["ante"], hcf["raise"]) == ("ante_raise", None)
    five = simulator("one-or-five").rated
    assert set(five) == set(ONE_OR_FIVE_BETS)
    assert (five["ante"], five["bet"], five["exchange"], five["insurance"]) == ("ante_bet", None, None, "insurance")


def test_a_rating_takes_each_stake_at_its_bet_types_edge(tmp_path: Path) -> None:
    """Ann antes 10 with a Flush bet of 5 and a Straight Flush bet of 5 and raises 10 (1×, HCF-6):
    wagered 30; theoretical 10 × 3% + 5 × 8% + 5 × 13% = 1.35."""
    ledger = SqliteLedger(tmp_path / "l.sqlite")
    table = staffed_table(ledger, "T1", ProfileLibrary().find("high-card-flush-casino"), VirtualShoe.seeded_with(1),
                          seats=6)
    table.seat_player(1, "Ann", 1000, card="LC-1")
    table.start_round()
    table.act(Ante(seat=1, amount=10, flush=5, straight_flush=5))
    table.act(Deal())
    table.act(Raise(seat=1, amount=10))
    table.act(Reveal())
    table.act(ConfirmPayout())
    [ann] = rating_sessions(ledger, GivenEdges())
    assert (ann.hands, ann.wagered) == (1, 30)
    assert ann.theoretical_win == pytest.approx(1.35)
    assert ann.actual_win == -ann.player_result


def test_the_edges_are_cached_and_read_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "edges.json"
    loaded = ProfileLibrary().find("high-card-flush-casino")
    first = Theory(GAMES, cache, hands=2_000).edge(loaded)
    assert first is not None and first.bets["raise"] is None and set(first.bets) == set(HCF_BETS)

    def no_simulation(*args: object, **kwargs: object) -> None:
        raise AssertionError("simulated again")

    monkeypatch.setattr(theoretical, "simulate", no_simulation)
    again = Theory(GAMES, cache, hands=2_000).edge(loaded)
    assert again == first


@pytest.mark.parametrize("entry", [
    {"edge": 0.05, "spread": 1.0, "strategy": "mousseau"},                            # no edges per bet type
    {"edge": 0.05, "spread": 1.0, "strategy": "mousseau", "bets": {"ante": 7.5}},     # no edge a game gives
    {"edge": 0.05, "spread": 1.0, "strategy": "mousseau", "bets": {"ante": "lots"}},
    {"edge": 0.05, "spread": 1.0, "strategy": "mousseau", "bets": ["ante"]},
    "not an entry",
])
def test_a_cache_entry_that_does_not_read_as_edges_is_simulated_again(tmp_path: Path, entry: object) -> None:
    cache = tmp_path / "edges.json"
    loaded = ProfileLibrary().find("high-card-flush-casino")
    probe = Theory(GAMES, None, hands=2_000)
    cache.write_text(json.dumps({probe.cache_key(loaded.sha256): entry}), encoding="utf-8")
    edge = Theory(GAMES, cache, hands=2_000).edge(loaded)
    assert edge is not None and set(edge.bets) == set(HCF_BETS) and edge.bets["ante"] != 7.5
    written = json.loads(cache.read_text(encoding="utf-8"))
    assert isinstance(written[probe.cache_key(loaded.sha256)]["bets"], dict)


def test_a_cache_that_is_not_json_is_simulated_again_and_replaced(tmp_path: Path) -> None:
    cache = tmp_path / "edges.json"
    cache.write_text("{not json", encoding="utf-8")
    edge = Theory(GAMES, cache, hands=2_000).edge(ProfileLibrary().find("one-or-five"))
    assert edge is not None and edge.bets["bet"] is None and edge.bets["exchange"] is None
    assert json.loads(cache.read_text(encoding="utf-8"))


def test_the_casino_antes_edge_is_its_exact_house_edge_within_the_simulations_reach() -> None:
    """The casino profile under the `mousseau` strategy has a house edge of 2.7114% per Ante,
    counted exactly over every hand pair (README); over a million simulated hands the Ante's
    edge lies within 0.45 points of it (three standard errors: the 95% half-width is 0.32)."""
    edge = Theory(GAMES, None, hands=1_000_000).edge(ProfileLibrary().find("high-card-flush-casino"))
    assert edge is not None and edge.strategy == "mousseau"
    ante = edge.bets["ante"]
    assert ante is not None and abs(ante - 0.027114) < 0.0045
