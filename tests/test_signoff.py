"""The sign-off queue, end to end: the dealer sends a big payout to the floor, the floor approves
(the dealer confirms with no PIN, signed off by the approver) or refuses with a reason (shown to
the dealer; the refusal stands until a manager overrides it, saying why, or the round is voided).
Replay and `history verify` take the new events in stride."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_tui.audit import verify_ledger
from dealer_tui.events.table import SignOffRefused, SignOffRequested
from dealer_tui.floor_app import FloorApp
from dealer_tui.games import GAMES
from dealer_tui.games.high_card_flush.round import HighCardFlushRound
from dealer_tui.games.high_card_flush.steps import Ante, Fold
from dealer_tui.ledger import SqliteLedger
from dealer_tui.ledger.base import STAFF_REGISTER
from dealer_tui.rounds.base import Phase
from dealer_tui.rounds.cards import ScriptedDeck
from dealer_tui.rounds.steps import ConfirmPayout, Deal, Reveal, SendToFloor
from dealer_tui.rounds.table import Table
from dealer_tui.screens.floor_signoff import SignOffScreen
from dealer_tui.screens.payout_dialog import FloorRequest, PayoutDialog
from dealer_tui.screens.sign_in_modal import SignInModal as PinModal
from dealer_tui.staff import OVERRIDE, SIGN_OFF
from rules.cards import parse_cards
from rules.errors import IllegalAction
from tests.hcf_support import (
    BANKER,
    PROFILE,
    SEAT2,
    SEAT3,
    big_win,
    low_threshold_profiles,
    new_table,
)
from tests.staff_support import (
    MANAGER,
    MANAGER_PIN,
    SUPERVISOR,
    SUPERVISOR_PIN,
    SUPERVISOR_PIN_KEYS,
    floor_review,
    staffed,
    staffed_table,
)
from tests.tui_support import on_top, seated_app

SIZE = (120, 36)


def reopen(tmp_path: Path) -> Table:
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    record = ledger.tables()[0]
    return Table.open(ledger, record, GAMES.find(PROFILE.game), PROFILE, ScriptedDeck([parse_cards(f"{SEAT2} {SEAT3} {BANKER}")]))


def floor_over(path: Path) -> FloorApp:
    return floor_review(path)


async def at_big_payout(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A dealer app whose round waits on the payout screen with a win that needs sign-off."""
    own = low_threshold_profiles(tmp_path)
    for seed in range(1, 40):
        app = seated_app(tmp_path / str(seed), "casino-low", [(1, "Ann", 5000)], seed=seed, profiles=own) \
            if (tmp_path / str(seed)).mkdir() is None else None
        assert app is not None
        pilot_cm = app.run_test(size=SIZE)
        pilot = await pilot_cm.__aenter__()
        await pilot.press("s", "1", "a", "enter", "d", "r", "enter", "v")
        rnd = app.table.round
        if isinstance(rnd, HighCardFlushRound) and rnd.sign_off_needed():
            return app, pilot, pilot_cm, rnd, tmp_path / str(seed)
        await pilot_cm.__aexit__(None, None, None)
    raise AssertionError("no seed gave a winning casino hand")


async def test_sign_off_round_trip_request_approve_confirm(tmp_path: Path) -> None:
    app, pilot, cm, rnd, where = await at_big_payout(tmp_path)
    try:
        payout = on_top(app)
        assert isinstance(payout, PayoutDialog)
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
        assert not isinstance(on_top(app), PinModal)
        assert rnd.phase is Phase.DONE
        confirmed = [e for e in app.ledger.round_events(app.table.round_id) if e.kind == "payout_confirmed"]
        assert confirmed[0].payload["signed_off_by"] == SUPERVISOR
        assert "signed_off" in app.ledger.round(app.table.round_id).flags
        assert verify_ledger(app.ledger, GAMES) == []
    finally:
        await cm.__aexit__(None, None, None)


async def test_a_refusal_shows_its_reason_and_stands_until_a_manager_overrides_it(tmp_path: Path) -> None:
    """The dealer sees the floor's reason; nothing sends the payout to the floor again; Enter asks
    why it is paid anyway, then a manager's sign-in for the override (a supervisor's is refused)."""
    from dealer_tui.screens.reason_dialog import ReasonDialog

    app, pilot, cm, rnd, where = await at_big_payout(tmp_path)
    try:
        payout = on_top(app)
        assert isinstance(payout, PayoutDialog)
        await pilot.press("r")
        floor = floor_over(where / "ledger.sqlite")
        async with floor.run_test(size=SIZE) as fp:
            await fp.press("s", "d", *SUPERVISOR_PIN_KEYS, *"chips miscounted", "enter")
        await pilot.pause(1.3)                                      # the payout screen polls on its own
        hint = str(payout.query_one("#payout-hint").render())
        assert "Refused on the floor by S1: chips miscounted" in hint and "The refusal stands" in hint
        # High Card Flush voids only before anyone acts (HCF-19): the refusal does not offer it
        assert "x voids" not in hint and not payout.check_action("void", ())
        assert not payout.check_action("send_to_floor", ())          # the floor is not asked again
        await pilot.press("r")                                      # refused with the reason, not silently
        hint = str(payout.query_one("#payout-hint").render())
        assert hint.startswith("r: not sent again, the floor (S1) refused this payout: chips miscounted")
        kinds = [e.kind for e in app.ledger.round_events(app.table.round_id) if e.kind.startswith("sign_off")]
        assert kinds == ["sign_off_requested", "sign_off_refused"]
        await pilot.press("x")                                      # HCF-19: no void once anyone acted
        assert str(payout.query_one("#payout-hint").render()).startswith("x: ")
        assert isinstance(on_top(app), PayoutDialog)
        await pilot.press("enter")                                  # an override: the reason first
        assert isinstance(on_top(app), ReasonDialog)
        await pilot.press(*"recounted on camera", "enter")
        assert isinstance(on_top(app), PinModal)
        await pilot.press(*SUPERVISOR, "tab", *SUPERVISOR_PIN_KEYS)  # a supervisor may not override
        assert isinstance(on_top(app), PinModal) and rnd.phase is Phase.PAYOUT
        await pilot.press(*["backspace"] * 4, *MANAGER, "tab", *MANAGER_PIN, "enter")
        assert rnd.phase is Phase.DONE
        confirmed = [e for e in app.ledger.round_events(app.table.round_id) if e.kind == "payout_confirmed"]
        assert (confirmed[0].payload["signed_off_by"], confirmed[0].payload["override"]) == (MANAGER,
                                                                                            "recounted on camera")
        flags = set(app.ledger.round(app.table.round_id).flags)
        assert "override" in flags and "signed_off" not in flags
        assert verify_ledger(app.ledger, GAMES) == []
    finally:
        await cm.__aexit__(None, None, None)


def test_sign_off_events_replay_without_moving_a_chip(tmp_path: Path) -> None:
    """Requests and decisions recorded, the table reopened (a crash): the round comes back in PAYOUT,
    knows the approval, and pays exactly what the rules settle (HCF example: seat 2 wins
    500 + 1000 + 100 x 10 + 100 x 60 = 8500, seat 3 folds its 10 ante, the DP pays 8490)."""
    table = new_table(tmp_path, stacks=(20000, 5000, 1000))
    table.start_round()
    big_win(table)
    table.act(SendToFloor())
    with pytest.raises(IllegalAction, match="already waiting for the supervisor"):
        table.act(SendToFloor())
    floor = SqliteLedger(table.ledger.path)  # the floor's own connection, as on another terminal
    crew = staffed(floor)
    refusal = crew.signed(table, SIGN_OFF)
    floor.decide_sign_off(table.round_id or 0, False, SUPERVISOR, "count again", refusal.sign_in)
    table.ledger.close()
    reopened = reopen(tmp_path)
    rnd = reopened.round
    assert rnd is not None and rnd.phase is Phase.PAYOUT
    assert rnd.sign_off_state() == SignOffRefused(by=SUPERVISOR, reason="count again", sign_in=refusal.sign_in)
    with pytest.raises(IllegalAction, match="refused this payout: count again. The refusal stands"):
        reopened.act(ConfirmPayout())
    with pytest.raises(IllegalAction, match="The refusal stands"):
        reopened.act(SendToFloor())
    override = crew.signed(reopened, OVERRIDE, MANAGER, MANAGER_PIN)
    reopened.act(ConfirmPayout(supervisor=MANAGER, sign_in=override.sign_in, override="recounted: the floor's count was wrong"))
    assert reopened.session.stacks() == {1: 20000 - 8490, 2: 5000 + 8500, 3: 1000 - 10}
    assert reopened.session.chips_balance() == 0
    done = [e for e in reopened.ledger.round_events(reopened.round_id or 0) if e.kind == "payout_confirmed"]
    assert done[0].payload["signed_off_by"] == MANAGER
    assert verify_ledger(reopened.ledger, GAMES) == []
    floor.close()


def test_a_payout_under_the_threshold_is_not_sent_to_the_floor(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    table.start_round()
    table.act(Ante(seat=2, amount=10))
    table.act(Ante(seat=3, amount=10))
    table.act(Deal())
    table.act(Fold(seat=2))
    table.act(Fold(seat=3))
    table.act(Reveal())
    with pytest.raises(IllegalAction, match="no sign-off is needed"):
        table.act(SendToFloor())


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


def refused_then_overridden(tmp_path: Path) -> Table:
    """A shift opened; HCF example (seat 2 wins 8500): sent to the floor, refused by S1, paid on M1's
    override."""
    from dealer_tui.staff import DEAL, TRAY
    from tests.staff_support import DEALER, DEALER_PIN

    table = new_table(tmp_path, stacks=(20000, 5000, 1000))
    crew = staffed(table.ledger)
    table.money.open_shift({"500": 60}, crew.sign_in(DEALER, DEALER_PIN, DEAL, table),
                     crew.sign_in(SUPERVISOR, SUPERVISOR_PIN, TRAY, table))
    table.start_round()
    big_win(table)
    table.act(SendToFloor())
    refusal = crew.signed(table, SIGN_OFF)
    table.ledger.decide_sign_off(table.round_id or 0, False, SUPERVISOR, "count again", refusal.sign_in)
    FloorRequest(table).refresh()
    override = crew.signed(table, OVERRIDE, MANAGER, MANAGER_PIN)
    table.act(ConfirmPayout(supervisor=MANAGER, sign_in=override.sign_in, override="recounted with security"))
    return table


def test_a_payout_paid_on_an_override_raises_an_alert_for_the_supervisor_who_refused_it(tmp_path: Path) -> None:
    from dealer_tui.accounting.alerts import open_alerts, raised

    table = refused_then_overridden(tmp_path)
    alerts = {a.kind: a for a in open_alerts(table.ledger)}
    overridden = alerts["refusal overridden"]
    # seat 2's 8,500 won and its 500 + 1,000 + 100 + 100 staked come back: 10,200 chips out
    assert overridden.text == ("for S1: round 1's payout (10,200 chips out, stakes back included), which S1 refused "
                               "(count again), was paid on M1's override: recounted with security")
    # the payout is paid: the big-payout alert closes, the override's own alert is what stays open
    assert "big payout" not in alerts
    [big] = [a for a in raised(table.ledger) if a.kind == "big payout"]
    assert big.closed == "paid on the override of M1"
    assert verify_ledger(table.ledger, GAMES) == []


def test_an_override_needs_a_managers_sign_in_for_it_and_a_reason(tmp_path: Path) -> None:
    """A supervisor's sign-in for the override is refused at sign-in (the role); a manager's sign-in
    for a sign-off (not the override) is refused by the table; an override with no refusal too."""
    from dealer_tui.staff import SignInRefused

    table = new_table(tmp_path, stacks=(20000, 5000, 1000))
    table.start_round()
    big_win(table)
    crew = staffed(table.ledger)
    with pytest.raises(IllegalAction, match="the floor refused nothing of this payout"):
        table.act(ConfirmPayout(**crew.approval(table, OVERRIDE, MANAGER, MANAGER_PIN), override="no reason to"))
    table.act(SendToFloor())
    table.ledger.decide_sign_off(table.round_id or 0, False, SUPERVISOR, "count again",
                                 crew.signed(table, SIGN_OFF).sign_in)
    FloorRequest(table).refresh()
    with pytest.raises(SignInRefused, match="only a manager may override a payout the floor refused"):
        crew.signed(table, OVERRIDE)
    with pytest.raises(IllegalAction):
        table.act(ConfirmPayout(**crew.approval(table, SIGN_OFF, MANAGER, MANAGER_PIN), override="recounted"))
    assert table.round is not None and table.round.phase is Phase.PAYOUT


def test_a_big_payout_alert_closes_with_its_approval(tmp_path: Path) -> None:
    from dealer_tui.accounting.alerts import open_alerts, raised

    table = new_table(tmp_path, stacks=(20000, 5000, 1000))
    table.start_round()
    big_win(table)
    table.act(SendToFloor())
    assert [a.kind for a in open_alerts(table.ledger) if a.kind != "currency transaction"] == ["big payout"]
    crew = staffed(table.ledger)
    table.ledger.decide_sign_off(table.round_id or 0, True, SUPERVISOR, sign_in=crew.signed(table, SIGN_OFF).sign_in)
    FloorRequest(table).refresh()
    table.act(ConfirmPayout())
    assert [a.kind for a in open_alerts(table.ledger) if a.kind != "currency transaction"] == []
    assert [(a.kind, a.closed) for a in raised(table.ledger) if a.kind == "big payout"] == [("big payout",
                                                                                           "approved by S1")]


def test_the_shift_report_counts_a_refused_payout_paid_on_an_override(tmp_path: Path) -> None:
    from dealer_tui.accounting.report import dealer_line
    from dealer_tui.accounting.shifts import shift_figures
    from dealer_tui.accounting.theoretical import Theory
    from tests.staff_support import DEALER

    table = refused_then_overridden(tmp_path)
    shift = shift_figures(table.ledger, Theory(GAMES, None, hands=20_000))[0]
    assert "1 payout refused (1 paid on a manager's override)" in dealer_line(shift.dealers[DEALER])


def test_a_refused_payout_rewritten_as_paid_without_the_override_is_named_by_verify(tmp_path: Path) -> None:
    """An insider takes the override out of the payout's event and re-hashes the chain: verify says
    the payout was made after the floor's refusal with no manager's override."""
    import json
    import sqlite3

    from tests.insider_support import rehash

    table = refused_then_overridden(tmp_path)
    path = table.ledger.path
    table.ledger.close()
    with sqlite3.connect(path) as db:
        rowid, payload = db.execute("SELECT id, payload FROM events WHERE kind = 'payout_confirmed'").fetchone()
        event = json.loads(payload)
        del event["override"]
        db.execute("UPDATE events SET payload = ? WHERE id = ?", (json.dumps(event), rowid))
    rehash(path)
    problems = verify_ledger(SqliteLedger(path), GAMES)
    assert any("paid after the floor refused it (S1: count again) with no manager's override" in p for p in problems)


def test_a_payout_the_tray_cannot_cover_waits_for_a_fill(tmp_path: Path) -> None:
    """The opener is 10 x 500 = 5,000; the HCF example pays seat 2 8,500 and takes seat 3's 10 ante:
    the house (the tray) pays 8,490 net, 3,490 more than the tray holds. The payout is refused,
    nothing moves; a fill of 8 x 500 = 4,000 comes at the payout; then it is paid and the tray
    holds 5,000 + 4,000 - 8,490 = 510 (it never went below nothing)."""
    from dealer_tui.staff import DEAL, TRAY
    from rules.profiles.loader import ProfileLibrary
    from tests.staff_support import DEALER, DEALER_PIN, approved

    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    casino = approved(ledger, ProfileLibrary().find("high-card-flush-casino"))   # the house banks: its tray pays
    table = staffed_table(ledger, "H1", casino, ScriptedDeck([parse_cards(f"{SEAT2} {SEAT3} {BANKER}")]), seats=7)
    for seat, (name, stack) in enumerate((("Ann", 20000), ("Bob", 5000), ("Cy", 1000)), start=1):
        table.seat_player(seat, name, stack, document="passport X1234567" if stack >= 10000 else "")
    crew = staffed(table.ledger)

    def both() -> tuple[object, object]:
        return (crew.sign_in(DEALER, DEALER_PIN, DEAL, table), crew.sign_in(SUPERVISOR, SUPERVISOR_PIN, TRAY, table))

    table.money.open_shift({"500": 10}, *both())  # type: ignore[arg-type]
    table.start_round()
    big_win(table)
    paid = {**crew.approval(table, SIGN_OFF)}
    with pytest.raises(IllegalAction, match="holds 5,000 by the shift's records and this payout takes 8,490 from it: "
                                            "3,490 short. The payout waits for a fill"):
        table.act(ConfirmPayout(**paid))
    assert table.round is not None and table.round.phase is Phase.PAYOUT
    assert table.session.stacks() == {1: 20000, 2: 5000, 3: 1000}             # nothing moved
    with pytest.raises(IllegalAction, match="No one may record a credit during a hand"):
        table.money.credit("C-1", {"500": 1}, *both())  # type: ignore[arg-type]
    table.money.fill("F-1", {"500": 8}, *both())  # type: ignore[arg-type]
    table.act(ConfirmPayout(**crew.approval(table, SIGN_OFF)))
    shift = table.tray.shift
    assert shift is not None and shift.expected == 510
    assert table.session.stacks() == {1: 20000, 2: 5000 + 8500, 3: 1000 - 10}
    assert verify_ledger(table.ledger, GAMES) == []


async def test_the_queue_shows_what_each_seat_is_paid_and_wins_and_enter_opens_the_round_to_decide(
        tmp_path: Path) -> None:
    """HCF example sent to the floor: seat 2 is handed 10,200 (its 500 + 1,000 + 100 + 100 staked
    back and 8,500 won): the queue shows both, labelled. Enter opens the round — its cards, each
    payout line with its reason, the dealer, the table's last rounds — and `a` approves from
    there with the supervisor's PIN, back to an empty queue."""
    from textual.widgets import DataTable, Static

    from dealer_tui.screens.floor_signoff import SignOffStory
    from tests.floor_support import plain

    table = new_table(tmp_path, stacks=(20000, 5000, 1000))
    table.start_round()
    big_win(table)
    table.act(SendToFloor())
    floor = floor_over(tmp_path / "ledger.sqlite")
    async with floor.run_test(size=SIZE) as fp:
        await fp.press("s")
        queue = floor.screen
        assert isinstance(queue, SignOffScreen)
        grid = queue.query_one(DataTable)
        row = [str(c) for c in grid.get_row_at(0)]
        assert row[:6] == ["H1", "1", row[2], "seat 2 10,200", "seat 2 +8,500", "10,200"]
        await fp.press("enter")
        story = floor.screen
        assert isinstance(story, SignOffStory)
        text = plain(story.query_one("#story-text", Static).content)
        assert "waiting at its payout: 10,200 chips out" in text and "seat 2 staked 1,700, is paid 10,200, net +8,500" in text
        assert "The payout waiting for sign-off" in text and "hidden until the round ends" not in text
        assert "The table's last 5 rounds" in text and "dealt by" in text
        await fp.press("a")
        assert isinstance(floor.screen, PinModal)
        await fp.press(*SUPERVISOR_PIN_KEYS)
        assert floor.screen is queue and queue.waiting == []
    kinds = [e.kind for e in SqliteLedger(tmp_path / "ledger.sqlite", readonly=True).round_events(table.round_id or 0)]
    assert kinds[-1] == "sign_off_approved"


async def test_a_payout_sent_for_sign_off_comes_to_the_supervisor_on_whatever_floor_screen(tmp_path: Path) -> None:
    """The floor is open on its shifts screen; the dealer sends a payout to the floor: within a
    second or two the header counts it, the bell rings and a toast says where to go. Esc on the
    rounds list asks before the review quits."""
    from textual.widgets import DataTable

    from dealer_tui.screens.choice_dialog import ChoiceDialog
    from dealer_tui.screens.floor_rounds import RoundsScreen

    table = new_table(tmp_path, stacks=(20000, 5000, 1000))
    table.start_round()
    big_win(table)
    floor = floor_over(tmp_path / "ledger.sqlite")
    async with floor.run_test(size=SIZE) as fp:
        await fp.press("h")                                             # the shifts screen
        for _ in range(40):
            await fp.pause(0.05)
            if floor.counts is not None:
                break
        assert floor.counts is not None and floor.counts[0] == 0      # Ann's 20,000 cash in: an alert already
        rung: list[bool] = []
        told: list[str] = []
        floor.bell = lambda: rung.append(True)  # type: ignore[method-assign]
        floor.notify = lambda message, **_: told.append(str(message))  # type: ignore[method-assign,assignment]
        table.act(SendToFloor())
        for _ in range(60):
            await fp.pause(0.1)
            if floor.counts and floor.counts[0] == 1:
                break
        assert "1 waiting for sign-off (s)" in floor.sub_title and rung == [True]
        assert any("1 payout sent for sign-off: s opens the queue" in m for m in told)
        await fp.press("s")                                             # the queue from the shifts screen
        assert isinstance(floor.screen, SignOffScreen) and len(floor.screen.waiting) == 1
        await fp.press("escape", "escape")                              # back to the rounds list
        assert isinstance(floor.screen, RoundsScreen)
        rounds = floor.screen
        await fp.press("r")                                             # read again: the round waits, says so
        assert [str(c) for c in rounds.query_one(DataTable).get_row_at(0)][3] == "WAITING FOR THE FLOOR"
        await fp.press("escape")
        assert isinstance(on_top(floor), ChoiceDialog)
        await fp.press("n")
        assert isinstance(floor.screen, RoundsScreen) and floor.is_running


def test_a_waiting_payouts_story_counts_a_pushed_stake_as_handed_back_not_paid() -> None:
    """HCF-8: the DP does not qualify, so the Ante of 500 wins 1:1 (paid 1,000: its stake and
    500) and the Raise of 500 pushes (500 back); the Flush bet of 500 loses. The seat staked
    1,500 and is handed 1,500, of which 1,000 is a payout: net 0."""
    from dealer_tui.ledger.payouts import SeatChips
    from dealer_tui.screens.floor_story import _handed

    chips = SeatChips(wagered=1500, payout=1000, returned=500)
    assert _handed(1, chips) == "seat 1 staked 1,500, is handed 1,500 (1,000 paid + 500 back on pushes), net +0"


async def test_a_floor_notice_over_a_dialog_at_80x24_leaves_the_dialogs_fields_clear(tmp_path: Path) -> None:
    """The supervisor is typing a search (`/`) on an 80×24 terminal when a payout is sent to the
    floor: the toast sits at the top, above the dialog's fields, clear of them and of its keys."""
    from textual.widgets import Input
    from textual.widgets._toast import Toast

    table = new_table(tmp_path, stacks=(20000, 5000, 1000))
    table.start_round()
    big_win(table)
    floor = floor_over(tmp_path / "ledger.sqlite")
    async with floor.run_test(size=(80, 24), notifications=True) as fp:
        await fp.press("slash")                                         # the rounds list's search and filters
        dialog = floor.screen
        table.act(SendToFloor())
        for _ in range(60):
            await fp.pause(0.1)
            if list(dialog.query(Toast)):
                break
        toasts = [t.region for t in dialog.query(Toast)]
        fields = [f.region for f in [*dialog.query(Input), *dialog.query(".hint"), *dialog.query(".error")]
                  if f.region.area]                                      # its fields, what it says and its keys
        assert toasts and len(fields) == 8
        assert not any(t.overlaps(f) for t in toasts for f in fields)
