"""The sign-off queue, end to end: the dealer sends a big payout to the floor, the floor approves
(the dealer confirms with no PIN, signed off by the approver) or refuses with a reason (shown to
the dealer, who may ask again or void). Replay and `history verify` take the new events in stride."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_tui.audit import verify_ledger
from dealer_tui.events.table import SignOffRefused, SignOffRequested
from dealer_tui.floor_app import FloorApp
from dealer_tui.ledger import SqliteLedger
from dealer_tui.ledger.base import STAFF_REGISTER
from dealer_tui.rounds.base import Action, Phase
from dealer_tui.rounds.cards import ScriptedDeck
from dealer_tui.rounds.high_card_flush import HighCardFlushRound
from dealer_tui.rounds.table import Table
from dealer_tui.screens.floor_signoff import SignOffScreen
from dealer_tui.screens.payout_screen import FloorRequest, PayoutScreen
from dealer_tui.screens.sign_in_modal import SignInModal as PinModal
from dealer_tui.staff import SIGN_OFF
from rules.cards import parse_cards
from rules.errors import IllegalAction
from rules.profiles.loader import shipped_dir
from tests.hcf_support import BANKER, PROFILE, SEAT2, SEAT3, big_win
from tests.staff_support import (
    SUPERVISOR,
    SUPERVISOR_PIN,
    SUPERVISOR_PIN_KEYS,
    floor_review,
    staffed,
    staffed_table,
)
from tests.tui_support import seated_app

SIZE = (120, 36)


def new_table(tmp_path: Path, stacks: tuple[int, int, int] = (5000, 1000, 1000)) -> Table:
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    table = staffed_table(ledger, "H1", PROFILE, ScriptedDeck([parse_cards(f"{SEAT2} {SEAT3} {BANKER}")]), seats=7)
    for seat, (name, stack) in enumerate(zip(("Ann", "Bob", "Cy"), stacks, strict=True), start=1):
        table.seat_player(seat, name, stack)
    return table


def reopen(tmp_path: Path) -> Table:
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    record = ledger.tables()[0]
    return Table.open(ledger, record, PROFILE, ScriptedDeck([parse_cards(f"{SEAT2} {SEAT3} {BANKER}")]))


def low_threshold_profiles(tmp_path: Path) -> Path:
    own = tmp_path / "profiles"
    own.mkdir(exist_ok=True)
    text = (shipped_dir() / "high-card-flush-casino.yaml").read_text().replace("sign_off_threshold: 5000",
                                                                               "sign_off_threshold: 1")
    (own / "casino-low.yaml").write_text(text)
    return own


def floor_over(path: Path) -> FloorApp:
    return floor_review(path, ["high-card-flush"])


async def at_big_payout(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A dealer app whose round waits on the payout screen with a win that needs sign-off."""
    own = low_threshold_profiles(tmp_path)
    for seed in range(1, 40):
        app = seated_app(tmp_path / str(seed), "casino-low", [(1, "Ann", 5000)], seed=seed, profiles=own) \
            if (tmp_path / str(seed)).mkdir() is None else None
        assert app is not None
        pilot_cm = app.run_test(size=SIZE)
        pilot = await pilot_cm.__aenter__()
        await pilot.press("s", "1", "a", "enter", "d", "r", "enter", "v", "p")
        rnd = app.table.round
        if isinstance(rnd, HighCardFlushRound) and rnd.sign_off_needed():
            return app, pilot, pilot_cm, rnd, tmp_path / str(seed)
        await pilot_cm.__aexit__(None, None, None)
    raise AssertionError("no seed gave a winning casino hand")


async def test_sign_off_round_trip_request_approve_confirm(tmp_path: Path) -> None:
    app, pilot, cm, rnd, where = await at_big_payout(tmp_path)
    try:
        payout = app.screen
        assert isinstance(payout, PayoutScreen)
        await pilot.press("r")                                      # send to the floor
        assert rnd.phase is Phase.PAYOUT and isinstance(rnd.sign_off_state(), SignOffRequested)
        assert "Waiting for the floor" in str(payout.query_one("#payout-hint").render())
        floor = floor_over(where / "ledger.sqlite")
        async with floor.run_test(size=SIZE) as fp:
            await fp.press("s")
            queue = floor.screen
            assert isinstance(queue, SignOffScreen)
            assert [w.round.id for w in queue.waiting] == [app.table.round_id]
            await fp.press("a")
            assert isinstance(floor.screen, PinModal)             # the floor's user filled in: the PIN
            await fp.press(*SUPERVISOR_PIN_KEYS)
            assert queue.waiting == []
        payout._poll()                                              # the dealer's screen looks again
        await pilot.pause()
        assert "Approved on the floor by S1" in str(payout.query_one("#payout-hint").render())
        await pilot.press("enter")                                  # no PIN asked
        assert not isinstance(app.screen, PinModal)
        assert rnd.phase is Phase.DONE
        confirmed = [e for e in app.ledger.round_events(app.table.round_id) if e.kind == "payout_confirmed"]
        assert confirmed[0].payload["signed_off_by"] == SUPERVISOR
        assert "signed_off" in app.ledger.round(app.table.round_id).flags
        assert verify_ledger(app.ledger) == []
    finally:
        await cm.__aexit__(None, None, None)


async def test_sign_off_refused_shows_the_reason_and_the_dealer_may_ask_again(tmp_path: Path) -> None:
    app, pilot, cm, rnd, where = await at_big_payout(tmp_path)
    try:
        payout = app.screen
        assert isinstance(payout, PayoutScreen)
        await pilot.press("r")
        floor = floor_over(where / "ledger.sqlite")
        async with floor.run_test(size=SIZE) as fp:
            await fp.press("s", "d", *SUPERVISOR_PIN_KEYS, *"chips miscounted", "enter")
        await pilot.pause(1.3)                                      # the payout screen polls on its own
        hint = str(payout.query_one("#payout-hint").render())
        assert "Refused on the floor by S1: chips miscounted" in hint
        # High Card Flush voids only before anyone acts (HCF-19): the refusal does not offer it
        assert "x voids" not in hint and not payout.check_action("void", ())
        await pilot.press("enter")                                  # a refusal is not a sign-off: PIN needed
        assert isinstance(app.screen, PinModal)
        await pilot.press("escape")                                 # backs out to the payout
        assert rnd.phase is Phase.PAYOUT and app.screen is payout
        await pilot.press("r")                                      # ask the floor again
        kinds = [e.kind for e in app.ledger.round_events(app.table.round_id) if e.kind.startswith("sign_off")]
        assert kinds == ["sign_off_requested", "sign_off_refused", "sign_off_requested"]
        assert [w.round.id for w in app.ledger.sign_off_queue()] == [app.table.round_id]
    finally:
        await cm.__aexit__(None, None, None)


def test_sign_off_events_replay_without_moving_a_chip(tmp_path: Path) -> None:
    """Requests and decisions recorded, the table reopened (a crash): the round comes back in PAYOUT,
    knows the approval, and pays exactly what the rules settle (HCF example: seat 2 wins
    500 + 1000 + 100 x 10 + 100 x 60 = 8500, seat 3 folds its 10 ante, the DP pays 8490)."""
    table = new_table(tmp_path, stacks=(20000, 5000, 1000))
    table.start_round()
    big_win(table)
    table.act(Action("confirm_payout", data={"send_to_floor": True}))
    with pytest.raises(IllegalAction, match="already waiting for the supervisor"):
        table.act(Action("confirm_payout", data={"send_to_floor": True}))
    floor = SqliteLedger(table.ledger.path)  # the floor's own connection, as on another terminal
    crew = staffed(floor)
    refusal = crew.signed(table, SIGN_OFF)
    floor.decide_sign_off(table.round_id or 0, False, SUPERVISOR, "count again", refusal.sign_in)
    table.ledger.close()
    reopened = reopen(tmp_path)
    rnd = reopened.round
    assert rnd is not None and rnd.phase is Phase.PAYOUT
    assert rnd.sign_off_state() == SignOffRefused(by=SUPERVISOR, reason="count again", sign_in=refusal.sign_in)
    with pytest.raises(IllegalAction, match="a supervisor must sign off"):
        reopened.act(Action("confirm_payout"))
    reopened.act(Action("confirm_payout", data={"send_to_floor": True}))
    floor.decide_sign_off(reopened.round_id or 0, True, SUPERVISOR, sign_in=crew.signed(reopened, SIGN_OFF).sign_in)
    FloorRequest(reopened).refresh()                  # the payout screen folds the decision in
    reopened.act(Action("confirm_payout"))            # no PIN: the floor signed
    assert reopened.session.stacks() == {1: 20000 - 8490, 2: 5000 + 8500, 3: 1000 - 10}
    assert reopened.session.chips_balance() == 0
    done = [e for e in reopened.ledger.round_events(reopened.round_id or 0) if e.kind == "payout_confirmed"]
    assert done[0].payload["signed_off_by"] == SUPERVISOR
    assert verify_ledger(reopened.ledger) == []
    floor.close()


def test_a_payout_under_the_threshold_is_not_sent_to_the_floor(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    table.start_round()
    table.act(Action("ante", 2, 10))
    table.act(Action("ante", 3, 10))
    table.act(Action("deal"))
    table.act(Action("fold", 2))
    table.act(Action("fold", 3))
    table.act(Action("reveal"))
    with pytest.raises(IllegalAction, match="no sign-off is needed"):
        table.act(Action("confirm_payout", data={"send_to_floor": True}))


def test_an_empty_pin_is_not_a_wrong_try(tmp_path: Path) -> None:
    """Enter on an empty PIN field asks for the PIN; it uses up none of the three tries."""
    from dealer_tui.staff import MAX_TRIES, VOID, Purpose, SignInRefused
    from tests.hcf_support import hcf_table  # noqa: PLC0415

    table = hcf_table(tmp_path)
    desk = staffed(table.ledger).desk
    for _ in range(MAX_TRIES + 1):
        with pytest.raises(SignInRefused, match="type the PIN"):
            desk.sign_in(SUPERVISOR, "", Purpose(VOID, "void round 1", table.record.id, 1))
    assert desk.tries_left(SUPERVISOR) == MAX_TRIES and not desk.locked_for(SUPERVISOR)
    assert [e.kind for e in table.ledger.table_events(STAFF_REGISTER, ["staff_refused"])] == []
    assert desk.sign_in(SUPERVISOR, SUPERVISOR_PIN, Purpose(VOID, "void round 1", table.record.id, 1))
