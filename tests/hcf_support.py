"""High Card Flush hands and tables for the round tests: three seats' seven-card hands, a table
dealt from a scripted deck, and a live table whose cards the dealer keys at the reveal."""

from __future__ import annotations

from pathlib import Path

from dealer_tui.games import GAMES
from dealer_tui.games.high_card_flush.live_round import HighCardFlushKeyedRound
from dealer_tui.games.high_card_flush.steps import Ante, Fold, Raise
from dealer_tui.ledger import SqliteLedger
from dealer_tui.rounds.cards import KeyedEntry, ScriptedDeck
from dealer_tui.rounds.steps import Deal, Reveal, SendToFloor
from dealer_tui.rounds.table import Table
from dealer_tui.staff import Approval
from rules.cards import parse_cards
from rules.profiles.loader import ProfileLibrary, shipped_dir
from tests.staff_support import cash_id, staffed_table

PROFILE = ProfileLibrary().find("high-card-flush")   # card room: DP must hold 1000 (dp_min_bank)
# Dealt clockwise from the button's left (HCF-5): seat 2, seat 3, then the DP (seat 1).
SEAT2 = "Ah Kh Qh Jh 9h 2c 3d"   # 5-card heart flush A-K-Q-J-9; straight flush A-K-Q-J (4 cards)
SEAT3 = "Kc 9c 4c 2s 5d 7h Jd"   # 3-card club flush K-9-4
BANKER = "As 8s 3s 6d Qd 4d 5c"  # two 3-card flushes: A-8-3 plays over Q-6-4 (HCF-2); qualifies (HCF-7)


def hcf_table(tmp_path: Path) -> Table:
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    table = staffed_table(ledger, "U1", PROFILE, ScriptedDeck([parse_cards(f"{SEAT2} {SEAT3} {BANKER}")]), seats=7)
    for seat, name in enumerate(("Ann", "Bob", "Cy"), start=1):
        table.seat_player(seat, name, 5000)
    return table


def keyed(cards: dict[str, str]) -> dict[str, tuple]:
    return {label: parse_cards(text) for label, text in cards.items()}


def live_table(tmp_path: Path, profile=PROFILE) -> Table:
    table = staffed_table(SqliteLedger(tmp_path / "ledger.sqlite"), "Live 1", profile, KeyedEntry(), seats=7)
    for seat, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")):
        table.seat_player(seat, name, 5000 if seat == 1 else 1000)
    return table


def acted(table: Table, raise2: int, raise3: int, **bonus: int) -> HighCardFlushKeyedRound:
    rnd = table.start_round()
    assert isinstance(rnd, HighCardFlushKeyedRound)
    table.act(Ante(seat=2, amount=10, flush=bonus.get("flush", 5), straight_flush=bonus.get("sf", 5)))
    table.act(Ante(seat=3, amount=10))
    table.act(Deal())
    table.act(Raise(seat=2, amount=raise2) if raise2 else Fold(seat=2))
    table.act(Raise(seat=3, amount=raise3) if raise3 else Fold(seat=3))
    return rnd


def big_win(table: Table) -> None:
    """The round started at `table` (seats 2 and 3 dealt SEAT2 and SEAT3, the DP BANKER) played to
    its payout: seat 2 antes 500 with 100 on each bonus and raises 1000; seat 3 antes 10 and folds.
    Seat 2 wins 500 + 1000 + 100 x 10 + 100 x 60 = 8500 (HCF-9, HCF-10, HCF-12)."""
    table.act(Ante(seat=2, amount=500, flush=100, straight_flush=100))
    table.act(Ante(seat=3, amount=10))
    table.act(Deal())
    table.act(Raise(seat=2, amount=1000))
    table.act(Fold(seat=3))
    table.act(Reveal())


def big_payout_table(ledger: SqliteLedger, dealer: Approval | None = None) -> Table:
    """A round of the card room's profile with Ann (20,000, the Designated Player), Bob (5,000) and
    Cy (1,000) seated, dealt by `dealer` (None: the test staff's dealer), round 1 started; its cards
    make `big_win` seat 2's 8,500."""
    from tests.staff_support import staffed

    table = Table.create(ledger, "H1", GAMES.find(PROFILE.game), PROFILE, ScriptedDeck([parse_cards(f"{SEAT2} {SEAT3} {BANKER}")]), seats=7)
    if dealer is None:
        staffed(ledger).deal(table)
    else:
        table.sign_in_dealer(dealer)
    for seat, (name, stack) in enumerate(zip(("Ann", "Bob", "Cy"), (20000, 5000, 1000), strict=True), start=1):
        table.seat_player(seat, name, stack, document=cash_id(seat, stack))
    table.start_round()
    return table


def sent_to_floor(ledger: SqliteLedger, name: str = "H1") -> Table:
    """The card room's table `name` as a casino sets it up (its profile approved, the test dealer
    on duty), Ann (20,000, the DP), Bob (5,000) and Cy (1,000) seated, round 1 played to `big_win`
    (seat 2 wins 8,500, over the profile's 5,000 threshold) and sent to the floor."""
    table = staffed_table(ledger, name, PROFILE, ScriptedDeck([parse_cards(f"{SEAT2} {SEAT3} {BANKER}")]), seats=7)
    for seat, (player, stack) in enumerate((("Ann", 20000), ("Bob", 5000), ("Cy", 1000)), start=1):
        table.seat_player(seat, player, stack, document=cash_id(seat, stack))
    table.start_round()
    big_win(table)
    table.act(SendToFloor())
    return table


def new_table(tmp_path: Path, stacks: tuple[int, int, int] = (5000, 1000, 1000)) -> Table:
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    table = staffed_table(ledger, "H1", PROFILE, ScriptedDeck([parse_cards(f"{SEAT2} {SEAT3} {BANKER}")]), seats=7)
    for seat, (name, stack) in enumerate(zip(("Ann", "Bob", "Cy"), stacks, strict=True), start=1):
        table.seat_player(seat, name, stack, document=cash_id(seat, stack))
    return table


def low_threshold_profiles(tmp_path: Path) -> Path:
    own = tmp_path / "profiles"
    own.mkdir(exist_ok=True)
    text = (shipped_dir() / "high-card-flush-casino.yaml").read_text().replace("sign_off_threshold: 5000",
                                                                               "sign_off_threshold: 1")
    (own / "casino-low.yaml").write_text(text)
    return own
