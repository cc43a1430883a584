"""The house-edge simulator (`rules.simulate`, `dealer-tui simulate`, `paytables compare`).

The vectorised rules are checked hand by hand against the scalar rules (`flush_key`,
`high_card_flush_settlement.settle`, `evaluator.hand_value`, `one_or_five.settle`); moderate
seeded runs must land on the anchors: exact probabilities worked out by hand below, the
published High Card Flush figures, and exact edges counted by `bench/simulate.py exact`.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from math import comb, sqrt
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer_tui.cli import main
from rules.cards import parse_cards
from rules.errors import BadInput
from rules.evaluator import CODES, hand_value
from rules.games.high_card_flush import simulate as hcf
from rules.games.high_card_flush.profile import HighCardFlushProfile, Rake
from rules.games.high_card_flush.rules import flush_key, straight_flush_key
from rules.games.one_or_five import simulate as oof
from rules.games.one_or_five.profile import Exchange, OneOrFiveProfile
from rules.games.one_or_five.rules import Action, BoxPlay, hand_of
from rules.games.one_or_five.rules import settle as settle_boxes_scalar
from rules.profiles.loader import LoadedProfile, ProfileLibrary, shipped_dir
from rules.simulate import Options, simulate
from rules.simulate.common import chunk_rng, chunks, deal
from rules.simulate.report import SimulationReport
from tests.simulate_support import _cards, _vector_and_scalar

ROOT = Path(__file__).resolve().parent.parent
LIB = ProfileLibrary([])
CARD_ROOM = LIB.find("high-card-flush")
CASINO = LIB.find("high-card-flush-casino")
ONE_OR_FIVE = LIB.find("one-or-five")
SEVEN_CARD_HANDS = comb(52, 7)  # 133,784,560


def _hcf(loaded: LoadedProfile) -> HighCardFlushProfile:
    assert isinstance(loaded.profile, HighCardFlushProfile)
    return loaded.profile


def _oof(loaded: LoadedProfile) -> OneOrFiveProfile:
    assert isinstance(loaded.profile, OneOrFiveProfile)
    return loaded.profile


def _within(hits: int, n: int, p: float, z: float = 3.5) -> bool:
    """hits/n is within z standard errors of p (z = 3.5 for checks run many at once)."""
    return abs(hits / n - p) <= z * sqrt(p * (1 - p) / n)


# Dealing and streams ----------------------------------------------------------------------------


def test_c_3_deal_gives_distinct_cards_and_every_card_in_every_position_evenly() -> None:
    cards = deal(chunk_rng(11, 0), 52_000, 14)
    assert all(len(set(row)) == 14 for row in cards.tolist()[:2000])
    # Unbiased: each of the 52 cards lands in each of the 14 positions 1/52 of the time:
    # 52,000 hands x 1/52 = 1,000 per cell, standard error sqrt(1000 x 51/52) = 31.3.
    for position in (0, 6, 13):
        counts = np.bincount(cards[:, position], minlength=52)
        assert counts.min() > 1000 - 5 * 31.3 and counts.max() < 1000 + 5 * 31.3


def test_streams_are_cut_into_fixed_chunks_whatever_the_total() -> None:
    # 150,000 hands in chunks of 65,536: 65,536 + 65,536 + 18,928.
    assert chunks(150_000, 65_536) == [(0, 65_536), (1, 65_536), (2, 18_928)]
    assert (deal(chunk_rng(5, 2), 10, 14) == deal(chunk_rng(5, 2), 10, 14)).all()
    assert not (deal(chunk_rng(5, 2), 10, 14) == deal(chunk_rng(5, 3), 10, 14)).all()


# High Card Flush: the vectorised rules are the scalar rules -------------------------------------


def test_hcf_1_and_hcf_12_vectorised_keys_equal_the_rules_keys() -> None:
    cards = deal(chunk_rng(1, 0), 5000, 7)
    flush, run = hcf.hand_keys(cards)
    for row, f, r in zip(cards.tolist(), flush.tolist(), run.tolist(), strict=True):
        assert f == flush_key(row)
        assert r == straight_flush_key(row)


def test_hcf_6_strategies_raise_within_the_cap() -> None:
    # Flush keys by hand: length << 13 | rank mask (rank bits 2=0 .. A=12).
    t86 = 3 << 13 | 1 << 8 | 1 << 6 | 1 << 4  # 3-card T-8-6: mousseau raises 1x
    t85 = 3 << 13 | 1 << 8 | 1 << 6 | 1 << 3  # 3-card T-8-5: folds
    four = 4 << 13 | 0b1111  # 5-4-3-2 four-card flush: the cap, 1x
    five = 5 << 13 | 0b11111  # the cap is 2x with five cards
    six = 6 << 13 | 0b111111  # and 3x with six
    two = 2 << 13 | 1 << 12 | 1 << 11  # a 2-2-2-1 hand: folds
    keys = np.array([t86, t85, four, five, six, two], dtype=np.int64)
    assert hcf.STRATEGIES["mousseau"][1](keys).tolist() == [1, 0, 1, 2, 3, 0]
    assert hcf.STRATEGIES["never-fold"][1](keys).tolist() == [1, 1, 1, 2, 3, 1]


def test_hcf_8_to_hcf_20_vectorised_settlement_equals_the_rules_settlement() -> None:
    _vector_and_scalar(_hcf(CASINO), 3, 1500, "mousseau", hcf.Stakes(10, 5, 5))
    _vector_and_scalar(_hcf(CARD_ROOM), 4, 1500, "mousseau", hcf.Stakes(10, 5, 5))
    _vector_and_scalar(_hcf(CARD_ROOM), 5, 500, "never-fold", hcf.Stakes(5, 0, 3))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    casino=st.booleans(),
    mode=st.sampled_from(["all", "players", "dp_only"]),
    rake=st.integers(0, 5),
    cap=st.none() | st.integers(1, 3000),
    ante=st.integers(5, 50),
    bonus=st.integers(0, 100),
    strategy=st.sampled_from(sorted(hcf.STRATEGIES)),
)
def test_c_2_simulated_rounds_conserve_chips_and_match_the_rules(
    seed: int, casino: bool, mode: str, rake: int, cap: int | None, ante: int, bonus: int, strategy: str
) -> None:
    base = _hcf(CASINO if casino else CARD_ROOM)
    profile = base.model_copy(update={"bonus_cap": cap, "rake": Rake(mode=mode, amount=0 if casino else rake)})  # type: ignore[arg-type]
    _vector_and_scalar(profile, seed, 60, strategy, hcf.Stakes(ante, bonus, bonus))


# High Card Flush: moderate runs land on the anchors ------------------------------------------------


@pytest.fixture(scope="module")
def hcf_run() -> SimulationReport:
    """500,000 hands of `mousseau`, casino and card room side by side (about a second)."""
    return simulate("high-card-flush", [CASINO, CARD_ROOM], "mousseau", 500_000, 20240601)


def test_hcf_20_casino_house_edge_under_mousseau_matches_the_published_figures(hcf_run: SimulationReport) -> None:
    edge = hcf_run.profiles[0].house_edge
    # Anchors: Wizard of Odds, optimal play 2.6855%, this strategy about 0.06% worse (~2.75%);
    # counted exactly over every pair of hands by `python bench/simulate.py exact`: 2.71138%.
    assert edge.contains(0.0275) and edge.contains(0.0271138)
    assert edge.high - edge.low < 0.011  # 95% interval of 500,000 hands: about +-0.45%
    assert hcf_run.profiles[1].house_edge == edge  # the same main game under both profiles


def test_hcf_7_banker_qualifies_at_the_exact_rate(hcf_run: SimulationReport) -> None:
    figure = hcf_run.profiles[0].figure("banker_qualifies").value
    # docs/rules.md HCF-7: 100,825,036 / 133,784,560 = 0.7536373
    assert figure.contains(100_825_036 / SEVEN_CARD_HANDS)


def test_hcf_1_the_players_longest_flush_has_the_exact_distribution(hcf_run: SimulationReport) -> None:
    exact = {
        7: 4 * comb(13, 7),  # one suit holds all 7: 4 x 1,716 = 6,864
        6: 4 * comb(13, 6) * 39,  # 4 x 1,716 x 39 = 267,696
        5: 4 * comb(13, 5) * comb(39, 2),  # 4 x 1,287 x 741 = 3,814,668
        4: 4 * comb(13, 4) * comb(39, 3),  # 4 x 715 x 9,139 = 26,137,540 (4-3 counts once)
        2: 4 * 13 * comb(13, 2) ** 3,  # 2-2-2-1: 4 x 13 x 78^3 = 24,676,704
    }
    exact[3] = SEVEN_CARD_HANDS - sum(exact.values())  # 133,784,560 - 54,903,472 = 78,881,088
    assert exact[3] == 78_881_088
    report = hcf_run.profiles[0]
    for length, count in exact.items():
        hits = report.figure(f"flush_length_{length}").value.value * hcf_run.hands
        assert _within(round(hits), hcf_run.hands, count / SEVEN_CARD_HANDS), length


def test_hcf_20_casino_flush_bonus_edge_is_the_exact_one(hcf_run: SimulationReport) -> None:
    # Flush paytable 300/100/10/1 on the counts above; everything shorter loses 1:
    # wins 300 x 6,864 + 100 x 267,696 + 10 x 3,814,668 + 26,137,540 = 93,113,020
    # losses 133,784,560 - 30,226,768 = 103,557,792; edge 10,444,772 / 133,784,560 = 7.8072%
    bet = hcf_run.profiles[0].bet("flush")
    assert bet.edge.contains(10_444_772 / SEVEN_CARD_HANDS)
    lines = {line.label: line for line in bet.lines}
    assert lines["6-card flush"].odds == 100
    assert _within(lines["6-card flush"].hits, hcf_run.hands, 267_696 / SEVEN_CARD_HANDS)


def test_hcf_20_casino_straight_flush_bonus_edge_is_the_exact_one(hcf_run: SimulationReport) -> None:
    # 7-card hands by longest straight flush (`bench/simulate.py exact`): 7 cards 32 (8 runs a
    # suit x 4), 6: 1,592, 5: 39,960, 4: 676,196, 3: 8,642,932; the other 124,423,848 lose.
    # Paytable 8000/1000/100/60/7: wins 256,000 + 1,592,000 + 3,996,000 + 40,571,760
    # + 60,500,524 = 106,916,284; edge (124,423,848 - 106,916,284) / 133,784,560 = 13.0864%
    bet = hcf_run.profiles[0].bet("straight_flush")
    assert bet.edge.contains(17_507_564 / SEVEN_CARD_HANDS)


def test_hcf_12_card_room_bonus_bets_are_lost_with_the_fold(hcf_run: SimulationReport) -> None:
    card_room = hcf_run.profiles[1]
    folds = card_room.figure("fold").value.value
    flush_losses = {line.label: line for line in card_room.bet("flush").lines}["loses"].frequency.value
    # Every folded hand loses its Flush bet (HCF-11), and so do hands that raise without winning it.
    assert flush_losses > folds > 0.3
    assert card_room.bet("ante_raise").difference is not None
    assert card_room.bet("ante_raise").difference.value == 0  # the same main game as the casino


# Reproducibility ------------------------------------------------------------------------------------


def _without_timing(report: SimulationReport) -> dict[str, object]:
    return report.to_dict()


def test_seeded_runs_are_reproducible_and_the_seed_matters() -> None:
    a = simulate("high-card-flush", [CASINO], "mousseau", 70_000, 9)
    b = simulate("high-card-flush", [CASINO], "mousseau", 70_000, 9)
    c = simulate("high-card-flush", [CASINO], "mousseau", 70_000, 10)
    assert a.to_dict() == b.to_dict()
    assert a.to_dict()["house_edge"] != c.to_dict()["house_edge"]


@pytest.mark.slow
def test_workers_2_equals_workers_1_for_the_same_seed() -> None:
    hands = 2 * hcf.CHUNK + 1000  # three chunks, the last one short
    one = simulate("high-card-flush", [CASINO, CARD_ROOM], "never-fold", hands, 77, workers=1)
    two = simulate("high-card-flush", [CASINO, CARD_ROOM], "never-fold", hands, 77, workers=2)
    assert one.to_dict() == two.to_dict()
    five_one = simulate("one-or-five", [ONE_OR_FIVE], "basic", hcf.CHUNK + 10, 3, workers=1)
    five_two = simulate("one-or-five", [ONE_OR_FIVE], "basic", hcf.CHUNK + 10, 3, workers=2)
    assert five_one.to_dict() == five_two.to_dict()


# Poker "1 or 5" ------------------------------------------------------------------------------------


def test_c_4_vectorised_five_card_values_equal_the_shared_evaluator() -> None:
    cards = deal(chunk_rng(2, 0), 20_000, 5)
    values = oof.hand_values(cards)
    names = oof.name_indices(values)
    for i, row in enumerate(cards.tolist()):
        assert values[i] == hand_value([CODES[c] for c in row])
        if i < 3000:
            assert oof.HAND_NAMES[names[i]] == hand_of(_cards(cards[i])).name
    # Rare categories the random sample may miss, by hand: royal flush, steel wheel, quads, wheel.
    for text, name in (("Ah Kh Qh Jh Th", "royal flush"), ("5s 4s 3s 2s As", "straight flush"),
                       ("9c 9d 9h 9s 2c", "four of a kind"), ("Ad 2c 3h 4s 5d", "straight"),
                       ("Ac Kd 7h 5s 2d", "ace-king")):
        row = np.array([[c.index for c in parse_cards(text)]], dtype=np.int8)
        value = oof.hand_values(row)
        assert value[0] == hand_value([CODES[c.index] for c in parse_cards(text)])
        assert oof.HAND_NAMES[oof.name_indices(value)[0]] == name


def _one_box(box: str, up: str, stub: str = "2c 3c 4c 5c 6c") -> oof.Plays:
    """One hand: the box's cards, the dealer's upcard (last of five), the stub's top five."""
    dealer = parse_cards(f"Kd Qd Jd 8d {up}")
    rows = [[c.index for c in parse_cards(text)] for text in (box,)]
    box_cards = np.array(rows, dtype=np.int8)
    return oof.play_boxes("basic", _oof(ONE_OR_FIVE), box_cards,
                          np.array([[c.index for c in dealer]], dtype=np.int8),
                          np.array([[c.index for c in parse_cards(stub)]], dtype=np.int8))


@pytest.mark.parametrize(("box", "up", "action", "kept"), [
    ("2s 2h 9d 7c 4h", "9s", oof.CLOSE, "2s 2h 9d 7c 4h"),  # one pair: close
    ("Ah Kc Qd 7s 3h", "9s", oof.CLOSE, "Ah Kc Qd 7s 3h"),  # ace-king-queen: close
    ("Ah Kc Td 7s 3h", "9s", oof.PASS, "Ah Kc Td 7s 3h"),  # ace-king-ten: pass
    ("2h 7h 9h Jh Ks", "9s", oof.EXCHANGE_ONE, "2h 7h 9h Jh 2c"),  # four to a flush: the Ks goes
    ("5c 6d 7h 8s Kd", "9s", oof.EXCHANGE_ONE, "5c 6d 7h 8s 2c"),  # open-ended 5-8: the Kd goes
    ("Ac 2d 3h 4s 9d", "9s", oof.PASS, "Ac 2d 3h 4s 9d"),  # A-2-3-4 is one-ended: no draw
    ("5c 6d 8h 9s Kd", "9s", oof.PASS, "5c 6d 8h 9s Kd"),  # an inside draw is not played
    ("Jc 6d 7h 3s 2d", "2s", oof.EXCHANGE_FIVE, "2c 3c 4c 5c 6c"),  # nothing against a 2 up
    ("Jc 6d 7h 3s 2d", "9s", oof.PASS, "Jc 6d 7h 3s 2d"),  # nothing against a 9 up
])
def test_r_2_r_3_basic_strategy_by_hand_class(box: str, up: str, action: int, kept: str) -> None:
    plays = _one_box(box, up)
    assert plays.first_action[0] == action
    assert " ".join(c.text for c in _cards(plays.cards[0])) == kept


def test_r_3_an_exchange_the_profile_does_not_allow_is_skipped() -> None:
    only_one = _oof(ONE_OR_FIVE).model_copy(update={"exchange": Exchange(counts=[1], fee=1)})
    cards = [[c.index for c in parse_cards(text)] for text in ("Jc 6d 7h 3s 2d", "Kd Qd Jd 8d 2s", "2c 3c 4c 5c 6c")]
    box, dealer, stub = (np.array([row], dtype=np.int8) for row in cards)
    # Nothing against a 2 up exchanges five under the shipped profile; with only 1 allowed: pass.
    assert oof.play_boxes("basic", only_one, box, dealer, stub).first_action[0] == oof.PASS


def test_r_3_after_an_exchange_the_box_closes_only_a_strong_hand() -> None:
    made = _one_box("2h 7h 9h Jh Ks", "9s", stub="Qh 3c 4c 5c 6c")  # draws the flush: closes
    missed = _one_box("2h 7h 9h Jh Ks", "9s", stub="3c 4c 5c 6c 8c")  # draws the 3c: passes
    assert made.closed[0] and made.exchanged[0] == 1
    assert not missed.closed[0] and missed.exchanged[0] == 1


def _check_boxes(profile: OneOrFiveProfile, strategy: str, seed: int, hands: int) -> None:
    cards = deal(chunk_rng(seed, 0), hands, 15)
    box, dealer, stub = cards[:, :5], cards[:, 5:10], cards[:, 10:]
    plays = oof.play_boxes(strategy, profile, box, dealer, stub)
    r = oof.settle_boxes(profile, 10, plays, oof.hand_values(dealer))
    for i in range(hands):
        play = BoxPlay(1, 10, Action.BET if plays.closed[i] else Action.FOLD, _cards(plays.cards[i]),
                       int(plays.exchanged[i]), int(r.premium[i]))
        got = settle_boxes_scalar(profile, _cards(dealer[i]), [play]).boxes[0]
        assert (got.ante.result, got.bet.result, got.exchange.result, got.insurance.result) == (
            r.ante[i], r.bet[i], r.exchange[i], r.insurance[i]), (i, got)


def test_r_5_to_r_9_vectorised_box_settlement_equals_the_rules_settlement() -> None:
    profile = _oof(ONE_OR_FIVE)
    _check_boxes(profile, "basic", 6, 2500)
    _check_boxes(profile, "never-fold", 7, 1500)
    capped = profile.model_copy(update={"max_box_payout": 45})  # a small cap bites often
    _check_boxes(capped, "never-fold", 8, 1500)


def test_r_5_dealer_qualifies_at_the_exact_rate_and_basic_beats_never_fold() -> None:
    basic = simulate("one-or-five", [ONE_OR_FIVE], "basic", 200_000, 31).profiles[0]
    never = simulate("one-or-five", [ONE_OR_FIVE], "never-fold", 200_000, 31).profiles[0]
    # No game: five different ranks, no straight, no flush, not both A and K.
    # Rank sets: C(13,5) 1,287 - 10 straights - 165 holding A and K + 1 (A-K-Q-J-T counted
    # twice) = 1,113; suits: 4^5 - 4 flushes = 1,020; 1,113 x 1,020 = 1,135,260 of 2,598,960.
    # Qualifies: 1,463,700 / 2,598,960 = 0.563186
    assert basic.figure("dealer_qualifies").value.contains(1_463_700 / 2_598_960)
    assert never.figure("closed").value.value == 1.0
    assert basic.house_edge.high < never.house_edge.low  # choosing beats closing blind
    assert 0.0 < basic.house_edge.value < 0.08


# Chinese Poker ------------------------------------------------------------------------------------------


def test_cp_5_suggest_never_fouls_and_points_are_zero_sum() -> None:
    report = simulate("chinese-poker", [LIB.find("chinese-poker")], "suggest", 6, 4,
                      options=Options(players=2)).profiles[0]
    assert report.figure("foul_rate").value.value == 0.0
    points = report.bet("points")
    assert sum(line.hits for line in points.lines) == 12  # 6 deals x 2 players
    assert points.edge.value == 0.0  # every point one player wins, the other pays (CP-5)
    assert sum(line.contribution for line in points.lines) == pytest.approx(0.0)
    assert report.house_edge.value == 0.0  # the shipped profile takes no house fee
    assert 0.0 <= report.figure("stakes_cut_rate").value.value <= 1.0  # CP-13 on the nets


# Bad requests -----------------------------------------------------------------------------------------


def test_bad_requests_raise_one_bad_input_naming_the_option() -> None:
    cases = [
        (("high-card-flush", [CASINO], "always-raise", 10, 1, {}), "strategy"),
        (("high-card-flush", [ONE_OR_FIVE], None, 10, 1, {}), "profile"),
        (("high-card-flush", [CASINO], None, 0, 1, {}), "hands"),
        (("high-card-flush", [CASINO], None, 10, -1, {}), "seed"),
        (("high-card-flush", [CASINO], None, 10, 1, {"workers": 0}), "workers"),
        (("high-card-flush", [CASINO], None, 10, 1, {"options": Options(ante=1)}), "ante"),
        (("high-card-flush", [CASINO], None, 10, 1, {"options": Options(players=3)}), "players"),
        (("one-or-five", [ONE_OR_FIVE], None, 10, 1, {"options": Options(bonus=5)}), "bonus"),
        (("palace-poker", [LIB.find("palace-poker")], None, 10, 1, {}), "game"),
    ]
    for (game, profiles, strategy, hands, seed, extra), field in cases:
        with pytest.raises(BadInput) as caught:
            simulate(game, profiles, strategy, hands, seed, **extra)  # type: ignore[arg-type]
        assert caught.value.field == field, (field, caught.value)


# The command line --------------------------------------------------------------------------------------


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as exc:
            status = int(exc.code or 0)
    return status, out.getvalue(), err.getvalue()


def test_simulate_json_last_line_carries_the_contract_keys() -> None:
    status, out, err = run(["simulate", "high-card-flush", "--profile", "high-card-flush-casino",
                            "--strategy", "mousseau", "--hands", "20000", "--seed", "5", "--json"])
    assert status == 0
    line = json.loads(out.strip().splitlines()[-1])
    for key in ("game", "profile", "strategy", "hands", "house_edge", "ci95", "bets"):
        assert key in line
    assert (line["game"], line["profile"], line["strategy"], line["hands"]) == (
        "high-card-flush", "high-card-flush-casino", "mousseau", 20000)
    assert -0.1 < line["house_edge"] < 0.15  # a fraction of the Ante, not a percentage
    assert line["ci95"][0] < line["house_edge"] < line["ci95"][1]
    assert set(line["bets"]) == {"ante_raise", "flush", "straight_flush"}
    assert "20,000/20,000" in err  # the progress bar went to standard error


def test_simulate_several_profiles_side_by_side() -> None:
    status, out, _ = run(["simulate", "high-card-flush", "--profile", "high-card-flush-casino",
                          "--profile", "high-card-flush", "--hands", "5000", "--json", "--no-progress"])
    line = json.loads(out)
    assert status == 0 and [p["profile"] for p in line["profiles"]] == ["high-card-flush-casino", "high-card-flush"]
    status, out, _ = run(["simulate", "high-card-flush", "--profile", "high-card-flush-casino",
                          "--profile", "high-card-flush", "--hands", "5000", "--no-progress"])
    assert status == 0 and "high-card-flush-casino" in out and "player against the DP" in out


@pytest.mark.parametrize(("argv", "start"), [
    (["simulate", "high-card-flush", "--strategy", "always-raise"], "error: --strategy: unknown strategy 'always-raise'"),
    (["simulate", "high-card-flush", "--profile", "no-such-table"], "error: --profile: unknown profile 'no-such-table'"),
    (["simulate", "high-card-flush", "--profile", "one-or-five"], "error: --profile: profile 'one-or-five' is for one-or-five"),
    (["simulate", "baccarat"], "error: game: unknown game 'baccarat'"),
    (["simulate", "one-or-five", "--hands", "0"], "error: --hands: must be 1 to"),
    (["simulate", "chinese-poker", "--players", "5"], "error: --players: 5 players"),
])
def test_simulate_bad_input_exits_2_with_one_line(argv: list[str], start: str) -> None:
    status, out, err = run(argv)
    assert (status, out) == (2, "")
    assert err.startswith(start) and err.count("\n") == 1, err


def test_simulate_help_lists_every_strategy() -> None:
    from dealer_tui.commands.simulate import STRATEGY_HELP
    from rules.simulate import simulated_games, simulator

    listed = dict(part.split(": ") for part in STRATEGY_HELP.split("; "))
    assert {game: list(simulator(game).strategies) for game in simulated_games()} == {
        game: names.split(", ") for game, names in listed.items()}


def test_card_room_rake_is_reported_per_hand(tmp_path: Path) -> None:
    text = (shipped_dir() / "high-card-flush.yaml").read_text()
    raked = tmp_path / "raked.yaml"
    raked.write_text(text.replace("  amount: 0", "  amount: 2"))
    status, out, _ = run(["simulate", "high-card-flush", "--profile", str(raked), "--profile", "high-card-flush",
                          "--hands", "3000", "--ante", "10", "--json", "--no-progress"])
    assert status == 0
    raked_fig, plain_fig = (p["figures"] for p in json.loads(out)["profiles"])
    # Mode `all`, 2 chips: the player pays 2 a hand and the DP 2 a round; on a 10-chip Ante the
    # player's result after rake is 2 / 10 = 0.2 Antes lower than before it.
    assert (raked_fig["rake_player"]["value"], raked_fig["rake_dp"]["value"]) == (2, 2)
    assert (plain_fig["rake_player"]["value"], plain_fig["rake_dp"]["value"]) == (0, 0)
    drop = raked_fig["player_edge_vs_dp"]["value"] - raked_fig["player_after_rake"]["value"]
    assert drop == pytest.approx(0.2)


def test_paytables_compare_shows_edges_and_line_differences() -> None:
    status, out, _ = run(["paytables", "compare", "high-card-flush", "high-card-flush-casino",
                          "--hands", "20000", "--json", "--no-progress"])
    assert status == 0
    line = json.loads(out)
    changed = {(d["section"], d["line"]): (d["a"], d["b"]) for d in line["posting_differences"]}
    # HCF-14 against HCF-20: the 4-card Flush line pays 2 to 1 in the card room, 1 to 1 in a casino.
    assert changed[("Flush bet", "4-card flush")] == ("2 to 1", "1 to 1")
    assert ("Flush bet", "5-card flush") not in changed  # 10 to 1 in both
    assert line["bets"]["ante_raise"]["difference"] == 0  # the main game does not change
    assert line["bets"]["straight_flush"]["difference_ci95"] is not None
    status, out, _ = run(["paytables", "compare", "high-card-flush", "one-or-five", "--hands", "10"])
    assert status == 2 and out == ""


@pytest.mark.slow
def test_design_simulate_and_compare_never_import_textual() -> None:
    code = (
        "import io, sys, contextlib\n"
        "from dealer_tui.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
        "    assert main(['simulate', 'high-card-flush', '--hands', '2000', '--json']) == 0\n"
        "    assert main(['simulate', 'one-or-five', '--hands', '2000']) == 0\n"
        "    assert main(['paytables', 'compare', 'high-card-flush', 'high-card-flush-casino', '--hands', '2000']) == 0\n"
        "import rules.games.chinese_poker.simulate\n"
        "import json\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    loaded = {m.split(".")[0] for m in json.loads(done.stdout.strip().splitlines()[-1])}
    assert "rules" in loaded and "numpy" in loaded  # the probe really simulated
    assert "textual" not in loaded
    rules_only = subprocess.run(
        [sys.executable, "-c", ("import rules.games.high_card_flush.simulate, rules.games.one_or_five.simulate, "
                                "rules.games.chinese_poker.simulate, sys, json; print(json.dumps(sorted(sys.modules)))")],
        capture_output=True, text=True, check=True, cwd=ROOT)
    top = {m.split(".")[0] for m in json.loads(rules_only.stdout)}
    assert not top & {"textual", "sqlite3", "_sqlite3", "dealer_tui", "rich"}
