"""The simulator checked hand by hand against the rules: a row of dealt card indexes as cards, and
High Card Flush hands settled by the vectorised rules and by the rules' own settlement."""

from __future__ import annotations

import numpy as np

from rules.cards import DECK
from rules.games.high_card_flush import simulate as hcf
from rules.games.high_card_flush.profile import HighCardFlushProfile
from rules.games.high_card_flush.settlement import BankerHand, PlayerHand, settle
from rules.simulate.common import chunk_rng, deal


def _cards(row: np.ndarray) -> tuple:  # type: ignore[type-arg]
    return tuple(DECK[int(i)] for i in row)


def _vector_and_scalar(profile: HighCardFlushProfile, seed: int, hands: int, strategy: str,
                       stakes: hcf.Stakes) -> None:
    cards = deal(chunk_rng(seed, 0), hands, 14)
    mine, banker = hcf.hand_keys(cards[:, :7]), hcf.hand_keys(cards[:, 7:])
    raised = hcf.STRATEGIES[strategy][1](mine[0]) * stakes.ante
    r = hcf.settle_hands(profile, stakes, raised, mine, banker)
    house = profile.banker == "house"
    for i in range(hands):
        player = PlayerHand(1, stakes.ante, int(raised[i]), stakes.flush, stakes.straight_flush, _cards(cards[i, :7]))
        dp = BankerHand(_cards(cards[i, 7:])) if house else BankerHand(_cards(cards[i, 7:]), seat=2, stack=10**9)
        s = settle(profile, 2, dp, [player])
        got = s.players[0]
        assert (got.ante.result, got.raise_bet.result, got.flush.result, got.straight_flush.result) == (
            r.ante[i], r.raise_bet[i], r.flush[i], r.straight_flush[i]), (i, got)
        assert got.rake == r.player_rake
        assert s.banker.net == r.banker_net[i]
        # C-2: the player's net, the banker's net and the house rake add up to zero.
        assert got.net + s.banker.net + s.house_rake == 0
        assert got.net + r.banker_net[i] + r.player_rake + r.banker_rake == 0
