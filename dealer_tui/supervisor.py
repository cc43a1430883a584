"""The supervisor's PIN: stored only as a salted scrypt hash (owner-only file), checked with a
lock-out after three wrong tries, every log-in and refusal recorded in the ledger."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from platformdirs import user_config_dir

from dealer_tui.events import typed
from dealer_tui.events.table import SupervisorLocked, SupervisorRefused, SupervisorSignedIn
from dealer_tui.ledger.base import Ledger

MAX_TRIES = 3
LOCK_SECONDS = 5 * 60
_SCRYPT = {"n": 2**14, "r": 8, "p": 1}


def default_pin_path() -> Path:
    return Path(user_config_dir("dealer-tui")) / "supervisor.json"


class PinError(Exception):
    """A PIN that cannot be set or checked; the message says why."""


def _hash(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(pin.encode(), salt=salt, n=n, r=r, p=p, dklen=32)


@dataclass
class PinStore:
    """Where the hash lives; `exists()` is False until a PIN is set on first run."""

    path: Path

    def exists(self) -> bool:
        return self.path.is_file()

    def set(self, pin: str) -> None:
        if len(pin) < 4 or not pin.isdigit():
            raise PinError("a supervisor PIN is at least 4 digits")
        salt = secrets.token_bytes(16)
        record = {"scheme": "scrypt", "salt": salt.hex(), **_SCRYPT,
                  "hash": _hash(pin, salt, **_SCRYPT).hex()}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            json.dump(record, out)
        os.replace(tmp, self.path)

    def check(self, pin: str) -> bool:
        try:
            record = json.loads(self.path.read_text())
            salt = bytes.fromhex(record["salt"])
            expected = bytes.fromhex(record["hash"])
            got = _hash(pin, salt, int(record["n"]), int(record["r"]), int(record["p"]))
        except (OSError, ValueError, KeyError) as exc:
            raise PinError(f"{self.path}: the supervisor PIN file cannot be read ({exc})") from None
        return hmac.compare_digest(got, expected)


class SignOff:
    """Three wrong PINs lock sign-off for five minutes; every attempt is a ledger event."""

    def __init__(self, store: PinStore, ledger: Ledger, table_id: int,
                 clock: Callable[[], float] = time.time) -> None:
        self.store, self.ledger, self.table_id, self.clock = store, ledger, table_id, clock
        self.failures = 0
        self.locked_until = 0.0
        kinds = [SupervisorRefused.KIND, SupervisorLocked.KIND, SupervisorSignedIn.KIND]
        for event in map(typed, ledger.table_events(table_id, kinds)):
            if isinstance(event, SupervisorRefused):
                self.failures += 1
            elif isinstance(event, SupervisorLocked):
                self.locked_until = event.until
                self.failures = 0
            else:
                self.failures = 0

    def locked_for(self) -> int:
        """Seconds left in a lock-out (0: not locked)."""
        return max(0, int(self.locked_until - self.clock() + 0.999))

    def attempt(self, pin: str, purpose: str) -> bool:
        """Check a PIN for `purpose` (e.g. "sign off round 12"); records the attempt."""
        if self.locked_for():
            raise PinError(f"sign-off is locked for {self.locked_for()} more seconds after {MAX_TRIES} wrong PINs")
        if not pin.strip():  # nothing typed is not a guess: no try is used up
            raise PinError("type the supervisor's PIN, then Enter")
        if not self.store.exists():
            raise PinError("no supervisor PIN is set: run `dealer-tui supervisor set-pin`")
        if self.store.check(pin):
            self.failures = 0
            self.ledger.append(self.table_id, None, [SupervisorSignedIn(purpose=purpose).record()])
            return True
        self.failures += 1
        events = [SupervisorRefused(purpose=purpose, failures=self.failures).record()]
        if self.failures >= MAX_TRIES:
            self.locked_until = self.clock() + LOCK_SECONDS
            self.failures = 0
            events.append(SupervisorLocked(until=self.locked_until, seconds=LOCK_SECONDS).record())
        self.ledger.append(self.table_id, None, events)
        return False
