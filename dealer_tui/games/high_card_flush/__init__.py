"""High Card Flush at the table: events, round, live-table round, presenter, demo players and the
round screen (its rules: `rules.games.high_card_flush`)."""

from __future__ import annotations

from dealer_tui.games.high_card_flush.demo import choose
from dealer_tui.games.high_card_flush.live_round import HighCardFlushKeyedRound
from dealer_tui.games.high_card_flush.presenter import PRESENTER
from dealer_tui.games.high_card_flush.round import HighCardFlushRound
from dealer_tui.rounds.game import Game
from rules.games.high_card_flush import GAME as RULES

GAME = Game(RULES, round=HighCardFlushRound, keyed_round=HighCardFlushKeyedRound, presenter=PRESENTER, demo=choose,
            screen="dealer_tui.games.high_card_flush.screen:HighCardFlushScreen")
