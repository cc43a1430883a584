"""Palace Poker's settlement rows: what each player put into the pot (the ante, soldiers bought,
discards, battles) and their share of it (PP-17)."""

from rules.game import BetRole, BetType
from rules.said import say_in

BETS = (
    BetType("ante", say_in("bet", "Ante"), BetRole.WAGER),
    BetType("buy", say_in("bet", "Buy"), BetRole.WAGER),
    BetType("discard", say_in("bet", "Discard"), BetRole.WAGER),
    BetType("battle", say_in("bet", "Battle"), BetRole.WAGER),
    BetType("pot", say_in("bet", "Pot"), BetRole.POOL),
)
