"""High Card Flush (docs/rules.md HCF-1..HCF-20): `rules` ranks the hands and holds the rules
around them, `settlement` settles a round with its reasons, `cuts` the caps and the Designated
Player's money, `chips` the same settlement in chips only, `settle` and `settle_brief` the
`settle` contract, `simulate` the house edge, `profile` the profile model."""
