"""Chinese Poker at the table: events, round, live-table round, the rows as set (`rows`),
presenter, demo players and the round screen (its rules: `rules.games.chinese_poker`)."""
