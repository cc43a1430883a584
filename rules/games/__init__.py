"""The four games' own rules, one package per game: its rules, its settlement, its profile model,
its `settle` contract and its simulator. What every game uses stays beside this package (cards,
the evaluator, the profile loader, the contract's shared parts); a game imports no other game."""
