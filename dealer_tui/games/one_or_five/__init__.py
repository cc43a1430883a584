"""Poker "1 or 5" at the table: events, round, live-table round, presenter, demo players and the
round screen (its rules: `rules.games.one_or_five`)."""

from __future__ import annotations

from dealer_tui.games.one_or_five.demo import choose
from dealer_tui.games.one_or_five.live_round import OneOrFiveKeyedRound
from dealer_tui.games.one_or_five.presenter import PRESENTER
from dealer_tui.games.one_or_five.round import OneOrFiveRound
from dealer_tui.rounds.game import Game
from rules.games.one_or_five import GAME as RULES

GAME = Game(RULES, round=OneOrFiveRound, keyed_round=OneOrFiveKeyedRound, presenter=PRESENTER, demo=choose,
            screen="dealer_tui.games.one_or_five.screen:OneOrFiveScreen")
