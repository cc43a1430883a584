"""Poker "1 or 5"'s settlement rows: the ante and the Bet (R-3), the exchange's fee (R-4) and
insurance (R-9)."""

from rules.game import BetRole, BetType

BETS = (BetType("ante", "Ante", BetRole.WAGER), BetType("bet", "Bet", BetRole.WAGER),
        BetType("exchange", "Exchange fee", BetRole.FEE), BetType("insurance", "Insurance", BetRole.WAGER))
