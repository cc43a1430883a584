"""PINs that survive a copied file and a pit login (issue: no side doors, attack 6): the pit's
logins other than its owner read no PIN hash and no sealed key — not in the pit's register, not
in the staff a terminal received and delivered; a terminal gets them only wrapped under its own
key, the floor not at all (the pit checks a PIN's hash and hands back the sealed key only when it
matches); a PIN's secret parts swapped in a terminal's file sign nobody in and are named by
verify; and a PIN set before all this is changed at its account's next sign-in."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import psycopg
import pytest

from dealer_tui.audit.ledger_audit import verify
from dealer_tui.audit.pit_audit import verify_pit
from dealer_tui.events.staff import PinHash
from dealer_tui.games import GAMES
from dealer_tui.ledger import SqliteLedger
from dealer_tui.ledger.postgres import PgLedger, init_schema
from dealer_tui.pit.delivery import Delivery
from dealer_tui.staff import DEAL, FLOOR, MANAGE, Purpose, SignInRefused, StaffDesk, StaffError
from dealer_tui.staff import desk as desk_module
from tests.insider_support import rehash
from tests.pg_support import bind_to_pit, floor_login
from tests.pit_support import (
    DEALER,
    DEALER_PIN,
    PIT_MANAGER,
    PIT_MANAGER_PIN,
    SUPER,
    SUPER_PIN,
    pit_with_staff,
    terminal_login,
)


def auditor_login(pit: str) -> str:
    role = f"{pit.split('dbname=')[1].split()[0]}_audit"
    with psycopg.connect(pit, autocommit=True) as db:
        db.execute(f"CREATE ROLE {role} LOGIN IN ROLE pit_auditor")
    return pit.replace("user=pit", f"user={role}")


def owners_secrets(pit: str) -> list[tuple[str, str, str]]:
    """Every PIN's hash, sealed key and nonce, as only the owner's login reads them."""
    with psycopg.connect(pit) as db:
        return [(str(h), str(s), str(n)) for h, s, n in db.execute("SELECT hash, sealed, nonce FROM pit_pin_secrets")]


def bound_terminal(path: Path, login: str) -> Delivery:
    SqliteLedger(path).close()
    bind_to_pit(path, login)
    delivery = Delivery(path, login, path.stem)
    delivery.once()
    return delivery


def test_no_pit_login_but_the_owner_reads_a_pin_hash_or_a_sealed_key(tmp_path: Path, pit_db: str) -> None:
    """The three accounts' secrets are on the server (the owner's table); a terminal's, the floor's
    and an auditor's login are refused that table, the pit's key and the logins' keys, and find
    none of the secrets anywhere in the events they read — the pit's register and the staff the
    terminal received and delivered back included."""
    pit_with_staff(pit_db)
    seven = terminal_login(pit_db, 7)
    assert bound_terminal(tmp_path / "t7.sqlite", seven).unbound == ""
    secrets = owners_secrets(pit_db)
    assert len(secrets) == 3                                                  # PM, D7 and S7
    for login in (seven, floor_login(pit_db), auditor_login(pit_db)):
        with psycopg.connect(login, autocommit=True) as db:
            for table in ("pit_pin_secrets", "pit_secret", "pit_login_keys"):
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    db.execute(f"SELECT * FROM {table}")
            text = "".join(p for (p,) in db.execute("SELECT payload FROM pit_events"))
            kinds = {k for (k,) in db.execute("SELECT DISTINCT kind FROM pit_events")}
        assert {"staff_added", "staff_received"} <= kinds
        for hash_, sealed, nonce in secrets:
            assert hash_ not in text and sealed not in text and nonce not in text
    assert verify_pit(pit_db, GAMES).problems == []


def test_a_terminal_gets_the_pins_wrapped_under_its_own_key_and_signs_staff_in_offline(
        tmp_path: Path, pit_db: str) -> None:
    """What the terminal's login reads through the pit's function is no secret in the clear; the
    terminal's own key opens it, and its staff sign in with the pit unreachable."""
    pit_with_staff(pit_db)
    seven = terminal_login(pit_db, 7)
    path = tmp_path / "t7.sqlite"
    bound_terminal(path, seven).close()
    with psycopg.connect(seven) as db:
        wrapped = "".join(w for (_, _, w) in db.execute("SELECT * FROM pit_wrapped_secrets()"))
    for hash_, sealed, _ in owners_secrets(pit_db):
        assert hash_ not in wrapped and sealed not in wrapped
    offline = StaffDesk(SqliteLedger(path))
    assert offline.sign_in(DEALER, DEALER_PIN, Purpose(DEAL, "deal at table 1", table=1)).role == "dealer"
    with pytest.raises(SignInRefused, match="wrong ID or PIN"):
        offline.sign_in(SUPER, "918273645", Purpose(FLOOR, "a guess"))


def test_a_terminal_login_takes_no_key_without_a_pit_managers_pin(tmp_path: Path, pit_db: str) -> None:
    """The holder of an unused terminal login's password asks for the pit's PINs under a key of
    their own: without a pit manager's PIN the pit takes no key (a wrong hash, a dealer's right
    PIN), hands out nothing, and the terminal bound later by a manager takes the login."""
    import hashlib

    pit_with_staff(pit_db)
    seven = terminal_login(pit_db, 7)
    mine = "ab" * 32
    dealer = StaffDesk(PgLedger(pit_db)).register().accounts[DEALER].pin
    right = hashlib.scrypt(DEALER_PIN.encode(), salt=bytes.fromhex(dealer.salt), n=dealer.n, r=dealer.r, p=dealer.p,
                           dklen=64, maxmem=2**28)[:32].hex()                  # as a guesser works it out
    with psycopg.connect(seven, autocommit=True) as db:
        assert db.execute("SELECT pit_take_login_key(%s, %s, %s)", (dealer.kept, "00" * 32, mine)).fetchone() == (None,)
        assert db.execute("SELECT pit_take_login_key(%s, %s, %s)", (dealer.kept, right, mine)).fetchone() != (None,)
        assert db.execute("SELECT pit_key_state(%s)", (mine,)).fetchone() == ("none",)     # a dealer confirms nothing
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            db.execute("SELECT * FROM pit_wrapped_secrets()")
    assert bound_terminal(tmp_path / "t7.sqlite", seven).unbound == ""


def test_a_second_machine_confirmed_on_a_terminals_login_replaces_its_key_and_raises_an_alarm(
        tmp_path: Path, pit_db: str) -> None:
    """A pit manager confirms a second machine on terminal 7's login: the pit hands the PINs to the
    new key only, the first machine takes no staff and says why, and the replaced key is an
    alarm (whoever held it read the PINs). The owner can forget a login's key altogether."""
    pit = pit_with_staff(pit_db)
    seven = terminal_login(pit_db, 7)
    first = bound_terminal(tmp_path / "first.sqlite", seven)
    assert first.unbound == ""
    assert bound_terminal(tmp_path / "other.sqlite", seven).unbound == ""
    first.once()
    assert "another key" in first.unbound and "--pit-manager" in first.unbound
    alarms = [message for _, _, _, _, message in pit.alarm_rows()]
    assert any("confirmed a new terminal key" in m and PIT_MANAGER in m for m in alarms)
    login = seven.split("user=")[1]
    assert pit.forget_login_key(login) is not None
    assert pit.forget_login_key(login) is None                                # forgotten once
    other = Delivery(tmp_path / "other.sqlite", seven)
    other.once()
    assert "no manager of the pit has confirmed this terminal's key" in other.unbound


def test_a_pin_checked_through_the_pit_is_checked_once_at_a_time_and_slowly(pit_db: str) -> None:
    """Guesses at one account through the pit, from four connections at once, are answered one
    after another, each after half a second: four take two seconds at least."""
    import threading
    import time

    pit_with_staff(pit_db)
    floor = floor_login(pit_db)
    kept = StaffDesk(PgLedger(pit_db)).register().accounts[SUPER].pin.kept
    answers: list[object] = []

    def guess(n: int) -> None:
        with psycopg.connect(floor, autocommit=True) as db:
            answers.append(db.execute("SELECT pit_unseal(%s, %s)", (kept, f"{n:064x}")).fetchone())

    began = time.monotonic()
    threads = [threading.Thread(target=guess, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert time.monotonic() - began >= 2.0
    assert answers == [(None,)] * 4


def test_the_floor_signs_a_supervisor_in_by_the_pits_check_of_the_pin(pit_db: str) -> None:
    """A floor login holds no PIN's secret parts: the pit checks the hash of the PIN typed and
    hands back the sealed key only when it is the account's; a wrong hash gets nothing."""
    pit_with_staff(pit_db)
    floor = PgLedger(floor_login(pit_db))
    try:
        assert StaffDesk(floor).sign_in(SUPER, SUPER_PIN, Purpose(FLOOR, "the floor")).role == "supervisor"
        with pytest.raises(SignInRefused, match="wrong ID or PIN"):
            StaffDesk(floor).sign_in(SUPER, "918273645", Purpose(FLOOR, "a guess"))
        kept = StaffDesk(floor).register().accounts[SUPER].pin.kept
        assert floor.unseal(kept, "00" * 32) is None
    finally:
        floor.close()


def test_a_pin_swapped_in_a_terminals_file_signs_nobody_in_and_verify_names_it(tmp_path: Path, pit_db: str) -> None:
    """An insider puts the hash and sealed key of a PIN of their own in place of the dealer's, in
    the terminal's received copy, and re-hashes the chain: the chain checks (the hash covers the
    digest, not the parts), but the parts are not the ones the digest names, so neither PIN signs
    the dealer in, and verify names the event."""
    from dealer_tui.staff.pins import seal_pin

    pit_with_staff(pit_db)
    path = tmp_path / "t.sqlite"
    SqliteLedger(path).close()
    bind_to_pit(path, pit_db)
    Delivery(path, pit_db).once()
    mine, _ = seal_pin("86420864", "dealer")
    with sqlite3.connect(path) as db:
        rowid, payload = db.execute("SELECT id, payload FROM events WHERE kind = 'staff_received'"
                                    " AND json_extract(payload, '$.account') = ?", (DEALER,)).fetchone()
        event = json.loads(payload)
        event["event"]["pin"].update(hash=mine.hash, sealed=mine.sealed, nonce=mine.nonce)
        db.execute("UPDATE events SET payload = ? WHERE id = ?", (json.dumps(event), rowid))
    rehash(path)
    ledger = SqliteLedger(path)
    for pin in ("86420864", DEALER_PIN):
        with pytest.raises(SignInRefused, match="wrong ID or PIN"):
            StaffDesk(ledger).sign_in(DEALER, pin, Purpose(DEAL, "deal", 1))
    problems = verify(ledger, GAMES).problems
    assert any("the PIN's hash or sealed key is not the one the event names" in p for p in problems)


def test_a_pin_set_before_it_was_kept_apart_is_changed_at_its_next_sign_in(
        tmp_path: Path, pit_db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A manager whose PIN is in the old form (its hash in every copy of the register): verify
    notes it, the sign-in goes through asking for a new PIN, the same PIN again is refused, a new
    one is set in the kept form and the note is gone."""
    from dealer_tui.ledger.base import STAFF_REGISTER
    from dealer_tui.staff.pins import seal_pin

    def old_form(pin: str, role: str = "dealer") -> tuple[PinHash, object]:
        stored, key = seal_pin(pin, role)
        return PinHash(scheme="scrypt+ed25519", salt=stored.salt, n=stored.n, r=stored.r, p=stored.p,
                       hash=stored.hash, public=stored.public, sealed=stored.sealed, nonce=stored.nonce), key

    init_schema(pit_db)
    pit = PgLedger(pit_db)
    with monkeypatch.context() as patched:
        patched.setattr(desk_module, "seal_pin", old_form)
        StaffDesk(pit).add_first_manager(PIT_MANAGER, "Pat Pitboss", PIT_MANAGER_PIN)
    with psycopg.connect(pit_db) as db:
        (payload,) = db.execute("SELECT payload FROM pit_events WHERE table_id = 0 AND kind = 'staff_added'").fetchone()
    assert json.loads(payload)["pin"]["hash"] != ""                          # readable, as it was then
    assert any(PIT_MANAGER in n and "asked for a new PIN" in n for n in verify_pit(pit_db, GAMES).notes)
    desk = StaffDesk(pit)
    approval = desk.sign_in(PIT_MANAGER, PIT_MANAGER_PIN, Purpose(MANAGE, "the pit's staff"))
    assert approval.renew_pin == "readable"
    with pytest.raises(StaffError, match="the new PIN is the one in use"):
        desk.renew_pin(PIT_MANAGER, PIT_MANAGER_PIN, PIT_MANAGER_PIN)
    desk.renew_pin(PIT_MANAGER, PIT_MANAGER_PIN, "531975319")
    assert desk.sign_in(PIT_MANAGER, "531975319", Purpose(MANAGE, "again")).renew_pin == ""
    assert not any("asked for a new PIN" in n for n in verify_pit(pit_db, GAMES).notes)
    with psycopg.connect(pit_db) as db:
        last = db.execute("SELECT payload FROM pit_events WHERE table_id = %s AND kind = 'staff_pin_changed'",
                          (STAFF_REGISTER,)).fetchone()
    assert last is not None and json.loads(last[0])["pin"]["hash"] == ""
