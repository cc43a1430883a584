"""Palace Poker at the table: events, round, live-table round, a hand's state (`hand_state`) and
its turns and battles (`battle_flow`), presenter, demo players and the round screen (its rules:
`rules.games.palace_poker`)."""

from __future__ import annotations

from dealer_tui.games.palace_poker.demo import choose
from dealer_tui.games.palace_poker.live_round import PalacePokerKeyedRound
from dealer_tui.games.palace_poker.presenter import PRESENTER
from dealer_tui.games.palace_poker.round import PalacePokerRound
from dealer_tui.rounds.game import Game
from rules.games.palace_poker import GAME as RULES

GAME = Game(RULES, round=PalacePokerRound, keyed_round=PalacePokerKeyedRound, presenter=PRESENTER, demo=choose,
            screen="dealer_tui.games.palace_poker.screen:PalacePokerScreen")
