"""Poker "1 or 5" (docs/rules.md R-1..R-12): `rules` the hands, the exchange, insurance and the
settlement, `settle` the `settle` contract, `simulate` the house edge, `profile` the profile
model."""
