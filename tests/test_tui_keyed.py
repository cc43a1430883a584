"""Live tables driven by key presses: the dealer keys the physical cards (typos, a card keyed in
two hands, a correction, an over-cap raise), and the ledger's settlement is the rules' settlement
of the keyed cards."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from dealer_tui.games.chinese_poker.live_round import ChinesePokerKeyedRound
from dealer_tui.games.high_card_flush.live_round import HighCardFlushKeyedRound
from dealer_tui.games.one_or_five.live_round import OneOrFiveKeyedRound
from dealer_tui.rounds.base import Phase
from dealer_tui.screens.card_entry_modal import CardEntryModal, read_line
from dealer_tui.screens.round_screen import RoundScreen
from rules.cards import parse_cards
from rules.games.high_card_flush import settlement as hcf_settle
from tests.tui_support import on_top, seated_app

SIZE = (120, 36)


async def key_in(pilot: Pilot, text: str, *, enter: bool = True) -> None:
    """Type `text` as the dealer would, then Enter."""
    await pilot.press(*("space" if ch == " " else ch for ch in text))
    if enter:
        await pilot.press("enter")


async def erase(pilot: Pilot, count: int) -> None:
    await pilot.press(*(["backspace"] * count))


def entry_error(app) -> str:  # type: ignore[no-untyped-def]
    screen = on_top(app)
    assert isinstance(screen, CardEntryModal)
    return str(screen.query_one("#entry-error").render())


def test_a_keyed_line_names_the_unknown_card_the_repeat_and_the_count() -> None:
    taken = {parse_cards("Kd")[0]: "the dealer's up card"}
    assert read_line("ah 10h q♠", 3, taken).problem is None          # any case, 10, suit symbols
    assert read_line("ah 10h q♠", 3, taken).cards == parse_cards("Ah Th Qs")
    assert read_line("ah 1h", 2, taken).problem == "bad card '1h': unknown rank '1' (use 2-9, T or 10, J, Q, K, A)"
    assert read_line("ah kd", 2, taken).problem == "Kd is already keyed (the dealer's up card)"
    assert read_line("ah ah", 2, taken).problem == "Ah is already keyed (this line)"
    assert read_line("ah", 2, taken).problem == "1 of 2 cards"
    assert read_line("ah 2c 3c", 2, taken).problem == "3 cards: 2 needed"


async def test_hcf_live_round_keyed_with_a_typo_a_duplicate_and_an_over_cap_raise(tmp_path: Path) -> None:
    app = seated_app(tmp_path, "high-card-flush", [(1, "Ann", 5000), (2, "Bob", 1000), (3, "Cy", 1000)], keyed=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "y", "2", "a", "enter", "3", "a", "enter", "d")
        rnd = app.table.round  # type: ignore[union-attr]
        assert isinstance(rnd, HighCardFlushKeyedRound) and rnd.phase is Phase.ACT
        await pilot.press("r", "1", "5", "enter")  # seat 2 declares 15 (3 x 5), taken as declared
        await pilot.press("f")                   # seat 3 folds: its cards are never keyed
        assert rnd.seats[2].raised == 15 and rnd.phase is Phase.REVEAL
        await pilot.press("v")
        assert isinstance(on_top(app), CardEntryModal)
        await key_in(pilot, "ah kh qh jh 9h 2c 3x")               # a typo: 3x
        assert "3x" in entry_error(app) and rnd.phase is Phase.REVEAL
        await erase(pilot, 2)
        await key_in(pilot, "3d")                                 # corrected; Enter moves to the banker
        await key_in(pilot, "as 8s 3s 6d qd 4d ah")               # Ah is seat 2's
        assert "Ah is already keyed (seat 2)" in entry_error(app)
        assert rnd.phase is Phase.REVEAL and rnd.settlement is None  # nothing recorded yet
        await erase(pilot, 2)
        await key_in(pilot, "5c")
        assert rnd.phase is Phase.PAYOUT and "over_cap_raise" in rnd.outcome().flags  # type: ignore[union-attr]
        await pilot.press("p", "enter")
        assert rnd.phase is Phase.DONE
        # seat 2's keyed 5-card flush caps the raise at 2 x 5 = 10: 5 returned (HCF-6). It beats the
        # DP's A-8-3: Ante +5, Raise +10. Seat 3 folded: -5. The DP: -15 + 5 = -10.
        assert app.table.session.stacks() == {1: 4990, 2: 1015, 3: 995}  # type: ignore[union-attr]
        banker = hcf_settle.BankerHand(parse_cards("As 8s 3s 6d Qd 4d 5c"), 1, 5000)
        hands = [hcf_settle.PlayerHand(2, 5, 10, cards=parse_cards("Ah Kh Qh Jh 9h 2c 3d")),
                 hcf_settle.PlayerHand(3, 5, 0)]
        expected = hcf_settle.settle(rnd.profile, 7, banker, hands)
        rows = {(r.seat, r.bet): r.result for r in app.ledger.settlement(app.table.round_id or 0)}  # type: ignore[union-attr]
        assert [rows[(p.seat, "ante")] for p in expected.players] == [p.ante.result for p in expected.players]
        assert rows[(2, "raise")] == expected.players[0].raise_bet.result == 10


async def test_r_one_or_five_live_round_keyed_by_keys(tmp_path: Path) -> None:
    app = seated_app(tmp_path, "one-or-five", [(1, "Ann", 1000), (2, "Bob", 1000)], seats=6, keyed=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = on_top(app)
        assert isinstance(screen, RoundScreen)
        await pilot.press("s", "1", "a", "enter", "2", "a", "enter", "d", "d")  # the dealer cuts
        assert isinstance(on_top(app), CardEntryModal)
        await key_in(pilot, "kd")                                # the dealer's up card
        rnd = app.table.round  # type: ignore[union-attr]
        assert isinstance(rnd, OneOrFiveKeyedRound) and rnd.phase is Phase.ACT and rnd.dealer == parse_cards("Kd")
        await pilot.press("e", "1")                              # box 1 exchanges one card
        await key_in(pilot, "kd")
        assert "Kd is already keyed (the dealer's up card)" in entry_error(app)
        await erase(pilot, 2)
        await key_in(pilot, "9c")
        assert rnd.drawn[1] == parse_cards("9c")
        await pilot.press("b", "b")                              # both boxes close
        assert rnd.phase is Phase.REVEAL
        await pilot.press("2", "i")                              # seat 2 insures box 2: its hand is keyed
        await key_in(pilot, "5c 6d 7h 8s 9d")                    # a straight
        await pilot.press("enter")                               # the premium: 1 x Ante = 5
        assert rnd.boxes[2].insurance == 5
        await pilot.press("v")
        await key_in(pilot, "ks 4c 3d 2s")                       # the dealer's hole cards: a pair of kings
        await key_in(pilot, "9c 9h 9s qh 2d")                    # box 1, with the 9c it drew
        await pilot.press("p", "enter")
        assert rnd.phase is Phase.DONE
        # Box 1, three nines v kings: Bet 3 x 10 = 30, Ante +5, fee -5: +30.
        # Box 2, a straight: Bet 4 x 10 = 40, Ante +5, insurance lost -5: +40.
        assert app.table.session.stacks() == {1: 1030, 2: 1040}  # type: ignore[union-attr]


async def test_cp_live_rows_keyed_with_a_duplicate_corrected(tmp_path: Path) -> None:
    app = seated_app(tmp_path, "chinese-poker", [(1, "Ann", 100), (2, "Bob", 100)], seats=4, keyed=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "d")
        rnd = app.table.round  # type: ignore[union-attr]
        assert isinstance(rnd, ChinesePokerKeyedRound) and rnd.phase is Phase.ACT
        await pilot.press("2", "e")
        for row in ("jh td 8c", "9s 9d 7c 6s 3s", "th ts 7d 6d 2d"):
            await key_in(pilot, row)
        assert rnd.seats[2].rows is not None
        await pilot.press("k", "1", "e")
        await key_in(pilot, "jh ad 2c")                          # Jh is seat 2's
        assert "Jh is already keyed (seat 2)" in entry_error(app)
        await erase(pilot, 8)
        await key_in(pilot, "ah ad 2c")
        await key_in(pilot, "kh ks kd 3c 4d")
        await key_in(pilot, "qh qs qd qc 5c")
        await pilot.press("k", "v", "enter")
        assert rnd.phase is Phase.DONE
        # seat 1 wins the three rows: 3 + scoop 3 + four queens in the back 4 = 10 points x 5 = 50
        assert app.table.session.stacks() == {1: 150, 2: 50}  # type: ignore[union-attr]


async def test_pp_live_hand_banners_and_a_called_battle_keyed_by_keys(tmp_path: Path) -> None:
    from dealer_tui.games.palace_poker.live_round import PalacePokerKeyedRound

    app = seated_app(tmp_path, "palace-poker", [(1, "Ann", 1000), (2, "Bob", 1000), (3, "Cy", 1000)], seats=10,
                     keyed=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "d")                      # PP-0: one card each, keyed
        for card in ("2c", "3c", "4c"):
            await key_in(pilot, card)
        rnd = app.table.round  # type: ignore[union-attr]
        assert isinstance(rnd, PalacePokerKeyedRound) and rnd.dealer == 3   # the 4c deals
        await pilot.press("a", "a", "a", "d")            # three antes; the banners are keyed as dealt
        for card in ("7s", "kh", "qd"):
            await key_in(pilot, card)
        await pilot.press("d")                           # palace cards dealt face down, nothing keyed
        assert rnd.phase is Phase.ACT and rnd.turn == 1
        await pilot.press("f", "a", "c")                 # seat 1 folds; seat 2 must attack seat 3 (PP-15), called
        assert isinstance(on_top(app), CardEntryModal)    # the call turns both palaces over
        await key_in(pilot, "kd 9s 7c")                  # seat 2, ignoring diamonds: K-9-7 high
        await key_in(pilot, "ah ad 8c")                  # seat 3, ignoring hearts: A-Q-8 high, wins
        assert rnd.phase is Phase.REVEAL
        await pilot.press("v", "enter")
        assert rnd.phase is Phase.DONE
        # pot: antes 3 x 5 + attack (0 + 1) x 10 + call (0 + 1) x 10 = 35, all to seat 3 (PP-13)
        assert app.table.session.stacks() == {1: 995, 2: 985, 3: 1020}  # type: ignore[union-attr]


async def test_hcf_live_payout_keyed_cards_corrected_with_the_supervisor(tmp_path: Path) -> None:
    """A disputed hand at the payout: k, the supervisor's PIN, the hand keyed again, the reason;
    the payout shown again follows the corrected cards, and the round's log says what changed."""
    from dealer_tui.screens.payout_dialog import PayoutDialog
    from dealer_tui.screens.reason_dialog import ReasonDialog
    from dealer_tui.screens.sign_in_modal import SignInModal as PinModal
    from dealer_tui.widgets.event_log import EventLog
    from tests.tui_support import PIN_KEYS

    app = seated_app(tmp_path, "high-card-flush", [(1, "Ann", 5000), (2, "Bob", 1000), (3, "Cy", 1000)], keyed=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "y", "2", "a", *"10", "enter", "3", "a", *"10", "enter", "d",
                          "r", *"20", "enter", "r", *"10", "enter", "v")
        await key_in(pilot, "ah kh qh jh 9h 2c 3d")             # seat 2: 5-card heart flush
        await key_in(pilot, "kc 9c 4c 2s 5d 7h jd")             # seat 3, as keyed: club flush K-9-4
        await key_in(pilot, "as 8s 3s 6d qd 4d 5c")             # the banker: spade flush A-8-3, qualifies
        await pilot.press("p")
        rnd = app.table.round  # type: ignore[union-attr]
        assert isinstance(on_top(app), PayoutDialog) and rnd is not None
        seat3 = {r.bet: r.result for r in rnd.outcome().rows if r.seat == 3}
        assert seat3 == {"ante": -10, "raise": -10}            # K-9-4 loses to A-8-3 (HCF-9)
        await pilot.press("k")
        assert isinstance(on_top(app), PinModal)
        await pilot.press(*PIN_KEYS)
        assert isinstance(on_top(app), CardEntryModal)
        await pilot.press("enter")                              # unchanged cards are no correction
        assert "already recorded" in entry_error(app)
        await pilot.press("tab", "home", "ctrl+k")             # seat 3's line, emptied
        await key_in(pilot, "ac kc qc 2s 5d 7h jd")             # what seat 3 really holds: A-K-Q of clubs
        assert isinstance(on_top(app), ReasonDialog)
        await key_in(pilot, "seat 3 mis-keyed")
        assert isinstance(on_top(app), PayoutDialog)
        seat3 = {r.bet: r.result for r in rnd.outcome().rows if r.seat == 3}
        assert seat3 == {"ante": 10, "raise": 10}              # A-K-Q beats A-8-3: the K beats the 8
        await pilot.press("enter")
        assert rnd.phase is Phase.DONE
        rows = {(r.seat, r.bet): r.result for r in app.ledger.settlement(app.table.round_id or 0)}  # type: ignore[union-attr]
        assert (rows[(3, "ante")], rows[(3, "raise")]) == (10, 10)
        log = on_top(app).query_one(EventLog)
        assert any(line.startswith("Cards corrected: seat 3 K♣ 9♣ 4♣") for line in log.lines)


async def test_card_entry_enter_goes_to_the_next_line_to_key_below_and_a_line_clears_in_one_key() -> None:
    """Seat 2 keyed, seats 1 and 3 not: Enter on seat 2 goes on to seat 3 below it (not back to
    seat 1 at the top), and from there round to seat 1; Up and Down move between lines; ctrl+u
    clears one."""
    from textual.app import App

    from dealer_tui.screens.card_entry_modal import CardEntryModal

    got: list[object] = []

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(CardEntryModal("Key the cards", [("seat 1", 2), ("seat 2", 2), ("seat 3", 2)], {},
                                            values={"seat 2": "ah kh"}), got.append)

    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.focused is not None and app.focused.id == "entry-0"
        await pilot.press("down")
        assert app.focused.id == "entry-1"
        await pilot.press("enter")
        assert app.focused.id == "entry-2"                        # the next line to key, below seat 2
        await pilot.press("down")
        assert app.focused.id == "entry-2"                        # the last line stays the last
        await pilot.press(*"9c 8c", "ctrl+u")
        assert on_top(app).query_one("#entry-2").value == ""      # type: ignore[attr-defined]
        await pilot.press(*"4d 5d", "enter")
        assert app.focused.id == "entry-0"                        # seat 1 still to key: round to it
        await pilot.press(*"qs js", "enter")
        await pilot.pause()
    assert [{k: " ".join(c.text for c in v) for k, v in got[0].items()}] == [  # type: ignore[union-attr]
        {"seat 1": "Qs Js", "seat 2": "Ah Kh", "seat 3": "4d 5d"}]
