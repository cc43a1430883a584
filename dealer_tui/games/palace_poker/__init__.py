"""Palace Poker at the table: events, round, live-table round, a hand's state (`hand_state`) and
its turns and battles (`battle_flow`), presenter, demo players and the round screen (its rules:
`rules.games.palace_poker`)."""
