"""Chinese Poker's settlement rows: the points' chips between the players (CP-13) and the house's
fee per player per hand (CP-12)."""

from rules.game import BetRole, BetType

BETS = (BetType("points", "Points", BetRole.POOL), BetType("fee", "House fee", BetRole.FEE))
