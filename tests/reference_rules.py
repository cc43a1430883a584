"""A second, plain reading of ../shared/docs/rules.md that the tests compare the project against.

Nothing here imports the project: cards are (rank, suit) pairs with ranks 0..12 for 2..A and
suits 0..3 for s h d c; hands are ranked by trying every 5-card subset; paytables and scoring
terms are copied from docs/rules.md. Each function settles one `dealer-tui settle` request (docs/settle.md)
the slow, obvious way and returns plain values. Where docs/rules.md leaves a choice to the project,
the comment names the ruling followed.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

RANKS = "23456789TJQKA"
SUITS = "shdc"
ACE, KING, NINE = 12, 11, 7

RefCard = tuple[int, int]


def parse(text: str) -> list[RefCard]:
    """`Ah Kd` -> [(12, 1), (11, 2)]."""
    return [(RANKS.index(token[0].upper()), SUITS.index(token[1].lower())) for token in text.split()]


def show(cards: list[RefCard]) -> list[str]:
    return [RANKS[rank] + SUITS[suit] for rank, suit in cards]


# ------------------------------------------------------------------------------ C-4, C-6 hands

HIGH_CARD, ONE_PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)


def _five_or_fewer(cards: list[RefCard]) -> tuple[int, tuple[int, ...]]:
    """(category, ranks to compare): groups first, larger groups first, then kickers; ranks are
    padded with -1 to five places, so a hand whose cards are all matched by a longer one is
    lower (C-6)."""
    ranks = sorted((rank for rank, _ in cards), reverse=True)
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    shape = [count for _, count in groups]
    ordered = [rank for rank, _ in groups]
    five = len(cards) == 5
    flush = five and len({suit for _, suit in cards}) == 1
    top = None
    if five and len(counts) == 5:
        if ranks[0] - ranks[4] == 4:
            top = ranks[0]
        elif ranks == [ACE, 3, 2, 1, 0]:  # the wheel: its top card is the 5
            top = 3
    if top is not None and flush:
        category, ordered = STRAIGHT_FLUSH, [top]
    elif shape[0] == 4:
        category = QUADS
    elif shape[:2] == [3, 2]:
        category = FULL_HOUSE
    elif flush:
        category, ordered = FLUSH, ranks
    elif top is not None:
        category, ordered = STRAIGHT, [top]
    elif shape[0] == 3:
        category = TRIPS
    elif shape[:2] == [2, 2]:
        category = TWO_PAIR
    elif shape[0] == 2:
        category = ONE_PAIR
    else:
        category = HIGH_CARD
    return category, tuple(ordered) + (-1,) * (5 - len(ordered))


def poker_key(cards: list[RefCard]) -> tuple[int, tuple[int, ...]]:
    """The best 5-card hand of `cards` (C-4), or the short hand itself (C-6); keys compare."""
    if len(cards) <= 5:
        return _five_or_fewer(cards)
    return max(_five_or_fewer(list(five)) for five in combinations(cards, 5))


# ---------------------------------------------------------------------------- High Card Flush

CARD_ROOM_TABLES = ({7: 1000, 6: 500, 5: 100, 4: 60, 3: 8}, {7: 200, 6: 50, 5: 10, 4: 2})
CASINO_TABLES = ({7: 8000, 6: 1000, 5: 100, 4: 60, 3: 7}, {7: 300, 6: 100, 5: 10, 4: 1})
"""(Straight Flush, Flush) odds "to 1" by number of cards: HCF-14 and HCF-20."""


def flush_of(cards: list[RefCard]) -> tuple[int, list[int], int]:
    """HCF-1, HCF-2: (length, ranks high to low, suit) of the playing flush; ties between suits
    go to the first in s h d c."""
    best: tuple[int, list[int], int] | None = None
    for suit in range(4):
        ranks = sorted((r for r, s in cards if s == suit), reverse=True)
        if best is None or (len(ranks), ranks) > (best[0], best[1]):
            best = (len(ranks), ranks, suit)
    assert best is not None
    return best


def run_of(cards: list[RefCard]) -> tuple[int, int, int]:
    """HCF-12: (length, top rank, suit) of the longest straight flush; the ace plays high or low,
    no wrap-around; a longer run, then a higher top, then the first suit in s h d c."""
    best = (0, -1, -1)
    for suit in range(4):
        # rank positions 1..13 for 2..A, and 0 for an ace played low
        held = {rank + 1 for rank, s in cards if s == suit}
        if ACE + 1 in held:
            held.add(0)
        for top in held:
            length = 0
            while top - length in held:
                length += 1
            top_rank = top - 1 if top else ACE
            if (length, top_rank) > best[:2]:
                best = (length, top_rank, suit)
    return best


def run_cards(run: tuple[int, int, int]) -> list[RefCard]:
    """The run's cards from its top down (C-7); [] when shorter than 3."""
    length, top, suit = run
    if length < 3:
        return []
    position = ACE + 1 if top == ACE else top + 1
    out = []
    for step in range(length):
        p = position - step
        out.append((p - 1 if p else ACE, suit))
    return out


def hcf_qualifies(flush: tuple[int, list[int], int]) -> bool:
    """HCF-7: a 4+ card flush, or a 3-card flush nine-high or better."""
    return flush[0] >= 4 or (flush[0] == 3 and flush[1][0] >= NINE)


def pay_line(table: dict[int, int], length: int) -> int | None:
    """The highest paytable line the length reaches, or None."""
    lines = [odds for cards, odds in table.items() if cards <= length]
    return max(lines) if lines else None


def _capped(flush: int, straight: int, cap: int | None) -> tuple[int, int]:
    """HCF-14: bonus winnings above the cap come off the Straight Flush first, then the Flush."""
    won = max(flush, 0) + max(straight, 0)
    if cap is None or won <= cap:
        return flush, straight
    excess = won - cap
    cut = min(excess, max(straight, 0))
    straight, excess = straight - cut, excess - cut
    return flush - excess, straight


def _main_bets(player: dict[str, Any], mine: tuple[int, list[int], int],
               dealer: tuple[int, list[int], int]) -> tuple[int, int]:
    """HCF-8, HCF-9: (Ante, Raise) of a raised hand."""
    ante, raised = player["ante"], player["raise"]
    if not hcf_qualifies(dealer):
        return ante, 0
    if mine[:2] > dealer[:2]:
        return ante, raised
    if mine[:2] == dealer[:2]:
        return 0, 0
    return -ante, -raised


def settle_high_card_flush(request: dict[str, Any]) -> dict[str, Any]:
    """A whole High Card Flush request under a shipped profile (`high-card-flush`, or
    `high-card-flush-casino` by name): {"players": {seat: {"bets": [ante, raise, flush,
    straight_flush], "rake", "dead", "flush", "straight_flush"}}, "banker_net", "banker_rake",
    "order", "house_rake", "qualified"}."""
    casino = request.get("profile") == "high-card-flush-casino"
    sf_table, flush_table = CASINO_TABLES if casino else CARD_ROOM_TABLES
    cap = request.get("bonus_cap")
    # HCF-14: the round's cap, hand by hand in the settlement order; a hand takes from it what its
    # bonus bets are finally paid (after HCF-16); a dead hand takes nothing.
    left = request.get("round_bonus_cap")
    banker = request["banker"]
    dealer_cards = parse(banker["cards"]) if banker.get("cards") else None
    dealer_flush = flush_of(dealer_cards) if dealer_cards else None
    dealer_run = run_of(dealer_cards) if dealer_cards else None
    players = {p["seat"]: p for p in request["players"]}
    results: dict[int, dict[str, Any]] = {}

    def shown(player: dict[str, Any]) -> tuple[list[str], list[str]]:
        if not player.get("cards"):
            return [], []
        cards = parse(player["cards"])
        _, ranks, suit = flush_of(cards)
        return show([(r, suit) for r in ranks]), show(run_cards(run_of(cards)))

    def record(seat: int, bets: list[int], rake: int, dead: bool) -> None:
        flush_cards, straight_cards = shown(players[seat])
        results[seat] = {"bets": bets, "rake": rake, "dead": dead, "flush": flush_cards,
                         "straight_flush": straight_cards}

    if casino:
        # HCF-20: the house banks without limit; bonus bets pay on the player's own hand, folded
        # or not; no rake; settled by seat.
        for seat in sorted(players):
            p = players[seat]
            cards = parse(p["cards"]) if p.get("cards") else []
            if p["raise"] == 0:
                ante, raised = -p["ante"], 0
            else:
                assert dealer_flush is not None
                ante, raised = _main_bets(p, flush_of(cards), dealer_flush)
            flush = straight = 0
            if p.get("flush"):
                odds = pay_line(flush_table, flush_of(cards)[0])
                flush = p["flush"] * odds if odds else -p["flush"]
            if p.get("straight_flush"):
                odds = pay_line(sf_table, run_of(cards)[0])
                straight = p["straight_flush"] * odds if odds else -p["straight_flush"]
            flush, straight = _capped(flush, straight, cap)
            if left is not None:
                flush, straight = _capped(flush, straight, left)
                left -= max(flush, 0) + max(straight, 0)
            record(seat, [ante, raised, flush, straight], 0, False)
        net = -sum(sum(r["bets"]) for r in results.values())
        return {"players": results, "banker_net": net, "banker_rake": 0, "order": sorted(players),
                "house_rake": 0,
                "qualified": None if dealer_flush is None else hcf_qualifies(dealer_flush)}

    rake = request.get("rake", {"mode": "all", "amount": 0})
    player_rake = rake["amount"] if rake["mode"] in ("all", "players") else 0
    dp_rake = rake["amount"] if rake["mode"] in ("all", "dp_only") else 0
    seats, button = request.get("seats", 7), banker["seat"]
    # HCF-10: from the seat to the right of the button, counter-clockwise (down, wrapping).
    ring = [(button - 1 - k) % seats + 1 for k in range(1, seats)]
    ring = [seat for seat in ring if seat in players]
    folded = [seat for seat in ring if players[seat]["raise"] == 0]
    raised_seats = [seat for seat in ring if players[seat]["raise"] > 0]
    available = banker["stack"]
    for seat in folded:  # HCF-6, HCF-11, HCF-15: every stake lost, counted in the DP's money
        p = players[seat]
        bets = [-p["ante"], 0, -p.get("flush", 0), -p.get("straight_flush", 0)]
        available -= sum(bets)
        record(seat, bets, player_rake, False)
    for seat in raised_seats:
        p = players[seat]
        wager = p["ante"] + p["raise"] + p.get("flush", 0) + p.get("straight_flush", 0)
        if available < wager:  # HCF-16: a dead hand, every bet returned, no rake
            record(seat, [0, 0, 0, 0], 0, True)
            continue
        assert dealer_flush is not None and dealer_run is not None
        cards = parse(p["cards"])
        mine, run = flush_of(cards), run_of(cards)
        ante, raised = _main_bets(p, mine, dealer_flush)
        flush = straight = 0
        if p.get("flush"):  # HCF-13
            if mine[0] < 4 or mine[:2] < dealer_flush[:2]:
                flush = -p["flush"]
            elif mine[:2] > dealer_flush[:2]:
                odds = pay_line(flush_table, mine[0])
                assert odds is not None
                flush = p["flush"] * odds
        if p.get("straight_flush"):  # HCF-12: ties go to the player
            if run[0] < 3 or run[:2] < dealer_run[:2]:
                straight = -p["straight_flush"]
            else:
                odds = pay_line(sf_table, run[0])
                assert odds is not None
                straight = p["straight_flush"] * odds
        flush, straight = _capped(flush, straight, cap)
        if left is not None:
            flush, straight = _capped(flush, straight, left)
        bets = [ante, raised, flush, straight]
        if sum(bets) > available:  # HCF-16: cut straight flush, flush, raise, ante in turn
            short = sum(bets) - available
            for i in (3, 2, 1, 0):
                cut = min(short, max(bets[i], 0))
                bets[i] -= cut
                short -= cut
        if left is not None:
            left -= max(bets[2], 0) + max(bets[3], 0)
        available -= sum(bets)
        record(seat, bets, player_rake, False)
    dp_paid = min(dp_rake, available)  # HCF-17: only from what the DP still holds
    house = dp_paid + sum(r["rake"] for r in results.values())
    return {"players": results, "banker_net": available - banker["stack"] - dp_paid,
            "order": folded + raised_seats, "house_rake": house, "banker_rake": dp_paid,
            "qualified": None if dealer_flush is None else hcf_qualifies(dealer_flush)}


# ------------------------------------------------------------------------------- Poker "1 or 5"

ONE_OR_FIVE_ODDS = {"ace-king": 1, "one pair": 1, "two pair": 2, "three of a kind": 3,
                    "straight": 4, "flush": 5, "full house": 7, "four of a kind": 20,
                    "straight flush": 50, "royal flush": 100}
"""R-8's default Bet paytable."""

_NAMES = ("high card", "one pair", "two pair", "three of a kind", "straight", "flush",
          "full house", "four of a kind", "straight flush")


def one_or_five_hand(cards: list[RefCard]) -> tuple[tuple[int, tuple[int, ...]], str]:
    """(C-4 key, name) of five cards; an unpaired hand with an Ace and a King is `ace-king`."""
    key = poker_key(cards)
    name = _NAMES[key[0]]
    if key[0] == STRAIGHT_FLUSH and key[1][0] == ACE:
        name = "royal flush"
    if name == "high card" and {ACE, KING} <= {rank for rank, _ in cards}:
        name = "ace-king"
    return key, name


def settle_one_or_five(request: dict[str, Any], cap: int | None = None) -> dict[str, Any]:
    """{"qualified", "boxes": {box: [ante, bet, exchange, insurance]}}, with the default profile
    (exchange fee 1 x Ante, two pair paid without the Ante) and `max_box_payout` = `cap`."""
    dealer_key, dealer_name = one_or_five_hand(parse(request["dealer"]["cards"]))
    qualified = dealer_name != "high card"  # ace-king or better
    boxes = {}
    for box in request["boxes"]:
        key, name = one_or_five_hand(parse(box["cards"]))
        ante, premium = box["ante"], box.get("insurance", 0)
        fee = -ante if box.get("exchanged", 0) else 0  # never returned
        if box["action"] == "fold":
            result = [-ante, 0, fee, 0]
        elif not qualified:
            result = [ante, 0, fee, premium]
        elif dealer_key > key:
            result = [-ante, -2 * ante, fee, -premium]
        elif dealer_key == key:
            result = [0, 0, fee, -premium]
        else:
            result = [0 if name == "two pair" else ante, 2 * ante * ONE_OR_FIVE_ODDS[name], fee,
                      -premium]
        if cap is not None:  # cut the Bet, then the insurance, then the Ante
            excess = max(result[0], 0) + max(result[1], 0) + max(result[3], 0) - cap
            for i in (1, 3, 0):
                cut = min(max(excess, 0), max(result[i], 0))
                result[i] -= cut
                excess -= cut
        boxes[box["box"]] = result
    return {"qualified": qualified, "boxes": boxes}


# -------------------------------------------------------------------------------- Chinese Poker

CP_SCORING = {"basic": (None, False, 6), "mandarin": (6, True, 6), "super_bonus": (9, True, 9)}
"""Scoring name -> (scoop points, royalties, foul points): CP-6, CP-8."""
CP_ROYALTIES = ({TRIPS: 3}, {STRAIGHT_FLUSH: 10, QUADS: 8, FULL_HOUSE: 2},
                {STRAIGHT_FLUSH: 5, QUADS: 4})
"""Front, middle, back royalties by category (CP-7)."""
CP_NATURALS = {"dragon": 13, "six pairs": 4, "three flushes": 4, "three straights": 4}


def _row_is_straight(row: list[RefCard]) -> bool:
    ranks = sorted({rank for rank, _ in row})
    if len(ranks) != len(row):
        return False
    low_ace = [0, 1] if len(row) == 3 else [0, 1, 2, 3]  # A-2-3, A-2-3-4-5: the ace plays low
    return ranks[-1] - ranks[0] == len(row) - 1 or ranks == low_ace + [ACE]


def _some_split(cards: list[RefCard], row_ok: Any) -> bool:
    """CP-9: whether some split of the 13 cards into rows of 3, 5 and 5 has every row `row_ok`
    (every front of 3 tried, then every middle of 5 from the other 10; the back is the rest)."""
    for front in combinations(cards, 3):
        if not row_ok(list(front)):
            continue
        rest = [c for c in cards if c not in front]
        for middle in combinations(rest, 5):
            back = [c for c in rest if c not in middle]
            if row_ok(list(middle)) and row_ok(back):
                return True
    return False


def cp_natural(rows: list[list[RefCard]]) -> str | None:
    """CP-9 (revision 2), the first of dragon, six pairs, three flushes, three straights that the
    player's 13 cards hold, whatever rows they were given in."""
    cards = [card for row in rows for card in row]
    if len(cards) != 13:
        return None
    counts = Counter(rank for rank, _ in cards)
    if len(counts) == 13:
        return "dragon"
    if sum(n // 2 for n in counts.values()) >= 6:
        return "six pairs"
    if _some_split(cards, lambda row: len({suit for _, suit in row}) == 1):
        return "three flushes"
    if _some_split(cards, _row_is_straight):
        return "three straights"
    return None


def cp_pay(stacks: dict[int, int], points: dict[int, int], value: int, button: int,
           fee: int = 0) -> tuple[list[tuple[int, int, int]], dict[int, int]]:
    """CP-13 (revision 2) payments (payer, receiver, amount) and nets, step by step as docs/rules.md
    words them. The house fee (project ruling) is taken from each stack first, at most the
    stack, and counts in the net; the stack after it is the one table stakes use."""
    seats = sorted(stacks)
    order = [s for s in seats if s > button] + [s for s in seats if s <= button]  # C-5
    fees = {s: min(fee, stacks[s]) for s in seats}
    stack = {s: stacks[s] - fees[s] for s in seats}
    due = {s: points.get(s, 0) * value for s in seats}  # step 1
    pay = {s: min(-due[s], stack[s]) for s in order if due[s] < 0}  # step 2
    claim = {s: min(due[s], stack[s]) for s in order if due[s] > 0}
    moving = min(sum(pay.values()), sum(claim.values()))  # step 3
    pays, left = [], moving
    for s in order:
        if s in pay:
            pays.append([s, min(pay[s], left)])
            left -= pays[-1][1]
    gets, left = [], moving
    for s in order:
        if s in claim:
            gets.append([s, min(claim[s], left)])
            left -= gets[-1][1]
    payments = []  # step 4: first loser to first winner until one is done, then the next
    i = j = 0
    while i < len(pays) and j < len(gets):
        amount = min(pays[i][1], gets[j][1])
        if amount:
            payments.append((pays[i][0], gets[j][0], amount))
            pays[i][1] -= amount
            gets[j][1] -= amount
        if not pays[i][1]:
            i += 1
        if not gets[j][1]:
            j += 1
    nets = dict.fromkeys(seats, 0)
    for payer, receiver, amount in payments:
        nets[payer] -= amount
        nets[receiver] += amount
    return payments, {s: nets[s] - fees[s] for s in seats}


def settle_chinese_poker(request: dict[str, Any], royalty_needs_row_win: bool = True,
                         house_fee: int = 0) -> dict[str, Any]:
    """{"pairs": {(a, b): points}, "points", "payments", "nets", "hands": {seat: {fouled,
    natural, royalties}}} for a request; default point value 5, scoring mandarin."""
    scoop, royalties_on, foul_points = CP_SCORING[request.get("scoring", "mandarin")]
    hands = {}
    for p in request["players"]:
        rows = [parse(p[key]) for key in ("front", "middle", "back")]
        natural = cp_natural(rows) if p.get("natural") else None
        sized = [len(row) for row in rows] == [3, 5, 5]
        keys = [poker_key(row) for row in rows] if sized else []
        # CP-4: a row with the wrong count, or rows out of the CP-3 order back >= middle > front
        fouled = natural is None and not (sized and keys[2] >= keys[1] > keys[0])
        royalties = [0, 0, 0]
        if natural is None and not fouled and royalties_on:
            royalties = [CP_ROYALTIES[i].get(keys[i][0], 0) for i in range(3)]
        hands[p["seat"]] = {"natural": natural, "fouled": fouled, "keys": keys,
                            "royalties": royalties}
    pairs = {}
    for a, b in combinations(sorted(hands), 2):
        ha, hb = hands[a], hands[b]
        if ha["natural"] or hb["natural"]:  # CP-10; against a fouled hand CP-8
            def collects(x: dict[str, Any], y: dict[str, Any]) -> int:
                if not x["natural"]:
                    return 0
                if not y["natural"]:
                    return CP_NATURALS[x["natural"]] + (foul_points if y["fouled"] else 0)
                return 13 if x["natural"] == "dragon" and y["natural"] != "dragon" else 0
            points = collects(ha, hb) - collects(hb, ha)
        elif ha["fouled"] and hb["fouled"]:
            points = 0
        elif ha["fouled"]:  # CP-8
            points = -(foul_points + sum(hb["royalties"]))
        elif hb["fouled"]:
            points = foul_points + sum(ha["royalties"])
        else:  # CP-5..CP-7
            rows = [(ka > kb) - (ka < kb) for ka, kb in zip(ha["keys"], hb["keys"], strict=True)]
            points = sum(rows)
            if scoop is not None and abs(points) == 3:
                points = scoop if points > 0 else -scoop
            for i, won in enumerate(rows):
                if won > 0 or not royalty_needs_row_win:
                    points += ha["royalties"][i]
                if won < 0 or not royalty_needs_row_win:
                    points -= hb["royalties"][i]
        pairs[(a, b)] = points
    totals = dict.fromkeys(hands, 0)
    value = request.get("point_value", 5)
    for (a, b), points in pairs.items():
        totals[a] += points
        totals[b] -= points
    stacks = {p["seat"]: p["stack"] for p in request["players"]}
    payments, nets = cp_pay(stacks, totals, value, request["button"], house_fee)
    return {"pairs": pairs, "points": totals, "payments": payments, "nets": nets, "hands": hands}


# -------------------------------------------------------------------------------- Palace Poker


def palace_battle(attacker: dict[str, Any], defender: dict[str, Any],
                  last_two: bool) -> tuple[int | None, int | None, str]:
    """PP-9, PP-10: (winner, loser, outcome) of a battle between two sides of a request."""
    def cards(side: dict[str, Any]) -> list[RefCard]:
        return parse(" ".join((side["banner"], side["palace"], side["soldiers"])))

    mine, theirs = cards(attacker), cards(defender)
    my_suit, their_suit = mine[0][1], theirs[0][1]
    a = poker_key([c for c in mine if c[1] != their_suit])
    d = poker_key([c for c in theirs if c[1] != my_suit])
    if a == d:
        a_count = sum(suit == my_suit for _, suit in mine)
        d_count = sum(suit == their_suit for _, suit in theirs)
        if a_count == d_count:
            return None, None, "split" if last_two else "both out"
        attacker_wins = a_count > d_count
    else:
        attacker_wins = a > d
    winner, loser = (attacker, defender) if attacker_wins else (defender, attacker)
    return winner["seat"], loser["seat"], "won"


def palace_showdown(dealer: int, pot: int, players: list[dict[str, Any]]) -> dict[int, int]:
    """PP-16, PP-17: every winner's share; odd chips one at a time clockwise from the dealer."""
    keys = {p["seat"]: poker_key(parse(" ".join((p["banner"], p["palace"], p["soldiers"]))))
            for p in players}
    best = max(keys.values())
    winners = sorted(seat for seat, key in keys.items() if key == best)
    clockwise = [s for s in winners if s > dealer] + [s for s in winners if s <= dealer]
    each, odd = divmod(pot, len(winners))
    return {seat: each + (place < odd) for place, seat in enumerate(clockwise)}
