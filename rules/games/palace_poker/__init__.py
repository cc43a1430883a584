"""Palace Poker (docs/rules.md PP-0..PP-18): `rules` the deal and the cards each player holds,
`battle` the turns, bets and battles, `battle_result` who wins a battle, `hand_end` the end of a
hand and the pot's shares, `settle` the `settle` contract, `profile` the profile model."""
