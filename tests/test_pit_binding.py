"""No side doors through received staff: the pit signs its own register with a key of its own, and
a terminal takes staff only from the pit a manager bound it to. Each attack is carried out as an
insider would — events hashed as the ledger hashes them, the real PostgreSQL roles — and is
refused at the terminal, or named by `history verify`, or both."""

from __future__ import annotations

import json
from pathlib import Path

import psycopg
import pytest

from dealer_tui.audit import verify_ledger
from dealer_tui.audit.ledger_audit import verify
from dealer_tui.events.staff import StaffAdded, StaffReceived, area_purpose
from dealer_tui.games import GAMES
from dealer_tui.ledger import SqliteLedger
from dealer_tui.ledger.base import STAFF_REGISTER, key_fingerprint, pit_signed_text
from dealer_tui.ledger.kept import Secret, with_secrets
from dealer_tui.ledger.postgres import PgLedger, init_schema, shown
from dealer_tui.pit.delivery import Delivery
from dealer_tui.staff import (
    DEAL,
    MANAGE,
    Purpose,
    SignInRefused,
    StaffDesk,
    StaffError,
    StaffRegister,
)
from dealer_tui.staff.desk import signed
from dealer_tui.staff.pins import seal_pin
from tests.pg_support import bind_to_pit, floor_login
from tests.pit_support import (
    DEALER,
    DEALER_PIN,
    PIT_MANAGER,
    PIT_MANAGER_PIN,
    SUPER,
    pit_with_staff,
)
from tests.staff_support import DEALER as OWN_DEALER
from tests.staff_support import DEALER_PIN as OWN_DEALER_PIN
from tests.staff_support import MANAGER as OWN_MANAGER
from tests.staff_support import MANAGER_PIN as OWN_MANAGER_PIN
from tests.staff_support import staffed_path


def forged_manager_receipt(path: Path, account: str, pin: str, *, pit_signature: str = "") -> None:
    """An insider appends to a terminal's register a self-signed manager as if received from a pit."""
    pin_hash, key = seal_pin(pin)
    added = signed(StaffAdded(account=account, name="Insider", role="manager", pin=pin_hash), key, 1)
    ledger = SqliteLedger(path)
    ledger.append(STAFF_REGISTER, None, [StaffReceived(
        pit_seq=1, pit_hash="0" * 64, event_kind=added.KIND, event=added.record().payload, account=account,
        pit_signature=pit_signature).record()])
    ledger.close()


def test_a_self_signed_manager_appended_as_received_to_a_standalone_terminal_grants_nothing(tmp_path: Path) -> None:
    """Attack 1: a staff_received carrying a self-signed staff_added, appended to a terminal whose
    staff are its own: the 'manager' cannot sign in, and verify names the receipt."""
    path = staffed_path(tmp_path / "t.sqlite")
    forged_manager_receipt(path, "X9", "918273645")
    ledger = SqliteLedger(path)
    with pytest.raises(SignInRefused, match="wrong ID or PIN"):
        StaffDesk(ledger).sign_in("X9", "918273645", Purpose(MANAGE, "a manager from nowhere"))
    assert any("received without the pit's signature on a terminal whose staff are its own (it stands for nothing)"
               in p for p in verify_ledger(ledger, GAMES))


def test_a_forged_receipt_with_a_made_up_pit_signature_on_an_unbound_terminal_stands_for_nothing(
        tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite"
    SqliteLedger(path).close()
    forged_manager_receipt(path, "X9", "918273645", pit_signature="ab" * 64)
    ledger = SqliteLedger(path)
    assert "X9" not in StaffDesk(ledger).register().accounts
    assert any("this terminal is bound to no pit (it stands for nothing)" in p for p in verify_ledger(ledger, GAMES))


def test_a_dealers_own_pit_init_gives_a_staffed_terminal_no_manager(tmp_path: Path, pit_db: str) -> None:
    """Attack 1 without code: the dealer runs `pit init` on a PostgreSQL of their own with
    themselves as its manager (their PIN) and points the terminal at it: the terminal is bound to
    no pit, takes none of that pit's staff, and says so."""
    path = staffed_path(tmp_path / "t.sqlite")
    init_schema(pit_db)
    rogue = PgLedger(pit_db)
    StaffDesk(rogue).add_first_manager("S1", "Sam Rogue", OWN_DEALER_PIN + "0")
    rogue.close()
    delivery = Delivery(path, pit_db)
    assert delivery.once().refused == []                                    # its rounds may go there ...
    assert delivery.unbound.startswith("this terminal is bound to no pit: a manager compares the pit's key")
    desk = StaffDesk(SqliteLedger(path))
    assert desk.register().accounts["S1"].role == "supervisor"              # ... its staff are not taken
    with pytest.raises(SignInRefused):
        desk.sign_in("S1", OWN_DEALER_PIN + "0", Purpose(MANAGE, "the rogue pit's manager"))


def test_a_dealer_may_not_bind_a_terminal_to_a_pit(tmp_path: Path, pit_db: str) -> None:
    path = staffed_path(tmp_path / "t.sqlite")
    pit = pit_with_staff(pit_db)
    key = pit.pit_key()
    desk = StaffDesk(SqliteLedger(path))
    dealer = desk.sign_in(OWN_DEALER, OWN_DEALER_PIN, Purpose(DEAL, "deal", 1))
    with pytest.raises(StaffError, match="a manager signs in to manage staff"):
        desk.bind_pit(key, shown(pit_db), dealer)
    with pytest.raises(StaffError, match="this terminal has managers of its own: one of them binds it"):
        desk.bind_pit(key, shown(pit_db), desk.confirm_pit_manager(PIT_MANAGER, PIT_MANAGER_PIN,
                                                                   StaffRegister.read(pit), "bind"), at_pit=True)
    assert desk.register().binding is None


def test_a_terminal_bound_by_its_manager_takes_the_pits_staff_signed_by_the_pit(tmp_path: Path, pit_db: str) -> None:
    path = staffed_path(tmp_path / "t.sqlite")
    pit = pit_with_staff(pit_db)
    desk = StaffDesk(SqliteLedger(path))
    manager = desk.sign_in(OWN_MANAGER, OWN_MANAGER_PIN, Purpose(MANAGE, "bind to the pit"))
    desk.bind_pit(pit.pit_key(), shown(pit_db), manager)
    delivery = Delivery(path, pit_db)
    delivery.once()
    assert delivery.unbound == ""
    register = StaffDesk(SqliteLedger(path)).register()
    assert register.binding is not None and register.binding.pit_key == pit.pit_key()
    StaffDesk(SqliteLedger(path)).sign_in(DEALER, DEALER_PIN, Purpose(DEAL, "deal", 1))
    assert verify_ledger(SqliteLedger(path), GAMES) == []


def test_an_account_event_of_another_pit_or_unsigned_is_not_taken_by_a_bound_terminal(tmp_path: Path,
                                                                                       pit_db: str) -> None:
    """A receipt the bound pit did not sign — no signature, or another pit's key's — stands for
    nothing, at the terminal and in verify."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    pit_with_staff(pit_db)
    path = tmp_path / "t.sqlite"
    bind_to_pit(path, pit_db)
    Delivery(path, pit_db).once()
    other = Ed25519PrivateKey.generate()
    other_public = other.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    pin_hash, key = seal_pin("918273645")
    for n, account in enumerate(("X1", "X2")):
        added = signed(StaffAdded(account=account, name="Insider", role="manager", pin=pin_hash, by=None), key,
                       50 + n)
        payload = added.record().payload
        signature = "" if n == 0 else other.sign(pit_signed_text(other_public, 50 + n, added.KIND, payload)).hex()
        SqliteLedger(path).append(STAFF_REGISTER, None, [StaffReceived(
            pit_seq=50 + n, pit_hash="0" * 64, event_kind=added.KIND, event=payload, account=account,
            pit_signature=signature).record()])
    register = StaffDesk(SqliteLedger(path)).register()
    assert "X1" not in register.accounts and "X2" not in register.accounts
    problems = verify_ledger(SqliteLedger(path), GAMES)
    assert sum("does not carry the signature of pit" in p for p in problems) == 2


def test_a_floor_login_may_not_write_an_account_event_on_the_pits_chain(pit_db: str) -> None:
    """Only the pit owner's login signs with the pit's key: a floor login's account event is
    refused by the server, and the pit's key is not readable by it."""
    pit = pit_with_staff(pit_db)
    floor = floor_login(pit_db)
    head = pit.chain_length(STAFF_REGISTER)
    payload = json.dumps({"account": "X1", "name": "x", "role": "manager"})
    with psycopg.connect(floor, autocommit=True) as db:
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="signed with the pit's key"):
            db.execute("SELECT pit_floor_append(%s, 't', 'staff_added', %s, 'p', 'h', 1)", (head + 1, payload))
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            db.execute("SELECT value FROM pit_secret")
    floor_desk = StaffDesk(PgLedger(floor))
    by = floor_desk.sign_in(PIT_MANAGER, PIT_MANAGER_PIN, Purpose(MANAGE, "add a dealer from the floor login"))
    with pytest.raises(Exception, match="through the pit owner's login"):
        floor_desk.add("D9", "Dee", "dealer", "918273645", by)
    assert pit.chain_length(STAFF_REGISTER) == head + 1                     # the sign-in only


def test_a_new_terminal_is_bound_only_with_a_pit_managers_pin(tmp_path: Path, pit_db: str) -> None:
    """On a terminal with no accounts the pit's manager confirms the key with their PIN: a wrong
    PIN is a counted refusal, a supervisor of the pit may not, and the binding is checked by verify
    against the pit's account once received."""
    pit = pit_with_staff(pit_db)
    path = tmp_path / "new.sqlite"
    SqliteLedger(path).close()
    register = StaffRegister.read(pit)
    desk = StaffDesk(SqliteLedger(path))
    with pytest.raises(SignInRefused, match="wrong ID or PIN for the pit's manager PM"):
        desk.confirm_pit_manager(PIT_MANAGER, "918273645", register, "bind")
    assert desk.tries_left(PIT_MANAGER) == 2
    with pytest.raises(SignInRefused, match="only an active manager of the pit"):
        desk.confirm_pit_manager(SUPER, "717171717", register, "bind")
    bind_to_pit(path, pit_db)
    delivery = Delivery(path, pit_db)
    delivery.once()
    assert verify(SqliteLedger(path), GAMES).problems == []
    binding = StaffDesk(SqliteLedger(path)).register().binding
    assert binding is not None and binding.confirmed and binding.pit_key == pit.pit_key()
    assert len(key_fingerprint(pit.pit_key()).split()) == 5


def test_a_binding_confirmed_with_a_key_the_pit_does_not_hold_is_named(tmp_path: Path, pit_db: str) -> None:
    """An insider binds a new terminal with a key of their own under the pit manager's name: the
    pit's account for that manager, once received, does not hold it: verify names the binding and
    the staff received under it sign nothing in."""
    pit = pit_with_staff(pit_db)
    path = tmp_path / "new.sqlite"
    SqliteLedger(path).close()
    _, own_key = seal_pin("918273645")
    from dealer_tui.staff.authority import Approval

    StaffDesk(SqliteLedger(path)).bind_pit(pit.pit_key(), shown(pit_db),
                                           Approval(PIT_MANAGER, "Pat", "manager", 0, MANAGE, own_key), at_pit=True)
    Delivery(path, pit_db).once()
    with pytest.raises(SignInRefused, match="does not hold as a manager with that key"):
        StaffDesk(SqliteLedger(path)).sign_in(DEALER, DEALER_PIN, Purpose(DEAL, "deal", 1))
    assert any("does not hold as a manager with that key" in p for p in verify_ledger(SqliteLedger(path), GAMES))


def test_old_receipts_from_before_pit_signatures_verify_with_a_note_and_grant_nothing(tmp_path: Path,
                                                                                      pit_db: str) -> None:
    """A terminal that received the pit's staff before pits signed their registers (receipts with
    no signature, no binding): verify is clean and says which protection they lack; the accounts
    sign nothing in until a manager binds the terminal, after which the pit's staff come anew."""
    import psycopg

    pit = pit_with_staff(pit_db)
    path = tmp_path / "old.sqlite"
    ledger = SqliteLedger(path)
    with psycopg.connect(pit_db) as db:                                     # the PINs as they came in full then
        rows = db.execute("SELECT kept, hash, sealed, nonce FROM pit_pin_secrets").fetchall()
        secrets = {k: Secret(k, h, s, n) for k, h, s, n in rows}
    for event, _ in pit.pit_staff(0):                                       # as an older terminal recorded them
        ledger.append(STAFF_REGISTER, None, [StaffReceived(pit_seq=event.seq, pit_hash=event.hash,
                                                           event_kind=event.kind,
                                                           event=with_secrets(event.payload, secrets),
                                                           account=str(event.payload.get("account", ""))).record()])
    report = verify(ledger, GAMES)
    assert report.problems == []
    assert any("3 account event(s) received from a pit before pits signed their registers" in n for n in report.notes)
    with pytest.raises(SignInRefused, match="came from the pit before pits signed their registers"):
        StaffDesk(ledger).sign_in(DEALER, DEALER_PIN, Purpose(DEAL, "deal", 1))
    ledger.close()
    bind_to_pit(path, pit_db)
    Delivery(path, pit_db).once()
    StaffDesk(SqliteLedger(path)).sign_in(DEALER, DEALER_PIN, Purpose(DEAL, "deal", 1))
    assert verify(SqliteLedger(path), GAMES).problems == []


def delivered_and_copied(tmp_path: Path, pit_db: str) -> str:
    """Terminal 7's ledger of three rounds delivered, then copied to clone.sqlite under a new ledger
    id; the login of another terminal (8), to deliver the copy with."""
    import shutil
    import sqlite3

    from tests.pit_support import played, terminal_login

    init_schema(pit_db)
    seven, eight = terminal_login(pit_db, 7), terminal_login(pit_db, 8)
    played(tmp_path / "t7.sqlite", rounds=3).close()
    assert Delivery(tmp_path / "t7.sqlite", seven).once().refused == []
    shutil.copy(tmp_path / "t7.sqlite", tmp_path / "clone.sqlite")
    with sqlite3.connect(tmp_path / "clone.sqlite") as db:
        db.execute("UPDATE ledger_meta SET value = 'ffffffffffffffffffffffffffffffff' WHERE key = 'ledger_id'")
    return eight


def test_a_copy_of_a_delivered_ledger_under_a_new_id_and_another_login_is_refused(tmp_path: Path,
                                                                                   pit_db: str) -> None:
    """Attack 5: a delivered ledger copied, given a new ledger id and delivered under another
    terminal's login: the server refuses every table whose chain it holds already, naming the
    ledger it copies, and raises the alarm; its rounds are not shown twice."""
    from dealer_tui.audit.pit_audit import verify_pit
    from tests.pit_support import server_count

    eight = delivered_and_copied(tmp_path, pit_db)
    refused = Delivery(tmp_path / "clone.sqlite", eight).once().refused
    assert len(refused) == 2                                      # the staff register's chain and the table's
    assert all("is on the server already, in table" in r and "this ledger is a copy of that one" in r for r in refused)
    assert server_count(pit_db, "SELECT COUNT(*) FROM pit_rounds") == 3
    assert any("this ledger is a copy of that one" in p for p in verify_pit(pit_db, GAMES).problems)


def test_rounds_delivered_later_than_the_floor_allows_are_flagged_and_raise_an_alert(tmp_path: Path,
                                                                                    pit_db: str) -> None:
    """Attack 4's trace: rounds played while the pit could not be reached (here: ended 25 minutes
    before they reach it) are flagged late_delivery on the pit's floor, noted by the pit's verify
    and raise an alert; rounds delivered at once are not."""
    import random
    from datetime import UTC, datetime, timedelta

    from dealer_tui.accounting.alerts import raised
    from dealer_tui.audit.pit_audit import verify_pit
    from dealer_tui.demo import play, seat_players
    from dealer_tui.rounds.cards import VirtualShoe
    from tests.pit_support import HCF
    from tests.staff_support import staffed_table

    class Behind:
        def __init__(self) -> None:
            self.minutes = 25

        def __call__(self) -> str:
            return (datetime.now(UTC) - timedelta(minutes=self.minutes)).isoformat(timespec="microseconds")

    init_schema(pit_db)
    clock = Behind()
    ledger = SqliteLedger(tmp_path / "t.sqlite", clock=clock)
    table = staffed_table(ledger, "Main 1", HCF, VirtualShoe.seeded_with(3), seats=7)
    seat_players(table, 3)
    play(table, 2, random.Random(3))                                    # offline: 25 minutes ago
    Delivery(tmp_path / "t.sqlite", pit_db).once()
    clock.minutes = 0
    play(table, 1, random.Random(4))                                    # online: delivered at once
    Delivery(tmp_path / "t.sqlite", pit_db).once()
    pit = PgLedger(pit_db)
    flagged = {r.number: "late_delivery" in r.flags for r in pit.table_rounds(pit.tables()[0].id)}
    assert flagged == {1: True, 2: True, 3: False}
    assert any(n.startswith("table Main 1, round 1: reached the server 25 minutes after it ended")
               for n in verify_pit(pit_db, GAMES).notes)
    assert [a.kind for a in raised(pit) if a.kind == "late delivery"] == ["late delivery"] * 2


def test_a_tables_area_is_a_managers_signed_change_on_the_pits_chain(tmp_path: Path, pit_db: str) -> None:
    """Attack 8: a floor login changed an area with no manager and no record. The area is now the
    last `area_changed` on the pit's chain: a manager's is shown and verified; one a floor login
    writes naming a supervisor's sign-in is named by verify; no login may update the column."""
    from dealer_tui.audit.pit_audit import verify_pit
    from dealer_tui.staff import FLOOR
    from tests.pit_support import played

    pit = pit_with_staff(pit_db)
    played(tmp_path / "t.sqlite", rounds=1).close()
    Delivery(tmp_path / "t.sqlite", pit_db).once()
    table = pit.tables()[0].id
    desk = StaffDesk(pit)
    by = desk.sign_in(PIT_MANAGER, PIT_MANAGER_PIN, Purpose(MANAGE, area_purpose(table, "Pit 2")))
    pit.set_area(table, "Pit 2", by.account, by.sign_in)
    assert pit.areas()[table] == "Pit 2" and verify_pit(pit_db, GAMES).problems == []
    pit.alarm("someone", "-", "a delivery refused (test)")
    alarm = int(pit.alarms()[0][3].rsplit("(alarm ", 1)[1].rstrip(")"))
    floor_url = floor_login(pit_db)
    reused = PgLedger(floor_url)
    reused.acknowledge(alarm, "looked into (not by PM)", PIT_MANAGER, by.sign_in)   # the area's sign-in again
    assert pit.alarms() != []                                        # the alarm stays on the floor
    assert any(f"which was to {area_purpose(table, 'Pit 2')!r}, not to 'acknowledge alarm {alarm}'" in p
               for p in verify_pit(pit_db, GAMES).problems)
    reused.set_area(table, "Back room", PIT_MANAGER, by.sign_in)     # and a table moved on it: named
    assert any("(area_changed): manage by 'PM'" in p and "in area 'Back room'" in p for p in verify_pit(pit_db, GAMES).problems)
    with psycopg.connect(floor_url, autocommit=True) as db:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            db.execute("UPDATE pit_tables SET area = 'Cellar' WHERE id = %s", (table,))
    assert reused.areas()[table] == "Back room"
    sup = StaffDesk(reused).sign_in(SUPER, "717171717", Purpose(FLOOR, "the floor"))
    reused.set_area(table, "Cellar", SUPER, sup.sign_in)
    assert reused.areas()[table] == "Cellar"                        # recorded, and so it is named:
    problems = verify_pit(pit_db, GAMES).problems
    assert any("(area_changed): manage by 'S7'" in p and "stands for nothing" in p for p in problems), problems


def test_a_copy_nudged_to_new_hashes_is_refused_by_the_sign_ins_it_copies(tmp_path: Path, pit_db: str) -> None:
    """Attack 5, harder: the copy's first events moved by a microsecond, its table renamed and its
    chains re-hashed, so no hash is the original's: the sign-ins it carries are another ledger's
    (the same signatures), and the server refuses them, naming that ledger."""
    import sqlite3

    from tests.insider_support import rehash
    from tests.pit_support import server_count

    eight = delivered_and_copied(tmp_path, pit_db)
    with sqlite3.connect(tmp_path / "clone.sqlite") as db:
        db.execute("UPDATE events SET ts = replace(ts, '+00:00', '1+00:00') WHERE seq = 1")
        db.execute("UPDATE tables SET name = 'H9' WHERE id <> 0")
    rehash(tmp_path / "clone.sqlite")
    refused = Delivery(tmp_path / "clone.sqlite", eight).once().refused
    assert refused and any("a sign-in copied from another ledger" in r for r in refused)
    assert server_count(pit_db, "SELECT COUNT(*) FROM pit_rounds") == 3


def test_rounds_held_back_while_the_terminal_was_silent_are_late_whatever_times_they_carry(
        tmp_path: Path, pit_db: str) -> None:
    """Attack 4 with its times moved: the rounds say they ended just now, but the terminal was not
    heard from for 25 minutes before it delivered them: the pit measures from its own record of the
    silence and flags them late_delivery."""
    import random

    from dealer_tui.demo import play, seat_players
    from dealer_tui.rounds.cards import VirtualShoe
    from tests.pit_support import HCF
    from tests.staff_support import staffed_table

    init_schema(pit_db)
    ledger = SqliteLedger(tmp_path / "t.sqlite")
    table = staffed_table(ledger, "Main 1", HCF, VirtualShoe.seeded_with(3), seats=7)
    seat_players(table, 3)
    play(table, 1, random.Random(3))
    Delivery(tmp_path / "t.sqlite", pit_db).once()
    with psycopg.connect(pit_db, autocommit=True) as db:              # 25 minutes of silence, as the server saw it
        db.execute("UPDATE pit_links SET last_contact = last_contact - interval '25 minutes'")
    play(table, 2, random.Random(4))                                  # their own times: now
    Delivery(tmp_path / "t.sqlite", pit_db).once()
    pit = PgLedger(pit_db)
    flagged = {r.number: "late_delivery" in r.flags for r in pit.table_rounds(pit.tables()[0].id)}
    assert flagged == {1: False, 2: True, 3: True}
