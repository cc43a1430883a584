"""Chinese Poker (docs/rules.md CP-1..CP-15): `rules` the rows, fouls, royalties and points,
`naturals` the naturals, `setting` the settings of 13 cards, `payments` points into chips,
`settle` the `settle` contract, `simulate` the points' spread, `profile` the profile model."""
