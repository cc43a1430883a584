"""High Card Flush at the table: events, round, live-table round, presenter, demo players and the
round screen (its rules: `rules.games.high_card_flush`)."""
