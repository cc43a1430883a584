"""PINs: at least six digits, not one a guesser tries first, kept only as a salted scrypt hash
with its parameters, so that a later change of cost still checks the PINs set before it."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from itertools import pairwise

from dealer_tui.events.staff import PinHash

MIN_DIGITS = 6
MAX_DIGITS = 12
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**16, 8, 1
"""About 190 ms and 64 MiB a guess on the table terminals (`bench/pins.py`): an offline search
of every six-digit PIN takes more than two days of one core."""


class PinRefused(ValueError):
    """A PIN that may not be set; the message says why."""


def pin_problem(pin: str) -> str | None:
    """Why `pin` may not be a PIN, or None."""
    if not pin.isdigit() or not pin.isascii():
        return "a PIN is digits only"
    if not MIN_DIGITS <= len(pin) <= MAX_DIGITS:
        return f"a PIN is {MIN_DIGITS} to {MAX_DIGITS} digits"
    if len(set(pin)) == 1:
        return "a PIN of one digit repeated is the first a guesser tries"
    steps = {(int(b) - int(a)) % 10 for a, b in pairwise(pin)}
    if steps in ({1}, {9}):
        return "a PIN of digits in a row (123456, 987654) is the first a guesser tries"
    return None


def _scrypt(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(pin.encode(), salt=salt, n=n, r=r, p=p, dklen=32, maxmem=256 * r * n + 2**20)


def hash_pin(pin: str) -> PinHash:
    """The stored form of a new PIN (`PinRefused` when it may not be one)."""
    problem = pin_problem(pin)
    if problem is not None:
        raise PinRefused(problem)
    salt = secrets.token_bytes(16)
    n, r, p = SCRYPT_N, SCRYPT_R, SCRYPT_P
    return PinHash(scheme="scrypt", salt=salt.hex(), n=n, r=r, p=p, hash=_scrypt(pin, salt, n, r, p).hex())


def pin_matches(pin: str, stored: PinHash | None) -> bool:
    """Whether `pin` is the stored one. With nothing stored (no such account) the same work is
    done, so that the time taken does not tell which accounts exist."""
    if stored is None or stored.scheme != "scrypt":
        _scrypt(pin, b"\0" * 16, SCRYPT_N, SCRYPT_R, SCRYPT_P)
        return False
    try:
        salt, expected = bytes.fromhex(stored.salt), bytes.fromhex(stored.hash)
        got = _scrypt(pin, salt, stored.n, stored.r, stored.p)
    except (ValueError, MemoryError):  # parameters no scrypt takes: never a match
        return False
    return hmac.compare_digest(got, expected)
