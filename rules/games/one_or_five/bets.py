"""Poker "1 or 5"'s settlement rows: the ante and the Bet (R-3), the exchange's fee (R-4) and
insurance (R-9); each label a sentence the reader's language renders."""

from rules.game import BetRole, BetType
from rules.said import say_in

BETS = (
    BetType("ante", say_in("bet", "Ante"), BetRole.WAGER),
    BetType("bet", say_in("bet", "Bet"), BetRole.WAGER),
    BetType("exchange", say_in("bet", "Exchange fee"), BetRole.FEE),
    BetType("insurance", say_in("bet", "Insurance"), BetRole.WAGER),
)
