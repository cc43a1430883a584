"""The bets a settlement row may be for, as each game declares them: a kind (the row's `bet`), the
label a screen shows, and a role that says what the row's chips are. Everything that adds up rows
by what they are (a wager, the banker's result, the house's fee, chips won from other seats) asks
the roles here; no table elsewhere lists kinds by name.

Roles:
- `wager`: a player's bet against the house or the Designated Player (stake and result);
- `bank`: the Designated Player's result as banker, before its rake (HCF-8..HCF-17);
- `rake`: the house's cut of a win (HCF-17): netted with the bank, and a fee to the house;
- `fee`: a fee to the house that is no bet's result (a Chinese Poker player's fee per hand, the
  "1 or 5" exchange fee);
- `pool`: chips won from the other seats, not from the house (a Palace Poker pot's share, Chinese
  Poker's points).
"""

from __future__ import annotations

from functools import cache

from rules.game import BetRole, BetType
from rules.games import GAMES
from rules.said import Said, as_said


@cache
def bet_types() -> dict[str, BetType]:
    """Every game's bet types by kind. A kind two games share (the ante) is declared alike by both,
    or this raises `ValueError` naming it."""
    found: dict[str, BetType] = {}
    for game in GAMES:
        for bet in game.bets:
            if found.setdefault(bet.kind, bet) != bet:
                raise ValueError(f"bet {bet.kind!r} is declared twice, differently: {found[bet.kind]} and {bet}")
    return found


def declared_roles() -> list[tuple[str, str]]:
    """(role, kind) of every declared bet: what a ledger's migration fills its older rows' roles
    with (the SQLite ledger's and the pit server's alike)."""
    return [(bet.role.value, kind) for kind, bet in bet_types().items()]


def role_of(kind: str) -> str:
    """The role of a kind of bet as its game declares it (`BetRole`'s value); empty for a kind no
    game declares."""
    bet = bet_types().get(kind)
    return bet.role.value if bet is not None else ""


def bet_label(kind: str) -> Said:
    """The bet as a screen names it, a sentence the reader's language renders (a kind no game
    declares: as recorded)."""
    bet = bet_types().get(kind)
    return as_said(bet.label if bet is not None else kind)


@cache
def kinds(*roles: BetRole) -> frozenset[str]:
    """The kinds of bet whose role is one of `roles`."""
    return frozenset(kind for kind, bet in bet_types().items() if bet.role in roles)


def banker_kinds() -> frozenset[str]:
    """A seat's bank and rake rows: netted together, never a wager."""
    return kinds(BetRole.BANK, BetRole.RAKE)


def fee_kinds() -> frozenset[str]:
    """Rows that are the house's take rather than a bet's result (the rake and fees total)."""
    return kinds(BetRole.RAKE, BetRole.FEE)


def pool_kinds() -> frozenset[str]:
    """Chips won from the other seats, not from the house."""
    return kinds(BetRole.POOL)
