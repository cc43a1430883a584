"""Chinese Poker at the table: events, round, live-table round, the rows as set (`rows`),
presenter, demo players and the round screen (its rules: `rules.games.chinese_poker`)."""

from __future__ import annotations

from dealer_tui.games.chinese_poker.demo import choose
from dealer_tui.games.chinese_poker.live_round import ChinesePokerKeyedRound
from dealer_tui.games.chinese_poker.presenter import PRESENTER
from dealer_tui.games.chinese_poker.round import ChinesePokerRound
from dealer_tui.rounds.game import Game
from rules.games.chinese_poker import GAME as RULES

GAME = Game(RULES, round=ChinesePokerRound, keyed_round=ChinesePokerKeyedRound, presenter=PRESENTER, demo=choose,
            screen="dealer_tui.games.chinese_poker.screen:ChinesePokerScreen")
