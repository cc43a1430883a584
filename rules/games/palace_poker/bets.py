"""Palace Poker's settlement rows: what each player put into the pot (the ante, soldiers bought,
discards, battles) and their share of it (PP-17)."""

from rules.game import BetRole, BetType

BETS = (BetType("ante", "Ante", BetRole.WAGER), BetType("buy", "Buy", BetRole.WAGER),
        BetType("discard", "Discard", BetRole.WAGER), BetType("battle", "Battle", BetRole.WAGER),
        BetType("pot", "Pot", BetRole.POOL))
