"""The brief High Card Flush settler (`settle --jsonl` without `--explain`) against the full one:
the same JSON line, byte for byte, for random rounds good and bad; the chips-only settlement
against the readable one on random rounds and terms, and on rounds worked out by hand; the
command's lines and its JSON decoding.
"""

from __future__ import annotations

import copy
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.cards import parse_cards
from rules.errors import BadInput
from rules.games.high_card_flush.chips import Odds, settle_designated_player, settle_house
from rules.games.high_card_flush.profile import HighCardFlushProfile
from rules.games.high_card_flush.rules import flush_key, straight_flush_key
from rules.games.high_card_flush.settle_brief import settle_brief
from rules.games.high_card_flush.settlement import BankerHand, PlayerHand, Terms, settle
from rules.profiles.loader import shipped_dir
from rules.settle import encode, settle_json, settle_round
from tests.settle_support import DP_AK9, EXAMPLE_IN, LIB, LOSER, ROYAL, assert_same_line
from tests.strategies import rounds

# Random rounds -----------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(rounds())
def test_brief_line_equals_the_full_settlers_on_valid_rounds(req: dict[str, Any]) -> None:
    assert settle_brief(copy.deepcopy(req), LIB) is not None  # the brief path settles it
    assert_same_line(req)


MIRROR = str.maketrans("shdc", "dcsh")


@st.composite
def crowded_rounds(draw: st.DrawFn) -> dict[str, Any]:
    """Rounds dealt from 6 or 7 neighbouring ranks (the ace low or high) to at most 2 players,
    the first player's hand sometimes the banker's in other suits, or both holding the same
    ranks in two suits: equal flushes and runs in one hand (HCF-2), player and banker tied
    (HCF-3, HCF-12), short stacks (HCF-16) and bonus caps (HCF-14) come up often."""
    width = draw(st.sampled_from([6, 7]))
    low = draw(st.integers(-1, 13 - width))  # -1: the low ace, then 2, 3, ...
    ranks = ["23456789TJQKA"[12 if r < 0 else r] for r in range(low, low + width)]
    shape = draw(st.sampled_from(["dealt", "mirrored", "twins"]))
    if shape == "dealt":
        deck = draw(st.permutations([r + s for r in ranks for s in "shdc"]))
    else:
        if shape == "mirrored":  # the banker in spades and hearts, the player the same in diamonds and clubs
            banker = draw(st.permutations([r + s for r in ranks for s in "sh"]))[:7]
        else:  # three ranks in two suits each, and one more card
            start = draw(st.integers(0, width - 4))
            banker = [r + s for r in ranks[start:start + 3] for s in "sh"] + [ranks[start + 3] + "d"]
        first = [card.translate(MIRROR) for card in banker]
        rest = draw(st.permutations([r + s for r in ranks for s in "shdc" if r + s not in banker + first]))
        deck = banker + first + rest
    casino = draw(st.booleans())
    seats = draw(st.integers(3, 7))
    banker_seat = draw(st.integers(1, seats))
    free = [s for s in range(1, seats + 1) if casino or s != banker_seat]
    players = []
    for k, seat in enumerate(draw(st.lists(st.sampled_from(free), min_size=1, max_size=2, unique=True)), start=1):
        cards = deck[7 * k:7 * k + 7]
        ante = draw(st.sampled_from([5, 10, 25]))
        counts = [sum(card[1] == suit for card in cards) for suit in "shdc"]
        cap = ante * (1 if max(counts) <= 4 else 2 if max(counts) == 5 else 3)
        raised = draw(st.sampled_from([0, ante, cap]))
        players.append({"seat": seat, "ante": ante, "raise": raised, "flush": draw(st.sampled_from([0, 5, 100])),
                        "straight_flush": draw(st.sampled_from([0, 1, 50])), "cards": " ".join(cards)})
    req: dict[str, Any] = {"game": "high-card-flush", "seats": seats, "players": players}
    banker_cards = " ".join(deck[:7])
    if casino:
        req |= {"profile": "high-card-flush-casino", "banker": {"cards": banker_cards}}
    else:
        req["banker"] = {"seat": banker_seat, "stack": draw(st.sampled_from([0, 20, 100, 1000, 100000])),
                         "cards": banker_cards}
    if draw(st.booleans()):
        req["bonus_cap"] = draw(st.sampled_from([None, 1, 100, 1000]))
    if draw(st.booleans()):
        req["round_bonus_cap"] = draw(st.sampled_from([None, 1, 50, 100, 1000]))
    return req


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(crowded_rounds())
def test_brief_line_equals_the_full_settlers_on_crowded_rounds(req: dict[str, Any]) -> None:
    assert settle_brief(copy.deepcopy(req), LIB) is not None
    assert_same_line(req)


CARD_SPELLINGS = {"A": "a", "T": "10", "K": "k", "s": "♠", "h": "H", "d": "♦", "c": "C"}
ODD_VALUES = [None, True, 0, -1, 2.5, "5", [], {}, 10**12 + 1, 8, ""]


@st.composite
def altered_rounds(draw: st.DrawFn) -> dict[str, Any]:
    """A valid round with one thing changed: a bad or unusual key, type, amount, seat, card or
    spelling, a profile or rake given otherwise; some settle, some are bad input."""
    req = copy.deepcopy(draw(rounds()))
    players = req["players"]
    i = draw(st.integers(0, len(players) - 1))
    player = players[i]
    kind = draw(st.integers(0, 11))
    if kind == 0:
        key = draw(st.sampled_from(["seats", "bonus_cap", "round_bonus_cap", "profile", "rake", "tip"]))
        req[key] = draw(st.sampled_from(ODD_VALUES))
    elif kind == 1:
        player[draw(st.sampled_from(["seat", "ante", "raise", "flush", "straight_flush", "cards", "bet"]))] = \
            draw(st.sampled_from(ODD_VALUES))
    elif kind == 2:
        del player[draw(st.sampled_from(sorted(player)))]
    elif kind == 3:
        req["banker"][draw(st.sampled_from(["seat", "stack", "cards", "tip"]))] = draw(st.sampled_from(ODD_VALUES))
    elif kind == 4 and "cards" in player:  # C-1 spellings: the full settler reads them
        player["cards"] = "".join(CARD_SPELLINGS.get(ch, ch) if draw(st.booleans()) else ch for ch in player["cards"])
    elif kind == 5 and "cards" in player:  # commas, a card from another hand, a card too many or too few
        tokens = player["cards"].split()
        change = draw(st.integers(0, 3))
        if change == 0:
            player["cards"] = ",".join(tokens)
        elif change == 1:
            tokens[0] = req["banker"]["cards"].split()[draw(st.integers(0, 6))]
        elif change == 2:
            tokens.pop()
        else:
            tokens.append(draw(st.sampled_from(["2s", "Xx", "1h", "Ahh"])))
        player["cards"] = " ".join(tokens) if change else player["cards"]
    elif kind == 6:
        player["raise"] = player["ante"] * draw(st.sampled_from([0, 1, 2, 3])) + draw(st.sampled_from([-1, 0, 1]))
    elif kind == 7:
        player["seat"] = draw(st.integers(-1, 8))
    elif kind == 8:
        req["seats"] = draw(st.integers(0, 8))
    elif kind == 9:
        req["profile"] = draw(st.sampled_from(
            ["high-card-flush", "high-card-flush-casino", "one-or-five", "no-such-table",
             str(shipped_dir() / "high-card-flush.yaml")]))
    elif kind == 10:
        req["rake"] = draw(st.sampled_from(
            [None, {"mode": "dp_only", "amount": 3}, {"mode": "all"}, {"mode": "some", "amount": 1}, []]))
    else:
        amount = draw(st.sampled_from([1, 4, 5, 100, 101, 500, 501]))
        player[draw(st.sampled_from(["ante", "flush", "straight_flush"]))] = amount
    return req


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(altered_rounds())
def test_brief_line_or_error_equals_the_full_settlers_on_altered_rounds(req: dict[str, Any]) -> None:
    assert_same_line(req)


@pytest.mark.parametrize(
    "req",
    [
        EXAMPLE_IN,
        {**EXAMPLE_IN, "players": [{"seat": 1, "ante": 10, "raise": 20, "cards": "AH kh qH jh 10h 3♣ 4s"}]},
        {**EXAMPLE_IN, "banker": {"seat": 4, "stack": 1000, "cards": None},
         "players": [{"seat": 2, "ante": 10, "raise": 0}]},
        {**EXAMPLE_IN, "profile": None},
        {**EXAMPLE_IN, "rake": None},
        {**EXAMPLE_IN, "bonus_cap": None},
        {**EXAMPLE_IN, "bonus_cap": 60},
        {**EXAMPLE_IN, "round_bonus_cap": None},
        {**EXAMPLE_IN, "round_bonus_cap": 60},
        {**EXAMPLE_IN, "round_bonus_cap": 0},
        {**EXAMPLE_IN, "round_bonus_cap": "60"},
        {"game": "high-card-flush", "profile": "high-card-flush-casino", "banker": {"cards": DP_AK9},
         "players": [{"seat": 2, "ante": 10, "raise": 0, "flush": 5, "cards": "8d 7d 6d Td Jd Kc 2c"},
                     {"seat": 1, "ante": 10, "raise": 10, "cards": LOSER}]},
        {"game": "high-card-flush", "profile": "high-card-flush-casino", "banker": {"cards": DP_AK9},
         "players": [{"seat": 1, "ante": 10, "raise": 0}]},
    ],
)
def test_brief_line_equals_the_full_settlers_on_the_contract_examples(req: dict[str, Any]) -> None:
    assert_same_line(req)


def test_a_round_the_brief_path_leaves_to_the_full_settler_is_still_settled() -> None:
    # lower-case and `10` spellings are C-1 cards, read by the full settler's parser only
    req = {**EXAMPLE_IN, "players": [{"seat": 1, "ante": 10, "raise": 20, "cards": "ah kh qh jh 10h 3c 4s"}]}
    assert settle_brief(copy.deepcopy(req), LIB) is None
    assert json.loads(settle_json(req, LIB, explain=False))["players"][0]["net"] == 10 + 20


def test_settle_json_with_explanations_is_the_encoded_round() -> None:
    assert settle_json(copy.deepcopy(EXAMPLE_IN), LIB) == encode(settle_round(copy.deepcopy(EXAMPLE_IN), LIB))


# Chips only against the readable settlement -----------------------------------------------


def _profile(name: str) -> HighCardFlushProfile:
    profile = LIB.find(name).profile
    assert isinstance(profile, HighCardFlushProfile)
    return profile


def _odds(name: str) -> Odds:
    return Odds.of(_profile(name))


def _keys(text: str) -> tuple[int, int]:
    indices = [card_index(token) for token in text.split()]
    return flush_key(indices), straight_flush_key(indices)


def card_index(token: str) -> int:
    return "23456789TJQKA".index(token[0]) * 4 + "shdc".index(token[1])


CAPS = st.none() | st.sampled_from([1, 50, 100, 1000]) | st.integers(1, 5000)
TERMS = st.builds(Terms, st.sampled_from(["all", "players", "dp_only"]), st.integers(0, 20), CAPS, CAPS)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(rounds() | crowded_rounds(), TERMS)
def test_hcf_8_to_hcf_20_chips_equal_the_readable_settlement(req: dict[str, Any], terms: Terms) -> None:
    # Every bet's result, the rake, the dead hands, the order, the banker's net and rake and the
    # house's rake: the same from both, under any rake and caps (the request's own are left aside).
    profile = _profile(req.get("profile", "high-card-flush"))
    banker, players = req["banker"], req["players"]

    def keys(p: dict[str, Any]) -> tuple[int, int]:
        return _keys(p["cards"]) if "cards" in p else (-1, -1)

    readable = settle(
        profile, req["seats"], BankerHand(parse_cards(banker["cards"]), banker.get("seat"), banker.get("stack")),
        [PlayerHand(p["seat"], p["ante"], p["raise"], p.get("flush", 0), p.get("straight_flush", 0),
                    parse_cards(p["cards"]) if "cards" in p else None) for p in players],
        terms,
    )
    hands = [(p["seat"], p["ante"], p["raise"], p.get("flush", 0), p.get("straight_flush", 0), *keys(p)) for p in players]
    if profile.banker == "house":
        chips = settle_house(_keys(banker["cards"])[0], hands, Odds.of(profile), terms)
    else:
        dp = (banker["seat"], banker["stack"], *_keys(banker["cards"]))
        chips = settle_designated_player(req["seats"], dp, hands, Odds.of(profile), terms)
    assert chips.hands == [(p.dead, p.ante.result, p.raise_bet.result, p.flush.result, p.straight_flush.result,
                            p.rake) for p in readable.players]
    assert (chips.order, chips.banker_rake, chips.banker_net, chips.house_rake) == (
        readable.order, readable.banker.rake, readable.banker.net, readable.house_rake)


# Chips only, worked out by hand ------------------------------------------------------------


def test_hcf_16_a_win_above_the_dp_money_is_cut_from_the_straight_flush_first() -> None:
    # Royal vs the DP's A-K-9: Ante +10, Raise +20, Flush 5 x 10 = 50, Straight Flush 5 x 100 =
    # 500: 580 against the DP's 100. Cut 480 from the Straight Flush: 500 - 480 = 20; 10 + 20 +
    # 50 + 20 = 100. The DP ends with 0: net -100.
    royal, dp = _keys(ROYAL), _keys(DP_AK9)
    chips = settle_designated_player(7, (4, 100, *dp), [(1, 10, 20, 5, 5, *royal)], _odds("high-card-flush"), Terms())
    assert chips.hands == [(False, 10, 20, 50, 20, 0)]
    assert (chips.order, chips.banker_net, chips.banker_rake, chips.house_rake) == ((1,), -100, 0, 0)


def test_hcf_16_a_hand_with_more_in_play_than_the_dp_holds_is_dead_and_pays_no_rake() -> None:
    # 40 in play against 30: dead, every bet returned, no rake for the hand. The DP pays 5 rake
    # (all mode): net 30 - 30 - 5 = -5, the house takes 5.
    royal, dp = _keys(ROYAL), _keys(DP_AK9)
    chips = settle_designated_player(7, (4, 30, *dp), [(1, 10, 20, 5, 5, *royal)], _odds("high-card-flush"),
                                     Terms("all", 5))
    assert chips.hands == [(True, 0, 0, 0, 0, 0)]
    assert (chips.banker_net, chips.banker_rake, chips.house_rake) == (-5, 5, 5)


def test_hcf_11_hcf_10_folds_lose_every_bet_and_are_settled_first() -> None:
    # Seat 2 folds with 5 on each bonus: -10, 0, -5, -5, rake 1. Seat 3 raises Q-T-8 (loses to
    # A-K-9): -10, -10. DP seat 4 of 7: order 3, 2 by HCF-10, folds first: 2, 3. DP: 1000 + 20 +
    # 20 = 1040 less 1 rake: net 39; the house 1 + 1 + 1 = 3.
    loser, dp = _keys(LOSER), _keys(DP_AK9)
    hands = [(3, 10, 10, 0, 0, *loser), (2, 10, 0, 5, 5, -1, -1)]
    chips = settle_designated_player(7, (4, 1000, *dp), hands, _odds("high-card-flush"), Terms("all", 1))
    assert chips.hands == [(False, -10, -10, 0, 0, 1), (False, -10, 0, -5, -5, 1)]
    assert (chips.order, chips.banker_net, chips.banker_rake, chips.house_rake) == ((2, 3), 39, 1, 3)


def test_hcf_14_hcf_20_casino_bonus_cap_cuts_the_straight_flush_first() -> None:
    # Casino: seat 2 folds J-T-8-7-6 of diamonds holding the run 8-7-6: Flush 5 x 10 = 50,
    # Straight Flush 5 x 7 = 35, 85 in all; cap 60 takes 25 off the Straight Flush: 10. Ante -10.
    # Net 50; the house -50.
    hand = _keys("8d 7d 6d Td Jd Kc 2c")
    chips = settle_house(_keys(DP_AK9)[0], [(2, 10, 0, 5, 5, *hand)], _odds("high-card-flush-casino"),
                         Terms(bonus_cap=60))
    assert chips.hands == [(False, -10, 0, 50, 10, 0)]
    assert (chips.order, chips.banker_net, chips.house_rake) == ((2,), -50, 0)


# The command -------------------------------------------------------------------------------


def test_cli_jsonl_lines_equal_the_encoded_rounds_with_and_without_explanations(tmp_path: Path) -> None:
    lowercase = {**EXAMPLE_IN, "players": [{"seat": 1, "ante": 10, "raise": 20, "cards": ROYAL.lower()}]}
    bad = {**EXAMPLE_IN, "players": [{"seat": 1, "ante": 10, "raise": 25, "cards": ROYAL}]}
    path = tmp_path / "rounds.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in (EXAMPLE_IN, lowercase, bad)) + "\n\n", encoding="utf-8")
    for explain in (False, True):
        done = subprocess.run(["dealer-tui", "settle", "--jsonl", str(path), *(["--explain"] if explain else [])],
                              capture_output=True, text=True, timeout=60, check=False)
        expected = [encode(settle_round(copy.deepcopy(r), LIB, explain=explain)) for r in (EXAMPLE_IN, lowercase)]
        with pytest.raises(BadInput) as info:
            settle_round(copy.deepcopy(bad), LIB)
        expected.append(encode({"line": 3, "error": str(info.value)}))
        assert (done.returncode, done.stdout, done.stderr) == (1, "\n".join(expected) + "\n", "")


def test_cli_decode_refuses_a_byte_order_mark_as_json_loads_does() -> None:
    from dealer_tui.commands.settle import decode

    with pytest.raises(BadInput) as info:
        decode("\ufeff{}")
    assert str(info.value) == "input: not valid JSON at line 1, column 1: Unexpected UTF-8 BOM (decode using utf-8-sig)"
    with pytest.raises(BadInput, match="NaN is not a number"):
        decode('{"seats": NaN}')
