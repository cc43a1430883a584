"""Chinese Poker's settlement rows: the points' chips between the players (CP-13) and the house's
fee per player per hand (CP-12)."""

from rules.game import BetRole, BetType
from rules.said import say_in

BETS = (
    BetType("points", say_in("bet", "Points"), BetRole.POOL),
    BetType("fee", say_in("bet", "House fee"), BetRole.FEE),
)
