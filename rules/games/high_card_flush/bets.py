"""High Card Flush's settlement rows: the four bets (HCF-4, HCF-5), the Designated Player's bank
and the house's rake (HCF-17)."""

from rules.game import BetRole, BetType

BETS = (BetType("ante", "Ante", BetRole.WAGER), BetType("raise", "Raise", BetRole.WAGER),
        BetType("flush", "Flush bet", BetRole.WAGER), BetType("straight_flush", "Straight Flush bet", BetRole.WAGER),
        BetType("bank", "Bank (DP)", BetRole.BANK), BetType("rake", "Rake", BetRole.RAKE))
