"""Staff accounts and roles: every attack on the old shared PIN refused. Authority comes from
the ledger's staff register only — an account that signed in with its own PIN for that act, at
that table, for that round — and the rounds layer and `history verify` both check it.

The big payout used throughout (High Card Flush, card-room profile, sign-off at 5000): seat 2
antes 500 with 100 on each bonus and raises 1000 on a heart flush A-K-Q-J-9 with a straight
flush A-K-Q-J; the DP qualifies. Seat 2 wins 500 + 1000 + 100 x 10 + 100 x 60 = 8500 (HCF-9,
HCF-10, HCF-12): a supervisor signs off."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import runpy
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dealer_tui.audit.ledger_audit import verify
from dealer_tui.events.staff import StaffRoleChanged, StaffSignedIn, signed_text
from dealer_tui.games import GAMES
from dealer_tui.ledger import LedgerError, SqliteLedger
from dealer_tui.ledger.base import STAFF_REGISTER
from dealer_tui.rounds.cards import ScriptedDeck
from dealer_tui.rounds.steps import ConfirmPayout, Void
from dealer_tui.rounds.table import Table
from dealer_tui.staff import (
    CHANGE_PROFILE,
    DEAL,
    FLOOR,
    MANAGE,
    SIGN_OFF,
    VOID,
    Purpose,
    SignInRefused,
    StaffDesk,
    StaffError,
    StaffRegister,
)
from dealer_tui.staff.pins import PinRefused, hash_pin, pin_problem, unlock
from rules.cards import parse_cards
from rules.errors import IllegalAction
from rules.profiles.loader import ProfileLibrary, load_profile_file, shipped_dir
from tests.hcf_support import BANKER, PROFILE, SEAT2, SEAT3, big_win
from tests.insider_support import rehash
from tests.staff_support import (
    AUDITOR,
    AUDITOR_PIN,
    DEALER,
    DEALER_PIN,
    MANAGER,
    MANAGER_PIN,
    SUPERVISOR,
    SUPERVISOR2,
    SUPERVISOR2_PIN,
    SUPERVISOR_PIN,
    Crew,
    cash_id,
    staffed,
)


def big_payout_table(tmp_path: Path, crew_dealer: str = DEALER, pin: str = DEALER_PIN, *,
                     training: bool = False) -> tuple[Table, Crew]:
    """A table at the payout of the 8500 win above, dealt by `crew_dealer`."""
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    crew = staffed(ledger)
    table = Table.create(ledger, "H1", GAMES.find(PROFILE.game), PROFILE, ScriptedDeck([parse_cards(f"{SEAT2} {SEAT3} {BANKER}")]), seats=7,
                         training=training)
    for seat, (name, stack) in enumerate((("Ann", 20000), ("Bob", 5000), ("Cy", 1000)), start=1):
        table.seat_player(seat, name, stack, document=cash_id(seat, stack))
    crew.deal(table, crew_dealer, pin)
    table.start_round()
    big_win(table)
    return table, crew


# -- PINs -----------------------------------------------------------------------------------


@pytest.mark.parametrize("pin, role, problem", [
    ("2468", "dealer", "a dealer's PIN is 8 to 12 digits"), ("1357924", "dealer", "a dealer's PIN is 8 to 12 digits"),
    ("13579246", "supervisor", "a supervisor's PIN is 9 to 12 digits"),
    ("13579246", "manager", "a manager's PIN is 9 to 12 digits"),
    ("13579246", "auditor", "an auditor's PIN is 9 to 12 digits"), ("12a45678", "dealer", "digits only"),
    ("77777777", "dealer", "one digit repeated"), ("12345678", "dealer", "digits in a row"),
    ("987654321", "manager", "digits in a row"), ("٣٣٣٣٣٣٣٤", "dealer", "digits only")])
def test_a_pin_is_long_enough_for_its_role_and_not_one_a_guesser_tries_first(pin: str, role: str,
                                                                              problem: str) -> None:
    """A copied file gives every PIN hash: a dealer's 8 digits cost months of a core to guess, an
    approver's 9 digits years (`bench/pins.py`)."""
    assert problem in (pin_problem(pin, role) or "")
    with pytest.raises(PinRefused):
        hash_pin(pin, role)
    assert pin_problem("13579246", "dealer") is None and pin_problem("135792468", "supervisor") is None


def test_a_pin_is_stored_as_a_salted_scrypt_hash_with_its_parameters() -> None:
    terminal = runpy.run_module("dealer_tui.staff.pins")  # the module as the terminals load it, not the tests' cheap cost
    stored = terminal["hash_pin"]("246813579")
    assert (stored.scheme, stored.n, stored.r, stored.p) == ("scrypt+ed25519+kept", 2**16, 8, 1)
    assert "246813579" not in stored.to_payload().__repr__() and len(stored.salt) == 32
    assert terminal["hash_pin"]("246813579").salt != stored.salt
    assert terminal["pin_matches"]("246813579", stored) and not terminal["pin_matches"]("246813570", stored)


# -- the attacks on the shared PIN ------------------------------------------------------------


def test_a_sign_off_by_a_typed_name_is_refused_by_the_rounds_layer(tmp_path: Path) -> None:
    table, _ = big_payout_table(tmp_path)
    with pytest.raises(IllegalAction, match="names no sign-in"):
        table.act(ConfirmPayout(supervisor="Sam Super"))
    with pytest.raises(IllegalAction, match="does not hold"):
        table.act(ConfirmPayout(supervisor=SUPERVISOR, sign_in=99999))
    assert table.round is not None and table.round.outcome() is not None and table.round_id is not None
    assert table.ledger.round(table.round_id).status == "open"


def test_a_sign_in_for_another_act_round_or_account_approves_nothing(tmp_path: Path) -> None:
    table, crew = big_payout_table(tmp_path)
    void_sign_in = crew.signed(table, VOID)
    with pytest.raises(IllegalAction, match="which was to void a round"):
        table.act(ConfirmPayout(supervisor=SUPERVISOR, sign_in=void_sign_in.sign_in))
    other_round = crew.desk.sign_in(SUPERVISOR, SUPERVISOR_PIN, Purpose(SIGN_OFF, "x", table.record.id, 7))
    with pytest.raises(IllegalAction, match="was for round 7, not round 1"):
        table.act(ConfirmPayout(supervisor=SUPERVISOR, sign_in=other_round.sign_in))
    theirs = crew.signed(table, SIGN_OFF, SUPERVISOR2, SUPERVISOR2_PIN)
    with pytest.raises(IllegalAction, match="belongs to 'S2'"):
        table.act(ConfirmPayout(supervisor=SUPERVISOR, sign_in=theirs.sign_in))
    table.act(ConfirmPayout(**crew.approval(table)))
    confirmed = [e for e in table.ledger.round_events(table.round_id or 0) if e.kind == "payout_confirmed"][0]
    assert confirmed.payload["signed_off_by"] == SUPERVISOR
    assert table.session.stacks() == {1: 20000 - 8490, 2: 5000 + 8500, 3: 1000 - 10}
    assert verify(table.ledger, GAMES).problems == []


def test_a_dealer_cannot_sign_off_and_nobody_approves_a_round_they_dealt(tmp_path: Path) -> None:
    table, crew = big_payout_table(tmp_path, SUPERVISOR2, SUPERVISOR2_PIN)  # a supervisor deals this one
    with pytest.raises(SignInRefused, match="is a dealer: only a supervisor or a manager may sign off"):
        crew.signed(table, SIGN_OFF, DEALER, DEALER_PIN)
    own = crew.signed(table, SIGN_OFF, SUPERVISOR2, SUPERVISOR2_PIN)
    with pytest.raises(IllegalAction, match="who dealt the round: nobody approves an act on a round they dealt"):
        table.act(ConfirmPayout(supervisor=SUPERVISOR2, sign_in=own.sign_in))
    table.act(ConfirmPayout(**crew.approval(table)))


def test_three_wrong_pins_lock_the_account_at_every_table_and_terminal(tmp_path: Path) -> None:
    """Opening a new table every three tries no longer resets the count: the lock-out is the
    account's, in the ledger, and a second connection (another terminal, the floor) sees it."""
    table, crew = big_payout_table(tmp_path)
    for left in (2, 1):
        with pytest.raises(SignInRefused, match=f"{left} tr(y|ies) left"):
            crew.desk.sign_in(SUPERVISOR, "000001", Purpose(SIGN_OFF, "x", table.record.id, 1))
    other = Table.create(table.ledger, "H2", GAMES.find(PROFILE.game), PROFILE, ScriptedDeck([]), seats=7)
    with pytest.raises(SignInRefused, match="locked for 5 minutes"):
        crew.desk.sign_in(SUPERVISOR, "000002", Purpose(SIGN_OFF, "x", other.record.id, 1))
    floor = StaffDesk(SqliteLedger(tmp_path / "ledger.sqlite"))
    with pytest.raises(SignInRefused, match="locked for 3\\d\\d more seconds"):
        floor.sign_in(SUPERVISOR, SUPERVISOR_PIN, Purpose(FLOOR, "the floor"))  # even the right PIN
    later = StaffDesk(table.ledger, clock=lambda: __import__("time").time() + 301)
    assert later.sign_in(SUPERVISOR, SUPERVISOR_PIN, Purpose(FLOOR, "the floor")).account == SUPERVISOR
    kinds = [e.kind for e in table.ledger.table_events(STAFF_REGISTER, ["staff_refused", "staff_locked"])]
    assert kinds == ["staff_refused"] * 3 + ["staff_locked", "staff_refused"]


def test_an_unknown_account_costs_a_try_and_says_no_more_than_a_wrong_pin(tmp_path: Path) -> None:
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    crew = staffed(ledger)
    with pytest.raises(SignInRefused) as unknown:
        crew.desk.sign_in("Z9", "13579246", Purpose(FLOOR, "the floor"))
    with pytest.raises(SignInRefused) as wrong:
        crew.desk.sign_in(AUDITOR, "13579246", Purpose(FLOOR, "the floor"))
    assert str(unknown.value).replace("Z9", "X") == str(wrong.value).replace(AUDITOR, "X")


def test_a_disabled_account_signs_in_nowhere_and_its_old_sign_ins_stay_valid(tmp_path: Path) -> None:
    table, crew = big_payout_table(tmp_path)
    approval = crew.approval(table)
    manager = crew.desk.sign_in(MANAGER, MANAGER_PIN, Purpose(MANAGE, "disable S1"))
    crew.desk.disable(SUPERVISOR, manager, "left the casino")
    with pytest.raises(SignInRefused, match="disabled"):
        crew.signed(table, SIGN_OFF)
    table.act(ConfirmPayout(**approval))  # signed in while active: it stands
    assert verify(table.ledger, GAMES).problems == []


def test_only_a_manager_manages_staff_and_the_last_manager_stays(tmp_path: Path) -> None:
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    crew = staffed(ledger)
    with pytest.raises(SignInRefused, match="is a supervisor: only a manager may manage staff"):
        crew.desk.sign_in(SUPERVISOR, SUPERVISOR_PIN, Purpose(MANAGE, "add"))
    with pytest.raises(StaffError, match="has accounts already"):
        crew.desk.add_first_manager("M9", "Mallory", "192837465")
    manager = crew.desk.sign_in(MANAGER, MANAGER_PIN, Purpose(MANAGE, "x"))
    with pytest.raises(StaffError, match="does not take their own role away"):
        crew.desk.set_role(MANAGER, "dealer", manager)
    with pytest.raises(StaffError, match="there is an account 'D1' already"):
        crew.desk.add(DEALER, "Again", "dealer", "192837465", manager)


def test_a_casino_profile_named_like_a_shipped_one_is_refused_until_a_manager_approves_its_text(
        tmp_path: Path) -> None:
    own = tmp_path / "profiles"
    own.mkdir()
    text = (shipped_dir() / "high-card-flush.yaml").read_text()
    text = text.replace("sign_off_threshold: 5000", "sign_off_threshold: 1000000000000")
    assert "1000000000000" in text
    (own / "high-card-flush.yaml").write_text(text)
    loaded = ProfileLibrary([own]).find("high-card-flush")
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    crew = staffed(ledger)
    with pytest.raises(IllegalAction, match="not approved for tables .it is named like a shipped profile"):
        Table.create(ledger, "H1", GAMES.find(loaded.game), loaded, ScriptedDeck([]), seats=7)
    manager = crew.desk.sign_in(MANAGER, MANAGER_PIN, Purpose(MANAGE, "approve"))
    assert crew.desk.approve_profile(loaded.name, loaded.game, loaded.sha256, loaded.source, manager, True)
    Table.create(ledger, "H1", GAMES.find(loaded.game), loaded, ScriptedDeck([]), seats=7)
    (own / "high-card-flush.yaml").write_text(text.replace("sign_off_threshold: 1000000000000",
                                                           "sign_off_threshold: 999999999999"))
    edited = load_profile_file(own / "high-card-flush.yaml")
    with pytest.raises(IllegalAction, match="edited since a manager approved it"):
        Table.create(ledger, "H2", GAMES.find(edited.game), edited, ScriptedDeck([]), seats=7)
    shipped = ProfileLibrary([]).find("high-card-flush")
    Table.create(ledger, "H3", GAMES.find(shipped.game), shipped, ScriptedDeck([]), seats=7)  # shipped: trusted as installed


def test_a_profile_change_needs_a_supervisors_sign_in_for_it(tmp_path: Path) -> None:
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    crew = staffed(ledger)
    table = crew.deal(Table.create(ledger, "H1", GAMES.find(PROFILE.game), PROFILE, ScriptedDeck([]), seats=7))
    casino = ProfileLibrary([]).find("high-card-flush-casino")
    with pytest.raises(IllegalAction, match="which was to deal"):
        table.change_profile(casino, "new limits", crew.signed(table, DEAL, DEALER, DEALER_PIN, for_round=False))
    table.change_profile(casino, "new limits", crew.signed(table, CHANGE_PROFILE, for_round=False))
    assert table.profile.name == "high-card-flush-casino"


def test_no_round_starts_without_a_dealer_and_each_round_names_the_dealer_on_duty(tmp_path: Path) -> None:
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    crew = staffed(ledger)
    table = Table.create(ledger, "H1", GAMES.find(PROFILE.game), PROFILE, ScriptedDeck([]), seats=7)
    table.seat_player(1, "Ann", 5000)
    table.seat_player(2, "Bob", 1000)
    with pytest.raises(IllegalAction, match="no dealer signed in"):
        table.start_round()
    crew.deal(table)
    first = table.start_round()
    assert table.round_id is not None
    table.act(Void(reason="misdeal", **crew.approval(table, VOID)))
    crew.deal(table, SUPERVISOR2, SUPERVISOR2_PIN)  # a dealer change: D1 signed out by it
    table.start_round()
    table.act(Void(reason="misdeal", **crew.approval(table, VOID)))
    table.sign_out_dealer("break")
    with pytest.raises(IllegalAction, match="no dealer signed in"):
        table.start_round()
    kinds = [e.kind for e in ledger.table_events(table.record.id) if "dealer" in e.kind or e.kind == "round_started"]
    assert kinds == ["dealer_signed_in", "round_started", "dealer_signed_out", "dealer_signed_in", "round_started",
                     "dealer_signed_out"]
    dealers = [e.payload.get("dealer") for e in ledger.table_events(table.record.id, ["round_started"])]
    assert dealers == [DEALER, SUPERVISOR2] and first is not table.round
    assert verify(ledger, GAMES).problems == []


# -- history verify: what an insider writes with sqlite ----------------------------------------


def forged_payout(table: Table, forge: Callable[[dict[str, Any]], dict[str, Any]]) -> list[str]:
    """The table's payout event rewritten with sqlite (`forge` makes the new payload) and every
    chain hashed again, as an insider who knows the hash scheme would: what verify says."""
    path = table.ledger.path
    table.ledger.close()
    db = sqlite3.connect(path)
    event_id, payload = db.execute("SELECT id, payload FROM events WHERE kind = 'payout_confirmed'").fetchone()
    db.execute("UPDATE events SET payload = ? WHERE id = ?", (json.dumps(forge(json.loads(payload))), event_id))
    db.commit()
    db.close()
    rehash(path)
    return verify(SqliteLedger(path, readonly=True), GAMES).problems


def test_verify_names_a_sign_off_rewritten_to_another_name_even_when_the_chain_is_rehashed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table, crew = big_payout_table(tmp_path)
    table.act(ConfirmPayout(**crew.approval(table)))
    problems = forged_payout(table, lambda payload: {**payload, "signed_off_by": "Friendly Floorman"})
    assert any("names 'Friendly Floorman', but sign-in" in p and "belongs to 'S1'" in p for p in problems), problems


def test_verify_names_a_sign_off_by_a_typed_name_written_after_the_register_began(tmp_path: Path) -> None:
    table, crew = big_payout_table(tmp_path)
    table.act(ConfirmPayout(**crew.approval(table)))
    problems = forged_payout(table, lambda payload: {k: v for k, v in payload.items() if k != "sign_in"})
    assert any("sign off by 'S1' names no sign-in" in p for p in problems), problems


def test_verify_names_an_account_a_dealer_slipped_into_the_register(tmp_path: Path) -> None:
    """A supervisor account added by no manager (the insider appends a `staff_added` with a made-up
    sign-in and re-hashes the chain)."""
    table, crew = big_payout_table(tmp_path)
    table.act(ConfirmPayout(**crew.approval(table)))
    path = table.ledger.path
    table.ledger.close()
    db = sqlite3.connect(path)
    seq, ledger_seq = db.execute("SELECT MAX(seq), (SELECT MAX(ledger_seq) FROM events) FROM events"
                                 " WHERE table_id = 0").fetchone()
    pin = hash_pin("192837465").to_payload()
    payload = {"account": "X1", "name": "Pal", "role": "supervisor", "pin": pin, "by": MANAGER, "sign_in": 3}
    db.execute("INSERT INTO events(table_id, round_id, seq, ts, kind, payload, prev_hash, hash, ledger_seq)"
               " VALUES (0, NULL, ?, '2026-12-01T00:00:00+00:00', 'staff_added', ?, '', '', ?)",
               (seq + 1, json.dumps(payload), ledger_seq + 1))
    db.commit()
    db.close()
    rehash(path)
    problems = verify(SqliteLedger(path, readonly=True), GAMES).problems
    assert any("staff register" in p and "its signature is not M1's: written without M1's PIN" in p
               for p in problems), problems
    assert "X1" not in StaffRegister.read(SqliteLedger(path, readonly=True)).accounts  # it signs in nowhere


def test_an_auditor_signs_in_to_the_floor_and_to_nothing_that_changes_a_record(tmp_path: Path) -> None:
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    crew = staffed(ledger)
    assert crew.desk.sign_in(AUDITOR, AUDITOR_PIN, Purpose(FLOOR, "the floor")).role == "auditor"
    for act in (SIGN_OFF, VOID, CHANGE_PROFILE, DEAL, MANAGE):
        with pytest.raises(SignInRefused, match="is an auditor: only"):
            crew.desk.sign_in(AUDITOR, AUDITOR_PIN, Purpose(act, "x", 1, 1))


def append_forged(path: Path, kind: str, payload: dict[str, Any]) -> None:
    """An event appended to the staff register with sqlite, the chains hashed again."""
    db = sqlite3.connect(path)
    seq, ledger_seq = db.execute("SELECT MAX(seq), (SELECT MAX(ledger_seq) FROM events) FROM events"
                                 " WHERE table_id = 0").fetchone()
    db.execute("INSERT INTO events(table_id, round_id, seq, ts, kind, payload, prev_hash, hash, ledger_seq)"
               " VALUES (0, NULL, ?, '2026-12-01T00:00:00+00:00', ?, ?, '', '', ?)",
               (seq + 1, kind, json.dumps(payload), ledger_seq + 1))
    db.commit()
    db.close()
    rehash(path)


def test_a_sign_in_written_without_the_pin_approves_nothing(tmp_path: Path) -> None:
    """The insider appends a sign-in for S1 to the register (with a signature of a key of their
    own), re-hashes, and names it in a sign-off: the table and verify refuse it, as both check the
    sign-in's signature against S1's key, which only S1's PIN unseals."""
    table, crew = big_payout_table(tmp_path)
    path = table.ledger.path
    table.ledger.close()
    impostor = Ed25519PrivateKey.generate()
    forged = StaffSignedIn(account=SUPERVISOR, act=SIGN_OFF, purpose="sign off", table=1, round=1)
    with sqlite3.connect(path) as db:
        seq = db.execute("SELECT MAX(seq) FROM events WHERE table_id = 0").fetchone()[0]
    forged = dataclasses.replace(forged, signature=impostor.sign(signed_text(forged, seq + 1)).hex())
    append_forged(path, forged.KIND, forged.record().payload)
    ledger = SqliteLedger(path)
    forged_seq = ledger.table_events(STAFF_REGISTER)[-1].ledger_seq
    again = Table.open(ledger, ledger.tables()[0], GAMES.find(PROFILE.game), PROFILE, ScriptedDeck([]))
    with pytest.raises(IllegalAction, match="which the staff register does not hold"):
        again.act(ConfirmPayout(supervisor=SUPERVISOR, sign_in=forged_seq))
    problems = verify(ledger, GAMES).problems
    assert any("its signature is not S1's: written without S1's PIN" in p for p in problems), problems


def test_an_account_rewritten_with_a_pin_the_insider_knows_is_named_by_verify(tmp_path: Path) -> None:
    """S1's stored PIN (and key) replaced, in place, by one the insider made, the chains hashed
    again: the manager's signature over S1's creation no longer checks, and S1 signs in nowhere."""
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    staffed(ledger)
    ledger.close()
    with sqlite3.connect(tmp_path / "ledger.sqlite") as db:
        event_id, payload = db.execute("SELECT id, payload FROM events WHERE kind = 'staff_added' AND payload LIKE ?",
                                       ('%"account": "S1"%',)).fetchone()
        data = {**json.loads(payload), "pin": hash_pin("192837465").to_payload()}
        db.execute("UPDATE events SET payload = ? WHERE id = ?", (json.dumps(data), event_id))
    rehash(tmp_path / "ledger.sqlite")
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    problems = verify(ledger, GAMES).problems
    assert any("its signature is not M1's" in p for p in problems), problems
    with pytest.raises(SignInRefused, match="wrong ID or PIN"):
        StaffDesk(ledger).sign_in(SUPERVISOR, "192837465", Purpose(FLOOR, "the floor"))


@pytest.mark.parametrize("training", [False, True])
def test_verify_names_a_big_payout_whose_sign_off_was_taken_out(tmp_path: Path, training: bool) -> None:
    """The sign-off (and its sign-in) removed from the payout of 8500, re-hashed: the rules still
    pay seat 2 8500, at or over the 5000 threshold, and no sign-off is recorded — at a training
    table too (its rounds are re-settled like any other)."""
    table, crew = big_payout_table(tmp_path, training=training)
    table.act(ConfirmPayout(**crew.approval(table)))
    problems = forged_payout(table, lambda payload: {**{k: v for k, v in payload.items() if k != "sign_in"},
                                                     "signed_off_by": None})
    assert any("seat 2 was paid 5000 or more with no supervisor's sign-off recorded" in p for p in problems), problems


def test_a_sign_in_for_the_table_does_not_approve_a_round(tmp_path: Path) -> None:
    table, crew = big_payout_table(tmp_path)
    whole_table = crew.signed(table, SIGN_OFF, for_round=False)
    with pytest.raises(IllegalAction, match="was for the table, no round, not round 1"):
        table.act(ConfirmPayout(supervisor=SUPERVISOR, sign_in=whole_table.sign_in))


def test_verify_names_a_table_whose_profile_text_was_swapped_for_an_unapproved_one(tmp_path: Path) -> None:
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    staffed(ledger)
    Table.create(ledger, "H1", GAMES.find(PROFILE.game), PROFILE, ScriptedDeck([]), seats=7)
    ledger.close()
    text = PROFILE.text.replace("sign_off_threshold: 5000", "sign_off_threshold: 1000000")
    digest = hashlib.sha256(text.encode()).hexdigest()
    with sqlite3.connect(tmp_path / "ledger.sqlite") as db:
        event_id, payload = db.execute("SELECT id, payload FROM events WHERE kind = 'table_opened'").fetchone()
        data = {**json.loads(payload), "profile_text": text, "profile_sha256": digest}
        db.execute("UPDATE events SET payload = ? WHERE id = ?", (json.dumps(data), event_id))
        db.execute("UPDATE tables SET profile_sha256 = ? WHERE id = 1", (digest,))
    rehash(tmp_path / "ledger.sqlite")
    problems = verify(SqliteLedger(tmp_path / "ledger.sqlite", readonly=True), GAMES).problems
    assert any("profile 'high-card-flush'" in p and "is neither shipped nor approved by a manager" in p
               for p in problems), problems


def test_a_change_signed_by_a_dealer_with_their_own_pin_stands_for_nothing(tmp_path: Path) -> None:
    """D1, knowing only D1's PIN, signs in "to manage" and signs a role change making D1 a
    manager: the signature is D1's, but D1 was a dealer — the register ignores it, and verify
    names it."""
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    crew = staffed(ledger)
    key = unlock(DEALER_PIN, crew.desk.register().accounts[DEALER].pin)
    assert key is not None
    forged_sign_in = StaffSignedIn(account=DEALER, act=MANAGE, purpose="manage")
    seq = ledger.chain_length(STAFF_REGISTER)
    forged_sign_in = dataclasses.replace(forged_sign_in, signature=key.sign(signed_text(forged_sign_in, seq + 1)).hex())
    [stored] = ledger.append(STAFF_REGISTER, None, [forged_sign_in.record()])
    promotion = StaffRoleChanged(account=DEALER, role="manager", by=DEALER, sign_in=int(stored.ledger_seq or 0))
    promotion = dataclasses.replace(promotion, signature=key.sign(signed_text(promotion, seq + 2)).hex())
    ledger.append(STAFF_REGISTER, None, [promotion.record()])
    ledger.close()
    again = SqliteLedger(tmp_path / "ledger.sqlite")
    assert StaffRegister.read(again).accounts[DEALER].role == "dealer"
    with pytest.raises(SignInRefused, match="is a dealer: only a manager may manage staff"):
        StaffDesk(again).sign_in(DEALER, DEALER_PIN, Purpose(MANAGE, "add"))
    problems = verify(again, GAMES).problems
    assert any("manage by 'D1', a dealer when it signed in: only a manager may manage staff and profiles" in p
               for p in problems), problems


def test_a_table_whose_recorded_profile_was_swapped_does_not_open(tmp_path: Path) -> None:
    ledger = SqliteLedger(tmp_path / "ledger.sqlite")
    staffed(ledger)
    Table.create(ledger, "H1", GAMES.find(PROFILE.game), PROFILE, ScriptedDeck([]), seats=7).close()
    ledger.close()
    text = PROFILE.text.replace("sign_off_threshold: 5000", "sign_off_threshold: 1000000")
    with sqlite3.connect(tmp_path / "ledger.sqlite") as db:
        event_id, payload = db.execute("SELECT id, payload FROM events WHERE kind = 'table_opened'").fetchone()
        data = {**json.loads(payload), "profile_text": text, "profile_sha256": hashlib.sha256(text.encode()).hexdigest()}
        db.execute("UPDATE events SET payload = ? WHERE id = ?", (json.dumps(data), event_id))
    rehash(tmp_path / "ledger.sqlite")
    from dealer_tui.rounds.table_profiles import current_profile

    again = SqliteLedger(tmp_path / "ledger.sqlite")
    swapped = current_profile(again, 1)
    assert swapped.profile.sign_off_threshold == 1000000
    with pytest.raises(LedgerError, match="cannot be opened: .*is not approved for tables"):
        Table.open(again, again.tables()[0], GAMES.find(swapped.game), swapped, ScriptedDeck([]))
