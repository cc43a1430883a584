"""High Card Flush's settlement rows: the four bets (HCF-4, HCF-5), the Designated Player's bank
and the house's rake (HCF-17)."""

from rules.game import BetRole, BetType
from rules.said import say_in

BETS = (
    BetType("ante", say_in("bet", "Ante"), BetRole.WAGER),
    BetType("raise", say_in("bet", "Raise"), BetRole.WAGER),
    BetType("flush", say_in("bet", "Flush bet"), BetRole.WAGER),
    BetType("straight_flush", say_in("bet", "Straight Flush bet"), BetRole.WAGER),
    BetType("bank", say_in("bet", "Bank (DP)"), BetRole.BANK),
    BetType("rake", say_in("bet", "Rake"), BetRole.RAKE),
)
