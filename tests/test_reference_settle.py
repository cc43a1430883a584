"""`settle` on random rounds equals the independent reading of docs/rules.md in `tests/reference_rules.py`
(checked by hand in `tests/test_reference_rules.py`), bet by bet, and conserves chips (C-2).

Decks are often narrowed (two suits, or high ranks) so that long flushes, straight flushes,
naturals, royalties, dead hands, caps and ties come up in a few hundred rounds.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rules.profiles.loader import ProfileLibrary, shipped_dir
from rules.settle import settle_round
from tests.reference_rules import (
    ONE_OR_FIVE_ODDS,
    RefCard,
    cp_natural,
    one_or_five_hand,
    palace_battle,
    palace_showdown,
    settle_chinese_poker,
    settle_high_card_flush,
    settle_one_or_five,
    show,
)

LIBRARY = ProfileLibrary([])
DECK: list[RefCard] = [(rank, suit) for rank in range(13) for suit in range(4)]
TWO_SUITS_AND_HIGH = [c for c in DECK if c[1] < 2 or c[0] >= 8]  # 36 cards
BROADWAY = [c for c in DECK if c[0] >= 8]  # T J Q K A: 20 cards
SEEDS = st.integers(0, 2**32 - 1)
FAST = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def text(cards: list[RefCard]) -> str:
    return " ".join(show(cards))


def deal(rng: random.Random, hands: int, size: int, narrow: list[RefCard]) -> list[list[RefCard]]:
    """`hands` hands of `size` cards, from the narrow deck when it is big enough and the coin says."""
    deck = narrow if len(narrow) >= hands * size and rng.random() < 0.6 else DECK
    cards = rng.sample(deck, hands * size)
    return [cards[i * size:(i + 1) * size] for i in range(hands)]


# ---------------------------------------------------------------------------- High Card Flush

BETS = ("ante", "raise", "flush", "straight_flush")


def hcf_request(rng: random.Random, casino: bool) -> dict[str, Any]:
    seats = rng.randint(2, 7)
    button = rng.randint(1, seats)
    free = [s for s in range(1, seats + 1) if casino or s != button]
    chosen = rng.sample(free, rng.randint(1, min(6, len(free))))
    dealer, *hands = deal(rng, len(chosen) + 1, 7, TWO_SUITS_AND_HIGH)
    players = []
    for seat, cards in zip(chosen, hands, strict=True):
        ante = rng.choice([5, 10, 25, rng.randint(5, 500)])
        longest = max(Counter(suit for _, suit in cards).values())
        most = 1 if longest <= 4 else 2 if longest == 5 else 3  # HCF-6
        raised = 0 if rng.random() < 0.3 else rng.randint(ante, most * ante)
        p: dict[str, Any] = {"seat": seat, "ante": ante, "raise": raised}
        for bonus in ("flush", "straight_flush"):
            if rng.random() < 0.5:
                p[bonus] = rng.choice([1, 5, rng.randint(1, 100)])
        if raised or (casino and (p.get("flush") or p.get("straight_flush"))) or rng.random() < 0.5:
            p["cards"] = text(cards)
        players.append(p)
    req: dict[str, Any] = {"game": "high-card-flush", "seats": seats, "players": players}
    if casino:
        req["profile"] = "high-card-flush-casino"
        req["banker"] = {"cards": text(dealer)}
    else:
        stack = rng.choice([0, 5, 20, 50, 100, 300, 1000, 5000])
        req["banker"] = {"seat": button, "stack": stack, "cards": text(dealer)}
        if rng.random() < 0.5:
            req["rake"] = {"mode": rng.choice(["all", "players", "dp_only"]), "amount": rng.choice([0, 1, 3, 7])}
    if rng.random() < 0.4:
        req["bonus_cap"] = rng.choice([None, 1, 10, 50, 200, 1000])
    if rng.random() < 0.4:
        req["round_bonus_cap"] = rng.choice([None, 1, 25, 100, 400, 2000])
    return req


def check_high_card_flush(req: dict[str, Any]) -> None:
    out = settle_round(req, LIBRARY)
    ref = settle_high_card_flush(req)
    for p in out["players"]:
        expected = ref["players"][p["seat"]]
        assert [p["bets"][k] for k in BETS] == expected["bets"], p
        assert (p["dead"], p["rake"]) == (expected["dead"], expected["rake"]), p
        assert (p["flush"], p["straight_flush"]) == (expected["flush"], expected["straight_flush"]), p
        assert p["net"] == sum(expected["bets"]) - expected["rake"]
    banker = out["banker"]
    assert (banker["net"], banker["rake"], banker["qualified"]) == (
        ref["banker_net"], ref["banker_rake"], ref["qualified"])
    assert (out["order"], out["house"]["rake"]) == (ref["order"], ref["house_rake"])
    # C-2: the players' nets, the banker's net and the house rake add up to zero.
    assert sum(p["net"] for p in out["players"]) + banker["net"] + out["house"]["rake"] == 0


@FAST
@given(SEEDS)
def test_hcf_8_to_hcf_17_card_room_settlement_equals_the_reference(seed: int) -> None:
    check_high_card_flush(hcf_request(random.Random(seed), casino=False))


@FAST
@given(SEEDS)
def test_hcf_20_casino_settlement_equals_the_reference(seed: int) -> None:
    check_high_card_flush(hcf_request(random.Random(seed), casino=True))


# ------------------------------------------------------------------------------- Poker "1 or 5"

CAPS = (None, 37, 150)


@pytest.fixture(scope="module")
def capped_profiles(tmp_path_factory: pytest.TempPathFactory) -> dict[int | None, str]:
    """The shipped one-or-five profile with `max_box_payout` 37 and 150 (None: shipped)."""
    shipped = (shipped_dir() / "one-or-five.yaml").read_text(encoding="utf-8")
    folder = tmp_path_factory.mktemp("one-or-five")
    paths: dict[int | None, str] = {None: "one-or-five"}
    for cap in CAPS[1:]:
        path = folder / f"cap-{cap}.yaml"
        path.write_text(shipped.replace("max_box_payout: null", f"max_box_payout: {cap}"), encoding="utf-8")
        paths[cap] = str(path)
    return paths


def one_or_five_request(rng: random.Random, profile: str) -> dict[str, Any]:
    narrow = BROADWAY if rng.random() < 0.5 else DECK
    count = rng.randint(1, len(narrow) // 5 - 1 if narrow is BROADWAY else 6)
    dealer, *hands = deal(rng, count + 1, 5, narrow)
    boxes = []
    for number, cards in enumerate(hands, 1):
        ante = rng.choice([5, 10, 20, rng.randint(5, 500)])
        action = rng.choice(["bet", "bet", "fold"])
        box: dict[str, Any] = {"box": number, "ante": ante, "action": action, "cards": text(cards),
                               "exchanged": rng.choice([0, 1, 5])}
        name = one_or_five_hand(cards)[1]
        insurable = name in ("straight", "flush", "full house", "four of a kind", "straight flush",
                             "royal flush")
        if action == "bet" and insurable and rng.random() < 0.7:
            box["insurance"] = rng.randint(ante, ante * ONE_OR_FIVE_ODDS[name])  # half of 2 x odds
        boxes.append(box)
    return {"game": "one-or-five", "profile": profile, "dealer": {"cards": text(dealer)}, "boxes": boxes}


@FAST
@given(SEEDS, st.sampled_from(CAPS))
def test_r_5_to_r_9_settlement_equals_the_reference(capped_profiles: dict[int | None, str], seed: int,
                                                    cap: int | None) -> None:
    req = one_or_five_request(random.Random(seed), capped_profiles[cap])
    out = settle_round(req, LIBRARY)
    ref = settle_one_or_five(req, cap)
    assert out["dealer"]["qualified"] == ref["qualified"]
    for box in out["boxes"]:
        expected = ref["boxes"][box["box"]]
        assert [box["bets"][k] for k in ("ante", "bet", "exchange", "insurance")] == expected, box
        assert box["net"] == sum(expected)
    # The dealer's side: every stake lost is collected, every win paid.
    results = [r for bets in ref["boxes"].values() for r in bets]
    assert out["dealer"]["net"] == sum(-r for r in results if r < 0) - sum(r for r in results if r > 0)


# -------------------------------------------------------------------------------- Chinese Poker


@pytest.fixture(scope="module")
def cp_profiles(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The shipped chinese-poker profile, one with `royalty_needs_row_win: false`, one with a fee."""
    shipped = (shipped_dir() / "chinese-poker.yaml").read_text(encoding="utf-8")
    folder = tmp_path_factory.mktemp("chinese-poker")
    any_row, fee = folder / "any-row.yaml", folder / "fee.yaml"
    any_row.write_text(shipped.replace("royalty_needs_row_win: true", "royalty_needs_row_win: false"),
                       encoding="utf-8")
    fee.write_text(shipped.replace("house_fee: 0", "house_fee: 3"), encoding="utf-8")
    return {"shipped": "chinese-poker", "any row": str(any_row), "fee": str(fee)}


def _take(pool: list[RefCard], wanted: list[RefCard]) -> list[RefCard]:
    for card in wanted:
        pool.remove(card)
    return wanted


def _natural_cards(rng: random.Random, pool: list[RefCard]) -> list[list[RefCard]] | None:
    """A dragon, six pairs, three flushes or three straights taken from `pool`, as rows; None
    (and `pool` untouched) when the pool cannot make the one picked."""
    spare = list(pool)
    rows = _natural_from(rng, spare)
    if rows is not None:
        pool[:] = spare
    return rows


def _natural_from(rng: random.Random, pool: list[RefCard]) -> list[list[RefCard]] | None:
    kind = rng.choice(["dragon", "six pairs", "three flushes", "three straights"])
    by_rank = {r: [c for c in pool if c[0] == r] for r in range(13)}
    if kind == "dragon" and all(by_rank.values()):
        cards = _take(pool, [rng.choice(by_rank[r]) for r in range(13)])
    elif kind == "six pairs":
        ranks = [r for r in range(13) if len(by_rank[r]) >= 2]
        if len(ranks) < 6:
            return None
        cards = _take(pool, [c for r in rng.sample(ranks, 6) for c in rng.sample(by_rank[r], 2)])
        cards += _take(pool, [rng.choice(pool)])
    elif kind == "three flushes":
        rows = []
        for size in (3, 5, 5):
            suits = [s for s in range(4) if sum(c[1] == s for c in pool) >= size]
            if not suits:
                return None
            suit = rng.choice(suits)
            rows.append(_take(pool, rng.sample([c for c in pool if c[1] == suit], size)))
        return rows
    elif kind == "three straights":
        rows = []
        for size in (3, 5, 5):
            # rank positions 0..13: 0 is the ace played low, 1..13 are 2..A
            runs = [[p - 1 if p else 12 for p in range(low, low + size)] for low in range(15 - size)]
            runs = [run for run in runs if all(by_rank[r] for r in run)]
            if not runs:
                return None
            rows.append(_take(pool, [rng.choice(by_rank[r]) for r in rng.choice(runs)]))
            by_rank = {r: [c for c in pool if c[0] == r] for r in range(13)}
        return rows
    else:
        return None
    rng.shuffle(cards)
    return [cards[:3], cards[3:8], cards[8:]]


def _made(rng: random.Random, pool: list[RefCard], shape: str) -> list[RefCard] | None:
    """Cards from `pool` making a straight flush, four of a kind (with a kicker), a full house
    or three of a kind, or None when the pool cannot."""
    by_rank = [[c for c in pool if c[0] == r] for r in range(13)]
    if shape == "straight flush":
        runs = [[(p - 1 if p else 12, suit) for p in range(low, low + 5)]
                for suit in range(4) for low in range(10)]
        runs = [run for run in runs if all(c in pool for c in run)]
        return rng.choice(runs) if runs else None
    size = {"four of a kind": 4, "full house": 3, "three of a kind": 3}[shape]
    ranks = [r for r in range(13) if len(by_rank[r]) >= size]
    if not ranks:
        return None
    rank = rng.choice(ranks)
    cards = rng.sample(by_rank[rank], size)
    if shape == "four of a kind":
        cards.append(rng.choice([c for c in pool if c[0] != rank]))
    elif shape == "full house":
        pairs = [r for r in range(13) if r != rank and len(by_rank[r]) >= 2]
        if not pairs:
            return None
        cards += rng.sample(by_rank[rng.choice(pairs)], 2)
    return cards


def _royalty_rows(rng: random.Random, pool: list[RefCard]) -> list[list[RefCard]] | None:
    """Rows aiming at CP-7 royalties: back straight flush or four of a kind, middle straight
    flush, four of a kind or full house, front three of a kind (legal or fouled, as it falls)."""
    spare = list(pool)
    rows: list[list[RefCard]] = []
    for shapes, size in ((("straight flush", "four of a kind"), 5),
                         (("straight flush", "four of a kind", "full house"), 5),
                         (("three of a kind",), 3)):
        cards = _made(rng, spare, rng.choice(shapes)) or rng.sample(spare, size)
        rows.insert(0, _take(spare, cards))
    pool[:] = spare
    return rows


def _arrange(rng: random.Random, cards: list[RefCard]) -> list[list[RefCard]]:
    """Rows as dealt, by rank, by rank groups or by suit (back = the last five)."""
    counts = Counter(rank for rank, _ in cards)
    how = rng.choice(["dealt", "rank", "groups", "suit"])
    if how == "rank":
        cards = sorted(cards)
    elif how == "groups":
        cards = sorted(cards, key=lambda c: (counts[c[0]], c[0]))
    elif how == "suit":
        cards = sorted(cards, key=lambda c: (c[1], c[0]))
    return [cards[:3], cards[3:8], cards[8:]]


def cp_request(rng: random.Random, profile: str) -> dict[str, Any]:
    count = rng.randint(2, 4)
    seats = sorted(rng.sample(range(1, 7), count))
    pool = list(TWO_SUITS_AND_HIGH if count == 2 and rng.random() < 0.5 else DECK)
    players = []
    for seat in seats:
        pick = rng.random()
        rows = _natural_cards(rng, pool) if pick < 0.2 else _royalty_rows(rng, pool) if pick < 0.45 else None
        if rows is not None and pick < 0.2 and rng.random() < 0.5:
            # CP-9 (revision 2): a natural is judged on the 13 cards, whatever rows they are in
            rows = _arrange(rng, [c for row in rows for c in row])
        if rows is None:
            rows = _arrange(rng, _take(pool, rng.sample(pool, 13)))
        p: dict[str, Any] = {"seat": seat, "stack": rng.choice([0, 7, 30, 100, 500])}
        p.update(zip(("front", "middle", "back"), map(text, rows)))
        if cp_natural(rows) and rng.random() < 0.8:
            p["natural"] = True
        elif rng.random() < 0.05:  # a short back row: a foul (CP-4)
            p["back"] = p["back"].rsplit(" ", 1)[0]
        players.append(p)
    return {"game": "chinese-poker", "profile": profile, "point_value": rng.choice([1, 5, 20]),
            "scoring": rng.choice(["basic", "mandarin", "super_bonus"]),
            "button": rng.randint(1, 7), "players": players}


@pytest.mark.slow
@FAST
@given(SEEDS, st.sampled_from(["shipped", "any row", "fee"]))
def test_cp_3_to_cp_13_settlement_equals_the_reference(cp_profiles: dict[str, str], seed: int,
                                                       variant: str) -> None:
    req = cp_request(random.Random(seed), cp_profiles[variant])
    out = settle_round(req, LIBRARY)
    fee = 3 if variant == "fee" else 0
    ref = settle_chinese_poker(req, royalty_needs_row_win=variant != "any row", house_fee=fee)
    assert {tuple(p["seats"]): p["points"] for p in out["pairs"]} == ref["pairs"]
    assert [(p["from"], p["to"], p["amount"]) for p in out["payments"]] == ref["payments"]
    for p in out["players"]:
        hand = ref["hands"][p["seat"]]
        assert (p["fouled"], p["natural"]) == (hand["fouled"], hand["natural"]), p
        assert [p["royalties"][row] for row in ("front", "middle", "back")] == hand["royalties"], p
        assert (p["points"], p["net"]) == (ref["points"][p["seat"]], ref["nets"][p["seat"]]), p
    # C-2: the house keeps the fees, min(fee, stack) each; everything else moves between players.
    fees = sum(min(fee, p["stack"]) for p in req["players"])
    assert out["house"]["fee"] == fees
    assert sum(p["net"] for p in out["players"]) == -fees


# -------------------------------------------------------------------------------- Palace Poker

PALACE_NARROW = [c for c in DECK if c[0] in (0, 1, 9, 10, 11, 12)]  # 2 3 J Q K A: pairs and ties


def _side(seat: int, cards: list[RefCard]) -> dict[str, Any]:
    return {"seat": seat, "banner": text(cards[:1]), "palace": text(cards[1:4]), "soldiers": text(cards[4:])}


def _sides(rng: random.Random, count: int) -> Iterator[list[RefCard]]:
    deck = PALACE_NARROW if count * 9 <= len(PALACE_NARROW) and rng.random() < 0.5 else DECK
    pool = list(deck)
    rng.shuffle(pool)
    for _ in range(count):
        size = 4 + rng.randint(0, 5)
        yield pool[:size]
        pool = pool[size:]


@FAST
@given(SEEDS, st.booleans())
def test_pp_9_pp_10_battles_equal_the_reference(seed: int, last_two: bool) -> None:
    rng = random.Random(seed)
    mine, theirs = _sides(rng, 2)
    if rng.random() < 0.3:
        # The attacker's cards with suits swapped in pairs: each side then ignores the image of
        # the other's ignored suit, so the hands tie (PP-10); a changed suit may break the tie.
        swap = rng.choice([(1, 0, 3, 2), (2, 3, 0, 1), (3, 2, 1, 0)])
        mirror = [(rank, swap[suit]) for rank, suit in mine]
        if not set(mirror) & set(mine):
            theirs = mirror
            i = rng.randrange(1, len(theirs))
            free = [(theirs[i][0], t) for t in range(4) if (theirs[i][0], t) not in mine + theirs]
            if free and rng.random() < 0.5:
                theirs[i] = rng.choice(free)
    other_suit = [i for i, c in enumerate(theirs) if c[1] != mine[0][1]]
    assume(other_suit)  # PP-7: the banners differ in suit
    theirs.insert(0, theirs.pop(other_suit[0]))
    seats = rng.sample(range(1, 11), 2)
    attacker, defender = _side(seats[0], mine), _side(seats[1], theirs)
    out = settle_round({"game": "palace-poker", "battle": {"attacker": attacker, "defender": defender,
                                                           "last_two": last_two}}, LIBRARY)
    winner, loser, outcome = palace_battle(attacker, defender, last_two)
    assert (out["winner"], out["loser"]) == (winner, loser)
    assert out.get("outcome", "won") == outcome


@FAST
@given(SEEDS)
def test_pp_16_pp_17_showdowns_equal_the_reference(seed: int) -> None:
    rng = random.Random(seed)
    count = rng.randint(1, 5)
    seats = sorted(rng.sample(range(1, 11), count))
    hands = list(_sides(rng, count))
    if count >= 2 and rng.random() < 0.4:  # a second hand of the same ranks: a tie to split
        swap = rng.choice([(1, 0, 3, 2), (2, 3, 0, 1), (3, 2, 1, 0)])
        mirror = [(rank, swap[suit]) for rank, suit in hands[0]]
        if not set(mirror) & {c for i, hand in enumerate(hands) if i != 1 for c in hand}:
            hands[1] = mirror
    players = [_side(seat, cards) for seat, cards in zip(seats, hands, strict=True)]
    dealer, pot = rng.randint(1, 10), rng.choice([0, 1, 7, 100, rng.randint(0, 10_000)])
    out = settle_round({"game": "palace-poker", "showdown": {"dealer": dealer, "pot": pot,
                                                             "players": players}}, LIBRARY)
    shares = palace_showdown(dealer, pot, players)
    assert {int(seat): amount for seat, amount in out["shares"].items()} == shares
    assert out["winners"] == sorted(shares)
    assert sum(out["shares"].values()) == pot  # C-2: the whole pot and no more

