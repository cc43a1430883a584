"""Poker "1 or 5" at the table: events, round, live-table round, presenter, demo players and the
round screen (its rules: `rules.games.one_or_five`)."""
